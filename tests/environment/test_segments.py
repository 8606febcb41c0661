"""The action layout is declared once (environment/segments.py) and everything is derived from it:
checked against the layouts written down before (tests/data/action_layouts.json) as invariants a new
segment keeps by construction: the old segments are a prefix of the layout, each keeps its size in
every shipped layout and its meaning, and each decision kind keeps its segments. Nothing here is
edited by hand when a segment is added."""

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


def test_each_kind_keeps_the_segments_it_had():
    for kind, names in BEFORE["segments_by_kind"].items():
        now = segments.SEGMENTS_BY_KIND[kind]
        assert set(names) <= set(now), kind
        assert [n for n in now if n in names] == [n for n in BEFORE["order"] if n in names], kind


def test_each_segment_keeps_its_meaning():
    assert {k: segments.SEGMENT_MEANINGS[k] for k in BEFORE["meanings"]} == BEFORE["meanings"]


@pytest.mark.parametrize("key", sorted(BEFORE["layouts"]))
def test_every_shipped_layout_keeps_its_segments(key):
    """The old segments first, in their order and at their sizes; a segment added since comes after
    them and is empty unless the scene has its feature (a shipped scene under its own rules has none
    of the features added since, so its action indices and its action space's size stay)."""
    scene, rules = key.split("/")
    layout = ActionLayout(load_scene(scene, rules=rules))
    old = len(BEFORE["order"])
    assert list(layout.segments)[:old] == BEFORE["order"]
    assert [seg.size for seg in layout.segments.values()][:old] == BEFORE["layouts"][key]
    grown = {name: seg.size for name, seg in list(layout.segments.items())[old:] if seg.size}
    assert set(grown) <= set(RULE_FIXES), f"a new segment is not empty here: {sorted(grown)}"
    for name in grown:
        assert segments.FEATURES[RULE_FIXES[name]](layout.scene), name


#: new segments a shipped scene may have: a rule every scene of a kind has, added after the layouts
#: were pinned (each with the feature that gates it): an attack in a contest ends it (000:147-149);
#: under Fate Core's rule set, a target may forgo its defense (000:292-294) and an ally beside it
#: may stand in (000:270), on since the fast core plays both (issue 74)
RULE_FIXES = {"to_conflict": "contest", "forgo_defense": "forgo", "stand_aside": "stand_in", "stand_in": "stand_in"}


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
    named = [spec.kernel for spec in segments.SEGMENTS if spec.kernel]
    assert len(named) == len(set(named)), "two segments read from one slot of the kernel's numbers"
