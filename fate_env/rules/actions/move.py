"""The free move: one zone, before or after the action, across an open border (003:1546-1552)."""

from __future__ import annotations

from typing import Any

from ..decisions import Flow
from ..options import Move
from ..state import Fighter
from ..steps import move_to
from .base import Action, TurnContext
from ..play import Play


def offer(e: "Play", f: Fighter, ctx: TurnContext) -> list[Any]:
    return [Move(z) for z in ctx.free_now]


def run(e: "Play", f: Fighter, choice: Move) -> Flow:
    move_to(e, f, choice.zone, free=True)
    yield from ()


ACTION = Action(Move, offer, run, takes_action=False)
