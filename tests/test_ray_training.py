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
    view = FateSingleAgentEnv(scene=scene, side=side, opponents="basic", controllers=REGISTRY, core="reference")
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


def test_what_the_ray_path_does_not_take_is_refused(tmp_path):
    r = subprocess.run([sys.executable, "-m", "fate_env.cli", "train", "duel", "--ray", "local", "--league",
                        "--out", str(tmp_path / "x.zip")], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "--league" in r.stderr and not (tmp_path / "x.ray").exists()
