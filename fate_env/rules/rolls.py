"""Rolls and effort: ratings with stunts and teamwork, the dice, the opposition, the outcome band.

Effort is skill + 4dF + invokes (003:542-560); ties, successes and style by shifts
(003:630-642); combining skills, the best rating rolls and every helper with at least Average
adds +1 (003:1449-1455, 000:552).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import events as ev
from .aspects import boost, visible
from .kinds import Band
from .scene import When
from .skills import PHYSICAL, RANGED_SKILLS, attack_track
from .state import Fighter
from .solo import skill_bonus
from .table import Roll
from .play import Play


FAIL, TIE, SUCCESS, STYLE = Band.FAIL, Band.TIE, Band.SUCCESS, Band.STYLE


def band(margin: int) -> Band:
    """The four outcomes by shifts (003:630-642)."""
    if margin < 0:
        return FAIL
    if margin == 0:
        return TIE
    return SUCCESS if margin < 3 else STYLE


def stunt_bonus(e: "Play", cid: str, skill: str, action: str, target: str | None) -> int:
    """What ``cid``'s bonus stunts add to ``skill`` for ``action`` right now (003:402-415)."""
    stunts = e.bonus_stunts[cid]
    if not stunts:
        return 0
    total = 0
    for st in stunts:
        if st.skill == skill and st.action == action and holds(e, cid, st.cond, target):
            total += st.bonus
    return total


def holds(e: "Play", cid: str, when: When | None, target: str | None) -> bool:
    """Whether a bonus stunt's circumstance holds (see the scene format)."""
    if when is None:
        return True
    F = e.t.f
    f = F[cid]
    tag, arg = when.tag, when.arg
    if tag == "aspect":
        zones = (f.zone,) + ((F[target].zone,) if target in F else ())
        return any(a.name == arg and not a.hidden and visible(e, a, zones) and a.owner in (None, cid, target)
                   for a in e.t.aspects.values())
    if tag == "zone":
        return f.zone == arg
    if tag == "same_zone":
        return target in F and F[target].zone == f.zone
    if tag == "other_zone":
        return target in F and F[target].zone != f.zone
    if tag == "full_defense":
        return f.full_defense
    if tag == "target":
        return target == arg
    return False


def effective(e: "Play", cid: str, skill: str, action: str, target: str | None = None) -> int:
    """Rating plus the stunts that apply (no teamwork, no full defense)."""
    rating = e.t.f[cid].sheet.skills.get(skill, 0)
    return rating + stunt_bonus(e, cid, skill, action, target) if e.bonus_stunts[cid] else rating


def best_skill(e: "Play", cid: str, skills: Sequence[str], action: str, attacker: str | None = None,
               versus: str | None = None, far: bool = False) -> str:
    """The skill a sensible player rolls: the highest rating plus stunts (a stunt's skill included).
    ``versus``: the skill of the attack defended against (None when the roll opposed is not an
    attack): a ``use_skill`` stunt limited to one skill's attacks (``against``) applies only then.
    ``far``: the roll acts on someone in another zone, so a stunt lends only a skill that reaches
    there (skills.RANGED_SKILLS)."""
    sheet = e.t.f[cid].sheet
    if not sheet.stunts:  # the common case: the first of the highest ratings
        ratings = sheet.skills
        return max(skills, key=lambda s: ratings.get(s, 0))
    pool = list(skills)
    for st in sheet.stunts:
        if st.kind == "use_skill" and st.action == action and st.skill not in pool \
                and (st.against is None or st.against == versus) and not (far and st.skill not in RANGED_SKILLS):
            pool.append(st.skill)
    return max(pool, key=lambda s: (effective(e, cid, s, action, attacker), -pool.index(s)))


#: the actions whose scale benefit under ``scale_benefit: after_roll`` comes once the roll succeeds
AFTER_ROLL = ("attack", "create_advantage")


