"""Fate Condensed's optional rules (issue 15), each pinned with forced dice and its lines."""

from __future__ import annotations

import pytest
from conftest import DUO, Driver, aspect_id, make_scene, under

from fate_env.rules.aspects import HIT_NAMES
from fate_env.rules.conflict import Conflict
from fate_env.rules.engine import start
from fate_env.rules.harm import Absorb
from fate_env.rules.options import Attack, Choose, CreateAdvantage, Defend, Invoke
from fate_env.content.scenes import SceneError, load_scene, scene_from_dict

EXTREME = {"extreme_consequences": True}
HUGE_HIT = [(1, 1, 1, 1), (-1, -1, -1, -1)]  # Fight 3 + 4 against the brute's Fight 3 - 4: eight shifts


def _hit_brute_hard(c):
    """The hero's HUGE_HIT on the brute, kept whole: the brute's absorb decision is next."""
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    d.do("style", "hero", Choose("full_hit"))
    d.skip_invokes()
    assert c.pending.kind == "absorb" and c.pending.actor == "brute"


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
    _hit_brute_hard(c)
    assert c.pending.kind == "absorb" and c.pending.actor == "brute"
    extreme = _severities(c, "brute").index("extreme")
    assert c.pending.context["shifts"] == 8
    plan = Absorb((), (extreme,))  # the extreme consequence alone absorbs 8 (003:2206)
    assert plan in c.pending.options
    c.step(plan)
    names = {a.name for a in c.aspects.values() if a.owner == "brute"}
    assert names == {"Hulking Brute", "Loyal to the Boss", HIT_NAMES["Fight"]["extreme"][0]}  # named for the blow
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


# -- scale (003:2400-2439) -------------------------------------------------------------------
def _scaled(dials=None, hero_scale="supernatural", brute_scale=0):
    chars = {"hero": {**DUO["hero"], "scale": hero_scale}, "brute": {**DUO["brute"], "scale": brute_scale}}
    return make_scene(chars, first="hero", rules={"name": "condensed", "dials": dials or {}})


def _rolled(c):
    return [e for e in c.events if type(e).__name__ == "Rolled"]


def test_scale_adds_one_per_level_before_the_roll_to_attack_and_defence():
    """003:2430-2435: +1 per level of difference to every rolled action against the lesser: the
    Supernatural hero attacks at Fight 3 + 1 and, attacked, defends at +1."""
    c = Conflict(_scaled(), seed=0, forced=[(0, 0, 0, 0)] * 4)
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    attack, defence = _rolled(c)[-2:]
    assert (attack.actor, attack.base, attack.notes) == ("hero", 4, ("scale +1",))
    assert (defence.actor, defence.base, defence.notes) == ("brute", 3, ())
    assert c.pending.kind == "absorb" and c.pending.context["shifts"] == 1  # 4 against 3
    # what the controllers see: the hero's attack at 4, and its defence against the brute at 4 too
    assert c.attack_rating("hero", "Fight", "brute") == 4 and c.defense_rating("hero", "brute", "Fight") == 4
    assert c.attack_rating("brute", "Fight", "hero") == 3


def test_two_levels_and_no_scale_between_equals():
    c = Conflict(_scaled(hero_scale="legendary", brute_scale="supernatural"), seed=0, forced=[(0, 0, 0, 0)] * 2)
    Driver(c).do("turn", "hero", Attack("brute", "Fight"))
    c.step(Defend())
    assert _rolled(c)[-2].notes == ("scale +2",)
    same = Conflict(_scaled(hero_scale=1, brute_scale=1), seed=0)
    assert not same.scaled


def test_after_roll_scale_adds_two_shifts_to_a_successful_attack_only():
    """003:2436-2437: +2 per level to the result after the roll, if the roll succeeds."""
    dials = {"scale_benefit": "after_roll"}
    c = Conflict(_scaled(dials), seed=0, forced=[(1, 0, 0, 0), (0, 0, 0, 0)])  # 4 against 3: one shift
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    assert _rolled(c)[-2].notes == ()  # nothing before the roll
    benefit = next(e for e in c.events if type(e).__name__ == "ScaleBenefit")
    assert (benefit.actor, benefit.against, benefit.levels, benefit.shifts) == ("hero", "brute", 1, 2)
    assert c.pending.kind == "style" and c.pending.context["shifts"] == 3  # 1 + 2: now with style
    tie = Conflict(_scaled(dials), seed=0, forced=[(0, 0, 0, 0), (0, 0, 0, 0)])
    d = Driver(tie)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    assert not [e for e in tie.events if type(e).__name__ == "ScaleBenefit"]  # a tie is no success


