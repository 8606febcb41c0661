"""Controllers only read the engine (issue 12): every scripted policy, at every decision of a few
fights on every shipped scene, leaves the table exactly as it found it. Look-ahead is a clone."""

from __future__ import annotations

import pytest

from agents.base import controllers_for
from conftest import SHIPPED
from fate_env.rules.engine import start
from fate_env.content.scenes import load_scene

POLICIES = ["basic", "brute", "sniper", "tactician", "coward", "minion", "support", "stacker", "random"]


def _snapshot(e):
    t = e.t
    return ({k: f.copy() for k, f in t.f.items()}, {k: a.copy() for k, a in t.aspects.items()}, t.gm_pool,
            t.exchange, set(t.acted), t.roll.copy() if t.roll else None, len(e.events), e.dice.forced_pending)


@pytest.mark.parametrize("scene_name", SHIPPED)
def test_choosing_changes_nothing(scene_name):
    scene = load_scene(scene_name)
    for k, policy in enumerate(POLICIES):
        seed = 100 + k
        ctl = controllers_for(scene, {s: policy for s in scene.sides}, seed=seed)
        e = start(scene, seed)
        while e.pending is not None:
            d = e.pending
            before = _snapshot(e)
            index, reason = ctl[d.actor].choose(e, d)
            assert _snapshot(e) == before, f"{policy} changed the table deciding {d.kind} for {d.actor}"
            e.step(index, reason)


def test_the_view_answers_what_a_move_would_reach():
    scene = load_scene("warehouse")
    e = start(scene, 0)
    me = e.pending.actor
    f = e.f[me]
    for zone in e.map.ids:
        expect = any(e.can_attack_from(me, zone, t, s) for t in e.foes_of(me) for s in e.attack_skills(me))
        assert e.reach_after_move(me, zone) == expect
    assert e.f[me].zone == f.zone
    odds = e.attack_odds(me, e.foes_of(me)[0], "Fight")
    assert abs(sum(odds.values()) - 1) < 1e-12
