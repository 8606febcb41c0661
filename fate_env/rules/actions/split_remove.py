"""One overcome split among several problems (003:2664-2666: "solving two problems at once with
overcome"), under the ``split_effort`` dial.

The problems an overcome in a conflict solves are the aspects in the way (``remove``). With two or
more of them clearable from where the actor stands (one zone: 003:2660-2661), it may roll once,
invoke, and split the total as a split attack does (003:2634-2640; ``split_attack``'s rulings: at
least one point to each aspect it keeps, the last taking what is left). Each share is then its own
overcome against that aspect's opposition: its creator's defense (who invokes on that roll alone),
or its difficulty; each comes to its own outcome, ties and failures with their costs as a single
overcome's (``overcome.overcome_outcome``), and a success clears it.
"""

from __future__ import annotations

from typing import Any

from .. import events as ev
from ..aspects import removable
from ..decisions import Flow
from ..invokes import invoke_turns, roll_context
from ..options import Share, SplitRemove
from ..overcome import overcome_outcome
from ..rolls import base, best_skill, resolved
from ..skills import BLOCK_SKILLS
from ..state import Fighter
from ..table import Roll
from .base import Action, TurnContext
from .remove import REMOVE_SKILLS, cleared, defended_by, difficulty_of
from .split_attack import give_out, splits
from ..play import Play


def problems(e: "Play", f: Fighter) -> list[int]:
    """The aspects ``f`` could clear that are where it stands (003:2660-2661: the targets in one zone):
    on its zone, on someone in it, or on the whole scene (a block ``f`` borders counts, as ``removable``
    offers only those)."""
    F = e.t.f
    return [a.id for a in removable(e, f)
            if (F[a.owner].zone == f.zone if a.owner is not None else a.zone in (None, f.zone))]


def offer(e: "Play", f: Fighter, ctx: TurnContext) -> list[Any]:
    return [SplitRemove(f.zone)] if len(problems(e, f)) >= 2 else []


def run(e: "Play", f: Fighter, choice: SplitRemove) -> Flow:
    t = e.t
    targets = problems(e, f)
    skill = best_skill(e, f.id, REMOVE_SKILLS[e.kind], "overcome")
    notes: list[str] = []
    rating, total = base(e, f.id, skill, "overcome", None, notes)
    faces = e.dice.roll(f.id, f"split overcome with {skill}")
    e.emit(ev.Rolled(f.id, "overcome", skill, rating, total, faces, tuple(notes)))
    names = tuple(t.aspects[aid].name for aid in targets)
    whole = Roll("overcome", f.id, skill, total, faces, zones=(f.zone,), about=names)
    yield from invoke_turns(e, [(f.id, whole)], roll_context)  # the actor's invokes, before the split
    given = yield from give_out(e, f, targets, whole.effort, skill, share=Share, action="split_overcome")
    for aid, effort in given.items():
        a = t.aspects.get(aid)
        if a is None or not f.active or t.is_over():
            continue
        r = Roll("overcome", f.id, skill, effort, (0, 0, 0, 0), zones=(f.zone,), about=(a.name,))
        defender = defended_by(e, f, a)
        if defender is not None:
            d_skill = a.skill or best_skill(e, defender, BLOCK_SKILLS, "defend")
            d_notes: list[str] = []
            d_rating, d_total = base(e, defender, d_skill, "defend", f.id, d_notes, against=f.id)
            d_faces = e.dice.roll(defender, f"defend with {d_skill}")
            e.emit(ev.Rolled(defender, "defend", d_skill, d_rating, d_total, d_faces, tuple(d_notes)))
            r.target, r.opposer, r.active, r.opp_skill, r.opp_base, r.opp_faces = (
                defender, defender, True, d_skill, d_total, d_faces)
            yield from invoke_turns(e, [(defender, r)], roll_context)
        else:
            r.opp_base = difficulty_of(e, a)
            e.emit(ev.PassiveOpposition(f.id, "overcome", r.opp_base, f"clear {a.name}"))
        resolved(e, r)
        outcome = yield from overcome_outcome(e, f, r)
        cleared(e, f, a, outcome)


ACTION = Action(SplitRemove, offer, run, gate=splits, feature="split")
