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


# -- full defense guarding an ally (003:2236-2240; 000:270, 000:489-491) ---------------------------
from fate_env.rules.options import Attack, Defend, FullDefense, Guard  # noqa: E402

TRIO = {
    "ann": {"kind": "pc", "side": "pcs", "zone": "a", "skills": {"Athletics": 2, "Fight": 1}, "high_concept": "Guard"},
    "bob": {"kind": "pc", "side": "pcs", "zone": "a", "skills": {"Athletics": 1}, "high_concept": "Scholar"},
    "brute": {"kind": "major", "side": "npcs", "zone": "a", "skills": {"Fight": 3}, "high_concept": "Brute"},
}


def _guarded(dials=None, forced=((0, 0, 0, 0), (0, 0, 0, 0))):
    scene = make_scene(TRIO, zones=("a", "b"), borders=[{"between": ["a", "b"]}], first="ann",
                       rules={"name": "condensed", "dials": {"full_defense_focus": True, **(dials or {})}})
    return Conflict(scene, seed=0, forced=list(forced))


def _rolls(c):
    return [(e.actor, e.action, e.base, e.notes) for e in c.events if type(e).__name__ == "Rolled"]


def test_a_guard_meets_the_attack_on_its_ward_at_plus_two_and_takes_the_hit():
    """003:2236-2240: a full defense may name someone it protects, +2 to the defenses for that
    focus; 000:270: defending on another's behalf, the defender suffers the failed roll. The brute's
    Fight 3 + 3 against Ann's Athletics 2 + 2 on Bob's behalf: a 2-shift hit on Ann, none on Bob."""
    c = _guarded(forced=[(1, 1, 1, 0), (0, 0, 0, 0)])
    d = Driver(c)
    assert Guard("bob") in d.expect("turn", "ann").options and FullDefense() in c.pending.options
    d.do("turn", "ann", Guard("bob"))
    if c.pending.kind == "move":
        c.step(0)
    d.do("next", "ann", Next("brute"))
    d.do("turn", "brute", Attack("bob", "Fight"))
    d.do("respond", "ann", Defend())  # the guard answers the attack, not the ward
    assert [(e.actor, e.ward) for e in c.events if type(e).__name__ == "StoodIn"] == [("ann", "bob")]
    assert _rolls(c) == [("brute", "attack", 3, ()), ("ann", "defend", 4, ("full defense +2",))]
    d.skip_invokes()
    hits = [(e.target, e.shifts) for e in c.events if type(e).__name__ == "Resolved"]
    assert hits == [("ann", 2)]
    assert c.pending.kind == "absorb" and c.pending.actor == "ann"


def test_the_guards_own_defense_is_outside_its_focus():
    """003:2240-2244: the +2 is for the defenses of the declared focus; attacked itself, the guard
    defends at its plain rating."""
    c = _guarded()
    d = Driver(c)
    d.do("turn", "ann", Guard("bob"))
    if c.pending.kind == "move":
        c.step(0)
    d.do("next", "ann", Next("brute"))
    d.do("turn", "brute", Attack("ann", "Fight"))
    d.do("respond", "ann", Defend())
    assert not any(type(e).__name__ == "StoodIn" for e in c.events)
    assert _rolls(c)[-1] == ("ann", "defend", 2, ())


