"""The environment on the fast core hands out the reference environment's streams.

The golden streams (``test_golden_env.py``) pin the default settings on every shipped scene; these
tests step both engines side by side, decision by decision, where the defaults do not reach:
shaped rewards and a truncating exchange cap, an episode that outgrows the kernel's tables and
goes on on the reference, opponent mixtures with ``random`` (its generator carried across
episodes, cut short or not), every decision kind learned, and ``outcome="side"``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from agents.base import REGISTRY
from fate_env.environment import aec
from fate_env.environment.aec import raw_env
from fate_env.environment.reference_table import ReferenceTable
from fate_env.environment.single_agent import FateSingleAgentEnv
from fate_env.fast import core as fast_core
from fate_env.fast import tables as fast_tables
from fate_env.fast.core import Unsupported

pytestmark = [pytest.mark.kernel, pytest.mark.skipif(not fast_core.available(), reason="the fast core needs numba (the fast extra)")]

SHAPED = {"shift_dealt": 0.1, "shift_taken": -0.1, "unresolved": -1.0}


def aec_side_by_side(seeds, **kw) -> int:
    """Step a reference and a fast AEC environment with the same masked random actions; every
    observation of every agent, every mask, reward, ending and info must agree. Returns the steps."""
    ref, fast = raw_env(core="reference", **kw), raw_env(core="fast", **kw)
    steps = 0
    for seed in seeds:
        ref.reset(seed=seed)
        fast.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while True:
            assert ref.agent_selection == fast.agent_selection
            for agent in ref.possible_agents:
                a, b = ref.observe(agent), fast.observe(agent)
                np.testing.assert_array_equal(a["observation"], b["observation"])
                np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
            for attr in ("rewards", "_cumulative_rewards", "terminations", "truncations", "infos"):
                assert getattr(ref, attr) == getattr(fast, attr), (seed, steps, attr)
            if not ref.agents:
                break
            agent = ref.agent_selection
            action = None
            if not (ref.terminations[agent] or ref.truncations[agent]):
                legal = np.flatnonzero(ref.observe(agent)["action_mask"])
                action = int(legal[rng.integers(len(legal))])
            ref.step(action)
            fast.step(action)
            steps += 1
    return steps


def test_aec_with_shaped_rewards_and_a_truncating_cap_is_the_reference():
    assert aec_side_by_side(range(6), scene="warehouse", reward=SHAPED, max_exchanges=3) > 300
    assert aec_side_by_side(range(8), scene="warehouse_mobs", rules="core", reward=SHAPED) > 300


def test_zone_attacks_and_an_immobile_character_step_the_same_on_both_cores():
    """horde's zone attacks (the zone_attack segment, encoded by the kernel: L_ZONEATTACK) and
    leviathan's immobile parts (issue 38), stepped with masked random actions."""
    assert aec_side_by_side(range(5), scene="horde") > 200
    assert aec_side_by_side(range(3), scene="leviathan") > 100


def test_countdowns_step_the_same_on_both_cores():
    """summoning's countdown (003:2171-2195) in every observation (its share marked, whether it runs)
    and its outcome in the rewards and endings."""
    assert aec_side_by_side(range(6), scene="summoning") > 200


def test_ordered_consequences_and_offered_concessions_step_the_same_on_both_cores():
    """FATE 2.0's consequences (a penalty on the dice) and its offered concessions: the offer among the
    absorb's actions, the answer a decision of its own kind (concession)."""
    assert aec_side_by_side(range(6), scene="warehouse", consequence_rule="ordered", concession="offered") > 300


def test_fate_2_steps_the_same_on_both_cores():
    """highwaymen under FATE 2.0: held actions (the hold segment, the act_now/keep_holding decision),
    full defense for the exchange, roll-up stress, ordered consequences and offered concessions."""
    assert aec_side_by_side(range(5), scene="highwaymen") > 300


def test_burning_mill_s_hazards_step_the_same_on_both_cores():
    """burning_mill's hazards (003:2270-2297): their attacks answered by the agents, their turns at the
    exchange's close, under popcorn and in Core's order by skills."""
    assert aec_side_by_side(range(5), scene="burning_mill") > 100
    assert aec_side_by_side(range(4), scene="burning_mill", rules="core") > 80


