"""The scene generator (issue 53's distribution of scenes): every scene it draws loads as a GM's file
does, within its stated limits and Fate's guidelines for NPCs, the same for a seed, never a shipped
scene."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from fate_env.content.digests import scene_digest
from fate_env.content.generate import LIMITS, RULE_SETS, held_out, scene
from fate_env.content.scenes import scene_from_dict
from fate_env.rules.conflict import Conflict


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from((None,) + RULE_SETS))
def test_every_generated_scene_loads_and_keeps_its_limits(seed, rules):
    data = scene(seed, rules)
    loaded = scene_from_dict(data, f"generated {seed}")  # the loader's own checks: schema, map, stunts
    assert rules is None or loaded.rules.name == rules
    assert LIMITS.characters[0] <= len(loaded.characters) <= LIMITS.characters[1]
    assert LIMITS.zones[0] <= len(data["zones"]) <= LIMITS.zones[1]
    pcs = [c for c in loaded.characters if c.kind == "pc"]
    assert LIMITS.pcs[0] <= len(pcs) <= LIMITS.pcs[1] and len(loaded.sides) == 2
    for cid, c in data["characters"].items():
        if c["kind"] in ("minor", "mob"):  # nameless: one or two skills, Average to Good, 0-3 boxes (003:1975-1994)
            assert 1 <= len(c["skills"]) <= 2 and all(1 <= v <= 3 for v in c["skills"].values()), cid
            assert 0 <= c["stress"] <= 3
    Conflict(loaded, seed=0)  # and a fight starts on it


def test_the_same_seed_gives_the_same_scene_and_others_differ():
    assert scene(7) == scene(7)
    assert len({repr(scene(s)) for s in range(20)}) == 20


def test_it_draws_every_rule_set_kind_and_size():
    drawn = [scene(s) for s in range(300)]
    assert set(Counter(d["rules"] for d in drawn)) == set(RULE_SETS)
    kinds = Counter(c["kind"] for d in drawn for c in d["characters"].values())
    assert set(kinds) == {"pc", "major", "minor", "mob"}
    sizes = {len(d["characters"]) for d in drawn}
    assert min(sizes) == LIMITS.characters[0] and max(sizes) == LIMITS.characters[1]
    assert {len(d["zones"]) for d in drawn} == set(range(LIMITS.zones[0], LIMITS.zones[1] + 1))
    assert any("block" in b for d in drawn for b in d["borders"])


def test_no_generated_scene_is_a_shipped_one():
    shipped = held_out()
    assert len(shipped) >= 17
    assert not {scene_digest(scene_from_dict(scene(s), "g")) for s in range(100)} & shipped
