"""Property tests: random scenes, random legal decisions, invariants that must hold.

* every conflict ends (by a side winning or the exchange cap);
* every hit is absorbed by a legal, minimal plan that covers it, or takes the target out;
* stress boxes are only marked when free; consequence slots hold one consequence each;
* fate points are conserved: what is spent leaves (a refused concession's lost point counts as
  spent, 001:150), and only the documented payouts (concessions, hostile invokes, a refused
  offer's point) come in at the end;
* replaying the recorded choices reproduces the log exactly.
"""

from __future__ import annotations

import json

import numpy as np
from conftest import make_scene
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fate_env.rules import events as ev
from fate_env.rules.conflict import Conflict, replay
from fate_env.rules.harm import Absorb, absorb_plans, plan_value
from fate_env.rules.skills import DEFAULT_SKILLS

SKILLS = ["Fight", "Shoot", "Athletics", "Physique", "Will", "Provoke", "Notice", "Empathy", "Rapport", "Lore"]


@st.composite
def scenes(draw):
    n_zones = draw(st.integers(1, 4))
    zones = [f"z{i}" for i in range(n_zones)]
    borders = [{"between": [zones[i], zones[i + 1]], "difficulty": draw(st.integers(0, 2))}
               for i in range(n_zones - 1)]
    for i, b in enumerate(borders):  # now and then a block on a border (003:2300-2345)
        if draw(st.integers(0, 3)) == 0:
            b["block"] = {"name": f"Block {i}", "rating": draw(st.integers(0, 4)), "weapon": draw(st.integers(0, 4)),
                          "cover": draw(st.sampled_from(["none", "mitigates", "negates"]))}
    chars = {}
    for side in ("a", "b"):
        for i in range(draw(st.integers(1, 3))):
            kind = draw(st.sampled_from(["pc", "major", "minor", "mob"]))
            c = {
                "kind": kind, "side": side, "zone": draw(st.sampled_from(zones)),
                "skills": {s: draw(st.integers(0, 5)) for s in draw(st.sets(st.sampled_from(SKILLS), max_size=6))},
                "aspects": [f"{side}{i} aspect {j}" for j in range(draw(st.integers(0, 2)))],
                "weapon": draw(st.integers(0, 2)), "armor": draw(st.integers(0, 2)),
                "scale": draw(st.integers(0, 2)),
            }
            if draw(st.integers(0, 4)) == 0:  # now and then a zone attack (003:2644-2650)
                c["stunts"] = [{"name": "Blast", "kind": "zone_attack", "skill": draw(st.sampled_from(["Fight", "Shoot"]))}]
            if kind in ("minor", "mob"):
                c["stress"] = draw(st.integers(0, 3))
            if kind == "mob":
                c["count"] = draw(st.integers(2, 4))
            if kind == "major":
                c["minion_armor"] = draw(st.booleans())
                c["solo_bonus"] = draw(st.lists(st.sampled_from(["skill", "reduce_stress_min_1", "amplified_invokes",
                                                                 "suppress_invokes", "no_stacking"]),
                                                unique=True, max_size=2))
            if kind == "pc":
                c["fate_points"] = draw(st.integers(0, 4))
                c["high_concept"] = f"Hero {side}{i}"
            chars[f"{side}{i}"] = c
    rules = draw(st.sampled_from(["condensed", "core", "fate2", "fate3"]))
    dials = {"weapons": draw(st.booleans()), "extreme_consequences": draw(st.booleans()),
             "extreme_for": draw(st.sampled_from(["characters", "pcs"])),
             "scale_benefit": draw(st.sampled_from(["effort", "after_roll"])),
             "split_effort": draw(st.booleans()),
             "max_exchanges": draw(st.integers(3, 12))}
    if rules == "fate2":  # three ordered consequences: no extreme one, no conditions (001:119-123)
        dials["extreme_consequences"] = False
        dials["weapon_effect"] = draw(st.sampled_from(["roll", "shifts"]))
    elif not dials["extreme_consequences"]:
        dials["conditions"] = draw(st.sampled_from(["off", "together", "apart"]))
    if rules == "core":
        dials["npcs_at_best_slot"] = draw(st.booleans())
    kind = draw(st.sampled_from(["physical", "mental"]))
    hazards = [{"name": f"Hazard {i}", "rating": draw(st.integers(0, 5)), "weapon": draw(st.integers(1, 4)),
                "track": kind, **({"zone": draw(st.sampled_from(zones))} if draw(st.booleans()) else {}),
                **({"creates": f"Hazard {i} effect"} if draw(st.integers(0, 2)) == 0 else {})}
               for i in range(draw(st.integers(0, 2) if rules == "condensed" else st.just(0)))]
    extra = {}
    majors = [cid for cid, c in chars.items() if c["side"] == "b" and c["kind"] == "major"]
    if majors and not hazards and draw(st.integers(0, 4)) == 0:  # now and then a big bad's contest immunity (003:2527-2532)
        chars[majors[0]]["contest_immunity"] = True
        extra["contest"] = {"victories": draw(st.integers(1, 3)), "skills": ["Athletics", "Fight"]}
    return make_scene(chars, zones=zones, borders=borders, rules={"name": rules, "dials": dials}, **extra,
                      aspects=[{"name": "Scene Aspect"}], conflict=kind, shoot_range=draw(st.integers(0, 2)),
                      hazards=hazards,
                      distractions=[{"name": "Distraction", "opposition": draw(st.integers(0, 4))}] if draw(st.booleans())
                      else [])


