"""fate-npc play: a scripted live session through a pipe, every GM power, save and resume."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from conftest import ROOT

from fate_env.session import Session, SessionLog, parse_dice, run_session
from fate_env.rules.dice import DiceError


def session(text: str, scene: str = "duel", dice: str = "auto", controls=None, seed: int = 1) -> tuple[Session, str]:
    out = io.StringIO()
    s = run_session(scene, seed, controls or {}, dice, None, None, io.StringIO(text), out)
    return s, out.getvalue()


def final_state(s: Session) -> str:
    return json.dumps({"outcome": s.play.outcome.to_json() if s.play.outcome else None,
                       "log": [{k: v for k, v in e.items() if k != "reason"} for e in s.play.log()]})


def test_a_scripted_warehouse_session_through_a_pipe_reaches_the_end_and_replays(tmp_path):
    """The PCs typed in (here: 'auto' for each), the NPCs by the tactician; the saved log replays."""
    save = tmp_path / "session.json"
    r = subprocess.run([sys.executable, "-m", "fate_env.cli", "play", "warehouse", "--control", "smugglers=tactician",
                        "--seed", "3", "--save", str(save)], cwd=ROOT, input="auto\n" * 600, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "Cynere decides (turn):" in r.stdout and "[Og:" in r.stdout and "Winner:" in r.stdout
    log = SessionLog.load(str(save))
    replayed = Session(log, io.StringIO(""), io.StringIO())
    assert replayed.play.over and replayed.play.outcome.winner is not None
    live, _ = session("auto\n" * 600, scene="warehouse", controls={"smugglers": "tactician"}, seed=3)
    assert final_state(replayed) == final_state(live)  # the saved log replays to the same final state
    assert [f.fate_points for f in replayed.play.f.values()] == [f.fate_points for f in live.play.f.values()]
    r2 = subprocess.run([sys.executable, "-m", "fate_env.cli", "play", "--resume", str(save)], cwd=ROOT, input="",
                        capture_output=True, text=True, timeout=120)
    assert r2.returncode == 0 and "Winner:" in r2.stdout


def test_bad_input_re_prompts_with_the_reason_and_changes_nothing():
    s, out = session("99\nattack:nobody\n\n1\n" + "auto\n" * 300, controls={"rival": "human"})
    assert "99 is not an option; choose 1 to" in out
    assert "'attack:nobody' is not an option" in out
    assert "type the number of an option" in out
    assert s.log.entries[0] == {"decision": 0}  # the first valid answer is the one recorded


def test_physical_dice_are_asked_for_pc_rolls_and_replayed():
    # Cynere (PC) attacks first in the duel? the rival opens: accept its choices until Cynere rolls
    text = "auto\n" * 3 + "+ + x\n" + "++0-\n" + "auto\n" * 10
    s, out = session(text, dice="physical", seed=2)
    assert "four faces (+ - 0 +) or a total" in out
    assert "'++x' is not" in out or "expected four faces" in out
    entries = [e for e in s.log.entries if "dice" in e]
    assert entries and entries[0]["dice"] == [[1, 1, 0, -1]]
    again = Session(s.log, io.StringIO(""), io.StringIO())
    assert json.dumps(again.play.log()) == json.dumps(s.play.log())


def test_parse_dice():
    assert parse_dice("+ - 0 +") == (1, -1, 0, 1)
    assert sum(parse_dice("-3")) == -3 and sum(parse_dice("2")) == 2
    with pytest.raises(DiceError):
        parse_dice("+ + +")
    with pytest.raises(DiceError):
        parse_dice("7")


def test_gm_overrides_an_npc_decision_and_picks_who_goes_next():
    s, out = session("o\n" + "pass\n" + "auto\n" * 200, seed=1)
    assert "GM's choice>" in out
    first = s.play.events
    made = [e for e in first if type(e).__name__ == "DecisionMade"]
    assert made[0].actor == "blade" and made[0].choice.__class__.__name__ == "Pass"
    assert made[0].reason == "the GM's call"
    # popcorn: the GM picks who goes next in place of an NPC, the same way
    class GM(io.StringIO):
        session = None
        overridden = 0

        def readline(self, *a):
            d = GM.session.play.pending
            if d is not None and d.kind == "next" and GM.overridden < 2:
                GM.overridden += 1
                return "o\n" if GM.overridden == 1 else "1\n"
            return "\n"
    log = SessionLog("warehouse", None, 4, {"pcs": "basic", "smugglers": "tactician"})
    s2 = Session(log, GM(), io.StringIO())
    GM.session = s2
    s2.run()
    picks = [e for e in s2.play.events if type(e).__name__ == "DecisionMade" and e.kind == "next"]
    assert any(e.reason == "the GM's call" and e.index == 0 for e in picks)


def test_gm_aspects_compels_fate_points_and_end():
    text = ("/aspect add Smoke Everywhere @steps\n/state\n/aspect remove 5\n/aspect remove 9\n/compel cynere 1\n"
            "/compel cynere 2 refuse\n/fp cynere +2\n/fp blade -1\n/fp cynere -99\n/end\n")
    s, out = session(text, seed=1)
    c = s.play
    powers = [(e.power, e.character, e.amount) for e in c.events if type(e).__name__ == "GmAction"]
    assert powers[0][0] == "add_aspect" and "aspect #" in out and "Smoke Everywhere" in out
    assert ("compel", "cynere", 1) in powers and ("compel", "cynere", -1) in powers
    assert ("fate_points", "cynere", 2) in powers and ("fate_points", "blade", -1) in powers
    assert "has only" in out  # -99 refused with the reason, nothing changed
    assert powers[-1][0] == "end" and c.over and c.outcome.unresolved
    assert c.f["cynere"].fate_points == 3 + 1 - 1 + 2
    assert "aspect 5 is not a situation aspect" in out  # Sethra's trouble: a character aspect stays
    assert powers[1][0] == "remove_aspect" and not any(a.name == "Smoke Everywhere" for a in c.aspects.values())


def test_undo_takes_back_the_last_decision():
    s, out = session("\n" + "1\n" + "/undo\n" + "/state\n" + "auto\n" * 200, seed=1)
    assert "the last decision is undone" in out
    # the undone decision is gone from the log; the replay matches a fresh session of the same entries
    again = Session(s.log, io.StringIO(""), io.StringIO())
    assert final_state(again) == final_state(s)


def test_save_and_resume_rebuild_the_exact_state(tmp_path):
    path = tmp_path / "half.json"
    s, _ = session("\n" * 4 + f"/save {path}\n", seed=5)
    resumed = Session(SessionLog.load(str(path)), io.StringIO(""), io.StringIO())
    assert json.dumps(resumed.play.log()) == json.dumps(s.play.log())
    assert resumed.play.pending.kind == s.play.pending.kind


def test_ctrl_c_says_so_in_one_line_and_the_session_goes_on(tmp_path):
    class Interrupting(io.StringIO):
        calls = 0

        def readline(self, *a):
            Interrupting.calls += 1
            if Interrupting.calls == 2:
                raise KeyboardInterrupt
            return "" if Interrupting.calls > 400 else "\n"
    out = io.StringIO()
    s = run_session("duel", 1, {"cynere": "basic"}, "auto", None, None, Interrupting(), out,
                    autosave=tmp_path / "auto.json")
    text = out.getvalue()
    assert text.count("(interrupted: nothing half-applied; the session goes on.") == 1
    assert s.play.over  # it went on to the end
    assert SessionLog.load(str(tmp_path / "auto.json")).entries == s.log.entries


def test_typed_pc_choices_on_the_warehouse_reach_the_end_and_replay(tmp_path):
    """Each PC decision is typed as an option number (the one `basic` would pick, so the fight
    goes somewhere); each NPC choice (the tactician's) is accepted with Enter."""
    from agents.base import make_controller
    typist = make_controller("basic", 0)

    class Table(io.StringIO):
        session = None
        typed = 0

        def readline(self, *a):
            c = Table.session.play
            d = c.pending
            if d is not None and d.actor in Table.session.humans:
                Table.typed += 1
                return f"{typist.choose(c, d)[0] + 1}\n"
            return "\n"
    log = SessionLog("warehouse", None, 8, {"smugglers": "tactician"})
    live = Session(log, Table(), io.StringIO())
    Table.session = live
    live.run()
    assert live.play.over and Table.typed > 10
    path = tmp_path / "typed.json"
    live.save(str(path))
    again = Session(SessionLog.load(str(path)), io.StringIO(""), io.StringIO())
    assert final_state(again) == final_state(live)
