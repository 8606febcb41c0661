"""The scripted tactics in decision situations, the evaluation math, training and ``ppo:PATH``."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from conftest import SHIPPED, Driver, make_scene, run_cli

from agents.base import UnknownController, controllers_for, make_controller, play
from fate_env.rules.aspects import new_aspect
from fate_env.cli import main
from fate_env.rules.engine import start
from fate_env.rules.options import (
    Attack, Concede, CreateAdvantage, Defend, DoneInvoking, Exploit, FullDefense, Invoke, Move, Next, Pass, Support,
)
from fate_env.content.scenes import load_scene
from fate_env.evaluation.stats import bradley_terry, odds_against, wilson
from fate_env.fast.tables import CONTROLLERS

SCRIPTED = [c for c in CONTROLLERS if c != "random"]  # every script the fast core plays too

DUO = {
    "hero": {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Fight": 4, "Athletics": 2, "Shoot": 2},
             "high_concept": "Brave Hero", "fate_points": 3},
    "npc": {"kind": "major", "side": "npcs", "zone": "room", "skills": {"Fight": 2, "Athletics": 1, "Shoot": 3},
            "high_concept": "Hired Blade"},
}


def choose(policy: str, c, kind: str, actor: str):
    d = c.pending
    assert (d.kind, d.actor) == (kind, actor), (d.kind, d.actor)
    index, reason = make_controller(policy).choose(c, d)
    assert reason
    return d.options[index]


@pytest.mark.parametrize("spec", ["basic:oops", "search:foes=stacker", "stacker:6"])
def test_a_scripted_policy_given_an_argument_is_refused_not_played_plain(spec):
    """Only ppo: and learned: take an argument (a model file); "basic:oops" used to play plain basic
    with the argument dropped."""
    with pytest.raises(UnknownController, match="only ppo: and learned: take an argument"):
        make_controller(spec)


@pytest.mark.parametrize("policy", SCRIPTED + ["random"])
@pytest.mark.parametrize("scene", SHIPPED)
def test_every_policy_handles_every_decision_of_every_scene(policy, scene):
    sc = load_scene(scene)
    for seed in range(3):
        c = play(start(sc, seed), controllers_for(sc, {s: policy for s in sc.sides}, seed=seed))
        assert c.over


def test_tactician_cashes_its_free_invokes_on_the_attack_they_were_made_for():
    c = start(make_scene(DUO, first="npc"), seed=0, forced=[(0, 0, 0, 0), (0, 0, 0, 0)])
    off = new_aspect(c, "Off Balance", "advantage", owner="hero", creator="npc")
    off.free["npc"] = 2
    pick = choose("tactician", c, "turn", "npc")
    assert type(pick) is Attack and pick.target == "hero"  # its best attack on the target it set up
    c.step(pick)
    d = Driver(c)
    d.do("respond", "hero", Defend())
    assert choose("tactician", c, "invoke", "npc") == Invoke(off.id, "npc", True, "bonus")


def test_tactician_sets_up_before_striking_and_defends_when_one_hit_from_out():
    c = start(make_scene(DUO, first="npc"), seed=0)
    pick = choose("tactician", c, "turn", "npc")
    assert type(pick) is CreateAdvantage and pick.target == "hero"
    f = c.f["npc"]
    for t in f.tracks.values():
        t.marked = [True] * len(t.values)
    for s in f.slots:
        s.aspect = -1
    assert choose("tactician", c, "turn", "npc") == FullDefense()


def test_spreader_strikes_the_foe_with_the_most_left_to_take_where_the_tactician_focuses():
    """Two heroes in reach, one with its boxes marked: the tactician goes for the wounded one, the
    spreader for the fresh one (with its best-rated attack), and says why."""
    trio = {**DUO, "sidekick": {**DUO["hero"], "high_concept": "Loyal Sidekick"}}
    c = start(make_scene(trio, first="npc"), seed=0)
    for t in c.f["hero"].tracks.values():
        t.marked = [True] * len(t.values)
    assert c.capacity("hero") < c.capacity("sidekick")
    focus = choose("tactician", c, "turn", "npc")
    assert focus.target == "hero"
    d = c.pending
    index, why = make_controller("spreader").choose(c, d)
    pick = d.options[index]
    assert type(pick) is Attack and pick.target == "sidekick" and pick.skill == "Shoot"  # Shoot 3 over Fight 2
    assert "Sidekick" in why and "most left to take" in why
    c2 = start(make_scene(trio, first="npc"), seed=0)  # all alike: the first foe offered
    assert choose("spreader", c2, "turn", "npc").target == choose("brute", c2, "turn", "npc").target


def test_stacker_stacks_on_its_own_aspect_then_puts_the_whole_stack_into_the_blow():
    c = start(make_scene(DUO, first="npc"), seed=0, forced=[(1, 1, 1, 1), (-1, -1, -1, -1)])
    own = next(a for a in c.aspects.values() if a.owner == "npc" and a.name == "Hired Blade")
    assert choose("stacker", c, "turn", "npc") == Exploit(own.id)  # nothing held yet: stack
    own.free["npc"] = 4
    pick = choose("stacker", c, "turn", "npc")
    assert type(pick) is Attack and pick.target == "hero"  # four held: strike
    c.step(pick)
    Driver(c).do("respond", "hero", Defend())
    assert c.pending.context["margin"] >= 1  # the blow already lands: basic would stop here
    assert choose("stacker", c, "invoke", "npc") == Invoke(own.id, "npc", True, "bonus")


def test_spender_takes_basics_turn_and_puts_every_free_invoke_it_holds_into_the_blow():
    """spender stacks nothing (its turn is basic's, the first time and with free invokes held), and
    spends a held free invoke on an attack that already lands, where basic stops."""
    c = start(make_scene(DUO, first="npc"), seed=0, forced=[(1, 1, 1, 1), (-1, -1, -1, -1)])
    own = next(a for a in c.aspects.values() if a.owner == "npc" and a.name == "Hired Blade")
    assert choose("spender", c, "turn", "npc") == choose("basic", c, "turn", "npc")
    own.free["npc"] = 1
    pick = choose("spender", c, "turn", "npc")
    assert pick == choose("basic", c, "turn", "npc") and type(pick) is Attack
    c.step(pick)
    Driver(c).do("respond", "hero", Defend())
    assert c.pending.context["margin"] >= 1
    assert choose("basic", c, "invoke", "npc") == DoneInvoking()
    assert choose("spender", c, "invoke", "npc") == Invoke(own.id, "npc", True, "bonus")


def test_counter_goes_on_full_defense_only_when_outmatched_and_holding_nothing():
    """counter is spender unless every attack it has is rated below its target's defense and it
    holds no free invoke: then full defense (Condensed: +2 on its defends, or a boost at its next
    turn when nothing came at it, 003:2232-2250), and with a free invoke in hand, spender's blow."""
    c = start(make_scene(DUO, first="npc"), seed=0)
    assert choose("counter", c, "turn", "npc") == choose("spender", c, "turn", "npc")  # Shoot 3 beats Athletics 2
    chars = copy.deepcopy(DUO)
    chars["npc"]["skills"] = {"Fight": 2, "Athletics": 1, "Shoot": 1}  # both attacks below the hero's defense
    c = start(make_scene(chars, first="npc"), seed=0)
    d = c.pending
    index, why = make_controller("counter").choose(c, d)
    assert d.options[index] == FullDefense() and "outmatched" in why
    assert type(choose("spender", c, "turn", "npc")) is Attack
    own = next(a for a in c.aspects.values() if a.owner == "npc")
    own.free["npc"] = 1
    pick = choose("counter", c, "turn", "npc")
    assert type(pick) is Attack and pick == choose("spender", c, "turn", "npc")


def test_counter_cashes_the_boost_its_full_defense_earned():
    """Nothing came at it: at its next turn it holds Condensed's boost, so it attacks and spends it."""
    chars = copy.deepcopy(DUO)
    chars["npc"]["skills"] = {"Fight": 2, "Athletics": 1, "Shoot": 1}
    c = start(make_scene(chars, first="npc"), seed=0, forced=[(1, 1, 1, 1), (-1, -1, -1, -1)])
    c.step(FullDefense())
    d = Driver(c)
    while c.pending.actor != "npc" or c.pending.kind != "turn":
        if c.pending.kind == "turn":
            c.step(Pass())
        else:
            c.step(c.pending.options[0])
    boosts = [a for a in c.aspects.values() if a.free.get("npc")]
    assert boosts, "no boost after a full defense nothing came at"
    pick = choose("counter", c, "turn", "npc")
    assert type(pick) is Attack
    c.step(pick)
    d.do("respond", "hero", Defend())
    assert choose("counter", c, "invoke", "npc").aspect == boosts[0].id


def test_coward_concedes_before_the_roll_that_would_take_it_out():
    c = start(make_scene(DUO, first="hero"), seed=0)
    f = c.f["npc"]
    f.tracks["physical"].marked = [True] * len(f.tracks["physical"].values)
    for s in f.slots[1:]:
        s.aspect = -1  # only the mild slot is left: a likely hit of 3+ would take it out
    c.step(Attack("npc", "Fight"))
    assert choose("coward", c, "respond", "npc") == Concede()
    assert choose("brute", c, "respond", "npc") == Defend()  # the brute never concedes


def test_minion_concedes_once_marked():
    chars = copy.deepcopy(DUO)
    chars["npc"] = {"kind": "minor", "side": "npcs", "zone": "room", "skills": {"Fight": 2}, "stress": 3}
    c = start(make_scene(chars, first="npc"), seed=0)
    assert choose("minion", c, "turn", "npc") != Concede()
    c.f["npc"].tracks["physical"].marked[0] = True
    assert choose("minion", c, "turn", "npc") == Concede()


@pytest.mark.parametrize("policy", SCRIPTED)
def test_nobody_pays_a_fate_point_that_cannot_change_the_outcome_band(policy):
    """Attack at margin -8 with one point in the pool: one +2 cannot turn it into a hit."""
    c = start(make_scene(DUO, first="npc"), seed=0, forced=[(-1, -1, -1, -1), (1, 1, 0, 0)])
    c.step(Attack("hero", "Fight"))
    Driver(c).do("respond", "hero", Defend())
    assert c.pending.context["margin"] == -8 and c.gm_pool == 1  # Fight 2-4 vs the hero's Fight 4+2
    assert choose(policy, c, "invoke", "npc") == DoneInvoking()


@pytest.mark.parametrize("policy", ["basic", "brute", "tactician", "support"])
def test_an_invoke_that_turns_a_miss_into_a_hit_is_taken(policy):
    c = start(make_scene(DUO, first="npc"), seed=0, forced=[(0, 0, 0, 0), (1, 0, 0, 0)])
    c.step(Attack("hero", "Shoot"))
    Driver(c).do("respond", "hero", Defend())
    assert c.pending.context["margin"] == 0  # Shoot 3 vs Athletics 2+1: a tie; one +2 makes a hit
    pick = choose(policy, c, "invoke", "npc")
    assert type(pick) is Invoke and pick.effect == "bonus"


def test_sniper_keeps_its_distance():
    scene = make_scene(DUO, zones=("room", "hall"), borders=[{"between": ["room", "hall"]}], first="npc",
                       foes_block_movement=False)
    c = start(scene, seed=0)
    assert choose("sniper", c, "turn", "npc") == Move("hall")
    c.step(Move("hall"))
    pick = choose("sniper", c, "turn", "npc")
    assert pick == Attack("hero", "Shoot")


def test_support_backs_up_the_ally_about_to_act():
    chars = copy.deepcopy(DUO)
    chars["aide"] = {"kind": "minor", "side": "npcs", "zone": "room", "skills": {"Fight": 1, "Shoot": 1}, "stress": 1}
    c = start(make_scene(chars, first="aide"), seed=0)
    assert choose("support", c, "turn", "aide") == Support("npc")  # +1 on the npc's Shoot, its best attack


def test_popcorn_hands_the_turn_to_an_ally_holding_free_invokes():
    chars = copy.deepcopy(DUO)
    chars["aide"] = {"kind": "minor", "side": "npcs", "zone": "room", "skills": {"Fight": 1}, "stress": 1}
    chars["aide2"] = {"kind": "minor", "side": "npcs", "zone": "room", "skills": {"Fight": 1}, "stress": 1}
    c = start(make_scene(chars, first="aide"), seed=0)
    c.step(Pass())
    a = new_aspect(c, "Cornered", "advantage", owner="hero", creator="aide")
    a.free["aide2"] = 1
    assert choose("tactician", c, "next", "aide") == Next("aide2")


def test_policy_parameters_are_config(tmp_path, monkeypatch):
    (tmp_path / "policies.yaml").write_text("coward: {concede_margin: 5, hurt_first: false, fp_reserve: 3}\n")
    monkeypatch.setenv("FATE_NPC_CONFIGS", str(tmp_path))
    ctl = make_controller("coward")
    assert (ctl.concede_margin, ctl.hurt_first, ctl.fp_reserve) == (5, False, 3)


# -- the evaluation math ---------------------------------------------------------

def test_wilson_interval_known_values():
    lo, hi = wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    lo, hi = wilson(10, 10)
    assert round(lo, 4) == 0.7225 and hi == pytest.approx(1.0)
    lo, hi = wilson(81, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.7222, 0.8749)


def test_bradley_terry_recovers_an_ordering_and_side_advantage():
    games = []
    for _ in range(30):
        games += [("a", "b", 1.0), ("a", "b", 1.0), ("a", "b", 0.0), ("b", "a", 1.0), ("b", "a", 0.0),
                  ("b", "a", 0.0), ("a", "c", 1.0), ("c", "a", 0.0), ("b", "c", 1.0), ("c", "b", 0.5)]
    strengths, theta = bradley_terry(games)
    assert strengths["a"] > strengths["b"] > strengths["c"]
    odds = odds_against(strengths, "c")
    assert odds["c"] == 0.5 and odds["a"] > 0.9


@pytest.mark.kernel
def test_eval_cli_table_and_json(capsys):
    assert main(["eval", "duel", "--policies", "basic,random", "-n", "8", "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["cells"]) == 4 and data["episodes_per_cell"] == 8
    cell = next(c for c in data["cells"] if c["policy_a"] == "basic" and c["policy_b"] == "random")
    lo, hi = cell["a_win_ci95"]
    assert lo <= cell["a_win_rate"] <= hi
    assert data["ratings"]["basic"]["strength"] > data["ratings"]["random"]["strength"]
    for c in data["cells"]:
        assert c["a_wins"] + c["b_wins"] + c["unresolved"] == c["episodes"]
        assert c["b_win_rate"] == c["b_wins"] / c["episodes"]
    # the text shows both sides' win rates: with fights hitting the exchange cap, one is not 1 - the other
    assert main(["eval", "duel", "--policies", "basic,random", "-n", "8", "--seed", "3"]) == 0
    text = capsys.readouterr().out
    assert "cynere's win rate" in text and "rival's win rate" in text
    # --vs: other policies for the second side (the columns)
    assert main(["eval", "duel", "--policies", "basic", "--vs", "random,brute", "-n", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(c["policy_a"], c["policy_b"]) for c in data["cells"]] == [("basic", "random"), ("basic", "brute")]
    assert set(data["ratings"]) == {"basic", "random", "brute"}
    assert main(["eval", "duel", "--policies", "basic,genius"]) == 2
    assert "no controller named 'genius'" in capsys.readouterr().err


# -- training and the learned controller -----------------------------------------

@pytest.mark.kernel
def test_train_cli_smoke_and_ppo_controller(tmp_path):
    pytest.importorskip("sb3_contrib")
    out = tmp_path / "duel.zip"
    cfg = tmp_path / "tiny.yaml"
    cfg.write_text("n_steps: 128\nbatch_size: 64\nn_epochs: 1\nnet_arch: [32]\neval_episodes: 5\n")
    r = run_cli("train", "duel", "--side", "rival", "--opponent", "basic", "--timesteps", "256", "--out", str(out),
                "--config", str(cfg), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)
    assert out.exists() and (tmp_path / "duel.log" / "progress.csv").exists()
    assert result["vs_basic"]["episodes"] == 5
    scene = load_scene("duel")
    c = play(start(scene, 1), controllers_for(scene, {"rival": f"ppo:{out}"}, seed=1))
    assert c.over
    with pytest.raises(Exception, match="trained for observations"):
        wh = load_scene("warehouse")
        play(start(wh, 1), controllers_for(wh, {"smugglers": f"ppo:{out}"}, seed=1))
    with pytest.raises(UnknownController, match="no such model"):
        make_controller(f"ppo:{tmp_path / 'missing.zip'}")
    # self-play: after the first snapshot the opponents are a frozen copy of the learner
    cfg.write_text("n_steps: 128\nbatch_size: 64\nn_epochs: 1\nnet_arch: [32]\neval_episodes: 3\n"
                   "self_play: {snapshot_every: 128}\n")
    r = run_cli("train", "duel", "--side", "rival", "--self-play", "--timesteps", "384",
                "--out", str(tmp_path / "sp.zip"), "--config", str(cfg), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "sp_snapshot.zip").exists() and json.loads(r.stdout)["self_play"] is True
    # --init: go on from a saved model (here against a mixture of opponents, one per episode)
    r = run_cli("train", "duel", "--side", "rival", "--opponent", "basic,random", "--init", str(out),
                "--timesteps", "128", "--out", str(tmp_path / "more.zip"), "--config", str(cfg), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)
    assert result["init"] == str(out) and {"vs_basic", "vs_random"} <= set(result)
    wide = tmp_path / "wide.yaml"
    wide.write_text("n_steps: 128\nbatch_size: 64\nn_epochs: 1\nnet_arch: [64]\neval_episodes: 3\n")
    r = run_cli("train", "duel", "--side", "rival", "--init", str(out),
                "--timesteps", "128", "--out", str(tmp_path / "no.zip"), "--config", str(wide), "--quiet")
    assert r.returncode == 2 and "cannot start from this model" in r.stderr
    assert not (tmp_path / "no.zip").exists()


@pytest.mark.kernel
def test_imitation_records_the_teacher_and_clones_it(tmp_path):
    """Behaviour cloning (fate_env/learn/imitation.py): the recorded actions are the teacher's, the
    returns are the discounted rewards, and a few epochs make the policy agree with the teacher."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from fate_env.environment.single_agent import FateSingleAgentEnv
    from fate_env.learn.imitation import clone, record
    from agents.base import REGISTRY
    env = FateSingleAgentEnv(scene="duel", side="rival", opponents="basic", learn=("turn",), controllers=REGISTRY,
                             reward={}, outcome="characters")  # the rewards land only when the fight ends
    demos = record(env, make_controller("basic", 0), episodes=20, seed=0, gamma=1.0)
    assert len(demos.actions) == len(demos.obs) == len(demos.masks) == len(demos.returns)
    assert demos.masks[np.arange(len(demos.actions)), demos.actions].all()
    # the duel's default rewards all land when the fight ends, so with gamma=0.5 one episode's
    # returns halve going back from its last decision, which holds the whole reward
    one = record(env, make_controller("basic", 0), episodes=1, seed=0, gamma=0.5)
    end = one.returns[-1]
    assert end in (1.0, -1.0, -0.5) and len(one.returns) > 2
    assert np.allclose(one.returns, end * 0.5 ** np.arange(len(one.returns))[::-1])
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, seed=0, verbose=0,
                        policy_kwargs={"net_arch": [64]}, device="cpu")
    before = clone(model, demos, epochs=0)["accuracy"]
    after = clone(model, demos, epochs=30)
    assert after["accuracy"] > max(before, 0.9), (before, after)
    with pytest.raises(ValueError, match="imitate: expected a mapping"):
        cfg = tmp_path / "bad.yaml"
        cfg.write_text("imitate: basic\n")
        from fate_env.learn.training import load_config
        load_config(cfg)