def scale_edge(e: "Play", cid: str, against: str | None) -> int:
    """How many levels of scale ``cid`` stands above ``against``, the character opposing its roll
    (003:2430-2439): 0 when none opposes it, or when ``against`` is not lesser."""
    if against is None or not e.scaled:
        return 0
    F = e.t.f
    return max(0, F[cid].sheet.scale - F[against].sheet.scale)


def base(e: "Play", cid: str, skill: str, action: str, target: str | None, notes: list[str],
         peek: bool = False, against: str | None = None, ward: str | None = None) -> tuple[int, int]:
    """Skill + stunts + teamwork (mob members, pledged supporters) + full defense + scale: (rating, total).

    When a supporter outranks the actor, the roll is at the supporter's rating (and stunts) and
    the actor helps (003:1449-1455). ``peek``: a look, not a roll (full defense is not used up).
    ``against``: the character opposing the roll, for scale (the acting character's own scale
    counts, whoever leads the teamwork); under ``scale_benefit: after_roll`` attacks and
    advantages take theirs after the roll instead (:func:`after_roll_edge`). ``ward``: whom a
    defense is for, when not the defender itself: under Condensed a full defense's +2 counts on the
    defenses of its focus only (003:2240-2244), oneself by default or the ally it guards
    (``Fighter.ward``); under Core on every defend action, one made for an ally included (000:270, 000:274)."""
    F = e.t.f
    f = F[cid]
    own = f.sheet.skills.get(skill, 0)
    leader, rating, helpers = cid, own, 0
    if f.supporters or f.members > 1:  # teamwork (alone, the rating is the character's own)
        team = [s for s in f.supporters if F[s].active] if action != "defend" else []
        best = max(team, key=lambda s: F[s].skill(skill), default=cid)
        if F[best].skill(skill) > own:
            leader, rating = best, F[best].skill(skill)
        if f.members > 1 and own >= 1:
            helpers += f.members - 1
        helpers += sum(1 for s in [cid] + team if s != leader and F[s].skill(skill) >= 1)
    total = rating
    if e.bonus_stunts[leader]:
        stunt = stunt_bonus(e, leader, skill, action, target)
        if stunt:
            total += stunt
            notes.append(f"stunt +{stunt}")
    if leader != cid:
        notes.append(f"{leader} leads the teamwork")
    if helpers:
        tw = e.facts.teamwork_bonus(rating, helpers)
        if tw:
            total += tw
            notes.append(f"teamwork +{tw}")
    if action == "defend" and f.full_defense and (not e.facts.full_defense_for_its_focus
                                                  or f.ward == (None if ward == cid else ward)):
        total += 2
        if not peek:
            f.defended_on_full = True
        notes.append("full defense +2")
    if e.solo:
        solo = skill_bonus(e, cid, rating)
        if solo:
            total += solo
            notes.append(f"solo +{solo}")
    if e.facts.minor_moves and action != "defend" and e.t.minor is not None and e.t.minor[0] == cid:
        total -= e.t.minor[1]  # the turn's minor actions (002:28)
        notes.append(f"minor actions -{e.t.minor[1]}")
    if e.facts.ordered and f.slots:
        pen = sum(e.facts.consequence_penalty(s.severity) for s in f.slots if s.aspect is not None)
        if pen:  # every roll of the holder (a ruling: 001:119 says "actions which might be influenced")
            total -= pen
            notes.append(f"consequences -{pen}")
    if against is not None and e.scaled:
        edge = scale_edge(e, cid, against)
        if edge and (e.facts.scale_on_effort or action not in AFTER_ROLL):
            total += edge
            notes.append(f"scale +{edge}")
    return rating, total


def after_roll_edge(e: "Play", r: Roll) -> int:
    """The levels of scale a successful attack or advantage adds after the roll (``scale_benefit:
    after_roll``): +2 shifts per level, or one more free invoke per level (003:2436-2439)."""
    if not e.scaled or not e.facts.scale_after_roll or not r.active:
        return 0
    return scale_edge(e, r.actor, r.opposer)


