"""Clear an aspect: an overcome against its creator's defense, or a fixed difficulty (003:786-798)."""

from __future__ import annotations

from typing import Any

from .. import events as ev
from ..aspects import boost, removable
from ..blocks import clear, standing_block
from ..decisions import Flow
from ..hazards import hazard_of
from ..invokes import invoke_rounds
from ..options import RemoveAspect
from ..overcome import COST, overcome_outcome
from ..rolls import STYLE, SUCCESS, Defender, Difficulty, best_skill, resolved, roll
from ..skills import BLOCK_SKILLS, MENTAL, PHYSICAL, REMOVE_DIFFICULTY
from ..state import Fighter
from .base import Action, TurnContext
from ..play import Play


REMOVE_SKILLS = {PHYSICAL: ("Athletics", "Physique", "Crafts"), MENTAL: ("Will", "Rapport", "Empathy")}


def distraction_of(e: "Play", a: Any) -> Any:
    """The scene's distraction the scene aspect ``a`` is, if any."""
    if not e.scene.distractions or a.creator is not None or a.owner is not None:
        return None
    return next((dz for dz in e.scene.distractions if dz.name == a.name), None)


def offer(e: "Play", f: Fighter, ctx: TurnContext) -> list[Any]:
    return [RemoveAspect(a.id) for a in removable(e, f)]


def run(e: "Play", f: Fighter, choice: RemoveAspect) -> Flow:
    t = e.t
    a = t.aspects[choice.aspect]
    skill = best_skill(e, f.id, REMOVE_SKILLS[e.kind], "overcome")
    defender = defended_by(e, f, a)
    if defender is not None:
        opp_skill = a.skill or best_skill(e, defender, BLOCK_SKILLS, "defend")
        r = roll(e, "overcome", f, skill, Defender(defender, opp_skill), target=defender, about=(a.name,))
    else:
        r = roll(e, "overcome", f, skill, Difficulty(difficulty_of(e, a), f"clear {a.name}"), about=(a.name,))
    yield from invoke_rounds(e, r)
    resolved(e, r)
    outcome = yield from overcome_outcome(e, f, r)
    cleared(e, f, a, outcome)


def defended_by(e: "Play", f: Fighter, a: Any) -> str | None:
    """Who defends ``a`` against being cleared: its creator, an active foe of ``f``; else None (a difficulty)."""
    creator, F = a.creator, e.t.f
    if creator is not None and F[creator].active and F[creator].sheet.side != f.sheet.side:
        return creator
    return None


def difficulty_of(e: "Play", a: Any) -> int:
    """Clearing ``a`` unopposed: a block's removal difficulty, a hazard's rating, a distraction's
    opposition, else the engine's difficulty for clearing an aspect."""
    border, hazard = standing_block(e, a), hazard_of(e, a) if e.scene.hazards else None
    distraction = distraction_of(e, a)
    return (border.block.remove_difficulty if border is not None else hazard.rating if hazard is not None
            else distraction.opposition if distraction is not None else REMOVE_DIFFICULTY)


def cleared(e: "Play", f: Fighter, a: Any, outcome: str) -> None:
    """An overcome on ``a`` came to ``outcome``: a success (or one at a cost) clears it, style adds a boost."""
    t = e.t
    if outcome in (SUCCESS, STYLE, COST) and a.id in t.aspects:
        if e.scene_has_blocks and (border := standing_block(e, a)) is not None:
            clear(e, border)
        del t.aspects[a.id]
        e.emit(ev.AspectRemoved(a.name, a.id, f"cleared by {f.id}"))
        if (dz := distraction_of(e, a)) is not None:  # dealt with: its repercussion (003:2361-2364)
            e.emit(ev.Distraction(dz.name, f.id, dz.deal))
    if outcome == STYLE:
        boost(e, f.id, "Clear Ground")


ACTION = Action(RemoveAspect, offer, run)
