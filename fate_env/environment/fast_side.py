"""The single-agent view's episodes on the fast core: the other seats played inside the kernel.

``FateSingleAgentEnv`` on the reference engine steps the AEC environment once per decision,
asking a Python controller for every decision that is not the learner's. Here the kernel plays
those seats (the opponents' scripted policy, and the ``helper`` on the learner's other decision
kinds) and pauses only at the learner's decisions. The rewards are the reference's to the bit:
the events are scored step by step (a step starts at each decision, as the AEC environment's
steps do), a character stops being scored after the step it left the fight in (the AEC
environment removes it then), and each step's mean over the learning side is added in order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .fast_table import FastTable, fast_table_for


def coverable(opponents: Sequence[str], helper: str) -> bool:
    """Policies the kernel plays as the reference's controllers do: every scripted policy, and
    ``random`` for the opponents (one generator per mixture, carried from episode to episode as
    the single-agent view's controller is; see FastSide). Not a ``random`` helper: the kernel
    holds one random stream per episode, and the helper's would be a second."""
    from ..fast.tables import CONTROLLERS
    return all(n in CONTROLLERS for n in opponents) and helper in CONTROLLERS and helper != "random"


class FastSide:
    """The fast core's half of ``FateSingleAgentEnv``: one compiled table per opponent mixture
    (None for a mixture the kernel cannot play: its episodes run on the reference)."""

    engine = "fast core"

    def __init__(self, aec: Any, learners: list[str], mixes: list[dict[str, str]], helper: str,
                 learn: tuple[str, ...] | None, opponent_seed: int):
        from ..fast.tables import DECISION_BITS
        self.aec = aec
        self.learners = learners
        self.helper = helper
        self.kinds = tuple(learn) if learn else tuple(DECISION_BITS)
        self.opponent_seed = opponent_seed
        self.tables: list[FastTable | None] = []
        #: each mixture's random opponent generator, carried across its episodes: the reference's
        #: RandomController is made once (agents.base.controllers_for: one per policy name, seeded
        #: opponent_seed * 1000 + the index of the first character it is resolved for) and goes on
        self.streams: list = []
        for mix in mixes:
            self.extend(mix)
        self.table: FastTable | None = None
        self._which: int | None = None

    def extend(self, mix: Mapping[str, str]) -> int:
        """One more opponent mixture (league training adds them as it goes): its index here."""
        from ..fast.core import rng_state
        scene, learners, helper = self.aec.scene, self.learners, self.helper
        resolved = [mix.get(c.id) or mix.get(c.side) or c.controller for c in scene.characters]
        specs = {c.id: helper if c.id in learners else spec for c, spec in zip(scene.characters, resolved)}
        others = [spec for cid, spec in specs.items() if cid not in learners]
        table = None
        if coverable(others, helper):
            table = fast_table_for(scene, self.aec.layout, self.aec.encoder, "fast", specs,
                                   {cid: self.kinds for cid in learners})
        self.tables.append(table)
        first = resolved.index("random") if "random" in others else None
        self.streams.append(rng_state(self.opponent_seed * 1000 + first) if first is not None else None)
        return len(self.tables) - 1

    def plays(self, which: int) -> bool:
        """Whether the kernel plays the episodes against mixture ``which``."""
        return self.tables[which] is not None

    # -- an episode ---------------------------------------------------------------------------
    def reset(self, seed: int, which: int) -> tuple[float, bool]:
        """Play to the learner's first decision: (reward gathered, over)."""
        self._keep_stream()
        self.table, self._which = self.tables[which], which
        self.agents = [c.id for c in self.aec.scene.characters]
        self.terminated: set[str] = set()   # terminated or truncated
        self.removed: set[str] = set()      # no longer scored (the AEC environment removed them)
        self.left_now: set[str] = set()     # left the fight in the step in progress
        self.step_rewards: dict[str, float] = {}
        self.opened = False                 # a decision has started the step in progress
        self.last_source: str | None = None
        collected = self._digest(self.table.reset(seed, self.streams[which]))
        return sum(collected, 0.0), self.table.over

    def _keep_stream(self) -> None:
        """The last episode's random opponent generator, as its draws left it (an episode cut
        short included: the reference's controller keeps the draws it made)."""
        w = self._which
        if w is not None and self.streams[w] is not None:
            self.streams[w] = self.tables[w].session.policy_rng()

    def answer(self, index: int) -> tuple[float, float, bool]:
        """The learner's answer: (its own step's reward, what the other steps gathered, over)."""
        collected = self._digest(self.table.answer(index))
        own = collected[0] if collected else 0.0
        gathered = 0.0
        for c in collected[1:]:
            gathered += c
        return own, gathered, self.table.over

    # -- the reference environment's rewards, step by step -----------------------------------------
    def _digest(self, scored: list[tuple[str, str | None, int]]) -> list[float]:
        """Each finished step's reward for the learning side, in order (raw_env._apply's scoring,
        then FateSingleAgentEnv._collect)."""
        out: list[float] = []
        cfg = self.aec.reward_cfg
        r = self.step_rewards
        for what, who, shifts in scored:
            if what == "decision":
                if self.opened:
                    out.append(self._close())
                self.opened = True
            elif what == "hit":
                self.last_source = who
            elif what == "absorbed":
                if who not in self.removed:
                    r[who] = r.get(who, 0.0) + cfg["shift_taken"] * shifts
                src = self.last_source
                if src is not None and src not in self.removed:
                    r[src] = r.get(src, 0.0) + cfg["shift_dealt"] * shifts
            elif who not in self.terminated:  # conceded, taken_out
                r[who] = r.get(who, 0.0) + cfg[what]
                self.terminated.add(who)
                self.left_now.add(who)
        if self.table.over:
            self._end()
        if self.opened:
            out.append(self._close())
            self.opened = False
        return out

    def _end(self) -> None:
        outcome = self.table.outcome()
        cfg = self.aec.reward_cfg
        r = self.step_rewards
        for a in self.agents:
            if a in self.removed or a in self.terminated:
                continue
            if outcome.unresolved:
                r[a] = r.get(a, 0.0) + cfg["unresolved"]
            elif outcome.winner is not None:
                won = self.aec.scene.character(a).side == outcome.winner
                r[a] = r.get(a, 0.0) + cfg["win" if won else "loss"]
            self.terminated.add(a)

    def _close(self) -> float:
        """The step in progress ends: the learning side's mean reward; who left is removed."""
        r = self.step_rewards
        value = sum((r.get(a, 0.0) if a not in self.removed else 0.0) for a in self.learners) / len(self.learners)
        self.removed |= self.left_now
        self.left_now.clear()
        r.clear()
        return value

    # -- the episode, as the single-agent view reads it (ReferenceSide answers the same) --------
    def outcome(self):
        return self.table.outcome()

    @property
    def actor(self) -> str | None:
        return self.table.actor

    @property
    def over(self) -> bool:
        return self.table.over

    @property
    def conflict(self):
        return self.table.conflict

    @property
    def pending_kind(self) -> str | None:
        return self.table.pending_kind

    def observe(self, agent: str):
        return self.table.observe(agent)

    def actions(self):
        return self.table.actions()


def mixes_of(opponents: str | Mapping[str, str], sides: list[str], side: str) -> list[dict[str, str]]:
    """The opponent mixtures as FateSingleAgentEnv reads them: side -> policy name."""
    if isinstance(opponents, str):
        return [{sd: name.strip() for sd in sides if sd != side} for name in opponents.split(",")]
    return [dict(opponents)]
