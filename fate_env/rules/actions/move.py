"""The free move: one zone, before or after the action, across an open border (003:1546-1552)."""

from __future__ import annotations

from ..options import Move
from ..steps import move_to
from .base import Action


def offer(e, f, ctx):
    return [Move(z) for z in ctx.free_now]


def run(e, f, choice: Move):
    move_to(e, f, choice.zone, free=True)
    yield from ()


ACTION = Action(Move, offer, run, takes_action=False)
