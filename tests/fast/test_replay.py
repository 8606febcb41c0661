"""Seats answered from outside the kernel (issue 13, the groundwork of a native environment):
``FastCore.replay(seed, answers)`` plays a conflict with the ``agent`` seats answered in turn,
pauses at the first decision past the answers (its kind, actor and option count the reference's),
and with every answer ends with the reference's log."""

from __future__ import annotations

import numpy as np
import pytest

from agents.base import controllers_for
from fate_env.fast import FastCore
from fate_env.fast import kernel as k
from fate_env.rules.engine import start
from fate_env.content.scenes import load_scene

pytestmark = pytest.mark.kernel  # runs the fast core (tests/conftest.py)


def reference(scene, seed, agents, others="basic"):
    """The reference played with ``agents`` answered by a seeded draw and everyone else by
    ``others``: the answers, each decision asked of an agent (with its options), and the log."""
    c = start(scene, seed)
    ctl = controllers_for(scene, {c_.id: others for c_ in scene.characters if c_.id not in agents}, seed=seed)
    rng = np.random.default_rng(seed + 99)
    answers, asked = [], []
    while not c.over:
        d = c.pending
        if d.actor in agents:
            i = int(rng.integers(len(d.options)))
            asked.append((str(d.kind), d.actor, len(d.options), list(d.options)))
            answers.append(i)
            c.step(i)
        else:
            i, why = ctl[d.actor].choose(c, d)
            c.step(i, why)
    return answers, asked, [e.to_json() for e in c.events]


@pytest.mark.parametrize("rules", ["condensed", "core"])
@pytest.mark.parametrize("name,side", [("duel", None), ("warehouse", None), ("warehouse", "pcs"),
                                       ("warehouse_mobs", "smugglers")])
def test_replays_pause_where_the_reference_asks_and_end_as_it_ends(name, rules, side):
    scene = load_scene(name, rules=rules)
    agents = {c.id for c in scene.characters if side is None or c.side == side}
    core = FastCore(scene, {cid: "agent" for cid in agents})
    for seed in range(8):
        answers, asked, log = reference(scene, seed, agents)
        for n in sorted({0, 1, len(answers) // 3, len(answers) // 2, len(answers) - 1} - {len(answers)}):
            ep = core.replay(seed, answers[:n])
            assert ep.bail == k.BAIL_REASONS[k.BAIL_PAUSE]
            assert ep.pending == asked[n][:3], f"{name} seed {seed} after {n} answers"
        ep = core.replay(seed, answers)
        assert ep.bail == "" and ep.pending is None
        assert ep.log() == log, f"{name} seed {seed}"


def test_an_answer_outside_the_options_stops_the_replay():
    scene = load_scene("duel")
    core = FastCore(scene, {c.id: "agent" for c in scene.characters})
    ep = core.replay(0, [99])
    assert ep.bail == k.BAIL_REASONS[k.BAIL_ANSWER]


@pytest.mark.parametrize("rules", ["condensed", "core"])
@pytest.mark.parametrize("name,side", [("duel", None), ("warehouse", None), ("warehouse", "pcs"),
                                       ("warehouse_mobs", "smugglers")])
def test_a_session_answered_one_decision_at_a_time_is_the_reference(name, rules, side):
    """FastCore.session: each answer resumes from the last turn's checkpoint; every decision asked
    is the reference's, option for option (what a mask is made from), and the whole log too."""
    scene = load_scene(name, rules=rules)
    agents = {c.id for c in scene.characters if side is None or c.side == side}
    core = FastCore(scene, {cid: "agent" for cid in agents})
    for seed in range(8):
        answers, asked, log = reference(scene, seed, agents)
        s = core.session(seed)
        for i, (answer, want) in enumerate(zip(answers, asked)):
            assert s.pending == want[:3], f"{name} seed {seed}: decision {i}"
            assert s.options == want[3], f"{name} seed {seed}: decision {i}'s options"
            s.answer(answer)
        assert s.over and s.pending is None
        assert s.episode.log() == log, f"{name} seed {seed}"
