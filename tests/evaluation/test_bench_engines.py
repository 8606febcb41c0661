"""fate-npc bench on the fast core (issue 13): the same records as the reference engine, an
episode the fast core cannot finish played on the reference, and the report says which ran."""

from __future__ import annotations

import json

import pytest
import yaml

from fate_env import fast
from fate_env.cli import main
from fate_env.evaluation import bench as B
from fate_env.content.scenes import load_scene

pytestmark = pytest.mark.kernel  # runs the fast core (tests/conftest.py)


@pytest.fixture(autouse=True, scope="module")
def _kernel_compiled():
    """These tests compare the fast core's records with the reference's, so the kernel is compiled (or
    loaded) first: while it is not, bench plays the reference and compiles in the background, as it
    does for a user (checked below with a stand-in compile). The suite's background compile may still be at
    it: this waits on its lock."""
    if fast.available():
        fast.FastCore(load_scene("duel")).run([1])


def records(path) -> list[dict]:
    got = json.loads(path.read_text())["episodes"]
    for r in got:
        r.pop("engine")
    return got


def test_the_fast_core_gives_the_reference_records_across_a_sweep(tmp_path, capsys):
    fast_json, ref_json = tmp_path / "fast.json", tmp_path / "ref.json"
    args = ["bench", "warehouse", "-n", "60", "--seed", "3", "--vary", "characters.og.skills.Fight=3,5"]
    assert main(args + ["--json", str(fast_json)]) == 0
    assert "engine: fast core (numba): 120 episodes; none on the reference" in capsys.readouterr().out
    assert main(args + ["--engine", "reference", "--json", str(ref_json)]) == 0
    assert "engine: reference (Python)" in capsys.readouterr().out
    assert records(fast_json) == records(ref_json)
    assert json.loads(fast_json.read_text())["summary"] == json.loads(ref_json.read_text())["summary"]


@pytest.mark.parametrize("scene, rules", [("race", None), ("ritual", "core"), ("vault", None), ("debate", None)])
def test_contests_and_challenges_give_the_reference_records(scene, rules, tmp_path, capsys):
    """A contest's, a challenge's and the vault's records (a conflict that holds a challenge and turns into a
    contest) are the reference's: the fast path reads how a fight ended from the kernel's columns."""
    fast_json, ref_json = tmp_path / "fast.json", tmp_path / "ref.json"
    args = ["bench", scene, "-n", "60", "--seed", "11"] + (["--rules", rules] if rules else [])
    assert main(args + ["--json", str(fast_json)]) == 0
    assert "engine: fast core (numba): 60 episodes; none on the reference" in capsys.readouterr().out
    assert main(args + ["--engine", "reference", "--json", str(ref_json)]) == 0
    assert records(fast_json) == records(ref_json)


def test_tactics_it_plays_give_the_reference_records(tmp_path, capsys):
    fast_json, ref_json = tmp_path / "fast.json", tmp_path / "ref.json"
    args = ["bench", "warehouse_mobs", "-n", "40", "--control", "pcs=brute", "--control", "smugglers=minion"]
    assert main(args + ["--json", str(fast_json)]) == 0
    assert "engine: fast core (numba): 40 episodes" in capsys.readouterr().out
    assert main(args + ["--engine", "reference", "--json", str(ref_json)]) == 0
    assert records(fast_json) == records(ref_json)


def test_workers_give_the_same_records_on_the_fast_core(tmp_path):
    one, two = tmp_path / "1.json", tmp_path / "2.json"
    assert main(["bench", "duel", "-n", "300", "--json", str(one)]) == 0
    assert main(["bench", "duel", "-n", "300", "--workers", "2", "--json", str(two)]) == 0
    assert json.loads(one.read_text())["episodes"] == json.loads(two.read_text())["episodes"]


CLIMB = {  # the foe is up a ladder: basic climbs (an overcome move)
    "name": "climb",
    "shoot_range": 0,
    "zones": [{"id": "floor"}, {"id": "loft"}],
    "borders": [{"between": ["floor", "loft"], "difficulty": 1}],
    "characters": {
        "hero": {"kind": "pc", "side": "pcs", "zone": "floor", "skills": {"Fight": 3, "Athletics": 2}},
        "lookout": {"kind": "major", "side": "npcs", "zone": "loft", "skills": {"Fight": 2, "Athletics": 1}},
    },
}
#: a lurker no one can reach keeps the fight going to a long exchange limit: more aspects or
#: events than the fast core's tables hold, so it hands the episodes back
LONG = {**CLIMB, "name": "long", "rules": {"name": "condensed", "dials": {"max_exchanges": 500}},
        "zones": CLIMB["zones"] + [{"id": "attic"}],
        "characters": {**CLIMB["characters"], "lurker": {"kind": "minor", "side": "npcs", "zone": "attic",
                                                         "skills": {"Fight": 1}}}}


def test_climbing_gives_the_reference_records(tmp_path, capsys):
    path = tmp_path / "climb.yaml"
    path.write_text(yaml.safe_dump(CLIMB))
    fast_json, ref_json = tmp_path / "fast.json", tmp_path / "ref.json"
    assert main(["bench", str(path), "-n", "40", "--json", str(fast_json)]) == 0
    assert "engine: fast core (numba): 40 episodes; none on the reference" in capsys.readouterr().out
    assert main(["bench", str(path), "-n", "40", "--engine", "reference", "--json", str(ref_json)]) == 0
    assert records(fast_json) == records(ref_json)


