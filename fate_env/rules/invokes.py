"""Invokes: who may invoke what on a roll, in turns, and what an invoke does.

After the dice, the roller then the opposer invoke in turns until both stop (003:606-613): a
free invoke, or a fate point for your own aspect, a situation aspect, or a hostile invoke of an
opponent's aspect (paid to its owner after the scene, 003:1104-1114); +2 or a reroll. Once per
aspect per roll for paid invokes; free invokes are the stated exception (003:608-610).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from . import events as ev
from .decisions import Decision, Flow
from .kinds import DecisionKind
from .options import DoneInvoking, Invoke, SpendSpin
from .state import ACTIVE, ADVANTAGE, BOOST, CHARACTER, CONSEQUENCE, Aspect
from .solo import INVOKE_BONUS, free_stack_barred, invoke_worth
from .table import Roll
from .play import Play


def invoke_rounds(e: "Play", r: Roll) -> Flow:
    """Roller, then opposer, in turns until both stop (003:606-613)."""
    seats = [(r.actor, r)] + ([(r.opposer, r)] if r.opposer is not None else [])
    yield from invoke_turns(e, seats, roll_context)


def invoke_turns(e: "Play", seats: list[tuple[str, Roll]], context: Callable[[Roll, str], dict[str, Any]]) -> Flow:
    """Each seat (who, the roll it invokes on) in turn until every one stops in a row.
    A seat with nothing it could invoke stops without being asked."""
    t = e.t
    passes, i = 0, 0
    while seats and passes < len(seats):
        who, r = seats[i % len(seats)]
        i += 1
        t.roll = r
        if not invoke_options(e, who, r, any_only=True):
            passes += 1
            continue
        choice = yield Decision(DecisionKind.INVOKE, who, None, context(r, who),
                                build=lambda who=who, r=r: [DoneInvoking()] + invoke_options(e, who, r),
                                first=DoneInvoking())
        if type(choice) is DoneInvoking:
            passes += 1
        elif type(choice) is SpendSpin:
            spend_spin(e, who, r, choice.holder)
            passes = 0
        else:
            apply_invoke(e, who, r, choice)
            passes = 0
    t.roll = None


def roll_context(r: Roll, who: str) -> dict[str, Any]:
    mine = who == r.actor
    return {"action": r.action, "roller": r.actor, "opposer": r.opposer,
            "effort": r.effort, "opposition": r.opposition,
            "margin": r.margin if mine else -r.margin, "as_roller": mine}


@lru_cache(maxsize=1 << 16)
def _invoke(aspect: int, payer: str, free: bool, effect: str) -> Invoke:
    """One shared, immutable option per invoke: options are built for every invoke decision, and a
    frozen dataclass costs more to make than to look up."""
    return Invoke(aspect, payer, free, effect)


def invoke_options(e: "Play", who: str, r: Roll, any_only: bool = False) -> Any:
    """Every invoke ``who`` may make now (or, with ``any_only``, whether there is one).
    Hot path: one pass over the aspects."""
    t = e.t
    F = t.f
    me = F[who]
    side = me.sheet.side
    allies = [who] + t.allies_of(who)
    if me.sheet.is_npc:
        payers = [who] if t.gm_pool > 0 else []
    else:  # invoking on an ally's behalf (003:1457-1460)
        payers = [p for p in allies if not F[p].sheet.is_npc and F[p].fate_points > 0]
        if who in payers and payers[0] != who:
            payers.remove(who)
            payers.insert(0, who)
    invoked = r.invoked.get(side, ())
    zones = r.zones
    frees = not (e.solo and free_stack_barred(e, who, r))  # a big bad's no_stacking (003:2598-2599)
    spin: list[str] = []
    if e.facts.spin and t.spin and who == r.opposer and r.active:  # an ally's spin tokens on a defense (002:95)
        spin = [h for h in allies if h != who and t.spin.get(h, 0) > 0]
        if spin and any_only:
            return True
    if any_only and not payers:  # only free invokes could be made: look at aspects that carry some
        for a in t.aspects.values():
            free = a.free
            if frees and free and (a.owner is None or F[a.owner].status == ACTIVE) and (a.zone is None or a.zone in zones) \
                    and not (a.obstacle and a.name not in r.about) and not a.hidden:
                for h in allies:
                    if free.get(h, 0) > 0:
                        return True
        return False
    effects = ("bonus", "reroll") if (who == r.actor or r.active) else ("bonus",)
    out: list[Invoke] = []
    for a in t.aspects.values():
        owner = a.owner
        if owner is not None and F[owner].status != ACTIVE:
            continue
        if a.zone is not None and a.zone not in zones:
            continue
        if a.obstacle and a.name not in r.about:  # an obstacle bears on the rolls about it alone
            continue
        if a.hidden:  # not known: not invoked until discovered (003:854-867)
            continue
        if a.free and frees:
            for h in allies:
                if a.free.get(h, 0) > 0:
                    if any_only:
                        return True
                    for eff in effects:
                        out.append(_invoke(a.id, h, True, eff))
                    break
        if payers and a.kind != BOOST and a.id not in invoked:
            personal = a.kind in (CHARACTER, CONSEQUENCE) and owner is not None
            for p in payers:
                # a fate point buys your own aspect, a situation aspect, or a hostile
                # invoke of an opponent's aspect, never a friend's (003:611-613)
                if not personal or owner == p or F[owner].sheet.side != side:
                    if any_only:
                        return True
                    for eff in effects:
                        out.append(_invoke(a.id, p, False, eff))
    if spin:
        out.extend(SpendSpin(h) for h in spin)
    return False if any_only else out


def spend_spin(e: "Play", who: str, r: Roll, holder: str) -> None:
    """A spin token spent: +1 to ``who``'s defense, ``who`` an ally of the holder ("grant any
    ally", 002:95; not the holder's own); a token lasts until spent or the scene ends (a ruling:
    the text gives no limit)."""
    e.t.spin[holder] -= 1
    r.opp_bonus += 1
    e.emit(ev.Spin(holder, e.t.spin[holder], spent_for=who))


def apply_invoke(e: "Play", who: str, r: Roll, inv: Invoke) -> None:
    t = e.t
    F = t.f
    a = t.aspects[inv.aspect]
    hostile = None
    if inv.free:
        a.free[inv.payer] -= 1
        if a.free[inv.payer] == 0:
            del a.free[inv.payer]
    else:
        payer = F[inv.payer]
        if payer.sheet.is_npc:
            t.gm_pool -= 1
            t.gm_spent += 1
        else:
            payer.fate_points -= 1
            t.fp_spent[inv.payer] += 1
        if a.kind in (CHARACTER, CONSEQUENCE) and a.owner is not None and F[a.owner].sheet.side != F[who].sheet.side:
            hostile = a.owner  # paid to the target after the scene (003:1104-1114)
            F[a.owner].owed += 1
    if not inv.free:  # free invokes are the stated exception to "once per roll" (003:608-610)
        r.invoked.setdefault(F[who].sheet.side, set()).add(a.id)
    elif e.solo:  # counted for a big bad's no_stacking (solo.free_stack_barred)
        r.invoked.setdefault(F[who].sheet.side + "#free", set()).add(a.id)
    new_faces = None
    worth, solo_rule, big_bad = INVOKE_BONUS, None, None
    if inv.effect == "reroll":
        new_faces = e.dice.roll(who, f"reroll (invoking {a.name})")
        if who == r.actor:
            r.faces = new_faces
        else:
            r.opp_faces = new_faces
    else:
        worth, solo_rule, big_bad = invoke_worth(e, who, r, inv.free)
        if who == r.actor:
            r.bonus += worth
        else:
            r.opp_bonus += worth
    e.emit(ev.Invoked(who, a.name, a.id, inv.payer, inv.free, inv.effect, hostile, new_faces))
    if solo_rule is not None:
        e.emit(ev.SoloBonus(big_bad, solo_rule, worth))
    if a.kind == BOOST and not a.free:
        del t.aspects[a.id]
        e.emit(ev.AspectRemoved(a.name, a.id, "boost used"))
    elif e.rules.fragile_aspects and a.kind == ADVANTAGE and a.owner is not None and a.id in t.aspects:
        del t.aspects[a.id]  # a maneuver's aspect on a character goes at its first tag (002:83)
        e.emit(ev.AspectRemoved(a.name, a.id, "fragile: tagged once"))


def bears_on(r: Roll, who: str, owner: str | None) -> bool:
    """Whether an aspect of ``owner`` (None: a situation aspect, of the scene or of a zone where
    the roll happens) bears on ``who``'s part in roll ``r`` plainly enough that no one at the
    table would call it bogus (003:587-592): the situation, ``who``'s own aspect, or one of the
    other party to the roll, the one it strikes or is struck by. A bystander's aspect (another
    PC's trouble to hit this one) needs a story a script cannot tell, so the scripted policies
    leave it to the table (their ``invoke_any`` parameter lifts this)."""
    if owner is None or owner == who:
        return True
    return owner == (r.opposer if who == r.actor else r.actor)


def fits(r: Roll, who: str, a: Aspect) -> bool:
    """Whether a script may invoke ``a`` on ``who``'s part in roll ``r`` as a GM would let it: an
    aspect whose words bear on this action (003:587-592). The situation's and ``who``'s own always
    do (:func:`bears_on`); of the other party's, those that hamper it whatever its words: its
    consequences and the advantages placed on it, and, for the one who acts against it, its
    trouble. A high concept, another aspect, or a trouble turned against the one acting (a trouble
    "Can't Swim" to dodge a bullet) needs words a script cannot read: left to the table."""
    owner = a.owner
    if owner is None or owner == who:
        return True
    if owner != (r.opposer if who == r.actor else r.actor):
        return False
    if a.kind in (CONSEQUENCE, ADVANTAGE):
        return True
    return who == r.actor and a.kind == CHARACTER and a.role == "trouble"


def invoke_budget(e: "Play", who: str, bearing: bool = False, fitting: bool = False) -> tuple[int, int, int]:
    """For the roll being invoked on: (free invokes ``who`` and its allies hold on aspects in play
    here, fate points ``who`` can spend, distinct aspects it could pay to invoke); with
    ``bearing``, only the aspects that bear on ``who``'s part in the roll (:func:`bears_on`), and
    with ``fitting`` as well only those a GM would let it invoke (:func:`fits`)."""
    t = e.t
    r = t.roll
    if r is None:
        return 0, 0, 0
    F = t.f
    side = F[who].sheet.side
    allies = set([who] + t.allies_of(who))
    invoked = r.invoked.get(side, ())
    fp = t.fate_points_of(who)
    free = payable = 0
    for a in t.aspects.values():
        owner = a.owner
        if owner is not None and F[owner].status != ACTIVE:
            continue
        if a.zone is not None and a.zone not in r.zones:
            continue
        if a.obstacle and a.name not in r.about or a.hidden:
            continue
        if not fits(r, who, a) if fitting else bearing and not bears_on(r, who, owner):
            continue  # fits holds only where bears_on does
        for h, n in a.free.items():
            if h in allies:
                free += n
        if fp and a.kind != BOOST and a.id not in invoked:
            if not (a.kind in (CHARACTER, CONSEQUENCE) and owner is not None) or owner == who \
                    or F[owner].sheet.side != side:
                payable += 1
    return free, fp, payable
