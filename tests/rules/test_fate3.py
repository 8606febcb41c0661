"""The Fate 3.0 rule set (``rules: fate3``, from 002), each rule pinned with forced dice."""

from __future__ import annotations

from conftest import DUO, Driver, events, make_scene, rolled, under

from fate_env.rules import events as ev
from fate_env.rules.conflict import Conflict
from fate_env.rules.harm import Absorb
from fate_env.rules.options import (
    Attack, BlockAction, Choose, CreateAdvantage, Defend, DoneInvoking, FullDefense, Invoke, Move, OvercomeMove, Protect, SpendSpin,
)
from fate_env.content.scenes import load_rules

EVEN = (0, 0, 0, 0)
UP2 = (1, 1, 0, 0)
UP4 = (1, 1, 1, 1)
DOWN3 = (-1, -1, -1, 0)


def fate3(chars=DUO, dials=None, **extra):
    return under("fate3", chars, dials, **extra)


def test_the_rule_set_loads_with_its_dials():
    r = load_rules("fate3")
    assert (r.turn_order, r.move_cost, r.sprint, r.defense_overflow, r.protect, r.full_defense, r.hold_action) == (
        "initiative", "minor", "shifts", "spin", True, "exchange", True)
    assert (r.stress_style, r.consequence_rule) == ("roll_up", "shifts")


def test_initiative_by_alertness_then_resolve_then_pcs_first():
    """002:22: highest Alertness acts first, ties by Resolve, then PCs before NPCs."""
    chars = {
        "a": {"kind": "major", "side": "npcs", "zone": "room", "skills": {"Notice": 3, "Will": 1, "Fight": 1}},
        "b": {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Notice": 3, "Will": 2, "Fight": 1}},
        "c": {"kind": "major", "side": "npcs", "zone": "room", "skills": {"Notice": 2, "Will": 0, "Fight": 1}},
        "d": {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Notice": 2, "Will": 0, "Fight": 1}},
    }
    c = Conflict(fate3(chars, {"hold_action": False}), seed=0)
    from fate_env.rules.reach import skill_order
    assert skill_order(c) == ["b", "a", "d", "c"]  # Athletics plays no part (Core's order would use it)


def test_a_one_zone_move_is_a_minor_action_against_the_main_action():
    """002:28 and 002:50-51: moving one zone costs -1 on the main action, a border's value more."""
    chars = {**DUO, "brute": {**DUO["brute"], "zone": "yard"}}
    c = Conflict(fate3(chars, zones=("room", "yard"), borders=[{"between": ["room", "yard"], "difficulty": 1}]),
                 seed=0, forced=[EVEN, EVEN])
    d = Driver(c)
    assert Move("yard") in c.pending.options  # a border's value does not stop a minor move
    d.do("turn", "hero", Move("yard"))
    assert events(c, ev.MinorAction)[0].penalty == 2
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    hero = rolled(c, "hero")[-1]
    assert hero.base == 3 - 2 and "minor actions -2" in hero.notes
    d.skip_invokes()
    assert (c.pending.kind, c.pending.actor) == ("turn", "brute")  # no second move after the action


def test_a_sprint_moves_a_zone_per_shift_and_borders_take_shifts():
    """002:50-51: Athletics against Mediocre; as many zones as shifts, a border's value subtracting."""
    zones = ("a", "b", "c", "d")
    borders = [{"between": ["a", "b"]}, {"between": ["b", "c"], "difficulty": 1}, {"between": ["c", "d"]}]
    chars = {"hero": {**DUO["hero"], "zone": "a", "skills": {"Athletics": 2, "Notice": 2}},
             "brute": {**DUO["brute"], "zone": "d"}}
    c = Conflict(fate3(chars, zones=zones, borders=borders), seed=0, forced=[(1, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "hero", OvercomeMove("d"))
    d.skip_invokes()
    sprint = events(c, ev.Sprinted)[0]
    assert (sprint.shifts, sprint.zones) == (3, 2)  # a->b costs 1, b->c costs 1 + 1: three shifts
    assert c.f["hero"].zone == "c"


def test_a_defense_won_by_three_gives_a_spin_token_not_a_boost():
    """002:94-95: spin on a defense won by 3 or more (Condensed gives a boost, 003:919-921)."""
    c = Conflict(fate3(), seed=0, forced=[DOWN3, EVEN])
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))  # 0 against 3
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    assert c.t.spin == {"brute": 1} and not any(a.kind == "boost" for a in c.aspects.values())
    assert events(c, ev.Spin)[0] == ev.Spin("brute", 1)


def test_a_spin_token_gives_an_ally_plus_one_on_a_defense():
    """002:95: a spin token "can be spent to grant any ally a +1 defense" (not its holder's own)."""
    chars = {**DUO, "mook": {"kind": "minor", "side": "npcs", "zone": "room", "skills": {"Fight": 1}}}
    c = Conflict(fate3(chars, {"hold_action": False}), seed=0, forced=[(1, 0, 0, 0), EVEN], autostep_single=False)
    c.t.spin.update({"mook": 1, "brute": 1})
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))  # 4 against 3
    d.do("respond", "brute", Defend())
    d.do("invoke", "hero", DoneInvoking())
    inv = d.expect("invoke", "brute")
    assert SpendSpin("mook") in inv.options and SpendSpin("brute") not in inv.options
    c.step(SpendSpin("mook"))
    assert c.t.spin == {"mook": 0, "brute": 1}
    spent = events(c, ev.Spin)[-1]
    assert (spent.actor, spent.spent_for) == ("mook", "brute")
    d.skip_invokes()
    assert events(c, ev.Resolved)[-1].shifts == 0  # 4 against 3 + 1


