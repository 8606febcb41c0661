"""fate-npc replay: a resolve --json log or a session save told again, and --markdown's fight
report (issue 16); every shipped scene, and logs that no longer replay are refused."""

from __future__ import annotations

import io
import json

import pytest
from conftest import SHIPPED

from fate_env.cli import main
from fate_env.content.narrate import side_verb, side_words
from fate_env.content.scenes import load_scene


def _resolve(tmp_path, scene: str, seed: int, capsys, rules: str | None = None) -> str:
    args = ["resolve", scene, "--seed", str(seed), "--json"] + (["--rules", rules] if rules else [])
    assert main(args) == 0
    path = tmp_path / f"{scene}.json"
    path.write_text(capsys.readouterr().out)
    return str(path)


@pytest.mark.parametrize("scene", SHIPPED)
def test_every_shipped_scene_replays_as_a_markdown_report(tmp_path, scene, capsys):
    log = _resolve(tmp_path, scene, 7, capsys)
    outcome = json.loads(open(log).read())["outcome"]
    assert main(["replay", log, "--markdown"]) == 0
    report = capsys.readouterr().out
    s = load_scene(scene)
    assert report.startswith(f"# {s.title}: fight report\n")
    assert "## Who fought" in report and "## What happened" in report and "## Outcome" in report
    for c in s.characters:
        assert f"| {c.name.replace('_', chr(92) + '_')}" in report
    winner = outcome["winner"]
    said = f"{side_words(s, winner)} {side_verb(s, winner, 'win', 'wins')}" if winner else None
    assert (said or ("unresolved" if outcome["unresolved"] else "no side wins")) in report.split("\n")[2].replace("\\_", "_")


def test_replay_tells_the_same_story_as_resolve(tmp_path, capsys):
    assert main(["resolve", "duel", "--seed", "4"]) == 0
    told = capsys.readouterr().out
    log = _resolve(tmp_path, "duel", 4, capsys)
    assert main(["replay", log]) == 0
    assert capsys.readouterr().out == told


def test_a_session_save_replays_with_its_gm_powers_and_names(tmp_path, capsys):
    from fate_env.live.session import SessionSetup, run_session
    save = tmp_path / "night.json"
    text = "/add guard @dock\n" + "auto\n" * 40 + "Cracked Collarbone\n" + "auto\n" * 900
    s = run_session(SessionSetup("warehouse", 3, controls={"smugglers": "tactician"}, save=str(save), autosave=None),
                    io.StringIO(text), io.StringIO())
    assert main(["replay", str(save), "--markdown", "--out", str(tmp_path / "report.md")]) == 0
    report = (tmp_path / "report.md").read_text()
    assert "| Guard |" in report and "(GM) Guard joins the fight in Loading dock" in report
    named = [a.name for a in s.play.aspects.values() if a.kind == "consequence"]
    assert named and all(n in report for n in named)


def test_a_log_that_no_longer_replays_is_refused_with_the_reason(tmp_path, capsys):
    log = _resolve(tmp_path, "duel", 4, capsys)
    data = json.loads(open(log).read())
    data["choices"][3] = 999
    bad = tmp_path / "edited.json"
    bad.write_text(json.dumps(data))
    assert main(["replay", str(bad)]) == 2
    assert "no longer replays" in capsys.readouterr().err
    data = json.loads(open(log).read())
    rolled = next(e for e in data["events"] if e["type"] == "Rolled")
    rolled["faces"] = [1, 1, 1, 1] if rolled["faces"] != [1, 1, 1, 1] else [-1, -1, -1, -1]
    bad.write_text(json.dumps(data))
    assert main(["replay", str(bad)]) == 2
    assert "gives another fight than the one logged" in capsys.readouterr().err
    (tmp_path / "junk.json").write_text("{\"hello\": 1}")
    assert main(["replay", str(tmp_path / "junk.json")]) == 2
    assert "not a fight log" in capsys.readouterr().err


def test_a_resolve_log_keeps_its_scene_so_the_file_may_go(tmp_path, capsys):
    from fate_env.content.scenes import read_scene_data
    import yaml
    _, data = read_scene_data("duel")
    own = tmp_path / "my_duel.yaml"
    own.write_text(yaml.safe_dump(data))
    assert main(["resolve", str(own), "--seed", "2", "--json"]) == 0
    log = tmp_path / "log.json"
    log.write_text(capsys.readouterr().out)
    own.unlink()
    assert main(["replay", str(log), "--markdown"]) == 0
    assert "fight report" in capsys.readouterr().out
