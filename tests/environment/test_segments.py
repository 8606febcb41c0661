"""The action layout is declared once (environment/segments.py) and everything is derived from it:
checked against the layout it replaced, written down before (tests/data/action_layouts.json)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from fate_env.content.scenes import load_scene
from fate_env.environment import segments
from fate_env.environment.actions import ActionLayout
from fate_env.fast import observe as ob
from fate_env.rules import options

BEFORE = json.loads((Path(__file__).resolve().parents[1] / "data" / "action_layouts.json").read_text())


def test_each_kinds_segments_are_the_ones_it_had():
    derived = {kind: sorted(names) for kind, names in segments.SEGMENTS_BY_KIND.items()}
    assert derived == {kind: sorted(names) for kind, names in BEFORE["segments_by_kind"].items()}


def test_each_segments_meaning_is_the_one_it_had():
    assert segments.SEGMENT_MEANINGS == BEFORE["meanings"]


@pytest.mark.parametrize("key", sorted(BEFORE["layouts"]))
def test_every_shipped_layout_keeps_its_segments(key):
    scene, rules = key.split("/")
    layout = ActionLayout(load_scene(scene, rules=rules))
    assert list(layout.segments) == BEFORE["order"]
    assert [seg.size for seg in layout.segments.values()] == BEFORE["layouts"][key]


def test_every_option_type_has_one_segment():
    """Each option class of the rules is encoded by exactly one entry (Choose through the choices)."""
    kinds = [t for spec in segments.SEGMENTS for t in spec.options]
    assert len(kinds) == len(set(kinds))
    every = {obj for obj in vars(options).values()
             if isinstance(obj, type) and obj.__module__ == options.__name__ and dataclasses.is_dataclass(obj)}
    assert len(every) > 25
    encoded = set(kinds) | {options.Choose}
    assert every - encoded == set(), "option types without a segment"


def test_the_fast_cores_numbers_name_real_segments():
    for spec in segments.SEGMENTS:
        if spec.kernel is not None:
            assert isinstance(getattr(ob, spec.kernel), int)
    assert len({spec.kernel for spec in segments.SEGMENTS if spec.kernel}) == 27
