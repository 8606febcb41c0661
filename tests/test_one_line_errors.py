"""One line, never a traceback, and the right thing done (issue 33): each case a GM or designer met
in the reliability sweep, run through the real command line."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
import yaml
from conftest import ROOT

from fate_env.cli import main
from fate_env.live.session import SessionSetup, run_session

IMPORTS = ROOT / "tests" / "data" / "import"


def _one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and len(err) < 800, err[:3000]
    return err


def test_new_with_spaces_in_the_name_writes_a_scene_that_validates(tmp_path, capsys):
    path = tmp_path / "My Scene.yaml"
    assert main(["new", str(path)]) == 0
    assert yaml.safe_load(path.read_text())["name"] == "my_scene"
    assert main(["validate", str(path)]) == 0


def test_new_into_a_missing_folder_is_one_line(tmp_path, capsys):
    assert main(["new", str(tmp_path / "no" / "such" / "scene.yaml")]) == 2
    assert "does not exist" in _one_line(capsys)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("trigger", ["", " "])
def test_an_empty_countdown_trigger_is_one_line(tmp_path, capsys, trigger):
    data = yaml.safe_load((ROOT / "configs" / "scenes" / "summoning.yaml").read_text())
    data["countdowns"][0]["triggers"] = [trigger]
    f = tmp_path / "s.yaml"
    f.write_text(yaml.safe_dump(data))
    assert main(["validate", str(f)]) == 2
    assert "countdowns.0.triggers.0: an empty trigger" in _one_line(capsys)


def test_zones_given_as_a_number_is_one_line(tmp_path, capsys):
    data = yaml.safe_load((ROOT / "configs" / "scenes" / "duel.yaml").read_text())
    data["zones"] = 3
    f = tmp_path / "s.yaml"
    f.write_text(yaml.safe_dump(data))
    assert main(["validate", str(f)]) == 2
    assert "zones" in _one_line(capsys)


@pytest.mark.parametrize("line, needle", [
    ("net_arch: abc", "net_arch: expected a list of layer widths"),
    ("batch_size: 0", "batch_size: expected a whole number from 2"),
    ("gamma: 5", "gamma: expected a discount above 0, at most 1"),
    ("learning_rate: .nan", "learning_rate: expected a number above 0"),
    ("n_steps: [1]", "n_steps: expected a whole number"),
])
def test_bad_training_config_values_are_refused_before_training(tmp_path, capsys, line, needle):
    config = tmp_path / "c.yaml"
    config.write_text(line + "\n")
    assert main(["train", "duel", "--config", str(config), "--out", str(tmp_path / "m.zip")]) == 2
    assert needle in _one_line(capsys)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.yaml"]


def test_a_long_value_is_quoted_as_an_excerpt(tmp_path, capsys):
    data = yaml.safe_load((ROOT / "configs" / "scenes" / "duel.yaml").read_text())
    data["title"] = ["x" * 1_600_000]
    f = tmp_path / "s.yaml"
    f.write_text(yaml.safe_dump(data))
    assert main(["validate", str(f)]) == 2
    assert "characters left out" in _one_line(capsys)


def test_a_non_ascii_digit_at_the_prompt_is_refused_not_a_crash():
    out = io.StringIO()
    run_session(SessionSetup("duel", 1, {"cynere": "human"}, autosave=None), io.StringIO("²\n1²\n/fp ² +1\n"), out)
    text = out.getvalue()
    assert "'²' is not an option" in text and "no character '²'" in text and "Traceback" not in text


def _escape_scene(tmp_path) -> str:
    data = yaml.safe_load((ROOT / "configs" / "scenes" / "duel.yaml").read_text())
    data["characters"]["blade"]["name"] = "Sethra\x1b[2J\u202e the Blade"
    f = tmp_path / "escape.yaml"
    f.write_text(yaml.safe_dump(data, allow_unicode=True))
    return str(f)


def test_control_characters_in_names_are_shown_escaped_everywhere(tmp_path, capsys):
    scene = _escape_scene(tmp_path)
    assert main(["resolve", scene, "--seed", "1"]) == 0
    told = capsys.readouterr().out
    assert "\x1b" not in told and "\u202e" not in told and "Sethra\\x1b[2J\\u202e the Blade" in told
    assert main(["resolve", scene, "--seed", "1", "--json"]) == 0
    log = tmp_path / "log.json"
    log.write_text(capsys.readouterr().out)
    for extra in ([], ["--markdown"]):
        assert main(["replay", str(log), *extra]) == 0
        text = capsys.readouterr().out
        assert "\x1b" not in text and "\\x1b[2J" in text
    out = io.StringIO()
    run_session(SessionSetup(scene, 1, controls={"cynere": "human"}, autosave=None),
                io.StringIO("/aspect add \x07Bell\n/state\n"), out)
    assert "\x1b" not in out.getvalue() and "\x07" not in out.getvalue() and "\\x07Bell" in out.getvalue()


def test_two_adds_of_one_name_stay_apart_and_nameable():
    out = io.StringIO()
    typed = "/add Thug x2: mob, Fight 2\n/add Thug x2: mob, Fight 2\n/move thug gallery\n/move thug4 dock\n"
    s = run_session(SessionSetup("warehouse", 1, autosave=None), io.StringIO(typed), out)
    assert "  ! " not in out.getvalue(), out.getvalue()
    assert s.play.f["thug"].zone == "gallery" and s.play.f["thug4"].zone == "dock"
    assert s.narrator.name("thug4") == "Thug 4" and s.narrator.name("thug") == "Thug"


def test_import_as_a_mob_writes_a_mob_the_scene_takes(tmp_path, capsys):
    out = tmp_path / "mob.yaml"
    assert main(["import", str(IMPORTS / "foundry" / "fco_4.6_foundry_12.json"), "--kind", "mob", "--count", "4", "--out", str(out)]) == 0
    chars = yaml.safe_load(out.read_text())["characters"]
    assert [c["kind"] for c in chars.values()] == ["mob"] and [c["count"] for c in chars.values()] == [4]
    assert main(["import", str(IMPORTS / "foundry" / "fco_4.6_foundry_12.json"), "--kind", "mob"]) == 0
    assert "a mob of 3 (--count N sets how many)" in capsys.readouterr().err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["resolve", "duel", "--seed", "1"], ["rules", "--json"], ["scenes"]])
def test_a_full_standard_output_is_one_line(argv):
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "fate_env.cli", *argv], cwd=ROOT, stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=120)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "cannot write to standard output" in r.stderr, r.stderr


def test_a_bench_report_of_another_kind_is_not_a_training_config(tmp_path, capsys):
    config = tmp_path / "c.yaml"
    config.write_text(json.dumps({"summary": [], "episodes": []}))
    assert main(["train", "duel", "--config", str(config), "--out", str(tmp_path / "m.zip")]) == 2
    assert "unknown training key" in _one_line(capsys)
