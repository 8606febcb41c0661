"""An engine copied mid-scene plays on exactly as the original (issue 12).

Every scene kind — a conflict, a contest, a challenge, and a conflict that turns into its
contest (vault) — is copied at many points by ``clone()``, ``copy.deepcopy`` and ``pickle``: the
copy's log is the original's so far, and the copy played on with the same controllers and dice
reaches the very same log as the original. Copies are independent: playing one changes nothing
in the other.
"""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.base import controllers_for
from fate_env.rules import events as ev
from fate_env.rules.engine import start
from fate_env.content.scenes import load_scene

KINDS = {"conflict": "warehouse", "contest": "race", "challenge": "ritual", "conflict_to_contest": "vault",
         "mobs": "warehouse_mobs", "mental": "interrogation"}
HOW = {"clone": lambda e: e.clone(), "deepcopy": copy.deepcopy, "pickle": lambda e: pickle.loads(pickle.dumps(e))}


def _finish(e, controllers):
    while e.pending is not None:
        d = e.pending
        e.step(*controllers[d.actor].choose(e, d))
    return e


@pytest.mark.parametrize("how", sorted(HOW))
@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("rules", ["condensed", "core"])
def test_a_copy_plays_on_identically(kind, how, rules):
    scene = load_scene(KINDS[kind], rules=rules)
    for seed in range(3):
        pcs = {side: "basic" for side in scene.sides}
        original = start(scene, seed)
        ctl = controllers_for(scene, pcs, seed=seed)
        copies = []
        k = 0
        while original.pending is not None:
            if k % 5 == 2:
                c = HOW[how](original)
                assert c.log() == original.log() and c.choices == original.choices
                assert c.pending.kind == original.pending.kind and c.pending.actor == original.pending.actor
                assert c.pending.keys() == original.pending.keys()
                copies.append(c)
            d = original.pending
            original.step(*ctl[d.actor].choose(original, d))
            k += 1
        assert copies, "the scene ended before any copy was taken"
        for c in copies:
            assert _finish(c, ctl).log() == original.log()
            assert c.outcome == original.outcome


def test_the_conflict_turning_into_a_contest_is_copied_after_the_turn():
    scene = load_scene("vault")
    seen = 0
    for seed in range(12):
        e = start(scene, seed)
        ctl = controllers_for(scene, seed=seed)
        while e.pending is not None:
            d = e.pending
            e.step(*ctl[d.actor].choose(e, d))
            if any(isinstance(x, ev.BecameContest) for x in e.events) and e.pending is not None:
                c = e.clone()
                assert c.t.mode == "contest"
                assert _finish(c, ctl).log() == _finish(e, ctl).log()
                seen += 1
                break
    assert seen, "no golden seed turned the vault into its contest"


def test_copies_are_independent():
    scene = load_scene("warehouse")
    ctl = controllers_for(scene, {s: "basic" for s in scene.sides}, seed=5)
    e = start(scene, 5)
    for _ in range(40):
        d = e.pending
        e.step(*ctl[d.actor].choose(e, d))
    before = e.log()
    pool = e.t.gm_pool
    c = e.clone()
    assert all(c.t.f[k] is not e.t.f[k] for k in e.t.f) and all(c.t.aspects[k] is not a for k, a in e.t.aspects.items())
    c.t.gm_pool += 5  # a copy's table is its own
    _finish(c, ctl)
    assert e.log() == before and e.t.gm_pool == pool
    assert _finish(e, ctl).log()[: len(before)] == before


def test_copies_keep_forced_dice_gm_powers_and_concessions():
    """Inputs between checkpoints (a concession out of turn, a GM's aspect, a fate point, forced
    dice still queued) are part of what a copy replays."""
    scene = load_scene("warehouse")
    ctl = controllers_for(scene, {s: "basic" for s in scene.sides}, seed=2)
    e = start(scene, 2, forced=[(1, 1, 0, 0)] * 3)
    for _ in range(9):
        d = e.pending
        e.step(*ctl[d.actor].choose(e, d))
    e.gm_add_aspect("Collapsing Shelves", None)
    e.gm_fate_points("cynere", 1)
    e.dice.force(-4, 4)
    while e.pending.kind not in ("turn", "move", "respond", "next"):
        d = e.pending
        e.step(*ctl[d.actor].choose(e, d))
    e.concede("thug3", "runs")
    for how in HOW.values():
        c = how(e)
        assert c.log() == e.log()
        assert c.dice.forced_pending == e.dice.forced_pending
        assert _finish(c, ctl).log() == _finish(copy.deepcopy(e), ctl).log()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), at=st.integers(0, 120), policy=st.sampled_from(["random", "tactician", "sniper"]))
def test_clone_at_any_decision_property(seed, at, policy):
    """Any scene, any decision, seeded controllers: the clone and the original end the same."""
    names = list(KINDS.values())
    scene = load_scene(names[seed % len(names)])
    picks = {s: policy for s in scene.sides}
    e = start(scene, seed)
    ctl_a = controllers_for(scene, picks, seed=seed)
    for _ in range(at):
        if e.pending is None:
            break
        d = e.pending
        e.step(*ctl_a[d.actor].choose(e, d))
    c = e.clone()
    # seeded controllers carry their own state, so the copy is given the original's next choices
    while e.pending is not None:
        d = e.pending
        index, reason = ctl_a[d.actor].choose(e, d)
        assert c.pending is not None and c.pending.keys() == d.keys()
        e.step(index, reason)
        c.step(index, reason)
    assert c.pending is None and c.log() == e.log()


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_finished_scene_copies_too(kind):
    scene = load_scene(KINDS[kind])
    e = _finish(start(scene, 4), controllers_for(scene, seed=4))
    for how in HOW.values():
        c = how(e)
        assert c.pending is None and c.log() == e.log() and c.outcome == e.outcome
    ended = start(scene, 5)
    ended.gm_end()
    assert ended.clone().log() == ended.log() and ended.clone().outcome.unresolved