def test_a_block_protects_an_ally_with_the_better_of_two_defenses():
    """002:46: the protected character uses its own defense roll or the block strength, whichever
    is better, against attacks later that exchange."""
    chars = {**DUO, "squire": {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Athletics": 0},
                               "high_concept": "Squire"}}
    chars["hero"] = {**DUO["hero"], "skills": {**DUO["hero"]["skills"], "Notice": 4}}
    chars["brute"] = {**DUO["brute"], "skills": {**DUO["brute"]["skills"], "Notice": 1}}  # before the squire
    c = Conflict(fate3(chars), seed=0, forced=[UP2, EVEN, (-1, -1, 0, 0)])
    d = Driver(c)
    assert Protect("squire") in c.pending.options
    d.do("turn", "hero", Protect("squire"))
    d.skip_invokes()
    assert events(c, ev.Protecting)[0].strength == 3 + 2  # Fight 3 (better than Athletics 2) + 2
    d.do("turn", "brute", Attack("squire", "Fight"))
    d.do("respond", "squire", Defend())  # the squire rolls -2 but defends at 5
    d.skip_invokes()
    held = events(c, ev.BlockHeld)
    assert held and held[0].strength == 5
    assert events(c, ev.Resolved)[-1].shifts == 3 - 5


def test_a_maneuvers_target_may_pay_a_fate_point_not_to_take_it():
    """002:79: the target accepts the temporary aspect or spends a fate point to avoid it."""
    chars = {**DUO, "brute": {**DUO["brute"], "fate_points": 0}}
    c = Conflict(fate3(chars, dials={"hold_action": False}), seed=0, forced=[UP2, EVEN])
    d = Driver(c)
    template = next(o for o in c.pending.options if type(o) is CreateAdvantage and o.target == "brute")
    pool = c.gm_pool
    c.step(template)
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    d.do("cost", "brute", Choose("avoid_aspect"))
    assert c.gm_pool == pool - 1 and events(c, ev.ManeuverAvoided)[0].actor == "brute"
    assert not any(a.kind == "advantage" for a in c.aspects.values())


def test_a_maneuvers_aspect_on_a_character_goes_at_its_first_tag():
    """002:83: fragile aspects always go away the first time they are tagged."""
    c = Conflict(fate3(dials={"maneuver_avoid": False, "hold_action": False}), seed=0,
                 forced=[UP2, EVEN, EVEN, EVEN, EVEN, EVEN])
    d = Driver(c)
    template = next(o for o in c.pending.options if type(o) is CreateAdvantage and o.target == "brute")
    c.step(template)
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    aspect = next(a for a in c.aspects.values() if a.kind == "advantage")
    d.do("turn", "brute", Attack("hero", "Fight"))
    d.do("respond", "hero", Defend())
    d.skip_invokes()
    if c.pending.kind == "absorb":
        c.step(c.pending.options[0])
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    d.do("invoke", "hero", Invoke(aspect.id, "hero", True, "bonus"))
    assert aspect.id not in c.aspects
    assert [e.why for e in events(c, ev.AspectRemoved) if e.aspect_id == aspect.id] == ["fragile: tagged once"]


