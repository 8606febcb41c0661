"""Challenges: a list of overcome tasks against passive difficulties (003:1462-1488; 000:16-76).

The challengers' first character picks which task is next and who takes it on
(a task may name who must), the roll goes against the task's difficulty, and
the opposition (a character of another side, if the scene has one) may invoke
to raise it. Outcomes: a failure may be taken as a success at a major cost
(003:673-679); a tie is a success at a minor cost (the opposition gets a boost)
or, under condensed, a failure with a boost (003:791-793); success; success with
style and a boost. Boosts won in a challenge stay for the scene (000:68).
The results are the outcome record's ``tasks``; what they mean is the GM's call.
"""

from __future__ import annotations

from . import events as ev
from .conflict import Conflict, Flow
from .options import TakeTask


class Challenge(Conflict):
    def __init__(self, scene, seed=None, **kwargs):
        if scene.challenge is None:
            raise ValueError(f"scene {scene.name!r} is not a challenge (kind: {scene.kind})")
        super().__init__(scene, seed, **kwargs)

    def _expire_boosts(self, actor: str) -> None:
        pass  # unused boosts stay for the rest of the scene (000:68)

    def _run(self) -> Flow:
        spec = self.scene.challenge
        self.can_concede = False
        challengers = [c.id for c in self.scene.characters if c.side == spec.side]
        self._emit(ev.ChallengeStarted(self.scene.name, self.rules.name, spec.side, [t.name for t in spec.tasks]))
        while self._tasks_left:
            able = [c for c in challengers if self.f[c].active]
            options = [TakeTask(i, c) for i in self._tasks_left
                       for c in ([spec.tasks[i].by] if spec.tasks[i].by else able) if c in able]
            if not options:
                break
            pick = yield from self._ask("task", able[0], options)
            self.exchange += 1
            yield from self._attempt_task(self.f[pick.character], pick.task)
        self._finish(tasks=list(self.task_results))
