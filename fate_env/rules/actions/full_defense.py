"""Full defense: +2 to every defense until the next turn (003:2240-2248; 000:400-404)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import events as ev
from ..decisions import Flow
from ..options import FullDefense
from ..state import Fighter
from .base import Action, TurnContext

if TYPE_CHECKING:
    from ..engine import Engine


def offer(e: "Engine", f: Fighter, ctx: TurnContext) -> list[Any]:
    return [FullDefense()]


def run(e: "Engine", f: Fighter, choice: Any) -> Flow:
    f.full_defense = True
    f.defended_on_full = False
    e.emit(ev.FullDefenseDeclared(f.id))
    yield from ()


ACTION = Action(FullDefense, offer, run)
