"""Move as an overcome: farther than one zone, across an impeded border, or past a foe
(000:459-465): Athletics against the border's difficulty or the blocker's defense."""

from __future__ import annotations

from typing import Any

from .. import events as ev
from ..aspects import boost
from ..blocks import harmful_crossing
from ..harm import harm
from ..decisions import Flow
from ..invokes import invoke_rounds
from ..options import OvercomeMove
from ..overcome import COST, overcome_outcome
from ..reach import blocker
from ..rolls import STYLE, SUCCESS, Defender, Difficulty, best_skill, resolved, roll
from ..skills import BLOCK_SKILLS, MOVE_SKILL, PHYSICAL
from ..state import Fighter
from ..steps import move_to
from .base import Action, TurnContext
from ..play import Play


def offer(e: "Play", f: Fighter, ctx: TurnContext) -> list[Any]:
    if f.sheet.immobile:
        return []  # a part of a map, a turret: it stays where it is
    return [OvercomeMove(z) for z in e.map.reachable(f.zone) if z not in ctx.free_now]


def run(e: "Play", f: Fighter, choice: OvercomeMove) -> Flow:
    if e.facts.sprint_by_shifts:
        yield from sprint(e, f, choice.zone)
        return
    zone = choice.zone
    by = blocker(e, f) if e.scene.foes_block_movement else None
    if by is not None:
        skill = best_skill(e, by, BLOCK_SKILLS, "defend", attacker=f.id)
        r = roll(e, "overcome", f, MOVE_SKILL, Defender(by, skill), target=zone)
    else:
        crossed = tuple(b.block.name for b in e.map.path_borders(f.zone, zone) if b.block is not None) \
            if e.scene_has_blocks else ()
        r = roll(e, "overcome", f, MOVE_SKILL, Difficulty(e.map.move_difficulty(f.zone, zone), f"move to {zone}"),
                 target=zone, about=crossed)
    yield from invoke_rounds(e, r)
    resolved(e, r)
    start = f.zone
    outcome = yield from overcome_outcome(e, f, r)
    if outcome in (SUCCESS, STYLE, COST):
        move_to(e, f, zone, free=False)
    elif by is None and e.scene_has_blocks and r.margin < 0 and f.active:
        border = harmful_crossing(e, start, zone)  # a block that can harm: the shifts missed (003:2318-2322)
        if border is not None:
            yield from harm(e, f, -r.margin, PHYSICAL, None, note=border.block.name)
    if outcome == STYLE:
        boost(e, f.id, "Momentum")


def sprint(e: "Play", f: Fighter, zone: str) -> Flow:
    """Fate 3.0's sprint (002:50-51): Athletics against Mediocre (or the foe who stands in the way,
    where the scene has foes block movement); each zone along the cheapest path takes one shift
    and its border's value more; the sprinter goes as far as its shifts pay for toward ``zone``."""
    by = blocker(e, f) if e.scene.foes_block_movement else None
    if by is not None:
        skill = best_skill(e, by, BLOCK_SKILLS, "defend", attacker=f.id)
        r = roll(e, "overcome", f, MOVE_SKILL, Defender(by, skill), target=zone)
    else:
        r = roll(e, "overcome", f, MOVE_SKILL, Difficulty(0, f"sprint to {zone}"), target=zone)
    yield from invoke_rounds(e, r)
    resolved(e, r)
    left, here, moved = r.margin, f.zone, 0
    for border in e.map.path_borders(f.zone, zone):
        cost = 1 + border.difficulty
        if left < cost:
            break
        left -= cost
        here = border.b if border.a == here else border.a
        moved += 1
    e.emit(ev.Sprinted(f.id, max(0, r.margin), zone, moved))
    if here != f.zone:
        move_to(e, f, here, free=False)


ACTION = Action(OvercomeMove, offer, run)
