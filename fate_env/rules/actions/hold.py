"""Hold your action (001:82-84): a character lets its turn pass now, to take it later in the
exchange, between one character's finished turn and the next one's start (never interrupting an
action once it is declared). A held turn not taken before the exchange ends is lost.

Only in a fixed turn order (``turn_order: skills``; the ``hold_action`` dial refuses popcorn, where
the one acting already picks who goes next). The flow's side is :func:`held_turns`.
"""

from __future__ import annotations

from typing import Any

from .. import events as ev
from ..decisions import Flow
from ..options import Hold
from ..state import Fighter
from .base import Action, TurnContext
from ..play import Play


def offer(e: "Play", f: Fighter, ctx: TurnContext) -> list[Any]:
    if f.id in e.t.held_once or not ctx.free_move:
        return []  # once an exchange, and not after moving (the turn is put off whole)
    return [Hold()]


def run(e: "Play", f: Fighter, choice: Hold) -> Flow:
    e.t.held = e.t.held + (f.id,)
    e.t.held_once = e.t.held_once | {f.id}
    e.emit(ev.ActionHeld(f.id))
    yield from ()


ACTION = Action(Hold, offer, run, gate=lambda scene: scene.rules.hold_action, feature="held")
