"""Copies of one position played on in the kernel: the fast path of ``agents/search.py``.

The reference way is ``Engine.fork``: copy the engine, give the copy its own dice, play it on
with a scripted policy everywhere. Here the kernel does the same for a whole batch of copies in
one call (``kernel.playouts``): the scene is replayed once from its seed with its answers so far,
keeping the state at the turn's start; each copy starts from there, answers with the option being
tried, then every seat plays its scripted policy (the searcher's ``rollout`` for its side, ``foes``
for the others) on the dice of ``default_rng(copy seed)``, the generator a fork would be given. So the copies end exactly as
the forks would, number for number (a differential test checks it), at a fraction of the cost.

Only a scene that follows from its seed and answers alone can be replayed (``Engine.reproducible``:
no GM power, no forced or physical dice), and only a scene the kernel covers; otherwise the
caller forks on the reference engine.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .kernel import layout as k
from .jit import first_call
from .kernel.entry import playouts
from .core import FastCore, seed_array
from .tables import DECISION_BITS, TooLong


@dataclass
class Copies:
    """How a batch of copies ended: one row per copy."""

    winner: np.ndarray     # the winning side's index, -1 for none
    running: np.ndarray    # stopped at the horizon, not ended
    status: np.ndarray     # [copy, character]: 0 in the fight, 1 conceded, 2 taken out
    used: np.ndarray       # [copy, character]: stress box and consequence values used up on the scene's track
    total: np.ndarray      # [copy, character]: all of them
    members: np.ndarray    # [copy, character]: a mob's members still standing
    count: np.ndarray      # [character]: a mob's members at the start (1 for anyone else)
    bailed: np.ndarray     # copies the kernel could not play (too many aspects or events): fork those


class Lookahead:
    """A scene compiled for look-ahead copies: every seat answers from the given answers, then
    plays its policy: ``rollout`` for the seats of ``side``, ``foes`` for the others (scripted
    policies the kernel plays; ``side`` None: ``rollout`` everywhere). Raises ``Unsupported`` for a
    scene or policy the kernel does not cover."""

    def __init__(self, scene, rollout: str, side: str | None = None, foes: str | None = None):
        ids = [c.id for c in scene.characters]
        plays = {c.id: rollout if side is None or c.side == side else (foes or rollout) for c in scene.characters}
        self.core = FastCore(scene, plays, {cid: tuple(DECISION_BITS) for cid in ids})
        self.ids = list(self.core.tables.ids)
        self.sides = list(self.core.tables.sides)
        self._events = np.zeros((self.core.tables.emax, k.EW), np.int64)

    def play(self, seed: int, answers: list[int], decision: tuple[str, str, int], tries: list[int],
             rseeds: list[int], horizon: int) -> Copies:
        """One copy per (try, copy seed) pair, in that order: the scene replayed from ``seed`` with
        ``answers`` to ``decision`` (kind, actor, option count: checked), answered with the try's
        option, played on with the copy seed's dice until exchange ``horizon`` begins (0: the end)."""
        t = self.core.tables
        n = t.SC.shape[0]
        m = len(tries)
        CH = np.zeros((m, n, k.NCF + n), np.int64)
        OUT = np.zeros((m + 1, 3), np.int64)
        H = np.zeros((m, n, 2), np.int64)
        with np.errstate(over="ignore"):
            first_call(playouts, self.core.arrays, seed_array([seed]), np.asarray(answers, np.int64),
                       np.asarray(tries, np.int64), seed_array(rseeds), horizon, self._events, CH, OUT, H)
        kind, actor, count = decision
        reached = (int(OUT[m, 0]), int(OUT[m, 1]), int(OUT[m, 2]))
        if reached[1] < 0 and reached[2] in (k.BAIL_ASPECTS, k.BAIL_EVENTS):
            raise TooLong(f"{t.scene.name!r} (seed {seed}): the fight so far outgrew the kernel's tables "
                          f"({k.BAIL_REASONS[reached[2]]})")
        if reached != (DECISION_BITS[kind], self.ids.index(actor), count):
            where = "no decision" if reached[1] < 0 else f"{self.ids[reached[1]]}'s decision of kind {reached[0]}"
            raise RuntimeError(f"the fast core's replay of {t.scene.name!r} (seed {seed}) reached {where}, not "
                               f"{actor}'s {kind} with {count} options: a bug (search core=reference plays on)")
        bail = OUT[:m, 1]
        count_ = np.where(t.SC[:, k.S_MOB] != 0, t.SC[:, k.S_COUNT], 1)
        return Copies(OUT[:m, 0].copy(), bail == k.BAIL_HORIZON, CH[:, :, k.C_STATUS].copy(), H[:, :, 0], H[:, :, 1],
                      CH[:, :, k.C_MEMBERS].copy(), count_, (bail != k.BAIL_NONE) & (bail != k.BAIL_HORIZON))
