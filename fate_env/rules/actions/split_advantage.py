"""Splitting the effort of an advantage among targets (003:2657-2659: one who "insists on creating
a separate aspect on each target" is "constrained to the effort splitting method").

Under the ``split_effort`` dial an advantage template that targets a foe may be tried on several
foes in one zone: one roll (and the actor's invokes), the total given out as for a split attack
(at least one to each target kept, ``split_attack``'s rulings), then each target defends against
its share with the template's defend skills. Each share comes to its own outcome: a success puts
the aspect on that target with a free invoke (two with style), a tie gives the actor a boost, and a
failure gives nothing (a ruling: the cost question of a single advantage, 003:842-845, is not asked
share by share). Targets, as every template's, are foes within its reach.
"""

from __future__ import annotations

from typing import Any

from .. import events as ev
from ..aspects import boost
from ..decisions import Flow
from ..invokes import invoke_turns, roll_context
from ..options import SplitAdvantage
from ..reach import advantage_skill, template_targets
from ..rolls import STYLE, SUCCESS, TIE, band, base, resolved
from ..state import Fighter
from ..table import Roll
from .advantage import place
from .base import Action, TurnContext
from .split_attack import defend_share, give_out, splits
from ..play import Play


def offer(e: "Play", f: Fighter, ctx: TurnContext) -> list[Any]:
    F = e.t.f
    out = []
    for tpl in e.scene.advantages:
        if tpl.target != "foe":
            continue
        by_zone: dict[str, int] = {}
        for c in template_targets(e, f, tpl, ctx.foes):
            by_zone[F[c].zone] = by_zone.get(F[c].zone, 0) + 1
        out.extend(SplitAdvantage(tpl.name, z) for z, n in by_zone.items() if n >= 2)
    return out


def run(e: "Play", f: Fighter, choice: SplitAdvantage) -> Flow:
    F = e.t.f
    tpl = next(t for t in e.scene.advantages if t.name == choice.template)
    foes = [c for c in template_targets(e, f, tpl, e.t.foes_of(f.id)) if F[c].zone == choice.zone]
    skill = advantage_skill(e, f, tpl, foes[0])
    notes: list[str] = []
    rating, total = base(e, f.id, skill, "create_advantage", None, notes)
    faces = e.dice.roll(f.id, f"split advantage with {skill}")
    e.emit(ev.Rolled(f.id, "create_advantage", skill, rating, total, faces, tuple(notes)))
    whole = Roll("create_advantage", f.id, skill, total, faces, zones=(f.zone, choice.zone))
    yield from invoke_turns(e, [(f.id, whole)], roll_context)  # the actor's invokes, before the split
    given = yield from give_out(e, f, foes, whole.effort, skill)
    for tid, effort in given.items():
        if not (F[tid].active and f.active) or e.t.is_over():
            continue
        share = Roll("create_advantage", f.id, skill, effort, (0, 0, 0, 0), target=tid, zones=(f.zone, choice.zone))
        r = yield from defend_share(e, f, tid, share, tpl.defend)
        resolved(e, r)
        outcome = band(r.margin)
        if outcome == TIE:
            if not e.facts.maneuvers:  # Fate 3.0: a tie places nothing (002:79)
                boost(e, f.id, tpl.name)
        elif outcome in (SUCCESS, STYLE) and F[tid].active:
            place(e, f, tpl.name, tid, skill, f.id, 2 if outcome == STYLE else 1)


ACTION = Action(SplitAdvantage, offer, run, gate=splits, feature="split")
