"""The PettingZoo environment: PettingZoo's own tests, determinism, a fuzz, the action layout."""

from __future__ import annotations

import json
import pickle
import warnings

import numpy as np
import pytest
from conftest import SHIPPED

pytest.importorskip("pettingzoo")

import fate_env  # noqa: E402
from agents.base import REGISTRY, controllers_for, make_controller  # noqa: E402
from fate_env.evaluation.episodes import play_episode  # noqa: E402
from fate_env.environment.aec import IllegalAction, reward_bounds  # noqa: E402
from fate_env.rules.options import key  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

pytestmark = pytest.mark.kernel  # runs the fast core (tests/conftest.py)

RULES = ["condensed", "core", "fate2", "fate3"]


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("scene", SHIPPED)
@pytest.mark.parametrize("rules", RULES)
def test_pettingzoo_api_seed_and_render_tests(scene, rules, capsys):
    api_test(fate_env.env(scene=scene, rules=rules), num_cycles=300)
    seed_test(lambda **kw: fate_env.env(scene=scene, rules=rules, **kw), num_cycles=300)
    render_test(lambda render_mode=None: fate_env.env(scene=scene, rules=rules, render_mode=render_mode))
    capsys.readouterr()


def run_episode(env, seed: int, rng_seed: int, record: bool = False):
    """A masked-random episode; checks the invariants as it goes and returns the trace and the
    finished engine (its ``log()`` is built only where a test reads it: a long scene's log costs
    as much as a sixth of the episode)."""
    env.reset(seed=seed)
    raw = env.unwrapped
    rng = np.random.default_rng(rng_seed)
    lo, hi = reward_bounds(raw.reward_cfg, raw.scene)
    done: set[str] = set()
    trace = []
    steps = 0
    for agent in env.agent_iter():
        assert agent not in done, f"{agent} came back after being done"
        obs, reward, term, trunc, info = env.last()
        space = env.observation_space(agent)
        assert space.contains(obs), f"observation of {agent} outside its space"
        assert lo - 1e-6 <= reward <= hi + 1e-6
        if record:
            trace.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, term, trunc))
        if term or trunc:
            assert not obs["action_mask"].any()
            done.add(agent)
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0, f"{agent} must act but its mask is empty"
        assert agent == raw.conflict.pending.actor
        assert len(legal) == len(raw.conflict.pending.options), "the mask is exactly the legal options"
        env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
        assert steps < 50_000
    assert raw.conflict.over and not env.agents
    return trace, raw.conflict


@pytest.mark.parametrize("scene", SHIPPED)
def test_same_seed_same_actions_same_episode(scene):
    for seed in range(5):
        a = run_episode(fate_env.env(scene=scene), seed, seed, record=True)
        b = run_episode(fate_env.env(scene=scene), seed, seed, record=True)
        assert a[0] == b[0]
        assert json.dumps(a[1].log()) == json.dumps(b[1].log())
    c = run_episode(fate_env.env(scene=scene), 1, 1, record=True)
    assert c[0] != a[0]


#: the suite's fuzz per shipped scene: (episodes under its own rule set, under each other one). The scale
#: run (1,000 and 100, about 9 minutes of CPU) is scripts/fuzz_env.py, run before a release and when the
#: environment or the engine changes shape (docs/contributing.md)
FUZZ = (60, 15)


def fuzz(scene: str, episodes: int, others: int) -> None:
    """The invariants over ``episodes`` seeded masked-random episodes of ``scene`` (and ``others`` under
    each other rule set); the seeds are the scale run's first ones, so a failure here replays there."""
    env = fate_env.env(scene=scene)
    for seed in range(episodes):
        run_episode(env, seed, 7919 * seed + 1)
    for rules in ("core", "fate2", "fate3"):
        env = fate_env.env(scene=scene, rules=rules)
        for seed in range(others):
            run_episode(env, seed, seed)


@pytest.mark.parametrize("scene", SHIPPED)
def test_fuzz_masked_random_episodes(scene):
    """The environment's invariants (masks, spaces, rewards, who acts) over seeded random episodes."""
    fuzz(scene, *FUZZ)


@pytest.mark.parametrize("scene,dials", [
    ("warehouse", {"conditions": "together"}), ("duel", {"extreme_consequences": True, "scale_benefit": "after_roll"}),
    ("chase", {"faster_contests": True}), ("wyrm", {"scale_benefit": "after_roll", "conditions": "together"}),
    ("burning_mill", {"conditions": "apart"}), ("interrogation", {"conditions": "apart"}),
    ("warehouse_mobs", {"split_effort": True}), ("warehouse", {"split_effort": True}),
])
def test_fuzz_the_optional_rules(scene, dials):
    """Condensed's optional rules (issue 15) under the env's invariants: masks, spaces, rewards."""
    env = fate_env.env(scene=scene, **dials)
    for seed in range(150):
        run_episode(env, seed, 7919 * seed + 3)


