"""Fate Condensed's optional rules (issue 15), each pinned with forced dice and its lines."""

from __future__ import annotations

import pytest
from conftest import DUO, Driver, aspect_id, make_scene

from fate_env.rules.conflict import Conflict
from fate_env.rules.harm import Absorb
from fate_env.rules.options import Attack, Choose, Defend
from fate_env.scenes import SceneError

EXTREME = {"extreme_consequences": True}
HUGE_HIT = [(1, 1, 1, 1), (-1, -1, -1, -1)]  # Fight 3 + 4 against the brute's Fight 3 - 4: eight shifts


def _severities(c, cid):
    return [s.severity for s in c.f[cid].slots]


@pytest.mark.parametrize("rules,npc_gets_it", [("condensed", True), ("core", False)])
def test_who_may_take_an_extreme_consequence(rules, npc_gets_it):
    """Condensed gives the extreme consequence to "a character" (003:2204-2217), Core to "every
    PC" (000:400); minor NPCs take no consequences at all (003:2002-2008)."""
    chars = {**DUO, "mook": {"kind": "minor", "side": "npcs", "zone": "room", "skills": {"Fight": 1}}}
    c = Conflict(make_scene(chars, rules={"name": rules, "dials": EXTREME}), seed=0)
    assert _severities(c, "hero")[-1] == "extreme"
    assert ("extreme" in _severities(c, "brute")) is npc_gets_it
    assert _severities(c, "mook") == []


def test_the_extreme_consequence_replaces_an_aspect_never_the_high_concept():
    """003:2207-2211: taking it replaces one of the character's aspects other than the high
    concept. The brute's sheet names the one it gives up (its trouble)."""
    chars = {**DUO, "brute": {**DUO["brute"], "aspects": ["Loyal to the Boss"], "extreme_replaces": "Slow Witted"}}
    c = Conflict(make_scene(chars, first="hero", rules={"name": "condensed", "dials": EXTREME}), seed=0,
                 forced=HUGE_HIT)
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    d.do("style", "hero", Choose("full_hit"))
    d.skip_invokes()
    assert c.pending.kind == "absorb" and c.pending.actor == "brute"
    extreme = _severities(c, "brute").index("extreme")
    assert c.pending.context["shifts"] == 8
    plan = Absorb((), (extreme,))  # the extreme consequence alone absorbs 8 (003:2206)
    assert plan in c.pending.options
    c.step(plan)
    names = {a.name for a in c.aspects.values() if a.owner == "brute"}
    assert names == {"Hulking Brute", "Loyal to the Boss", "Maimed"}
    removed = [e for e in c.events if type(e).__name__ == "AspectRemoved"]
    assert [(e.aspect, e.why) for e in removed] == [("Slow Witted", "replaced by an extreme consequence")]


def test_without_extreme_replaces_the_last_aspect_goes_and_a_lone_high_concept_cannot_take_it():
    chars = {"hero": {**DUO["hero"], "aspects": ["Old Friend", "Sworn Oath"]},
             "brute": {**DUO["brute"], "trouble": None}}
    del chars["brute"]["trouble"]
    c = Conflict(make_scene(chars, rules={"name": "condensed", "dials": EXTREME}), seed=0)
    assert c.scene.character("hero").extreme_loses() == "Sworn Oath"
    assert "extreme" not in _severities(c, "brute")  # nothing but the high concept to replace
    assert aspect_id(c, "Sworn Oath")


@pytest.mark.parametrize("value,expected", [("Hulking Brute", "never the high"), ("Nope", "one of")])
def test_extreme_replaces_must_name_an_aspect_other_than_the_high_concept(value, expected):
    chars = {**DUO, "brute": {**DUO["brute"], "extreme_replaces": value}}
    with pytest.raises(SceneError, match=rf"characters\.brute\.extreme_replaces.*{expected}"):
        make_scene(chars)
