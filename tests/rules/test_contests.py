"""Contests and challenges: the rules texts' worked examples with forced dice, and properties."""

from __future__ import annotations

import json

import numpy as np
from conftest import Driver, make_scene
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fate_env.rules import events as ev
from fate_env.rules.engine import replay, start
from fate_env.rules.harm import Absorb
from fate_env.rules.options import (
    Choose, CreateAdvantage, Defend, DoneInvoking, Invoke, NoAdvantage, RollFor, Support, TakeTask,
)
from fate_env.content.scenes import load_scene


def results(c):
    return [e for e in c.events if isinstance(e, ev.ExchangeResult)]


def aspect_id(c, name):
    return next(a.id for a in c.aspects.values() if a.name == name)


def test_cynere_and_teran_with_the_errata():
    """000:115-127 as errata'd: Teran 1 victory; Cynere 1 (a plain success); a tie and
    Magical Distortions; a tie at Great broken by two invokes: Legendary vs Great, with
    style, 2 victories: Cynere wins 3-1 with two fate points spent."""
    scene = load_scene("race")
    assert scene.rules.name == "core"
    c = start(scene, seed=0, forced=[
        (-1, -1, -1, 0), (0, 0, 0, 0),   # 1: Athletics 4-3 = Average vs Lore 3+0 = Good
        (0, 0, 0, 0), (-1, 0, 0, 0),     # 2: Great vs Fair: two shifts, a plain success (the errata)
        (-1, 0, 0, 0), (0, 0, 0, 0),     # 3: Good vs Good: a tie
        (0, 0, 0, 0), (1, 0, 0, 0),      # 4: Great vs Great, then two invokes
    ])
    d = Driver(c)
    for _ in range(3):
        d.do("contest_advantage", "cynere", NoAdvantage())
        d.do("contest_advantage", "teran", NoAdvantage())
        d.skip_invokes()
    r = results(c)
    assert [(x.scores, x.winner, x.victories_won, x.twist) for x in r] == [
        ({"cynere": 1, "teran": 3}, "teran", 1, None),
        ({"cynere": 4, "teran": 2}, "cynere", 1, None),
        ({"cynere": 3, "teran": 3}, None, 0, "Magical Distortions"),
    ]
    assert c.victories == {"cynere": 1, "teran": 1}
    d.do("contest_advantage", "cynere", NoAdvantage())
    d.do("contest_advantage", "teran", NoAdvantage())
    fp = c.f["cynere"].fate_points
    d.do("invoke", "cynere", Invoke(aspect_id(c, "I've Got Zird's Back"), "cynere", False, "bonus"))
    d.do("invoke", "teran", DoneInvoking())
    d.do("invoke", "cynere", Invoke(aspect_id(c, "Magical Distortions"), "cynere", False, "bonus"))
    d.do("invoke", "teran", DoneInvoking())
    d.do("invoke", "cynere", DoneInvoking())
    last = results(c)[-1]
    assert (last.scores, last.winner, last.victories_won) == ({"cynere": 8, "teran": 4}, "cynere", 2)
    assert c.over and c.outcome.winner == "cynere" and c.outcome.victories == {"cynere": 3, "teran": 1}
    assert fp - c.f["cynere"].fate_points == 2 and c.outcome.payouts == {}  # no hostile invokes


def test_zirds_challenge_three_results():
    """000:48-62: Crafts ties (success at a minor cost: a boost for the opposition); Rapport
    fails by 3 and he takes success at a major cost; the boost raises the ritual's difficulty
    to Superb, and Lore 4+2 = Fantastic succeeds."""
    c = start(load_scene("ritual"), seed=0, forced=[(0, 0, 0, 0), (-1, -1, -1, 0), (1, 1, 0, 0)])
    d = Driver(c)
    d.do("task", "zird", TakeTask(0, "zird"))  # he secures the inn first
    d.skip_invokes()
    boost = next(a for a in c.aspects.values() if a.kind == "boost")
    assert boost.free == {"horde": 1}
    d.do("task", "zird", TakeTask(1, "zird"))
    d.skip_invokes()
    d.do("cost", "zird", Choose("major_cost"))
    # the ritual is the only task left: it comes without asking
    d.do("invoke", "zird", DoneInvoking())
    d.do("invoke", "horde", Invoke(boost.id, "horde", True, "bonus"))
    d.skip_invokes()
    assert c.over
    assert [(t["task"], t["effort"], t["difficulty"], t["result"]) for t in c.outcome.tasks] == [
        ("Secure the inn", 3, 3, "minor_cost"),
        ("Calm the locals", 0, 3, "major_cost"),
        ("Finish the ritual", 6, 5, "success"),
    ]


