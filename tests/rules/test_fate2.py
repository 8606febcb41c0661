"""The FATE 2.0 rule set (``rules: fate2``, from 001), each rule pinned with forced dice."""

from __future__ import annotations

import pytest
from conftest import DUO, Driver, events, make_scene, rolled, under

from fate_env.rules import events as ev
from fate_env.rules.conflict import Conflict, IllegalChoice
from fate_env.rules.harm import Absorb, TakenOut, absorb_plans
from fate_env.rules.options import Attack, Choose, Concede, Defend, FullDefense, Hold, OfferConcession
from fate_env.content.scenes import SceneError, load_rules

EVEN = (0, 0, 0, 0)
UP2 = (1, 1, 0, 0)


def fate2(chars=DUO, dials=None, **extra):
    return under("fate2", chars, dials, **extra)


def test_the_rule_set_loads_with_its_dials():
    r = load_rules("fate2")
    assert (r.stress_style, r.consequence_rule, r.concession, r.full_defense, r.hold_action, r.turn_order) == (
        "roll_up", "ordered", "offered", "exchange", True, "skills")
    assert r.boxes_for(0) == (1, 2, 3, 4, 5)  # five boxes by default (001:108)


def test_a_hit_marks_its_own_box_or_rolls_up_to_the_next_free_one():
    """001:108-117: a 3-shift hit marks the third box; if that is marked, the next free one above;
    past the last free box only a consequence (or being taken out) will do."""
    c = Conflict(fate2(), seed=0)
    f, rules = c.f["hero"], c.rules
    track = f.tracks["physical"]
    assert track.values == [1, 2, 3, 4, 5]
    assert absorb_plans(f, 3, "physical", rules) == [Absorb((2,), ()), Absorb((), (0,))]
    track.marked[2] = True
    assert absorb_plans(f, 3, "physical", rules)[0] == Absorb((3,), ())  # rolls up to the 4-box
    track.marked[3] = track.marked[4] = True
    assert absorb_plans(f, 3, "physical", rules) == [Absorb((), (0,))]  # boxes 1 and 2 cannot take it
    assert absorb_plans(f, 6, "physical", rules) == [Absorb((), (0,))]  # bigger than the track


def test_consequences_come_in_order_and_three_at_most():
    """001:119-123: the first is mild, the second moderate, the third severe; then only taken out."""
    c = Conflict(fate2(), seed=0)
    f = c.f["hero"]
    order = []
    for _ in range(3):
        plan = absorb_plans(f, 9, "physical", c.rules)
        assert len(plan) == 1 and len(plan[0].slots) == 1
        slot = f.slots[plan[0].slots[0]]
        order.append(slot.severity)
        slot.aspect = -1
    assert order == ["mild", "moderate", "severe"]
    assert absorb_plans(f, 9, "physical", c.rules) == []


def test_a_consequence_takes_the_whole_hit_and_costs_its_holder_on_every_roll():
    """001:117 (a consequence instead of a box) and 001:119 (-1, -2, -3 to the holder's actions)."""
    c = Conflict(fate2(), seed=0, forced=[UP2, EVEN, EVEN, EVEN], autostep_single=False)
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))  # Notice 2 beats the brute's 0: the hero opens
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    absorb = d.expect("absorb", "brute")
    assert absorb.context["shifts"] == 2
    assert absorb.options == [Absorb((1,), ()), Absorb((), (0,)), TakenOut(), OfferConcession()]
    c.step(Absorb((), (0,)))
    assert [s.severity for s in c.f["brute"].slots if s.aspect is not None] == ["mild"]
    assert not any(c.f["brute"].tracks["physical"].marked)  # the consequence took it all
    d.do("turn", "brute", Attack("hero", "Fight"))
    d.do("respond", "hero", Defend())
    brute_roll = rolled(c, "brute")[-1]
    assert brute_roll.base == 3 - 1 and "consequences -1" in brute_roll.notes


def test_no_concession_outside_an_offer():
    """001:150: a concession is offered while taking a consequence, not between rolls."""
    c = Conflict(fate2(), seed=0)
    d = c.pending
    assert d.kind == "turn" and Concede() not in d.options
    with pytest.raises(IllegalChoice, match="offered while taking a consequence"):
        c.concede("hero")
    c.step(Attack("brute", "Fight"))
    assert Concede() not in c.pending.options  # the brute's respond


