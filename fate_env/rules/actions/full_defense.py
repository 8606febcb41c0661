"""Full defense: +2 to every defense until the next turn (003:2240-2248; 000:400-404).

Under Fate 3.0's minor actions (``move_cost: minor``) it is not offered once the turn has spent
its move: full defense forgoes the main action and the minor ones alike (002:41).
"""

from __future__ import annotations

from typing import Any

from .. import events as ev
from ..decisions import Flow
from ..options import FullDefense
from ..state import Fighter
from .base import Action, TurnContext
from ..play import Play


def offer(e: "Play", f: Fighter, ctx: TurnContext) -> list[Any]:
    if e.facts.minor_moves and not ctx.free_move:
        return []  # Fate 3.0: a full defense gives up the turn's minor actions too, and one was taken (002:41)
    return [FullDefense()]


def run(e: "Play", f: Fighter, choice: Any) -> Flow:
    f.full_defense = True
    f.defended_on_full = False
    e.emit(ev.FullDefenseDeclared(f.id))
    yield from ()


ACTION = Action(FullDefense, offer, run)
