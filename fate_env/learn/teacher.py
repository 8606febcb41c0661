"""The general NPC's teacher: ``search`` playing generated scenes, its turn decisions recorded in the
entity view (issue 53).

``search`` is the strongest NPC on scenes nothing trained on, and it answers every turn by trying
each option on copies of the scene. Each fight here draws a scene from the generator (never a
shipped one: those are held out), a side for the teacher, and a scripted policy for the other side
from the family the evaluation plays against; every turn the teacher takes with two or more
options is kept as the decision's rows (``environment/entities.py``, basic's move marked: search
keeps it unless its copies find a surely better one), the option it chose, and each option's outlook
on its copies (what it compared them by).

A recording is arrays, concatenated decision by decision with offsets (:class:`Recording`), saved
as a plain ``.npz`` (no pickle) and the same for the same seeds on any machine.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from ..content.generate import scene as generated
from ..content.scenes import scene_from_dict
from ..environment.entities import Entities, EntityEncoder
from ..rules.conflict import Conflict

#: the scripted policies the teacher meets, and the general NPC is measured against
OPPONENTS = ("basic", "brute", "sniper", "tactician", "coward", "minion", "support", "stacker")
#: the share of fights in which the teacher plays the NPCs (the rest: the PCs; the view is the ego's)
NPC_SHARE = 0.75
#: the entity rows' fields, each concatenated over the decisions
_ROWS = tuple(f.name for f in dataclasses.fields(Entities) if f.name != "glob")


@dataclass
class Recording:
    """Decisions as concatenated rows: decision ``i``'s ``field`` rows are
    ``rows[field][at[field][i]:at[field][i + 1]]``."""

    glob: np.ndarray           # (N, GLOBAL)
    rows: dict[str, np.ndarray]
    at: dict[str, np.ndarray]  # (N + 1,) offsets per field
    chosen: np.ndarray         # (N,) the teacher's option
    script: np.ndarray         # (N,) basic's option (what search keeps when it is not sure)
    outlook: np.ndarray        # (sum of options,) each option's mean outlook on the copies
    fight: np.ndarray          # (N,) the generated scene's seed each decision came from

    def __len__(self) -> int:
        return len(self.chosen)

    def entities(self, i: int) -> Entities:
        got = {k: self.rows[k][self.at[k][i]:self.at[k][i + 1]] for k in _ROWS}
        return Entities(glob=self.glob[i], **got)

    def outlooks(self, i: int) -> np.ndarray:
        a = self.at["options"]
        return self.outlook[a[i]:a[i + 1]]

    def save(self, path: str | Path) -> None:
        np.savez(path, glob=self.glob, chosen=self.chosen, script=self.script, outlook=self.outlook, fight=self.fight,
                 **{f"rows_{k}": v for k, v in self.rows.items()}, **{f"at_{k}": v for k, v in self.at.items()})

    @classmethod
    def load(cls, path: str | Path) -> "Recording":
        z = np.load(path, allow_pickle=False)
        return cls(z["glob"], {k: z[f"rows_{k}"] for k in _ROWS}, {k: z[f"at_{k}"] for k in _ROWS},
                   z["chosen"], z["script"], z["outlook"], z["fight"])

    @classmethod
    def join(cls, parts: Sequence["Recording"]) -> "Recording":
        parts = [p for p in parts if len(p)]
        if not parts:
            return recording_of([], [], [], [], [])
        at = {}
        for k in _ROWS:
            offsets, base = [np.zeros(1, np.int64)], 0
            for p in parts:
                offsets.append(p.at[k][1:] + base)
                base += int(p.at[k][-1])
            at[k] = np.concatenate(offsets)
        return cls(np.concatenate([p.glob for p in parts]), {k: np.concatenate([p.rows[k] for p in parts]) for k in _ROWS},
                   at, np.concatenate([p.chosen for p in parts]), np.concatenate([p.script for p in parts]),
                   np.concatenate([p.outlook for p in parts]), np.concatenate([p.fight for p in parts]))


def recording_of(decisions: list[Entities], chosen: list[int], script: list[int], outlooks: list[np.ndarray],
                 fight: list[int]) -> Recording:
    """A recording of ``decisions`` (none: empty arrays of the rows' widths)."""
    if not decisions:
        from ..environment import entities as v
        widths = {"characters": v.CHARACTER_FEATURES, "zones": v.ZONE_FEATURES, "aspects": v.ASPECT_FEATURES,
                  "options": v.OPTION_FEATURES}
        rows = {k: np.zeros((0, widths[k]), np.float32) if k in widths else np.zeros(0, np.int64) for k in _ROWS}
        return Recording(np.zeros((0, v.GLOBAL), np.float32), rows, {k: np.zeros(1, np.int64) for k in _ROWS},
                         np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.float32), np.zeros(0, np.int64))
    rows = {k: np.concatenate([getattr(e, k) for e in decisions]) for k in _ROWS}
    at = {k: np.concatenate([[0], np.cumsum([len(getattr(e, k)) for e in decisions])]).astype(np.int64) for k in _ROWS}
    return Recording(np.stack([e.glob for e in decisions]), rows, at, np.asarray(chosen, np.int64),
                     np.asarray(script, np.int64), np.concatenate(outlooks), np.asarray(fight, np.int64))


