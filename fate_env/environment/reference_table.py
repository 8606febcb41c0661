"""The environment's episode on the reference engine, behind the same interface as the fast core's.

``raw_env`` steps an *episode table*: :class:`ReferenceTable` (here: the rules engine's
``Conflict``, the aspect slots and the action layout) or :class:`~.fast_table.FastTable` (the
kernel's session). Both answer the same questions, so the environment never asks which engine
runs (OpenSpiel's lesson: algorithms see a game, not its implementation):

- ``reset(seed)`` starts an episode and returns what the rewards score of its opening events,
  ``answer(index)`` takes the pending decision's option ``index`` and returns what they score of
  the new events, each as ``(what, who, shifts)``: "hit" (who: its source), "absorbed",
  "conceded", "taken_out", or "decision";
- ``actor``, ``pending_kind``, ``pending_count``, ``options``: the decision pending (None, None,
  0, [] when none); ``over``; ``outcome()``; ``events()``; ``conflict`` (the reference engine at
  this point); ``slots`` (the aspect slots);
- ``encode(mask)`` marks the pending options' actions in ``mask`` and returns them in option order;
  ``observe(agent)`` is the agent's observation vector;
- ``bail`` says why a table cannot go on ("" when it can; the reference always can); a fast
  table that cannot gives, from ``handover()``, the reference table that goes on from the same
  point, whose ``unscored()`` returns what the rewards score of the events not yet reported.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..rules import events as ev
from ..rules.conflict import Conflict
from ..rules.engine import start
from ..rules.scene import Scene
from .actions import ActionLayout, AspectSlots, usable_boosts
from .observation import ObservationEncoder

Scored = list[tuple[str, "str | None", int]]


class ReferenceTable:
    """An episode on the rules engine, as the environment steps it."""

    bail = ""  # the reference plays every episode to its end

    def __init__(self, scene: Scene, layout: ActionLayout, encoder: ObservationEncoder):
        self.scene, self.layout, self.encoder = scene, layout, encoder
        self.conflict: Conflict | None = None
        self.slots = AspectSlots(layout.A)
        self._events_seen = 0

    def reset(self, seed: int, forced: Any = ()) -> Scored:
        """A new episode; its opening events are scored with the first answer (as the reference
        environment always has), so nothing is returned here."""
        return self.resume(start(self.scene, seed, forced=forced), AspectSlots(self.layout.A), 0)

    def resume(self, conflict: Conflict, slots: AspectSlots, events_seen: int) -> Scored:
        """Go on with ``conflict`` from here (a fast table's handover): ``events_seen`` of its
        events are scored already."""
        self.conflict, self.slots, self._events_seen = conflict, slots, events_seen
        slots.sync(conflict)
        return []

    # -- the decision pending ---------------------------------------------------------------
    @property
    def actor(self) -> str | None:
        d = self.conflict.pending
        return d.actor if d is not None else None

    @property
    def pending_kind(self) -> str | None:
        d = self.conflict.pending
        return d.kind if d is not None else None

    @property
    def pending_count(self) -> int:
        d = self.conflict.pending
        return len(d.options) if d is not None else 0

    @property
    def options(self) -> list:
        d = self.conflict.pending
        return list(d.options) if d is not None else []

    @property
    def over(self) -> bool:
        return self.conflict.over

    def encode(self, mask: np.ndarray) -> list[int]:
        c = self.conflict
        d = c.pending
        if d is None:
            return []
        boosts = usable_boosts(c, d.options)
        encoded: list[int] = []
        seen: dict[int, int] = {}
        for i, o in enumerate(d.options):
            a = self.layout.encode(c, d.actor, o, self.slots, boosts)
            if a in seen:
                raise RuntimeError(f"two options share action {a}: {d.options[seen[a]]!r} and {o!r}")
            seen[a] = i
            encoded.append(a)
            mask[a] = 1
        return encoded

    def observe(self, agent: str) -> np.ndarray:
        return self.encoder.encode(self.conflict, agent, self.slots)

    # -- a step -------------------------------------------------------------------------------
    def answer(self, index: int) -> Scored:
        self.conflict.step(index)
        scored = self.unscored()
        self.slots.sync(self.conflict)  # aspects take their slots at every step (and the last)
        return scored

    def unscored(self) -> Scored:
        """What the rewards score of the events not reported yet."""
        c = self.conflict
        out: Scored = []
        for e in c.events[self._events_seen:]:
            if isinstance(e, ev.Hit):
                out.append(("hit", e.source, 0))
            elif isinstance(e, (ev.Absorbed, ev.MobHit)):
                out.append(("absorbed", e.target, e.shifts))
            elif isinstance(e, ev.Conceded):
                out.append(("conceded", e.actor, 0))
            elif isinstance(e, ev.TakenOutEvent):
                out.append(("taken_out", e.target, 0))
        self._events_seen = len(c.events)
        return out

    # -- what happened ------------------------------------------------------------------------
    def outcome(self):
        return self.conflict.outcome

    def events(self) -> list:
        return self.conflict.events