def _brute_offers(c):
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    d.do("absorb", "brute", OfferConcession())
    assert c.pending.kind == "concession" and c.pending.actor == "hero"
    assert c.pending.options == [Choose("accept"), Choose("refuse")]
    return d


def test_an_accepted_concession_ends_the_fight_without_a_payout():
    """001:150-152: accepted, the conceder is out at once on its own terms; the text pays nothing."""
    c = Conflict(fate2(), seed=0, forced=[UP2, EVEN])
    _brute_offers(c)
    c.step(Choose("accept"))
    assert c.f["brute"].status == "conceded" and c.over
    assert c.outcome.winner == "pcs" and c.outcome.payouts == {}
    assert events(c, ev.Conceded)[0].payout == 0
    assert not any(s.aspect is not None for s in c.f["brute"].slots)  # the hit never landed


def test_a_refused_concession_costs_the_refuser_a_fate_point_and_pays_the_offerer_one():
    """001:150: "the character who offered it gains one fate point, and the character who refused
    it loses one"; the offer still takes its consequence."""
    c = Conflict(fate2(), seed=0, forced=[UP2, EVEN])
    _brute_offers(c)
    c.step(Choose("refuse"))
    assert c.f["hero"].fate_points == 2 and c.fp_spent["hero"] == 1
    assert c.f["brute"].owed == 1
    assert [s.severity for s in c.f["brute"].slots if s.aspect is not None] == ["mild"]
    answer = events(c, ev.ConcessionAnswered)[0]
    assert (answer.actor, answer.by, answer.accepted, answer.lost) == ("brute", "hero", False, 1)


def test_an_npc_refusing_pays_from_the_gm_pool():
    c = Conflict(fate2(first="brute"), seed=0, forced=[EVEN, UP2, UP2, EVEN])
    pool = c.gm_pool
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))  # a fixed order: the hero still opens (first is popcorn's)
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    # the brute won the exchange of dice: no hit; now the brute attacks and the hero offers
    d.do("turn", "brute", Attack("hero", "Fight"))  # the hero has acted: it just defends
    d.skip_invokes()
    d.do("absorb", "hero", OfferConcession())
    d.do("concession", "brute", Choose("refuse"))
    assert c.gm_pool == pool - 1 and c.f["hero"].owed == 1


def test_full_defense_when_first_attacked_gives_up_the_turn_for_the_exchange():
    """001:78-80: +2 on all defenses for the exchange; one who has not acted may declare it when
    first attacked, forgoing its action."""
    c = Conflict(fate2(), seed=0, forced=[EVEN, EVEN])
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    respond = d.expect("respond", "brute")
    assert FullDefense() in respond.options
    c.step(FullDefense())
    assert "full defense +2" in rolled(c, "brute")[-1].notes and rolled(c, "brute")[-1].base == 5
    d.skip_invokes()
    assert events(c, ev.TurnForfeited)[0].actor == "brute"
    assert c.exchange == 2 and c.pending.actor == "hero" and not c.f["brute"].full_defense
    c.step(Attack("brute", "Fight"))
    assert FullDefense() in c.pending.options  # a new exchange: not acted yet, may declare again


def test_one_who_has_acted_cannot_declare_full_defense_when_attacked():
    c = Conflict(fate2(), seed=0, forced=[EVEN, EVEN, EVEN, EVEN], autostep_single=False)
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    d.do("turn", "brute", Attack("hero", "Fight"))
    assert d.expect("respond", "hero").options == [Defend()]


def test_a_held_action_is_taken_between_turns_or_lost_at_the_exchange_end():
    """001:82-84: hold, then take the turn after someone else's, before the next one begins."""
    c = Conflict(fate2(), seed=0, forced=[EVEN] * 8)
    d = Driver(c)
    assert Hold() in c.pending.options
    d.do("turn", "hero", Hold())
    assert events(c, ev.ActionHeld)[0].actor == "hero"
    d.do("turn", "brute", Attack("hero", "Fight"))
    respond = d.expect("respond", "hero")
    assert FullDefense() in respond.options  # holding is not acting
    c.step(Defend())
    d.do("hold", "hero", Choose("act_now"))
    turn = d.expect("turn", "hero")
    assert Hold() not in turn.options  # a held turn is not held again
    c.step(Attack("brute", "Fight"))  # the brute has acted: it just defends
    d.skip_invokes()
    assert c.exchange == 2 and c.pending.actor == "hero"
    d.do("turn", "hero", Hold())
    d.do("turn", "brute", Attack("hero", "Fight"))
    d.do("respond", "hero", Defend())
    d.do("hold", "hero", Choose("keep_holding"))
    lost = events(c, ev.TurnForfeited)
    assert [(e.actor, e.why) for e in lost] == [("hero", "held to the end of the exchange")]
    assert c.exchange == 3