def test_fuzz_blocks_and_hazards():
    """A scene with a block on every border, a hazard, a zone attack and a big bad with a solo
    bonus, minion armor and a true form, under the env's invariants."""
    from conftest import make_scene
    scene = make_scene(
        {"hero": {"kind": "pc", "side": "pcs", "zone": "a", "skills": {"Fight": 3, "Shoot": 2, "Athletics": 2},
                  "high_concept": "Hero", "fate_points": 3,
                  "stunts": [{"name": "Grenadier", "kind": "zone_attack", "skill": "Shoot"}]},
         "thug": {"kind": "minor", "side": "npcs", "zone": "b", "skills": {"Fight": 2, "Shoot": 1}},
         "boss": {"kind": "major", "side": "npcs", "zone": "c", "skills": {"Shoot": 3, "Athletics": 1},
                  "high_concept": "Boss", "solo_bonus": ["skill"], "minion_armor": True, "true_form": "beast",
                  "carry_consequences": True},
         "beast": {"kind": "major", "side": "npcs", "zone": "c", "skills": {"Fight": 4}, "high_concept": "Beast"},
         "goons": {"kind": "mob", "count": 3, "side": "npcs", "zone": "c", "skills": {"Fight": 1}}},
        zones=("a", "b", "c"), rules="condensed",
        borders=[{"between": ["a", "b"], "block": {"name": "Vat of Acid", "rating": 3, "weapon": 4}},
                 {"between": ["b", "c"], "block": {"name": "Chain Link Fence", "rating": 2, "cover": "mitigates"}}],
        hazards=[{"name": "Distant Sniper", "rating": 5, "weapon": 4, "attacks": ["pcs"]}],
        distractions=[{"name": "Bus Full of Civilians", "opposition": 3,
                       "repercussions": {"leave": "The civilians die.", "deal": "The boss gets away."}}])
    env = fate_env.env(scene=scene)
    for seed in range(200):
        run_episode(env, seed, seed + 11)


def test_a_true_form_waits_as_an_agent_and_then_plays():
    """The true form is an agent from the start, holds no decision while it waits, and plays once
    revealed (003:2550-2566); the invariants hold throughout."""
    from conftest import make_scene
    scene = make_scene(
        {"hero": {"kind": "pc", "side": "pcs", "zone": "c", "skills": {"Fight": 6, "Athletics": 4},
                  "high_concept": "Hero", "fate_points": 3},
         "boss": {"kind": "major", "side": "npcs", "zone": "c", "skills": {"Fight": 1}, "high_concept": "Boss",
                  "true_form": "beast"},
         "beast": {"kind": "major", "side": "npcs", "zone": "c", "skills": {"Fight": 4}, "high_concept": "Beast"}},
        zones=("c",))
    env = fate_env.env(scene=scene)
    revealed = 0
    for seed in range(100):
        _, engine = run_episode(env, seed, seed)
        revealed += any(e["type"] == "TrueFormRevealed" for e in engine.log())
    assert revealed >= 1


def test_action_layout_pinned_on_the_ghoul_example():
    """The mask at each decision point of the ghoul's first hit (003:1571-1580), forced dice."""
    env = fate_env.raw_env(scene="ghoul")
    env.reset(seed=0, options={"forced_dice": [(1, 1, 0, 0), (-1, 0, 0, 0)]})
    lay = env.layout
    # seven advantage templates (mental ones too: DISTRACTED in a physical fight, 003:1414-1419);
    # six boxes at most (the ghoul's Good Physique under condensed, 003:455-469)
    assert (lay.C, lay.Z, lay.K, lay.T, lay.S, lay.X) == (2, 2, 2, 7, 3, 6)

    def legal():
        return [f"{n}[{o}]" for n, o in (lay.segment_of(a) for a in np.flatnonzero(env.action_mask()))]

    def pick(wanted: str):
        d = env.conflict.pending
        env.step(env.action_for_option([key(o) for o in d.options].index(wanted)))

    turn = ["attack[2]", "attack[3]", "advantage[1]", "advantage[6]", "advantage[11]", "advantage[15]",
            "advantage[22]", "advantage[26]", "advantage[31]",
            "exploit[0]", "exploit[1]", "exploit[2]", "exploit[3]", "exploit[4]", "exploit[5]",
            "overcome_move[1]", "full_defense[0]", "concede[0]", "pass[0]"]
    invokes = ["done[0]"] + [f"invoke[{6 * slot + m}]" for slot in range(6) for m in (2, 3)]
    assert env.agent_selection == "ghoul" and legal() == turn
    pick("attack:charles:Fight")
    assert env.agent_selection == "charles" and legal() == ["concede[0]", "defend[0]"]
    pick("defend")
    assert env.agent_selection == "ghoul" and legal() == invokes  # GM pool: one point
    pick("done")
    assert env.agent_selection == "charles" and legal() == invokes  # his own three points
    pick("done")
    # 2 shifts: two boxes, or any one consequence (bitmask x 7), or taken out
    assert env.agent_selection == "charles"
    assert legal() == ["absorb[0]", "absorb[7]", "absorb[14]", "absorb[28]", "taken_out[0]"]
    pick("absorb:0,1:-")
    assert env.agent_selection == "charles" and legal() == turn  # popcorn: the only one left


