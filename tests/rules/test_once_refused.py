"""Rules docs/not_modelled.md once refused, now played: each pinned with forced dice and its lines."""

from __future__ import annotations

import pytest
from conftest import Driver, make_scene

from fate_env.rules.conflict import Conflict
from fate_env.rules.options import Choose, Next, OvercomeMove, Support

# -- supporters share the costs (003:1453-1454; 000:554) -------------------------------------------
TEAM = {
    "ann": {"kind": "pc", "side": "pcs", "zone": "a", "skills": {"Athletics": 1}, "high_concept": "Scout"},
    "bob": {"kind": "pc", "side": "pcs", "zone": "a", "skills": {"Athletics": 2}, "high_concept": "Runner"},
    "brute": {"kind": "major", "side": "npcs", "zone": "c", "skills": {"Fight": 2}, "high_concept": "Brute"},
}


def _climb(dials: dict | None = None) -> Conflict:
    """Ann pledges her help to Bob's climb (Athletics 2 + 1 for her) against the wall's Good (+3);
    the dice come up -4, and Bob takes the failure as success at a major cost."""
    scene = make_scene(TEAM, zones=("a", "b", "c"), first="ann",
                       borders=[{"between": ["a", "b"], "difficulty": 3}, {"between": ["b", "c"]}],
                       rules={"name": "condensed", "dials": dials or {}})
    c = Conflict(scene, seed=0, forced=[(-1, -1, -1, -1)])
    d = Driver(c)
    d.do("turn", "ann", Support("bob"))
    if c.pending.kind == "move":
        c.step(0)  # Ann stays
    d.do("next", "ann", Next("bob"))
    d.do("turn", "bob", OvercomeMove("b"))
    d.do("cost", "bob", Choose("major_cost"))
    return c


def _costs(c: Conflict) -> list[tuple[str, str]]:
    return [(e.actor, e.cost) for e in c.events if type(e).__name__ == "MajorCost"]


def test_a_supporter_shares_the_major_cost_of_the_roll_it_helped():
    """003:1453-1454: supporters face the same costs as the one who rolls; the major cost as a
    consequence (the major_cost dial) falls on Bob and then on Ann, each a mild one."""
    c = _climb()
    assert "teamwork +1" in next(e for e in c.events if type(e).__name__ == "Rolled").notes
    assert _costs(c) == [("bob", "consequence"), ("ann", "consequence")]
    assert all(c.t.f[x].consequences_taken == 1 for x in ("ann", "bob"))


def test_without_shared_costs_only_the_roller_pays():
    c = _climb({"shared_costs": False})
    assert _costs(c) == [("bob", "consequence")]
    assert c.t.f["ann"].consequences_taken == 0


@pytest.mark.parametrize("shared", [True, False])
def test_the_major_cost_is_not_on_offer_when_a_supporter_has_no_slot_to_pay_with(shared):
    """000:554: everyone takes consequences, or the cost is not paid that way. Ann, a nameless NPC
    with no consequence slots, leaves Bob only the failure; without the dial he may still pay."""
    team = {**TEAM, "ann": {**TEAM["ann"], "kind": "minor"}}
    scene = make_scene(team, zones=("a", "b", "c"), first="ann",
                       borders=[{"between": ["a", "b"], "difficulty": 3}, {"between": ["b", "c"]}],
                       rules={"name": "condensed", "dials": {"shared_costs": shared}})
    c = Conflict(scene, seed=0, forced=[(-1, -1, -1, -1)])
    d = Driver(c)
    d.do("turn", "ann", Support("bob"))
    if c.pending.kind == "move":
        c.step(0)
    if c.pending.kind == "next":
        c.step(Next("bob"))
    d.do("turn", "bob", OvercomeMove("b"))
    d.skip_invokes()
    asked = c.pending is not None and c.pending.kind == "cost" and Choose("major_cost") in c.pending.options
    assert asked is not shared
