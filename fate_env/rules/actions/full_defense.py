"""Full defense: +2 to every defense until the next turn (003:2240-2248; 000:400-404)."""

from __future__ import annotations

from .. import events as ev
from ..options import FullDefense
from .base import Action


def offer(e, f, ctx):
    return [FullDefense()]


def run(e, f, choice):
    f.full_defense = True
    f.defended_on_full = False
    e.emit(ev.FullDefenseDeclared(f.id))
    yield from ()


ACTION = Action(FullDefense, offer, run)
