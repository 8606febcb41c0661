"""``fate-npc train --envs N`` steps N environments together, in one process by default (one policy
forward for all) or in processes of their own (``--subprocess-envs``); self-play snapshots reach every
one of them either way, and a bad count is refused."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT, run_cli

pytestmark = pytest.mark.kernel  # runs the fast core (tests/conftest.py)


@pytest.mark.parametrize("subprocess_envs", [False, True])
def test_train_with_several_envs_and_self_play(tmp_path, subprocess_envs):
    pytest.importorskip("sb3_contrib")
    cfg = tmp_path / "tiny.yaml"
    cfg.write_text("n_steps: 128\nbatch_size: 64\nn_epochs: 1\nnet_arch: [32]\neval_episodes: 3\n"
                   "self_play: {snapshot_every: 128}\n")
    out = tmp_path / "par.zip"
    r = run_cli("train", "duel", "--side", "rival", "--self-play", "--envs", "2", "--timesteps", "384", "--out",
                str(out), "--config", str(cfg), "--quiet", "--json", *(["--subprocess-envs"] if subprocess_envs else []))
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)
    assert result["envs"] == 2 and result["timesteps"] == 384 and out.exists()
    assert result["subprocess_envs"] is subprocess_envs
    assert (tmp_path / "par_snapshot.zip").exists()
    progress = (tmp_path / "par.log" / "progress.csv").read_text().splitlines()
    assert len(progress) >= 2  # SB3 logged at least one rollout of both envs


def test_a_bad_env_count_is_refused():
    r = run_cli("train", "duel", "--envs", "0")
    assert r.returncode == 2 and "--envs" in r.stderr


def test_a_report_sent_into_the_models_own_sidecar_is_refused_before_training(tmp_path):
    """`train --out X.zip --json > X.json` would leave the report where `ppo:X.zip` reads its sidecar."""
    card = tmp_path / "m.json"
    with card.open("w") as out:
        r = subprocess.run([sys.executable, "-m", "fate_env.cli", "train", "duel", "--timesteps", "64",
                            "--out", str(tmp_path / "m.zip"), "--json"], cwd=ROOT, stdout=out, stderr=subprocess.PIPE,
                           text=True, timeout=300)
    assert r.returncode == 2 and "the sidecar that --out" in r.stderr and "m_report.json" in r.stderr
    assert not (tmp_path / "m.zip").exists() and card.read_text() == ""


def test_a_compact_turn_learner_trains_imitates_snapshots_and_plays(tmp_path):
    """``actions: compact``: the model's head covers the turn decisions only; imitation, self-play
    snapshots (with their sidecar) and the ppo: controller all speak the compact space."""
    pytest.importorskip("sb3_contrib")
    from agents.base import make_controller
    from fate_env.environment.actions import ActionLayout
    from agents.base import controllers_for, play
    from fate_env.rules.engine import start
    from fate_env.content.scenes import load_scene

    cfg = tmp_path / "compact.yaml"
    cfg.write_text("n_steps: 64\nbatch_size: 32\nn_epochs: 1\nnet_arch: [16]\neval_episodes: 2\nlearn: [turn]\n"
                   "actions: compact\nself_play: {snapshot_every: 64}\nimitate: {policy: basic, episodes: 2, "
                   "epochs: 1}\n")
    out = tmp_path / "compact.zip"
    r = run_cli("train", "duel", "--side", "rival", "--self-play", "--timesteps", "128", "--out", str(out),
                "--config", str(cfg), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    for path in (out, tmp_path / "compact_snapshot.zip"):
        assert json.loads(path.with_suffix(".json").read_text())["actions"] == "compact"
    scene = load_scene("duel")
    ctl = make_controller(f"ppo:{out}")
    assert ctl.model.action_space.n == len(ActionLayout(scene).indices_for(["turn"]))
    fight = play(start(scene, 3), controllers_for(scene, {"rival": f"ppo:{out}"}, seed=3))
    assert fight.over and any(r.endswith(": the learned policy's choice") for r in fight.reasons)
