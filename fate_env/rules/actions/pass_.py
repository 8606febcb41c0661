"""Do nothing this turn."""

from __future__ import annotations

from .. import events as ev
from ..options import Pass
from .base import Action


def offer(e, f, ctx):
    return [Pass()]


def run(e, f, choice):
    e.emit(ev.Passed(f.id))
    yield from ()


ACTION = Action(Pass, offer, run)