def test_illegal_action_is_refused_and_changes_nothing():
    env = fate_env.raw_env(scene="duel")
    env.reset(seed=3)
    before = (env.agent_selection, json.dumps(env.conflict.log()), env.action_mask().tobytes())
    bad = int(np.flatnonzero(env.action_mask() == 0)[0])
    with pytest.raises(IllegalAction, match="not legal"):
        env.step(bad)
    assert (env.agent_selection, json.dumps(env.conflict.log()), env.action_mask().tobytes()) == before


def test_rewards_win_loss_and_concession():
    env = fate_env.raw_env(scene="duel")
    env.reset(seed=0)
    first = env.agent_selection
    other = next(a for a in env.agents if a != first)
    d = env.conflict.pending
    env.step(env.action_for_option([key(o) for o in d.options].index("concede")))
    assert env.terminations[first] and env.terminations[other]
    assert env._cumulative_rewards[first] == -0.5  # conceding costs less than being taken out
    assert env._cumulative_rewards[other] == 1.0
    shaped = fate_env.raw_env(scene="duel", reward={"shift_taken": -0.1, "shift_dealt": 0.1})
    assert shaped.reward_cfg["shift_taken"] == -0.1
    with pytest.raises(ValueError, match="unknown key"):
        fate_env.raw_env(scene="duel", reward={"winning": 1})


def test_scene_rewards_are_the_default_and_the_argument_overrides(tmp_path):
    import yaml
    from fate_env.content.scenes import scene_path
    data = yaml.safe_load(scene_path("duel").read_text())
    data["rewards"] = {"conceded": -0.25, "shift_dealt": 0.1}
    path = tmp_path / "duel.yaml"
    path.write_text(yaml.safe_dump(data))
    env = fate_env.raw_env(scene=str(path))
    assert env.reward_cfg["conceded"] == -0.25 and env.reward_cfg["shift_dealt"] == 0.1
    env = fate_env.raw_env(scene=str(path), reward={"conceded": -0.75})
    assert env.reward_cfg["conceded"] == -0.75 and env.reward_cfg["shift_dealt"] == 0.1


def test_truncation_at_the_exchange_cap():
    env = fate_env.env(scene="duel", max_exchanges=1)
    env.reset(seed=0)
    pass_ = env.unwrapped.layout.segments["pass"].start
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            assert trunc and reward == 0.0
            env.step(None)
            continue
        mask = obs["action_mask"]
        env.step(pass_ if mask[pass_] else int(np.flatnonzero(mask)[0]))
    assert env.unwrapped.conflict.outcome.unresolved


@pytest.mark.parametrize("policy", ["random", "basic"])
def test_controllers_play_inside_the_env_loop(policy):
    env = fate_env.env(scene="warehouse")
    scene = env.unwrapped.scene
    for seed in range(5):
        totals = play_episode(env, controllers_for(scene, {s: policy for s in scene.sides}, seed=seed), seed=seed)
        outcome = env.unwrapped.conflict.outcome
        if outcome.winner is not None:
            assert any(v > 0 for v in totals.values()) and any(v < 0 for v in totals.values())


