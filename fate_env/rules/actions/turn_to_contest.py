"""Stop fighting and make it a race: the scene's contest takes over from here (000:539-547).
Offered once the scene's challenge, if any, is done."""

from __future__ import annotations

from typing import Any

from ..decisions import Flow
from ..options import TurnToContest
from ..state import Fighter
from .base import Action, TurnContext
from ..play import Play


def offer(e: "Play", f: Fighter, ctx: TurnContext) -> list[Any]:
    if e.contest_immune is not None:
        return []  # the scene's contest is the big bad's immunity, played first (003:2527-2532)
    return [TurnToContest()] if e.scene.contest is not None and not e.t.tasks_left else []


def run(e: "Play", f: Fighter, choice: Any) -> Flow:
    e.t.to_contest = f.id  # the conflict's flow hands over after this turn
    yield from ()


ACTION = Action(TurnToContest, offer, run)
