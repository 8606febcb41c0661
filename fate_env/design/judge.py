"""Judging a candidate: fights on the fast core with common random numbers, raced.

Every candidate plays the same seeds in the same order (the same dice for every design, so two
candidates' difference is theirs, not the dice's). The fights come in chunks; once the PCs' win
rate's 95% interval lies wholly outside the target's band the candidate stops early (racing): it
cannot be the design, and its figures so far are enough to steer the search away.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..evaluation.bench_report import SEVERITIES, harms, worst_off_parts
from ..evaluation.stats import wilson

#: an ally's roll gains +2 from a free invoke (003:587-592): an advantage put to use counts as two shifts
ASSIST_WORTH = 2
#: how far from an equal share a PC may be before it is left behind, either way: bringing less than
#: half an equal share of the PCs' contribution (after "No Player Left Behind"), or being the worst-off
#: (the most harmed) in more than one and a half equal shares of the fights. With three PCs the second
#: is "in most fights" (warehouse's Zird, 63%); with two it is three fights in four, since one of two
#: PCs who differ at all is the worst-off in more than half (the frailer, not one left behind); with
#: four, three fights in eight
OFF_SHARE = 0.5



@dataclass
class Figures:
    """What a candidate's fights showed: the PCs' wins, the fights' length, who carried them."""

    pcs: tuple[str, ...]
    fights: int = 0
    wins: int = 0
    exchanges: int = 0
    unresolved: int = 0
    dealt: dict[str, int] = field(default_factory=dict)   # shifts each PC dealt, over every fight
    assists: dict[str, int] = field(default_factory=dict)  # free invokes each PC held that an ally spent
    worst: dict[str, float] = field(default_factory=dict)  # fights each PC came off worst (ties shared)
    harm: int = 0        # harm to the PCs, over every fight (bench_report.HARM per consequence, TAKEN_OUT_HARM)
    bailed: int = 0      # fights the fast core handed back unfinished (left out of the figures)
    raced_out: bool = False

    @property
    def win_rate(self) -> float:
        return self.wins / self.fights if self.fights else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.fights)

    @property
    def mean_exchanges(self) -> float:
        return self.exchanges / self.fights if self.fights else 0.0

    def contribution(self, p: str) -> int:
        """What ``p`` brought to its side's fights, after "No Player Left Behind" (AIIDE 2024): the
        shifts it dealt, and ASSIST_WORTH for each free invoke it held (an advantage it made) that an
        ally spent on its own roll."""
        return self.dealt.get(p, 0) + ASSIST_WORTH * self.assists.get(p, 0)

    def shares(self) -> dict[str, float]:
        """Each PC's part of its side's contribution (an equal share is 1 / the PCs)."""
        total = sum(self.contribution(p) for p in self.pcs)
        return {p: (self.contribution(p) / total if total else 0.0) for p in self.pcs}

    def worst_rates(self) -> dict[str, float]:
        return {p: (self.worst.get(p, 0) / self.fights if self.fights else 0.0) for p in self.pcs}

    def lines(self) -> tuple[float, float]:
        """The least share of the PCs' contribution a PC may bring, and the most share of the fights it
        may be the worst-off in, before it is left behind (:data:`OFF_SHARE` off an equal share)."""
        n = max(len(self.pcs), 1)
        return (1 - OFF_SHARE) / n, (1 + OFF_SHARE) / n

    def left_behind(self) -> float:
        """0 when no PC is left behind: each brings at least half an equal share of the PCs'
        contribution and none is the worst-off in more than one and a half equal shares of the fights
        (:data:`OFF_SHARE` off an equal share, either way); else how far from it (in equal shares, and in
        fights)."""
        n = len(self.pcs)
        if n < 2:  # one PC carries every fight it is in: nobody to leave behind
            return 0.0
        low, high = self.lines()
        short = sum(max(0.0, low - s) * n for s in self.shares().values())
        return short + max(0.0, max(self.worst_rates().values()) - high)

    def behind(self) -> list[str]:
        """Each way a PC is left behind, in words (none: every PC brings at least half an equal share
        of the PCs' contribution and none is the worst-off in more than one and a half equal shares of
        the fights)."""
        if len(self.pcs) < 2:
            return []
        low, high = self.lines()
        out = [f"{p} brings {s:.0%} of the PCs' contribution (half an equal share is {low:.0%})"
               for p, s in self.shares().items() if s < low]
        out += [f"{p} is the worst-off in {w:.0%} of fights (one and a half equal shares is {high:.0%})"
                for p, w in self.worst_rates().items() if w > high]
        return out


def slot_severities(tables: Any) -> list[list[int]]:
    """Per character, each consequence slot's severity (its index in SEVERITIES)."""
    return [[SEVERITIES.index(sev) for sev, _ in slots] for slots in tables.slot_info]


def add_fights(fig: Figures, tables: Any, CH: np.ndarray, SLOTA: np.ndarray, G: np.ndarray) -> None:
    """Count a batch's fights (the kernel's final arrays) into ``fig``; a fight the kernel could not
    finish (a bail) is left out and counted in ``fig.bailed``."""
    from ..fast.kernel import layout as k
    ok = G[:, k.G_BAIL] == 0
    pcs_at = [tables.ids.index(p) for p in fig.pcs]
    pc_side = tables.sides.index(tables.scene.characters[pcs_at[0]].side) if pcs_at else -1
    fig.bailed += int((~ok).sum())
    CH, SLOTA, G = CH[ok], SLOTA[ok], G[ok]
    fig.fights += int(ok.sum())
    fig.wins += int((G[:, k.G_WINNER] == pc_side).sum())
    fig.exchanges += int(G[:, k.G_EXCHANGE].sum())
    fig.unresolved += int(G[:, k.G_UNRESOLVED].sum())
    for p, i in zip(fig.pcs, pcs_at):
        fig.dealt[p] = fig.dealt.get(p, 0) + int(CH[:, i, k.C_DEALT].sum())
        fig.assists[p] = fig.assists.get(p, 0) + int(CH[:, i, k.C_ASSISTS].sum())
    severity = slot_severities(tables)
    if pcs_at:
        out = np.stack([CH[:, i, k.C_STATUS] == k.TAKEN_OUT for i in pcs_at], axis=1)
        cons = np.zeros(out.shape + (len(SEVERITIES),), dtype=np.int64)
        for j, i in enumerate(pcs_at):
            for s, sev in enumerate(severity[i]):
                cons[:, j, sev] += SLOTA[:, i, s] >= 0
        H = harms(out, cons)
        fig.harm += int(H.sum())
        part = worst_off_parts(H)
        for j, p in enumerate(fig.pcs):
            fig.worst[p] = fig.worst.get(p, 0.0) + float(part[:, j].sum())


def judge(core: Any, pcs: tuple[str, ...], seeds: list[int], target: float, tolerance: float,
          chunk: int) -> Figures:
    """Play ``seeds`` in chunks on ``core`` until they are done or the interval is off target."""
    fig = Figures(pcs)
    for at in range(0, len(seeds), chunk):
        CH, SLOTA, G = core.run(seeds[at:at + chunk])
        add_fights(fig, core.tables, CH, SLOTA, G)
        lo, hi = fig.interval
        if at + chunk < len(seeds) and (hi < target - tolerance or lo > target + tolerance):
            fig.raced_out = True
            break
    return fig
