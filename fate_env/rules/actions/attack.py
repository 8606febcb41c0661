"""Attack: a roll against the target's defense; shifts are a hit (003:872-906; 000:277-292).

A tie gives the attacker a boost; a weapon (the sheet's under the weapons dial, or the one a block
adds when someone is forced into it, 003:2324-2326) hits on a tie instead (003:2682-2684). Armor
takes shifts off any hit, whatever gives it (the sheet's rating, a block used as cover,
003:2333-2337); armor that takes a hit to 0 leaves the attacker a boost instead (003:2686-2689).
Success with style may trade one shift for a boost.
"""

from __future__ import annotations

from typing import Any

from .. import events as ev
from ..aspects import boost
from ..blocks import cover
from ..decisions import Flow, ask
from ..harm import harm
from ..invokes import invoke_rounds
from ..kinds import DecisionKind
from ..options import Attack, Choose, ForgoDefense, ShieldWith
from ..reach import attack_skills, attack_track, can_reach, reach_of
from ..rolls import Defender, Difficulty, after_roll_edge, best_skill, resolved, roll
from ..skills import DEFEND_SKILLS, PHYSICAL
from ..solo import reduce_hit
from ..state import Fighter
from ..table import Roll
from ..steps import respond
from .base import Action, TurnContext
from .guard import stand_in
from .protect import floor
from ..play import Play


def offer(e: "Play", f: Fighter, ctx: TurnContext) -> list[Any]:
    out = []
    interned = e.interned
    shielded = e.immunity and e.t.tasks_left
    in_fight = e.t.active_ids() if e.hive else ()
    for skill in attack_skills(e, f):
        for t in ctx.foes:
            if shielded and e.t.f[t].sheet.immune(attack_track(e, skill), True):
                continue  # challenge immunity: not until the challenge is beaten (003:2520-2525)
            if e.hive and e.t.f[t].sheet.shielded(in_fight):
                continue  # a hive's heart: its parts first (003:2620-2628)
            if can_reach(e, f, t, skill):
                key = ("attack", t, skill)
                o = interned.get(key)
                if o is None:
                    o = interned[key] = Attack(t, skill)
                out.append(o)
    return out


def run(e: "Play", f: Fighter, choice: Attack) -> Flow:
    target, skill = choice.target, choice.skill
    target = yield from stand_in(e, target, f.id)  # a guard or an ally steps in (000:270)
    answer = yield from respond(e, target, f.id, "attack", skill)
    if not answer:
        return
    track = attack_track(e, skill)
    if type(answer) is ForgoDefense:
        r = undefended(e, f, skill, target)
    else:
        defend = best_skill(e, target, DEFEND_SKILLS[reach_of(f, skill)], "defend", attacker=f.id, versus=skill)
        r = roll(e, "attack", f, skill, Defender(target, defend, ward=choice.target), target=target)
    if e.t.protected:
        floor(e, r)  # a blocker's strength (002:46)
    yield from invoke_rounds(e, r)
    yield from land(e, f, target, r, track)


def undefended(e: "Play", f: Fighter, skill: str, target: str, about: tuple[str, ...] = ()) -> Roll:
    """An attack on a target who forgoes the defense: against Mediocre (+0), with no one to invoke for
    the opposition (000:292-294)."""
    r = roll(e, "attack", f, skill, Difficulty(0, f"{target} forgoes the defense"), target=target, about=about)
    r.opposer = None
    return r