def test_full_defense_may_be_declared_when_first_attacked():
    """002:40-41: the same full defense as FATE 2.0 (its turn-forfeit and wait are pinned there)."""
    c = Conflict(fate3(), seed=0, forced=[EVEN, EVEN])
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    assert FullDefense() in d.expect("respond", "brute").options


def test_consequences_reduce_the_hit_and_the_rest_rolls_up():
    """002:57-62: a mild consequence takes two off a hit, the rest marks its box or rolls up."""
    c = Conflict(fate3(), seed=0)
    f = c.f["hero"]
    from fate_env.rules.harm import absorb_plans
    plans = absorb_plans(f, 5, "physical", c.rules)
    assert Absorb((4,), ()) in plans and Absorb((2,), (0,)) in plans  # box 5, or mild + box 3
    f.tracks["physical"].marked[2] = True
    assert Absorb((3,), (0,)) in absorb_plans(f, 5, "physical", c.rules)  # mild + 3 rolls up to box 4


def test_a_block_against_an_action_must_be_beaten_first():
    """002:47: the blocked character rolls the action's skill against the block strength; with at
    least one shift it gets past, else the action is spent."""
    c = Conflict(fate3(), seed=0, forced=[UP2, EVEN, UP2, EVEN])
    d = Driver(c)
    d.do("turn", "hero", BlockAction("brute", "attack"))
    d.skip_invokes()
    assert events(c, ev.Blocking)[0] == ev.Blocking("hero", "brute", "attack", 3 + 2)  # Fight 3, the better
    d.do("turn", "brute", Attack("hero", "Fight"))  # Fight 3 + 0 against 5: stopped, the attack spent
    d.skip_invokes()
    tested = events(c, ev.BlockTested)
    assert [(e.actor, e.blocker, e.action, e.past) for e in tested] == [("brute", "hero", "attack", False)]
    assert not [e for e in events(c, ev.Rolled) if e.action == "attack"]
    assert c.exchange == 2 and not c.t.blocked  # the block lasts its exchange


def test_getting_past_a_block_lets_the_action_go_ahead():
    c = Conflict(fate3(), seed=0, forced=[EVEN, UP4, EVEN, EVEN])
    d = Driver(c)
    d.do("turn", "hero", BlockAction("brute", "attack"))  # strength 3
    d.skip_invokes()
    d.do("turn", "brute", Attack("hero", "Fight"))  # 3 + 4 = 7 against 3: past
    d.skip_invokes()
    assert events(c, ev.BlockTested)[0].past
    d.do("respond", "hero", Defend())
    assert [e.actor for e in events(c, ev.Rolled) if e.action == "attack"] == ["brute"]


def test_a_group_attached_to_a_character_acts_at_its_initiative():
    """002:23: a group of minions with a character attached uses that character's initiative."""
    chars = {**DUO,
             "boss": {"kind": "major", "side": "npcs", "zone": "room", "skills": {"Notice": 5, "Fight": 2},
                      "leads": "gang", "controller": "tactician"},
             "gang": {"kind": "mob", "side": "npcs", "zone": "room", "count": 3, "skills": {"Fight": 1}}}
    scene = fate3(chars)
    assert scene.character("gang").controller == "tactician"  # the leader leads its actions
    from fate_env.rules.reach import skill_order
    assert skill_order(Conflict(scene, 0))[:3] == ["boss", "gang", "hero"]


def test_a_leader_must_lead_a_mob_of_its_side():
    import pytest
    from fate_env.content.scenes import SceneError
    chars = {**DUO, "gang": {"kind": "mob", "side": "npcs", "zone": "room", "count": 3, "skills": {"Fight": 1}},
             "brute": {**DUO["brute"], "leads": "hero"}}
    with pytest.raises(SceneError, match=r"characters\.brute\.leads: expected the id of a mob"):
        fate3(chars)
    chars["brute"] = {**DUO["brute"], "leads": "gang", "controller": "sniper"}
    assert make_scene(chars).character("gang").controller == "sniper"  # popcorn: no initiative, still led
