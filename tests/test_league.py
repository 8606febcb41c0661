"""League training (fate_env/learn/league.py, ``fate-npc train --league``): prioritised sampling puts the
opponents the learner loses to first without forgetting the rest, the environments draw each
fight's opponent by the league's odds and say who it was, and a short league run adds snapshots
and an exploiter and logs the mixture."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import ROOT, run_cli
from fate_env.learn.league import DEFAULTS, League, league_settings


def test_the_opponents_it_loses_to_come_up_most_and_none_is_dropped():
    league = League(["basic", "brute", "support"], power=2.0, floor=0.05, window=50)
    for _ in range(40):
        league.record("basic", True)      # mastered
        league.record("brute", False)     # loses every time
    shares = dict(zip(league.names(), league.weights()))
    assert shares["brute"] > shares["support"] > shares["basic"] > 0
    # the arithmetic, by hand: smoothed rates 41/42, 1/42 and (newcomer) 1/2
    raw = {"basic": (1 - 41 / 42) ** 2 + 0.05, "brute": (1 - 1 / 42) ** 2 + 0.05, "support": 0.25 + 0.05}
    total = sum(raw.values())
    for name, w in raw.items():
        assert shares[name] == pytest.approx(w / total)


def test_only_the_last_window_of_fights_counts():
    league = League(["basic"], window=10)
    for _ in range(100):
        league.record("basic", False)
    for _ in range(10):
        league.record("basic", True)
    assert league.members[0].rate() == pytest.approx(11 / 12)
    assert league.members[0].fights == 110 and league.members[0].wins == 10


def test_past_max_snapshots_the_oldest_retires_and_its_late_results_are_dropped():
    league = League(["basic"], max_snapshots=2)
    for at in (100, 200, 300):
        league.add(f"snapshot@{at}", f"ppo:s{at}.zip", "snapshot", at)
    assert league.names() == ["basic", "snapshot@200", "snapshot@300"]
    league.record("snapshot@100", True)
    summary = {m["name"]: m for m in league.summary()}
    assert summary["snapshot@100"]["retired"] and summary["snapshot@100"]["fights"] == 0
    assert summary["snapshot@100"]["share"] == 0.0
    with pytest.raises(ValueError, match="already a member"):
        league.add("basic", "basic", "scripted")


@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.booleans()), max_size=300),
       st.floats(0, 4), st.floats(0.001, 1))
def test_the_shares_are_a_distribution_ordered_by_the_win_rates(results, power, floor):
    league = League(["a", "b", "c"], power=power, floor=floor, window=50)
    for name, won in results:
        league.record(name, won)
    shares = league.weights()
    assert all(s > 0 for s in shares) and sum(shares) == pytest.approx(1.0)
    by_rate = sorted(zip((m.rate() for m in league.members), shares))
    for (r1, s1), (r2, s2) in zip(by_rate, by_rate[1:]):
        assert r1 == r2 or s1 >= s2 - 1e-12  # a lower win rate never gets a smaller share


def test_league_settings_name_the_bad_key_or_value():
    # the defaults, with the exploiters' config resolved to its file
    assert league_settings(None) == {**DEFAULTS, "exploiter_config": str(ROOT / "configs" / "train" / "exploit.yaml")}
    with pytest.raises(ValueError, match="unknown key.*snapshots_every"):
        league_settings({"snapshots_every": 10}, "cfg.yaml: league")
    with pytest.raises(ValueError, match="league.window"):
        league_settings({"window": 0})
    with pytest.raises(ValueError, match="league.opponents"):
        league_settings({"opponents": []})
    with pytest.raises(ValueError, match="league.power"):
        league_settings({"power": -1})


@pytest.mark.kernel
def test_the_env_draws_each_fight_s_opponent_by_the_league_s_odds_and_names_it():
    from agents.base import REGISTRY
    from fate_env.environment.single_agent import FateSingleAgentEnv

    env = FateSingleAgentEnv(scene="duel", side="rival", opponents="basic,random", controllers=REGISTRY,
                             learn=("turn",), outcome="side")
    env.set_league(["basic", "random", "brute"], ["basic", "random", "brute"], [0.0, 0.0, 1.0])
    met = Counter()
    for seed in range(6):
        env.reset(seed=seed)
        assert env.opponent == "brute"
        done, info = env.over, {}
        while not done:
            mask = env.action_masks()
            _, _, term, trunc, info = env.step(int(mask.nonzero()[0][0]))
            done = term or trunc
        met[info.get("opponent")] += 1
    assert met == Counter({"brute": 6})
    env.set_league(["basic", "random"], ["basic", "random"], [1.0, 3.0])
    drawn = Counter()
    for seed in range(400):
        env.reset(seed=seed)
        drawn[env.opponent] += 1
    assert 0.65 < drawn["random"] / 400 < 0.85  # 3 to 1: 75%, ±5 standard errors of 2.2%
    with pytest.raises(ValueError, match="weights"):
        env.set_league(["basic"], ["basic"], [-1.0])


@pytest.mark.kernel
def test_a_scripted_league_member_stays_on_the_fast_core():
    pytest.importorskip("numba")
    from agents.base import REGISTRY
    from fate_env.environment.single_agent import FateSingleAgentEnv

    env = FateSingleAgentEnv(scene="duel", side="rival", opponents="basic", controllers=REGISTRY,
                             learn=("turn",), outcome="side", core="fast")
    env.set_league(["basic", "brute", "search"], ["basic", "brute", "search"], [0.0, 1.0, 0.0])
    env.reset(seed=3)
    assert env.episode_engine == "fast core"  # brute: a policy the kernel plays
    env.set_league(["basic", "brute", "search"], ["basic", "brute", "search"], [0.0, 0.0, 1.0])
    env.reset(seed=3)
    assert env.episode_engine == "reference" and env.opponent == "search"  # the search NPC plays on the reference


@pytest.mark.kernel
def test_a_short_league_run_adds_snapshots_and_an_exploiter_and_logs_the_mixture(tmp_path):
    """Two environments in their own processes (SubprocVecEnv): the mixture reaches both."""
    pytest.importorskip("sb3_contrib")
    cfg = tmp_path / "league.yaml"
    small = "net_arch: [16]\nn_steps: 128\nbatch_size: 64\nn_epochs: 1\nlearn: [turn]\noutcome: side\nactions: compact\n"
    (tmp_path / "exploiter.yaml").write_text(small + "helper: stacker\n")  # the exploiters stack free invokes
    cfg.write_text(small + "eval_episodes: 2\nleague: {opponents: [basic, random], snapshot_every: 256, "
                   "exploiter_every: 384, exploiter_steps: 128, refresh_every: 128, max_snapshots: 1, "
                   f"exploiter_config: {tmp_path / 'exploiter.yaml'}}}\n")
    out = tmp_path / "lg.zip"
    r = run_cli("train", "duel", "--side", "rival", "--league", "--envs", "2", "--subprocess-envs", "--timesteps",
                "640", "--out", str(out), "--config", str(cfg), "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)
    members = {m["name"]: m for m in result["league"]["members"]}
    assert {"basic", "random", "exploiter@384"} <= set(members)
    assert members["exploiter@384"]["kind"] == "exploiter"
    assert (tmp_path / "lg_league" / "exploiter_384.zip").exists()
    assert json.loads((tmp_path / "lg_league" / "exploiter_384.json").read_text())["helper"] == "stacker"
    snapshots = [m for m in members.values() if m["kind"] == "snapshot"]
    assert len([m for m in snapshots if not m["retired"]]) == 1  # max_snapshots: 1
    assert sum(m["fights"] for m in members.values()) > 0
    assert {"vs_basic", "vs_random"} <= set(result)
    header = (tmp_path / "lg.log" / "progress.csv").read_text().splitlines()[0].split(",")
    assert "league/share/basic" in header and "league/share/exploiter@384" in header
    assert json.loads((tmp_path / "lg.log" / "league.json").read_text())["members"]


def test_league_and_opponent_together_are_refused(tmp_path):
    r = run_cli("train", "duel", "--league", "--opponent", "basic", "--out", str(tmp_path / "x.zip"))
    assert r.returncode != 0 and "drop --opponent" in r.stderr
    cfg = tmp_path / "typo.yaml"
    cfg.write_text("league: {oponents: [basic]}\n")
    r = run_cli("train", "duel", "--league", "--config", str(cfg), "--out", str(tmp_path / "x.zip"))
    assert r.returncode != 0 and "typo.yaml" in r.stderr and "oponents" in r.stderr


@pytest.mark.parametrize("path", sorted((ROOT / "configs" / "train").glob("*.yaml")), ids=lambda p: p.name)
def test_every_shipped_training_config_loads(path):
    from fate_env.learn.training import load_config
    config = load_config(path)
    if "league" in config:
        assert league_settings(config["league"])["opponents"]


def test_the_exploiters_config_is_checked_when_the_league_config_loads(tmp_path):
    from fate_env.learn.training import load_config
    assert league_settings({"exploiter_config": "exploit_stacker.yaml"})["exploiter_config"] == \
        str(ROOT / "configs" / "train" / "exploit_stacker.yaml")
    cfg = tmp_path / "typo.yaml"
    cfg.write_text("league: {exploiter_config: exploit_stackr.yaml}\n")
    with pytest.raises(ValueError, match=r"typo\.yaml: league\.exploiter_config: no training config 'exploit_stackr"):
        load_config(cfg)
    (tmp_path / "itself.yaml").write_text("league: {opponents: [basic]}\n")
    cfg.write_text(f"league: {{exploiter_config: {tmp_path / 'itself.yaml'}}}\n")
    with pytest.raises(ValueError, match="trains a league itself"):
        load_config(cfg)


def test_a_learned_opponent_joins_the_population_as_learned():
    league = League(["basic", "ppo:models/warehouse_smugglers.zip", "search"])
    assert [m.kind for m in league.members] == ["scripted", "learned", "search"]
