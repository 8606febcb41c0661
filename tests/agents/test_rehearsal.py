"""``learned`` picks its line for a scene by rehearsing it (agents/rehearsal.py): the line kept is the
one that won most of the rehearsal's fights, counted here independently on the reference engine;
the fast core's rehearsal is the reference's, fight for fight; the early stop never changes the
choice; a file's ``rehearse`` entry is checked in one line; ``learn --rehearse`` writes it."""

from __future__ import annotations

import json
import zipfile

import pytest
from hypothesis import given, settings, strategies as st

from agents import rehearsal as R
from agents.base import controllers_for, make_controller, play
from agents.learned import LearnedController, shipped_path
from agents.registry import UnknownController
from fate_env.content.scenes import load_scene
from fate_env.environment.entity_policy import EntityPolicy, write
from fate_env.rules.engine import start
from tests.conftest import run_cli

#: a small rehearsal, so the tests count its fights themselves on the reference engine
SMALL = {"lines": ["spender", "stacker"], "foes": ["basic", "brute"], "fights": 3}
#: the same with a script played outright beside the network's two lines
OUTRIGHT = {**SMALL, "outright": ["counter"]}


def _file(tmp_path, rehearse=SMALL, **meta) -> str:
    """The shipped network in a file of its own, with ``rehearse`` (and any other meta) as given."""
    shipped = EntityPolicy(shipped_path())
    info = {k: v for k, v in shipped.meta.items() if k not in ("format", "features", "limits", "rehearse")}
    info.update(meta)
    if rehearse is not None:
        info["rehearse"] = rehearse
    path = tmp_path / "lines.zip"
    write(path, shipped.w, info)
    return str(path)


def _wins_by_hand(scene, side: str, spec: str, plan: R.Rehearsal) -> list[tuple[bool, ...]]:
    """Each rehearsal fight's result per line, played here with controllers pinned to the line."""
    rows = []
    for i, seed in enumerate(plan.seeds()):
        row = []
        for line in plan.candidates:
            controls = {c.id: spec if c.side == side else plan.foe(i) for c in scene.characters}
            ctl = controllers_for(scene, controls, seed=seed)
            for c in scene.characters:
                if c.side == side:
                    ctl[c.id].pin(line)
            row.append(play(start(scene, seed), ctl).outcome.winner == side)
        rows.append(tuple(row))
    return rows


@pytest.mark.parametrize("name, side, entry", [("duel", "rival", SMALL), ("ghoul", "monsters", OUTRIGHT)])
def test_the_line_kept_is_the_one_that_won_most_of_its_fights(tmp_path, name, side, entry):
    spec = f"learned:{_file(tmp_path, rehearse=entry)}"
    ctrl = make_controller(spec, 0)
    scene = load_scene(name)
    choice = ctrl.line_for(scene, side, spec)
    lines = ctrl.rehearsal.candidates
    rows = _wins_by_hand(scene, side, spec, ctrl.rehearsal)
    wins = [sum(r[j] for r in rows) for j in range(len(lines))]
    assert choice.line == lines[max(range(len(lines)), key=lambda j: (wins[j], -j))]
    # the wins it reports are those of the fights it played before the rest could not change it
    assert choice.wins == {line: sum(r[j] for r in rows[:choice.fights]) for j, line in enumerate(lines)}


@pytest.mark.parametrize("name, side, entry", [("duel", "rival", SMALL), ("warehouse", "smugglers", SMALL),
                                               ("ghoul", "monsters", OUTRIGHT)])
def test_the_fast_cores_rehearsal_is_the_references_fight_for_fight(tmp_path, monkeypatch, name, side, entry):
    pytest.importorskip("numba")
    from fate_env import fast
    spec = f"learned:{_file(tmp_path, rehearse=entry)}"
    plan = make_controller(spec, 0).rehearsal
    scene = load_scene(name)
    # a rehearsal never waits for the kernel's compile (the test below): here the test waits for it, so
    # the rehearsal is told every entry is ready and the first fight compiles (or loads) what it plays
    monkeypatch.setattr(fast, "compiled", lambda entry=None: True)
    on_fast = R._fast_results(scene, side, spec, plan)
    assert on_fast is not None
    assert list(on_fast) == list(R._reference_results(scene, side, spec, plan))


@pytest.mark.parametrize("ready", [(), ("play_batch",)])
def test_a_rehearsal_does_not_wait_for_the_kernel_to_compile(tmp_path, monkeypatch, ready):
    """Nothing compiled, or bench's entry (play_batch) but not the one the rehearsal plays (play_learned):
    the rehearsal plays on the reference rather than wait on a compile another run may hold."""
    from fate_env import fast
    monkeypatch.setattr(fast, "compiled", lambda entry=None: "play_batch" in ready and entry is None)
    monkeypatch.setattr(fast, "available", lambda: True)
    spec = f"learned:{_file(tmp_path)}"
    assert R._fast_results(load_scene("duel"), "rival", spec, make_controller(spec, 0).rehearsal) is None


