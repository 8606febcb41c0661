"""Concede on one's own turn (003:1693-1712); conceding out of turn is the engine's ``concede``."""

from __future__ import annotations

from ..options import Concede
from ..steps import concede_fighter
from .base import Action


def offer(e, f, ctx):
    return [Concede()]


def run(e, f, choice):
    concede_fighter(e, f)
    yield from ()


ACTION = Action(Concede, offer, run)
