"""Create an advantage: a new aspect from one of the scene's templates (003:800-870; 000:205-240).

Against a foe it is a roll against their defense; otherwise against the template's difficulty.
Success places the aspect with one free invoke (two with style); a tie gives a boost; a failure,
in a conflict, may be turned into success at a cost by giving the enemy the free invoke
(003:842-845). Under Fate 3.0's maneuver (``advantage_rule: maneuver``, 002:79) success needs a
shift and merits one free tag, with style or not: a tie or a failure places nothing, gives no boost
and offers no cost. A contest asks its own
question instead, so the attempt returns what a failure would have placed (:class:`Attempt`) and
:func:`give_failed` places it when the contest says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import events as ev
from ..aspects import boost, gain_free, new_aspect
from ..decisions import Flow, ask
from ..invokes import invoke_rounds
from ..kinds import Band, DecisionKind
from ..options import Choose, CreateAdvantage
from ..reach import advantage_skill, reaches_far, template_targets
from ..rolls import FAIL, STYLE, TIE, Defender, Difficulty, after_roll_edge, band, best_skill, resolved, roll
from ..state import ADVANTAGE, SITUATION, Aspect, Fighter
from ..steps import respond
from ..table import Roll
from .base import Action, TurnContext
from ..play import Play


@dataclass(slots=True)
class Attempt:
    """An advantage roll's result: its band, its roll, and what a failure at a cost would give
    the enemy (a new aspect from ``template`` on ``target``, or a free invoke on ``aspect``)."""

    outcome: Band | None
    roll: Roll | None
    template: str | None = None
    target: str | None = None
    skill: str | None = None
    aspect: Aspect | None = None


NOTHING = Attempt(None, None)


def offer(e: "Play", f: Fighter, ctx: TurnContext) -> list[Any]:
    named = {(a.name, a.owner or a.zone or "scene") for a in e.t.aspects.values() if a.kind in (ADVANTAGE, SITUATION)}
    out = []
    interned = e.interned  # options are values: one object per (template, target) for the scene
    targets: dict[tuple, list[str]] = {}  # templates of one target kind, track and reach share targets
    guarded = e.immunity or e.hive
    for tpl in e.scene.advantages:  # of either kind: DISTRACTED in a physical fight (003:1414-1419)
        k = (tpl.target, tpl.track, reaches_far(tpl))
        got = targets.get(k)
        if got is None:
            got = targets[k] = template_targets(e, f, tpl, ctx.foes)
        for target in got:
            if guarded and tpl.target == "foe" and _guarded(e, target, tpl.track):
                continue  # challenge immunity or a hive's heart (003:2520-2525, 003:2620-2628)
            key = (tpl.name, target)
            if key not in named:  # already there: take advantage of it instead
                o = interned.get(key)
                if o is None:
                    o = interned[key] = CreateAdvantage(tpl.name, target)
                out.append(o)
    return out


def _guarded(e: "Play", target: str, track: str) -> bool:
    """Whether a big bad's rule break keeps advantages off ``target`` on ``track`` now."""
    sheet = e.t.f[target].sheet
    return (e.immunity and sheet.immune(track, bool(e.t.tasks_left))
            or e.hive and sheet.shielded(e.t.active_ids()))


def run(e: "Play", f: Fighter, choice: CreateAdvantage) -> Flow:
    yield from create_advantage(e, f, choice.template, choice.target, ask_cost=True)


def place(e: "Play", f: Fighter, template: str, target: str, skill: str, holder: str | None,
          count: int) -> None:
    """The new aspect, with ``count`` free invokes for ``holder``."""
    t = e.t
    owner = target if target in t.f else None
    zone = target if target in e.map.neighbours else None
    if owner is not None and t.f[owner].sheet.side != f.sheet.side:
        t.set_back.add(owner)  # an advantage stuck on them (000:505)
    a = new_aspect(e, template, ADVANTAGE if owner else SITUATION, owner=owner, zone=zone, creator=f.id, skill=skill)
    if holder and count:
        a.free[holder] = count
    e.emit(ev.AspectCreated(a.name, a.id, a.kind, owner or zone, count, holder))


def create_advantage(e: "Play", f: Fighter, template: str, target: str, ask_cost: bool) -> Flow:
    """Roll for a new aspect; returns an :class:`Attempt`."""
    tpl = next(t for t in e.scene.advantages if t.name == template)
    skill = advantage_skill(e, f, tpl, target)
    if tpl.target == "foe":
        if not (yield from respond(e, target, f.id, "create_advantage")):
            return NOTHING
        defend = best_skill(e, target, tpl.defend, "defend", attacker=f.id)
        r = roll(e, "create_advantage", f, skill, Defender(target, defend), target=target)
    else:
        r = roll(e, "create_advantage", f, skill, Difficulty(tpl.difficulty, f"create {template}"), target=target)
    yield from invoke_rounds(e, r)
    resolved(e, r)
    outcome = band(r.margin)
    maneuver = e.facts.maneuvers  # Fate 3.0: a shift or nothing (002:79)
    if outcome == FAIL:
        if ask_cost and r.opposer is not None and not maneuver:
            pick = yield from ask(e, DecisionKind.COST, f.id, [Choose("no_aspect"), Choose("aspect_for_enemy")],
                                  action="create_advantage")
            if pick.option == "aspect_for_enemy":  # success at a cost (003:842-845)
                place(e, f, template, target, skill, r.opposer, 1)
        return Attempt(outcome, r, template, target, skill)
    if outcome == TIE:
        if not maneuver:
            boost(e, f.id, template)
    else:
        if e.rules.maneuver_avoid and tpl.target == "foe" and e.t.fate_points_of(target) > 0:
            if (yield from avoided(e, target, template)):
                return Attempt(outcome, r)
        # with style two free invokes (003:849-852); a maneuver merits one free tag, however it succeeds (002:79)
        place(e, f, template, target, skill, f.id, (2 if outcome == STYLE and not maneuver else 1) + scale_invokes(e, r))
    return Attempt(outcome, r)


def avoided(e: "Play", target: str, template: str) -> Flow:
    """Fate 3.0 (002:79): a maneuver's target may take the temporary aspect, or pay a fate point
    (a PC's own, an NPC's from the GM's pool) not to. Returns whether it paid."""
    pick = yield from ask(e, DecisionKind.COST, target, [Choose("take_aspect"), Choose("avoid_aspect")],
                          action="maneuver", aspect=template)
    if pick.option != "avoid_aspect":
        return False
    t = e.t
    t.adjust_fp(target, -1)
    if t.f[target].sheet.is_npc:
        t.gm_spent += 1
    else:
        t.fp_spent[target] += 1
    e.emit(ev.ManeuverAvoided(target, template))
    return True


def scale_invokes(e: "Play", r: Roll) -> int:
    """One more free invoke per level of scale on a successful advantage (003:2438-2439), under
    ``scale_benefit: after_roll``; announced, so the log says where the extra invokes came from."""
    edge = after_roll_edge(e, r)
    if edge:
        e.emit(ev.ScaleBenefit(r.actor, r.opposer, edge, free_invokes=edge))
    return edge


def give_failed(e: "Play", f: Fighter, attempt: Attempt, holder: str) -> None:
    """A failed attempt kept at a cost: the enemy gets what the failure would have given."""
    if attempt.aspect is not None:
        gain_free(e, attempt.aspect, holder, 1)
    elif attempt.template is not None:
        place(e, f, attempt.template, attempt.target, attempt.skill, holder, 1)


ACTION = Action(CreateAdvantage, offer, run)

__all__ = ["ACTION", "Attempt", "create_advantage", "give_failed", "scale_invokes"]
