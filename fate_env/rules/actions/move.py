"""The free move: one zone, before or after the action, across an open border (003:1546-1552)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..decisions import Flow
from ..options import Move
from ..state import Fighter
from ..steps import move_to
from .base import Action, TurnContext

if TYPE_CHECKING:
    from ..engine import Engine


def offer(e: "Engine", f: Fighter, ctx: TurnContext) -> list[Any]:
    return [Move(z) for z in ctx.free_now]


def run(e: "Engine", f: Fighter, choice: Move) -> Flow:
    move_to(e, f, choice.zone, free=True)
    yield from ()


ACTION = Action(Move, offer, run, takes_action=False)
