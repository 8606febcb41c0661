"""A challenge's flow: a list of overcome tasks against passive difficulties (003:1462-1488; 000:16-76).

The challengers' first character picks which task is next and who takes it on (a task may name
who must); the task itself is :mod:`fate_env.rules.actions.task`. Unused boosts stay for the
scene (000:68): no turn ends here, so none expires. The results are the outcome's ``tasks``.
The flow resumes at each task pick (the engine's checkpoint).
"""

from __future__ import annotations


from .. import events as ev
from ..actions.task import attempt_task
from ..decisions import Flow, ask
from ..end import finish
from ..kinds import DecisionKind
from ..options import TakeTask
from ..play import Play


def run(e: "Play") -> Flow:
    t = e.t
    spec = e.scene.challenge
    challengers = [c.id for c in e.scene.characters if c.side == spec.side]
    if t.cursor is None:
        t.can_concede = False
        e.emit(ev.ChallengeStarted(e.scene.name, e.rules.name, spec.side, [task.name for task in spec.tasks]))
        t.cursor = "tasks"
    while t.tasks_left:
        e.checkpoint()
        able = [c for c in challengers if t.f[c].active]
        options = [TakeTask(i, c) for i in t.tasks_left
                   for c in ([spec.tasks[i].by] if spec.tasks[i].by else able) if c in able]
        if not options:
            break
        pick = yield from ask(e, DecisionKind.TASK, able[0], options)
        t.exchange += 1
        yield from attempt_task(e, t.f[pick.character], pick.task)
    finish(e, tasks=list(t.task_results))
