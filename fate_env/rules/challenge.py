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
from .conflict import FAIL, STYLE, SUCCESS, TIE, Conflict, Flow, band
from .options import Choose, TakeTask


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
        remaining = list(range(len(spec.tasks)))
        results = []
        while remaining:
            able = [c for c in challengers if self.f[c].active]
            if not able:
                break
            options = [TakeTask(i, c) for i in remaining for c in ([spec.tasks[i].by] if spec.tasks[i].by else able)
                       if self.f[c].active]
            if not options:
                break
            pick = yield from self._ask("task", able[0], options)
            self.exchange += 1
            task = spec.tasks[pick.task]
            f = self.f[pick.character]
            roll = self._roll("overcome", f, task.skill, difficulty=task.difficulty, why=task.name)
            yield from self._invoke_rounds(roll)
            self._resolved(roll)
            outcome = band(roll.margin)
            if outcome == FAIL:
                choice = yield from self._ask("cost", f.id, [Choose("fail"), Choose("major_cost")], action="task")
                result = choice.option
            elif outcome == TIE:
                options = [Choose("minor_cost")] + ([Choose("fail_with_boost")] if self.rules.overcome_tie == "choice" else [])
                choice = yield from self._ask("cost", f.id, options, action="task")
                result = choice.option
                if result == "fail_with_boost":
                    self._boost(f.id, "Second Wind")
                elif roll.opposer is not None:
                    self._boost(roll.opposer, "Small Win")
            else:
                result = "success" if outcome == SUCCESS else "success_with_style"
                if outcome == STYLE:
                    self._boost(f.id, "Flying Start")
            self._emit(ev.TaskResult(task.name, f.id, roll.effort, roll.opposition, outcome, result))
            results.append({"task": task.name, "character": f.id, "effort": roll.effort,
                            "difficulty": roll.opposition, "outcome": outcome, "result": result})
            remaining.remove(pick.task)
        self._finish(tasks=results)
