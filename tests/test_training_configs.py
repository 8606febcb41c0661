"""Training configs inherit (issue 34): each states only what it does differently from the config it
names with ``inherits:``, and resolves to exactly what it held when every config restated every key
(tests/data/train_configs_resolved.json, written from the configs before they inherited)."""

from __future__ import annotations

import json

import pytest
from conftest import ROOT

from fate_env.learn.training import load_config

CONFIGS = ROOT / "configs" / "train"
BEFORE = json.loads((ROOT / "tests" / "data" / "train_configs_resolved.json").read_text())


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_a_shipped_config_resolves_to_what_it_held_before_it_inherited(name):
    assert json.dumps(load_config(CONFIGS / name), sort_keys=True) == json.dumps(BEFORE[name], sort_keys=True)


def test_the_shipped_configs_state_the_ppo_settings_once():
    restated = [p.name for p in CONFIGS.glob("*.yaml") if p.name != "ppo.yaml" and "net_arch:" in p.read_text()]
    assert restated == []


def _write(folder, name, text):
    (folder / name).write_text(text)
    return folder / name


def test_a_stated_key_replaces_the_inherited_one_whole(tmp_path):
    _write(tmp_path, "base.yaml", "gamma: 0.9\nreward: {win: 2.0, loss: -2.0}\n")
    child = _write(tmp_path, "child.yaml", "inherits: base.yaml\nreward: {win: 1.0}\n")
    assert load_config(child) == {"gamma": 0.9, "reward": {"win": 1.0}}


@pytest.mark.parametrize("text, needle", [
    ("inherits: child.yaml\n", "inherits back"),
    ("inherits: nowhere.yaml\n", "no config"),
    ("inherits: ../configs/train/ppo.yaml\n", "the file name of a config beside it"),
    ("inherits: [ppo.yaml]\n", "the file name of a config beside it"),
])
def test_a_bad_inherits_is_one_line(tmp_path, text, needle):
    child = _write(tmp_path, "child.yaml", text)
    with pytest.raises(ValueError, match=needle) as err:
        load_config(child)
    assert "\n" not in str(err.value)
