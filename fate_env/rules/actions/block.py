"""Fate 3.0's block against an action (002:44-47): on its turn the blocker names a foe and a kind
of action (an attack, creating an advantage, moving) and rolls the skill it blocks with; the
result is the block strength. For the rest of the exchange, each time that foe tries that kind
of action it first rolls the action's own skill against the block strength: with at least one
shift it gets past and the action goes ahead as usual; otherwise the action is spent.

Rulings where 002 leaves it to the table: a block names one foe and one kind of action, never
"all bases" (002:45); a physical block needs the foe in the blocker's zone (a mental one
reaches anyone); the blocking skill is the better of Fight and Athletics against attacks and
advantages, of the movement blockers' skills against moving (000:469-473), Will in a mental
conflict; the foe's "contest" is one roll against the strength (002:47: "compares it to the
block strength"), before the action's own roll.
"""

from __future__ import annotations

from typing import Any

from .. import events as ev
from ..decisions import Flow
from ..invokes import invoke_rounds, invoke_turns, roll_context
from ..kinds import BLOCK_KINDS
from ..options import (
    Attack, BlockAction, CreateAdvantage, Exploit, Move, OvercomeMove, ShoveInto, SplitAttack, ZoneAttack,
)
from ..reach import advantage_skill
from ..rolls import Difficulty, best_skill, resolved, roll
from ..skills import BLOCK_SKILLS, DEFEND_SKILLS, EXPLOIT_SKILLS, MENTAL, MOVE_SKILL
from ..state import Fighter
from .base import Action, TurnContext
from ..play import Play


KINDS = BLOCK_KINDS
#: the kind of action each turn option is, for a block against it
KIND_OF: dict[type, str] = {Attack: "attack", ZoneAttack: "attack", SplitAttack: "attack", ShoveInto: "attack",
                            CreateAdvantage: "advantage", Exploit: "advantage", Move: "move", OvercomeMove: "move"}


def offer(e: "Play", f: Fighter, ctx: TurnContext) -> list[Any]:
    F = e.t.f
    anywhere = e.kind == MENTAL
    return [BlockAction(t, k) for t in ctx.foes if anywhere or F[t].zone == f.zone for k in KINDS
            if (t, k) not in e.t.blocked]


def run(e: "Play", f: Fighter, choice: BlockAction) -> Flow:
    if e.kind == MENTAL:
        skills = DEFEND_SKILLS["any"]
    else:
        skills = BLOCK_SKILLS if choice.action == "move" else DEFEND_SKILLS["melee"]
    skill = best_skill(e, f.id, skills, "block")
    r = roll(e, "block", f, skill, Difficulty(0, f"block {choice.target}'s {choice.action}"), target=choice.target)
    yield from invoke_turns(e, [(f.id, r)], roll_context)  # the blocker's own invokes raise it
    e.t.blocked[(choice.target, choice.action)] = (f.id, r.effort)
    e.emit(ev.Blocking(f.id, choice.target, choice.action, r.effort))


def _skill(e: "Play", f: Fighter, choice: Any) -> str:
    """The skill the blocked action is tried with (002:47: "the skill he's using for the action")."""
    if type(choice) is CreateAdvantage:
        tpl = next(t for t in e.scene.advantages if t.name == choice.template)
        return advantage_skill(e, f, tpl, choice.target)
    if type(choice) is Exploit:
        return best_skill(e, f.id, EXPLOIT_SKILLS, "create_advantage")
    if type(choice) in (Move, OvercomeMove):
        return MOVE_SKILL
    return choice.skill


def get_past(e: "Play", f: Fighter, choice: Any) -> Flow:
    """Whether ``f``'s ``choice`` gets past a block on it this exchange (True when none stands)."""
    kind = KIND_OF.get(type(choice))
    held = e.t.blocked.get((f.id, kind)) if kind is not None else None
    if held is None or not e.t.f[held[0]].active:
        return True
    blocker, strength = held
    r = roll(e, "overcome", f, _skill(e, f, choice), Difficulty(strength, f"past {blocker}'s block"), target=blocker)
    yield from invoke_rounds(e, r)
    resolved(e, r)
    past = r.margin >= 1
    e.emit(ev.BlockTested(f.id, blocker, kind, past))
    return past


ACTION = Action(BlockAction, offer, run, gate=lambda scene: scene.rules.block_actions,
                feature="block_actions")
