"""Overcome outcomes: ties at a minor cost, failures at a major cost (003:786-798; 000:465).

A tie is success at a minor cost (the opposition gets a boost), or under condensed the roller
may instead fail and take a boost. A failure may be taken as success at a major cost, as the
``major_cost`` dial makes it concrete (003:3291-3294).
"""

from __future__ import annotations


from . import countdowns
from . import events as ev
from .aspects import boost, consequence_name, new_aspect
from .decisions import Flow, ask
from .kinds import DecisionKind
from .options import Choose
from .rolls import FAIL, TIE, band
from .state import CONSEQUENCE, SITUATION, Fighter
from .stress import row_room
from .table import Roll
from .play import Play


#: an overcome taken at a cost: it succeeds (returned instead of a band)
COST = "cost"


def overcome_outcome(e: "Play", f: Fighter, r: Roll, action: str = "overcome") -> Flow:
    """The band of an overcome roll after the roller's choices: FAIL, COST, SUCCESS or STYLE."""
    rules = e.rules
    outcome = band(r.margin)
    if outcome == FAIL and action == "overcome" and rules.facts.major_cost:
        options = [Choose("fail")]
        if major_cost_payable(e, f, r):
            options.append(Choose("major_cost"))
        pick = yield from ask(e, DecisionKind.COST, f.id, options, action=action)
        if pick.option == "major_cost":
            pay_major_cost(e, f, r)
            return COST
        return FAIL
    if outcome != TIE:
        return outcome
    options = [Choose("minor_cost")]
    if rules.facts.tie_choice:
        options.append(Choose("fail_with_boost"))
    pick = yield from ask(e, DecisionKind.COST, f.id, options, action=action)
    if pick.option == "fail_with_boost":
        boost(e, f.id, "Second Wind")
        return FAIL
    if r.opposer is not None:
        boost(e, r.opposer, "Small Win")
    return COST


def major_cost_slot(e: "Play", f: Fighter) -> int | None:
    """The smallest free mild or moderate consequence slot ``f`` could take as a cost (under the
    ``conditions`` dial, of a condition not yet marked: the cost is a new aspect)."""
    marked = {sl.name for sl in f.slots if sl.name and not sl.free}
    free = [i for i, sl in enumerate(f.slots) if sl.free and sl.severity in ("mild", "moderate")
            and sl.track in (None, e.kind) and sl.name not in marked
            and (not e.facts.conditions_apart or row_room(f, sl.severity) > 0)]
    return min(free, key=lambda i: f.slots[i].value, default=None)


def sharers(e: "Play", f: Fighter) -> list[Fighter]:
    """Who pays a major cost of ``f``'s roll: ``f``, and under the ``shared_costs`` dial every
    supporter still in the fight who pledged its help to the roll (003:1453-1454; 000:554)."""
    if not e.rules.shared_costs:
        return [f]
    F = e.t.f
    return [f] + [F[s] for s in dict.fromkeys(f.supporters) if s != f.id and F[s].active]


def major_cost_payable(e: "Play", f: Fighter, r: Roll) -> bool:
    """A consequence as the cost needs a free slot on everyone who pays it (a ruling: with one
    helper unable to take it, "everyone has to take consequences" cannot be done, 000:554)."""
    if e.facts.major_cost_consequence:
        return all(major_cost_slot(e, c) is not None for c in sharers(e, f))
    return r.opposer is not None


def pay_major_cost(e: "Play", f: Fighter, r: Roll) -> None:
    """Success at a major cost, made concrete by the dial (003:3291-3294): a mild or moderate
    consequence on the roller (its opposition holds the first free invoke, as for a hit,
    003:1631-1634) and, under ``shared_costs``, one on each supporter of the roll, in the order
    they pledged (003:1453-1454); or a new situation aspect where the roller ends up, with two
    free invokes for the opposition, the one complication that falls on them all (000:554)."""
    enemy = r.opposer
    if e.facts.major_cost_consequence:
        for c in sharers(e, f):
            _cost_consequence(e, c, enemy)
    else:
        zone = r.target if r.target in e.map.neighbours else f.zone  # where the mover ends up
        a = new_aspect(e, "Hard-Won Ground", SITUATION, zone=zone, creator=enemy)
        a.free[enemy] = 2
        e.emit(ev.MajorCost(f.id, "enemy_aspect", a.name, a.id))
        e.emit(ev.AspectCreated(a.name, a.id, SITUATION, zone, 2, enemy))


def _cost_consequence(e: "Play", c: Fighter, enemy: str | None) -> None:
    """A major cost taken as a mild or moderate consequence on ``c``."""
    slot = c.slots[major_cost_slot(e, c)]
    a = new_aspect(e, slot.name or consequence_name(e, e.kind, slot.severity, c.id), CONSEQUENCE, owner=c.id,
                   creator=enemy, role=slot.severity)
    if enemy is not None:
        a.free[enemy] = 1
    slot.aspect = a.id
    if e.scene.countdowns:
        countdowns.trigger(e, "consequence", c.id)
    c.consequences_taken += 1
    e.emit(ev.MajorCost(c.id, "consequence", a.name, a.id))
    e.emit(ev.AspectCreated(a.name, a.id, CONSEQUENCE, c.id, 1 if enemy else 0, enemy))