def test_after_roll_scale_adds_a_free_invoke_per_level_to_a_successful_advantage():
    """003:2438-2439."""
    c = Conflict(_scaled({"scale_benefit": "after_roll"}), seed=0, forced=[(1, 1, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "hero", CreateAdvantage("Off Balance", "brute"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    a = next(a for a in c.aspects.values() if a.name == "Off Balance")
    assert a.free == {"hero": 2}  # one for the success, one for the level of scale


def test_scale_in_an_opposed_contest():
    scene = load_scene("race")
    data_scene = scene_from_dict({**_race_data(), "characters": {**_race_data()["characters"],
                                  "teran": {**_race_data()["characters"]["teran"], "scale": "otherworldly"}}}, "<t>")
    c = start(data_scene, seed=0, forced=[(0, 0, 0, 0), (0, 0, 0, 0)])
    while c.pending is not None and not _rolled(c):
        c.step(0)
    rolls = {r.actor: r for r in _rolled(c)}
    assert rolls["teran"].notes == ("scale +2",) and rolls["cynere"].notes == ()
    assert scene.characters[0].scale == 0


def _race_data():
    import yaml

    from fate_env.content.scenes import config_dir
    return yaml.safe_load((config_dir() / "scenes" / "race.yaml").read_text())


def test_scale_is_checked_in_scene_files_and_the_fast_core_plays_it_on_the_effort():
    """The fast core plays scale's benefit on the effort (tests/fast/test_differential.py compares it) and
    refuses by name the benefit taken after the roll between characters of different scale."""
    from fate_env.fast import covered
    with pytest.raises(SceneError, match=r"characters\.hero\.scale"):
        _scaled(hero_scale="titanic")
    assert not covered(_scaled())
    assert [w for w in covered(_scaled({"scale_benefit": "after_roll"})) if "scale" in w]
    assert not covered(_scaled({"scale_benefit": "after_roll"}, hero_scale=2, brute_scale=2))


# -- countdowns (003:2171-2195) ----------------------------------------------------------------
def _countdown_scene(**countdown):
    cd = {"name": "The Summoning", "boxes": 2, "triggers": ["exchange"], "text": "The gate opens.", **countdown}
    return make_scene(DUO, first="hero", countdowns=[cd])


def _names(c, kind):
    return [e for e in c.events if type(e).__name__ == kind]


def _pass_exchange(c):
    """Everyone passes until the next exchange opens (or the scene ends)."""
    from fate_env.rules.options import Next, Pass
    start = c.t.exchange
    while c.pending is not None and c.t.exchange == start:
        d = c.pending
        if d.kind == "turn":
            c.step(Pass())
        else:
            c.step(Next("hero") if Next("hero") in d.options else 0)


def test_a_countdown_marks_a_box_per_exchange_and_its_outcome_decides_the_scene():
    """003:2180-2190: each trigger marks a box; the last box brings the outcome (here the NPCs win)."""
    c = Conflict(_countdown_scene(winner="npcs"), seed=0)
    _pass_exchange(c)
    assert [(e.marked, e.boxes) for e in _names(c, "CountdownMarked")] == [(1, 2)]
    assert c.t.countdowns == [1] and not c.over
    _pass_exchange(c)
    ended = _names(c, "CountdownEnded")
    assert [(e.countdown, e.text, e.winner) for e in ended] == [("The Summoning", "The gate opens.", "npcs")]
    assert c.over and c.outcome.winner == "npcs" and c.outcome.exchanges == 2


def test_a_countdown_can_put_an_aspect_into_play_and_then_runs_no_more():
    c = Conflict(_countdown_scene(boxes=1, aspect={"name": "Reinforcements Arrive", "free_invokes": {"brute": 2}}),
                 seed=0)
    _pass_exchange(c)
    a = next(a for a in c.aspects.values() if a.name == "Reinforcements Arrive")
    assert a.free == {"brute": 2} and not c.over
    _pass_exchange(c)
    assert len(_names(c, "CountdownMarked")) == 1 and c.t.running == [False]


def test_character_triggers_and_stopping_when_its_character_leaves():
    """A box per consequence the villain takes (003:2187-2188); taken out, its countdown stops."""
    scene = _countdown_scene(boxes=3, triggers=["consequence: brute", "turn: brute"], stops_when_out="brute")
    c = Conflict(scene, seed=0, forced=[(1, 1, 1, 1), (-1, -1, -1, -1)])
    _hit_brute_hard(c)
    c.step(Absorb((), (1, 2)))  # moderate and severe together: two consequences, two boxes
    assert [e.marked for e in _names(c, "CountdownMarked")] == [1, 2]
    c.concede("brute")
    assert [(e.countdown, e.by) for e in _names(c, "CountdownStopped")] == [("The Summoning", "brute")]
    assert c.t.running == [False] and c.outcome.winner == "pcs"


def test_a_copy_carries_the_countdown():
    c = Conflict(_countdown_scene(boxes=3), seed=0)
    _pass_exchange(c)
    twin = c.clone()
    assert twin.t.countdowns == [1] and twin.t.running == [True]
    _pass_exchange(twin)
    assert c.t.countdowns == [1] and twin.t.countdowns == [2]


@pytest.mark.parametrize("countdown,field,expected", [
    ({"triggers": ["midnight"]}, "triggers.0", "is not modelled; a countdown.s triggers mark"),
    ({"triggers": ["turn: nobody"]}, "triggers.0", "character id"),
    ({"winner": "cultists"}, "winner", "no side"),
    ({"stops_when_out": "ghost"}, "stops_when_out", "no character"),
])
def test_countdown_typos_are_named(countdown, field, expected):
    with pytest.raises(SceneError, match=rf"countdowns\.0\.{field}.*{expected}"):
        _countdown_scene(**countdown)


def test_countdowns_are_seen_by_the_environment_and_played_by_the_fast_core():
    from fate_env.environment.actions import ActionLayout, AspectSlots
    from fate_env.environment.observation import ObservationEncoder
    from fate_env.fast import covered
    plain = ObservationEncoder(ActionLayout(make_scene(DUO)))
    with_cd = ObservationEncoder(ActionLayout(_countdown_scene(boxes=4)))
    assert with_cd.size == plain.size + 2
    c = Conflict(_countdown_scene(boxes=4), seed=0)
    _pass_exchange(c)
    slots = AspectSlots(with_cd.A)
    slots.sync(c)
    assert list(with_cd.encode(c, "hero", slots)[-2:]) == [0.25, 1.0]
    assert covered(_countdown_scene()) == []  # compared event for event in tests/fast/test_differential.py


# -- faster contests (003:2219-2230) -----------------------------------------------------------
def test_faster_contests_one_of_roll_advantage_or_teamwork():
    """Each contestant picks one: Landon helps the roll (so tries no advantage), Zird helps
    nobody and creates an advantage instead; Cynere, the roller, tries none."""
    from fate_env.rules import events as ev
    from fate_env.rules.options import NoSupport, RollFor, Support
    c = start(load_scene("chase", rules="condensed", dials={"faster_contests": True}), seed=0,
              forced=[(-1, -1, -1, -1)] + [(0, 0, 0, 0)] * 6)
    d = Driver(c)
    d.do("contest_roll", "cynere", RollFor("cynere", "Athletics"))
    d.do("support", "landon", Support("cynere"))
    d.do("support", "zird", NoSupport())
    assert c.pending.kind == "contest_advantage" and c.pending.actor == "zird"  # cynere and landon are skipped
    template = next(o for o in c.pending.options if type(o) is CreateAdvantage)
    d.do("contest_advantage", "zird", template)
    d.skip_invokes()
    d.do("cost", "zird", Choose("forfeit"))  # it failed: the side's roll goes (003:1531-1534)
    assert [(f.side, f.who, f.what) for f in c.events if isinstance(f, ev.Forfeited)] == [("pcs", "zird", "roll")]


def test_without_the_dial_everyone_may_also_try_an_advantage():
    from fate_env.rules.options import NoSupport, RollFor, Support
    c = start(load_scene("chase"), seed=0)
    d = Driver(c)
    d.do("contest_roll", "cynere", RollFor("cynere", "Athletics"))
    d.do("support", "landon", Support("cynere"))
    d.do("support", "zird", NoSupport())
    assert c.pending.kind == "contest_advantage" and c.pending.actor == "cynere"


# -- conditions (003:2062-2087) ----------------------------------------------------------------
def test_conditions_replace_consequences():
    """Six conditions of half a consequence's value; Superb Physique adds two Hurt boxes."""
    chars = {**DUO, "brute": {**DUO["brute"], "skills": {**DUO["brute"]["skills"], "Physique": 5}}}
    c = Conflict(make_scene(chars, rules={"name": "condensed", "dials": {"conditions": "together"}}), seed=0)
    assert [(s.name, s.severity, s.value, s.track) for s in c.f["hero"].slots] == [
        ("Hurt", "mild", 1, None), ("Scared", "mild", 1, None), ("Injured", "moderate", 2, None),
        ("Shaken", "moderate", 2, None), ("Wounded", "severe", 3, None), ("Demoralized", "severe", 3, None)]
    assert [s.name for s in c.f["brute"].slots][6:] == ["Hurt", "Hurt"]


def test_a_hit_marks_conditions_of_either_kind_and_a_condition_is_one_aspect():
    chars = {**DUO, "brute": {**DUO["brute"], "skills": {**DUO["brute"]["skills"], "Physique": 5}}}
    scene = make_scene(chars, first="hero", rules={"name": "condensed", "dials": {"conditions": "together"}})
    c = Conflict(scene, seed=0, forced=[(1, 1, 1, 1), (-1, -1, -1, -1)])
    _hit_brute_hard(c)
    slots = c.f["brute"].slots
    hurt = [i for i, s in enumerate(slots) if s.name == "Hurt"]
    scared = next(i for i, s in enumerate(slots) if s.name == "Scared")
    shaken = next(i for i, s in enumerate(slots) if s.name == "Shaken")
    plan = Absorb((), tuple(sorted(hurt + [scared, shaken, next(i for i, s in enumerate(slots) if s.name == "Injured")])))
    assert c.pending.context["shifts"] == 8 and plan in c.pending.options, c.pending.options[:5]
    c.step(plan)  # 1 + 1 + 1 (Hurt) + 1 (Scared) + 2 + 2 = 8, a physical hit marking a mental condition too
    mine = sorted(a.name for a in c.aspects.values() if a.owner == "brute" and a.kind == "consequence")
    assert mine == ["Hurt", "Injured", "Scared", "Shaken"]
    hurt_aspect = next(a for a in c.aspects.values() if a.name == "Hurt")
    assert hurt_aspect.free == {"hero": 3}  # one free invoke per box marked


def test_conditions_kept_apart_have_twice_the_boxes_for_their_own_hits_and_a_cutoff_per_row():
    """003:2089-2101: physical hits mark the physical conditions, each with two boxes; once two
    boxes of a row are marked the row takes no more; an extra mild slot adds two boxes and two to
    the row's cutoff."""
    from fate_env.rules.stress import absorb_plans, row_room
    chars = {**DUO, "brute": {**DUO["brute"], "skills": {**DUO["brute"]["skills"], "Physique": 5}}}
    c = Conflict(make_scene(chars, rules={"name": "condensed", "dials": {"conditions": "apart"}}), seed=0)
    hero = c.f["hero"]
    assert [(s.name, s.value, s.track) for s in hero.slots][::2] == [
        ("Hurt", 1, "physical"), ("Scared", 1, "mental"), ("Injured", 2, "physical"), ("Shaken", 2, "mental"),
        ("Wounded", 3, "physical"), ("Demoralized", 3, "mental")]
    assert len(hero.slots) == 12 and row_room(hero, "mild") == 2 and row_room(c.f["brute"], "mild") == 4
    hero.tracks["physical"].marked = [True] * len(hero.tracks["physical"].marked)  # boxes gone: conditions only
    plans = absorb_plans(hero, 2, "physical", c.rules)
    assert all(hero.slots[i].track == "physical" for p in plans for i in p.slots)
    hurt = [i for i, s in enumerate(hero.slots) if s.name == "Hurt"]
    assert any(set(p.slots) == set(hurt) for p in plans)  # both Hurt boxes: the row's two
    hero.slots[hurt[0]].aspect = -1  # one Hurt box marked: one box left in the mild row
    scared = [i for i, s in enumerate(hero.slots) if s.name == "Scared"]
    assert not any(set(p.slots) >= set(scared) for p in absorb_plans(hero, 2, "mental", c.rules))
    # three mental stress boxes, one mild box left in the row, then two boxes of each other row
    assert c.capacity("hero", "mental") == 3 + 1 + 2 * 2 + 2 * 3


def test_conditions_refuse_what_the_engine_does_not_model():
    from fate_env.content.scenes import SceneError
    with pytest.raises(SceneError, match="replace consequences entirely"):
        make_scene(DUO, rules={"name": "condensed", "dials": {"conditions": "together", "extreme_consequences": True}})
    from fate_env.fast import covered
    assert "conditions: together" in covered(make_scene(DUO, rules={"name": "condensed",
                                                                   "dials": {"conditions": "together"}}))


# -- solo bonuses for big bads (003:2574-2602) --------------------------------------------------
TRIO = {
    "hero": DUO["hero"],
    "ally": {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Fight": 2, "Athletics": 1},
             "high_concept": "Loyal Friend", "fate_points": 2},
    "third": {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Fight": 1}, "high_concept": "Plucky Kid",
              "fate_points": 1},
}


def _boss(*bonuses, **extra):
    chars = {**TRIO, "boss": {**DUO["brute"], "solo_bonus": list(bonuses)}, **extra}
    return make_scene(chars, first="hero")


def test_solo_skill_bonus_is_the_groups_teamwork_capped_at_the_skill():
    """Three heroes: +2 on the boss's rolls (003:2581-2587); its Athletics 1 caps it at +1."""
    c = Conflict(_boss("skill"), seed=0, forced=[(0, 0, 0, 0)] * 2)
    d = Driver(c)
    d.do("turn", "hero", Attack("boss", "Fight"))
    d.do("respond", "boss", Defend())
    defence = _rolled(c)[-1]
    assert (defence.actor, defence.skill, defence.base, defence.notes) == ("boss", "Fight", 5, ("solo +2",))
    assert c.attack_rating("boss", "Fight", "hero") == 5
    minion = {"mook": {"kind": "minor", "side": "npcs", "zone": "room", "skills": {"Fight": 1}}}
    with_help = Conflict(_boss("skill", **minion), seed=0)
    assert with_help.attack_rating("boss", "Fight", "hero") == 3  # not alone: no solo bonus


@pytest.mark.parametrize("bonus,shifts_left", [("reduce_stress", 0), ("reduce_stress_min_1", 1)])
def test_solo_stress_reduction(bonus, shifts_left):
    """Three heroes: hits on the boss drop by 2 (half of three, rounded up); the second reading
    keeps a hit at least 1 (003:2588-2591). A 2-shift hit: 0 left, or 1."""
    c = Conflict(_boss(bonus), seed=0, forced=[(1, 1, 0, 0), (0, 0, 0, 0)])  # Fight 3 + 2 against Fight 3
    d = Driver(c)
    d.do("turn", "hero", Attack("boss", "Fight"))
    d.do("respond", "boss", Defend())
    d.skip_invokes()
    solo = _names(c, "SoloBonus")
    assert [(e.character, e.bonus, e.amount) for e in solo] == [("boss", bonus, 2 - shifts_left)]
    hits = _names(c, "Hit")
    assert [h.shifts for h in hits] == ([shifts_left] if shifts_left else [])


def test_amplified_and_suppressed_invokes():
    """003:2593-2600: the boss's paid invoke is worth +3 against three heroes; with suppress, a
    hero's invoke against it is worth +1."""
    from fate_env.rules.options import Invoke
    c = Conflict(_boss("amplified_invokes", "suppress_invokes"), seed=0, forced=[(0, 0, 0, 0), (-1, 0, 0, 0)])
    c.t.gm_pool = 1
    d = Driver(c)
    d.do("turn", "hero", Attack("boss", "Fight"))
    d.do("respond", "boss", Defend())
    brave = aspect_id(c, "Brave Hero")
    d.do("invoke", "hero", Invoke(brave, "hero", False, "bonus"))  # 3 + 0 + 1 against 3 - 1
    hulk = aspect_id(c, "Hulking Brute")
    d.do("invoke", "boss", Invoke(hulk, "boss", False, "bonus"))
    assert [(e.character, e.bonus, e.amount) for e in _names(c, "SoloBonus")] == [
        ("boss", "suppress_invokes", 1), ("boss", "amplified_invokes", 3)]
    roll = c.t.roll
    assert (roll.bonus, roll.opp_bonus) == (1, 3)


def test_solo_bonus_typos_and_kinds_are_refused():
    with pytest.raises(SceneError, match=r"characters\.boss\.solo_bonus"):
        _boss("bigger")
    with pytest.raises(SceneError, match="two readings of one bonus"):
        _boss("reduce_stress", "reduce_stress_min_1")
    with pytest.raises(SceneError, match="major NPC"):
        make_scene({**TRIO, "boss": {"kind": "minor", "side": "npcs", "zone": "room", "skills": {"Fight": 1},
                                     "solo_bonus": ["skill"]}})
    from fate_env.fast import covered  # every solo bonus is played on the fast core but no_stacking
    assert not covered(_boss("skill", "reduce_stress", "amplified_invokes", "suppress_invokes"))
    assert covered(_boss("no_stacking")) == ["boss: the no_stacking solo bonus"]


# -- hazards (003:2270-2297) ---------------------------------------------------------------------
def _hazard_scene(rules="condensed", **hazard):
    hz = {"name": "Machine-Gun Turret", "rating": 4, "weapon": 3, **hazard}  # 003:2364 gives this one
    return make_scene(DUO, first="hero", hazards=[hz], rules=rules)


def test_a_hazard_attacks_at_the_end_of_the_exchange_and_a_tie_hits_for_its_weapon():
    """003:2288-2293: it rolls its rating; a tie or better adds its weapon rating. It fires at the
    lowest defence: the brute's Athletics 1 (Fight does not defend a shot) under the hero's 2."""
    from fate_env.rules.options import Pass
    c = Conflict(_hazard_scene(), seed=0, forced=[(0, 0, 0, 0), (1, 1, 1, 0)])  # 4 against 1 + 3: a tie
    d = Driver(c)
    d.do("turn", "hero", Pass())  # the brute is the only one left to name: it goes next
    d.do("turn", "brute", Pass())
    assert [(e.hazard, e.target) for e in _names(c, "HazardActs")] == [("Machine-Gun Turret", "brute")]
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    turret, defence = _rolled(c)[-2:]
    assert (turret.actor, turret.base, defence.actor, defence.skill) == ("Machine-Gun Turret", 4, "brute", "Athletics")
    assert c.pending.kind == "absorb" and c.pending.context["shifts"] == 3  # a tie: the weapon's 3
    assert c.pending.context["source"] is None


def test_a_hazard_may_create_an_advantage_before_it_attacks():
    """003:2292-2293: "hazards can attack or create advantages". One that creates its aspect puts
    it on its best target while one lacks it (no free invoke: no one holds it), then attacks."""
    from fate_env.rules.options import Pass
    c = Conflict(_hazard_scene(name="Choking Smoke", creates="Coughing", attacks=["pcs"]), seed=0,
                 forced=[(1, 0, 0, 0), (0, 0, 0, 0)])  # 4 + 1 against the hero's Athletics 2
    d = Driver(c)
    d.do("turn", "hero", Pass())
    d.do("turn", "brute", Pass())
    d.do("respond", "hero", Defend())
    d.skip_invokes()
    coughing = [a for a in c.aspects.values() if a.name == "Coughing"]
    assert [(a.owner, a.kind, a.free) for a in coughing] == [("hero", "advantage", {})]
    assert _rolled(c)[-2].action == "create_advantage"
    assert not _names(c, "Hit")
    from fate_env.rules.hazards import targets
    assert targets(c, c.scene.hazards[0]) == ["hero"]  # carrying it now: next time, it attacks


def test_a_hazard_is_an_aspect_and_only_attacks_its_zone_and_sides():
    c = Conflict(_hazard_scene(attacks=["pcs"]), seed=0)
    assert aspect_id(c, "Machine-Gun Turret")
    from fate_env.rules.hazards import targets
    assert targets(c, c.scene.hazards[0]) == ["hero"]
    two_rooms = make_scene(DUO, zones=("room", "hall"), borders=[{"between": ["room", "hall"]}],
                           hazards=[{"name": "Vat of Acid", "rating": 3, "weapon": 4, "zone": "hall"}])
    assert targets(Conflict(two_rooms, seed=0), two_rooms.hazards[0]) == []


@pytest.mark.parametrize("hazard,rules,expected", [
    ({"attacks": ["ghosts"]}, "condensed", r"hazards\.0\.attacks.*no side"),
    ({"zone": "attic"}, "condensed", r"hazards\.0\.zone"),
])
def test_hazard_typos_are_refused(hazard, rules, expected):
    with pytest.raises(SceneError, match=expected):
        _hazard_scene(rules=rules, **hazard)


def test_under_cores_order_the_hazard_acts_at_its_ratings_place():
    """003:2288-2290: a hazard acts in the initiative with its rating; the turret's Great (+4) is
    above every Notice here, so it acts before anyone (more places: tests/rules/test_last_mile.py)."""
    c = Conflict(_hazard_scene(rules="core"), seed=0)
    assert (c.pending.kind, c.pending.actor) == ("respond", "brute")
    assert [e.hazard for e in _names(c, "HazardActs")] == ["Machine-Gun Turret"]
    assert _names(c, "TurnStarted") == []


def test_the_fast_core_plays_hazards_that_attack_and_refuses_those_that_create_advantages():
    """A turret that attacks runs on the fast core (tests/fast/test_differential.py compares it); one that
    creates an advantage instead stays on this engine, named."""
    from fate_env.fast import covered
    assert covered(_hazard_scene()) == []
    assert covered(_hazard_scene(creates="Pinned Down")) == ["hazard 'Machine-Gun Turret', which creates an advantage"]


# -- blocks (003:2300-2345) ---------------------------------------------------------------------
VAT = {"name": "Vat of Acid", "rating": 3, "weapon": 4}        # 003:2387: Good, Weapon:4, Superb to remove
FENCE = {"name": "Chain Link Fence", "rating": 2, "cover": "mitigates"}  # 003:2386: Fair, Great to remove
APART = {"hero": {**DUO["hero"], "skills": {**DUO["hero"]["skills"], "Shoot": 2}},
         "brute": {**DUO["brute"], "zone": "hall"}}


def _blocked(block):
    return make_scene(APART, zones=("room", "hall"), first="hero", borders=[{"between": ["room", "hall"], "block": block}])


def test_the_texts_blocks_and_their_removal_difficulties():
    vat, fence = (_blocked(b).borders[0].block for b in (VAT, FENCE))
    assert (vat.remove_difficulty, fence.remove_difficulty) == (5, 4)
    assert (vat.armor, fence.armor) == (0, 1)


def test_crossing_a_harmful_block_that_stops_you_hurts_by_the_shifts_missed():
    """003:2318-2322: crossing is against the block's rating; failing a block that can harm, the
    roller takes a hit of the shifts missed."""
    from fate_env.rules.options import OvercomeMove
    c = Conflict(_blocked(VAT), seed=0, forced=[(-1, -1, -1, 0)])  # Athletics 2 - 3 against Good (+3)
    d = Driver(c)
    d.do("turn", "hero", OvercomeMove("hall"))
    d.skip_invokes()
    assert [e.difficulty for e in _names(c, "PassiveOpposition")] == [3]
    d.do("cost", "hero", Choose("fail"))
    hit = _names(c, "Hit")[-1]
    assert (hit.target, hit.shifts, hit.source, hit.notes) == ("hero", 4, None, ("Vat of Acid",))
    assert c.f["hero"].zone == "room"


def test_a_block_is_cleared_against_its_rating_plus_two_and_the_border_opens():
    """003:2344-2345; afterwards the move across is a free one."""
    from fate_env.rules.options import Move, RemoveAspect
    c = Conflict(_blocked(FENCE), seed=0, forced=[(1, 1, 0, 0)])  # Athletics 2 + 2 against Great (+4): a tie
    d = Driver(c)
    fence = aspect_id(c, "Chain Link Fence")
    turn = d.expect("turn", "hero")
    assert RemoveAspect(fence) in turn.options and Move("hall") not in turn.options
    d.do("turn", "hero", RemoveAspect(fence))
    d.skip_invokes()
    assert _names(c, "PassiveOpposition")[-1].difficulty == 4
    d.do("cost", "hero", Choose("minor_cost"))
    assert "Chain Link Fence" not in {a.name for a in c.aspects.values()} and c.t.cleared
    twin = c.clone()
    assert twin.map.free_moves("room") == ["hall"] and c.map.free_moves("room") == ["hall"]


def test_a_block_used_as_cover_mitigates_or_negates_shots_across_it():
    """003:2333-2337: mitigating, the defender has armor of half the block's rating (at least 1);
    negating, the shot is not possible."""
    c = Conflict(_blocked(FENCE), seed=0, forced=[(1, 1, 1, 0), (0, 0, 0, 0)])  # Shoot 2 + 3 against 1: 4
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Shoot"))
    d.do("respond", "brute", Defend())
    d.do("style", "hero", Choose("full_hit"))
    assert [(e.target, e.block, e.armor) for e in _names(c, "Cover")] == [("brute", "Chain Link Fence", 1)]
    assert _names(c, "Hit")[-1].shifts == 3
    walled = Conflict(_blocked({**FENCE, "cover": "negates"}), seed=0)
    assert Attack("brute", "Shoot") not in walled.pending.options


def test_block_names_are_checked_and_the_fast_core_plays_blocks():
    """The fast core plays the text's blocks (tests/fast/test_differential.py compares them); a block that
    harms in a mental conflict it refuses by name (its crossing's hit would land on the physical track)."""
    from fate_env.fast import covered
    with pytest.raises(SceneError, match=r"borders\.0\.block\.name"):
        make_scene(APART, zones=("room", "hall"), aspects=[{"name": "Vat of Acid"}],
                   borders=[{"between": ["room", "hall"], "block": VAT}])
    assert covered(_blocked(VAT)) == [] and covered(_blocked(FENCE)) == []
    mental = make_scene(APART, zones=("room", "hall"), conflict="mental",
                        borders=[{"between": ["room", "hall"], "block": VAT}])
    assert covered(mental) == ["a block that harms in a mental conflict"]


# -- expendable minion armor (003:2534-2549) ------------------------------------------------------
def test_a_big_bad_forces_a_minion_into_the_path_of_the_blow():
    """The big bad succeeds at a cost on its defence: the minion in its zone takes the hit without
    defending."""
    from fate_env.rules.options import ShieldWith
    chars = {**DUO, "brute": {**DUO["brute"], "minion_armor": True},
             "mook": {"kind": "minor", "side": "npcs", "zone": "room", "skills": {"Fight": 1}, "stress": 2}}
    c = Conflict(make_scene(chars, first="hero"), seed=0, forced=[(1, 1, 0, 0), (0, 0, 0, 0)])  # 5 against 3
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    assert c.pending.kind == "cost" and c.pending.actor == "brute"
    assert c.pending.options == [Choose("take_hit"), ShieldWith("mook")] and c.pending.context["shifts"] == 2
    c.step(ShieldWith("mook"))
    assert [(e.big_bad, e.minion, e.shifts) for e in _names(c, "MinionArmor")] == [("brute", "mook", 2)]
    hit = _names(c, "Hit")[-1]
    assert (hit.target, hit.shifts) == ("mook", 2)
    assert not any(e.actor == "mook" for e in _rolled(c))  # the minion does not roll to defend


def test_minion_armor_is_a_big_bads_and_the_layout_grows_only_where_it_is_used():
    from fate_env.environment.actions import ActionLayout
    from fate_env.fast import covered
    with pytest.raises(SceneError, match=r"characters\.mook\.minion_armor.*major NPC"):
        make_scene({**DUO, "mook": {"kind": "minor", "side": "npcs", "zone": "room", "skills": {"Fight": 1},
                                    "minion_armor": True}})
    armored = make_scene({**DUO, "brute": {**DUO["brute"], "minion_armor": True}})
    assert ActionLayout(armored).n == ActionLayout(make_scene(DUO)).n + 1 + 2
    assert "expendable minion armor" in covered(armored)


# -- challenge immunity (003:2518-2525) -----------------------------------------------------------
def test_a_big_bad_with_challenge_immunity_cannot_be_touched_until_the_challenge_is_beaten():
    from fate_env.rules.options import Next, Pass, TakeTask
    chars = {**DUO, "brute": {**DUO["brute"], "challenge_immunity": "physical"}}
    scene = make_scene(chars, first="hero",
                       challenge={"side": "pcs", "tasks": [{"name": "Break the Ward", "skill": "Fight", "difficulty": 1}]})
    c = Conflict(scene, seed=0, forced=[(1, 0, 0, 0)])  # Fight 3 + 1 against Average (+1): success
    d = Driver(c)
    turn = d.expect("turn", "hero")
    assert not [o for o in turn.options if type(o) is Attack and o.target == "brute"]
    assert not [o for o in turn.options if type(o) is CreateAdvantage and o.target == "brute"
                and next(t for t in scene.advantages if t.name == o.template).track == "physical"]
    d.do("turn", "hero", TakeTask(0, "hero"))
    d.skip_invokes()
    assert [e.characters for e in _names(c, "ImmunityEnds")] == [("brute",)]
    d.do("turn", "brute", Pass())
    d.do("next", "brute", Next("hero"))
    assert Attack("brute", "Fight") in d.expect("turn", "hero").options


def test_challenge_immunity_needs_a_challenge_and_a_big_bad():
    with pytest.raises(SceneError, match=r"characters\.brute\.challenge_immunity.*challenge section"):
        make_scene({**DUO, "brute": {**DUO["brute"], "challenge_immunity": "both"}})


# -- reveal true form (003:2550-2566) --------------------------------------------------------------
HORROR = {"kind": "major", "side": "npcs", "zone": "room", "skills": {"Fight": 4, "Athletics": 2},
          "high_concept": "The Thing Beneath the Skin"}


def test_a_big_bad_taken_out_reveals_its_true_form_where_it_fell():
    from fate_env.rules.harm import TakenOut
    from fate_env.rules.state import ACTIVE, Status
    chars = {**DUO, "brute": {**DUO["brute"], "true_form": "horror", "carry_consequences": True}, "horror": HORROR}
    c = Conflict(make_scene(chars, first="hero"), seed=0, forced=[(1, 1, 1, 1), (-1, -1, -1, -1)] * 2)
    assert c.f["horror"].status == Status.WAITING and "horror" not in c.t.active_ids()
    _hit_brute_hard(c)
    c.step(TakenOut())
    revealed = _names(c, "TrueFormRevealed")
    assert [(e.fallen, e.true_form, e.zone) for e in revealed] == [("brute", "horror", "room")]
    assert c.f["horror"].status == ACTIVE and not c.over


def test_the_gentler_true_form_carries_consequences_one_step_down():
    """003:2562-2566: mild ones dismissed, moderate and severe one step lower."""
    from fate_env.rules.options import Next, Pass
    chars = {**DUO, "brute": {**DUO["brute"], "true_form": "horror", "carry_consequences": True}, "horror": HORROR}
    c = Conflict(make_scene(chars, first="hero"), seed=0, forced=[(1, 1, 1, 1), (-1, -1, -1, -1)] * 2)
    _hit_brute_hard(c)
    c.step(Absorb((), (1, 2)))  # moderate and severe together: 4 + 6 for the 8 shifts
    d = Driver(c)
    d.do("turn", "brute", Pass())
    d.do("next", "brute", Next("hero"))
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    d.do("style", "hero", Choose("full_hit"))
    d.skip_invokes()  # 8 shifts more than the brute has left: taken out, the only option
    e = _names(c, "TrueFormRevealed")[-1]
    cut, broken = HIT_NAMES["Fight"]["moderate"][0], HIT_NAMES["Fight"]["severe"][0]  # the hero's Fight blow's names
    assert sorted(e.carried) == [f"mild: {cut}", f"moderate: {broken}"]
    assert sorted((s.severity, c.aspects[s.aspect].name) for s in c.f["horror"].slots if s.aspect is not None) == [
        ("mild", cut), ("moderate", broken)]


@pytest.mark.parametrize("extra,expected", [
    ({"brute": {**DUO["brute"], "true_form": "hero"}}, "another major NPC"),
    ({"brute": {**DUO["brute"], "true_form": "horror"}, "horror": {**HORROR, "true_form": "brute"}}, "come back"),
    ({"brute": {**DUO["brute"], "carry_consequences": True}}, "only with a true_form"),
])
def test_true_form_typos_are_refused(extra, expected):
    with pytest.raises(SceneError, match=expected):
        make_scene({**DUO, "horror": HORROR, **extra})


# -- a hive of characters (003:2601-2628) ----------------------------------------------------------
def test_a_hives_heart_cannot_be_struck_while_its_parts_fight():
    from fate_env.rules.harm import TakenOut
    chars = {**DUO, "brute": {**DUO["brute"], "protected_by": ["tentacle"]},
             "tentacle": {"kind": "minor", "side": "npcs", "zone": "room", "skills": {"Fight": 2}, "stress": 0}}
    c = Conflict(make_scene(chars, first="hero"), seed=0, forced=[(1, 0, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    turn = d.expect("turn", "hero")
    assert Attack("tentacle", "Fight") in turn.options and Attack("brute", "Fight") not in turn.options
    d.do("turn", "hero", Attack("tentacle", "Fight"))
    d.do("respond", "tentacle", Defend())
    d.skip_invokes()
    if c.pending is not None and c.pending.kind == "absorb":
        c.step(TakenOut())
    assert not c.f["tentacle"].active
    from fate_env.rules.options import Next, Pass
    d.do("turn", "brute", Pass())
    d.do("next", "brute", Next("hero"))
    assert Attack("brute", "Fight") in d.expect("turn", "hero").options  # the heart is open now
    with pytest.raises(SceneError, match=r"characters\.brute\.protected_by"):
        make_scene({**DUO, "brute": {**DUO["brute"], "protected_by": ["hero"]}})


def test_overcoming_a_hazard_against_its_rating_renders_it_irrelevant():
    """003:2295-2297: passive opposition at its rating; success: its aspect leaves play and it
    takes no more turns (the engine's reading of "rendered irrelevant", 003:2254-2255)."""
    from fate_env.rules.options import Pass, RemoveAspect
    c = Conflict(_hazard_scene(), seed=0, forced=[(1, 1, 1, 1)])  # Athletics 2 + 4 against Great (+4)
    d = Driver(c)
    turret = aspect_id(c, "Machine-Gun Turret")
    d.do("turn", "hero", RemoveAspect(turret))
    d.skip_invokes()
    assert _names(c, "PassiveOpposition")[-1].difficulty == 4
    assert "Machine-Gun Turret" not in {a.name for a in c.aspects.values()}
    d.do("turn", "brute", Pass())
    assert not _names(c, "HazardActs")


def test_creating_an_advantage_against_a_hazard_faces_its_rating():
    """003:2295-2296: "overcome or create an advantage against a hazard ... passive opposition
    equal to the hazard's skill rating": taking advantage of its aspect is against Great (+4)."""
    from fate_env.rules.options import Exploit
    c = Conflict(_hazard_scene(), seed=0, forced=[(1, 1, 1, 0)])
    d = Driver(c)
    turret = aspect_id(c, "Machine-Gun Turret")
    d.do("turn", "hero", Exploit(turret))
    d.skip_invokes()
    assert _names(c, "PassiveOpposition")[-1].difficulty == 4
    assert c.aspects[turret].free.get("hero") == 1  # a tie or better: a free invoke on it


# -- zone attacks (003:2644-2650) ----------------------------------------------------------------
BLAST = {"hero": {**DUO["hero"], "skills": {**DUO["hero"]["skills"], "Shoot": 3},
                  "stunts": [{"name": "Grenadier", "kind": "zone_attack", "skill": "Shoot"}]},
         "pal": {"kind": "pc", "side": "pcs", "zone": "hall", "skills": {"Athletics": 1}, "high_concept": "Pal"},
         "thug1": {"kind": "minor", "side": "npcs", "zone": "hall", "skills": {"Athletics": 0}, "stress": 1},
         "thug2": {"kind": "minor", "side": "npcs", "zone": "hall", "skills": {"Athletics": 2}, "stress": 1}}


def _blast_scene(chars=None):
    return make_scene(chars or BLAST, zones=("room", "hall"), borders=[{"between": ["room", "hall"]}], first="hero")


def test_a_zone_attack_is_one_roll_every_target_defends_against_friend_and_foe():
    """003:2644-2650: no splitting; everyone in the zone, the hero's friend included, defends
    against the total (Shoot 3 + 1 = 4)."""
    from fate_env.rules.options import ZoneAttack
    c = Conflict(_blast_scene(), seed=0, forced=[(1, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    turn = d.expect("turn", "hero")
    assert ZoneAttack("hall", "Shoot") in turn.options and ZoneAttack("room", "Shoot") not in turn.options
    d.do("turn", "hero", ZoneAttack("hall", "Shoot"))
    for who in ("pal", "thug1", "thug2"):
        d.do("respond", who, Defend())
    while c.pending is not None and c.pending.kind in ("invoke", "style", "absorb"):
        c.step(Choose("full_hit") if c.pending.kind == "style" else 0)
    assert _names(c, "ZoneAttacked")[0].targets == ("pal", "thug1", "thug2")
    assert [r.actor for r in _rolled(c)] == ["hero", "pal", "thug1", "thug2"]  # one attack roll, three defences
    assert [(e.target, e.shifts) for e in _names(c, "Resolved")] == [("pal", 3), ("thug1", 4), ("thug2", 2)]


def test_a_target_of_a_zone_attack_may_forgo_its_defense():
    """000:292-294 under the forgo_defense dial: the pal takes the blast against Mediocre (4 shifts)
    while the thugs defend as before."""
    from fate_env.rules.options import ForgoDefense, ZoneAttack
    scene = make_scene(BLAST, zones=("room", "hall"), borders=[{"between": ["room", "hall"]}], first="hero",
                       rules={"name": "condensed", "dials": {"forgo_defense": True}})
    c = Conflict(scene, seed=0, forced=[(1, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "hero", ZoneAttack("hall", "Shoot"))
    d.do("respond", "pal", ForgoDefense())
    for who in ("thug1", "thug2"):
        d.do("respond", who, Defend())
    while c.pending is not None and c.pending.kind in ("invoke", "style", "absorb"):
        c.step(Choose("full_hit") if c.pending.kind == "style" else 0)
    assert [r.actor for r in _rolled(c)] == ["hero", "thug1", "thug2"]  # no defense roll for the pal
    assert [(e.difficulty, e.why) for e in _names(c, "PassiveOpposition")] == [(0, "pal forgoes the defense")]
    assert [(e.target, e.shifts) for e in _names(c, "Resolved")] == [("pal", 4), ("thug1", 4), ("thug2", 2)]


def test_basic_blasts_a_zone_of_foes_but_not_its_friends():
    from agents.basic import BasicController as Basic
    from fate_env.rules.options import ZoneAttack
    c = Conflict(_blast_scene(), seed=0)
    i, _ = Basic()._turn(c, c.pending)
    assert type(c.pending.options[i]) is not ZoneAttack  # the pal is in the blast
    c = Conflict(_blast_scene({k: v for k, v in BLAST.items() if k != "pal"}), seed=0)
    i, why = Basic()._turn(c, c.pending)
    assert c.pending.options[i] == ZoneAttack("hall", "Shoot") and "2 foes" in why


def test_zone_attack_stunts_need_an_attack_skill_and_grow_the_layout_only_where_used():
    from fate_env.environment.actions import ActionLayout
    from fate_env.fast import covered
    bad = {**DUO, "hero": {**DUO["hero"], "stunts": [{"name": "Boom", "kind": "zone_attack", "skill": "Lore"}]}}
    with pytest.raises(SceneError, match=r"characters\.hero\.stunts\.0\.skill.*cannot attack"):
        make_scene(bad)
    lay = ActionLayout(_blast_scene())
    plain = ActionLayout(_blast_scene({**BLAST, "hero": {**BLAST["hero"], "stunts": []}}))
    assert lay.segments["zone_attack"].size == lay.Z * lay.K and plain.segments["zone_attack"].size == 0
    assert lay.n == plain.n + lay.Z * lay.K
    assert covered(_blast_scene()) == []  # the fast core plays zone attacks too (tests/fast/test_differential.py)


# -- splitting effort (003:2634-2646) ------------------------------------------------------------
GOONS = {"sophie": {"kind": "pc", "side": "pcs", "zone": "hall", "skills": {"Fight": 4}, "high_concept": "Duelist",
                    "fate_points": 3},
         **{f"goon{i}": {"kind": "minor", "side": "goons", "zone": "hall", "skills": {"Athletics": 1}, "stress": 1}
            for i in (1, 2, 3)}}


def test_sophies_flurry_splits_epic_effort_three_two_two():
    """003:2641-2646: with an invoke and a good roll her Fight comes in at Epic (+7); she gives
    Good (+3) to the veteran and Fair (+2) to each of the others, and each defends."""
    from fate_env.rules.options import Assign, Invoke, SplitAttack
    scene = make_scene(GOONS, zones=("hall",), first="sophie", rules={"name": "condensed", "dials": {"split_effort": True}})
    c = Conflict(scene, seed=0, forced=[(1, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (-1, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "sophie", SplitAttack("hall", "Fight"))
    for goon in ("goon1", "goon2", "goon3"):  # each may concede before her dice hit the table (003:1695-1696)
        d.do("respond", goon, Defend())
    d.do("invoke", "sophie", Invoke(aspect_id(c, "Duelist"), "sophie", False, "bonus"))  # 4 + 1 + 2 = Epic
    d.skip_invokes()
    assert c.pending.context == {"action": "split", "left": 7, "skill": "Fight"}
    assert Assign("goon1", 8) not in c.pending.options
    d.do("cost", "sophie", Assign("goon1", 3))
    d.do("cost", "sophie", Assign("goon2", 2))
    # the last target takes what is left: one option, taken at once
    split = _names(c, "SplitEffort")[0]
    assert (split.effort, split.given) == (7, (("goon1", 3), ("goon2", 2), ("goon3", 2)))
    while c.pending is not None and c.pending.kind in ("invoke", "absorb", "style"):
        c.step(0)
    # goon1: 3 against 1 + 0; goon2: 2 against 1 + 0; goon3: 2 against 1 - 1
    assert [(e.target, e.effort, e.opposition) for e in _names(c, "Resolved")] == [
        ("goon1", 3, 1), ("goon2", 2, 1), ("goon3", 2, 0)]


def test_without_the_dial_no_split_and_the_layout_keeps_its_size():
    from fate_env.environment.actions import MAX_SHARE, ActionLayout
    from fate_env.rules.options import SplitAttack
    plain = make_scene(GOONS, zones=("hall",), first="sophie")
    c = Conflict(plain, seed=0)
    assert not [o for o in c.pending.options if type(o) is SplitAttack]
    split = make_scene(GOONS, zones=("hall",), rules={"name": "condensed", "dials": {"split_effort": True}})
    lay = ActionLayout(plain)
    # split attacks, their shares, split advantages, split overcomes (a zone) and their shares (an aspect slot)
    assert ActionLayout(split).n == lay.n + 1 * lay.K + 4 * MAX_SHARE + lay.T * 1 + lay.Z + lay.A * MAX_SHARE


def test_an_advantage_split_among_targets_puts_an_aspect_on_each_it_beats():
    """003:2657-2659: separate aspects on several targets take the effort-splitting method: one
    roll, the total split, each target defending against its share."""
    from fate_env.rules.options import Assign, SplitAdvantage
    scene = make_scene(GOONS, zones=("hall",), first="sophie", rules={"name": "condensed", "dials": {"split_effort": True}})
    tpl = next(t.name for t in scene.advantages if t.target == "foe" and "Fight" in t.skills)
    c = Conflict(scene, seed=0, forced=[(1, 1, 0, 0), (0, 0, 0, 0), (1, 1, 0, 0), (-1, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "sophie", SplitAdvantage(tpl, "hall"))  # Fight 4 + 2 = 6
    d.skip_invokes()
    d.do("cost", "sophie", Assign("goon1", 2))
    d.do("cost", "sophie", Assign("goon2", 2))  # goon3 takes the last 2
    while c.pending is not None and c.pending.kind == "invoke":
        c.step(0)
    # goon1: 2 against Athletics 1 + 0, a success; goon2: 2 against 1 + 2, a fail; goon3: 2 against 1 - 1, success
    on = sorted(a.owner for a in c.aspects.values() if a.name == tpl)
    assert on == ["goon1", "goon3"]
    assert all(a.free == {"sophie": 1} for a in c.aspects.values() if a.name == tpl)


def test_basic_puts_a_whole_split_on_the_weakest_defence():
    from agents.basic import BasicController
    from fate_env.rules.options import Assign, SplitAttack
    chars = {**GOONS, "goon2": {**GOONS["goon2"], "skills": {"Athletics": 0}}}
    c = Conflict(make_scene(chars, zones=("hall",), first="sophie",
                            rules={"name": "condensed", "dials": {"split_effort": True}}), seed=0, forced=[(1, 0, 0, 0)])
    Driver(c).do("turn", "sophie", SplitAttack("hall", "Fight"))
    for goon in ("goon1", "goon2", "goon3"):  # each may concede before the dice (003:1695-1696)
        Driver(c).do("respond", goon, Defend())
    Driver(c).skip_invokes()
    i, why = BasicController()._cost(c, c.pending)
    assert c.pending.options[i] == Assign("goon2", 5) and c.scene.display_names["goon2"] in why


# -- distractions (003:2346-2375) ----------------------------------------------------------------
BUS = {"name": "Bus Full of Civilians", "choice": "Will the bus plunge off the bridge?", "opposition": 3,
       "repercussions": {"leave": "All of the civilians on the bus die.", "deal": "The villain gets away!"}}  # 003:2390-2394


def test_dealing_with_a_distraction_is_an_overcome_against_its_opposition_with_its_repercussion():
    from fate_env.rules.options import RemoveAspect
    c = Conflict(make_scene(DUO, first="hero", distractions=[BUS]), seed=0, forced=[(1, 0, 0, 0)])  # Athletics 2 + 1
    d = Driver(c)
    d.do("turn", "hero", RemoveAspect(aspect_id(c, "Bus Full of Civilians")))
    d.skip_invokes()
    assert _names(c, "PassiveOpposition")[-1].difficulty == 3
    d.do("cost", "hero", Choose("minor_cost"))  # a tie: success at a minor cost
    assert [(e.distraction, e.by, e.repercussion) for e in _names(c, "Distraction")] == [
        ("Bus Full of Civilians", "hero", "The villain gets away!")]


def test_a_distraction_left_to_the_end_brings_its_other_repercussion():
    c = Conflict(make_scene(DUO, first="hero", distractions=[BUS]), seed=0)
    c.concede("hero")
    assert [(e.by, e.repercussion) for e in _names(c, "Distraction")] == [(None, "All of the civilians on the bus die.")]
    from fate_env.fast import covered
    assert "distractions" in covered(make_scene(DUO, distractions=[BUS]))


def test_forcing_a_foe_into_a_block_adds_half_its_weapon_rating():
    """003:2324-2326: an attack as normal, plus a weapon rating of half the block's (at least 1):
    the vat's Weapon:4 gives 2; a tie hits for 2, a one-shift hit becomes 3."""
    from fate_env.rules.options import ShoveInto
    together = {**APART, "brute": {**APART["brute"], "zone": "room"}}
    scene = make_scene(together, zones=("room", "hall"), first="hero", borders=[{"between": ["room", "hall"], "block": VAT}])
    for dice, shifts in (((0, 0, 0, 0), 2), ((1, 0, 0, 0), 3)):  # Fight 3 (+0 or +1) against Fight 3 + 0
        c = Conflict(scene, seed=0, forced=[dice, (0, 0, 0, 0)])
        d = Driver(c)
        assert ShoveInto("brute", "Fight", "Vat of Acid") in d.expect("turn", "hero").options
        d.do("turn", "hero", ShoveInto("brute", "Fight", "Vat of Acid"))
        d.do("respond", "brute", Defend())
        d.skip_invokes()
        hit = _names(c, "Hit")[-1]
        assert (hit.target, hit.shifts) == ("brute", shifts) and "Vat of Acid" in hit.notes[0]
    apart = Conflict(_blocked(VAT), seed=0)
    assert not [o for o in apart.pending.options if type(o) is ShoveInto]  # nobody beside the hero


def test_a_block_s_aspect_bears_only_on_crossing_it_clearing_it_or_being_thrown_into_it():
    """003:2306-2313: a block's name is an aspect, but a Vat of Acid "only matters when someone tries to
    cross it or gets thrown into it": not on a fight's every roll (003:2355-2357 for a distraction's
    name, 003:2276-2278 for a hazard's: where it strikes)."""
    from fate_env.rules.options import OvercomeMove, ShoveInto
    def invocable(c):
        return {c.aspects[o.aspect].name for o in c.pending.options if type(o) is Invoke}
    together = {**APART, "brute": {**APART["brute"], "zone": "room"}}
    scene = make_scene(together, zones=("room", "hall"), first="hero", borders=[{"between": ["room", "hall"], "block": VAT}])
    c = Conflict(scene, seed=0, forced=[(0, 0, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))  # a plain attack beside the vat
    d.do("respond", "brute", Defend())
    assert c.pending.kind == "invoke" and "Vat of Acid" not in invocable(c) and "Brave Hero" in invocable(c)
    c = Conflict(scene, seed=0, forced=[(0, 0, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "hero", ShoveInto("brute", "Fight", "Vat of Acid"))  # thrown into it
    d.do("respond", "brute", Defend())
    assert "Vat of Acid" in invocable(c)
    c = Conflict(_blocked(VAT), seed=0, forced=[(0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "hero", OvercomeMove("hall"))  # crossing it
    assert "Vat of Acid" in invocable(c)
    vat = next(a for a in c.aspects.values() if a.name == "Vat of Acid")
    assert vat.obstacle and vat.copy().obstacle and c.clone().aspects[vat.id].obstacle


# -- forgoing a defense (000:292-294) ---------------------------------------------------------------
def test_a_defender_may_forgo_the_defense_and_the_attack_rolls_against_mediocre():
    """000:292-294: a character may forgo the defense and take the hit; the attacker rolls against
    Mediocre (+0). Fight 3 + 1 against nothing: a 4-shift hit (where a defense of Fight 3 + 0 would
    have made it 1)."""
    from fate_env.rules.options import ForgoDefense
    c = Conflict(under("condensed", dials={"forgo_defense": True}, first="hero"), seed=0, forced=[(1, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    assert ForgoDefense() in d.expect("respond", "brute").options
    d.do("respond", "brute", ForgoDefense())
    assert [(e.action, e.difficulty) for e in _names(c, "PassiveOpposition")] == [("attack", 0)]
    assert [e.actor for e in _names(c, "Rolled")] == ["hero"]  # no defense roll
    d.skip_invokes()
    if c.pending.kind == "style":
        d.do("style", "hero", Choose("full_hit"))
    assert _names(c, "Hit")[-1].target == "brute" and _names(c, "Hit")[-1].shifts == 4
    plain = Conflict(under("condensed", first="hero"), seed=0)
    Driver(plain).do("turn", "hero", Attack("brute", "Fight"))
    assert ForgoDefense() not in plain.pending.options  # off by default: no rule set turns it on


# -- contest immunity (003:2527-2532) ---------------------------------------------------------
def _immune(seed_faces):
    from agents.base import controllers_for, play
    chars = {"hero": {**DUO["hero"], "fate_points": 0, "skills": {**DUO["hero"]["skills"], "Athletics": 3}},
             "brute": {**DUO["brute"], "contest_immunity": True, "skills": {"Fight": 3, "Athletics": 2}}}
    scene = make_scene(chars, contest={"victories": 1, "skills": ["Athletics"]}, gm_fate_points=0)
    c = Conflict(scene, seed=0, forced=seed_faces)
    return play(c, controllers_for(scene))


def test_contest_immunity_opens_with_the_contest_the_big_bad_attacking_meanwhile():
    """003:2527-2532: the group must win a contest before attacking the big bad, who attacks them
    while they try (a ruling: its roll hits like a threat's, 003:1520-1523)."""
    from fate_env.rules import events as ev
    c = _immune([(-1, -1, 0, 0), (1, 0, 0, 0)])  # the hero 3-2 = 1 against the brute 2+1 = 3
    kinds = [type(e).__name__ for e in c.events]
    assert kinds.index("ContestStarted") < kinds.index("ExchangeStarted")
    hits = [e for e in c.events if isinstance(e, ev.Hit)]
    assert hits[0] == ev.Hit("hero", "brute", 2, "physical", ("while they try",))
    assert [e for e in c.events if isinstance(e, ev.ImmunityContest)] == [ev.ImmunityContest("brute", False)]
    assert c.outcome.winner == "npcs" and "ConflictStarted" not in kinds  # it gets away


def test_winning_the_contest_breaks_the_immunity_and_the_conflict_begins():
    from fate_env.rules import events as ev
    c = _immune([(1, 1, 0, 0), (0, 0, 0, 0)])  # the hero 3+2 = 5 against 2: a victory
    kinds = [type(e).__name__ for e in c.events]
    assert [e for e in c.events if isinstance(e, ev.ImmunityContest)] == [ev.ImmunityContest("brute", True)]
    assert kinds.index("ImmunityContest") < kinds.index("ConflictStarted")
    assert any(isinstance(e, ev.Rolled) and e.action == "attack" for e in c.events)
    assert c.over and c.outcome.kind == "conflict"


def test_contest_immunity_needs_a_contest_and_a_big_bad():
    chars = {**DUO, "brute": {**DUO["brute"], "contest_immunity": True}}
    with pytest.raises(SceneError, match=r"characters\.brute\.contest_immunity: .*contest section"):
        make_scene(chars)


@pytest.mark.parametrize("bonus,second_free", [([], True), (["no_stacking"], False)])
def test_a_big_bad_may_stop_free_invokes_stacking(bonus, second_free):
    """003:2598-2599: "the big bad might also remove the PCs' ability to stack free invokes":
    facing two or more, one free invoke a roll against it."""
    from fate_env.rules.invokes import invoke_options
    from fate_env.rules.options import Invoke
    chars = {**DUO, "squire": {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Fight": 1},
                               "high_concept": "Squire", "fate_points": 0},
             "brute": {**DUO["brute"], "solo_bonus": bonus}}
    chars["hero"] = {**DUO["hero"], "fate_points": 0}
    scene = make_scene(chars, first="hero", aspects=[{"name": "Slick Floor", "free_invokes": {"hero": 2}}])
    c = Conflict(scene, seed=0, forced=[(-1, -1, -1, -1), (0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", "Fight"))
    d.do("respond", "brute", Defend())
    slick = aspect_id(c, "Slick Floor")
    d.do("invoke", "hero", Invoke(slick, "hero", True, "bonus"))
    frees = [o for o in invoke_options(c, "hero", c.t.roll) if type(o) is Invoke and o.free]
    assert bool(frees) is second_free
    assert c.pending.kind == "invoke"  # still the same roll's invokes


def test_the_threat_is_a_map_its_parts_stay_in_their_zones():
    """003:2601-2615: each zone of a map-like big bad acts as a character against those in it; an
    immobile part never leaves its zone, and (foes_block_movement) stands in the way until out."""
    from fate_env.rules.options import Move, OvercomeMove
    c = start(load_scene("leviathan"), seed=0)
    parts = [x.id for x in c.scene.characters if x.immobile]
    assert parts == ["teeth", "throat", "core"]
    seen = 0
    from agents.base import controllers_for
    ctl = controllers_for(c.scene)
    while c.pending is not None and seen < 40:
        d = c.pending
        if d.kind == "turn" and d.actor in parts:
            assert not [o for o in d.options if type(o) in (Move, OvercomeMove)]
            seen += 1
        c.step(ctl[d.actor].choose(c, d)[0])
    assert seen and all(c.f[p].zone == c.scene.character(p).zone for p in parts)


# -- a skill used to defend against one skill's attacks (003:425-427) ---------------------------------
def _provoker(against="Fight"):
    brute = {**DUO["brute"], "skills": {"Fight": 3, "Shoot": 3, "Athletics": 1, "Provoke": 4},
             "stunts": [{"kind": "use_skill", "skill": "Provoke", "action": "defend", "against": against}]}
    hero = {**DUO["hero"], "skills": {**DUO["hero"]["skills"], "Shoot": 3}}
    return make_scene({"hero": hero, "brute": brute}, first="hero")


@pytest.mark.parametrize("skill, defends_with", [("Fight", "Provoke"), ("Shoot", "Athletics")])
def test_a_defense_stunt_limited_to_one_skill_s_attacks(skill, defends_with):
    """'Use Provoke to defend against Fight attacks' (a rule-changing stunt, 003:425-427): the brute
    defends a Fight attack with Provoke 4, a Shoot attack with what it has without the stunt."""
    c = Conflict(_provoker(), seed=0, forced=[(0, 0, 0, 0)] * 4)
    d = Driver(c)
    d.do("turn", "hero", Attack("brute", skill))
    d.do("respond", "brute", Defend())
    defence = _rolled(c)[-1]
    assert (defence.actor, defence.skill) == ("brute", defends_with)
    assert c.defense_rating("brute", "hero", skill) == (4 if defends_with == "Provoke" else 1)


def test_a_defense_stunt_limited_to_fight_attacks_does_not_defend_an_advantage_made_with_fight():
    """The stunt says attacks: the hero creating Off Balance with Fight is defended with the brute's
    own skills (Fight 3 over Athletics 1), not its Provoke 4."""
    c = Conflict(_provoker(), seed=0, forced=[(0, 0, 0, 0)] * 4)
    d = Driver(c)
    d.do("turn", "hero", CreateAdvantage("Off Balance", "brute"))
    d.do("respond", "brute", Defend())
    defence = _rolled(c)[-1]
    assert (defence.actor, defence.action, defence.skill) == ("brute", "defend", "Fight")


def test_against_is_only_for_a_defense_stunt_and_names_a_skill():
    brute = {**DUO["brute"], "stunts": [{"kind": "use_skill", "skill": "Fight", "action": "attack", "against": "Fight"}]}
    with pytest.raises(SceneError, match=r"stunts\.0\.against.*only a use_skill stunt to defend"):
        make_scene({"hero": DUO["hero"], "brute": brute})
    with pytest.raises(SceneError, match=r"stunts\.0\.against.*unknown skill 'Figth'"):
        make_scene({"hero": DUO["hero"], "brute": {**DUO["brute"], "stunts": [
            {"kind": "use_skill", "skill": "Fight", "action": "defend", "against": "Figth"}]}})
