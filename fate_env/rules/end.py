"""The end of a scene: payouts (003:1104-1114, 003:1693-1712) and the outcome record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import events as ev
from .kinds import SceneKind
from .state import CONCEDED, TAKEN_OUT
from .play import Play


@dataclass
class Outcome:
    """What a scene came to, for the GM's book and for benchmarks."""

    winner: str | None
    exchanges: int
    unresolved: bool
    taken_out: dict[str, str | None]
    conceded: list[str]
    consequences: dict[str, list[dict[str, str]]]
    fate_points: dict[str, dict[str, int]]
    gm_pool: dict[str, int]
    payouts: dict[str, int]
    kind: str = "conflict"
    victories: dict[str, int] | None = None     # contests
    tasks: list[dict[str, Any]] | None = None   # challenges

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def finish(e: "Play", unresolved: bool = False, winner: str | None = None, **extra: Any) -> None:
    """Pay out what is owed (hostile invokes, concessions), clear stress, record the outcome."""
    t = e.t
    sides = {t.f[c].sheet.side for c in t.active_ids()}
    if t.decided is not None and not unresolved:
        winner = t.decided  # a countdown's outcome (003:2190-2191)
    if winner is None and not unresolved and len(sides) == 1 and e.scene.kind != SceneKind.CHALLENGE:
        winner = next(iter(sides))
    payouts: dict[str, int] = {}
    standing = {a.name for a in t.aspects.values() if a.creator is None and a.owner is None}
    for dz in e.scene.distractions:  # left to the end: its repercussion (003:2361-2364)
        if dz.name in standing:
            e.emit(ev.Distraction(dz.name, None, dz.leave))
    for cid, fi in t.f.items():
        pay = fi.owed + (e.facts.concession_payout(fi.consequences_taken) if fi.status == CONCEDED else 0)
        if pay:
            payouts[cid] = pay
            if not fi.sheet.is_npc:
                fi.fate_points += pay
        for tr in fi.tracks.values():
            tr.clear()
    e.emit(ev.ConflictEnded(winner, t.exchange, unresolved, payouts))
    t.outcome = Outcome(
        winner=winner,
        exchanges=t.exchange,
        unresolved=unresolved,
        taken_out={c: fi.taken_out_by for c, fi in t.f.items() if fi.status == TAKEN_OUT},
        conceded=[c for c, fi in t.f.items() if fi.status == CONCEDED],
        consequences={c: [{"severity": s.severity, "aspect": t.aspects[s.aspect].name}
                          for s in fi.slots if s.aspect is not None]
                      for c, fi in t.f.items() if any(s.aspect is not None for s in fi.slots)},
        fate_points={c: {"start": t.fp_start[c], "spent": t.fp_spent[c], "payout": payouts.get(c, 0),
                         "end": fi.fate_points}
                     for c, fi in t.f.items()},
        gm_pool={"start": t.gm_pool_start, "spent": t.gm_spent, "end": t.gm_pool},
        payouts=payouts,
        kind=e.scene.kind,
        **{"tasks": list(t.task_results), **extra} if t.task_results else extra,
    )
