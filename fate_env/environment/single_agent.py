"""A single-agent Gymnasium view for Stable-Baselines3 (the poke-env pattern).

One side's characters share a learning policy; every other decision (the
opponents', and dead-agent steps) is made inside ``step()`` by given
controllers (for ``opponents="basic,random"``, one of them per episode), and
the rewards that land on the learning side in between are added to the
learner's next reward. PettingZoo's SB3 tutorial wrapper instead
drops rewards that land between the learner's turns.

``action_masks()`` serves ``sb3_contrib.MaskablePPO``. The reward of a step is
the mean over the learning side's characters of what each received. With
``outcome="side"`` the end of the fight is scored once for the side instead
(``win``/``loss``/``unresolved`` whether or not anyone of it is still standing):
the per-character default gives no ``loss`` to a side whose members are all out,
so a side of expendable minions learns to keep them alive rather than to win.
With ``actions="compact"`` the action space holds only the layout's segments of the decision
kinds in ``learn`` (``ActionLayout.indices_for``): for a turn-only learner on the warehouse,
a seventh of the layout (420 of 2,988 actions), so the policy head and its masked softmax shrink alike.
An action outside the mask (SB3's ``check_env`` sends some) changes nothing: the step
returns the same observation, ``reward["illegal"]`` (0 by default) and the reason
in ``info["illegal_action"]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle

from .aec import raw_env
from .fast_side import FastSide, mixes_of


class ControllerFactory(Protocol):
    """Where the environment gets the controllers that play the other seats (``agents.base.REGISTRY``
    is one): the environment never imports controllers itself."""

    def controllers_for(self, scene: Any, overrides: Mapping[str, str], seed: int) -> Mapping[str, Any]: ...

    def make_controller(self, spec: str, seed: int) -> Any: ...


#: the rewards a learner gets unless told otherwise: the fight scored once for the side (with
#: ``outcome="side"``), stalling to the exchange cap as bad as losing, a character conceding or taken
#: out costing nothing of its own (the side's loss is the cost), and each shift of harm dealt a little.
#: The PettingZoo env's own defaults (``aec.DEFAULT_REWARD``: conceding -0.5, being taken out -1)
#: score characters the way the fiction does; a learner trained on them finds that conceding at once
#: beats a likely loss, and a side of thugs learns to keep them alive instead of winning
#: (docs/results/2026-11-24-league-runs.md).
FIGHT_REWARD: dict[str, float] = {"unresolved": -1.0, "conceded": 0.0, "taken_out": 0.0, "shift_dealt": 0.1}


class FateSingleAgentEnv(gymnasium.Env, EzPickle):
    """One side's characters as one learner. The defaults teach fighting: the learner makes the turn
    decisions (``learn=("turn",)``; ``helper`` makes its side's defenses, invokes, absorbs and
    concessions), the fight is scored once for the side (``outcome="side"``) and the rewards are
    :data:`FIGHT_REWARD`. ``learn=None`` learns every decision; ``reward={}`` takes the PettingZoo
    env's per-character rewards; ``outcome="characters"`` scores each character."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, scene: Any = "duel", side: str | None = None, opponents: str | Mapping[str, str] = "basic", *,
                 controllers: ControllerFactory | None = None, opponent_seed: int = 0,
                 learn: tuple[str, ...] | None = ("turn",), helper: str = "basic", outcome: str = "side",
                 actions: str = "full", **game: Any):
        """``game``: the PettingZoo env's own keywords (:class:`~.aec.raw_env`: ``render_mode``,
        ``max_exchanges``, ``rules``, ``core``, ``fixed`` and the rule set's dials), with ``reward``
        taking :data:`FIGHT_REWARD` by default and one key of its own, ``illegal``: what an action
        outside the mask earns (0)."""
        EzPickle.__init__(self, scene, side, opponents, controllers=controllers, opponent_seed=opponent_seed,
                          learn=learn, helper=helper, outcome=outcome, actions=actions, **game)
        if controllers is None:
            raise ValueError("FateSingleAgentEnv needs controllers=...: a factory of the other seats' controllers "
                             "(agents.base.REGISTRY, or your own with controllers_for and make_controller)")
        if outcome not in ("characters", "side"):
            raise ValueError(f"outcome {outcome!r}: expected 'characters' or 'side'")
        self.outcome = outcome
        game = dict(game)
        render_mode = game.pop("render_mode", None)
        reward = dict(FIGHT_REWARD if game.get("reward") is None else game["reward"])
        self.illegal_penalty = float(reward.pop("illegal", 0.0))
        game["reward"] = reward
        # the decision kinds the learner makes; the learning side's other decisions go to ``helper``
        self.learn = tuple(learn) if learn else None

        self.aec = raw_env(scene=scene, render_mode="ansi" if render_mode else None, **game)
        self._ends = {k: self.aec.reward_cfg[k] for k in ("win", "loss", "unresolved")}
        if outcome == "side":  # the aec scores characters still in; the side's end is scored here instead
            self.aec.reward_cfg.update({k: 0.0 for k in self._ends})
        s = self.aec.scene
        npc_sides = [c.side for c in s.characters if c.is_npc]
        self.side = side or (npc_sides[0] if npc_sides else s.sides[-1])
        if self.side not in s.sides:
            raise ValueError(f"side {self.side!r}: expected one of {', '.join(s.sides)}")
        self.learners = [c.id for c in s.characters if c.side == self.side]
        # "basic,random": each episode faces one of them (drawn with the env's seed), so a policy
        # trained against a mixture does not over-fit one opponent's habits
        mix = mixes_of(opponents, s.sides, self.side)
        self.factory = controllers
        self.opponent_seed = opponent_seed
        self.mixture = [controllers.controllers_for(s, m, opponent_seed) for m in mix]
        self.controllers = self.mixture[0]
        #: each mixture's name (the policy name; "custom" for a mapping), reported in the last step's
        #: info as "opponent"; ``weights``: the draw's odds (None: uniform); ``_fast_of``: its fast table
        self.names = [name.strip() for name in opponents.split(",")] if isinstance(opponents, str) else ["custom"]
        self.weights: np.ndarray | None = None
        self._fast_of = list(range(len(mix)))
        self._pool: dict[str, tuple[Mapping[str, Any], int]] = {}
        self.opponent = self.names[0]
        self.helper = controllers.make_controller(helper, opponent_seed)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-10.0, 10.0, shape=(self.aec.encoder.size,), dtype=np.float32)
        if actions not in ("full", "compact"):
            raise ValueError(f"actions {actions!r}: expected 'full' or 'compact'")
        if actions == "compact" and self.learn is None:
            raise ValueError("actions='compact' needs learn=(decision kinds, ...): the compact space holds only "
                             "the actions of the decisions the learner makes")
        self.actions = actions
        # compact: action i of the learner is the layout's action full[i] (see ActionLayout.indices_for)
        self.full = np.array(self.aec.layout.indices_for(self.learn) if actions == "compact"
                             else range(self.aec.layout.n), dtype=np.int64)
        self.action_space = spaces.Discrete(len(self.full))
        pass_at = np.flatnonzero(self.full == self.aec.layout.segments["pass"].start)
        self._idle = int(pass_at[0]) if len(pass_at) else 0
        self._agent: str | None = None
        # the fast core plays the other seats when it can (see fast_side.py), per opponent mixture;
        # else their Python controllers step the AEC environment on the reference engine
        self._fast: FastSide | None = None
        if self.aec.core == "fast" and render_mode is None and getattr(controllers, "native", False):
            self._fast = FastSide(self.aec, self.learners, mix, helper, self.learn, opponent_seed)
            if not any(self._fast.plays(i) for i in range(len(mix))):
                self._fast = None
        self.aec.use_reference()
        self._reference = ReferenceSide(self)
        #: the episode's other seats, played by the kernel (FastSide) or by their Python controllers
        #: on the reference (ReferenceSide): one interface, picked at each reset
        self._side: FastSide | ReferenceSide | None = None
        self._drop_fast = False  # set_opponents: the reference plays from the next episode on

    def set_opponents(self, overrides: Mapping[str, str], seed: int = 0) -> None:
        """Let other controllers play the other seats from the next decision on (self-play snapshots;
        callable through a vectorised env's ``env_method``). An episode in progress on the fast
        core is finished by the kernel's scripted opponents: the new ones take over from the next
        episode, which the reference engine plays (a snapshot is not a policy the kernel plays)."""
        self.controllers = self.factory.controllers_for(self.aec.scene, dict(overrides), seed)
        self.mixture = [self.controllers]
        self.names, self.weights, self._fast_of = ["custom"], None, [0]
        self._drop_fast = True

    def set_league(self, names: list[str], specs: list[str], weights: list[float]) -> None:
        """From the next episode on, draw each episode's opponent from ``specs`` (one policy for every
        other seat) with odds ``weights`` (league training: fate_env/learn/league.py). The fast core keeps
        playing the scripted ones it can; the others (search, saved models) play on the reference."""
        if not (len(names) == len(specs) == len(weights)) or not names:
            raise ValueError("set_league: names, specs and weights must be non-empty and of one length")
        w = np.asarray(weights, dtype=np.float64)
        if (w < 0).any() or w.sum() <= 0:
            raise ValueError(f"set_league: weights must be >= 0 with a positive sum, got {weights}")
        if not self._pool:  # the mixtures built so far, by name
            self._pool = {n: (m, f) for n, m, f in zip(self.names, self.mixture, self._fast_of)}
        s = self.aec.scene
        for name, spec in zip(names, specs):
            if name in self._pool:
                continue
            mix = {sd: spec for sd in s.sides if sd != self.side}
            fast = self._fast.extend(mix) if self._fast is not None else -1
            self._pool[name] = (self.factory.controllers_for(s, mix, self.opponent_seed), fast)
        self.names = list(names)
        self.mixture = [self._pool[n][0] for n in names]
        self._fast_of = [self._pool[n][1] for n in names]
        self.weights = w / w.sum()

    def _collect(self) -> float:
        return sum(self.aec.rewards.get(a, 0.0) for a in self.learners) / len(self.learners)

    def _side_end(self, outcome) -> float:
        if self.outcome != "side":
            return 0.0
        if outcome.unresolved:
            return self._ends["unresolved"]
        if outcome.winner is None:  # a challenge: the GM reads its results
            return 0.0
        return self._ends["win" if outcome.winner == self.side else "loss"]

    def reset(self, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2**31 - 1))
        if self._drop_fast:
            self._fast, self._drop_fast = None, False
        if self.weights is not None:
            which = int(self.np_random.choice(len(self.mixture), p=self.weights))
        else:
            which = int(self.np_random.integers(len(self.mixture))) if len(self.mixture) > 1 else 0
        self.controllers = self.mixture[which]
        self.opponent = self.names[which]
        fast = self._fast_of[which]
        on_fast = self._fast is not None and fast >= 0 and self._fast.plays(fast)
        side = self._side = self._fast if on_fast else self._reference
        gathered, over = side.reset(seed, fast)
        self._agent = side.actor
        if over:  # the learning side never had a decision (e.g. the opponents conceded at once)
            gathered += self._side_end(side.outcome())
            return self._obs(), {"skipped_reward": gathered, "outcome": side.outcome().to_json()}
        return self._obs(), {}

    def _obs(self) -> np.ndarray:
        return self._side.observe(self._agent or self.learners[0])

    @property
    def engine(self) -> str:
        """Which engine plays this view's episodes: the fast core (every opponent mixture, or some
        of them, the rest on the reference), or the reference."""
        if self._fast is None:
            return "reference"
        played = sum(self._fast.plays(i) for i in range(len(self._fast.tables)))
        return "fast core" if played == len(self._fast.tables) else \
            f"fast core for {played} of {len(self._fast.tables)} opponent mixtures, the reference for the rest"

    @property
    def episode_engine(self) -> str | None:
        """Which engine plays the episode in progress: "fast core" or "reference" (None before
        the first reset)."""
        return self._side.engine if self._side is not None else None

    @property
    def over(self) -> bool:
        """The episode has ended."""
        return self._side.over

    @property
    def episode_outcome(self):
        """The episode's ``Outcome`` (None while it runs)."""
        return self._side.outcome() if self._side.over else None

    @property
    def conflict(self):
        """The reference engine's conflict at this point (on the fast core, rebuilt when asked:
        fast_table.FastTable.conflict)."""
        return self._side.conflict

    def action_masks(self) -> np.ndarray:
        side = self._side
        if side.over:
            mask = np.zeros(len(self.full), dtype=bool)
            mask[self._idle] = True  # any action ends nothing: keeps SB3 happy
            return mask
        mask = np.zeros(self.aec.layout.n, dtype=bool)
        mask[side.actions()] = True
        return mask if self.actions == "full" else mask[self.full]

    def action_for_option(self, index: int) -> int:
        """The learner's action that picks option ``index`` of the pending decision (imitation)."""
        a = int(self._side.actions()[index])
        if self.actions == "full":
            return a
        return int(np.searchsorted(self.full, a))

    def step(self, action: int):
        side = self._side
        if side.over:
            return self._obs(), 0.0, True, False, {"outcome": side.outcome().to_json()}
        acts = side.actions()
        a = int(self.full[int(action)]) if 0 <= int(action) < len(self.full) else None
        hit = np.flatnonzero(acts == a) if a is not None else ()
        if not len(hit):
            why = (f"action {action} is outside Discrete({len(self.full)})" if a is None else
                   f"{self._agent}: action {a} is not legal for this {side.pending_kind} decision")
            return self._obs(), self.illegal_penalty, False, False, {"illegal_action": why}
        reward, gathered, over = side.answer(int(hit[0]))
        reward += gathered
        info: dict[str, Any] = {}
        terminated = truncated = False
        if over:
            outcome = side.outcome()
            info["outcome"] = outcome.to_json()
            info["opponent"] = self.opponent
            reward += self._side_end(outcome)
            truncated = outcome.unresolved
            terminated = not truncated
        else:
            self._agent = side.actor
        return self._obs(), float(reward), terminated, truncated, info

    def render(self) -> str | None:
        return self.aec.render() if self.render_mode == "ansi" else None


