"""Training on Ray RLlib (``fate-npc train --ray``): its multi-agent env plays the same fights and
hands out the same rewards as the single-agent view, a local-mode run trains a few iterations
with the action mask honoured (the env refuses any masked-off action), and what the Ray path does
not take is refused up front."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT

pytest.importorskip("ray.rllib")


@pytest.mark.parametrize("scene,side", [("duel", "rival"), ("warehouse", "smugglers")])
def test_the_ray_env_plays_the_single_agent_view_s_fights_with_its_rewards(scene, side):
    from agents.base import REGISTRY
    from fate_env.environment.single_agent import FateSingleAgentEnv
    from fate_env.learn.ray_training import FateRayEnv

    ray_env = FateRayEnv({"scene": scene, "side": side, "opponent": "basic"})
    view = FateSingleAgentEnv(scene=scene, side=side, opponents="basic", controllers=REGISTRY, core="reference",
                              learn=None, reward={}, outcome="characters")  # what the Ray path learns and scores
    for fight in range(6):
        obs, _ = view.reset(seed=fight)
        if view.over:
            continue
        ray_obs, _ = ray_env.reset(options={"fight": fight})
        total_view, total_ray, done = 0.0, 0.0, False
        while not done:
            actor = ray_env.aec.agent_selection
            mask = ray_obs[actor]["action_mask"]
            assert np.array_equal(mask.astype(bool), view.action_masks())
            assert np.array_equal(ray_obs[actor]["observations"], obs)
            action = int(np.flatnonzero(mask)[-1])
            obs, r, term, trunc, _ = view.step(action)
            total_view += r
            done = term or trunc
            ray_obs, rew, rterm, rtrunc, _ = ray_env.step({actor: action})
            total_ray += sum(rew.values())
            assert (rterm["__all__"] or rtrunc["__all__"]) == done
        assert total_ray / len(ray_env.learners) == pytest.approx(total_view)


def test_a_masked_off_action_is_refused_with_the_reason():
    from fate_env.environment.aec import IllegalAction
    from fate_env.learn.ray_training import FateRayEnv

    env = FateRayEnv({"scene": "duel", "side": "rival"})
    obs, _ = env.reset(options={"fight": 1})
    actor = env.aec.agent_selection
    illegal = int(np.flatnonzero(obs[actor]["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction, match="not legal"):
        env.step({actor: illegal})


def test_a_local_ray_run_trains_a_few_iterations_and_saves_a_checkpoint(tmp_path):
    cfg = tmp_path / "ray.yaml"
    cfg.write_text("net_arch: [32]\nn_steps: 200\nbatch_size: 100\nn_epochs: 2\neval_episodes: 5\n")
    out = tmp_path / "r.zip"
    r = subprocess.run([sys.executable, "-m", "fate_env.cli", "train", "duel", "--side", "rival", "--ray", "local",
                        "--timesteps", "400", "--config", str(cfg), "--out", str(out), "--quiet", "--json"],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    result = json.loads(r.stdout[r.stdout.index("{"):])
    assert result["backend"] == "ray" and len(result["iterations"]) == 2 and result["timesteps"] >= 400
    assert (tmp_path / "r.ray" / "rllib_checkpoint.json").exists()
    assert result["vs_basic"]["episodes"] == 5
    # on RLlib's current module API: no deprecation that says it will become an error
    assert "deprecated" not in (r.stdout + r.stderr).lower(), r.stderr[-2000:]
    assert "PPOTorchRLModule" not in r.stderr


def test_the_masked_module_never_picks_a_masked_off_action():
    pytest.importorskip("ray")
    import torch
    from gymnasium import spaces
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig

    from fate_env.learn.ray_module import MaskedPPOModule
    space = spaces.Dict({"observations": spaces.Box(-1.0, 1.0, (6,), np.float32),
                         "action_mask": spaces.Box(0.0, 1.0, (5,), np.float32)})
    module = MaskedPPOModule(observation_space=space, action_space=spaces.Discrete(5), inference_only=False,
                             model_config=DefaultModelConfig(fcnet_hiddens=[8], head_fcnet_hiddens=[]))
    mask = torch.tensor([[0, 1, 0, 0, 1], [1, 0, 0, 0, 0]], dtype=torch.float32)
    batch = {Columns.OBS: {"observations": torch.randn(2, 6), "action_mask": mask}}
    for forward in (module.forward_inference, module.forward_exploration, module.forward_train):
        logits = forward(dict(batch))[Columns.ACTION_DIST_INPUTS]
        assert torch.equal(logits.argmax(-1), torch.tensor([1 if logits[0, 1] >= logits[0, 4] else 4, 0]))
        assert bool((torch.softmax(logits, -1)[mask == 0] == 0).all())


def test_what_the_ray_path_does_not_take_is_refused(tmp_path):
    r = subprocess.run([sys.executable, "-m", "fate_env.cli", "train", "duel", "--ray", "local", "--league",
                        "--out", str(tmp_path / "x.zip")], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "--league" in r.stderr and not (tmp_path / "x.ray").exists()