def land(e: "Play", f: Fighter, target: str, r: Roll, track: str, into: tuple[str, int] | None = None) -> Flow:
    """An attack roll on ``target``, its invokes done, comes to its outcome: a tie's boost (or a
    weapon's hit), a hit with its style choice, weapon and armor, cover, and solo bonuses.
    ``into``: a block the target is forced into and the weapon rating that adds (003:2324-2326),
    as a weapon does under the weapons rules: on a tie it hits for that much, on a hit it adds."""
    t = e.t.f[target]
    edge = after_roll_edge(e, r) if r.margin > 0 else 0
    if edge:  # the result after the roll, before style is judged (003:2436-2437)
        r.bonus += 2 * edge
        e.emit(ev.ScaleBenefit(f.id, target, edge, shifts=2 * edge))
    m = r.margin
    resolved(e, r)
    weapons = e.rules.weapons and not e.facts.weapon_rolls and track == PHYSICAL  # as shifts (003:2675-2693)
    if m < 0:
        return
    weapon = (into[1] if into is not None else 0) + (f.sheet.weapon if weapons else 0)
    if m == 0:
        if weapon == 0:
            boost(e, f.id, "Opening")
            return
        note = f"forced into {into[0]}" if into is not None else "weapon on a tie"
        hit = armored(e, f, t, weapon, weapons)
        if hit <= 0:  # armor took it all: the tie's boost after all (003:2686-2689)
            boost(e, f.id, "Opening")
            return
        yield from harm(e, t, hit, track, f.id, note=note, skill=r.skill)
        return
    if t.sheet.minion_armor:
        shield = yield from minion_armor(e, f, t, m)
        if shield is not None:  # the minion takes the hit that would have landed (003:2540-2544)
            target, t = shield, e.t.f[shield]
    hit = m
    e.t.set_back.add(target)  # successfully attacked: no challenge task this exchange
    if m >= 3:
        pick = yield from ask(e, DecisionKind.STYLE, f.id, [Choose("full_hit"), Choose("boost")], shifts=m)
        if pick.option == "boost":
            hit -= 1
            boost(e, f.id, "Momentum")
    note = None
    if into is not None:
        note = f"forced into {into[0]}, weapon {into[1]}"
    if weapons:
        note = f"weapon {f.sheet.weapon}, armor {t.sheet.armor}"
    hit = armored(e, f, t, hit + weapon, weapons)
    if hit <= 0:
        boost(e, f.id, "Glancing Blow")  # armor, whatever gives it, took the whole hit (003:2686-2689)
        return
    if e.solo:
        hit = reduce_hit(e, target, hit)
    yield from harm(e, t, hit, track, f.id, note=note, skill=r.skill)


def armored(e: "Play", f: Fighter, t: Fighter, shifts: int, weapons: bool) -> int:
    """What is left of a hit of ``shifts`` once the target's armor is off it: the sheet's rating
    under the weapons dial, then a standing block between them used as cover (003:2333-2337), which
    gives an Armor rating too. One path for all armor, so a tie's weapon hit and a hit alike meet
    it; cover is looked at (and announced) only while something is left to stop."""
    if weapons:
        shifts -= t.sheet.armor
    if shifts > 0 and e.scene_has_blocks:
        shifts -= cover(e, f.zone, t.zone, t.id)
    return shifts


def minion_armor(e: "Play", f: Fighter, big_bad: Fighter, shifts: int) -> Flow:
    """Expendable minion armor (003:2534-2549): a big bad hit may succeed at a cost on its defence
    by forcing a minion into the attack's path; the minion does not defend and takes the hit.
    The minions are its side's minor NPCs and mobs still in the fight in its zone. Returns the
    minion's id, or None when the big bad takes the hit itself."""
    F = e.t.f
    minions = [c for c in e.t.allies_of(big_bad.id) if F[c].sheet.kind in ("minor", "mob") and F[c].zone == big_bad.zone]
    if not minions:
        return None
    pick = yield from ask(e, DecisionKind.COST, big_bad.id, [Choose("take_hit")] + [ShieldWith(c) for c in minions],
                          action="minion_armor", shifts=shifts, attacker=f.id)
    if type(pick) is not ShieldWith:
        return None
    e.emit(ev.MinionArmor(big_bad.id, pick.minion, f.id, shifts))
    return pick.minion


ACTION = Action(Attack, offer, run)
