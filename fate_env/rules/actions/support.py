"""Support: pledge teamwork to an ally's next roll, even one who has acted (003:1558-1561)."""

from __future__ import annotations

from .. import events as ev
from ..options import Support
from .base import Action


def offer(e, f, ctx):
    return [Support(a) for a in e.t.allies_of(f.id)]


def run(e, f, choice: Support):
    e.t.f[choice.ally].supporters.append(f.id)
    e.emit(ev.SupportPledged(f.id, choice.ally))
    yield from ()


ACTION = Action(Support, offer, run)
