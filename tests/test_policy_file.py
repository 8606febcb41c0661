"""Policy-only exports (fate_env/content/policy_file.py, ``fate-npc export``): the file plays exactly as the
SB3 model it came from, loads as ``ppo:PATH`` with numpy alone, and the shipped NPCs are such
files, small, with sidecars that match the scenes they were trained on."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest

from conftest import ROOT, run_cli

pytestmark = pytest.mark.kernel  # its model is trained on the fast core (tests/conftest.py)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    pytest.importorskip("sb3_contrib")
    folder = tmp_path_factory.mktemp("export")
    cfg = folder / "tiny.yaml"
    cfg.write_text("net_arch: [32, 16]\nn_steps: 128\nbatch_size: 64\nn_epochs: 2\nlearn: [turn]\n"
                   "actions: compact\noutcome: side\neval_episodes: 0\n")
    out = folder / "full.zip"
    r = run_cli("train", "duel", "--side", "rival", "--timesteps", "256", "--out", str(out), "--config", str(cfg),
                "--quiet")
    assert r.returncode == 0, r.stderr
    small = folder / "policy.zip"
    r = run_cli("export", str(out), str(small))
    assert r.returncode == 0, r.stderr
    return out, small


def test_the_export_chooses_what_the_model_chooses(trained):
    from sb3_contrib import MaskablePPO

    from agents.base import REGISTRY
    from fate_env.environment.single_agent import FateSingleAgentEnv
    from fate_env.content.policy_file import PolicyOnly, is_policy_only

    full, small = trained
    assert is_policy_only(small) and not is_policy_only(full)
    model, policy = MaskablePPO.load(str(full), device="cpu"), PolicyOnly(small)
    env = FateSingleAgentEnv(scene="duel", side="rival", opponents="basic,random", controllers=REGISTRY,
                             learn=("turn",), actions="compact", outcome="side")
    decisions = 0
    for seed in range(15):
        obs, _ = env.reset(seed=seed)
        done = env.over
        while not done:
            mask = env.action_masks()
            want = int(model.predict(obs, action_masks=mask, deterministic=True)[0])
            assert int(policy.predict(obs, mask)[0]) == want
            # the logits themselves, not only their argmax
            import torch
            with torch.no_grad():
                dist = model.policy.get_distribution(torch.as_tensor(obs[None]))
                ref = dist.distribution.logits.numpy()[0]
            got = policy.logits(obs)
            assert np.allclose(got - got.max(), ref - ref.max(), atol=1e-4)
            obs, _, term, trunc, _ = env.step(want)
            done = term or trunc
            decisions += 1
    assert decisions > 30
    assert json.loads(small.with_suffix(".json").read_text()) == json.loads(full.with_suffix(".json").read_text())
    with zipfile.ZipFile(small) as z:
        assert sorted(z.namelist()) == ["policy.json", "policy.npz"]  # no value net, no optimizer


def test_the_export_plays_as_a_ppo_controller(trained):
    from agents.base import controllers_for, play
    from fate_env.rules.engine import start
    from fate_env.content.scenes import load_scene

    full, small = trained
    scene = load_scene("duel")
    logs = []
    for path in (full, small):
        c = start(scene, seed=11)
        play(c, controllers_for(scene, {"rival": f"ppo:{path}"}, seed=0))
        logs.append([e.to_json() for e in c.events])
    assert logs[0] == logs[1]


def test_a_missing_model_or_a_bad_out_is_refused(tmp_path, trained):
    r = run_cli("export", str(tmp_path / "none.zip"), str(tmp_path / "o.zip"))
    assert r.returncode != 0 and "no such model file" in r.stderr
    r = run_cli("export", str(trained[0]), str(tmp_path / "nowhere" / "o.zip"))
    assert r.returncode != 0 and "does not exist" in r.stderr and not (tmp_path / "nowhere").exists()


def test_a_policy_only_file_plays_its_best_action_only(trained):
    from fate_env.content.policy_file import PolicyOnly
    policy = PolicyOnly(trained[1])
    obs = np.zeros(policy.observation_space.shape, dtype=np.float32)
    with pytest.raises(ValueError, match="deterministic"):
        policy.predict(obs, deterministic=False)
    mask = np.zeros(policy.action_space.n, dtype=bool)
    mask[3] = True
    assert int(policy.predict(obs, mask)[0]) == 3  # the only legal action, whatever the logits


class _Concedes:
    """A stand-in model that prefers conceding above all, then the lowest legal action."""

    def __init__(self, model, concede_action: int):
        self.observation_space, self.action_space = model.observation_space, model.action_space
        self.concede_action = concede_action

    def predict(self, obs, action_masks, deterministic=True):
        legal = np.flatnonzero(action_masks)
        return (self.concede_action if action_masks[self.concede_action] else int(legal[0])), None


def test_a_learned_concession_stands_only_where_the_helper_would_concede(tmp_path):
    """A sidecar's `concede: helper` (the shipped duel rival's): the policy's concession is taken only
    when its helper script would give in too; otherwise its next-best choice is played."""
    from agents.base import make_controller
    from fate_env.rules.engine import start
    from fate_env.rules.options import Concede
    from fate_env.content.scenes import load_scene

    card = json.loads((ROOT / "models" / "duel_rival.json").read_text())
    (tmp_path / "rival.zip").write_bytes((ROOT / "models" / "duel_rival.zip").read_bytes())
    scene = load_scene("duel")
    for concede, kept in (("policy", True), ("helper", False)):
        (tmp_path / "rival.json").write_text(json.dumps({**card, "concede": concede}))
        ctl = make_controller(f"ppo:{tmp_path / 'rival.zip'}")
        c = start(scene, 7)
        while c.pending.actor != "blade" or c.pending.kind != "turn":
            c.step(0)
        d = c.pending
        layout, _, full, slots = ctl._tables_for(c)
        slots.sync(c)
        at = d.options.index(Concede())
        concede_action = int(np.searchsorted(full, layout.encode(c, "blade", d.options[at], slots, set())))
        ctl.model = _Concedes(ctl.model, concede_action)
        index, why = ctl.choose(c, d)
        assert (type(d.options[index]) is Concede) is kept, (concede, d.options[index], why)
        assert ("its script would not" in why) is not kept


# -- trust: a full save runs code when loaded, so ppo: loads only those training wrote here ---------

def _crafted_full_save(path, marker):
    """A zip shaped like a Stable-Baselines3 save whose pickles would create ``marker`` if loaded."""
    import base64
    import pickle

    class Payload:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    blob = pickle.dumps(Payload())
    data = {"policy_class": {":type:": "<class 'abc.ABCMeta'>", ":serialized:": base64.b64encode(blob).decode()}}
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("data", json.dumps(data))
        z.writestr("policy.pth", blob)
        z.writestr("_stable_baselines3_version", "2.3.0")


def test_a_full_save_from_elsewhere_is_refused_before_any_of_it_runs(tmp_path):
    model, marker = tmp_path / "shared.zip", tmp_path / "pwned"
    _crafted_full_save(model, marker)
    r = run_cli("eval", "duel", "--policies", f"ppo:{model}", "-n", "2")
    assert r.returncode != 0 and not marker.exists()
    line = r.stderr.strip()
    assert "\n" not in line and "Traceback" not in line
    assert "runs any code" in line and f"fate-npc export {model}" in line and "--trust-models" in line


def test_a_full_save_training_wrote_here_plays_and_one_from_another_machine_needs_the_flag(trained, tmp_path, monkeypatch):
    from agents.learned import PPOController
    from fate_env.content.policy_file import ModelFileError, check_model_file

    full, small = trained
    assert check_model_file(full) == "sb3" and check_model_file(small) == "policy"
    assert PPOController(path=str(full)).model is not None
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # another machine: no record of it
    with pytest.raises(ModelFileError, match="not written by training on this machine"):
        check_model_file(full)
    assert check_model_file(small) == "policy"  # policy-only files need no trust
    monkeypatch.setenv("FATE_NPC_TRUST_MODELS", "1")
    assert check_model_file(full) == "sb3"


@pytest.mark.parametrize("make,expected", [
    (lambda p: p.mkdir(), "is a folder"),
    (lambda p: p.write_bytes(b"not a zip"), "not a zip file"),
    (lambda p: zipfile.ZipFile(p, "w").writestr("readme.txt", "hi"), "a zip without model data"),
    (lambda p: zipfile.ZipFile(p, "w").writestr("policy.json", "{}"), "without its weights"),
])
def test_broken_model_files_are_one_line_errors(tmp_path, make, expected):
    model = tmp_path / "m.zip"
    make(model)
    r = run_cli("eval", "duel", "--policies", f"ppo:{model}", "-n", "2")
    assert r.returncode != 0 and expected in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_a_sidecar_that_is_not_a_mapping_is_a_one_line_error(tmp_path):
    import shutil
    model = tmp_path / "rival.zip"
    shutil.copy(ROOT / "models" / "duel_rival.zip", model)
    model.with_suffix(".json").write_text("[1, 2]")
    r = run_cli("eval", "duel", "--policies", f"ppo:{model}", "-n", "2")
    assert r.returncode != 0 and "expected a JSON mapping" in r.stderr and "Traceback" not in r.stderr


def test_exporting_a_policy_only_file_is_one_line_not_a_traceback(tmp_path):
    r = run_cli("export", str(ROOT / "models" / "duel_rival.zip"), str(tmp_path / "out.zip"))
    assert r.returncode != 0 and "already a policy-only file" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "out.zip").exists()


def test_export_reads_a_stranger_s_save_without_running_it(tmp_path):
    """``export`` is the safe path the refusal names: a save built to run code when unpickled is
    read with torch's weights-only loader, which refuses it, and nothing in it runs."""
    pytest.importorskip("torch")
    model, marker = tmp_path / "evil.zip", tmp_path / "pwned"
    _crafted_full_save(model, marker)
    for extra in ([], ["--trust-models"]):  # the flag loads pickled settings only, never a pickle for weights
        r = run_cli("export", str(model), str(tmp_path / "out.zip"), *extra)
        line = r.stderr.strip()
        assert r.returncode != 0 and "\n" not in line and "Traceback" not in line, line
        assert "not a readable Stable-Baselines3 save" in line
        assert not marker.exists() and not (tmp_path / "out.zip").exists()


