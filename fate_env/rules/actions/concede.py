"""Concede on one's own turn (003:1693-1712); conceding out of turn is the engine's ``concede``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..decisions import Flow
from ..options import Concede
from ..state import Fighter
from ..steps import concede_fighter
from .base import Action, TurnContext

if TYPE_CHECKING:
    from ..engine import Engine


def offer(e: "Engine", f: Fighter, ctx: TurnContext) -> list[Any]:
    return [Concede()]


def run(e: "Engine", f: Fighter, choice: Any) -> Flow:
    concede_fighter(e, f)
    yield from ()


ACTION = Action(Concede, offer, run, gate=lambda scene: scene.rules.concession != "offered")  # offered: 001:150