def test_env_matches_the_engine_run_by_the_same_controllers():
    """The env adds no dice of its own: a basic-vs-basic episode is the same story as `resolve`."""
    from agents.base import play
    from fate_env.rules.conflict import Conflict
    env = fate_env.env(scene="duel")
    scene = env.unwrapped.scene
    play_episode(env, controllers_for(scene, seed=4), seed=4)
    direct = play(Conflict(scene, 4), controllers_for(scene, seed=4))

    def plain(log):  # the env's step() carries no reasons; everything else must agree
        return json.dumps([{k: v for k, v in e.items() if k != "reason"} for e in log])
    assert plain(env.unwrapped.conflict.log()) == plain(direct.log())


def test_raw_env_pickles_for_vectorised_training():
    env = fate_env.raw_env(scene="warehouse", reward={"shift_dealt": 0.05})
    clone = pickle.loads(pickle.dumps(env))
    clone.reset(seed=1)
    assert clone.reward_cfg["shift_dealt"] == 0.05 and clone.agent_selection == "cynere"


def test_single_agent_view_passes_sb3_check_env():
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env
    from fate_env.environment.single_agent import FateSingleAgentEnv
    for scene in ("duel", "warehouse"):
        env = FateSingleAgentEnv(controllers=REGISTRY, scene=scene, opponents="basic")
        check_env(env, warn=True)
        obs, info = env.reset(seed=2)
        assert env.observation_space.contains(obs)
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any()
        obs, reward, term, trunc, info = env.step(int(np.flatnonzero(~mask)[0]))
        assert "illegal_action" in info and reward == 0.0 and not term


def test_single_agent_view_keeps_rewards_landing_between_turns():
    from fate_env.environment.single_agent import FateSingleAgentEnv
    env = FateSingleAgentEnv(controllers=REGISTRY, scene="duel", side="rival", opponents="random", opponent_seed=1)
    total, episodes = 0.0, 0
    rng = np.random.default_rng(0)
    for seed in range(20):
        obs, info = env.reset(seed=seed)
        done = env.over
        ep = info.get("skipped_reward", 0.0)
        while not done:
            legal = np.flatnonzero(env.action_masks())
            obs, r, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
            ep += r
            done = term or trunc
        outcome = env.episode_outcome
        if outcome.winner == "rival":
            assert ep > 0
        elif outcome.winner == "cynere":
            assert ep < 0
        total += ep
        episodes += 1
    assert episodes == 20


def test_maskable_ppo_smoke_run_on_the_duel():
    """A few thousand steps of MaskablePPO over the single-agent view (training for real: docs/npcs.md)."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from fate_env.environment.single_agent import FateSingleAgentEnv
    env = FateSingleAgentEnv(controllers=REGISTRY, scene="duel", side="rival", opponents="basic")
    model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=64, n_epochs=2, seed=0, verbose=0)
    model.learn(2048)
    obs, _ = env.reset(seed=123)
    action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)]


def test_random_controller_is_uniform_over_legal_actions():
    env = fate_env.raw_env(scene="duel")
    env.reset(seed=0)
    ctl = make_controller("random", 0)
    n = len(env.conflict.pending.options)
    counts = np.zeros(n)
    for _ in range(3000):
        counts[ctl.choose(env.conflict, env.conflict.pending)[0]] += 1
    assert counts.min() > 0


def test_single_agent_view_can_learn_only_the_turn_decisions():
    from fate_env.environment.single_agent import FateSingleAgentEnv
    env = FateSingleAgentEnv(controllers=REGISTRY, scene="duel", side="rival", opponents="basic", learn=("turn",))
    rng = np.random.default_rng(0)
    for seed in range(5):
        obs, _ = env.reset(seed=seed)
        done = env.over
        while not done:
            assert env.conflict.pending.kind == "turn" and env.conflict.pending.actor == "blade"
            legal = np.flatnonzero(env.action_masks())
            obs, r, term, trunc, _ = env.step(int(legal[rng.integers(len(legal))]))
            done = term or trunc


def test_side_outcome_scores_a_beaten_side_that_has_nobody_left():
    """Per character, a side whose members are all out gets no `loss` (nobody is still in);
    with outcome="side" the side's end is scored once, so expendable minions learn to win."""
    from fate_env.environment.single_agent import FateSingleAgentEnv
    reward = {"conceded": 0.0, "taken_out": 0.0}
    per_char = FateSingleAgentEnv(controllers=REGISTRY, scene="warehouse", side="smugglers", opponents="basic", reward=reward,
                                  outcome="characters")
    per_side = FateSingleAgentEnv(controllers=REGISTRY, scene="warehouse", side="smugglers", opponents="basic", reward=reward,
                                  outcome="side")
    helper = make_controller("basic", 0)

    def episode_return(env) -> float:
        env.reset(seed=3)
        total, done = 0.0, False
        while not done:
            c = env.conflict
            _, r, term, trunc, info = env.step(env.action_for_option(helper.choose(c, c.pending)[0]))
            total += r
            done = term or trunc
        assert info["outcome"]["winner"] == "pcs"
        return total

    assert episode_return(per_char) == 0.0
    assert episode_return(per_side) == -1.0
    with pytest.raises(ValueError, match="expected 'characters' or 'side'"):
        FateSingleAgentEnv(controllers=REGISTRY, scene="duel", outcome="team")


