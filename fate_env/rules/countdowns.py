"""Countdowns (Fate Condensed's optional rule, 003:2171-2195): deal with it now or it gets worse.

A countdown is a row of boxes marked left to right; each trigger the scene names marks one (an
exchange ending, a character's turn ending, a consequence it takes, its being taken out,
003:2186-2188); marking the last brings the outcome (003:2190-2191). The outcome the engine can
play is the text for the table and, if the scene gives them, a side that wins the scene there
and then (the ritual is complete) or a situation aspect put into play (the reinforcements are
here). A countdown tied to a character stops when that character leaves the fight
(``stops_when_out``), the engine's reading of "deal with it now"; without one it runs to its end.

State lives on the table (``Table.countdowns``: boxes marked per countdown; ``Table.running``:
whether each still runs; ``Table.decided``: the side a countdown made the winner), so copies and
checkpoints carry it.
"""

from __future__ import annotations


from . import events as ev
from .aspects import new_aspect
from .state import SITUATION
from .play import Play


def setup(e: "Play") -> None:
    e.t.countdowns = [0] * len(e.scene.countdowns)
    e.t.running = [True] * len(e.scene.countdowns)


def trigger(e: "Play", tag: str, cid: str = "") -> None:
    """``tag`` (with ``cid``) happened: mark a box on each running countdown it triggers."""
    t = e.t
    for i, cd in enumerate(e.scene.countdowns):
        if not t.running[i]:
            continue
        for when in cd.triggers:
            if when.tag == tag and when.arg == cid:
                _mark(e, i)
                break


def left_fight(e: "Play", cid: str) -> None:
    """``cid`` was taken out or conceded: the countdowns tied to it stop."""
    t = e.t
    for i, cd in enumerate(e.scene.countdowns):
        if t.running[i] and cd.stops_when_out == cid:
            t.running[i] = False
            e.emit(ev.CountdownStopped(cd.name, cid))


def _mark(e: "Play", i: int) -> None:
    t = e.t
    cd = e.scene.countdowns[i]
    t.countdowns[i] += 1
    e.emit(ev.CountdownMarked(cd.name, t.countdowns[i], cd.boxes))
    if t.countdowns[i] < cd.boxes:
        return
    t.running[i] = False
    e.emit(ev.CountdownEnded(cd.name, cd.text, cd.winner, cd.aspect.name if cd.aspect else None))
    if cd.aspect is not None:
        a = new_aspect(e, cd.aspect.name, SITUATION, zone=cd.aspect.zone)
        a.free.update(cd.aspect.free_invokes)
        e.emit(ev.AspectCreated(a.name, a.id, a.kind, cd.aspect.zone, sum(a.free.values()),
                                next(iter(a.free), None)))
    if cd.winner is not None and t.decided is None:
        t.decided = cd.winner


def marks(e: "Play") -> list[float]:
    """Each countdown for an observation: the share of its boxes marked, and whether it still runs."""
    out = []
    for i, cd in enumerate(e.scene.countdowns):
        out += [e.t.countdowns[i] / cd.boxes, 1.0 if e.t.running[i] else 0.0]
    return out