@dataclass(frozen=True)
class Defender:
    """Opposition by a defend roll (003:561-566, 003:1906-1911): ``by`` rolls ``skill`` against the
    roll; ``ward``: whom it defends for, when it stands in for someone (``base``)."""

    by: str
    skill: str
    ward: str | None = None


@dataclass(frozen=True)
class Difficulty:
    """No one opposes: the roll is against a difficulty (003:553-560, 003:1912-1915); ``why`` names
    what sets it, for the log."""

    rating: int = 0
    why: str = ""


def roll(e: "Play", action: str, f: Fighter, skill: str, against: Defender | Difficulty, *,
         target: str | None = None, about: tuple[str, ...] = ()) -> Roll:
    """Roll for ``f``'s action, then the opposition: a defender's roll, or a difficulty.
    ``about``: the obstacles the roll concerns (``Roll.about``)."""
    notes: list[str] = []
    opposer = against.by if isinstance(against, Defender) else None
    rating, total = base(e, f.id, skill, action, target, notes, against=opposer)
    armed = e.facts.weapon_rolls and action == "attack" and opposer is not None and _physical(e, skill)
    if armed and f.sheet.weapon:
        total += f.sheet.weapon
        notes.append(f"weapon +{f.sheet.weapon}")
    faces = e.dice.roll(f.id, f"{action.replace('_', ' ')} with {skill}")
    e.emit(ev.Rolled(f.id, action, skill, rating, total, faces, tuple(notes)))
    F = e.t.f
    zones = (f.zone,) + ((F[target].zone,) if target in F else ())
    r = Roll(action, f.id, skill, total, faces, target=target, zones=zones, about=about)
    if isinstance(against, Defender):
        notes = []
        o_rating, o_total = base(e, against.by, against.skill, "defend", f.id, notes, against=f.id, ward=against.ward)
        armor = F[against.by].sheet.armor if armed else 0
        if armor:
            o_total += armor
            notes.append(f"armor +{armor}")
        o_faces = e.dice.roll(against.by, f"defend with {against.skill}")
        e.emit(ev.Rolled(against.by, "defend", against.skill, o_rating, o_total, o_faces, tuple(notes)))
        r.opposer, r.active, r.opp_skill, r.opp_base, r.opp_faces = against.by, True, against.skill, o_total, o_faces
    else:
        r.opp_base = against.rating
        r.opposer = voice(e, f)
        e.emit(ev.PassiveOpposition(f.id, action, r.opp_base, against.why))
    return r


def _physical(e: "Play", skill: str) -> bool:
    """Whether an attack with ``skill`` harms the physical track (weapons and armor are gear)."""
    return attack_track(e, skill) == PHYSICAL


def voice(e: "Play", f: Fighter) -> str | None:
    """Who speaks for the opposition to a passive roll: a foe in the zone, else the first foe."""
    foes = e.t.foes_of(f.id)
    F = e.t.f
    for c in foes:
        if F[c].zone == f.zone:
            return c
    return foes[0] if foes else None


def resolved(e: "Play", r: Roll) -> None:
    """The outcome band of a roll; a defender who rolled and won by three or more gets a
    boost, whatever the action (the generic defend outcomes, 003:919-921, 003:942-944)."""
    e.emit(ev.Resolved(r.actor, r.action, r.effort, r.opposition, r.margin, band(r.margin), r.target))
    if r.active and r.margin <= -3 and e.t.f[r.opposer].active:
        if e.facts.spin:  # a spin token instead (002:94-95)
            e.t.spin[r.opposer] = e.t.spin.get(r.opposer, 0) + 1
            e.emit(ev.Spin(r.opposer, e.t.spin[r.opposer]))
        else:
            boost(e, r.opposer, "Upper Hand")