def fp_total(c: Conflict) -> int:
    return sum(f.fate_points for f in c.f.values()) + c.gm_pool


def run_checked(scene, seed: int) -> Conflict:
    """Play random legal choices, checking the invariants at every step."""
    c = Conflict(scene, seed)
    rng = np.random.default_rng(seed + 1)
    start_fp = fp_total(c)
    steps = 0
    while c.pending is not None:
        d = c.pending
        assert d.options, "a pending decision always has at least one option"
        if d.kind == "absorb":
            f = c.f[d.actor]
            shifts, track = d.context["shifts"], d.context["track"]
            for o in d.options:
                if type(o) is Absorb:
                    value = plan_value(f, o, track, scene.rules)
                    assert value >= shifts
                    for b in o.boxes:
                        assert not f.tracks[track].marked[b]
                    for s in o.slots:
                        assert f.slots[s].free
            assert [o for o in d.options if type(o) is Absorb] == absorb_plans(f, shifts, track, scene.rules)
        c.step(int(rng.integers(len(d.options))))
        steps += 1
        spent = sum(c.fp_spent.values()) + c.gm_spent
        if c.pending is not None:
            assert fp_total(c) + spent == start_fp
        for f in c.f.values():
            assert sum(1 for s in f.slots if s.aspect is not None) <= len(f.slots)
            assert all(s.aspect is None or c.aspects[s.aspect].kind == "consequence" for s in f.slots)
            assert 0 <= f.members <= f.sheet.count
            if any(s.severity == "extreme" and s.aspect is not None for s in f.slots):  # 003:2207-2211
                assert f.sheet.extreme_loses() not in {a.name for a in c.aspects.values()
                                                       if a.owner == f.id and a.kind == "character"}
        assert steps < 20_000
    # at the end only the documented payouts came in (those to NPCs are carried, not paid now)
    paid_to_pcs = sum(p for cid, p in c.outcome.payouts.items() if not scene.character(cid).is_npc)
    assert fp_total(c) + sum(c.fp_spent.values()) + c.gm_spent == start_fp + paid_to_pcs
    return c


def check_hits(c: Conflict) -> None:
    """Every hit is followed by its absorption (covering it) or the target going out."""
    pending_hit = None
    for e in c.events:
        if isinstance(e, ev.Hit):
            assert pending_hit is None
            pending_hit = e
        elif isinstance(e, ev.Absorbed):
            assert pending_hit is not None and e.target == pending_hit.target and e.shifts == pending_hit.shifts
            pending_hit = None
        elif isinstance(e, ev.MobHit):
            assert pending_hit is not None and e.target == pending_hit.target
            pending_hit = None
        elif isinstance(e, (ev.TakenOutEvent, ev.Conceded)) and pending_hit is not None:
            target = e.target if isinstance(e, ev.TakenOutEvent) else e.actor  # an offered concession (001:150)
            assert target == pending_hit.target
            pending_hit = None
    assert pending_hit is None


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenes(), st.integers(0, 2**31 - 1))
def test_random_conflicts_keep_the_invariants(scene, seed):
    c = run_checked(scene, seed)
    assert c.over and c.outcome is not None
    assert c.outcome.exchanges <= scene.rules.max_exchanges
    got_away = any(isinstance(e, ev.ImmunityContest) and not e.broken for e in c.events)
    if not c.outcome.unresolved and not got_away:  # a big bad that wins its contest leaves both sides standing
        sides = {c.f[x].sheet.side for x in c.active_ids()}
        assert len(sides) <= 1
    check_hits(c)
    for f in c.f.values():
        assert not any(any(t.marked) for t in f.tracks.values()), "stress clears at the end (003:1736)"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenes(), st.integers(0, 2**31 - 1))
def test_replay_reproduces_the_log(scene, seed):
    c = Conflict(scene, seed)
    rng = np.random.default_rng(seed)
    while c.pending is not None:
        c.step(int(rng.integers(len(c.pending.options))))
    again = replay(scene, seed, c.choices)
    assert json.dumps(again.log()) == json.dumps(c.log())
    assert again.outcome.to_json() == c.outcome.to_json()


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 12), st.sampled_from(["condensed", "core"]), st.integers(0, 5), st.integers(0, 5),
       st.lists(st.booleans(), min_size=6, max_size=6), st.lists(st.booleans(), min_size=3, max_size=3))
def test_absorb_plans_are_minimal_and_sufficient(shifts, rules, physique, will, marked, used):
    chars = {"x": {"kind": "pc", "side": "a", "zone": "room", "skills": {"Physique": physique, "Will": will}},
             "y": {"kind": "minor", "side": "b", "zone": "room", "skills": {}}}
    scene = make_scene(chars, rules=rules)
    c = Conflict(scene, 0)
    f = c.f["x"]
    t = f.tracks["physical"]
    t.marked = [m for m, _ in zip(marked, t.values)] + [False] * max(0, len(t.values) - len(marked))
    for s, u in zip(f.slots, used):
        s.aspect = -1 if u else None
    for plan in absorb_plans(f, shifts, "physical", scene.rules):
        total = plan_value(f, plan, "physical")
        assert total >= shifts
        values = [t.values[b] for b in plan.boxes] + [f.slots[s].value for s in plan.slots]
        for v in values:  # dropping any one part leaves the hit unabsorbed
            assert total - v < shifts
        if scene.rules.one_box_per_hit:
            assert len(plan.boxes) <= 1


def test_default_skill_list_has_nineteen():
    assert len(DEFAULT_SKILLS) == 19 and len(set(DEFAULT_SKILLS)) == 19