def test_an_episode_the_fast_core_hands_back_is_played_on_the_reference(tmp_path, capsys):
    path = tmp_path / "long.yaml"
    path.write_text(yaml.safe_dump(LONG))
    fast_json, ref_json = tmp_path / "fast.json", tmp_path / "ref.json"
    assert main(["bench", str(path), "-n", "4", "--json", str(fast_json)]) == 0
    out = capsys.readouterr().out
    assert "on the reference (too many" in out
    assert main(["bench", str(path), "-n", "4", "--engine", "reference", "--json", str(ref_json)]) == 0
    assert records(fast_json) == records(ref_json)


def test_without_numba_the_reference_runs_and_says_how_to_get_the_fast_core(monkeypatch):
    monkeypatch.setattr(fast, "available", lambda: False)
    engine, why = B.choose_engine([load_scene("warehouse")], {})
    assert engine == "reference" and why == fast.NOTICE
    with pytest.raises(B.BenchError, match='pip install -e ".\\[fast\\]"'):
        B.choose_engine([load_scene("warehouse")], {}, "fast")


def test_scenes_and_controllers_it_does_not_cover_run_on_the_reference(capsys, tmp_path):
    model = "ppo:models/warehouse_smugglers.zip"
    assert main(["bench", "warehouse", "-n", "2", "--control", f"smugglers={model}"]) == 0
    out = capsys.readouterr().out
    assert f"engine: reference (Python); not the fast core: og, thug1, thug2, thug3, archer played by '{model}'" in out
    import yaml
    from fate_env.content.scenes import read_scene_data
    _, data = read_scene_data("chase")  # a contest with a threat: the kernel refuses it by name
    data["contest"]["threat"] = {"name": "Rolling Boulder", "rating": 2}
    (tmp_path / "boulder.yaml").write_text(yaml.safe_dump(data))
    assert main(["bench", str(tmp_path / "boulder.yaml"), "-n", "5", "--engine", "fast"]) == 2
    assert "a contest's threat" in capsys.readouterr().err


def test_the_runner_drives_either_engine_through_one_interface():
    """run_jobs, its pool and its Ray path never ask which engine runs: each engine is a
    ``BenchEngine`` (its batch function, batch size, start method), picked once by name."""
    import inspect
    for fn in (B.run_jobs, B._collect, B._warmed, B._run_ray):
        body = inspect.getsource(fn).split('"""')[-1]  # the code after the docstring
        assert '"fast"' not in body and '"reference"' not in body and "_work_fast" not in body
    assert set(B.ENGINES) == {"fast", "reference"}
    for name, eng in B.ENGINES.items():
        assert eng.name == name and callable(eng.work) and eng.batch(1, 10) >= 1 and eng.batch(4, 10_000) >= 1


class _CompiledAfter:
    """A stand-in for the background compile (``B.Compiling``): done after ``calls`` looks, or never."""

    def __init__(self, calls: int | None, fail: bool = False, started: bool = True):
        self.calls, self.fail, self.looks, self.started = calls, fail, 0, started
        self.starts: list[int] = []  # how many records the run had when it started the compile

    def start(self) -> None:
        if not self.started:
            self.started = True
            self.starts.append(self.looks)

    def ready(self) -> bool:
        self.looks += 1
        return self.calls is not None and not self.fail and self.looks > self.calls

    def failed(self) -> bool:
        return self.fail


@pytest.mark.parametrize("calls, fail", [(2, False), (None, False), (0, True)])
def test_the_reference_plays_while_the_fast_core_compiles_and_hands_over(calls, fail, monkeypatch):
    """The first bench after an install (issue 38): the reference engine plays batches while the
    kernel compiles, then the fast core plays the rest; the records are the reference's either way,
    and each says which engine played it."""
    scene, file = "warehouse", None
    from fate_env.content.scenes import read_scene_data
    file, base = read_scene_data(scene)
    jobs = [(base, file, {}, None, {}, 5, 0, i) for i in range(60)]
    reference = B.run_jobs(list(jobs), engine="reference")
    monkeypatch.setattr(B, "COMPILE_SECONDS", 0.0)  # long enough to gain from the handover: started at once
    got = B.run_while_compiling(iter(jobs), len(jobs), _CompiledAfter(calls, fail, started=False))
    assert [{**r, "engine": None} for r in got] == [{**r, "engine": None} for r in reference]
    engines = [r["engine"] for r in got]
    if calls is None or fail:
        assert set(engines) == {B.WHILE_COMPILING}
    else:  # started after the PROBE's 20 records, looked at every 10 from there: handed over at the third look
        assert engines == [B.WHILE_COMPILING] * 40 + ["fast"] * 20
    assert "on the reference (the fast core was compiling)" in B.engine_line(got)


def test_a_run_shorter_than_the_compile_starts_it_as_it_ends(monkeypatch):
    """A run the handover cannot speed up (the reference's time left, timed on the first episodes,
    under a compile's) plays wholly on the reference and starts the compile only at its end, so it
    takes what the reference takes; the next run finds the kernel compiled."""
    from fate_env.content.scenes import read_scene_data
    file, base = read_scene_data("warehouse")
    jobs = [(base, file, {}, None, {}, 5, 0, i) for i in range(40)]
    monkeypatch.setattr(B, "COMPILE_SECONDS", 3600.0)
    compiling = _CompiledAfter(0, started=False)
    got = B.run_while_compiling(iter(jobs), len(jobs), compiling)
    assert {r["engine"] for r in got} == {B.WHILE_COMPILING}
    assert compiling.started and compiling.looks == 0  # started once every record was in, never looked at