def test_weapons_and_armor_modify_the_rolls():
    """001:86-101 gives weapon 0-3 and armor 0-3 as combat modifiers: the ruling adds them to the
    attack and defense rolls (weapon_effect: roll); the hit is the margin alone."""
    chars = {"hero": {**DUO["hero"], "weapon": 2}, "brute": {**DUO["brute"], "armor": 1}}
    c = Conflict(fate2(chars), seed=0, forced=[EVEN, EVEN])
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    assert "weapon +2" in rolled(c, "hero")[-1].notes and "armor +1" in rolled(c, "brute")[-1].notes
    assert d.expect("absorb", "brute").context["shifts"] == 1  # 3+2 against 3+1
    # weapon_effect: shifts plays them as Fate Condensed's ratings instead (003:2675-2693)
    c2 = Conflict(fate2(chars, {"weapon_effect": "shifts"}), seed=0, forced=[UP2, EVEN])
    d2 = Driver(c2)
    d2.do("turn", "hero", Attack("brute", "Fight"))
    d2.do("respond", "brute", Defend())
    d2.skip_invokes()
    assert rolled(c2, "hero")[-1].notes == () and rolled(c2, "brute")[-1].notes == ()
    assert d2.expect("absorb", "brute").context["shifts"] == 2 + 2 - 1


def test_the_older_skill_names_map_to_the_engines():
    """001:57-62 and 001:106-108 name Melee, Brawling, Endurance…: the rule set maps them."""
    chars = {"hero": {**DUO["hero"], "skills": {"Melee": 2, "Brawling": 4, "Endurance": 3, "Alertness": 2}},
             "brute": DUO["brute"]}
    scene = fate2(chars)
    assert scene.character("hero").skills == {"Fight": 4, "Physique": 3, "Notice": 2}
    assert Conflict(scene, 0).f["hero"].tracks["physical"].values == [1, 2, 3, 4, 5, 6, 7]
    with pytest.raises(SceneError, match=r"characters\.hero\.skills\.Melee: unknown skill"):
        make_scene(chars)


@pytest.mark.parametrize("dials,match", [
    ({"turn_order": "popcorn"}, "hold_action.*turn_order: skills"),
    ({"consequence_rule": "shifts"}, "concession: offered.*consequence_rule: ordered"),
    ({"conditions": "together"}, "ordered.*conditions"),
    ({"skill_names": {}}, "skill_names.*rule set"),
])
def test_dials_that_do_not_fit_are_refused(dials, match):
    with pytest.raises(SceneError, match=match):
        fate2(dials=dials)


def test_an_extra_mild_stunt_is_refused_under_ordered_consequences():
    chars = {**DUO, "hero": {**DUO["hero"], "stunts": [{"name": "Tough", "kind": "extra_mild"}]}}
    with pytest.raises(SceneError, match=r"characters\.hero\.stunts.*three consequences at most"):
        fate2(chars)


def test_gear_by_the_tables_name():
    """001:91-101: weapons 0-3 by kind, armor 0-3 by kind and +1 for a shield; a sheet may name them."""
    chars = {"hero": {**DUO["hero"], "weapon": "Sword", "armor": "mail", "shield": True}, "brute": DUO["brute"]}
    hero = fate2(chars).character("hero")
    assert (hero.weapon, hero.armor) == (2, 3)
    chars["hero"]["weapon"] = "lightsaber"
    with pytest.raises(SceneError, match=r"characters\.hero\.weapon: unknown weapon 'lightsaber'.*sword"):
        fate2(chars)
    chars["hero"]["weapon"] = "sword"
    with pytest.raises(SceneError, match=r"characters\.hero\.weapon: the condensed rule set names no weapons"):
        make_scene(chars)
