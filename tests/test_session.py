"""fate-npc play: a scripted live session through a pipe, every GM power, save and resume."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from conftest import ROOT, confirm_mode, run_cli

from fate_env.live.session import Session, SessionLog, SessionSetup, parse_dice, run_session
from fate_env.rules.dice import DiceError


def session(text: str, scene: str = "duel", dice: str = "auto", controls=None, seed: int = 1) -> tuple[Session, str]:
    out = io.StringIO()
    s = run_session(SessionSetup(scene, seed, controls=controls or {}, dice=dice, autopilot=confirm_mode()),
                    io.StringIO(text), out)
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
    assert "Cynere decides (turn):" in r.stdout and "(Og: " in r.stdout and "Winner:" in r.stdout
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
    s, out = session("99\nattack:nobody\n1\n" + "auto\n" * 300, controls={"rival": "human"})
    assert "99 is not an option; choose 1 to" in out
    assert "'attack:nobody' is not an option" in out
    assert s.log.entries[0] == {"decision": 0}  # the first valid answer is the one recorded


def test_enter_takes_the_proposal_at_a_players_decision():
    """Enter alone answers a player's question with the option marked (proposed): the helper's choice, the
    same as 'auto' (issue 75)."""
    entered, out = session("\n" + "auto\n" * 300, controls={"rival": "human"})
    auto, _ = session("auto\n" * 300, controls={"rival": "human"})
    assert "[Enter: " in out and "(proposed)" in out
    assert "type the number of an option" not in out
    assert entered.log.entries[0]["decision"] == auto.log.entries[0]["decision"]


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
    s2 = Session(log, GM(), io.StringIO(), autopilot=confirm_mode())
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
    assert "the last answer is undone" in out
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
    s = run_session(SessionSetup("duel", 1, controls={"cynere": "basic"}, autosave=tmp_path / "auto.json",
                                 autopilot=confirm_mode()), Interrupting(), out)
    text = out.getvalue()
    assert text.count("(interrupted: nothing half-applied; the autopilot is paused") == 1
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


# -- issue 11: the session never loses a session or answers a stale decision ---------------------

def play_cli(args: list[str], text: str, tmp_path) -> subprocess.CompletedProcess:
    env = {**__import__("os").environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    return subprocess.run([sys.executable, "-m", "fate_env.cli", "play", *args], cwd=ROOT, input=text,
                          capture_output=True, text=True, timeout=120, env=env)


def test_after_undo_the_prompt_is_the_decision_now_pending(tmp_path):
    r = play_cli(["duel", "--seed", "1", "--confirm", "--ask-all"], "\n1\n/undo\n2\n", tmp_path)
    assert r.returncode == 0, r.stderr
    after = r.stdout.split("(the last answer is undone")[1]
    # the decision shown after the undo is Cynere's respond, and the 2 answers it (concede)
    assert after.index("Cynere decides (respond):") < after.index("Cynere concedes")
    assert "Enter to accept" not in after.split("Cynere decides (respond):")[0]


def test_undo_then_end_does_not_crash(tmp_path):
    r = play_cli(["duel", "--seed", "1", "--confirm"], "\n/undo\n/end\n1\n", tmp_path)
    assert r.returncode == 0 and "Traceback" not in r.stderr
    assert "(GM) ends the scene here" in r.stdout and "Winner: none" in r.stdout


def test_a_bad_save_path_is_one_line_and_the_session_goes_on(tmp_path):
    s, out = session(f"/save {tmp_path}/missing/s.json\n" + "auto\n" * 300, controls={"cynere": "basic"})
    assert "the folder" in out and "does not exist" in out and s.play.over


def test_resume_works_when_the_scene_file_changed_or_moved(tmp_path):
    scene = tmp_path / "my_duel.yaml"
    scene.write_text((ROOT / "configs" / "scenes" / "duel.yaml").read_text())
    save = tmp_path / "s.json"
    r = play_cli([str(scene), "--seed", "2", "--save", str(save)], "\n\n\n", tmp_path)
    assert r.returncode == 0, r.stderr
    live = Session(SessionLog.load(str(save)), io.StringIO(""), io.StringIO())
    scene.unlink()  # moved away
    r2 = play_cli(["--resume", str(save)], "", tmp_path)
    assert r2.returncode == 0 and "Traceback" not in r2.stderr
    again = Session(SessionLog.load(str(save)), io.StringIO(""), io.StringIO())
    assert json.dumps(again.play.log()) == json.dumps(live.play.log())


def test_resume_refuses_flags_that_contradict_the_save(tmp_path):
    save = tmp_path / "s.json"
    assert play_cli(["duel", "--seed", "2", "--save", str(save)], "\n", tmp_path).returncode == 0
    r = play_cli(["warehouse", "--resume", str(save), "--seed", "3", "--control", "rival=random",
                  "--rules", "core"], "", tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    for word in ("scene 'warehouse'", "--seed 3", "--rules core", "--control"):
        assert word in r.stderr
    assert play_cli(["--resume", str(save), "--seed", "2"], "", tmp_path).returncode == 0  # agreeing is fine


@pytest.mark.parametrize("damage", ["truncate", "bad_entry", "bad_seed", "binary"])
def test_an_edited_or_truncated_save_is_one_line(tmp_path, damage):
    save = tmp_path / "s.json"
    assert play_cli(["duel", "--seed", "2", "--save", str(save)], "\n\n\n", tmp_path).returncode == 0
    data = save.read_text()
    if damage == "truncate":
        save.write_text(data[: len(data) // 2])
    elif damage == "binary":
        save.write_bytes(b"\x00\xff\xfe" * 50)
    else:
        d = json.loads(data)
        if damage == "bad_entry":
            d["entries"][0] = {"decision": 99}
        else:
            d["seed"] = "one"
        save.write_text(json.dumps(d))
    r = play_cli(["--resume", str(save)], "", tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert str(save) in r.stderr or "entry" in r.stderr


def test_default_seed_is_fresh_and_printed_and_a_given_seed_replays(tmp_path):
    r1 = run_cli("resolve", "duel", "--quiet")
    seed = int(r1.stdout.split("(seed ")[1].split(":")[0])
    r2 = run_cli("resolve", "duel", "--quiet", "--seed", str(seed))
    assert r1.stdout.split("\n", 1)[1] == r2.stdout


def test_a_power_that_lists_the_pending_options_anew_is_never_answered_with_a_stale_one():
    """Found by the property below: at the rival's proposal to pay a fate point for an invoke, the GM
    takes its last fate point away; the invoke decision lists its options anew (the paid invokes go)
    and Enter used to apply the old proposal's index to the new list (IllegalChoice)."""
    lines = ["", "1", "", "1", "/fp blade -1", ""]

    class Table(io.StringIO):
        def readline(self, *a):
            return lines.pop(0) + "\n" if lines else ""
    out = io.StringIO()
    s = run_session(SessionSetup("duel", 9, controls={"cynere": "human"}, autosave=None, autopilot=confirm_mode()),
                    Table(), out)
    text = out.getvalue()
    fp = text.index("(GM) Sethra the Blade loses 1 fate point")
    assert "invoke Tempted by Shiny Things with a fate point" in text[:fp]  # the proposal before the power
    after = text[fp:]
    assert "(Sethra the Blade: " in after and "Tempted by Shiny Things with a fate point" not in after
    again = Session(s.log, io.StringIO(""), io.StringIO())
    assert json.dumps(again.play.log()) == json.dumps(s.play.log())


