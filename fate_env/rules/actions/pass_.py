"""Do nothing this turn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import events as ev
from ..decisions import Flow
from ..options import Pass
from ..state import Fighter
from .base import Action, TurnContext

if TYPE_CHECKING:
    from ..engine import Engine


def offer(e: "Engine", f: Fighter, ctx: TurnContext) -> list[Any]:
    return [Pass()]


def run(e: "Engine", f: Fighter, choice: Any) -> Flow:
    e.emit(ev.Passed(f.id))
    yield from ()


ACTION = Action(Pass, offer, run)
