"""Engine behaviour beyond the worked examples: each rule pinned with forced dice."""

from __future__ import annotations

import copy
import json

import pytest
from conftest import DUO, Driver, aspect_id, make_scene

from fate_env.rules.reach import skill_order
from fate_env.rules.conflict import Conflict, ConflictOver, IllegalChoice
from fate_env.rules.harm import Absorb, TakenOut
from fate_env.rules.options import (
    Attack, Choose, Concede, CreateAdvantage, Defend, DoneInvoking, Exploit, FullDefense, Invoke, Move, Next, OvercomeMove,
    Pass, Stay,
)
from fate_env.rules.state import CONCEDED, TAKEN_OUT

def test_illegal_choice_is_refused_and_changes_nothing():
    c = Conflict(make_scene(DUO, first="hero"), seed=1)
    snapshot = (json.dumps(c.log()), list(c.choices), c.pending.kind, c.pending.actor, list(c.pending.options))
    with pytest.raises(IllegalChoice, match="options 0.."):
        c.step(999)
    with pytest.raises(IllegalChoice, match="not a legal turn option for hero"):
        c.step(Attack("hero", "Fight"))  # attacking yourself is no option
    with pytest.raises(IllegalChoice):
        c.step(Defend())
    assert (json.dumps(c.log()), list(c.choices), c.pending.kind, c.pending.actor, list(c.pending.options)) == snapshot


def test_no_step_after_the_end():
    c = Conflict(make_scene(DUO, first="hero"), seed=1)
    c.step(Concede())
    assert c.over
    with pytest.raises(ConflictOver):
        c.step(0)