def test_a_ward_out_of_reach_of_its_guard_defends_itself():
    """Stepping between needs the guard beside the ward (a ruling on 000:270's "reasonable"): Bob
    walks into the brute's zone, and meets the attack himself."""
    trio = {**TRIO, "brute": {**TRIO["brute"], "zone": "b"}}
    scene = make_scene(trio, zones=("a", "b"), borders=[{"between": ["a", "b"]}], first="ann",
                       rules={"name": "condensed", "dials": {"full_defense_focus": True}})
    c = Conflict(scene, seed=0, forced=[(0, 0, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "ann", Guard("bob"))
    if c.pending.kind == "move":
        c.step(0)
    d.do("next", "ann", Next("bob"))
    from fate_env.rules.options import Move, Pass
    d.do("turn", "bob", Move("b"))
    d.do("turn", "bob", Pass())
    d.do("turn", "brute", Attack("bob", "Fight"))
    d.do("respond", "bob", Defend())
    assert not any(type(e).__name__ == "StoodIn" for e in c.events)
    assert _rolls(c)[-1] == ("bob", "defend", 1, ())


def test_guarding_is_offered_only_under_the_dial_and_the_fast_core_refuses_it():
    from fate_env.fast import covered
    plain = Conflict(make_scene(TRIO, first="ann", zones=("a",)), seed=0)
    assert not any(type(o) is Guard for o in plain.pending.options)
    scene = _guarded().scene
    assert any("full_defense_focus" in why for why in covered(scene))


# -- hidden aspects (003:820-824, 003:854-867) --------------------------------------------------------
from fate_env.rules.options import DoneInvoking, Exploit, Invoke  # noqa: E402

LAIR = {
    "ann": {"kind": "pc", "side": "pcs", "zone": "a", "skills": {"Notice": 2, "Fight": 2}, "high_concept": "Sleuth",
            "fate_points": 2},
    "ghoul": {"kind": "major", "side": "npcs", "zone": "a", "skills": {"Fight": 2, "Athletics": 1},
              "high_concept": "Ghoul"},
}


def _lair(faces, **dials):
    scene = make_scene(LAIR, zones=("a",), first="ann", aspects=[{"name": "Rotten Floorboards", "zone": "a",
                                                                   "hidden": True}],
                       rules={"name": "condensed", "dials": dials})
    return Conflict(scene, seed=0, forced=[faces])


def _floor(c):
    return next(a for a in c.t.aspects.values() if a.name == "Rotten Floorboards")


def _search(c):
    d = Driver(c)
    opts = d.expect("turn", "ann").options
    (pick,) = [o for o in opts if type(o) is Exploit and c.aspect(o.aspect).hidden]
    c.step(pick)
    d.skip_invokes()
    return d


def test_a_hidden_aspect_is_unknown_to_the_players_view_and_to_every_roll():
    c = _lair((0, 0, 0, 0))
    a = _floor(c)
    assert a.hidden and a.id not in c.aspects and c.aspect(a.id) is a  # the View leaves it out
    d = Driver(c)
    d.do("turn", "ann", Attack("ghoul", "Fight"))
    d.do("respond", "ghoul", Defend())
    assert c.pending.kind == "invoke"
    assert not any(type(o) is Invoke and o.aspect == a.id for o in c.pending.options)
    words = [e.why for e in c.events if type(e).__name__ == "PassiveOpposition"]
    assert all("Rotten" not in w for w in words)


@pytest.mark.parametrize("faces, found, free, boost", [
    ((1, 1, 0, 0), True, 1, False),   # Notice 2 + 2 against Fair (+2): a success, revealed with one free invoke
    ((1, 1, 1, 0), True, 2, False),   # + 3: success with style, two (003:867)
    ((0, 0, 0, 0), False, 0, True),   # a tie: a boost, the aspect stays unknown (003:863)
])
def test_searching_for_a_hidden_aspect(faces, found, free, boost):
    c = _lair(faces)
    _search(c)
    a = _floor(c)
    assert a.hidden is not found and a.free.get("ann", 0) == free
    assert [e.name for e in c.events if type(e).__name__ == "AspectRevealed"] == (["Rotten Floorboards"] if found else [])
    assert any(x.name == "Close Look" and x.free.get("ann") for x in c.t.aspects.values()) is boost
    assert (a.id in c.aspects) is found


@pytest.mark.parametrize("answer", ["reveal", "keep_hidden"])
def test_a_failed_search_lets_the_opposition_reveal_it_for_a_free_invoke(answer):
    """003:858-860: on a failure the enemy may choose to reveal the unknown aspect for a free invoke."""
    c = _lair((-1, -1, 0, 0), exploit_opposition="foe_in_zone")
    _search(c)
    d = c.pending
    assert (d.kind, d.actor) == ("cost", "ghoul") and d.options == [Choose("keep_hidden"), Choose("reveal")]
    c.step(Choose(answer))
    a = _floor(c)
    assert a.hidden is (answer == "keep_hidden") and a.free.get("ghoul", 0) == (answer == "reveal")


def test_hidden_aspects_in_files_and_on_the_fast_core():
    from fate_env.content.scenes import SceneError
    from fate_env.fast import covered
    with pytest.raises(SceneError, match=r"aspects\.0\.free_invokes.*hidden aspect holds no free invokes"):
        make_scene(LAIR, zones=("a",), aspects=[{"name": "Trap", "hidden": True, "free_invokes": {"ann": 1}}])
    with pytest.raises(SceneError, match=r"aspects\.0\.hidden"):
        make_scene(LAIR, zones=("a",), aspects=[{"name": "Trap", "hidden": "yes"}])
    assert "hidden aspects" in covered(_lair((0, 0, 0, 0)).scene)


# -- one overcome split among several problems (003:2664-2666) ---------------------------------------
from fate_env.rules.options import CreateAdvantage, Share, SplitRemove  # noqa: E402

MESS = {
    "ann": {"kind": "pc", "side": "pcs", "zone": "a", "skills": {"Athletics": 3}, "high_concept": "Acrobat"},
    "bob": {"kind": "pc", "side": "pcs", "zone": "b", "skills": {"Athletics": 1}, "high_concept": "Runner"},
    "brute": {"kind": "major", "side": "npcs", "zone": "a", "skills": {"Crafts": 2}, "high_concept": "Brute"},
}
TRAPS = [{"name": "Slick Floor", "skills": ["Crafts"], "target": "zone"},
         {"name": "Tangled Ropes", "skills": ["Crafts"], "target": "zone"}]


def _step(c, kind, actor, option):
    """Answer ``kind`` for ``actor``, passing invokes and the free move on the way."""
    from fate_env.rules.options import Stay
    while c.pending.kind in ("invoke", "move") and (c.pending.kind, c.pending.actor) != (kind, actor):
        c.step(DoneInvoking() if c.pending.kind == "invoke" else Stay())
    Driver(c).do(kind, actor, option)


def test_one_overcome_split_between_two_aspects_in_the_way():
    """003:2664-2666 with the split of 003:2634-2640. The brute puts Slick Floor and Tangled Ropes on
    Ann's zone; Ann's Athletics 3 + 2 is Superb (+5): Fair (+2) into clearing Slick Floor, Good (+3)
    into Tangled Ropes, each against the brute's Crafts 2 + 0: a tie (a minor cost) and a success;
    both are cleared."""
    from fate_env.rules.options import Pass
    scene = make_scene(MESS, zones=("a", "b"), borders=[{"between": ["a", "b"]}], first="brute", advantages=TRAPS,
                       rules={"name": "condensed", "dials": {"split_effort": True}})
    c = Conflict(scene, seed=0, forced=[(1, 1, 0, 0), (1, 1, 0, 0), (1, 1, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0)])
    _step(c, "turn", "brute", CreateAdvantage("Slick Floor", "a"))
    _step(c, "next", "brute", Next("bob"))
    _step(c, "turn", "bob", Pass())
    _step(c, "turn", "ann", Pass())
    _step(c, "next", "ann", Next("brute"))
    _step(c, "turn", "brute", CreateAdvantage("Tangled Ropes", "a"))
    _step(c, "next", "brute", Next("ann"))
    names = {a.name: a.id for a in c.t.aspects.values()}
    _step(c, "turn", "ann", SplitRemove("a"))
    _step(c, "cost", "ann", Share(names["Slick Floor"], 2))
    assert [(e.actor, e.effort, e.given) for e in c.events if type(e).__name__ == "SplitEffort"] == [
        ("ann", 5, (("Slick Floor", 2), ("Tangled Ropes", 3)))]
    while c.pending is not None and (c.pending.kind == "invoke" or c.pending.kind == "cost" and c.pending.actor == "ann"):
        c.step(DoneInvoking() if c.pending.kind == "invoke" else Choose("minor_cost"))
    outcomes = [(e.actor, e.effort, e.opposition) for e in c.events if type(e).__name__ == "Resolved"][-2:]
    assert outcomes == [("ann", 2, 2), ("ann", 3, 2)]
    assert not {"Slick Floor", "Tangled Ropes"} & {a.name for a in c.t.aspects.values()}
    assert any(type(e).__name__ == "AspectCreated" and e.aspect == "Small Win" for e in c.events)  # the tie's cost


def test_a_split_overcome_needs_the_dial_and_two_aspects_to_clear():
    scene = make_scene(MESS, zones=("a", "b"), borders=[{"between": ["a", "b"]}], first="ann", advantages=TRAPS,
                       rules={"name": "condensed", "dials": {"split_effort": True}})
    c = Conflict(scene, seed=0)
    assert not any(type(o) is SplitRemove for o in c.pending.options)


# -- a zone with its own challenge (003:2606-2609) -----------------------------------------------------
from fate_env.rules.options import Move, ZoneTask  # noqa: E402

BEAST = {
    "ann": {"kind": "pc", "side": "pcs", "zone": "maw", "skills": {"Athletics": 2, "Physique": 1},
            "high_concept": "Spelunker"},
    "heart": {"kind": "major", "side": "npcs", "zone": "heart", "skills": {"Will": 2}, "high_concept": "Beating Heart"},
}
GULLET = {"id": "gullet", "challenge": {"name": "Crushing Muscles", "deeper": ["heart"],
                                        "tasks": [{"name": "Brace", "skill": "Physique", "difficulty": 1},
                                                  {"name": "Squeeze Through", "skill": "Athletics", "difficulty": 2}]}}


def _beast(faces):
    scene = scene_from_dict({"name": "beast", "zones": [{"id": "maw"}, GULLET, {"id": "heart"}],
                             "borders": [{"between": ["maw", "gullet"]}, {"between": ["gullet", "heart"]}],
                             "characters": {**BEAST, "ann": {**BEAST["ann"], "zone": "gullet"}}, "first": "ann"},
                            "<beast>")
    return Conflict(scene, seed=0, forced=list(faces))


from fate_env.content.scenes import scene_from_dict  # noqa: E402


def _to_anns_turn(c):
    """The heart passes; every other question takes its first option, until Ann's turn."""
    from fate_env.rules.options import Pass
    while c.pending.kind != "turn" or c.pending.actor != "ann":
        c.step(Pass() if c.pending.kind == "turn" else Choose("minor_cost") if Choose("minor_cost") in
               c.pending.options else 0)


def test_no_one_goes_deeper_until_every_task_of_the_zones_challenge_is_done():
    """003:2606-2609: the gullet's Crushing Muscles stand between Ann and the heart; she may go back
    to the maw, not on. Brace (Physique 1 + 1 against Average) and Squeeze Through (Athletics 2 + 0
    against Fair) done, the way on opens."""
    c = _beast([(1, 0, 0, 0), (0, 0, 0, 0)])
    opts = c.pending.options
    assert Move("maw") in opts and Move("heart") not in opts and OvercomeMove("heart") not in opts
    assert [o for o in opts if type(o) is ZoneTask] == [ZoneTask("gullet", 0), ZoneTask("gullet", 1)]
    _step(c, "turn", "ann", ZoneTask("gullet", 0))
    _to_anns_turn(c)
    _step(c, "turn", "ann", ZoneTask("gullet", 1))
    while c.pending.kind in ("invoke", "cost"):
        c.step(DoneInvoking() if c.pending.kind == "invoke" else Choose("minor_cost"))
    results = [(e.task, e.result) for e in c.events if type(e).__name__ == "TaskResult"]
    assert results == [("Brace", "success"), ("Squeeze Through", "minor_cost")]
    assert [e.zone for e in c.events if type(e).__name__ == "ZoneChallengeBeaten"] == ["gullet"]
    _to_anns_turn(c)
    assert Move("heart") in c.pending.options and not any(type(o) is ZoneTask for o in c.pending.options)


def test_a_failed_task_stays_and_a_copy_keeps_the_way_shut():
    c = _beast([(-1, -1, 0, 0)])
    _step(c, "turn", "ann", ZoneTask("gullet", 0))
    while c.pending is not None and c.pending.kind == "cost":
        c.step(Choose("fail"))
    assert c.t.zone_tasks == {"gullet": (0, 1)}
    copy = c.clone()
    assert ("gullet", "heart") in copy.map.sealed and copy.t.zone_tasks == {"gullet": (0, 1)}


def test_zone_challenges_in_files_and_on_the_fast_core():
    from fate_env.content.scenes import SceneError
    from fate_env.fast import covered
    bad = {**GULLET, "challenge": {**GULLET["challenge"], "deeper": ["maw2"]}}
    with pytest.raises(SceneError, match=r"zones\.1\.challenge\.deeper\.0.*does not border 'gullet'"):
        scene_from_dict({"name": "beast", "zones": [{"id": "maw"}, bad, {"id": "heart"}],
                         "borders": [{"between": ["maw", "gullet"]}, {"between": ["gullet", "heart"]}],
                         "characters": BEAST}, "<beast>")
    assert "zone challenges" in covered(_beast([]).scene)


def test_an_ally_beside_the_target_may_step_in_and_take_the_hit():
    """000:270 under the stand_in dial: Ann, beside Bob and not on full defense, is asked whether
    she steps between the brute's attack and Bob; she does, defends at her plain Athletics 2 and
    takes the hit: Fight 3 + 1 against Athletics 2 + 0, two shifts (Condensed with the dial on)."""
    scene = make_scene(TRIO, zones=("a", "b"), borders=[{"between": ["a", "b"]}], first="brute",
                       rules={"name": "condensed", "dials": {"stand_in": True}})
    c = Conflict(scene, seed=0, forced=[(1, 0, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "brute", Attack("bob", "Fight"))
    q = d.expect("cost", "ann")
    assert q.options == [Choose("stand_aside"), Choose("stand_in")] and q.context["ward"] == "bob"
    c.step(Choose("stand_in"))
    d.do("respond", "ann", Defend())
    assert _rolls(c)[-1] == ("ann", "defend", 2, ())
    d.skip_invokes()
    assert [(e.target, e.shifts) for e in c.events if type(e).__name__ == "Resolved"] == [("ann", 2)]


def test_stepping_aside_leaves_the_target_to_defend_and_the_dial_is_off_by_default():
    scene = make_scene(TRIO, zones=("a",), first="brute", rules={"name": "condensed", "dials": {"stand_in": True}})
    c = Conflict(scene, seed=0)
    d = Driver(c)
    d.do("turn", "brute", Attack("bob", "Fight"))
    d.do("cost", "ann", Choose("stand_aside"))
    d.expect("respond", "bob")
    plain = Conflict(make_scene(TRIO, zones=("a",), first="brute"), seed=0)
    Driver(plain).do("turn", "brute", Attack("bob", "Fight"))
    Driver(plain).expect("respond", "bob")
