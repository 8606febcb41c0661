"""Do nothing this turn."""

from __future__ import annotations

from typing import Any

from .. import events as ev
from ..decisions import Flow
from ..options import Pass
from ..state import Fighter
from .base import Action, TurnContext
from ..play import Play


def offer(e: "Play", f: Fighter, ctx: TurnContext) -> list[Any]:
    return [Pass()]


def run(e: "Play", f: Fighter, choice: Any) -> Flow:
    e.emit(ev.Passed(f.id))
    yield from ()


ACTION = Action(Pass, offer, run)