def test_a_learned_seat_plays_beside_its_sides_line(tmp_path):
    spec = f"learned:{_file(tmp_path)}"
    scene = load_scene("duel")
    ctrl = make_controller(spec, 0)
    kept = ctrl.line_for(scene, "rival", spec).line
    c = start(scene, 11)
    checked = 0
    while c.pending is not None and checked < 6:
        d = c.pending
        if c.side_of(d.actor) == "rival" and ctrl.decides(d):
            _, suggested, _ = ctrl.scores(c, d)
            assert suggested == make_controller(kept, 0).choose(c, d)[0]
            assert f"guided by the {kept} script" in ctrl.choose(c, d)[1]
            checked += 1
        c.step(make_controller("basic", 0).choose(c, d)[0])
    assert checked


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.booleans(), st.booleans()), min_size=1, max_size=24), st.integers(1, 3))
def test_stopping_early_never_changes_the_line(rows, lines):
    plan = R.Rehearsal(("spender", "stacker", "brute")[:lines], ("basic",), len(rows))
    full = [sum(r[j] for r in rows) for j in range(lines)]
    best = max(range(lines), key=lambda j: (full[j], -j))
    got = R.decide(plan, iter([r[:lines] for r in rows]))
    assert got.line == plan.lines[best]
    assert got.fights <= len(rows)
    assert got.wins == {line: sum(r[j] for r in rows[:got.fights]) for j, line in enumerate(plan.lines)}


def test_a_file_without_lines_plays_its_helper_and_never_rehearses(tmp_path, monkeypatch):
    monkeypatch.setattr(R, "rehearse", lambda *a: pytest.fail("rehearsed a file with one line"))
    ctrl = LearnedController(0, path=_file(tmp_path, rehearse=None))
    assert ctrl.lines == ("spender",) and ctrl.line_for(load_scene("duel"), "rival").line == "spender"


def _pick_counter(monkeypatch):
    monkeypatch.setattr(R, "rehearse", lambda scene, side, spec, plan: R.Choice(
        "counter", dict.fromkeys(plan.candidates, 0), 1))


def test_an_outright_line_plays_the_script_and_never_asks_the_network(tmp_path, monkeypatch):
    """On a line played outright every decision of the side is the script's, said in the reason,
    and the network is never run."""
    _pick_counter(monkeypatch)
    spec = f"learned:{_file(tmp_path, rehearse=OUTRIGHT)}"
    ctrl = make_controller(spec, 0)
    monkeypatch.setattr(ctrl.policy, "logits", lambda rows: pytest.fail("the network ran on an outright line"))
    scene = load_scene("ghoul")
    c, counter, seen = start(scene, 3), make_controller("counter", 0), 0
    while c.pending is not None:
        d = c.pending
        if c.side_of(d.actor) == "monsters":
            index, why = ctrl.choose(c, d)
            assert index == counter.choose(c, d)[0]
            seen += ctrl.decides(d) and "plays the counter script alone" in why
        else:
            index, _ = make_controller("basic", 0).choose(c, d)
        c.step(index)
    assert seen


def test_bench_plays_an_outright_line_on_the_fast_core_as_the_script_itself(tmp_path, monkeypatch):
    pytest.importorskip("numba")
    from fate_env import fast
    from fate_env.evaluation.learned_fast import fast_outcomes, kernel_controls
    _pick_counter(monkeypatch)
    spec = f"learned:{_file(tmp_path, rehearse=OUTRIGHT)}"
    scene = load_scene("ghoul")
    controls = {c.id: spec if c.side == "monsters" else "basic" for c in scene.characters}
    scripts, asks, why = kernel_controls(controls, scene)
    assert not why and scripts["ghoul"] == "counter" and asks["ghoul"] == ()
    plain = fast.FastCore(scene, {**controls, "ghoul": "counter"}).outcomes(list(range(30)))
    got = fast_outcomes(scene, controls, list(range(30)))
    assert [o.to_json() for o in got] == [o.to_json() for o in plain]


