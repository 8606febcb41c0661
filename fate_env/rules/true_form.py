"""Reveal true form (a big bad's rule break, Fate Condensed 003:2550-2566).

A big bad with a ``true_form`` is two (or more) characters beaten one after the other: the true
form waits out of play (``Status.WAITING``) until the form before it is taken out, then steps in
where it fell, with its own skills, stunts, stress and consequences (and its own rule breaks).
With ``carry_consequences`` the text's gentler version applies: the consequences taken so far
come along, the mild ones dismissed and the others one step lower (003:2562-2566); one that finds
no free slot of its new severity is dropped (the engine's ruling). Conceding is not being taken
out: a big bad that concedes reveals nothing.
"""

from __future__ import annotations


from . import events as ev
from .aspects import new_aspect
from .state import ACTIVE, CONSEQUENCE, Fighter, Status
from .play import Play


LOWER = {"moderate": "mild", "severe": "moderate", "extreme": "severe"}


def setup(e: "Play") -> None:
    """Every true form waits out of play at the start."""
    for c in e.scene.characters:
        if c.true_form is not None:
            e.t.f[c.true_form].status = Status.WAITING
    e.t.left_fight()


def reveal(e: "Play", fallen: Fighter) -> None:
    """``fallen`` was taken out: its true form enters the fight where it fell."""
    t = e.t
    nxt = t.f[fallen.sheet.true_form]
    nxt.status = ACTIVE
    nxt.zone = fallen.zone
    t.left_fight()  # the cached lists of who is in the fight
    carried = []
    if fallen.sheet.carry_consequences:
        for slot in fallen.slots:
            if slot.aspect is None or slot.severity not in LOWER or slot.aspect not in t.aspects:
                continue
            to = next((s for s in nxt.slots if s.free and s.severity == LOWER[slot.severity]
                       and s.track in (None, slot.track)), None)
            if to is None:
                continue
            a = new_aspect(e, t.aspects[slot.aspect].name, CONSEQUENCE, owner=nxt.id, role=to.severity)
            to.aspect = a.id
            carried.append(f"{to.severity}: {a.name}")
    e.emit(ev.TrueFormRevealed(fallen.id, nxt.id, nxt.zone, tuple(carried)))
