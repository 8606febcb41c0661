"""Splitting effort between targets (Fate Condensed's "multiple targets", 003:2634-2646).

Under the ``split_effort`` dial an attacker may strike at several foes in one zone: it rolls (and
invokes) once, and if the total is positive it splits it as it likes among them, at least one
point to each target it keeps; each then defends against the effort given to it (Sophie's Epic
(+7) split Good, Fair and Fair between three goons, 003:2641-2646).

The engine's rulings: the attacker's invokes come before the split (as Sophie's did); the split is
a run of decisions, one target and its effort at a time, until the whole total is given out (the
last target the attacker keeps takes what is left); each target then rolls its defence and only
it invokes on that roll. Before the attacker's dice hit the table each foe in the zone may concede
(003:1695-1696, as against any attack; or, under ``forgo_defense``, take its share undefended,
000:292-294); no one concedes between the attacker's roll and the defences. Every
target is a foe in one zone within the skill's reach (003:2660-2661: "all of the targets should
occupy the same zone").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import events as ev
from ..decisions import Flow, ask
from ..invokes import invoke_turns, roll_context
from ..kinds import DecisionKind
from ..options import Assign, ForgoDefense, SplitAttack
from ..reach import attack_skills, attack_track, reach_of
from ..rolls import base, best_skill
from ..skills import DEFEND_SKILLS
from ..state import Fighter
from ..table import Roll
from .attack import land
from .base import Action, TurnContext
from .zone_attack import zones_in_reach
from ..play import Play
from ..steps import respond

if TYPE_CHECKING:
    from ..scene import Scene


def splits(scene: "Scene") -> bool:
    """Split attacks and advantages: only under the split_effort dial."""
    return scene.rules.split_effort


def offer(e: "Play", f: Fighter, ctx: TurnContext) -> list[Any]:
    F = e.t.f
    out = []
    for skill in attack_skills(e, f):
        for zone in zones_in_reach(e, f, skill):
            if sum(1 for c in ctx.foes if F[c].zone == zone) >= 2:
                out.append(SplitAttack(zone, skill))
    return out


def run(e: "Play", f: Fighter, choice: SplitAttack) -> Flow:
    F = e.t.f
    zone, skill = choice.zone, choice.skill
    foes, undefended = [], set()
    for tid in [c for c in e.t.foes_of(f.id) if F[c].zone == zone]:
        answer = yield from respond(e, tid, f.id, "attack", skill)  # before the dice (003:1695-1696)
        if answer:
            foes.append(tid)
        if type(answer) is ForgoDefense:
            undefended.add(tid)
    if not foes or not f.active:
        return
    notes: list[str] = []
    rating, total = base(e, f.id, skill, "attack", None, notes)
    faces = e.dice.roll(f.id, f"split attack with {skill}")
    e.emit(ev.Rolled(f.id, "attack", skill, rating, total, faces, tuple(notes)))
    whole = Roll("attack", f.id, skill, total, faces, zones=(f.zone, zone))
    yield from invoke_turns(e, [(f.id, whole)], roll_context)  # the attacker's invokes, before the split
    given = yield from give_out(e, f, foes, whole.effort, skill)
    track = attack_track(e, skill)
    defend_skills = DEFEND_SKILLS[reach_of(f, skill)]
    for tid, effort in given.items():
        if not (F[tid].active and f.active) or e.t.is_over():
            continue
        r = Roll("attack", f.id, skill, effort, (0, 0, 0, 0), target=tid, zones=(f.zone, zone))
        if tid in undefended:  # against Mediocre (000:292-294)
            e.emit(ev.PassiveOpposition(f.id, "attack", 0, f"{tid} forgoes the defense"))
        else:
            r = yield from defend_share(e, f, tid, r, defend_skills)
        yield from land(e, f, tid, r, track)


def give_out(e: "Play", f: Fighter, targets: list[Any], effort: int, skill: str, share: type = Assign,
             action: str = "split") -> Flow:
    """The actor splits ``effort`` among ``targets``, one target and its share a decision, at least
    one to each it keeps, the last kept taking what is left; returns {target: share}. ``share``:
    the option naming a target and its effort (:class:`Assign`, a character; ``Share``, an aspect)."""
    left = effort
    given: dict[Any, int] = {}
    while left > 0 and len(given) < len(targets):
        open_ = [c for c in targets if c not in given]
        last = len(open_) == 1
        options = [share(c, n) for c in open_ for n in range(1, left + 1) if n == left or not last]
        pick = yield from ask(e, DecisionKind.COST, f.id, options, action=action, left=left, skill=skill)
        given[_target(pick)] = pick.effort
        left -= pick.effort
    named = given.items() if share is Assign else ((e.t.aspects[k].name, v) for k, v in given.items())
    e.emit(ev.SplitEffort(f.id, effort, tuple(named)))
    return given


def _target(pick: Any) -> Any:
    return pick.target if type(pick) is Assign else pick.aspect


def defend_share(e: "Play", f: Fighter, tid: str, r: Roll, skills: tuple[str, ...]) -> Flow:
    """``tid`` rolls its defence against its share ``r`` (the actor's effort, already rolled) and
    invokes on it; returns the roll, ready for its outcome."""
    d_skill = best_skill(e, tid, skills, "defend", attacker=f.id, versus=r.skill)
    d_notes: list[str] = []
    d_rating, d_total = base(e, tid, d_skill, "defend", f.id, d_notes, against=f.id)
    d_faces = e.dice.roll(tid, f"defend with {d_skill}")
    e.emit(ev.Rolled(tid, "defend", d_skill, d_rating, d_total, d_faces, tuple(d_notes)))
    r.opposer, r.active, r.opp_skill, r.opp_base, r.opp_faces = tid, True, d_skill, d_total, d_faces
    yield from invoke_turns(e, [(tid, r)], roll_context)  # the defender's invokes
    return r


ACTION = Action(SplitAttack, offer, run, gate=splits, feature="split")