def _chase_bases(rules: str) -> tuple[int, int]:
    c = start(load_scene("chase", rules=rules), seed=0)
    d = Driver(c)
    d.do("contest_roll", "cynere", RollFor("cynere", "Athletics"))
    d.do("support", "landon", Support("cynere"))
    d.do("support", "zird", Support("cynere"))
    for who in ("cynere", "landon", "zird", "guardians"):
        d.do("contest_advantage", who, NoAdvantage())
    rolled = {e.actor: e.base for e in c.events if isinstance(e, ev.Rolled)}
    return rolled["cynere"], rolled["guardians"]


def test_temple_chase_uses_the_right_teamwork_totals():
    """000:556-560: Cynere Great +1 (Landon) +1 (Zird) = Fantastic; five Average guardians = Superb.
    Under condensed the guardians' bonus is capped at their skill: Fair (003:1454-1455)."""
    assert _chase_bases("core") == (6, 5)
    assert _chase_bases("condensed") == (6, 2)


def test_failed_advantage_forfeits_under_core_and_may_pay_under_condensed():
    """000:133-137 (core: forfeit the roll) and 003:1531-1535 (condensed: forfeit, or keep the
    roll and give the other side a free invoke)."""
    for rules in ("core", "condensed"):
        c = start(load_scene("race", rules=rules), seed=0, forced=[(-1, -1, 0, 0), (0, 0, 0, 0)] + [(0, 0, 0, 0)] * 4)
        d = Driver(c)
        d.do("contest_advantage", "cynere", CreateAdvantage("Off Balance", "teran"))
        d.skip_invokes()
        if rules == "condensed":
            d.do("cost", "cynere", Choose("pay"))
            a = next(a for a in c.aspects.values() if a.name == "Off Balance")
            assert a.free == {"teran": 1}
            assert not [e for e in c.events if isinstance(e, ev.Forfeited)]
        else:
            forfeits = [e for e in c.events if isinstance(e, ev.Forfeited)]
            assert [(f.side, f.what) for f in forfeits] == [("cynere", "roll")]
        d.do("contest_advantage", "teran", NoAdvantage())
        d.skip_invokes()
        r = results(c)[0]
        assert ("cynere" in r.scores) == (rules == "condensed")
        if rules == "core":
            assert r.winner == "teran"  # the only side that rolled


def test_contest_targets_defend_but_cannot_concede():
    c = start(load_scene("race"), seed=0, forced=[(0, 0, 0, 0)] * 6)
    d = Driver(c)
    d.do("contest_advantage", "cynere", CreateAdvantage("Off Balance", "teran"))
    assert not c.pending or c.pending.kind != "respond"  # a single option (defend) is taken without asking
    assert any(isinstance(e, ev.Rolled) and e.actor == "teran" and e.action == "defend" for e in c.events)


THREAT = {
    "runner": {"kind": "pc", "side": "runners", "zone": "road", "skills": {"Athletics": 2}},
    "rival": {"kind": "major", "side": "rivals", "zone": "road", "skills": {"Athletics": 2}},
}


def test_threats_hit_every_side_that_rolls_below_them():
    """003:1520-1523: a side whose roll is below the threat's takes a hit of the difference."""
    scene = make_scene(THREAT, zones=("road",), kind="contest",
                       contest={"skills": ["Athletics"], "threat": {"name": "Rockslide", "difficulty": 4}})
    c = start(scene, seed=0, forced=[(0, 0, 0, 0), (1, 1, 1, 0)])
    d = Driver(c)
    d.do("contest_advantage", "runner", NoAdvantage())
    d.do("contest_advantage", "rival", NoAdvantage())
    d.skip_invokes()
    absorb = d.expect("absorb", "runner")
    assert absorb.context["shifts"] == 2  # Fair vs the Great rockslide; the rival's Superb is not hit
    c.step(Absorb((0, 1), ()))
    hits = [e for e in c.events if isinstance(e, ev.Hit)]
    assert [(h.target, h.shifts) for h in hits] == [("runner", 2)]


def test_passive_contest_compares_shifts():
    scene = make_scene(THREAT, zones=("road",), kind="contest",
                       contest={"skills": ["Athletics"], "mode": "passive", "difficulty": {"runners": 1, "rivals": 4}})
    c = start(scene, seed=0, forced=[(0, 0, 0, 0), (1, 0, 0, 0)])
    d = Driver(c)
    d.do("contest_advantage", "runner", NoAdvantage())
    d.do("contest_advantage", "rival", NoAdvantage())
    d.skip_invokes()
    r = results(c)[0]
    assert r.scores == {"runners": 1, "rivals": -1} and r.winner == "runners" and r.victories_won == 1