def _teacher(seed: int):
    """``search``, keeping for each turn it searched its options' outlooks and basic's move."""
    from agents.search import SearchController

    class Teacher(SearchController):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.last: tuple[np.ndarray, int] | None = None
            self._values: list[np.ndarray] = []

        def _copies(self, *args, **kwargs):
            values, taken = super()._copies(*args, **kwargs)
            self._values.append(np.asarray(values))
            return values, taken

        def script(self, c, d) -> int:
            """basic's move, which search keeps unless its copies find a surely better one."""
            return super(SearchController, self)._turn(c, d)[0]

        def _turn(self, c, d):
            self._values = []
            index, why = super()._turn(c, d)
            self.last = (np.concatenate(self._values).mean(0), self.script(c, d)) if self._values else None
            return index, why
    return Teacher(seed)


def fight(seed: int, most: int | None = None, actor: str | None = None) -> Recording:
    """One generated fight (scene ``seed``, dice ``seed``), the teacher's searched turns recorded
    (at most ``most`` of them: the fight stops there). ``actor``: a policy that plays the teacher's
    side's turns while the teacher only says what it would do (DAgger: the states the learner
    itself reaches, labelled by the teacher)."""
    from agents.base import make_controller
    rng = np.random.default_rng([seed, 5300])
    sc = scene_from_dict(generated(seed), f"generated {seed}")
    side = "npcs" if rng.random() < NPC_SHARE else "pcs"
    other = OPPONENTS[int(rng.integers(len(OPPONENTS)))]
    teacher = _teacher(seed)
    foe = make_controller(other, seed)
    playing = make_controller(actor, seed) if actor else None
    enc = EntityEncoder(sc)
    c = Conflict(sc, seed=seed)
    decisions, chosen, script, outlooks = [], [], [], []
    while c.pending is not None and (most is None or len(chosen) < most):
        d = c.pending
        if c.side_of(d.actor) != side:
            index, _ = foe.choose(c, d)
        else:
            teacher.last = None
            index, _ = teacher.choose(c, d)  # reads the scene only: the rows below see it as it was asked
            if d.kind == "turn" and len(d.options) > 1 and teacher.last is not None:
                decisions.append(enc.encode(c, d.actor, teacher.last[1]))
                chosen.append(index)
                outlooks.append(teacher.last[0].astype(np.float32))
                script.append(teacher.last[1])
            if playing is not None and d.kind == "turn":
                index, _ = playing.choose(c, d)
        c.step(index, "")
    return recording_of(decisions, chosen, script, outlooks, [seed] * len(chosen))


def record(seeds: Iterable[int], workers: int = 1, most: int | None = None, actor: str | None = None) -> Recording:
    """The teacher's decisions over the generated fights ``seeds`` (the same for any worker count)."""
    from functools import partial
    seeds = list(seeds)
    one = partial(fight, most=most, actor=actor)
    if workers <= 1:
        return Recording.join([one(s) for s in seeds])
    from ..evaluation.pools import imap
    return Recording.join(list(imap(one, seeds, workers)))
