"""The rules' last mile (issue 32): five rulings the texts contradicted, hazards placed in an
order by skills, and the rules no scene can ask for, refused by name. Each rule is pinned with
forced dice and the lines of ../shared/rules it follows."""

from __future__ import annotations

import re

import pytest
from conftest import DUO, ROOT, Driver, aspect_id, events, make_scene, under

from fate_env.rules import events as ev
from fate_env.rules.conflict import Conflict
from fate_env.rules.not_modelled import NOT_MODELLED
from fate_env.rules.options import Attack, Choose, CreateAdvantage, Defend, Exploit, FullDefense, Move, Pass, ShoveInto
from fate_env.rules.ruleset import RuleSetError
from fate_env.content.scenes import SceneError, load_rules

EVEN = (0, 0, 0, 0)
UP1 = (1, 0, 0, 0)
DOWN1 = (-1, 0, 0, 0)
DOWN3 = (-1, -1, -1, 0)
UP3 = (1, 1, 1, 0)


def boosts(c, holder):
    return [e.aspect for e in events(c, ev.AspectCreated) if e.kind == "boost" and e.holder == holder]


def hits(c):
    return [(e.target, e.shifts) for e in events(c, ev.Hit)]


# -- 1. a hazard's hit meets the target's armor (003:2274, 003:2290-2291, 003:2686-2687) ----------

def _hazard_fight(armor, rules="condensed", weapon_effect="shifts"):
    chars = {**DUO, "brute": {**DUO["brute"], "armor": armor}}
    return make_scene(chars, first="hero", rules={"name": rules, "dials": {"weapons": True, "weapon_effect": weapon_effect}},
                      hazards=[{"name": "Machine-Gun Turret", "rating": 4, "weapon": 3}])


def _to_the_hazard(c):
    d = Driver(c)
    d.do("turn", "hero", Pass())
    d.do("turn", "brute", Pass())  # popcorn: the hazard acts once everyone has (rules/hazards.py)
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    return d


def test_a_hazards_tie_hits_for_its_weapon_less_the_targets_armor():
    """Weapon:3 on a tie against Armor:1 hits for 2, not 3: armor makes any hit worth less."""
    c = Conflict(_hazard_fight(armor=1), seed=0, forced=[EVEN, UP3])  # 4 against Athletics 1 + 3: a tie
    _to_the_hazard(c)
    assert hits(c) == [("brute", 2)]
    assert events(c, ev.Hit)[0].notes == ("Machine-Gun Turret: weapon 3, armor 1",)


def test_armor_that_takes_a_hazards_whole_hit_leaves_no_harm_and_no_boost():
    """003:2688-2689 gives the boost to the attacker; a hazard is no one to hold it."""
    c = Conflict(_hazard_fight(armor=3), seed=0, forced=[EVEN, UP3])
    _to_the_hazard(c)
    assert hits(c) == [] and boosts(c, "Machine-Gun Turret") == []
    assert c.pending.kind == "next"


def test_with_ratings_as_roll_modifiers_armor_adds_to_the_defense_against_a_hazard():
    """weapon_effect: roll (001:86-101): armor is a modifier on the defense roll, as against an attack."""
    c = Conflict(_hazard_fight(armor=1, weapon_effect="roll"), seed=0, forced=[EVEN, (1, 1, 0, 0)])
    _to_the_hazard(c)  # 4 against Athletics 1 + 2 + armor 1: a tie, the weapon's 3 whole
    defence = [e for e in events(c, ev.Rolled) if e.actor == "brute"][-1]
    assert defence.base == 2 and "armor +1" in defence.notes
    assert hits(c) == [("brute", 3)]


# -- 2, 3. one path for all armor: a weapon's tie meets cover, cover to 0 gives the boost ---------

FENCE = {"name": "Chain Link Fence", "rating": 2, "cover": "mitigates"}  # Fair: cover of Armor:1 (003:2333-2337)
VAT = {"name": "Vat of Acid", "rating": 3, "weapon": 4}


def _across(block, weapon=0, weapons=False, brute_armor=0):
    chars = {"hero": {**DUO["hero"], "skills": {**DUO["hero"]["skills"], "Shoot": 2}, "weapon": weapon},
             "brute": {**DUO["brute"], "zone": "hall", "armor": brute_armor}}
    return make_scene(chars, zones=("room", "hall"), first="hero", rules={"name": "condensed", "dials": {"weapons": weapons}},
                      borders=[{"between": ["room", "hall"], "block": block}])


def _shoot(c):
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Shoot"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    return d


