"""A zone attack: one roll against everyone in a zone, friend and foe alike (003:2644-2650).

Fate Condensed's "multiple targets" option: there is no splitting of effort; every target defends
against the attacker's total. The text asks for the circumstances to be right, "often" an aspect
invoked or a stunt; the engine takes the stunt: a ``zone_attack`` stunt names the skill its
holder may make zone attacks with, at that skill's reach. The engine's rulings: every target may
concede before the dice, as against any attack; the attacker rolls once, and each target then
rolls its defence and the two invoke against each other as in a one-on-one attack, so an invoke
counts against the target it was made against (the dice stay the same for all).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import events as ev
from ..decisions import Flow
from ..invokes import invoke_rounds
from ..options import ForgoDefense, ZoneAttack
from ..reach import attack_track, reach_of
from ..rolls import base, best_skill
from ..skills import DEFEND_SKILLS
from ..state import Fighter
from ..steps import respond
from ..table import Roll
from .attack import land
from .base import Action, TurnContext
from ..play import Play

if TYPE_CHECKING:
    from ..scene import Scene


def has_blasts(scene: "Scene") -> bool:
    """A scene offers zone attacks only where someone has the stunt."""
    return any(st.kind == "zone_attack" for c in scene.characters for st in c.stunts)


def offer(e: "Play", f: Fighter, ctx: TurnContext) -> list[Any]:
    out = []
    for st in f.sheet.stunts:
        if st.kind != "zone_attack":
            continue
        for zone in zones_in_reach(e, f, st.skill):
            if any(c != f.id and e.t.f[c].zone == zone for c in e.t.active_ids()):
                out.append(ZoneAttack(zone, st.skill))
    return out


def zones_in_reach(e: "Play", f: Fighter, skill: str) -> list[str]:
    """The zones ``f`` can attack into with ``skill``: its own in melee, those in range when shooting."""
    reach = reach_of(f, skill)
    if reach == "melee":
        return [f.zone]
    if reach == "any":
        return list(e.map.ids)
    return [z for z in e.map.ids if e.map.in_range(f.zone, z, e.scene.shoot_range)]


def run(e: "Play", f: Fighter, choice: ZoneAttack) -> Flow:
    F = e.t.f
    zone, skill = choice.zone, choice.skill
    targets = [c for c in e.t.active_ids() if c != f.id and F[c].zone == zone]
    e.emit(ev.ZoneAttacked(f.id, zone, skill, tuple(targets)))
    standing, undefended = [], set()
    for tid in targets:
        answer = yield from respond(e, tid, f.id, "attack", skill)
        if answer:
            standing.append(tid)
        if type(answer) is ForgoDefense:  # this one takes the attack against Mediocre (000:292-294)
            undefended.add(tid)
    if not standing or not f.active:
        return
    track = attack_track(e, skill)
    notes: list[str] = []
    rating, total = base(e, f.id, skill, "attack", None, notes)
    faces = e.dice.roll(f.id, f"zone attack with {skill}")
    e.emit(ev.Rolled(f.id, "attack", skill, rating, total, faces, tuple(notes)))
    defend_skills = DEFEND_SKILLS[reach_of(f, skill)]
    for tid in standing:
        if not (F[tid].active and f.active) or e.t.is_over():
            continue
        effort = base(e, f.id, skill, "attack", tid, [], peek=True, against=tid)[1]  # scale differs by target
        if tid in undefended:
            e.emit(ev.PassiveOpposition(f.id, "attack", 0, f"{tid} forgoes the defense"))
            r = Roll("attack", f.id, skill, effort, faces, target=tid, zones=(f.zone, zone))
        else:
            d_skill = best_skill(e, tid, defend_skills, "defend", attacker=f.id, versus=skill)
            d_notes: list[str] = []
            d_rating, d_total = base(e, tid, d_skill, "defend", f.id, d_notes, against=f.id)
            d_faces = e.dice.roll(tid, f"defend with {d_skill}")
            e.emit(ev.Rolled(tid, "defend", d_skill, d_rating, d_total, d_faces, tuple(d_notes)))
            r = Roll("attack", f.id, skill, effort, faces, opposer=tid, active=True, opp_skill=d_skill,
                     opp_base=d_total, opp_faces=d_faces, target=tid, zones=(f.zone, zone))
        yield from invoke_rounds(e, r)
        yield from land(e, f, tid, r, track)

ACTION = Action(ZoneAttack, offer, run, gate=has_blasts, feature="blasts")
