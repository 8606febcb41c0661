"""The command line: resolve narrates every shipped scene, --json is complete and replayable."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import ROOT, SHIPPED

from agents.base import controllers_for, make_controller, play
from fate_env.cli import main
from fate_env.rules.conflict import Conflict, replay
from fate_env.content.narrate import side_words
from fate_env.content.scenes import load_scene


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("rules", ["condensed", "core", "fate2", "fate3"])
def test_resolve_narrates_to_an_end(name, rules, capsys):
    assert main(["resolve", name, "--seed", "3", "--rules", rules]) == 0
    out = capsys.readouterr().out
    assert "dice [" in out
    kind = load_scene(name).kind
    if kind == "conflict":
        assert "\nExchange 1\n" in out and "rolls attack with" in out
        assert "Winner:" in out and (" win." in out or " wins." in out or "No side wins." in out or "Unresolved" in out)
    elif kind == "contest":
        assert "\nExchange 1\n" in out and "Victories: " in out
        winner = json_outcome(name, rules)["winner"]
        assert f"Winner: {side_words(load_scene(name), winner)}" in out and "\nOver after " in out
    else:
        assert "Results:" in out and "The challenge is over" in out


def json_outcome(name: str, rules: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "fate_env.cli", "resolve", name, "--seed", "3", "--rules", rules,
                          "--json"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    data = json.loads(out.stdout)
    victories = data["outcome"]["victories"]
    need = load_scene(name).contest.victories
    assert data["outcome"]["winner"] == next((s for s, v in victories.items() if v >= need), None)
    return data["outcome"]


def test_resolve_json_is_the_outcome_and_a_replayable_log(capsys):
    assert main(["resolve", "warehouse", "--seed", "11", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"scene", "scene_file", "scene_data", "rules", "seed", "outcome", "choices", "reasons", "events"}
    assert data["events"][0]["type"] == "ConflictStarted" and data["events"][-1]["type"] == "ConflictEnded"
    assert data["outcome"]["winner"] == data["events"][-1]["winner"]
    again = replay(load_scene("warehouse"), 11, data["choices"], reasons=data["reasons"])
    assert json.loads(json.dumps(again.log())) == data["events"]


def test_same_seed_same_story_different_seed_different_story(capsys):
    main(["resolve", "duel", "--seed", "5", "--json"])
    a = capsys.readouterr().out
    main(["resolve", "duel", "--seed", "5", "--json"])
    b = capsys.readouterr().out
    main(["resolve", "duel", "--seed", "6", "--json"])
    c = capsys.readouterr().out
    assert a == b and a != c


def test_control_overrides_by_side_and_character():
    scene = load_scene("warehouse")
    ctl = controllers_for(scene, {"smugglers": "random", "cynere": "random"})
    assert ctl["og"].name == "random" and ctl["cynere"].name == "random" and ctl["zird"].name == "basic"


def test_unknown_controller_or_target_is_refused(capsys):
    assert main(["resolve", "duel", "--control", "rival=genius"]) == 2
    assert "no controller named 'genius'" in capsys.readouterr().err
    assert main(["resolve", "duel", "--control", "nobody=random"]) == 2
    assert "no side or character 'nobody'" in capsys.readouterr().err
    assert main(["resolve", "duel", "--control", "rival"]) == 2
    assert "expected SIDE=POLICY" in capsys.readouterr().err


def test_random_controller_only_picks_legal_options():
    scene = load_scene("warehouse_mobs")
    rnd = make_controller("random", 4)
    c = play(Conflict(scene, 4), {cid: rnd for cid in (ch.id for ch in scene.characters)})
    assert c.over


def test_console_script_module_runs():
    out = subprocess.run([sys.executable, "-m", "fate_env.cli", "resolve", "ghoul", "--seed", "2", "--quiet"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "Charles" in out.stdout


@pytest.mark.parametrize("rules", ["condensed", "core", "fate2", "fate3"])
def test_new_writes_a_commented_scene_that_loads_and_plays(tmp_path, capsys, rules):
    path = tmp_path / "my_fight"
    assert main(["new", str(path), "--rules", rules]) == 0
    written = tmp_path / "my_fight.yaml"
    text = written.read_text()
    assert text.count("#") > 20 and f"rules: {rules}" in text  # comments say what each field takes
    assert load_scene(written).rules.name == rules
    assert main(["resolve", str(written), "--seed", "2"]) == 0
    assert "Winner:" in capsys.readouterr().out


def test_new_refuses_to_overwrite_and_an_unknown_rule_set_writes_nothing(tmp_path, capsys):
    path = tmp_path / "mine.yaml"
    path.write_text("keep me")
    assert main(["new", str(path)]) == 2
    assert path.read_text() == "keep me" and "the file exists" in capsys.readouterr().err
    assert main(["new", str(path), "--force"]) == 0 and "zones:" in path.read_text()
    assert main(["new", str(tmp_path / "other.yaml"), "--rules", "fate9"]) == 2
    assert not (tmp_path / "other.yaml").exists() and "--rules: no rule set named 'fate9'" in capsys.readouterr().err
