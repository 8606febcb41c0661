"""Concede on one's own turn (003:1693-1712); conceding out of turn is the engine's ``concede``."""

from __future__ import annotations

from typing import Any

from ..decisions import Flow
from ..options import Concede
from ..state import Fighter
from ..steps import concede_fighter
from .base import Action, TurnContext
from ..play import Play


def offer(e: "Play", f: Fighter, ctx: TurnContext) -> list[Any]:
    return [Concede()]


def run(e: "Play", f: Fighter, choice: Any) -> Flow:
    concede_fighter(e, f)
    yield from ()


ACTION = Action(Concede, offer, run, gate=lambda scene: not scene.rules.facts.concession_offered)  # offered: 001:150