def test_the_crossing_under_fate_3_steps_the_same_on_both_cores():
    """Every Fate 3.0 dial (the crossing's rule set): minor moves, sprints, blocks for an ally and against an
    action (the protect and block_action segments, encoded by the kernel), spin tokens, maneuvers."""
    assert aec_side_by_side(range(6), scene="crossing") > 150


def test_fate_3_maneuvers_and_spin_step_the_same_on_both_cores():
    """Fate 3.0's maneuvers, their avoidance for a fate point (the take_aspect and avoid_aspect answers),
    fragile aspects, and spin tokens (002:79-95): the tokens per character in every observation, and
    spending one among a defender's invoke actions (the spin segment, encoded by the kernel: L_SPIN)."""
    assert aec_side_by_side(range(6), scene="warehouse", advantage_rule="maneuver", maneuver_avoid=True,
                            fragile_aspects=True, defense_overflow="spin") > 300


def test_contests_and_challenges_step_the_same_on_both_cores():
    """A contest's decisions (who rolls with which skill, teamwork, an advantage first, an attack that turns it
    into a conflict: the roll_for, no_support, no_advantage and to_conflict segments, encoded by the kernel),
    its victories in every observation and what each side invoked on its own roll; a challenge's tasks; the
    vault's conflict that holds a challenge and turns into its contest (to_contest)."""
    assert aec_side_by_side(range(6), scene="chase") > 150
    assert aec_side_by_side(range(6), scene="debate", rules="core") > 60
    assert aec_side_by_side(range(6), scene="race") > 60
    assert aec_side_by_side(range(6), scene="ritual") > 20
    assert aec_side_by_side(range(4), scene="vault") > 40
    # a learner of the contest's decisions beside scripted foes; in the vault, the PCs' basic works the challenge
    # and calls the retreat, so the temple's learner plays the conflict and then the contest
    contest = ("contest_roll", "support", "contest_advantage", "invoke")
    assert single_side_by_side(range(6), scene="chase", side="temple", opponents="basic,random", learn=contest,
                               opponent_seed=1) > 30
    assert single_side_by_side(range(4), scene="vault", side="temple", opponents="basic",
                               learn=("turn",) + contest) > 30


def test_an_episode_outgrowing_the_kernel_goes_on_on_the_reference(monkeypatch):
    """With room for 120 events the kernel stops mid-fight; the environment rebuilds the reference
    engine at that point (the seed and the decisions so far), keeps the aspect slots, and goes on."""
    monkeypatch.setattr(fast_tables, "limits", lambda characters, aspects: (256, 120))
    env = raw_env(scene="warehouse", core="fast")
    env.reset(seed=3)
    handed_back = False
    rng = np.random.default_rng(3)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        handed_back |= isinstance(env._t, ReferenceTable)
        legal = np.flatnonzero(obs["action_mask"])
        env.step(None if term or trunc else int(legal[rng.integers(len(legal))]))
    assert handed_back
    assert aec_side_by_side(range(3), scene="warehouse") > 100  # the side-by-side check under the same patch


def test_uncovered_scenes_and_bad_cores(tmp_path):
    import yaml
    from fate_env.content.scenes import read_scene_data
    _, data = read_scene_data("chase")  # a contest with a threat: the kernel refuses it by name
    data["contest"]["threat"] = {"name": "Rolling Boulder", "rating": 2}
    (tmp_path / "boulder.yaml").write_text(yaml.safe_dump(data))
    with pytest.raises(Unsupported, match="a contest's threat"):
        raw_env(scene=str(tmp_path / "boulder.yaml"), core="fast")
    assert raw_env(scene=str(tmp_path / "boulder.yaml")).core == "reference"
    assert raw_env(scene="duel", core="reference").core == "reference"
    with pytest.raises(ValueError, match="core 'numba': expected one of auto, fast, reference"):
        raw_env(scene="duel", core="numba")