def test_single_agent_view_draws_one_opponent_of_a_mixture_per_episode():
    from fate_env.environment.single_agent import FateSingleAgentEnv
    env = FateSingleAgentEnv(controllers=REGISTRY, scene="duel", side="rival", opponents="basic,random")
    seen = set()
    for seed in range(12):
        env.reset(seed=seed)
        seen.add(env.controllers["cynere"].name)
    assert seen == {"basic", "random"}
    again = FateSingleAgentEnv(controllers=REGISTRY, scene="duel", side="rival", opponents="basic,random")
    drawn = []
    for e in (env, again):
        drawn.append([(e.reset(seed=s), e.controllers["cynere"].name)[1] for s in range(6)])
    assert drawn[0] == drawn[1]  # the draw follows the reset seed


def _dial_values() -> list[tuple[str, object]]:
    """Every value of every flag and choice dial, from the rule set's own declarations (so a new dial
    is covered the day it is declared), each beside Condensed's defaults."""
    from fate_env.rules.ruleset import CHOICES, FLAGS, address
    return [(address(name), True) for name in FLAGS] + [(address(name), value) for name, values in CHOICES.items()
                                                        for value in values]


#: what a dial value needs beside it to be a rule set at all (refused otherwise, with the lines that say so)
COMPANIONS = {("hold_action", True): {"turn_order": "skills"},
              ("concession", "offered"): {"consequence_rule": "ordered"}}


@pytest.mark.parametrize("dial,value", _dial_values())
def test_every_value_of_every_dial_plays_under_the_environment(dial, value):
    """A dial-gated action whose segment stays empty (a feature its scene does not turn on) overflows the
    layout the moment the dial is on; no shipped scene turns most dials on, so each value is tried here
    on the warehouse (and the duel for a contest-free one-on-one), under the env's invariants."""
    from fate_env.content.scenes import SceneError
    dials = {dial: value, **COMPANIONS.get((dial, value), {})}
    played = 0
    for scene in ("warehouse", "duel"):
        try:
            env = fate_env.env(scene=scene, **dials)
        except (SceneError, ValueError) as exc:  # a combination the rule sets refuse, by name
            assert dial in str(exc) or any(k in str(exc) for k in dials), exc
            continue
        for seed in range(4):
            run_episode(env, seed, 7919 * seed + 5)
        played += 1
    assert played, f"{dial}: {value!r} was refused on every scene"


def test_a_scene_with_a_hidden_aspect_passes_the_api_and_hides_it_until_found():
    """aspects[].hidden (003:854-867): the search is an option with an aspect slot; the slot's
    features stay empty in every observation until the aspect is revealed."""
    from fate_env.content.scenes import load_scene, scene_from_dict
    from fate_env.environment.observation import ASPECT, GLOBAL
    base = load_scene("warehouse")
    data = {"name": "hidden_warehouse", "zones": [{"id": z.id} for z in base.zones],
            "borders": [{"between": [b.a, b.b]} for b in base.borders],
            "aspects": [{"name": "Loose Crates", "zone": base.zones[0].id, "hidden": True}],
            "characters": {c.id: {"kind": c.kind, "side": c.side, "zone": c.zone, "skills": dict(c.skills),
                                  "high_concept": c.high_concept} for c in base.characters}}
    scene = scene_from_dict(data, "<hidden>")
    api_test(fate_env.env(scene=scene), num_cycles=200)
    env = fate_env.env(scene=scene)
    revealed = hidden_seen = 0
    for seed in range(12):
        env.reset(seed=seed)
        raw = env.unwrapped
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            c = raw.conflict
            a = next(x for x in c.t.aspects.values() if x.name == "Loose Crates")
            slot = raw.slots.slot_of.get(a.id) if raw.slots is not None else None
            if slot is not None and a.hidden:
                enc = raw.encoder
                at = GLOBAL + enc.C * enc.char_size + slot * ASPECT
                assert not obs["observation"][at:at + ASPECT].any()
                hidden_seen += 1
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        revealed += not a.hidden
    assert hidden_seen and revealed
