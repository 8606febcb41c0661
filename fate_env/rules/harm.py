"""A hit lands: the target's absorb decision, consequences, or taken out.

The strategies live in :mod:`fate_env.rules.stress` (stress styles by rule set, absorbers by kind
of character); the plan types are re-exported here under the names the package has always used.
"""

from __future__ import annotations

from typing import Any

from . import countdowns
from . import events as ev
from .aspects import consequence_name, new_aspect
from .decisions import Flow, ask
from .kinds import DecisionKind
from .options import Choose, OfferConcession
from .state import CHARACTER, CONSEQUENCE, Fighter
from .steps import concede_fighter, taken_out
from .stress import Absorb, TakenOut, absorb_plans, absorber_for, plan_value
from .play import Play


__all__ = ["Absorb", "TakenOut", "absorb_plans", "plan_value", "harm"]


def harm(e: "Play", t: Fighter, shifts: int, track: str, source: str | None, note: str | None = None,
         skill: str | None = None) -> Flow:
    """A hit of ``shifts`` on ``track``: the target absorbs it as its kind of character does, or
    is taken out (003:1562-1634). Consequences give the attacker a free invoke (003:1631-1634) and
    are named for the ``skill`` that struck (none: a hazard's, a crossing's)."""
    if shifts <= 0:
        return
    e.emit(ev.Hit(t.id, source, shifts, track, (note,) if note else ()))
    absorber = absorber_for(t.sheet)
    if absorber.automatic:
        lost, _ = absorber.absorb(t, shifts, track, e.rules)
        e.emit(ev.MobHit(t.id, shifts, lost, t.members))
        if t.members == 0:
            taken_out(e, t, source)
        return
    options: list[Any] = list(absorber.plans(t, shifts, track, e.rules))
    options.append(TakenOut())
    offer = e.facts.concession_offered and source in e.t.f and e.t.f[source].active \
        and any(o.slots for o in options if type(o) is Absorb)
    if offer:
        options.append(OfferConcession())
    choice = yield from ask(e, DecisionKind.ABSORB, t.id, options, shifts=shifts, track=track, source=source)
    if type(choice) is TakenOut:
        taken_out(e, t, source)
        return
    if type(choice) is OfferConcession:
        accepted = yield from offer_concession(e, t, source)
        if accepted:
            return
        choice = next(o for o in options if type(o) is Absorb and o.slots)  # refused: the consequence stands
    tr = t.tracks[track]
    names = []
    for b in choice.boxes:
        tr.marked[b] = True
    for s in choice.slots:
        slot = t.slots[s]
        name = slot.name or consequence_name(e, track, slot.severity, t.id, skill)
        a = condition_marked(e, t, slot) if slot.name else None
        if a is None:
            a = new_aspect(e, name, CONSEQUENCE, owner=t.id, creator=source, role=slot.severity)
        if source is not None:
            a.free[source] = a.free.get(source, 0) + 1  # the attacker's free invoke (003:1631-1634)
        slot.aspect = a.id
        t.consequences_taken += 1
        names.append(f"{slot.severity}: {name}")
    e.emit(ev.Absorbed(t.id, shifts, track, choice.boxes, tuple(tr.values[b] for b in choice.boxes), tuple(names)))
    if any(t.slots[s].severity == "extreme" for s in choice.slots):
        replace_for_extreme(e, t)
    if e.scene.countdowns:
        for _ in choice.slots:  # one box per consequence taken (a hit may take two)
            countdowns.trigger(e, "consequence", t.id)


def offer_concession(e: "Play", t: Fighter, by: str) -> Flow:
    """``t``, taking a consequence, offers ``by`` (who hit it) a concession (001:150-152). Accepted:
    ``t`` leaves the fight on its own terms, taking neither the hit nor a payout (the older text
    pays nothing for an accepted concession). Refused: ``t`` takes the consequence and is owed a
    fate point; ``by`` loses one, a PC from its own, an NPC from the GM's pool (if there is one to
    lose). Every offer counts as reasonable: the engine's offers are the plain terms. Returns
    whether it was accepted."""
    e.emit(ev.ConcessionOffered(t.id, by))
    pick = yield from ask(e, DecisionKind.CONCESSION, by, [Choose("accept"), Choose("refuse")], offerer=t.id)
    if pick.option == "accept":
        e.emit(ev.ConcessionAnswered(t.id, by, True, 0))
        concede_fighter(e, t)
        return True
    refuser = e.t.f[by]
    lost = 0
    if refuser.sheet.is_npc:
        if e.t.gm_pool > 0:
            e.t.gm_pool -= 1
            e.t.gm_spent += 1
            lost = 1
    elif refuser.fate_points > 0:
        refuser.fate_points -= 1
        e.t.fp_spent[by] += 1
        lost = 1
    t.owed += 1
    e.emit(ev.ConcessionAnswered(t.id, by, False, lost))
    return False


def condition_marked(e: "Play", t: Fighter, slot: Any) -> Any:
    """The aspect of a condition ``t`` has already marked a box of (one condition, one aspect;
    marking another of its boxes adds a free invoke on it), or None."""
    for other in t.slots:
        if other is not slot and other.name == slot.name and other.aspect is not None and other.aspect in e.t.aspects:
            return e.t.aspects[other.aspect]
    return None


def replace_for_extreme(e: "Play", t: Fighter) -> None:
    """An extreme consequence replaces one of the character's aspects, never the high concept
    (003:2209-2211, 000:402): that aspect leaves play, free invokes on it included."""
    lost = t.sheet.extreme_loses()
    for a in list(e.t.aspects.values()):
        if a.owner == t.id and a.kind == CHARACTER and a.name == lost and a.role != "high_concept":
            del e.t.aspects[a.id]
            e.emit(ev.AspectRemoved(a.name, a.id, "replaced by an extreme consequence"))
            return
