"""Every worked example of the rules texts that fits a conflict, with forced dice.

Citations are ``file:line`` in ../shared/rules (000 = Fate Core SRD chapter,
003 = Fate Condensed).
"""

from __future__ import annotations

from conftest import Driver, make_scene

from fate_env.rules.reach import skill_order
from fate_env.rules.conflict import Conflict
from fate_env.rules.harm import Absorb, TakenOut
from fate_env.rules.options import (
    Attack, Choose, Concede, CreateAdvantage, Defend, DoneInvoking, Exploit, Invoke, Next, OvercomeMove, Pass, Support,
)
from fate_env.rules.state import CONCEDED, TAKEN_OUT
from fate_env.content.scenes import load_scene


def slot_index(f, severity):
    return next(i for i, s in enumerate(f.slots) if s.severity == severity and s.track is None)


# -- the ghoul and Charles (Fate Condensed) -------------------------------------

def test_ghoul_and_charles_all_three_hits():
    """003:1571-1580 (2 shifts, two of three boxes), 003:1636-1645 (Hungry for Flesh,
    5 shifts: moderate + last box), 003:1678-1691 (Legendary vs Poor: taken out)."""
    scene = load_scene("ghoul")
    c = Conflict(scene, seed=0, forced=[
        (1, 1, 0, 0), (-1, 0, 0, 0),     # hit 1: Fair+2 = Great (+4) vs Good-1 = Fair (+2)
        (1, 1, 0, 0), (-1, -1, 0, 0),    # hit 2: +2 and Hungry for Flesh = Fantastic (+6) vs Average (+1)
        (1, 1, 1, 1), (-1, -1, -1, -1),  # hit 3: +4 and the free invoke on the wound = Legendary (+8) vs Poor (-1)
    ])
    d = Driver(c)
    charles = c.f["charles"]
    assert charles.tracks["physical"].values == [1, 1, 1]  # Mediocre Physique: three boxes (003:1586)

    # hit 1
    d.do("turn", "ghoul", Attack("charles", "Fight"))
    d.do("respond", "charles", Defend())
    d.skip_invokes()
    absorb = d.expect("absorb", "charles")
    assert absorb.context["shifts"] == 2
    c.step(Absorb((0, 1), ()))
    assert charles.tracks["physical"].marked == [True, True, False]
    d.do("turn", "charles", Pass())
    d.do("next", "charles", Next("ghoul"))

    # hit 2: the ghoul pays from the GM pool (one PC, one point: 003:2009) to invoke Hungry for Flesh
    d.do("turn", "ghoul", Attack("charles", "Fight"))
    d.do("respond", "charles", Defend())
    hungry = next(a.id for a in c.aspects.values() if a.name == "Hungry for Flesh")
    d.do("invoke", "ghoul", Invoke(hungry, "ghoul", False, "bonus"))
    d.do("style", "ghoul", Choose("full_hit"))  # 5 shifts is with style; the ghoul keeps the full hit
    absorb = d.expect("absorb", "charles")
    assert absorb.context["shifts"] == 5
    moderate = slot_index(charles, "moderate")
    assert Absorb((2,), (moderate,)) in absorb.options
    c.step(Absorb((2,), (moderate,)))
    wound = c.aspects[charles.slots[moderate].aspect]
    assert wound.free == {"ghoul": 1}  # whoever inflicted it gets a free invoke (003:1631-1634)
    assert c.gm_pool == 0
    d.do("turn", "charles", Pass())
    d.do("next", "charles", Next("ghoul"))

    # hit 3: 9 shifts; mild + severe absorb only 8, so no plan exists: taken out
    d.do("turn", "ghoul", Attack("charles", "Fight"))
    d.do("respond", "charles", Defend())
    d.do("invoke", "ghoul", Invoke(wound.id, "ghoul", True, "bonus"))
    d.do("style", "ghoul", Choose("full_hit"))
    assert c.over
    assert charles.status == TAKEN_OUT and charles.taken_out_by == "ghoul"
    resolved = [e for e in c.events if type(e).__name__ == "Resolved"]
    assert [(r.effort, r.opposition, r.shifts) for r in resolved] == [(4, 2, 2), (6, 1, 5), (8, -1, 9)]
    assert c.outcome.winner == "monsters"