class ReferenceSide:
    """The other seats played by their Python controllers on the reference engine, stepping the
    AEC environment once per decision (``FastSide``'s interface: the single-agent view never
    asks which engine plays)."""

    engine = "reference"

    def __init__(self, owner: FateSingleAgentEnv):
        self.owner, self.aec = owner, owner.aec
        self.actor: str | None = None

    def reset(self, seed: int, which: int) -> tuple[float, bool]:
        """Play to the learner's first decision: (reward gathered, over)."""
        self.aec.reset(seed=seed)
        return self._advance()

    def answer(self, index: int) -> tuple[float, float, bool]:
        """The learner's answer: (its own step's reward, what the other steps gathered, over)."""
        self.aec.step_option(index)
        own = self.owner._collect()
        gathered, over = self._advance()
        return own, gathered, over

    def _advance(self) -> tuple[float, bool]:
        """Play every decision that is not the learning side's; return (reward gathered, episode over)."""
        aec, owner = self.aec, self.owner
        gathered = 0.0
        while True:
            c = aec.conflict
            if c.over:
                return gathered, True
            agent = aec.agent_selection
            if aec.terminations[agent] or aec.truncations[agent]:
                aec.step(None)
                continue
            if agent in owner.learners and (owner.learn is None or c.pending.kind in owner.learn):
                self.actor = agent
                return gathered, False
            ctl = owner.helper if agent in owner.learners else owner.controllers[agent]
            index, _ = ctl.choose(c, c.pending)
            aec.step_option(index)  # no mask for a seat that never reads one
            gathered += owner._collect()

    @property
    def over(self) -> bool:
        return self.aec.conflict.over

    @property
    def conflict(self):
        return self.aec.conflict

    @property
    def pending_kind(self) -> str | None:
        return self.aec.conflict.pending.kind if self.aec.conflict.pending is not None else None

    def outcome(self):
        return self.aec.conflict.outcome

    def observe(self, agent: str) -> np.ndarray:
        return self.aec.encoder.encode(self.aec.conflict, agent, self.aec.slots)

    def actions(self) -> np.ndarray:
        """The action of each option of the learner's pending decision, in option order."""
        return np.asarray(self.aec.pending_actions(), dtype=np.int64)