CONTEST_SKILLS = ["Athletics", "Lore", "Rapport", "Provoke", "Physique"]


@st.composite
def contests(draw):
    chars = {}
    for side in ("a", "b"):
        for i in range(draw(st.integers(1, 3))):
            kind = draw(st.sampled_from(["pc", "major", "minor", "mob"]))
            c = {"kind": kind, "side": side, "zone": "field",
                 "skills": {s: draw(st.integers(0, 5)) for s in draw(st.sets(st.sampled_from(CONTEST_SKILLS), max_size=4))},
                 "aspects": [f"{side}{i} trait"]}
            if kind in ("minor", "mob"):
                c["stress"] = draw(st.integers(0, 3))
            if kind == "mob":
                c["count"] = draw(st.integers(2, 4))
            chars[f"{side}{i}"] = c
    spec = {"victories": draw(st.integers(1, 5)), "skills": draw(st.lists(st.sampled_from(CONTEST_SKILLS), min_size=1,
                                                                           max_size=3, unique=True))}
    if draw(st.booleans()):
        spec["mode"] = "passive"
        spec["difficulty"] = draw(st.integers(0, 4))
    if draw(st.booleans()):
        spec["threat"] = {"name": "Storm", **({"rating": draw(st.integers(0, 4))} if draw(st.booleans())
                                              else {"difficulty": draw(st.integers(0, 5))})}
    rules = draw(st.sampled_from(["condensed", "core"]))
    return make_scene(chars, zones=("field",), kind="contest", contest=spec,
                      rules={"name": rules, "dials": {"max_exchanges": draw(st.integers(2, 15)),
                                                      "faster_contests": draw(st.booleans())}})


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(contests(), st.integers(0, 2**31 - 1))
def test_random_contests_keep_the_invariants(scene, seed):
    c = start(scene, seed)
    rng = np.random.default_rng(seed)
    need = scene.contest.victories
    while c.pending is not None:
        assert c.pending.options
        c.step(int(rng.integers(len(c.pending.options))))
        if c.victories is None:  # someone attacked: a conflict from here (000:147-149)
            assert any(isinstance(x, ev.BecameConflict) for x in c.events) and c.t.mode == "conflict"
        else:
            assert all(v <= need + 1 for v in c.victories.values())  # the most one exchange adds is 2
    out = c.outcome
    assert out.exchanges <= scene.rules.max_exchanges
    if out.victories:
        winners = [s for s, v in out.victories.items() if v >= need]
        assert len(winners) <= 1
        if winners:
            assert out.winner == winners[0]
    for r in results(c):  # one side scores per exchange, and only with the unique top score
        if r.winner is not None:
            assert r.scores[r.winner] == max(r.scores.values())
            assert sum(1 for v in r.scores.values() if v == r.scores[r.winner]) == 1
        else:
            assert r.twist is not None or not r.scores
    if scene.rules.faster_contests:  # one of roll, advantage or teamwork (003:2219-2230)
        for x in c.events:
            if isinstance(x, ev.ContestPlan):
                plan = x
            elif isinstance(x, ev.DecisionMade) and x.kind == "contest_advantage":
                assert x.actor != plan.roller and x.actor not in plan.supporters
    again = replay(scene, seed, c.choices, reasons=c.reasons)
    assert json.dumps(again.log()) == json.dumps(c.log())


VAULT = {
    "cynere": {"kind": "pc", "side": "pcs", "zone": "hall", "high_concept": "Infamous Girl with Sword",
               "skills": {"Athletics": 4, "Physique": 2, "Crafts": 1}, "fate_points": 3},
    "guardians": {"kind": "mob", "count": 3, "side": "temple", "zone": "hall", "skills": {"Fight": 1, "Athletics": 1},
                  "stress": 1},
}
VAULT_TASKS = {"side": "pcs", "tasks": [{"name": "Pick the lock", "skill": "Crafts", "difficulty": 2},
                                        {"name": "Push the door", "skill": "Physique", "difficulty": 2}]}