COMMANDS = ["", "", "1", "2", "3", "auto", "o", "99", "attack:x", "/undo", "/state", "/help", "/bogus",
            "/aspect add Smoke Everywhere", "/aspect add Fog @steps", "/aspect remove 7", "/aspect remove x",
            "/compel cynere 1", "/compel blade 2 refuse", "/compel", "/fp cynere +1", "/fp blade -1", "/fp cynere",
            "/concede blade", "/concede cynere", "/concede nobody", "/end", "/save {tmp}/s.json",
            "/save {tmp}/missing/s.json", "^C"]


def _hypothesis_session_test():
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    @settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.lists(st.sampled_from(COMMANDS), max_size=40), st.integers(0, 20))
    def test_every_gm_power_in_any_order_never_loses_the_session(tmp_path, commands, seed):
        """Any sequence of answers, GM powers, undos, saves and Ctrl-C: no crash, and the autosave
        rebuilds the session exactly (it never loses more than the step in flight)."""
        lines = [c.replace("{tmp}", str(tmp_path)) for c in commands]

        class Table(io.StringIO):
            def readline(self, *a):
                if not lines:
                    return ""
                line = lines.pop(0)
                if line == "^C":
                    raise KeyboardInterrupt
                return line + "\n"
        auto = tmp_path / f"auto-{seed}.json"
        out = io.StringIO()
        s = run_session(SessionSetup("duel", seed, controls={"cynere": "human"}, autosave=auto,
                                     autopilot=confirm_mode()), Table(), out)
        assert "Traceback" not in out.getvalue()
        if s.log.entries:
            again = Session(SessionLog.load(str(auto)), io.StringIO(""), io.StringIO())
            assert json.dumps(again.play.log()) == json.dumps(s.play.log())
    return test_every_gm_power_in_any_order_never_loses_the_session


test_every_gm_power_in_any_order_never_loses_the_session = _hypothesis_session_test()


def test_a_long_random_command_sequence_through_a_real_pipe(tmp_path):
    import random
    rng = random.Random(11)
    text = "\n".join(rng.choice([c for c in COMMANDS if c != "^C"]).replace("{tmp}", str(tmp_path))
                     for _ in range(150)) + "\n"
    save = tmp_path / "end.json"
    r = play_cli(["duel", "--seed", "4", "--save", str(save)], text, tmp_path)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    again = Session(SessionLog.load(str(save)), io.StringIO(""), io.StringIO())
    assert again.play.over == ("Winner:" in r.stdout)  # the save is the session as it stood at the end


def test_the_terminal_prints_a_rehearsal_s_line_before_it_waits_for_it(monkeypatch):
    # the ghoul acts first: its side rehearses before the table's first question (seconds on the
    # reference engine); the terminal has printed why before the rehearsal starts, not after
    import agents.learned as learned
    import agents.rehearsal as rehearsal
    monkeypatch.setattr(learned, "_LINES", {})
    out, printed = io.StringIO(), []
    real = rehearsal.rehearse

    def watched(*args, **kw):
        printed.append(out.getvalue())
        return real(*args, **kw)
    monkeypatch.setattr(rehearsal, "rehearse", watched)
    run_session(SessionSetup("ghoul", 1, controls={"monsters": "learned"}, autopilot=confirm_mode()), io.StringIO(""),
                out)
    assert len(printed) == 1
    last = printed[0].rstrip("\n").split("\n")[-1]
    assert "tries this scene out for The Ghoul before it plays" in last, printed[0][-300:]
    assert "rehearsed this scene" in out.getvalue() and out.getvalue().count("tries this scene out") == 1
