"""``random``: uniform over the legal options (the baseline every policy must beat)."""

from __future__ import annotations

import numpy as np

from fate_env.content.reasons import reason
from fate_env.rules.conflict import Conflict, Decision

from .registry import register


@register("random")
class RandomController:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = np.random.default_rng(seed)

    def choose(self, conflict: Conflict, decision: Decision) -> tuple[int, str]:
        return int(self.rng.integers(len(decision.options))), reason("random")