@pytest.mark.parametrize("entry, says", [
    ({**OUTRIGHT, "outright": ["stacker"]}, "rehearse.outright: 'stacker' is also one of the lines"),
    ({**OUTRIGHT, "outright": ["countr"]}, "rehearse.outright: 'countr' is not a script the fast core plays "
                                           "(did you mean 'counter'?)"),
    ({**OUTRIGHT, "outright": "counter"}, "rehearse.outright: expected a list of scripted policies"),
    ({**SMALL, "outrigth": ["counter"]}, "rehearse.outrigth: unknown field"),
    ({**SMALL, "lines": ["stacker", "spender"]}, "rehearse.lines: the first line is the file's helper"),
    ({**SMALL, "lines": ["spender", "search"]}, "rehearse.lines: 'search' is not a script the fast core plays"),
    ({**SMALL, "foes": ["basic", "stackr"]}, "rehearse.foes: 'stackr' is not a script the fast core plays "
                                             "(did you mean 'stacker'?)"),
    ({**SMALL, "foes": []}, "rehearse.foes: expected a list of scripted policies"),
    ({**SMALL, "foes": ["basic", "basic"]}, "names one policy twice"),
    ({**SMALL, "fights": 0}, "rehearse.fights: got 0;"),
    ({**SMALL, "fights": True}, "rehearse.fights: got True;"),
    ({**SMALL, "fights": 10_000}, "at most 4096 in all"),
    (["spender"], "rehearse: expected a mapping"),
])
def test_a_bad_rehearse_entry_is_refused_in_one_line(tmp_path, entry, says):
    path = _file(tmp_path, rehearse=entry)
    with pytest.raises(UnknownController) as got:
        make_controller(f"learned:{path}", 0)
    assert says in str(got.value) and path in str(got.value) and "\n" not in str(got.value)


def _meta(path) -> dict:
    with zipfile.ZipFile(path) as z:
        return json.loads(z.read("policy.json"))


def test_learn_writes_the_lines_and_a_start_file_passes_them_on(tmp_path):
    first, second, third = tmp_path / "a.zip", tmp_path / "b.zip", tmp_path / "c.zip"
    got = run_cli("learn", "--start", str(shipped_path()), "--self-play", "0", "--helper", "spender",
                  "--rehearse", "stacker", "--outright", "none", "--rehearse-fights", "2", "--out", str(first))
    assert got.returncode == 0, got.stderr
    entry = _meta(first)["rehearse"]
    assert entry["lines"] == ["spender", "stacker"] and entry["fights"] == 2 and "basic" in entry["foes"]
    assert json.loads(first.with_suffix(".json").read_text())["rehearse"] == entry
    assert run_cli("learn", "--start", str(first), "--self-play", "0", "--out", str(second)).returncode == 0
    assert _meta(second)["rehearse"] == entry
    assert run_cli("learn", "--start", str(first), "--self-play", "0", "--rehearse", "none",
                   "--out", str(third)).returncode == 0
    assert "rehearse" not in _meta(third)


def test_learn_writes_the_outright_lines_and_none_drops_them(tmp_path):
    first, second = tmp_path / "a.zip", tmp_path / "b.zip"
    got = run_cli("learn", "--start", str(shipped_path()), "--self-play", "0", "--helper", "spender",
                  "--rehearse", "stacker", "--outright", "counter", "--out", str(first))
    assert got.returncode == 0, got.stderr
    entry = _meta(first)["rehearse"]
    assert entry["lines"] == ["spender", "stacker"] and entry["outright"] == ["counter"]
    assert run_cli("learn", "--start", str(first), "--self-play", "0", "--outright", "none",
                   "--out", str(second)).returncode == 0
    assert _meta(second)["rehearse"]["lines"] == ["spender", "stacker"] and "outright" not in _meta(second)["rehearse"]


@pytest.mark.parametrize("flag, says", [("spender", "is the --helper already"),
                                        ("stacker,search", "'search' is not a script the fast core plays")])
def test_learn_refuses_a_line_it_cannot_rehearse_and_writes_nothing(tmp_path, flag, says):
    out = tmp_path / "x.zip"
    got = run_cli("learn", "--start", str(shipped_path()), "--self-play", "0", "--helper", "spender",
                  "--rehearse", flag, "--out", str(out))
    assert got.returncode != 0 and says in got.stderr and not out.exists()


def test_one_controller_playing_both_sides_keeps_each_sides_line(tmp_path, monkeypatch):
    # a stand-in rehearsal that gives the two sides different lines: the controller must not carry
    # one side's line over to the other (controllers_for makes one controller per spec)
    monkeypatch.setattr(R, "rehearse", lambda scene, side, spec, plan: R.Choice(
        "stacker" if side == "rival" else "spender", {"spender": 0, "stacker": 0}, 1))
    spec = f"learned:{_file(tmp_path)}"
    scene = load_scene("duel")
    ctl = controllers_for(scene, {side: spec for side in scene.sides}, seed=5)
    assert len({id(x) for x in ctl.values()}) == 1
    c, seen = start(scene, 5), set()
    while c.pending is not None and len(seen) < 2:
        d = c.pending
        ctrl = ctl[d.actor]
        if ctrl.decides(d):
            line = "stacker" if c.side_of(d.actor) == "rival" else "spender"
            assert ctrl.scores(c, d)[1] == make_controller(line, 0).choose(c, d)[0]
            assert f"guided by the {line} script" in ctrl.choose(c, d)[1]
            seen.add(line)
        c.step(ctrl.choose(c, d)[0])
    assert seen == {"stacker", "spender"}