@pytest.mark.parametrize("damage", ["truncated", "garbage pth", "no data"])
def test_a_damaged_save_is_one_line_from_export(tmp_path, trained, damage):
    pytest.importorskip("torch")
    full, _ = trained
    model = tmp_path / "damaged.zip"
    if damage == "truncated":
        model.write_bytes(full.read_bytes()[: full.stat().st_size // 2])
    else:
        with zipfile.ZipFile(full) as src, zipfile.ZipFile(model, "w") as z:
            for name in src.namelist():
                if damage == "no data" and name == "data":
                    continue
                z.writestr(name, b"\x80\x02garbage" if damage == "garbage pth" and name == "policy.pth"
                           else src.read(name))
    r = run_cli("export", str(model), str(tmp_path / "out.zip"))
    line = r.stderr.strip()
    assert r.returncode != 0 and "\n" not in line and "Traceback" not in line and str(model) in line, line


def test_the_safe_export_holds_exactly_the_arrays_sb3_s_own_loader_gives(trained):
    from fate_env.content.policy_file import _read_trusted, read_weights
    full, _ = trained
    safe, safe_meta = read_weights(full)
    loaded, loaded_meta = _read_trusted(full)
    assert safe_meta == loaded_meta and safe.keys() == loaded.keys()
    assert all(np.array_equal(safe[k], loaded[k]) for k in safe)