def test_a_weapons_hit_on_a_tie_meets_a_blocks_cover():
    """003:2682-2684 (a weapon hits on a tie) with 003:2335-2336 (cover is an Armor rating):
    Weapon:2 tying through a fence of Armor:1 hits for 1."""
    c = Conflict(_across(FENCE, weapon=2, weapons=True), seed=0, forced=[DOWN1, EVEN])  # Shoot 2 - 1 against Athletics 1
    _shoot(c)
    assert [(e.target, e.armor) for e in events(c, ev.Cover)] == [("brute", 1)]
    assert hits(c) == [("brute", 1)] and boosts(c, "hero") == []


def test_a_tie_without_a_weapon_is_a_boost_whatever_the_cover():
    c = Conflict(_across(FENCE), seed=0, forced=[DOWN1, EVEN])
    _shoot(c)
    assert hits(c) == [] and boosts(c, "hero") == ["Opening"] and events(c, ev.Cover) == []


def test_cover_that_takes_a_hit_to_nothing_gives_the_attacker_a_boost():
    """003:2686-2689: armor that brings a hit to 0 leaves the attacker a boost; cover is armor."""
    c = Conflict(_across(FENCE), seed=0, forced=[EVEN, EVEN])  # Shoot 2 against Athletics 1: one shift
    _shoot(c)
    assert [e.armor for e in events(c, ev.Cover)] == [1]
    assert hits(c) == [] and boosts(c, "hero") == ["Glancing Blow"]


def test_sheet_armor_and_cover_add_up_on_one_path():
    """Weapon:2 and a 3-shift hit against Armor:1 behind Armor:1 cover: 3 + 2 - 1 - 1 = 3."""
    c = Conflict(_across(FENCE, weapon=2, weapons=True, brute_armor=1), seed=0, forced=[(1, 1, 0, 0), EVEN])
    d = _shoot(c)
    d.do("style", "hero", Choose("full_hit"))
    assert hits(c) == [("brute", 3)]


def test_forced_into_a_block_on_a_tie_the_blocks_weapon_meets_armor():
    """003:2324-2326: forcing someone into a block adds a Weapon rating of half the block's (4 -> 2);
    on a tie it hits for that, less the target's Armor:1 (003:2686-2687): 1."""
    chars = {"hero": DUO["hero"], "brute": {**DUO["brute"], "armor": 1}}
    scene = make_scene(chars, zones=("room", "hall"), first="hero", rules={"name": "condensed", "dials": {"weapons": True}},
                       borders=[{"between": ["room", "hall"], "block": VAT}])
    c = Conflict(scene, seed=0, forced=[EVEN, EVEN])
    d = Driver(c)
    shove = next(o for o in c.pending.options if type(o) is ShoveInto)
    d.do("turn", "hero", shove)
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    assert hits(c) == [("brute", 1)]


# -- 4. Fate 3.0: full defense gives up the minor actions too (002:41) ------------------------------

def test_fate3_full_defense_is_not_offered_after_a_minor_action_move():
    chars = {**DUO, "brute": {**DUO["brute"], "zone": "hall"}}
    scene = under("fate3", chars, zones=("room", "hall"), borders=[{"between": ["room", "hall"]}])
    c = Conflict(scene, seed=0)
    assert FullDefense() in c.pending.options  # before any minor action: open
    c.step(Move("hall"))
    assert (c.pending.kind, c.pending.actor) == ("turn", "hero")
    assert FullDefense() not in c.pending.options
    assert Pass() in c.pending.options


def test_condensed_full_defense_is_still_offered_after_the_free_move():
    chars = {**DUO, "brute": {**DUO["brute"], "zone": "hall"}}
    scene = make_scene(chars, zones=("room", "hall"), borders=[{"between": ["room", "hall"]}], first="hero")
    c = Conflict(scene, seed=0)
    c.step(Move("hall"))
    assert FullDefense() in c.pending.options  # the free move is no action (003:1546-1552)


# -- 5. Fate 3.0: a maneuver needs a shift; no boosts, no success at a cost (002:79) ----------------

def test_the_advantage_rule_dial():
    assert (load_rules("fate3").advantage_rule, load_rules("condensed").advantage_rule,
            load_rules("core").advantage_rule, load_rules("fate2").advantage_rule) == ("maneuver", "create", "create", "create")
    with pytest.raises(SceneError, match=r"advantage_rule.*create, maneuver"):
        under("condensed", dials={"advantage_rule": "boost"})


