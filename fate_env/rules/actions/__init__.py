"""The actions a character may take on its turn, one module each, in the order they are offered.

``ACTIONS`` is that order: it fixes the option indices the environment's action layout, saved
sessions and trained models rely on, so a new action goes where it should be offered and the
existing ones keep their places. Adding an action is one module (its option type in
``options.py``, an ``offer`` and a ``run``) and one line here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..reach import free_moves
from ..state import Fighter
from . import (
    advantage,
    attack,
    concede,
    exploit,
    full_defense,
    guard,
    hold,
    protect,
    block,
    split_advantage,
    move,
    overcome_move,
    pass_,
    remove,
    shove,
    split_attack,
    split_remove,
    support,
    task,
    turn_to_contest,
    zone_attack,
    zone_challenge,
)
from .base import Action, TurnContext
from ..play import Play

if TYPE_CHECKING:
    from ..scene import Scene

ACTIONS: tuple[Action, ...] = (
    move.ACTION,             # the free move first (it does not end the turn)
    attack.ACTION,
    advantage.ACTION,
    exploit.ACTION,
    overcome_move.ACTION,
    remove.ACTION,
    task.ACTION,
    turn_to_contest.ACTION,
    full_defense.ACTION,
    support.ACTION,
    concede.ACTION,
    pass_.ACTION,
    zone_attack.ACTION,      # offered only with a zone_attack stunt: last, so no other option moves
    split_attack.ACTION,     # offered only under the split_effort dial
    shove.ACTION,            # offered only beside a block
    hold.ACTION,             # offered only under the hold_action dial
    protect.ACTION,          # offered only under the protect dial
    block.ACTION,            # offered only under the block_actions dial
    split_advantage.ACTION,  # offered only under the split_effort dial
    guard.ACTION,            # offered only under the full_defense_focus dial
    split_remove.ACTION,     # offered only under the split_effort dial
    zone_challenge.ACTION,   # offered only in a zone with its own challenge
)
BY_OPTION: dict[type, Action] = {a.option: a for a in ACTIONS}


def actions_for(scene: "Scene") -> tuple[Action, ...]:
    """``ACTIONS`` without those whose gate the scene does not open (a zone attack without a
    zone_attack stunt, a split without the split_effort dial, a shove without a block): the turn's
    options are built every turn, and these would only ever answer with nothing."""
    return tuple(a for a in ACTIONS if a.gate is None or a.gate(scene))


#: the features the actions' gates go by (Action.feature), each with its gate: read by the environment
FEATURES: dict[str, Any] = {}
for _a in ACTIONS:
    if _a.feature is not None:
        if FEATURES.setdefault(_a.feature, _a.gate) is not _a.gate:
            raise ValueError(f"feature {_a.feature!r} is declared by two actions with different gates")
del _a


def turn_options(e: "Play", f: Fighter, free_move: bool) -> list[Any]:
    """Every option of ``f``'s turn, action by action in ``ACTIONS`` order."""
    ctx = TurnContext(free_move, free_moves(e, f) if free_move else [], e.t.foes_of(f.id))
    opts: list[Any] = []
    for action in e.actions:
        opts.extend(action.offer(e, f, ctx))
    return opts


__all__ = ["ACTIONS", "BY_OPTION", "FEATURES", "Action", "TurnContext", "actions_for", "turn_options"]
