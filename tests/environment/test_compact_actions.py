"""The compact action space of a learner that makes only some decision kinds: the layout's actions
of those kinds, nothing lost (every option of those kinds has its action there), and the same
fight as on the full space."""

from __future__ import annotations

import numpy as np
import pytest

from agents.base import REGISTRY
from fate_env.environment.actions import SEGMENTS_BY_KIND
from fate_env.environment.aec import raw_env
from fate_env.environment.single_agent import FateSingleAgentEnv

pytestmark = pytest.mark.kernel  # runs the fast core (tests/conftest.py)

SCENES = ["warehouse", "warehouse_mobs", "ghoul", "interrogation", "duel", "race", "chase", "ritual", "debate", "vault"]


@pytest.mark.parametrize("scene", SCENES)
def test_every_option_lies_in_its_kinds_segments(scene):
    """Random play of every seat: each legal action of a decision falls in the segments of its kind."""
    env = raw_env(scene=scene)
    seen = 0
    for seed in range(4):
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            kind = env.conflict.pending.kind
            inside = set(env.layout.indices_for([kind]))
            legal = np.flatnonzero(obs["action_mask"])
            stray = [env.layout.segment_of(int(a)) for a in legal if int(a) not in inside]
            assert not stray, f"{scene} {kind}: actions outside {SEGMENTS_BY_KIND[kind]}: {stray}"
            seen += len(legal)
            env.step(int(legal[rng.integers(len(legal))]))
    assert seen > 0


def test_indices_follow_the_layout_and_refuse_an_unknown_kind():
    layout = raw_env(scene="warehouse").layout
    turn = layout.indices_for(["turn"])
    assert turn == sorted(turn) and len(set(turn)) == len(turn)
    assert layout.segments["attack"].start in turn and layout.segments["invoke"].start not in turn
    assert len(turn) < layout.n / 5  # the invoke segment is most of the layout
    assert set(layout.indices_for(list(SEGMENTS_BY_KIND))) == set(range(layout.n))
    with pytest.raises(ValueError, match="tunr"):
        layout.indices_for(["tunr"])


@pytest.mark.parametrize("scene", ["warehouse", "duel"])
def test_compact_plays_the_same_fight_as_full(scene):
    """The same seeds and choices (the compact action i is the full action full[i]) give the same
    observations, masks (restricted) and rewards."""
    kw = dict(scene=scene, learn=("turn",), controllers=REGISTRY)
    full, compact = FateSingleAgentEnv(**kw), FateSingleAgentEnv(actions="compact", **kw)
    assert compact.action_space.n == len(compact.full) < full.action_space.n
    for seed in range(6):
        rng = np.random.default_rng(seed)
        o1, _ = full.reset(seed=seed)
        o2, _ = compact.reset(seed=seed)
        done = False
        while not done:
            m1, m2 = full.action_masks(), compact.action_masks()
            assert np.array_equal(o1, o2) and np.array_equal(m1[compact.full], m2) and m1.sum() == m2.sum()
            a = int(rng.choice(np.flatnonzero(m2)))
            o1, r1, t1, u1, _ = full.step(int(compact.full[a]))
            o2, r2, t2, u2, _ = compact.step(a)
            assert (r1, t1, u1) == (r2, t2, u2)
            done = t1 or u1
        assert np.array_equal(o1, o2)


def test_compact_refusals():
    with pytest.raises(ValueError, match="learn="):
        FateSingleAgentEnv(scene="duel", actions="compact", learn=None, controllers=REGISTRY)
    with pytest.raises(ValueError, match="'full' or 'compact'"):
        FateSingleAgentEnv(scene="duel", actions="small", learn=("turn",), controllers=REGISTRY)
    env = FateSingleAgentEnv(scene="duel", actions="compact", learn=("turn",), controllers=REGISTRY)
    obs, _ = env.reset(seed=1)
    again, reward, term, trunc, info = env.step(env.action_space.n)  # outside the space: nothing happens
    assert "outside" in info["illegal_action"] and np.array_equal(obs, again) and not (term or trunc)