def single_side_by_side(seeds, cut: int | None = None, **kw) -> int:
    """Both engines, the same masked random learner; ``cut``: reset after that many steps of an
    episode (a random opponent's generator keeps the draws of the episode cut short)."""
    ref = FateSingleAgentEnv(controllers=REGISTRY, core="reference", **kw)
    fast = FateSingleAgentEnv(controllers=REGISTRY, **kw)
    assert fast._fast is not None and ref._fast is None
    steps = 0
    for seed in seeds:
        rng = np.random.default_rng(1000 + seed)
        a, b = ref.reset(seed=seed), fast.reset(seed=seed)
        for _ in range(cut if cut is not None else 10 ** 9):
            np.testing.assert_array_equal(a[0], b[0])
            assert a[1:] == b[1:], (seed, steps)
            if (len(a) == 5 and (a[2] or a[3])) or (len(a) == 2 and ref.over):
                break
            mask = ref.action_masks()
            np.testing.assert_array_equal(mask, fast.action_masks())
            action = int(rng.choice(np.flatnonzero(mask)))
            a, b = ref.step(action), fast.step(action)
            steps += 1
    return steps


def test_single_agent_view_on_the_fast_core_is_the_reference():
    # opponents drawn from a mixture; random's generator carried from episode to episode
    assert single_side_by_side(range(8), scene="warehouse", side="smugglers", opponents="basic,random,tactician",
                               learn=("turn",), reward=SHAPED, opponent_seed=4) > 50
    assert single_side_by_side(range(12), cut=3, scene="duel", side="rival", opponents="random", learn=("turn",)) > 20
    # every decision learned; the side's end scored once
    assert single_side_by_side(range(4), scene="warehouse_mobs", side="pcs", opponents="brute", reward=SHAPED,
                               outcome="side", rules="core") > 100
    assert single_side_by_side(range(6), scene="duel", side="rival", learn=("turn", "invoke")) > 50
    # the stacking line's training view: the stacker script makes the learner's invokes and
    # defenses, and plays the other side in the mixture
    assert single_side_by_side(range(8), scene="warehouse", side="smugglers", opponents="stacker,support",
                               learn=("turn",), helper="stacker", opponent_seed=2) > 50


def test_a_random_helper_runs_on_the_reference():
    """The kernel keeps one random generator an episode: the opponents'. A random helper would be
    a second (the reference seeds it apart), so that view stays on the reference."""
    env = FateSingleAgentEnv(controllers=REGISTRY, scene="duel", side="rival", helper="random")
    assert env._fast is None
    assert FateSingleAgentEnv(controllers=REGISTRY, scene="duel", side="rival", opponents="random")._fast is not None


def test_single_agent_view_reports_an_illegal_action_and_changes_nothing():
    env = FateSingleAgentEnv(controllers=REGISTRY, scene="duel", side="rival", learn=("turn",))
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    again, reward, term, trunc, info = env.step(illegal)
    assert "not legal" in info["illegal_action"] and not term and reward == 0.0
    np.testing.assert_array_equal(obs, again)


def test_the_environment_steps_one_interface_over_both_engines():
    """raw_env never asks which engine runs: the fast core's table and the reference's answer the
    same questions (reference_table.py), and aec.py reads the fast table only to pick it."""
    interface = {"reset", "answer", "actor", "pending_kind", "pending_count", "options", "over", "outcome", "events",
                 "conflict", "slots", "encode", "observe", "bail"}
    env = raw_env(scene="warehouse", core="fast")
    env.reset(seed=1)
    fast = env._t
    env.reset(seed=1, options={"forced_dice": [(1, 1, 1, 1)]})
    reference = env._t
    assert isinstance(reference, ReferenceTable) and not isinstance(fast, ReferenceTable)
    for table in (fast, reference):
        assert [name for name in sorted(interface) if not hasattr(table, name)] == []
    assert callable(fast.handover) and callable(reference.unscored)  # the hand-over's two halves
    source = Path(aec.__file__).read_text()
    names = {n.id for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Name)}
    assert not names & {"FastTable", "FastCore", "Session"} and "isinstance(self._t" not in source
    assert source.count("self._fast") == 5  # built (and named), dropped by use_reference, and picked at reset


def test_the_single_agent_view_plays_one_interface_over_both_engines():
    """FateSingleAgentEnv's step, masks and observations go through the episode's side (FastSide or
    ReferenceSide); the fast side is read only where it is built, dropped, extended, picked and reported."""
    from fate_env.environment import single_agent
    source = Path(single_agent.__file__).read_text()
    tree = ast.parse(source)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "FateSingleAgentEnv")
    readers = {f.name for f in cls.body if isinstance(f, ast.FunctionDef)
               and "self._fast" in ast.get_source_segment(source, f)}
    assert readers == {"__init__", "set_opponents", "set_league", "reset", "engine"}