def test_other_actions_need_a_successful_defense_and_the_fight_turns_into_a_chase():
    """000:513-521 (here under condensed): she defends, picks the lock at a cost; fails to defend and cannot work the
    door; defends, pushes it open with style. 000:539-547: the fight becomes a chase, and what
    the conflict owes is paid only when the contest ends."""
    from fate_env.rules.options import Attack, Next, Pass, TurnToContest
    scene = make_scene(VAULT, zones=("hall",), first="guardians", challenge=VAULT_TASKS,
                       contest={"skills": ["Athletics"], "victories": 1})
    c = start(scene, seed=0, forced=[
        (0, 0, 0, 0), (0, 0, 0, 0),        # 1: Fight 1+1 = Fair vs Athletics Great: she holds
        (-1, -1, 0, 0),                    #    the lock: Crafts 1-2 = Poor vs Fair: a failure
        (1, 1, 1, 1), (-1, -1, -1, -1),    # 2: Fantastic vs Mediocre: she is hit
        (-1, -1, -1, -1), (0, 0, 0, 0),    # 3: Terrible vs Great: she holds
        (1, 1, 1, 0),                      #    the door: Physique 2+3 = Superb vs Fair: with style
        (1, 0, 0, 0), (0, 0, 0, 0),        # the chase: one victory decides it
    ])
    d = Driver(c)
    hostile = aspect_id(c, "Infamous Girl with Sword")
    d.do("turn", "guardians", Attack("cynere", "Fight"))
    d.do("respond", "cynere", Defend())
    d.do("invoke", "guardians", Invoke(hostile, "guardians", False, "bonus"))  # owed to her after the scene
    d.skip_invokes()
    turn = d.expect("turn", "cynere")
    assert TakeTask(0, "cynere") in turn.options  # she defended successfully
    c.step(TakeTask(0, "cynere"))
    d.skip_invokes()
    d.do("cost", "cynere", Choose("major_cost"))
    d.do("next", "cynere", Next("guardians"))
    d.do("turn", "guardians", Attack("cynere", "Fight"))
    d.do("respond", "cynere", Defend())
    d.skip_invokes()
    d.do("style", "guardians", Choose("full_hit"))
    absorb = d.expect("absorb", "cynere")
    c.step(next(o for o in absorb.options if type(o) is Absorb))
    turn = d.expect("turn", "cynere")
    assert not [o for o in turn.options if type(o) is TakeTask]  # hit this exchange: no work on the door
    c.step(Pass())
    d.do("next", "cynere", Next("guardians"))
    d.do("turn", "guardians", Attack("cynere", "Fight"))
    d.do("respond", "cynere", Defend())
    d.skip_invokes()
    d.do("turn", "cynere", TakeTask(1, "cynere"))
    d.skip_invokes()
    assert [t["result"] for t in c.task_results] == ["major_cost", "success_with_style"]
    assert c.f["cynere"].owed == 1 and not c.over
    d.do("next", "cynere", Next("cynere"))
    d.do("turn", "cynere", TurnToContest())
    assert any(isinstance(e, ev.BecameContest) for e in c.events)
    assert not any(isinstance(e, ev.ConflictEnded) for e in c.events)  # payouts held (000:541)
    d.do("contest_advantage", "cynere", NoAdvantage())
    d.do("contest_advantage", "guardians", NoAdvantage())
    d.skip_invokes()
    assert c.over and c.outcome.winner == "pcs" and c.outcome.victories == {"pcs": 2, "temple": 0}
    assert c.outcome.payouts == {"cynere": 1}  # the hostile invoke, paid once the chase is over
    assert [t["task"] for t in c.outcome.tasks] == ["Pick the lock", "Push the door"]


def test_an_attack_in_a_contest_turns_it_into_a_conflict():
    """000:147-149: someone who attacks in a contest is doing direct harm, and it is a conflict from
    then on. Cynere, who can reach Teran with Fight, attacks instead of racing: the victories are
    gone, the conflict starts with her turn, and her attack is on offer."""
    from fate_env.rules.options import Attack, TurnToConflict
    c = start(load_scene("race"), seed=0)
    d = Driver(c)
    assert TurnToConflict() in d.expect("contest_advantage", "cynere").options
    d.do("contest_advantage", "cynere", TurnToConflict())
    kinds = [type(e).__name__ for e in c.events]
    assert kinds[kinds.index("BecameConflict"):][:3] == ["BecameConflict", "ConflictStarted", "ExchangeStarted"]
    assert c.victories is None and c.t.mode == "conflict"
    turn = d.expect("turn", "cynere")
    assert Attack("teran", "Fight") in turn.options
    assert not any(type(e).__name__ == "ExchangeResult" for e in c.events)  # no contest roll was made
