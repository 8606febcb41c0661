"""Fate 3.0's block, protecting an ally (002:44-46): on its turn the blocker rolls a defensive
skill (the better of its defend skills for the conflict's kind: a ruling, the text allowing "any
skill" at the GM's word); the result is the block strength. For the rest of that exchange an
enemy's attack on the ally meets the better of the ally's own defense roll and that strength.

Blocks against other kinds of action (002:47, "every time another character tries to perform the
blocked action") are not modelled: their scope is a table's call each time.
"""

from __future__ import annotations

from typing import Any

from .. import events as ev
from ..decisions import Flow
from ..invokes import invoke_turns, roll_context
from ..options import Protect
from ..rolls import Difficulty, best_skill, roll
from ..skills import DEFEND_SKILLS, MENTAL
from ..state import Fighter
from .base import Action, TurnContext
from ..play import Play


def offer(e: "Play", f: Fighter, ctx: TurnContext) -> list[Any]:
    F = e.t.f
    near = e.kind == MENTAL  # a social block reaches anyone; a physical one an ally in the zone (a ruling)
    return [Protect(a) for a in e.t.allies_of(f.id) if a not in e.t.protected and (near or F[a].zone == f.zone)]


def run(e: "Play", f: Fighter, choice: Protect) -> Flow:
    skills = DEFEND_SKILLS["any"] if e.kind == MENTAL else DEFEND_SKILLS["melee"]
    skill = best_skill(e, f.id, skills, "block")
    r = roll(e, "block", f, skill, Difficulty(0, f"block for {choice.ally}"), target=choice.ally)
    yield from invoke_turns(e, [(f.id, r)], roll_context)  # the blocker's own invokes raise it
    e.t.protected[choice.ally] = (f.id, r.effort)
    e.emit(ev.Protecting(f.id, choice.ally, r.effort))


def floor(e: "Play", r: Any) -> None:
    """An attack on a protected character: its defense is at least the block strength (002:46)."""
    held = e.t.protected.get(r.opposer)
    if held is None or not e.t.f[held[0]].active:
        return
    blocker, strength = held
    r.opp_floor = strength
    if strength > r.opp_base + sum(r.opp_faces):
        e.emit(ev.BlockHeld(r.opposer, blocker, strength))


ACTION = Action(Protect, offer, run, gate=lambda scene: scene.rules.protect, feature="protect")
