"""PPO for Ray RLlib with the illegal actions masked, on RLlib's current module API.

The Fate env's observations are ``{"observations", "action_mask"}`` (``ray_training.FateRayEnv``).
This module is RLlib's default PPO module (``DefaultPPOTorchRLModule``, built with keyword
arguments: the API RLlib keeps) over the ``observations`` part, with every masked-off action's
logit pushed to the float minimum, so the policy never samples an action the engine would refuse.
RLlib's own example module for this still derives from ``PPOTorchRLModule`` and builds
``RLModule(config=...)``, which RLlib 2.x deprecates with a warning that they will become errors.
"""

from __future__ import annotations

import logging
from typing import Any

import gymnasium as gym
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns

#: the logit a masked-off action gets (exp of it is 0 in float32)
MASKED = torch.finfo(torch.float32).min


class _OwnConfigNotice(logging.Filter):
    """RLlib 2.x builds an ``RLModuleConfig`` inside every ``RLModule.__init__`` for old custom models
    (rl_module.py: "TODO (sven): Deprecate this"), and that class logs "RLModule(config=...) has been
    deprecated" even for a module built the current way, as this one is. That one message, RLlib's own,
    is dropped; every other deprecation (one of ours would be a real one) still shows."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "RLModule(config=[RLModuleConfig object])" not in record.getMessage()


for _name in ("ray._common.deprecation", "ray.rllib.utils.deprecation"):
    logging.getLogger(_name).addFilter(_OwnConfigNotice())


class MaskedPPOModule(DefaultPPOTorchRLModule):
    """Default PPO over ``observations``; ``action_mask`` (1 legal, 0 not) masks the logits."""

    def __init__(self, *, observation_space: gym.Space | None = None, **kwargs: Any) -> None:
        if not isinstance(observation_space, gym.spaces.Dict) or set(observation_space) != {"observations",
                                                                                           "action_mask"}:
            raise ValueError("MaskedPPOModule needs a Dict observation space of 'observations' and 'action_mask'")
        self.masked_space = observation_space
        super().__init__(observation_space=observation_space["observations"], **kwargs)

    def setup(self) -> None:
        super().setup()  # the networks are sized for the observations alone
        self.observation_space = self.masked_space  # what the env runners hand over

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, batch = self._split(batch)
        return self._masked(super()._forward(batch, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, batch = self._split(batch)
        out = self._masked(super()._forward_train(batch, **kwargs), mask)
        return out

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        if isinstance(batch[Columns.OBS], dict):
            _, batch = self._split(batch)
        return super().compute_values(batch, embeddings)

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        """(the mask, the batch with the observations alone), leaving the caller's batch as it was."""
        obs = batch[Columns.OBS]
        if not isinstance(obs, dict):
            return None, batch
        return obs["action_mask"], {**batch, Columns.OBS: obs["observations"]}

    @staticmethod
    def _masked(out: dict[str, Any], mask: Any) -> dict[str, Any]:
        if mask is not None:
            logits = out[Columns.ACTION_DIST_INPUTS]
            out[Columns.ACTION_DIST_INPUTS] = torch.where(mask > 0.5, logits, torch.full_like(logits, MASKED))
        return out
