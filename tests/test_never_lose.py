"""Nothing the user kept is overwritten or lost without saying so (issue 33; docs/safety.md):
outputs are refused when they exist (``--force`` replaces them), are never one of the command's
inputs, are written whole or not at all; a session save is a kind of its own with a checksum and a
version, resuming never writes over the file resumed from, autosaves are unique, and two sessions
never write one file."""

from __future__ import annotations

import io
import json
import os

import pytest

from conftest import ROOT, confirm_mode

from fate_env.cli import main
from fate_env.content.paths import FileLock, OutputPathError, atomic_open, check_output
from fate_env.live.session import Session, SessionError, SessionLog, SessionSetup, default_autosave, run_session

FOUNDRY = os.path.join(os.path.dirname(__file__), "data", "import")


def _a_save(tmp_path, name="kept.json", seed=3) -> str:
    path = tmp_path / name
    out = io.StringIO()
    run_session(SessionSetup("duel", seed, controls={"cynere": "human"}, save=str(path), autosave=None,
                             autopilot=confirm_mode()), io.StringIO("auto\n" * 4), out)
    assert path.exists(), out.getvalue()
    return str(path)


def _err(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err  # one line
    return err


# -- outputs --------------------------------------------------------------------------------
def test_an_existing_output_is_replaced_only_with_force(tmp_path, capsys):
    src = next(os.path.join(FOUNDRY, f) for f in sorted(os.listdir(FOUNDRY)) if f.endswith(".json"))
    out = tmp_path / "chars.yaml"
    out.write_text("mine\n")
    assert main(["import", src, "--out", str(out)]) == 2
    assert "the file exists" in _err(capsys) and out.read_text() == "mine\n"
    assert main(["import", src, "--out", str(out), "--force"]) == 0
    assert out.read_text() != "mine\n" and "characters:" in out.read_text()


def test_an_output_is_never_the_file_the_command_reads_even_with_force(tmp_path, capsys):
    log = _a_save(tmp_path)
    before = open(log, "rb").read()
    assert main(["replay", log, "--out", log, "--force"]) == 2
    assert "is the file this command reads" in _err(capsys)
    assert main(["play", "--resume", log, "--save", log, "--force"]) == 2
    assert "is the file this command reads" in _err(capsys)
    assert open(log, "rb").read() == before


def test_bench_outputs_exist_check_before_any_episode(tmp_path, capsys):
    report = tmp_path / "bench.json"
    report.write_text("{}")
    assert main(["bench", "duel", "-n", "2", "--engine", "reference", "--json", str(report)]) == 2
    assert "--json" in _err(capsys) and report.read_text() == "{}"
    assert main(["bench", "duel", "-n", "2", "--engine", "reference", "--json", str(report), "--force"]) == 0
    assert json.loads(report.read_text())["episodes_per_variant"] == 2


def test_a_write_interrupted_midway_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "report.csv"
    target.write_text("old\n")
    with pytest.raises(KeyboardInterrupt):
        with atomic_open(target) as fh:
            fh.write("half of a new fi")
            raise KeyboardInterrupt
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.csv"]


def test_check_output_names_the_problem(tmp_path):
    with pytest.raises(OutputPathError, match="does not exist"):
        check_output(tmp_path / "no" / "x.json", "--out")
    with pytest.raises(OutputPathError, match="is a folder"):
        check_output(tmp_path, "--out")


def test_train_refuses_an_existing_model_before_training(tmp_path, capsys):
    model = tmp_path / "model.zip"
    model.write_bytes(b"mine")
    assert main(["train", "duel", "--out", str(model), "--timesteps", "10"]) == 2
    assert "the file exists" in _err(capsys) and model.read_bytes() == b"mine"


def test_new_never_replaces_a_file_without_force(tmp_path, capsys):
    scene = tmp_path / "mine.yaml"
    scene.write_text("kept: true\n")
    assert main(["new", str(scene)]) == 2
    assert "the file exists" in _err(capsys) and scene.read_text() == "kept: true\n"


# -- session saves -------------------------------------------------------------------------
def test_play_save_refuses_an_existing_file_without_force(tmp_path, capsys):
    kept = tmp_path / "evening.json"
    kept.write_text("{}")
    assert main(["play", "duel", "--seed", "1", "--save", str(kept)]) == 2
    assert "the file exists" in _err(capsys) and kept.read_text() == "{}"


def test_resuming_never_writes_the_file_resumed_from(tmp_path, monkeypatch):
    log = _a_save(tmp_path)
    before = open(log, "rb").read()
    out = io.StringIO()
    s = run_session(SessionSetup(None, 0, resume=log), io.StringIO("auto\n" * 6 + "/quit\n"), out)
    assert open(log, "rb").read() == before  # the file resumed from, byte for byte
    assert s.autosave_path is not None and str(s.autosave_path) != log and s.autosave_path.exists()
    assert len(SessionLog.load(str(s.autosave_path)).entries) > len(SessionLog.load(log).entries)


def test_autosaves_are_unique_per_session():
    """Two sessions of one scene and seed (the old key) each keep their own autosave."""
    assert default_autosave("warehouse", 5) != default_autosave("warehouse", 5)
    first = run_session(SessionSetup("duel", 5, controls={"cynere": "human"}, autopilot=confirm_mode()),
                        io.StringIO("auto\n" * 3 + "/quit\n"), io.StringIO())
    second = run_session(SessionSetup("duel", 5, controls={"cynere": "human"}, autopilot=confirm_mode()),
                         io.StringIO("auto\n/quit\n"), io.StringIO())
    assert first.autosave_path != second.autosave_path
    assert len(SessionLog.load(str(first.autosave_path)).entries) == 3
    assert len(SessionLog.load(str(second.autosave_path)).entries) == 1


def test_a_json_of_another_kind_is_not_resumed(tmp_path, capsys):
    assert main(["resolve", "duel", "--seed", "2", "--json"]) == 0
    log = tmp_path / "resolved.json"
    log.write_text(capsys.readouterr().out)
    before = log.read_bytes()
    assert main(["play", "--resume", str(log)]) == 2
    assert "not a session save" in _err(capsys) and log.read_bytes() == before
    report = tmp_path / "bench.json"
    assert main(["bench", "duel", "-n", "2", "--engine", "reference", "--json", str(report)]) == 0
    capsys.readouterr()
    assert main(["play", "--resume", str(report)]) == 2
    assert "not a session save" in _err(capsys)


def test_an_edited_die_or_decision_is_refused_by_the_checksum(tmp_path):
    data = json.loads(open(_a_save(tmp_path)).read())
    assert data["checksum"].startswith("sha256:") and data["kind"] == "fate-npc session"
    for edit in (lambda d: d["entries"][0].__setitem__("dice", [[1, 1, 1, 1]]),
                 lambda d: d["entries"][0].__setitem__("decision", d["entries"][0]["decision"] + 1),
                 lambda d: d.__setitem__("seed", d["seed"] + 1)):
        edited = json.loads(json.dumps(data))
        edit(edited)
        with pytest.raises(SessionError, match="checksum does not match"):
            SessionLog.from_json(edited, "edited.json")
    assert SessionLog.from_json(data, "kept.json").entries == data["entries"]


def test_the_checksum_catches_damage_not_a_deliberate_edit(tmp_path):
    """What docs/safety.md says the checksum proves, and what it does not: it is unkeyed (a save moves
    between machines), so an edit with the checksum worked out again replays as another fight."""
    from fate_env.live.session import checksum
    data = json.loads(open(_a_save(tmp_path)).read())
    edited = json.loads(json.dumps(data))
    edited["seed"] += 1
    edited["checksum"] = checksum({k: v for k, v in edited.items() if k != "checksum"})
    assert SessionLog.from_json(edited, "forged.json").seed == data["seed"] + 1
    docs = (ROOT / "docs" / "safety.md").read_text(encoding="utf-8")
    assert "not a signature" in docs and "unedited" not in docs


@pytest.mark.parametrize("version", [1, 4, 99, "3", True, None])
def test_a_save_of_an_unknown_version_is_refused(tmp_path, version):
    data = json.loads(open(_a_save(tmp_path)).read())
    data["version"] = version
    with pytest.raises(SessionError, match="version|not a session save"):
        SessionLog.from_json(data, "future.json")


def test_a_version_2_save_still_resumes(tmp_path):
    data = json.loads(open(_a_save(tmp_path)).read())
    old = {k: v for k, v in data.items() if k not in ("kind", "checksum")}
    old["version"] = 2
    new = Session(SessionLog.from_json(data, "new.json"), io.StringIO(""), io.StringIO())
    resumed = Session(SessionLog.from_json(old, "old.json"), io.StringIO(""), io.StringIO())
    assert resumed.play.log() == new.play.log() and len(resumed.log.entries) == 4


def test_two_sessions_never_write_one_save(tmp_path):
    target = tmp_path / "shared.json"
    with FileLock(target, "--save"):
        with pytest.raises(OutputPathError, match="another fate-npc session is writing it"):
            run_session(SessionSetup("duel", 1, save=str(target)), io.StringIO(""), io.StringIO())
        out = io.StringIO()
        s = run_session(SessionSetup("duel", 1, controls={"cynere": "human"}, autosave=None),
                        io.StringIO(f"/save {target}\n"), out)
        assert "another fate-npc session is writing it" in out.getvalue() and not target.exists()
        assert s.locks == {}
    assert not (tmp_path / ".shared.json.lock").exists()


def test_a_lock_held_by_a_killed_process_is_free_again(tmp_path):
    import subprocess
    import sys
    target = tmp_path / "crashed.json"
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; sys.path.insert(0, '.');"
                               "from fate_env.content.paths import FileLock; held = FileLock(sys.argv[1]); held.acquire();"
                               "print('held', flush=True); time.sleep(60)", str(target)],
                              stdout=subprocess.PIPE, text=True, cwd=os.path.dirname(os.path.dirname(__file__)))
    assert holder.stdout.readline().strip() == "held"
    with pytest.raises(OutputPathError, match=f"process {holder.pid}"):
        FileLock(target).acquire()
    holder.kill()
    holder.wait()
    with FileLock(target):
        pass


def test_slash_save_asks_before_replacing_a_file_the_session_did_not_write(tmp_path):
    foreign = tmp_path / "notes.json"
    foreign.write_text("my notes")
    out = io.StringIO()
    run_session(SessionSetup("duel", 1, controls={"cynere": "human"}, autosave=None),
                io.StringIO(f"/save {foreign}\nn\n/save {foreign}\ny\n"), out)
    assert "replace it? [y/N]" in out.getvalue() and "kept as it was" in out.getvalue()
    assert SessionLog.load(str(foreign)).scene == "duel"  # the second answer said yes


@pytest.mark.parametrize("command", [["replay"], ["import"], ["play", "--resume"]])
def test_deep_json_is_one_line_not_a_recursion_error(tmp_path, capsys, command):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    assert main([*command, str(deep)]) == 2
    assert "nested deeper than" in _err(capsys)
