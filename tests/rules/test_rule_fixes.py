"""Rules the engine got wrong or could not express, each pinned with forced dice.

Defending with style against any action, paid and free invokes of one aspect, condensed
stress boxes, weapon against armor on a tie; conceding before any roll, success at a major
cost on a failed overcome, teamwork led by the highest skill, mixed physical and mental
actions in one conflict.
"""

from __future__ import annotations

import json

import pytest
from conftest import DUO, Driver, aspect_id, make_scene

from fate_env.rules.conflict import Conflict, IllegalChoice
from fate_env.rules.options import (
    Attack, Choose, CreateAdvantage, Defend, Exploit, Invoke, Next, OvercomeMove, RemoveAspect, Support,
)
from fate_env.rules.state import CONCEDED
from fate_env.content.scenes import load_scene

ZERO = (0, 0, 0, 0)
MINUS4 = (-1, -1, -1, -1)

def boosts_of(c, who):
    return [e for e in c.events if type(e).__name__ == "AspectCreated" and e.kind == "boost" and e.holder == who]


def types(c):
    return [type(e).__name__ for e in c.events]


# -- 1. defending with style earns a boost against every action (003:919-921, 003:942-944) --------

def test_defending_with_style_against_an_advantage_gives_a_boost():
    c = Conflict(make_scene(DUO, first="hero"), seed=0, forced=[(-1, -1, -1, 0), ZERO])
    d = Driver(c)
    d.do("turn", "hero", CreateAdvantage("Off Balance", "brute"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()  # Fight 3 - 3 = 0 against Fight 3: fails by three
    assert [b.aspect for b in boosts_of(c, "brute")] == ["Upper Hand"]
    d.do("cost", "hero", Choose("no_aspect"))


def test_defending_by_two_against_an_advantage_gives_no_boost():
    c = Conflict(make_scene(DUO, first="hero"), seed=0, forced=[(-1, -1, 0, 0), ZERO])
    d = Driver(c)
    d.do("turn", "hero", CreateAdvantage("Off Balance", "brute"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    assert boosts_of(c, "brute") == []


def test_defending_with_style_against_taking_advantage_of_an_aspect_gives_a_boost():
    c = Conflict(make_scene(DUO, first="hero"), seed=0, forced=[MINUS4, (1, 0, 0, 0)])
    d = Driver(c)
    hulk = aspect_id(c, "Hulking Brute")
    d.do("turn", "hero", Exploit(hulk))
    d.do("respond", "brute", Defend())
    d.skip_invokes()  # Fight 3 - 4 = -1 against Athletics 1 + 1 = 2: fails by three
    assert [b.aspect for b in boosts_of(c, "brute")] == ["Upper Hand"]
    assert c.aspects[hulk].free == {"brute": 1}  # and the failure's free invoke (003:856)


def test_defending_with_style_against_a_move_past_you_gives_a_boost():
    scene = make_scene(DUO, zones=("room", "hall"), borders=[{"between": ["room", "hall"]}], first="hero")
    c = Conflict(scene, seed=0, forced=[MINUS4, ZERO])
    d = Driver(c)
    d.do("turn", "hero", OvercomeMove("hall"))  # the brute stands in the way (000:461-471)
    d.skip_invokes()  # Athletics 2 - 4 = -2 against Fight 3
    assert [b.aspect for b in boosts_of(c, "brute")] == ["Upper Hand"]
    d.do("cost", "hero", Choose("fail"))
    assert c.f["hero"].zone == "room"


def test_defending_with_style_an_advantage_you_made_gives_a_boost():
    c = Conflict(make_scene(DUO, first="brute"), seed=0, forced=[(1, 1, 0, 0), ZERO, MINUS4, ZERO])
    d = Driver(c)
    d.do("turn", "brute", CreateAdvantage("Off Balance", "hero"))
    d.do("respond", "hero", Defend())
    d.skip_invokes()  # 5 against 3: Off Balance on the hero
    off = aspect_id(c, "Off Balance")
    d.do("turn", "hero", RemoveAspect(off))
    d.skip_invokes()  # Athletics 2 - 4 against the brute's Fight 3 (the skill that made it)
    assert [b.aspect for b in boosts_of(c, "brute")] == ["Upper Hand"]


# -- 3. condensed stress boxes (003:455-469; the published table, ../shared/rules/README.md) -------

@pytest.mark.parametrize("rating,boxes,total", [(0, 3, 15), (1, 4, 16), (2, 4, 16), (3, 6, 18), (4, 6, 18),
                                                 (5, 6, 20), (6, 6, 20)])
def test_condensed_stress_boxes_by_physique(rating, boxes, total):
    """Mediocre 3, Average/Fair 4, Good/Great 6, Superb+ 6 and a second mild: 15/16/18/20 shifts."""
    chars = {"hero": {**DUO["hero"], "skills": {"Physique": rating}}, "brute": DUO["brute"]}
    c = Conflict(make_scene(chars, first="hero"), seed=0)
    f = c.f["hero"]
    assert f.tracks["physical"].values == [1] * boxes
    assert sum(f.tracks["physical"].values) + sum(s.value for s in f.slots if s.track in (None, "physical")) == total


# -- 4. weapon against armor on a tie (003:2682-2689) ----------------------------------------------

@pytest.mark.parametrize("weapon,armor,hit,boost", [(1, 1, None, True), (2, 1, 1, False), (1, 0, 1, False),
                                                    (0, 0, None, True)])
def test_weapon_against_armor_on_a_tie(weapon, armor, hit, boost):
    """A weapon hits on a tie instead of the boost; armor that cancels that hit leaves the boost."""
    chars = {"hero": {**DUO["hero"], "weapon": weapon}, "brute": {**DUO["brute"], "armor": armor}}
    scene = make_scene(chars, first="hero", rules={"name": "condensed", "dials": {"weapons": True}})
    c = Conflict(scene, seed=0, forced=[ZERO, ZERO])
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()  # Fight 3 against Fight 3: a tie
    hits = [e.shifts for e in c.events if type(e).__name__ == "Hit"]
    assert hits == ([hit] if hit else [])
    assert bool(boosts_of(c, "hero")) is boost


# -- conceding at any time before a roll (003:1693-1712, 000:408) ----------------------------------

TRIO = {**DUO, "thug": {"kind": "minor", "side": "npcs", "zone": "room", "skills": {"Fight": 1}, "stress": 1}}


def test_a_character_concedes_during_another_characters_turn_and_the_turn_is_asked_again():
    c = Conflict(make_scene(TRIO, first="hero"), seed=0)
    assert Attack("thug", "Fight") in c.pending.options
    c.concede("thug")
    assert c.f["thug"].status == CONCEDED
    d = Driver(c).expect("turn", "hero")
    assert Attack("thug", "Fight") not in d.options and Attack("brute", "Fight") in d.options


def test_the_last_foe_conceding_ends_the_fight_before_the_turn_is_taken():
    c = Conflict(make_scene(DUO, first="hero"), seed=0)
    c.concede("brute")
    assert c.over and c.outcome.winner == "pcs" and c.outcome.conceded == ["brute"]
    assert c.outcome.payouts == {"brute": 1}


def test_the_attacker_conceding_before_the_defense_roll_means_no_roll():
    c = Conflict(make_scene(TRIO, first="hero"), seed=0)
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.expect("respond", "brute")
    c.concede("hero")
    assert "Rolled" not in types(c) and c.over and c.outcome.winner == "npcs"


def test_conceding_is_refused_once_the_dice_are_down_and_changes_nothing():
    c = Conflict(make_scene(TRIO, first="hero"), seed=0, forced=[ZERO, ZERO])
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    d.expect("invoke", "hero")
    before = json.dumps(c.log())
    with pytest.raises(IllegalChoice, match="too late to concede"):
        c.concede("thug")
    with pytest.raises(IllegalChoice, match="no character"):
        c.concede("nobody")
    assert json.dumps(c.log()) == before and c.f["thug"].active


def test_the_chooser_of_the_next_actor_conceding_hands_the_choice_to_an_ally():
    c = Conflict(make_scene(TRIO, first="brute"), seed=0, forced=[ZERO, ZERO])
    d = Driver(c)
    d.do("turn", "brute", Attack("hero", "Fight"))
    d.do("respond", "hero", Defend())
    d.skip_invokes()
    d.expect("next", "brute")
    c.concede("brute")
    d.expect("next", "thug")
    c.step(Next("hero"))
    assert c.pending.actor == "hero"


def test_conceding_on_your_own_turn_is_the_turn_option():
    c = Conflict(make_scene(TRIO, first="hero"), seed=0)
    c.concede("hero")
    assert c.over and c.choices == [c.choices[0]] and c.outcome.conceded == ["hero"]


def test_a_contest_cannot_be_conceded():
    from fate_env.rules.engine import start
    c = start(load_scene("race"), 0)
    with pytest.raises(IllegalChoice, match="only a conflict"):
        c.concede(c.order[0])


# -- success at a major cost on a failed overcome (003:786-789, 003:3291-3294) ---------------------

def _blocked(rules, slots_full=False):
    scene = make_scene(DUO, zones=("room", "hall"), borders=[{"between": ["room", "hall"]}], first="hero",
                       rules=rules)
    c = Conflict(scene, seed=0, forced=[(-1, 0, 0, 0), ZERO])
    if slots_full:
        for s in c.f["hero"].slots:
            s.aspect = -1  # every slot already holds a consequence
    d = Driver(c)
    d.do("turn", "hero", OvercomeMove("hall"))
    d.skip_invokes()  # Athletics 2 - 1 = 1 against the brute's Fight 3: fails by two
    return c, d


def test_a_failed_move_may_succeed_at_a_major_cost_a_consequence():
    c, d = _blocked("condensed")
    d.do("cost", "hero", Choose("major_cost"))
    hero = c.f["hero"]
    cons = [c.aspects[s.aspect] for s in hero.slots if s.aspect is not None]
    assert hero.zone == "hall" and [a.role for a in cons] == ["mild"] and cons[0].free == {"brute": 1}
    assert hero.consequences_taken == 1 and "MajorCost" in types(c)


def test_a_failed_move_may_succeed_at_a_major_cost_an_aspect_for_the_enemy():
    c, d = _blocked({"name": "condensed", "dials": {"major_cost": "enemy_aspect"}})
    d.do("cost", "hero", Choose("major_cost"))
    a = c.aspects[aspect_id(c, "Hard-Won Ground")]
    assert c.f["hero"].zone == "hall" and a.free == {"brute": 2} and a.zone == "hall"


def test_a_failure_stays_a_failure_when_the_major_cost_dial_is_off():
    c, d = _blocked({"name": "condensed", "dials": {"major_cost": "off"}})
    assert c.pending.kind != "cost" and c.f["hero"].zone == "room"


def test_no_major_cost_without_a_free_consequence_to_pay_it():
    c, d = _blocked("condensed", slots_full=True)
    assert "MajorCost" not in types(c) and c.f["hero"].zone == "room"
    assert not any(e.kind == "cost" for e in c.events if type(e).__name__ == "DecisionMade")


# -- teamwork: the highest skill rolls (003:1449-1455, 000:552-556) --------------------------------

@pytest.mark.parametrize("ally_fight,rating,base,leader", [
    (4, 4, 5, "ally"),   # the ally's Fight 4 leads; +1 for the hero's Good Fight
    (1, 3, 4, None),     # the hero's Fight 3 leads; +1 for the ally's Average Fight
])
def test_the_highest_skill_leads_a_combined_roll(ally_fight, rating, base, leader):
    chars = {**DUO, "ally": {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Fight": ally_fight},
                             "fate_points": 0}}
    c = Conflict(make_scene(chars, first="ally"), seed=0, forced=[ZERO, ZERO])
    d = Driver(c)
    d.do("turn", "ally", Support("hero"))
    d.do("next", "ally", Next("hero"))
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    rolled = next(e for e in c.events if type(e).__name__ == "Rolled" and e.actor == "hero")
    assert (rolled.rating, rolled.base) == (rating, base)
    assert [n for n in rolled.notes if "leads" in n] == ([f"{leader} leads the teamwork"] if leader else [])


# -- mixed physical and mental actions in one conflict (003:1414-1419) -----------------------------

MIND = {
    "hero": {**DUO["hero"], "skills": {"Fight": 1, "Provoke": 4, "Deceive": 3}},
    "brute": {**DUO["brute"], "skills": {"Fight": 3, "Will": 1}},
}


MIXED = {"name": "condensed", "dials": {"mixed_conflicts": True}}


def test_a_mental_advantage_in_a_physical_conflict_is_legal():
    """DISTRACTED against the masked acolyte in a physical fight (003:1414-1419)."""
    c = Conflict(make_scene(MIND, first="hero"), seed=0, forced=[ZERO, ZERO])
    d = Driver(c)
    d.do("turn", "hero", CreateAdvantage("Distracted", "brute"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()  # Provoke 4 (the better of Deceive and Provoke) against Will 1: with style
    a = c.aspects[aspect_id(c, "Distracted")]
    assert a.owner == "brute" and a.free == {"hero": 2}


def test_a_mental_attack_in_a_physical_conflict_hits_the_mental_track():
    """Under the mixed_conflicts dial; the hit goes to the track of its source (000:311)."""
    c = Conflict(make_scene(MIND, first="hero", rules=MIXED), seed=0, forced=[ZERO, ZERO])
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Provoke"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()  # Provoke 4 against Will 1: three shifts
    d.do("style", "hero", Choose("full_hit"))
    hit = next(e for e in c.events if type(e).__name__ == "Hit")
    assert (hit.track, hit.shifts) == ("mental", 3)
    d.expect("absorb", "brute")


def test_by_default_a_physical_conflict_has_only_physical_attacks():
    """A conflict is physical or mental by the harm at stake (000:154, 003:1550)."""
    opts = Conflict(make_scene(MIND, first="hero"), seed=0).pending.options
    assert Attack("brute", "Provoke") not in opts and Attack("brute", "Fight") in opts


# -- a GM power while a decision is pending (found by the session's hypothesis test) ---------------

def test_removing_an_aspect_while_a_turn_is_pending_asks_the_turn_again():
    scene = make_scene(DUO, first="hero", aspects=[{"name": "Slippery Floor"}])
    c = Conflict(scene, seed=0)
    slip = aspect_id(c, "Slippery Floor")
    assert Exploit(slip) in c.pending.options
    c.gm_remove_aspect(slip)
    d = Driver(c).expect("turn", "hero")
    assert Exploit(slip) not in d.options and Exploit(aspect_id(c, "Hulking Brute")) in d.options
    added = c.gm_add_aspect("Smoke")
    assert Exploit(added) in c.pending.options


def test_taking_a_fate_point_during_an_invoke_decision_lists_its_options_anew():
    c = Conflict(make_scene({**DUO, "hero": {**DUO["hero"], "fate_points": 1}}, first="hero"), seed=0,
                 forced=[ZERO, ZERO])
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    paid = Invoke(aspect_id(c, "Brave Hero"), "hero", False, "bonus")
    assert paid in d.expect("invoke", "hero").options
    c.gm_fate_points("hero", -1)
    assert c.pending.kind == "invoke" and paid not in c.pending.options
