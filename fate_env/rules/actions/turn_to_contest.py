"""Stop fighting and make it a race: the scene's contest takes over from here (000:539-547).
Offered once the scene's challenge, if any, is done."""

from __future__ import annotations

from ..options import TurnToContest
from .base import Action


def offer(e, f, ctx):
    return [TurnToContest()] if e.scene.contest is not None and not e.t.tasks_left else []


def run(e, f, choice):
    e.t.to_contest = f.id  # the conflict's flow hands over after this turn
    yield from ()


ACTION = Action(TurnToContest, offer, run)
