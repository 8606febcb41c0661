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
returns the same observation, ``illegal_penalty`` (0 by default) and the reason
in ``info["illegal_action"]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle

from .aec import IllegalAction, raw_env


class ControllerFactory(Protocol):
    """Where the environment gets the controllers that play the other seats (``agents.base.REGISTRY``
    is one): the environment never imports controllers itself."""

    def controllers_for(self, scene: Any, overrides: Mapping[str, str], seed: int) -> Mapping[str, Any]: ...

    def make_controller(self, spec: str, seed: int) -> Any: ...


class FateSingleAgentEnv(gymnasium.Env, EzPickle):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, scene: Any = "duel", side: str | None = None, opponents: str | Mapping[str, str] = "basic",
                 render_mode: str | None = None, reward: Mapping[str, float] | None = None,
                 max_exchanges: int | None = None, rules: str | None = None, opponent_seed: int = 0,
                 illegal_penalty: float = 0.0, learn: tuple[str, ...] | None = None, helper: str = "basic",
                 outcome: str = "characters", controllers: ControllerFactory | None = None, actions: str = "full",
                 **dials: Any):
        EzPickle.__init__(self, scene, side, opponents, render_mode, reward, max_exchanges, rules, opponent_seed,
                          illegal_penalty, learn, helper, outcome, controllers, actions, **dials)
        if controllers is None:
            raise ValueError("FateSingleAgentEnv needs controllers=...: a factory of the other seats' controllers "
                             "(agents.base.REGISTRY, or your own with controllers_for and make_controller)")
        if outcome not in ("characters", "side"):
            raise ValueError(f"outcome {outcome!r}: expected 'characters' or 'side'")
        self.outcome = outcome
        self.illegal_penalty = float(illegal_penalty)
        # the decision kinds the learner makes; the learning side's other decisions go to ``helper``
        self.learn = tuple(learn) if learn else None

        self.aec = raw_env(scene=scene, render_mode="ansi" if render_mode else None, reward=reward,
                           max_exchanges=max_exchanges, rules=rules, **dials)
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
        if isinstance(opponents, str):
            mix = [{sd: name.strip() for sd in s.sides if sd != self.side} for name in opponents.split(",")]
        else:
            mix = [dict(opponents)]
        self.factory = controllers
        self.mixture = [controllers.controllers_for(s, m, opponent_seed) for m in mix]
        self.controllers = self.mixture[0]
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

    def set_opponents(self, overrides: Mapping[str, str], seed: int = 0) -> None:
        """Let other controllers play the other seats from the next decision on (self-play snapshots;
        callable through a vectorised env's ``env_method``)."""
        self.controllers = self.factory.controllers_for(self.aec.scene, dict(overrides), seed)
        self.mixture = [self.controllers]

    def _collect(self) -> float:
        return sum(self.aec.rewards.get(a, 0.0) for a in self.learners) / len(self.learners)

    def _advance(self) -> tuple[float, bool]:
        """Play every decision that is not the learning side's; return (reward gathered, episode over)."""
        aec = self.aec
        gathered = 0.0
        while True:
            c = aec.conflict
            if c.over:
                return gathered, True
            agent = aec.agent_selection
            if aec.terminations[agent] or aec.truncations[agent]:
                aec.step(None)
                continue
            if agent in self.learners and (self.learn is None or c.pending.kind in self.learn):
                self._agent = agent
                return gathered, False
            ctl = self.helper if agent in self.learners else self.controllers[agent]
            index, _ = ctl.choose(c, c.pending)
            aec.step_option(index)  # no mask for a seat that never reads one
            gathered += self._collect()

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
        if len(self.mixture) > 1:
            self.controllers = self.mixture[int(self.np_random.integers(len(self.mixture)))]
        self.aec.reset(seed=seed)
        gathered, over = self._advance()
        if over:  # the learning side never had a decision (e.g. the opponents conceded at once)
            gathered += self._side_end(self.aec.conflict.outcome)
            return self._obs(), {"skipped_reward": gathered, "outcome": self.aec.conflict.outcome.to_json()}
        return self._obs(), {}

    def _obs(self) -> np.ndarray:
        agent = self._agent or self.learners[0]
        return self.aec.encoder.encode(self.aec.conflict, agent, self.aec.slots)

    def action_masks(self) -> np.ndarray:
        if self.aec.conflict.over:
            mask = np.zeros(len(self.full), dtype=bool)
            mask[self._idle] = True  # any action ends nothing: keeps SB3 happy
            return mask
        mask = self.aec.action_mask(self._agent).astype(bool)
        return mask if self.actions == "full" else mask[self.full]

    def action_for_option(self, index: int) -> int:
        """The learner's action that picks option ``index`` of the pending decision (imitation)."""
        a = self.aec.action_for_option(index)
        if self.actions == "full":
            return a
        return int(np.searchsorted(self.full, a))

    def step(self, action: int):
        aec = self.aec
        if aec.conflict.over:
            return self._obs(), 0.0, True, False, {"outcome": aec.conflict.outcome.to_json()}
        try:
            if not 0 <= int(action) < len(self.full):
                raise IllegalAction(f"action {action} is outside Discrete({len(self.full)})")
            aec.step(int(self.full[int(action)]))
        except IllegalAction as exc:
            return self._obs(), self.illegal_penalty, False, False, {"illegal_action": str(exc)}
        reward = self._collect()
        gathered, over = self._advance()
        reward += gathered
        info: dict[str, Any] = {}
        terminated = truncated = False
        if over:
            outcome = aec.conflict.outcome
            info["outcome"] = outcome.to_json()
            reward += self._side_end(outcome)
            truncated = outcome.unresolved
            terminated = not truncated
        return self._obs(), float(reward), terminated, truncated, info

    def render(self) -> str | None:
        return self.aec.render() if self.render_mode == "ansi" else None
