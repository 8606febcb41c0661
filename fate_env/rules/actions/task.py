"""A challenge task: an overcome against its difficulty (003:1473-1476; 000:42-62).

In a challenge it is the whole turn; in a conflict with a challenge inside it, another action a
character not set back this exchange may take (a modified challenge, 000:501-505). A failure may
be taken as success at a major cost (003:673-679); a tie is success at a minor cost (the
opposition gets a boost) or, under condensed, a failure with a boost.
"""

from __future__ import annotations

from typing import Any

from .. import events as ev
from ..aspects import boost
from ..decisions import Flow, ask
from ..invokes import invoke_rounds
from ..kinds import DecisionKind, SceneKind
from ..options import Choose, TakeTask
from ..overcome import COST, overcome_outcome
from ..rolls import FAIL, STYLE, SUCCESS, TIE, Difficulty, band, resolved, roll
from ..state import Fighter
from .base import Action, TurnContext
from ..play import Play


def offer(e: "Play", f: Fighter, ctx: TurnContext) -> list[Any]:
    t = e.t
    if not t.tasks_left or f.id in t.set_back:
        return []
    spec = e.scene.challenge
    if f.sheet.side != spec.side:
        return []
    return [TakeTask(i, f.id) for i in t.tasks_left if spec.tasks[i].by in (None, f.id)]


def run(e: "Play", f: Fighter, choice: TakeTask) -> Flow:
    yield from attempt_task(e, f, choice.task)


def attempt_task(e: "Play", f: Fighter, index: int) -> Flow:
    t = e.t
    task = e.scene.challenge.tasks[index]
    r = roll(e, "overcome", f, task.skill, Difficulty(task.difficulty, task.name))
    yield from invoke_rounds(e, r)
    resolved(e, r)
    outcome = band(r.margin)
    if outcome == FAIL:
        choice = yield from ask(e, DecisionKind.COST, f.id, [Choose("fail"), Choose("major_cost")], action="task")
        result = choice.option
    elif outcome == TIE:
        tied = yield from overcome_outcome(e, f, r, action="task")
        result = "minor_cost" if tied == COST else "fail_with_boost"
    else:
        result = "success" if outcome == SUCCESS else "success_with_style"
        if outcome == STYLE:
            boost(e, f.id, "Flying Start")
    if result != "fail" and result != "fail_with_boost" or e.scene.kind == SceneKind.CHALLENGE:
        t.tasks_left.remove(index)
        if not t.tasks_left and e.immunity:  # the challenge is beaten: the big bad can be touched
            e.emit(ev.ImmunityEnds(tuple(c.id for c in e.scene.characters if c.challenge_immunity)))
    e.emit(ev.TaskResult(task.name, f.id, r.effort, r.opposition, outcome, result))
    t.task_results.append({"task": task.name, "character": f.id, "effort": r.effort,
                           "difficulty": r.opposition, "outcome": outcome, "result": result})


ACTION = Action(TakeTask, offer, run)
