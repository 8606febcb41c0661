"""One learner over several scenes: each episode plays one of them.

:class:`MultiSceneEnv` holds one :class:`~fate_env.environment.single_agent.FateSingleAgentEnv`
per scene, all laid out under the same :class:`~fate_env.environment.maxima.Maxima` (the largest
of each size over the scenes), so their observation and action spaces are one space; ``reset``
draws the episode's scene with the env's own seed (``weights`` to favour some). What the learner
meets is in ``info["scene"]``. ``scripts/train_multi_scene.py`` trains MaskablePPO on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from .maxima import Maxima
from .single_agent import FateSingleAgentEnv


class MultiSceneEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, scenes: Sequence[Any], side: str, controllers: Any, weights: Sequence[float] | None = None,
                 rules: str | None = None, **kwargs: Any):
        from ..content.scenes import load_scene
        if not scenes:
            raise ValueError("MultiSceneEnv needs at least one scene")
        loaded = [load_scene(s, rules=rules) if isinstance(s, str) else s for s in scenes]
        missing = [s.name for s in loaded if side not in s.sides]
        if missing:
            raise ValueError(f"side {side!r} is not in scene(s) {', '.join(missing)}: every scene needs the learning side")
        self.fixed = Maxima.of(loaded)
        self.envs = [FateSingleAgentEnv(scene=s, side=side, controllers=controllers, fixed=self.fixed, **kwargs)
                     for s in loaded]
        self.names = [s.name for s in loaded]
        self.observation_space = self.envs[0].observation_space
        self.action_space = self.envs[0].action_space
        for env, name in zip(self.envs, self.names):
            if env.observation_space != self.observation_space or env.action_space != self.action_space:
                raise ValueError(f"scene {name!r}: its spaces differ under the common maxima")  # a bug, not input
        w = np.asarray(weights if weights is not None else [1.0] * len(loaded), dtype=float)
        if len(w) != len(loaded) or (w < 0).any() or w.sum() <= 0:
            raise ValueError(f"weights: expected {len(loaded)} non-negative numbers, not all zero")
        self.weights = w / w.sum()
        self.current = self.envs[0]
        self.render_mode = kwargs.get("render_mode")

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        i = int(self.np_random.choice(len(self.envs), p=self.weights))
        self.current = self.envs[i]
        obs, info = self.current.reset(seed=int(self.np_random.integers(2**31 - 1)), options=options)
        return obs, {**info, "scene": self.names[i]}

    def step(self, action: int):
        obs, reward, terminated, truncated, info = self.current.step(action)
        return obs, reward, terminated, truncated, {**info, "scene": self.names[self.envs.index(self.current)]}

    def action_masks(self) -> np.ndarray:
        return self.current.action_masks()

    def render(self):
        return self.current.render()

    def close(self) -> None:
        for env in self.envs:
            env.close()
