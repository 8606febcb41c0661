"""A fuzz test per input surface (issue 33): scene files, session saves, fight logs, imports, model
files, training configs and live commands. Each asserts the same promise: a clean result or the
surface's own one-line error, never another exception, in bounded time, with nothing written on
failure. Inputs are shipped or real files with one part replaced by hypothesis's values."""

from __future__ import annotations

import copy
import io
import json
import os
import zipfile
from pathlib import Path

import pytest
import yaml
from conftest import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fate_env.content.scenes import SceneError, read_scene_data, scene_from_dict

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

#: any JSON-like value: what an edited or damaged file may hold in any place
values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False)
    | st.text(max_size=12) | st.sampled_from(["", "-1", "here", "fight", "Fight", "\x1b[2J", "²", "x" * 300]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8) | st.sampled_from(
        ["id", "name", "skills", "kind", "side", "zone", "count", "stress", "after", "when", "rating"]),
        inner, max_size=4),
    max_leaves=12)


def _paths(value, prefix=()):
    """Every place in a nested value (mapping keys and list indices), the root included."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


def _replace(value, path, new):
    if not path:
        return new
    out = copy.deepcopy(value)
    at = out
    for step in path[:-1]:
        at = at[step]
    at[path[-1]] = new
    return out


def _edited(data, where: int, new, skip=lambda path: False):
    """``data`` with its ``where``-th place (counted over every place, modulo) replaced by ``new``."""
    places = [p for p in _paths(data) if not skip(p)]
    return _replace(data, places[where % len(places)], new)


def _one_line(message: str, limit: int = 600) -> None:
    assert "\n" not in message.strip() and len(message) <= limit + 100, message[:2000]


SCENES = sorted(p.stem for p in (ROOT / "configs" / "scenes").glob("*.yaml"))


@FUZZ
@given(name=st.sampled_from(SCENES), where=st.integers(0, 10**6), new=values)
def test_a_scene_with_any_part_replaced_loads_or_is_one_scene_error(name, where, new):
    file, data = read_scene_data(name)
    edited = _edited(data, where, new)
    try:
        scene_from_dict(edited, "fuzz.yaml")
    except SceneError as exc:
        _one_line(str(exc))
        assert str(exc).startswith("fuzz.yaml")


@FUZZ
@given(name=st.sampled_from(SCENES), where=st.integers(0, 10**6))
def test_a_scene_with_a_part_removed_loads_or_is_one_scene_error(name, where):
    file, data = read_scene_data(name)
    places = [p for p in _paths(data) if p]
    path = places[where % len(places)]
    edited = copy.deepcopy(data)
    at = edited
    for step in path[:-1]:
        at = at[step]
    del at[path[-1]]
    try:
        scene_from_dict(edited, "fuzz.yaml")
    except SceneError as exc:
        _one_line(str(exc))


# -- scene size ---------------------------------------------------------------------------------
def _chain(n: int) -> dict:
    """The duel at the head of a chain of ``n`` zones (scripts/bench_scene_size.py's scene)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_scene_size", ROOT / "scripts" / "bench_scene_size.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return script.chain(n)


def test_distances_are_searched_only_from_the_zones_a_fight_asks_about():
    from fate_env.rules.zones import ZoneMap
    zmap = ZoneMap(scene_from_dict(_chain(2000), "chain.yaml"))
    assert len(zmap.cost) == len(zmap.hops) == len(zmap.sight) == 0  # nothing up front: no zones x zones
    assert zmap.move_difficulty("steps", "z10") == 11 and len(zmap.cost) == 1
    assert [b.a for b in zmap.path_borders("steps", "z0")] == ["steps", "fountain"]


def test_the_largest_scene_allowed_loads_and_plays_and_a_larger_one_is_one_line():
    from agents.base import controllers_for, play
    from fate_env.rules.engine import start
    from fate_env.content.scenes import SIZE_LIMITS
    scene = scene_from_dict(_chain(SIZE_LIMITS["zones"]), "chain.yaml")
    assert play(start(scene, 1), controllers_for(scene, seed=1)).outcome is not None
    with pytest.raises(SceneError, match="10,001 entries; a scene holds at most 10,000"):
        scene_from_dict(_chain(SIZE_LIMITS["zones"] + 1), "chain.yaml")


# -- session saves and fight logs ---------------------------------------------------------------
def _session_save(tmp_path_factory) -> dict:
    from fate_env.live.session import SessionSetup, run_session
    path = tmp_path_factory.mktemp("save") / "s.json"
    run_session(SessionSetup("duel", 2, controls={"cynere": "human"}, save=str(path), autosave=None),
                io.StringIO("auto\n" * 5 + "/aspect add Slick Steps\n/fp cynere +1\n"), io.StringIO())
    return json.loads(path.read_text())


@FUZZ
@given(where=st.integers(0, 10**6), new=values, resign=st.booleans())
def test_a_save_with_any_part_replaced_resumes_or_is_one_session_error(tmp_path_factory, where, new, resign):
    """``resign``: the checksum made to fit the edit, so the checks behind it are reached too."""
    from fate_env.live.session import Session, SessionError, SessionLog, checksum
    data = _session_save(tmp_path_factory)
    edited = _edited(data, where, new, skip=lambda p: p[:1] == ("checksum",))
    if resign and isinstance(edited, dict):
        edited["checksum"] = checksum({k: v for k, v in edited.items() if k != "checksum"})
    try:
        Session(SessionLog.from_json(edited, "fuzz.json"), io.StringIO(""), io.StringIO())
    except SessionError as exc:
        _one_line(str(exc))


@FUZZ
@given(where=st.integers(0, 10**6), new=values)
def test_a_fight_log_with_any_part_replaced_replays_or_is_one_replay_error(tmp_path_factory, where, new):
    from agents.base import controllers_for, play
    from fate_env.live.report import ReplayError, rebuild
    from fate_env.rules.engine import start
    from fate_env.content.scenes import load_scene
    scene = load_scene("duel")
    c = play(start(scene, 3), controllers_for(scene, seed=3))
    file, scene_data = read_scene_data("duel")
    data = {"scene": "duel", "scene_file": file, "scene_data": scene_data, "rules": "condensed", "seed": 3,
            "choices": c.choices, "reasons": c.reasons, "events": json.loads(json.dumps(c.log()))}
    path = tmp_path_factory.mktemp("log") / "log.json"
    path.write_text(json.dumps(_edited(data, where, new, skip=lambda p: p[:1] == ("events",) and len(p) >= 3)))
    try:
        rebuild(str(path))
    except ReplayError as exc:
        _one_line(str(exc))


# -- imports --------------------------------------------------------------------------------------
IMPORT_FILES = sorted((ROOT / "tests" / "data" / "import").glob("*.json"))


@FUZZ
@given(which=st.sampled_from(IMPORT_FILES), where=st.integers(0, 10**6), new=values)
def test_an_import_with_any_part_replaced_maps_or_is_one_import_error(tmp_path_factory, which, where, new):
    from fate_env.content.importers import ImportError_, read, scene_fragment
    path = tmp_path_factory.mktemp("import") / which.name
    path.write_text(json.dumps(_edited(json.loads(which.read_text()), where, new)))
    try:
        scene_fragment(read(str(path)), "major", "npcs", "here")
    except (ImportError_, SceneError) as exc:
        _one_line(str(exc))


# -- model files ----------------------------------------------------------------------------------
@FUZZ
@given(part=st.sampled_from(["policy.json", "policy.npz"]), new=values | st.binary(max_size=64))
def test_a_model_file_with_a_part_replaced_plays_or_is_one_model_error(tmp_path_factory, part, new):
    from agents.base import UnknownController, make_controller
    source = ROOT / "models" / "duel_rival.zip"
    path = tmp_path_factory.mktemp("model") / "m.zip"
    with zipfile.ZipFile(source) as z, zipfile.ZipFile(path, "w") as out:
        for name in z.namelist():
            if name == part:
                out.writestr(name, new if isinstance(new, bytes) else json.dumps(new))
            else:
                out.writestr(name, z.read(name))
    (path.with_suffix(".json")).write_text((source.with_suffix(".json")).read_text())
    try:
        make_controller(f"ppo:{path}")
    except (ValueError, UnknownController) as exc:
        _one_line(str(exc), limit=800)


# -- training configs -----------------------------------------------------------------------------
TRAIN_CONFIGS = sorted((ROOT / "configs" / "train").glob("*.yaml"))


@FUZZ
@given(which=st.sampled_from(TRAIN_CONFIGS), where=st.integers(0, 10**6), new=values)
def test_a_training_config_with_any_part_replaced_loads_or_is_one_value_error(tmp_path_factory, which, where, new):
    from fate_env.learn.training import load_config
    data = yaml.safe_load(which.read_text())
    folder = tmp_path_factory.mktemp("config")
    for other in TRAIN_CONFIGS:  # the configs it inherits from, beside it as in configs/train
        (folder / other.name).write_text(other.read_text())
    path = folder / which.name
    path.write_text(yaml.safe_dump(_edited(data, where, new), allow_unicode=True))
    if "league" in data:  # the league names its exploiters' config by a path beside the shipped ones
        os.chdir(ROOT)
    try:
        load_config(path)
    except ValueError as exc:
        _one_line(str(exc), limit=1200)


# -- live commands --------------------------------------------------------------------------------
WORDS = ["/add", "/move", "/fp", "/aspect add", "/aspect remove", "/compel", "/rating", "/boost", "/name",
         "/concede", "/remove", "/undo", "/save", "/state", "/end", "/help", "more", "auto", "o", "1", "99", ""]


@FUZZ
@given(lines=st.lists(st.tuples(st.sampled_from(WORDS), st.text(max_size=20)).map(" ".join)
                      | st.text(max_size=30), max_size=25))
def test_any_typed_line_is_applied_or_refused_never_a_crash(tmp_path_factory, lines):
    from fate_env.live.session import SessionSetup, run_session
    here = tmp_path_factory.mktemp("live")
    typed = [line.replace("\n", " ").replace("\r", " ") for line in lines]
    typed = [f"/save {here}/x.json" if line.startswith("/save") else line for line in typed]
    out = io.StringIO()
    run_session(SessionSetup("duel", 1, controls={"cynere": "human"}, autosave=None),
                io.StringIO("\n".join(typed) + "\n"), out)
    assert "Traceback" not in out.getvalue()
