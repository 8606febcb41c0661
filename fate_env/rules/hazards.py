"""Hazards: obstacles that attack (Fate Condensed's optional obstacles, 003:2270-2297).

A hazard has a name, a rating and a weapon rating; its name is an aspect (a situation aspect in
its zone) and what it rolls. It cannot be attacked and overcomes nothing; on its turn it attacks,
rolling its rating, and a tie or better hits for the shifts plus its weapon rating (003:2290-2292),
less the target's armor where the weapons dial gives sheets armor (003:2686-2687: armor makes any
hit worth less; as roll modifiers, ``weapon_effect: roll``, the armor adds to the defense roll).

The engine's rulings, where the text leaves the GM to judge:

* **When it acts.** A hazard acts in the initiative as the characters do, with its rating
  (003:2288-2290). In an order by skills (Core's, Fate 3.0's initiative) it takes its place by its
  rating against each character's first order skill, after the characters of equal skill
  (``slots``). Popcorn order has no initiative to place it in: there the engine gives each hazard
  its turn once every character has acted in the exchange, before the last actor names who opens
  the next (a fixed place a GM could have chosen).
* **Whom it attacks.** The characters of the sides it ``attacks`` (default: every side) in its
  ``zone`` (default: anywhere): the one whose defence against it is lowest, the first in the
  scene's order on a tie, as "acts as implied by its name" reads for a fire or a turret.
* **Its rolls.** The defender invokes as usual (the hazard's own aspect included: a situation
  aspect); the GM spends no fate points on a hazard's rolls. A hit from a hazard gives no one the
  free invoke on a consequence it causes (there is no one to hold it).
* **Overcoming it** is the clear-an-aspect action on its name, against its rating (003:2295-2297),
  from its zone (anywhere, for one with none); success renders it irrelevant: its aspect leaves
  play and it takes no more turns. **Creating an advantage against it** is taking advantage of its
  aspect, against its rating too (003:2295-2296; ``actions/exploit.py``).
* **Its advantages.** A hazard that ``creates`` an aspect (003:2292: "hazards can attack or create
  advantages") puts it on its best target not yet carrying it, instead of attacking; once every
  target carries it, it attacks. The target defends as against its attack; a success places the
  aspect with no free invoke (there is no one to hold it, as for a consequence it causes; anyone
  may invoke it for a fate point), and a tie gives no boost (no one to take it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import events as ev
from .decisions import RECONSIDER, Flow, ask
from .harm import harm
from .invokes import invoke_turns, roll_context
from .kinds import DecisionKind
from .options import Concede, Defend, ForgoDefense
from .reach import order_skills, skill_order
from .rolls import base, best_skill, resolved
from .skills import DEFEND_SKILLS, PHYSICAL
from .aspects import hazard_of, new_aspect  # noqa: F401  (hazard_of: callers read it here)
from .state import ADVANTAGE, SITUATION
from .steps import concede_fighter
from .table import Roll
from .play import Play

if TYPE_CHECKING:
    from .scene import CharacterSheet, Hazard

#: what defends against a hazard's attack on each track (a ranged attack's defence; Will, mentally)
DEFENCE = {PHYSICAL: DEFEND_SKILLS["ranged"], "mental": DEFEND_SKILLS["any"]}


def act(e: "Play", which: "list[Hazard] | None" = None) -> Flow:
    """The hazards still standing (of ``which``, by default all) take their turns, in the scene's
    order: under popcorn order at the end of each exchange; in an order by skills at their place."""
    standing = {a.name for a in e.t.aspects.values() if a.kind == SITUATION and a.creator is None}
    for hz in e.scene.hazards if which is None else which:
        if e.t.is_over():
            return
        if hz.name in standing:
            yield from attack(e, hz)


def slots(e: "Play") -> list[tuple["Hazard", int]]:
    """Where each hazard acts in an order by skills: before the first character in that order whose
    first order skill (Notice, or Empathy in a mental conflict; Alertness under Fate 3.0) is below
    the hazard's rating. It rolls initiative with its rating (003:2288-2290); a character of equal
    skill goes first (a ruling: the tie-breaking skills are a character's, a hazard has none)."""
    F = e.t.f
    sheets = [F[c].sheet for c in skill_order(e)]
    return [(hz, slot(hz, sheets, order_skills(e)[0])) for hz in e.scene.hazards]


def slot(hz: "Hazard", sheets: "list[CharacterSheet]", first: str) -> int:
    """The place in an order by skills (``sheets``, first to last) before which ``hz`` acts: that of
    the first sheet whose ``first`` order skill is below its rating, else the end. The one computation
    the engine and the fast core's tables both read."""
    return next((j for j, s in enumerate(sheets) if s.skill(first) < hz.rating), len(sheets))


def _defence(e: "Play", cid: str, hz: "Hazard") -> tuple[str, int]:
    skill = best_skill(e, cid, DEFENCE[hz.track], "defend")
    return skill, base(e, cid, skill, "defend", None, [], peek=True)[1]


def targets(e: "Play", hz: "Hazard") -> list[str]:
    F = e.t.f
    open_ = bool(e.t.tasks_left)
    return [c for c in e.t.active_ids()
            if (not hz.attacks or F[c].sheet.side in hz.attacks) and (hz.zone is None or F[c].zone == hz.zone)
            and not F[c].sheet.immune(hz.track, open_) and not (e.hive and F[c].sheet.shielded(e.t.active_ids()))]


def attack(e: "Play", hz: "Hazard") -> Flow:
    """The hazard attacks the target it has the best odds against (003:2288-2293), or, with an
    aspect it ``creates``, creates that advantage on the best target not yet carrying it."""
    t = e.t
    pool = targets(e, hz)
    creating = False
    if hz.creates is not None:
        bare = [c for c in pool if not any(a.name == hz.creates and a.owner == c for a in t.aspects.values())]
        if bare:
            pool, creating = bare, True
    if not pool:
        return
    target = min(pool, key=lambda c: _defence(e, c, hz)[1])
    e.emit(ev.HazardActs(hz.name, target))
    options = [Defend(), Concede()] if t.can_concede else [Defend()]
    if e.rules.forgo_defense and not creating:
        options.append(ForgoDefense())  # take the hit undefended (000:292-294)
    choice = RECONSIDER
    while choice is RECONSIDER:
        if t.is_over() or not t.f[target].active:
            return
        choice = yield from ask(e, DecisionKind.RESPOND, target, options, attacker=hz.name,
                                action="create_advantage" if creating else "attack")
    if type(choice) is Concede:
        concede_fighter(e, t.f[target])
        return
    f = t.f[target]
    action = "create_advantage" if creating else "attack"
    faces = e.dice.roll(hz.name, f"{hz.name} creates {hz.creates}" if creating else f"{hz.name} attacks")
    e.emit(ev.Rolled(hz.name, action, hz.name, hz.rating, hz.rating, faces, ()))
    if type(choice) is ForgoDefense:  # against Mediocre: no defense roll, no invokes to make on one
        e.emit(ev.PassiveOpposition(hz.name, action, 0, f"{target} forgoes the defense"))
        r = Roll(action, hz.name, hz.name, hz.rating, faces, target=target, zones=(f.zone,), about=(hz.name,))
    else:
        skill = best_skill(e, target, DEFENCE[hz.track], "defend")
        notes: list[str] = []
        rating, total = base(e, target, skill, "defend", None, notes)
        if e.facts.weapon_rolls and hz.track == PHYSICAL and f.sheet.armor:  # armor as a defense modifier (001:86-101)
            total += f.sheet.armor
            notes.append(f"armor +{f.sheet.armor}")
        o_faces = e.dice.roll(target, f"defend with {skill}")
        e.emit(ev.Rolled(target, "defend", skill, rating, total, o_faces, tuple(notes)))
        r = Roll(action, hz.name, hz.name, hz.rating, faces, opposer=target, active=True, opp_skill=skill,
                 opp_base=total, opp_faces=o_faces, target=target, zones=(f.zone,), about=(hz.name,))
        yield from invoke_turns(e, [(target, r)], roll_context)
    resolved(e, r)
    if creating:
        if r.margin > 0 and f.active:  # a success puts the aspect on the target, with no free invoke
            a = new_aspect(e, hz.creates, ADVANTAGE, owner=target, creator=None)
            e.emit(ev.AspectCreated(a.name, a.id, a.kind, target, 0, None))
        return
    if r.margin >= 0 and f.active:  # a tie or better hits, with the weapon rating (003:2290-2292)
        shifts, note = r.margin + hz.weapon, f"{hz.name}: weapon {hz.weapon}"
        if e.rules.weapons and not e.facts.weapon_rolls and hz.track == PHYSICAL and f.sheet.armor:
            shifts -= f.sheet.armor  # the target's armor, as against any hit (003:2686-2687)
            note += f", armor {f.sheet.armor}"
        yield from harm(e, f, shifts, hz.track, None, note=note)  # nothing left: no harm, and no one takes a boost