def _maneuver(rules, forced):
    c = Conflict(under(rules, first="hero") if rules == "condensed" else under(rules), seed=0, forced=forced)
    d = Driver(c)
    d.do("turn", "hero", CreateAdvantage("Off Balance", "brute"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    return c


def test_a_tied_maneuver_places_nothing_and_gives_no_boost():
    c = _maneuver("fate3", [EVEN, EVEN])  # Fight 3 against Fight 3
    assert boosts(c, "hero") == [] and events(c, ev.AspectCreated) == []
    assert (c.pending.kind, c.pending.actor) == ("turn", "brute")
    tied = _maneuver("condensed", [EVEN, EVEN])  # Condensed's tie: a boost (003:830-831)
    assert boosts(tied, "hero") == ["Off Balance"]


def test_a_failed_maneuver_offers_no_success_at_a_cost():
    c = _maneuver("fate3", [DOWN1, EVEN])
    assert c.pending.kind != "cost" and events(c, ev.AspectCreated) == []
    failed = _maneuver("condensed", [DOWN1, EVEN])
    assert failed.pending.kind == "cost" and Choose("aspect_for_enemy") in failed.pending.options  # 003:842-845


def test_a_maneuver_with_a_shift_places_the_aspect():
    c = _maneuver("fate3", [UP1, EVEN])
    c.step(Choose("take_aspect"))  # the target may pay not to take it (002:79); it does not
    assert [(e.aspect, e.free_invokes) for e in events(c, ev.AspectCreated)] == [("Off Balance", 1)]


def test_a_maneuver_with_style_still_merits_one_free_tag():
    """002:79: "Since this aspect was created, it merits one free tag" — one, however big the success;
    Condensed's style gives two (003:849-852)."""
    c = _maneuver("fate3", [UP3, DOWN1])  # Fight 3 + 3 against Athletics 1 - 1: five shifts
    c.step(Choose("take_aspect"))
    assert [(e.aspect, e.free_invokes) for e in events(c, ev.AspectCreated)] == [("Off Balance", 1)]
    styled = _maneuver("condensed", [UP3, DOWN1])
    assert [(e.aspect, e.free_invokes) for e in events(styled, ev.AspectCreated)] == [("Off Balance", 2)]


def test_a_tie_on_an_aspect_in_play_gives_no_free_invoke_under_the_maneuver_rule():
    for rules, free in (("fate3", {}), ("condensed", {"hero": 1})):
        c = Conflict(under(rules, first="hero") if rules == "condensed" else under(rules), seed=0, forced=[DOWN1, UP1])
        d = Driver(c)
        hulk = aspect_id(c, "Hulking Brute")
        d.do("turn", "hero", Exploit(hulk))
        d.do("respond", "brute", Defend())
        d.skip_invokes()  # Fight 3 - 1 against Athletics 1 + 1: a tie
        assert c.aspects[hulk].free == free, rules


def test_the_fast_core_plays_the_maneuver_rule():
    """Fate 3.0's maneuvers run on the fast core (tests/fast/test_differential.py compares them event for event)."""
    from fate_env.fast import covered
    assert covered(under("condensed", dials={"advantage_rule": "maneuver"})) == []


# -- hazards in an order by skills take their place by their rating (003:2288-2290) ---------------

def _hazard_in_order(rating, rules="core"):
    return make_scene(DUO, rules=rules, hazards=[{"name": "Rockfall", "rating": rating, "weapon": 1}])


def _sequence(c):
    out = []
    for e in c.events:
        if isinstance(e, ev.TurnStarted):
            out.append(e.actor)
        elif isinstance(e, ev.HazardActs):
            out.append(e.hazard)
    return out


def _play_passes(c, exchanges=2):
    while c.pending is not None and c.t.exchange <= exchanges:
        kind = c.pending.kind
        if kind == "turn":
            c.step(Pass())
        elif kind == "respond":
            c.step(Defend())
        else:
            c.step(0)


@pytest.mark.parametrize("rating,first_exchange", [
    (4, ["Rockfall", "hero", "brute"]),   # above the hero's Notice 2: before everyone
    (2, ["hero", "Rockfall", "brute"]),   # equal to the hero's: after the hero (ruling)
    (1, ["hero", "Rockfall", "brute"]),   # between Notice 2 and the brute's 0
    (0, ["hero", "brute", "Rockfall"]),   # equal to the brute's 0: last
])
def test_a_hazard_acts_at_its_ratings_place_in_cores_order(rating, first_exchange):
    c = Conflict(_hazard_in_order(rating), seed=3)
    _play_passes(c)
    assert _sequence(c)[:6] == first_exchange * 2


def test_a_hazard_that_takes_out_the_next_in_order_passes_the_turn_on():
    chars = {**DUO, "brute": {**DUO["brute"], "kind": "minor", "stress": 1, "skills": {"Fight": 3, "Athletics": 0}}}
    scene = make_scene(chars, rules="core", hazards=[{"name": "Rockfall", "rating": 1, "weapon": 4, "attacks": ["npcs"]}])
    c = Conflict(scene, seed=0, forced=[EVEN, EVEN, EVEN])
    d = Driver(c)
    d.do("turn", "hero", Pass())
    d.do("respond", "brute", Defend())
    d.skip_invokes()  # 1 against 0: a hit of 1 + 4
    while c.pending is not None and c.pending.kind == "absorb":
        c.step(c.pending.options[-1])
    assert c.pending is None and c.outcome.winner == "pcs"


def test_a_copy_taken_at_a_hazards_decision_in_order_plays_on_the_same():
    c = Conflict(_hazard_in_order(1), seed=5)
    c.step(Pass())  # the hero; then the hazard attacks
    assert c.pending.kind == "respond"
    twin = c.clone()
    _play_passes(c, 3)
    _play_passes(twin, 3)
    assert c.log() == twin.log()


# -- the rules no scene can ask for: refused by name, and the docs list exactly these ----------------

def _asking(entry):
    """A scene's raw mapping that asks for ``entry``'s rule, as a file would."""
    import copy
    data = {"name": "ask", "zones": [{"id": "room"}], "characters": copy.deepcopy(DUO),
            "aspects": [{"name": "Dusty"}], "advantages": [{"name": "Pinned", "skills": ["Fight"], "target": "foe"}],
            "countdowns": [{"name": "Fuse", "boxes": 3, "triggers": ["exchange"]}]}
    if entry.place == "dials":
        data["rules"] = {"name": "condensed", "dials": {entry.key: True}}
    elif entry.place == "scene":
        data[entry.key] = True
    elif entry.place == "characters":
        data["characters"]["brute"][entry.key] = True
    else:
        data[entry.place][0][entry.key] = True
    return data


@pytest.mark.parametrize("entry", NOT_MODELLED, ids=lambda n: n.key)
def test_a_scene_asking_for_a_rule_not_modelled_is_refused_naming_the_rule(entry):
    from fate_env.content.scenes import scene_from_dict
    with pytest.raises(SceneError) as err:
        scene_from_dict(_asking(entry), "ask.yaml")
    message = str(err.value)
    assert "\n" not in message and entry.refusal() in message and entry.cite in message
    assert entry.key in err.value.field or entry.key in message


@pytest.mark.parametrize("entry", [n for n in NOT_MODELLED if n.place == "dials"], ids=lambda n: n.key)
def test_a_rule_set_asking_for_a_rule_not_modelled_is_refused(entry):
    from fate_env.rules.ruleset import from_dict, to_dict
    with pytest.raises(RuleSetError, match=re.escape(entry.refusal())):
        from_dict({**to_dict(load_rules("fate3")), entry.key: "yes"})


def test_a_countdown_trigger_the_engine_does_not_count_is_refused_naming_the_rule():
    from fate_env.rules.not_modelled import BY_PLACE
    from fate_env.content.scenes import scene_from_dict
    entry = BY_PLACE["countdowns"]["box_triggers"]
    data = _asking(entry)
    del data["countdowns"][0]["box_triggers"]
    data["countdowns"][0]["triggers"] = ["an hour passes"]
    with pytest.raises(SceneError) as err:
        scene_from_dict(data, "ask.yaml")
    assert err.value.field == "countdowns.0.triggers.0" and entry.refusal() in str(err.value)


def test_the_docs_not_modelled_list_is_exactly_the_refusals():
    page = (ROOT / "docs" / "not_modelled.md").read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if line.startswith("| ") and not line.startswith(("| edition", "| ---"))]
    assert len(rows) == len(NOT_MODELLED)
    for entry, row in zip(NOT_MODELLED, rows):
        assert f"`{entry.field()}`" in row and entry.cite in row and entry.rule in row
    rules_page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "[not_modelled.md](not_modelled.md)" in rules_page  # the rulings page points to the list
    others = [ROOT / "README.md", ROOT / "ARCHITECTURE.md"] + sorted((ROOT / "docs").glob("*.md"))
    for path in others:  # and no other page keeps a list of its own of what is missing
        if path.name != "not_modelled.md":
            assert path.read_text(encoding="utf-8").count("Not modelled") <= 1, path
