"""A zone's own challenge (the threat as a map, 003:2606-2609: "some zones might contain simple
challenges that must be overcome in order to move deeper").

A zone may hold a challenge (``zones[].challenge``): tasks, each an overcome against a difficulty,
and the zones that lie deeper. While a task is left no one moves from that zone into a deeper one
(``ZoneMap.sealed``: a free move, an overcome move or a path through it; going back out is never
barred). Anyone standing in the zone may take a task as its action: the roll, its invokes, and a
single overcome's outcomes (003:786-798: a tie at a minor cost, a failure at a major cost under the
``major_cost`` dial, both doing the task; style a boost). When the last task is done the challenge
is beaten for everyone and the map opens (``cleared`` names it, as it names a cleared block).
"""

from __future__ import annotations

from typing import Any

from .. import events as ev
from ..aspects import boost
from ..decisions import Flow
from ..invokes import invoke_rounds
from ..options import ZoneTask
from ..overcome import COST, overcome_outcome
from ..rolls import STYLE, SUCCESS, Difficulty, band, resolved, roll
from ..state import Fighter
from ..zones import beaten
from .base import Action, TurnContext
from ..play import Play


def offer(e: "Play", f: Fighter, ctx: TurnContext) -> list[Any]:
    left = e.t.zone_tasks.get(f.zone, ())
    return [ZoneTask(f.zone, i) for i in left]


def run(e: "Play", f: Fighter, choice: ZoneTask) -> Flow:
    t = e.t
    spec = next(z.own_challenge for z in e.scene.zones if z.id == choice.zone)
    task = spec.tasks[choice.task]
    r = roll(e, "overcome", f, task.skill, Difficulty(task.difficulty, f"{spec.name}: {task.name}"))
    yield from invoke_rounds(e, r)
    resolved(e, r)
    outcome = yield from overcome_outcome(e, f, r)
    done = outcome in (SUCCESS, STYLE, COST)
    if outcome == STYLE:
        boost(e, f.id, "Flying Start")
    tied = r.margin == 0
    result = ("success_with_style" if outcome == STYLE else "success" if outcome == SUCCESS
              else ("minor_cost" if tied else "major_cost") if outcome == COST
              else "fail_with_boost" if tied else "fail")
    e.emit(ev.TaskResult(task.name, f.id, r.effort, r.opposition, band(r.margin), result))
    if not done or choice.task not in t.zone_tasks.get(choice.zone, ()):
        return
    left = tuple(i for i in t.zone_tasks[choice.zone] if i != choice.task)
    t.zone_tasks = {**t.zone_tasks, choice.zone: left}
    if not left:
        t.cleared = t.cleared | {beaten(choice.zone)}
        e.map = e.map_for(t.cleared)
        e.emit(ev.ZoneChallengeBeaten(choice.zone, spec.name, spec.deeper))


ACTION = Action(ZoneTask, offer, run, gate=lambda scene: any(z.own_challenge is not None for z in scene.zones),
                feature="zone_challenge")