def test_same_aspect_once_per_roll_by_fate_point_but_free_invokes_stack():
    """003:606-610: one paid invoke of an aspect per roll; free invokes are the stated exception."""
    scene = make_scene(DUO, first="hero", aspects=[{"name": "Slippery Floor", "free_invokes": {"hero": 2}}])
    c = Conflict(scene, seed=0, forced=[(0, 0, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    brave = aspect_id(c, "Brave Hero")
    slip = aspect_id(c, "Slippery Floor")
    d.do("invoke", "hero", Invoke(brave, "hero", False, "bonus"))
    d.do("invoke", "brute", DoneInvoking())
    opts = d.expect("invoke", "hero").options
    assert Invoke(brave, "hero", False, "bonus") not in opts  # paid once already this roll
    assert Invoke(slip, "hero", True, "bonus") in opts
    d.do("invoke", "hero", Invoke(slip, "hero", True, "bonus"))
    d.do("invoke", "brute", DoneInvoking())
    d.do("invoke", "hero", Invoke(slip, "hero", True, "bonus"))  # a second free invoke on the same aspect
    d.do("invoke", "brute", DoneInvoking())
    d.do("invoke", "hero", DoneInvoking())
    resolved = [e for e in c.events if type(e).__name__ == "Resolved"][-1]
    assert resolved.effort == 3 + 6


@pytest.mark.parametrize("free_first", [True, False])
def test_paid_and_free_invokes_of_one_aspect_do_not_depend_on_their_order(free_first):
    """003:608-610: free invokes are the exception to "once per roll", so one paid invoke and
    every free invoke of the same aspect may go on one roll, in either order; a second paid
    invoke may not."""
    scene = make_scene(DUO, first="hero", aspects=[{"name": "Slippery Floor", "free_invokes": {"hero": 1}}])
    c = Conflict(scene, seed=0, forced=[(0, 0, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    slip = aspect_id(c, "Slippery Floor")
    free, paid = Invoke(slip, "hero", True, "bonus"), Invoke(slip, "hero", False, "bonus")
    first, second = (free, paid) if free_first else (paid, free)
    d.do("invoke", "hero", first)
    d.do("invoke", "brute", DoneInvoking())
    assert second in d.expect("invoke", "hero").options
    d.do("invoke", "hero", second)
    d.do("invoke", "brute", DoneInvoking())
    assert paid not in d.expect("invoke", "hero").options  # the paid invoke was this roll's one
    d.do("invoke", "hero", DoneInvoking())
    resolved = [e for e in c.events if type(e).__name__ == "Resolved"][-1]
    assert (resolved.effort, c.f["hero"].fate_points) == (3 + 4, 2)


def test_hostile_invoke_pays_the_target_at_the_end_and_free_ones_do_not():
    """003:1104-1114: the fate point goes to the target, usable only after the scene."""
    c = Conflict(make_scene(DUO, first="brute"), seed=0, forced=[(0, 0, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "brute", Attack("hero", "Fight"))
    d.do("respond", "hero", Defend())
    reckless = aspect_id(c, "Reckless")
    d.do("invoke", "brute", Invoke(reckless, "brute", False, "bonus"))
    d.do("invoke", "hero", DoneInvoking())
    d.do("style", "brute", Choose("full_hit")) if c.pending.kind == "style" else None
    d.skip_invokes()
    assert c.f["hero"].fate_points == 3  # not usable during the scene
    assert c.f["hero"].owed == 1
    d.do("absorb", "hero", Absorb((0, 1), ()))
    d.do("turn", "hero", Concede())
    assert c.outcome.payouts["hero"] == 1 + 1  # concession + the hostile invoke
    assert c.outcome.fate_points["hero"]["end"] == 5


def test_friends_character_aspects_are_not_bought_with_fate_points():
    """003:611-613: your own aspects, situation aspects, or a foe's (hostile)."""
    chars = copy.deepcopy(DUO)
    chars["friend"] = {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Fight": 1},
                       "high_concept": "Loyal Friend", "fate_points": 2}
    c = Conflict(make_scene(chars, first="hero"), seed=0, forced=[(0, 0, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    opts = d.expect("invoke", "hero").options
    loyal = aspect_id(c, "Loyal Friend")
    assert not [o for o in opts if type(o) is Invoke and o.aspect == loyal and o.payer == "hero"]
    # but the friend may pay to invoke her own aspect on hero's behalf (003:1457-1460)
    assert Invoke(loyal, "friend", False, "bonus") in opts
    assert Invoke(aspect_id(c, "Slow Witted"), "hero", False, "bonus") in opts


def test_reroll_replaces_the_dice():
    c = Conflict(make_scene(DUO, first="hero"), seed=0, forced=[(-1, -1, -1, -1), (0, 0, 0, 0), (1, 1, 1, 1)])
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    d.do("invoke", "hero", Invoke(aspect_id(c, "Brave Hero"), "hero", False, "reroll"))
    d.do("invoke", "brute", DoneInvoking())
    d.do("invoke", "hero", DoneInvoking())
    d.do("style", "hero", Choose("boost"))  # 3+4 vs 3: four shifts with style; take 3 and a boost
    absorb = d.expect("absorb", "brute")
    assert absorb.context["shifts"] == 3
    assert [a.name for a in c.aspects.values() if a.kind == "boost"] == ["Momentum"]


def test_attack_tie_gives_a_boost_and_defender_style_gives_one_too():
    """003:905-906 (tie: boost) and 003:942-944 (defense with style: boost)."""
    c = Conflict(make_scene(DUO, first="hero"), seed=0, forced=[(0, 0, 0, 0), (0, 0, 0, 0),
                                                             (-1, -1, 0, 0), (1, 1, 0, 0)])
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    assert [(a.name, a.free) for a in c.aspects.values() if a.kind == "boost"] == [("Opening", {"hero": 1})]
    d.do("turn", "brute", Attack("hero", "Fight"))
    d.do("respond", "hero", Defend())
    d.skip_invokes()
    boosts = [(a.name, a.free) for a in c.aspects.values() if a.kind == "boost"]
    assert ("Upper Hand", {"hero": 1}) in boosts  # 3-2 = 1 vs 3+2 = 5: four shifts for the defender


def test_unused_boost_expires_after_the_holders_next_turn():
    c = Conflict(make_scene(DUO, first="hero"), seed=0, forced=[(0, 0, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    assert any(a.kind == "boost" for a in c.aspects.values())
    d.do("turn", "brute", Pass())
    d.do("next", "brute", Next("hero"))
    d.do("turn", "hero", Pass())
    assert not any(a.kind == "boost" for a in c.aspects.values())


def test_full_defense_condensed_plus_two_and_boost_if_unused():
    """003:2232-2250."""
    c = Conflict(make_scene(DUO, first="hero"), seed=0, forced=[(0, 0, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "hero", FullDefense())
    d.do("turn", "brute", Pass())
    d.do("next", "brute", Next("hero"))
    d.expect("turn", "hero")
    assert [(a.name, a.free) for a in c.aspects.values() if a.kind == "boost"] == [("Prepared", {"hero": 1})]


def test_full_defense_adds_two_to_defend_rolls():
    for rules in ("condensed", "core"):
        c = Conflict(make_scene(DUO, first="hero", rules=rules), seed=0, forced=[(0, 0, 0, 0), (0, 0, 0, 0)])
        d = Driver(c)
        d.do("turn", "hero", FullDefense())
        d.do("turn", "brute", Attack("hero", "Fight"))
        d.do("respond", "hero", Defend())
        d.skip_invokes()
        rolled = [e for e in c.events if type(e).__name__ == "Rolled" and e.actor == "hero"][-1]
        assert rolled.base == 3 + 2 and "full defense +2" in rolled.notes


def test_minor_npc_has_no_consequences_and_is_taken_out_past_its_boxes():
    """003:1990-1994."""
    chars = copy.deepcopy(DUO)
    chars["brute"] = {"kind": "minor", "side": "npcs", "zone": "room", "skills": {"Fight": 1}, "stress": 2}
    c = Conflict(make_scene(chars, first="hero"), seed=0, forced=[(1, 1, 0, 0), (0, 0, 0, 0)])
    assert c.f["brute"].slots == []
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    d.do("style", "hero", Choose("full_hit"))  # 5 vs 1: four shifts, two boxes: taken out
    assert c.f["brute"].status == TAKEN_OUT and c.over


def test_mob_teamwork_and_hits_carry_to_the_next_member():
    chars = copy.deepcopy(DUO)
    chars["brute"] = {"kind": "mob", "count": 4, "side": "npcs", "zone": "room", "skills": {"Fight": 2}, "stress": 1}
    for rules, base in (("core", 2 + 3), ("condensed", 2 + 2)):
        c = Conflict(make_scene(chars, first="brute", rules=rules), seed=0,
                     forced=[(0, 0, 0, 0), (0, 0, 0, 0), (1, 1, 1, 0), (-1, -1, 0, 0)])
        d = Driver(c)
        if rules == "core":
            d.do("turn", "hero", Pass())
        d.do("turn", "brute", Pass())
        d.do("turn", "hero", Attack("brute", "Fight"))
        d.do("respond", "brute", Defend())
        rolled = [e for e in c.events if type(e).__name__ == "Rolled" and e.actor == "brute"][-1]
        assert rolled.base == base  # three helpers; condensed caps the bonus at the skill (+2)


def test_mob_hit_takes_out_members_and_carries():
    chars = copy.deepcopy(DUO)
    chars["hero"]["skills"]["Fight"] = 5
    chars["brute"] = {"kind": "mob", "count": 3, "side": "npcs", "zone": "room", "skills": {"Fight": 0}, "stress": 1}
    c = Conflict(make_scene(chars, first="hero"), seed=0, forced=[(1, 0, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    d.do("style", "hero", Choose("full_hit"))
    # 6 shifts vs one box each: a member needs 2 shifts to go down: 2 + 2 + 2 = all three
    mob_hit = [e for e in c.events if type(e).__name__ == "MobHit"][-1]
    assert (mob_hit.shifts, mob_hit.members_lost, mob_hit.members_left) == (6, 3, 0)
    assert c.f["brute"].status == TAKEN_OUT


def test_weapons_and_armor_dial():
    """003:2682-2689: weapon adds to a hit (even on a tie), armor takes away; to 0: a boost, no harm."""
    chars = copy.deepcopy(DUO)
    chars["hero"]["weapon"] = 2
    chars["brute"]["armor"] = 1
    scene = make_scene(chars, first="hero", rules={"name": "condensed", "dials": {"weapons": True}})
    c = Conflict(scene, seed=0, forced=[(0, 0, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    hit = [e for e in c.events if type(e).__name__ == "Hit"][-1]
    assert hit.shifts == 2 - 1  # a tie with Weapon:2 against Armor:1
    off = make_scene(chars, first="hero")
    c2 = Conflict(off, seed=0, forced=[(0, 0, 0, 0), (0, 0, 0, 0)])
    d2 = Driver(c2)
    d2.do("turn", "hero", Attack("brute", "Fight"))
    d2.do("respond", "brute", Defend())
    d2.skip_invokes()
    assert not [e for e in c2.events if type(e).__name__ == "Hit"]


def test_superb_physique_gives_an_extra_physical_mild_slot():
    chars = copy.deepcopy(DUO)
    chars["hero"]["skills"]["Physique"] = 5
    for rules, boxes in (("condensed", [1] * 6), ("core", [1, 2, 3, 4])):
        c = Conflict(make_scene(chars, rules=rules), seed=0)
        f = c.f["hero"]
        assert f.tracks["physical"].values == boxes
        assert [(s.severity, s.track) for s in f.slots] == [("mild", None), ("moderate", None), ("severe", None),
                                                            ("mild", "physical")]


def test_extreme_consequence_is_a_pc_only_dial():
    scene = make_scene(DUO, rules={"name": "core", "dials": {"extreme_consequences": True}})
    c = Conflict(scene, seed=0)
    assert [s.severity for s in c.f["hero"].slots][-1] == "extreme"
    assert "extreme" not in [s.severity for s in c.f["brute"].slots]


def test_core_turn_order_and_npcs_at_best_slot():
    chars = {
        "a": {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Notice": 3}},
        "b": {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Notice": 1, "Athletics": 3}},
        "c": {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Notice": 1, "Athletics": 2}},
        "x": {"kind": "major", "side": "npcs", "zone": "room", "skills": {"Notice": 2}},
        "y": {"kind": "minor", "side": "npcs", "zone": "room", "skills": {}},
    }
    c = Conflict(make_scene(chars, rules="core"), seed=0)
    assert skill_order(c) == ["a", "x", "b", "c", "y"]
    c2 = Conflict(make_scene(chars, rules={"name": "core", "dials": {"npcs_at_best_slot": True}}), seed=0)
    assert skill_order(c2) == ["a", "x", "y", "b", "c"]
    mental = Conflict(make_scene({**chars, "a": {**chars["a"], "skills": {"Empathy": 1}}}, rules="core",
                                 conflict="mental"), seed=0)
    assert skill_order(mental)[0] == "a"


def test_popcorn_last_actor_picks_who_opens_the_next_exchange():
    """003:1408-1413."""
    c = Conflict(make_scene(DUO, first="brute"), seed=0)
    d = Driver(c)
    d.do("turn", "brute", Pass())
    d.do("turn", "hero", Pass())  # the only one left: no choice to make
    nxt = d.expect("next", "hero")
    assert {o.character for o in nxt.options} == {"hero", "brute"}
    c.step(Next("hero"))
    d.expect("turn", "hero")
    assert c.exchange == 2


def test_free_move_before_or_after_and_foes_in_the_way():
    chars = copy.deepcopy(DUO)
    chars["brute"]["zone"] = "far"
    scene = make_scene(chars, zones=("room", "hall", "far"), first="hero",
                       borders=[{"between": ["room", "hall"]}, {"between": ["hall", "far"], "difficulty": 2}])
    c = Conflict(scene, seed=0, forced=[(0, 0, 0, 0)])
    d = Driver(c)
    turn = d.expect("turn", "hero")
    assert Move("hall") in turn.options and Move("far") not in turn.options
    assert OvercomeMove("far") in turn.options and OvercomeMove("hall") not in turn.options
    c.step(Move("hall"))
    turn = d.expect("turn", "hero")
    assert not [o for o in turn.options if type(o) is Move]  # one free move a turn
    c.step(OvercomeMove("far"))  # across the impeded border: Athletics 2 vs Fair (+2): a tie
    d.skip_invokes()
    cost = d.expect("cost", "hero")
    assert cost.options == [Choose("minor_cost"), Choose("fail_with_boost")]  # condensed (003:791-793)
    c.step(Choose("minor_cost"))
    assert c.f["hero"].zone == "far"
    # now in the brute's zone: he is in the way of any free move out
    d.do("turn", "brute", Pass())
    d.do("next", "brute", Next("hero"))
    turn = d.expect("turn", "hero")
    assert not [o for o in turn.options if type(o) is Move]


def test_failed_advantage_offers_the_aspect_to_the_enemy():
    """003:842-845."""
    c = Conflict(make_scene(DUO, first="hero"), seed=0, forced=[(-1, -1, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "hero", CreateAdvantage("Off Balance", "brute"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    d.do("cost", "hero", Choose("aspect_for_enemy"))
    a = next(a for a in c.aspects.values() if a.name == "Off Balance")
    assert a.owner == "brute" and a.free == {"brute": 1}


def test_consequence_gives_the_attacker_a_free_invoke_and_concession_counts_it():
    c = Conflict(make_scene(DUO, first="brute"), seed=0, forced=[(1, 1, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "brute", Attack("hero", "Fight"))
    d.do("respond", "hero", Defend())
    d.skip_invokes()
    mild = next(i for i, s in enumerate(c.f["hero"].slots) if s.severity == "mild")
    d.do("absorb", "hero", Absorb((), (mild,)))
    cons = c.aspects[c.f["hero"].slots[mild].aspect]
    assert cons.kind == "consequence" and cons.free == {"brute": 1}
    d.do("turn", "hero", Concede())
    assert c.outcome.payouts == {"hero": 2}
    assert c.outcome.conceded == ["hero"] and c.f["hero"].status == CONCEDED


def test_taken_out_is_always_an_option():
    c = Conflict(make_scene(DUO, first="brute"), seed=0, forced=[(1, 0, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "brute", Attack("hero", "Fight"))
    d.do("respond", "hero", Defend())
    d.skip_invokes()
    absorb = d.expect("absorb", "hero")
    assert absorb.options[-1] == TakenOut()
    c.step(TakenOut())
    assert c.f["hero"].status == TAKEN_OUT and c.outcome.winner == "npcs"


def test_after_action_free_move():
    scene = make_scene(DUO, zones=("room", "hall"), borders=[{"between": ["room", "hall"]}], first="hero",
                       foes_block_movement=False)
    c = Conflict(scene, seed=0)
    d = Driver(c)
    d.do("turn", "hero", Pass())
    move = d.expect("move", "hero")
    assert move.options == [Stay(), Move("hall")]
    c.step(Move("hall"))
    assert c.f["hero"].zone == "hall"


def test_exploit_opposition_dial_lets_a_foe_in_the_zone_interfere():
    """Taking advantage of your own aspect faces a difficulty by default; under
    `exploit_opposition: foe_in_zone` a foe in the zone defends (003:834-838, 000:133), and on a
    failure that foe gets the free invoke (003:856). A foe elsewhere cannot interfere."""
    chars = {
        "hero": {"kind": "pc", "side": "pcs", "zone": "a", "high_concept": "Bold Hero",
                 "skills": {"Fight": 3, "Athletics": 1}},
        "brute": {"kind": "major", "side": "foes", "zone": "a", "skills": {"Fight": 2, "Athletics": 4}},
        "lookout": {"kind": "major", "side": "foes", "zone": "b", "skills": {"Athletics": 5}},
    }
    borders = [{"between": ["a", "b"]}]
    for dial, expect_active in (("difficulty", False), ("foe_in_zone", True)):
        scene = make_scene(chars, zones=("a", "b"), borders=borders, first="hero",
                           rules={"name": "condensed", "dials": {"exploit_opposition": dial}})
        # hero: Fight 3 + 0 = Good; brute (if asked): Athletics 4 + 0 = Great -> fails by 1
        c = Conflict(scene, seed=0, forced=[(0, 0, 0, 0), (0, 0, 0, 0)])
        concept = next(a for a in c.aspects.values() if a.name == "Bold Hero")
        Driver(c).do("turn", "hero", Exploit(concept.id))
        Driver(c).skip_invokes()
        rolled = [e for e in c.events if type(e).__name__ == "Rolled"]
        resolved = [e for e in c.events if type(e).__name__ == "Resolved"][-1]
        if expect_active:
            assert [(e.actor, e.skill) for e in rolled] == [("hero", "Fight"), ("brute", "Athletics")]
            assert resolved.opposition == 4 and concept.free == {"brute": 1}
        else:
            assert [e.actor for e in rolled] == ["hero"]
            assert resolved.opposition == 2 and concept.free == {"hero": 1}
    with pytest.raises(Exception, match="exploit_opposition"):
        make_scene(chars, zones=("a", "b"), borders=borders,
                   rules={"name": "condensed", "dials": {"exploit_opposition": "always"}})


def test_exploit_opposition_dial_plays_whole_shipped_fights():
    """Whole fights play out under the dial. In the duel the fighters nearly always share a zone,
    so under `foe_in_zone` an advantage on an existing aspect is almost never rolled against a
    difficulty, where by default many are (26 against 1 on these seeds)."""
    from agents.base import controllers_for, play
    from fate_env.rules.engine import start
    from fate_env.content.scenes import load_scene
    passive = {}
    for dial in ("difficulty", "foe_in_zone"):
        for name in ("duel", "warehouse"):
            scene = load_scene(name, dials={"exploit_opposition": dial})
            assert scene.rules.exploit_opposition == dial
            for seed in range(30):
                policy = "random" if seed % 2 else "tactician"
                c = play(start(scene, seed), controllers_for(scene, {s: policy for s in scene.sides}, seed=seed))
                assert c.over
                if name == "duel":
                    passive[dial] = passive.get(dial, 0) + sum(
                        1 for e in c.events
                        if type(e).__name__ == "PassiveOpposition" and e.why.startswith("take advantage of"))
    assert passive["difficulty"] >= 10 and passive["foe_in_zone"] * 5 < passive["difficulty"], passive