# -- Fate Core: stress boxes, Og and Landon, Cynere's 6-shift hit ---------------

CORE_DUO = {
    "landon": {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Fight": 4, "Athletics": 3, "Physique": 3},
               "high_concept": "Disciple of the Ivory Shroud"},
    "cynere": {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Athletics": 4, "Fight": 3, "Notice": 3}},
    "og": {"kind": "major", "side": "smugglers", "zone": "room", "skills": {"Fight": 4, "Athletics": 2, "Physique": 3}},
}


def test_og_three_shift_hit_on_landons_escalating_track():
    """000:315-323: Landon has 2 and 4 left (1 and 3 marked); a 3-shift hit must take the 4."""
    c = Conflict(make_scene(CORE_DUO, rules="core"), seed=0, forced=[(1, 1, 0, 0), (0, 0, 0, -1)])
    landon = c.f["landon"]
    track = landon.tracks["physical"]
    assert track.values == [1, 2, 3, 4]  # Good Physique under core: 1-4 boxes
    track.marked = [True, False, True, False]
    d = Driver(c)
    d.do("turn", "cynere", Pass())  # core order: Notice, then Athletics (000:254-258)
    d.do("turn", "landon", Pass())
    d.do("turn", "og", Attack("landon", "Fight"))
    d.do("cost", "cynere", Choose("stand_aside"))  # Core lets her step in (000:270); the example has her not
    d.do("respond", "landon", Defend())
    d.do("style", "og", Choose("full_hit"))
    absorb = d.expect("absorb", "landon")
    assert absorb.context["shifts"] == 3  # Og's Fight 4+2 = Fantastic vs Landon's Fight 4-1 = Good
    stress_only = [o for o in absorb.options if type(o) is Absorb and not o.slots]
    assert stress_only == [Absorb((3,), ())]  # only the 4-point box; one box per hit (000:307-309)
    c.step(Absorb((3,), ()))
    assert [track.values[i] for i in track.free()] == [2]  # "one more stress box, a 2-shift box" (000:323)


def test_cynere_six_shift_hit_offers_both_legal_absorptions():
    """000:338-342: a severe consequence, or a moderate plus the 2-point box."""
    c = Conflict(make_scene(CORE_DUO, rules="core"), seed=0, forced=[(1, 1, 0, 0), (-1, -1, -1, -1)])
    cynere = c.f["cynere"]
    assert cynere.tracks["physical"].values == [1, 2]  # Mediocre Physique under core
    d = Driver(c)
    d.do("turn", "cynere", Pass())
    d.do("turn", "landon", Pass())
    d.do("turn", "og", Attack("cynere", "Fight"))
    d.do("cost", "landon", Choose("stand_aside"))  # Core lets him step in (000:270); the example has him not
    d.do("respond", "cynere", Defend())
    d.do("style", "og", Choose("full_hit"))
    absorb = d.expect("absorb", "cynere")
    assert absorb.context["shifts"] == 6  # Fight 4+2 = 6 vs Athletics 4-4 = 0
    severe, moderate, mild = (slot_index(cynere, s) for s in ("severe", "moderate", "mild"))
    assert Absorb((), (severe,)) in absorb.options
    assert Absorb((1,), (moderate,)) in absorb.options
    # the only other minimal plan is mild + moderate (6 exactly)
    plans = [o for o in absorb.options if type(o) is Absorb]
    assert set(plans) == {Absorb((), (severe,)), Absorb((1,), (moderate,)), Absorb((), (mild, moderate))}
    assert absorb.options[-1] == TakenOut()
    c.step(Absorb((), (severe,)))  # she keeps her stress track open (000:342)
    assert cynere.slots[severe].aspect is not None


def test_landon_concession_pays_three():
    """000:418-422 and 000:529-537: one point for conceding, one per consequence
    (mild and moderate) = 3; the winner gets nothing for her consequences."""
    c = Conflict(make_scene(CORE_DUO, rules="core"), seed=0, forced=[
        (1, 1, 0, 0), (0, 0, 0, -1),    # Og Fight 4+2 vs Landon Fight 4-1: 3 shifts, a mild and the 1-box
        (1, 1, 1, 0), (-1, -1, 0, 0),   # Og 4+3 vs Landon 4-2: 5 shifts, a moderate and a box
    ])
    landon = c.f["landon"]
    d = Driver(c)
    mild, moderate = slot_index(landon, "mild"), slot_index(landon, "moderate")
    assert skill_order(c) == ["cynere", "landon", "og"]
    d.do("turn", "cynere", Pass())
    d.do("turn", "landon", Pass())
    d.do("turn", "og", Attack("landon", "Fight"))
    d.do("cost", "cynere", Choose("stand_aside"))  # Core lets her step in (000:270); the example has her not
    d.do("respond", "landon", Defend())
    d.do("style", "og", Choose("full_hit"))
    d.do("absorb", "landon", Absorb((0,), (mild,)))
    d.do("turn", "cynere", Pass())
    d.do("turn", "landon", Pass())
    d.do("turn", "og", Attack("landon", "Fight"))
    d.do("cost", "cynere", Choose("stand_aside"))  # Core lets her step in (000:270); the example has her not
    d.do("respond", "landon", Defend())
    d.do("style", "og", Choose("full_hit"))
    absorb = d.expect("absorb", "landon")
    assert absorb.context["shifts"] == 5
    plan = next(o for o in absorb.options if type(o) is Absorb and o.slots == (moderate,))
    c.step(plan)
    assert landon.consequences_taken == 2
    d.do("turn", "cynere", Pass())
    fp_before = landon.fate_points
    d.do("turn", "landon", Concede())  # "I concede" before Amanda's next turn
    assert landon.status == CONCEDED
    d.do("turn", "og", Concede())       # Amanda concedes for Og: the conflict ends
    assert c.over
    # Landon: 1 + 2 consequences. Og conceded too: his 1 point goes to the GM's pool for his
    # next scene (003:2009-2020); Cynere, who won, gets nothing for her consequences (000:537).
    assert c.outcome.payouts == {"landon": 3, "og": 1}
    assert landon.fate_points == fp_before + 3
    assert c.outcome.winner == "pcs"


# -- moving past the thug -------------------------------------------------------

def test_cynere_moves_past_the_thug_with_style_and_a_boost():
    """000:467-475: Athletics Great +0 = Great vs the thug's Fight Fair -1 = Average:
    three shifts, success with style, she reaches the gallery two zones away and takes a boost."""
    scene = load_scene("warehouse", rules="core")
    chars = {
        "cynere": {"kind": "pc", "side": "pcs", "zone": "floor_west",
                   "skills": {"Athletics": 4, "Fight": 3, "Notice": 3}},
        "thug": {"kind": "minor", "side": "smugglers", "zone": "floor_west", "skills": {"Fight": 2, "Athletics": 1},
                 "stress": 1},
        "archer": {"kind": "minor", "side": "smugglers", "zone": "gallery", "skills": {"Shoot": 2}, "stress": 1},
    }
    s = make_scene(chars, zones=[z.id for z in scene.zones], rules="core",
                   borders=[{"between": [b.a, b.b], "difficulty": b.difficulty, **({"aspect": b.aspect} if b.aspect else {})}
                            for b in scene.borders],
                   aspects=[{"name": a.name, **({"zone": a.zone} if a.zone else {})} for a in scene.aspects])
    c = Conflict(s, seed=0, forced=[(0, 0, 0, 0), (-1, 0, 0, 0)])
    d = Driver(c)
    turn = d.expect("turn", "cynere")
    assert OvercomeMove("gallery") in turn.options
    c.step(OvercomeMove("gallery"))
    d.skip_invokes()
    resolved = [e for e in c.events if type(e).__name__ == "Resolved"][-1]
    assert (resolved.effort, resolved.opposition, resolved.outcome) == (4, 1, "success_with_style")
    rolled = [e for e in c.events if type(e).__name__ == "Rolled"]
    assert (rolled[1].actor, rolled[1].skill) == ("thug", "Fight")  # the thug stands in the way
    assert c.f["cynere"].zone == "gallery"
    boosts = [a for a in c.aspects.values() if a.kind == "boost"]
    assert [(b.name, b.free) for b in boosts] == [("Momentum", {"cynere": 1})]


# -- stacking advantages: Flashy Distraction ----------------------------------------

def test_flashy_distraction_stacks_to_plus_six():
    """000:562-568: Zird's advantage (1 free invoke) and Cynere's success with style
    on it (2 more) are passed to Landon, who spends all three for +6."""
    chars = {
        "zird": {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Lore": 4, "Notice": 1}},
        "cynere": {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Athletics": 4, "Fight": 3, "Notice": 3}},
        "landon": {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Fight": 4, "Athletics": 3}},
        "tremendor": {"kind": "major", "side": "giant", "zone": "room", "skills": {"Fight": 5, "Athletics": 3}},
    }
    c = Conflict(make_scene(chars, first="zird"), seed=0, forced=[
        (0, 0, 0, -1),    # Zird: Lore 4 - 1 = Good vs Fair: success, one free invoke
        (1, 0, 0, 0),     # Cynere: Athletics 4 + 1 = Superb vs Fair: with style, two more
        (0, 0, 0, 0), (0, 0, 0, 0),  # Landon's attack, Tremendor's defense
    ])
    d = Driver(c)
    d.do("turn", "zird", CreateAdvantage("Flashy Distraction", "room"))
    d.skip_invokes()
    flashy = next(a for a in c.aspects.values() if a.name == "Flashy Distraction")
    assert flashy.free == {"zird": 1}
    d.do("next", "zird", Next("cynere"))
    d.do("turn", "cynere", Exploit(flashy.id))
    d.skip_invokes()
    assert flashy.free == {"zird": 1, "cynere": 2}
    d.do("next", "cynere", Next("landon"))
    d.do("turn", "landon", Attack("tremendor", "Fight"))
    d.do("respond", "tremendor", Defend())
    for holder in ("zird", "cynere", "cynere"):
        d.do("invoke", "landon", Invoke(flashy.id, holder, True, "bonus"))
        d.do("invoke", "tremendor", DoneInvoking())  # the giant answers nothing back
    d.skip_invokes()
    resolved = [e for e in c.events if type(e).__name__ == "Resolved"][-1]
    assert resolved.effort == 4 + 0 + 6  # a gigantic +6 to his attack
    assert flashy.free == {}


# -- teamwork: the temple chase totals ---------------------------------------------

TEMPLE = {
    "cynere": {"kind": "pc", "side": "pcs", "zone": "hall", "skills": {"Athletics": 4, "Notice": 3}},
    "landon": {"kind": "pc", "side": "pcs", "zone": "hall", "skills": {"Athletics": 3}},
    "zird": {"kind": "pc", "side": "pcs", "zone": "hall", "skills": {"Athletics": 1}},
    "guardians": {"kind": "mob", "count": 5, "side": "temple", "zone": "vault",
                  "skills": {"Athletics": 1}, "stress": 1},
}


def _support_roll(rules: str) -> tuple[int, int]:
    """Landon and Zird support Cynere's Athletics roll; the guardians roll as a mob."""
    s = make_scene(TEMPLE, zones=("hall", "vault", "yard", "street"),
                   borders=[{"between": ["hall", "vault"]}, {"between": ["vault", "yard"]},
                            {"between": ["yard", "street"]}],
                   rules=rules, first="landon", foes_block_movement=False)
    c = Conflict(s, seed=1)
    d = Driver(c)
    if rules == "core":  # fixed order by Notice: Cynere first, so she cannot be set up this exchange
        d.do("turn", "cynere", Pass())
        d.do("move", "cynere", c.pending.options[0])
    d.do("turn", "landon", Support("cynere"))
    d.do("move", "landon", c.pending.options[0])
    if rules == "condensed":
        d.do("next", "landon", Next("zird"))
    d.do("turn", "zird", Support("cynere"))
    d.do("move", "zird", c.pending.options[0])
    if rules == "condensed":
        d.do("next", "zird", Next("guardians"))
    d.do("turn", "guardians", OvercomeMove("street"))
    d.skip_invokes()
    guard = [e for e in c.events if type(e).__name__ == "Rolled" and e.actor == "guardians"][-1].base
    if rules == "condensed":
        d.skip_invokes()
        while c.pending.kind != "turn":
            c.step(0)
    else:
        while c.pending.kind != "turn" or c.pending.actor != "cynere":
            c.step(0)
    d.do("turn", "cynere", OvercomeMove("street"))
    cyn = [e for e in c.events if type(e).__name__ == "Rolled" and e.actor == "cynere"][-1].base
    return cyn, guard


def test_temple_chase_teamwork_totals_core():
    """000:556-560: Cynere Great +1 +1 rolls Fantastic (+6); five Average guardians roll Superb (+5)."""
    assert _support_roll("core") == (6, 5)


def test_temple_chase_teamwork_capped_under_condensed():
    """003:1454-1455: the bonus is at most the leader's skill: the guardians' +4 is capped at +1."""
    assert _support_roll("condensed") == (6, 2)


def test_teamwork_bonus_table():
    from fate_env.content.scenes import load_rules
    core, condensed = load_rules("core"), load_rules("condensed")
    assert core.facts.teamwork_bonus(4, 2) == 2 and core.facts.teamwork_bonus(1, 4) == 4
    assert condensed.facts.teamwork_bonus(4, 2) == 2 and condensed.facts.teamwork_bonus(1, 4) == 1


def test_concede_when_targeted_before_the_roll():
    """003:1695-1712: conceding interrupts an action before the dice; no roll is made."""
    c = Conflict(make_scene(CORE_DUO, first="og"), seed=0)
    d = Driver(c)
    rolls_before = c.dice.forced_pending
    d.do("turn", "og", Attack("cynere", "Fight"))
    d.do("respond", "cynere", Concede())
    assert c.f["cynere"].status == CONCEDED
    assert not [e for e in c.events if type(e).__name__ == "Rolled"]
    assert c.dice.forced_pending == rolls_before


def test_alice_westforth_brings_her_concession_points_to_the_gm_pool():
    """003:2007-2020: a pool of one point per PC at the scene's start, plus what a major NPC who
    conceded earlier brings: four PCs and Alice (conceded with a moderate consequence: 2) = 6.
    The scripted NPCs spend it by their kind's share (policies.pool_floor): Alice all of it, a
    nameless guard none, and with a half share Alice keeps three back."""
    from agents.basic import BasicController
    pc = {"kind": "pc", "skills": {"Fight": 2}, "fate_points": 3, "side": "pcs", "zone": "room"}
    chars = {f"pc{i}": dict(pc) for i in range(4)}
    chars["alice"] = {"kind": "major", "skills": {"Fight": 4}, "fate_points": 2, "side": "cult", "zone": "room"}
    chars["guard"] = {"kind": "minor", "skills": {"Fight": 1}, "side": "cult", "zone": "room"}
    c = Conflict(make_scene(chars), seed=0)
    assert c.gm_pool_start == c.gm_pool == 4 + 2
    assert BasicController(0)._pool_room(c, "alice") == 6
    assert BasicController(0)._pool_room(c, "guard") == 0
    assert BasicController(0, pool_share_major=0.5)._pool_room(c, "alice") == 3
