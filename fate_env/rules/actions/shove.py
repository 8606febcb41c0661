"""Forcing someone into a block (Fate Condensed's obstacles, 003:2324-2326).

An attack as normal on a foe standing beside a block (in one of the two zones of its border,
the attacker in the same zone, a melee attack), adding a weapon rating of half the block's,
rounded down, at least 1. The engine's reading of "add a Weapon rating": as a weapon adds under
the weapon rules (003:2682-2689): a tie hits for that rating, a hit grows by it.
"""

from __future__ import annotations

from typing import Any

from ..decisions import Flow
from ..invokes import invoke_rounds
from ..options import ForgoDefense, ShoveInto
from ..reach import attack_skills, attack_track, reach_of
from ..rolls import Defender, best_skill, roll
from ..skills import DEFEND_SKILLS
from ..state import Fighter
from ..steps import respond
from .attack import land, undefended
from .base import Action, TurnContext
from ..play import Play


def _blocks_here(e: "Play", zone: str) -> list[Any]:
    """The blocks still standing on a border of ``zone``."""
    return [b.block for b in e.scene.borders if b.block is not None and zone in (b.a, b.b)
            and frozenset((b.a, b.b)) not in e.t.cleared]


def offer(e: "Play", f: Fighter, ctx: TurnContext) -> list[Any]:
    blocks = _blocks_here(e, f.zone)
    if not blocks:
        return []
    F = e.t.f
    here = [c for c in ctx.foes if F[c].zone == f.zone]
    return [ShoveInto(c, s, b.name) for s in attack_skills(e, f) if reach_of(f, s) == "melee"
            for c in here for b in blocks]


def run(e: "Play", f: Fighter, choice: ShoveInto) -> Flow:
    target, skill = choice.target, choice.skill
    block = next(b for b in _blocks_here(e, f.zone) if b.name == choice.block)
    answer = yield from respond(e, target, f.id, "attack", skill, block.shove_weapon)
    if not answer:
        return
    if type(answer) is ForgoDefense:
        r = undefended(e, f, skill, target, about=(block.name,))
    else:
        defend = best_skill(e, target, DEFEND_SKILLS[reach_of(f, skill)], "defend", attacker=f.id, versus=skill)
        r = roll(e, "attack", f, skill, Defender(target, defend), target=target, about=(block.name,))
    yield from invoke_rounds(e, r)
    yield from land(e, f, target, r, attack_track(e, skill), into=(block.name, block.shove_weapon))


ACTION = Action(ShoveInto, offer, run, gate=lambda scene: any(b.block is not None for b in scene.borders))
