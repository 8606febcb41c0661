"""Support: pledge teamwork to an ally's next roll, even one who has acted (003:1558-1561)."""

from __future__ import annotations

from typing import Any

from .. import events as ev
from ..decisions import Flow
from ..options import Support
from ..state import Fighter
from .base import Action, TurnContext
from ..play import Play


def offer(e: "Play", f: Fighter, ctx: TurnContext) -> list[Any]:
    return [Support(a) for a in e.t.allies_of(f.id)]


def run(e: "Play", f: Fighter, choice: Support) -> Flow:
    e.t.f[choice.ally].supporters.append(f.id)
    e.emit(ev.SupportPledged(f.id, choice.ally))
    yield from ()


ACTION = Action(Support, offer, run)
