"""A first training run that learns (issue 37), as a new RL user would try it: MaskablePPO with its
own defaults on FateSingleAgentEnv with its defaults. The old defaults (every decision learned,
each character scored with the PettingZoo env's rewards) taught the warehouse's smugglers to
concede in the first exchange of every fight; the defaults now (turn decisions, the side scored
once, FIGHT_REWARD) fight, and a few seconds of training beat a random policy in the same seat.
docs/training.md shows the same run and its figures. The comparison of the old defaults with the new
(two 5,000-step runs on the warehouse) is a study, not a test: scripts/study_old_defaults.py."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="the train extra is not installed")

from sb3_contrib import MaskablePPO  # noqa: E402

from agents.base import REGISTRY  # noqa: E402
from fate_env.environment.single_agent import FIGHT_REWARD, FateSingleAgentEnv  # noqa: E402
from fate_env.learn.training import evaluate  # noqa: E402

pytestmark = pytest.mark.kernel  # runs the fast core (tests/conftest.py)

def _trained(scene: str, side: str, steps: int, **kw) -> MaskablePPO:
    model = MaskablePPO("MlpPolicy", FateSingleAgentEnv(scene, side, controllers=REGISTRY, **kw), seed=1, verbose=0,
                        device="cpu")
    return model.learn(steps)


def _act(model):
    return lambda obs, mask: int(model.predict(obs, action_masks=mask, deterministic=True)[0])


def test_the_defaults_are_the_ones_that_teach_fighting():
    env = FateSingleAgentEnv("warehouse", "smugglers", controllers=REGISTRY)
    assert env.learn == ("turn",) and env.outcome == "side"
    scored = {**env.aec.reward_cfg, **env._ends}  # with outcome="side" the end is scored once, for the side
    assert {k: scored[k] for k in FIGHT_REWARD} == FIGHT_REWARD


def test_a_first_run_beats_random_in_seconds():
    """The duel's rival, 8,192 steps (a few seconds on the fast core): against `random` Cynere it wins
    nearly every fight, where a random policy in its seat wins about five in six."""
    model = _trained("duel", "rival", 8192)
    env = FateSingleAgentEnv("duel", "rival", opponents="random", controllers=REGISTRY, opponent_seed=10_000)
    trained = evaluate(env, _act(model), 100, 5_000_000)["win_rate"]
    rng = np.random.default_rng(0)
    random_seat = evaluate(env, lambda obs, mask: int(rng.choice(np.flatnonzero(mask))), 100, 5_000_000)["win_rate"]
    assert trained >= 0.93 and trained >= random_seat + 0.08, (trained, random_seat)
