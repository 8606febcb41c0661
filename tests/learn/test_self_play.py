"""Self-play for the general NPC (issue 53, ``fate_env/learn/self_play.py``): the baseline each fight
is measured against, the draw from the network's scores, the close scenes it trains on (never a
shipped one), and a run that changes the network and repeats; ``fate-npc learn --start ... --self-play``
writes a file that plays, and refuses what it cannot do in one line."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from agents.base import controllers_for, play
from agents.learned import LearnedController, shipped_path
from fate_env.content.generate import held_out, scene
from fate_env.content.scenes import load_scene, scene_digest, scene_from_dict
from fate_env.environment.entity_policy import EntityPolicy
from fate_env.learn import self_play as S
from fate_env.rules.conflict import Conflict


@given(st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=2, max_size=12))
def test_each_fight_is_measured_against_the_others_of_its_group(rewards):
    adv = S.advantages(rewards)
    r = np.asarray(rewards)
    for i in range(len(r)):
        assert adv[i] == pytest.approx(r[i] - np.delete(r, i).mean())
    assert adv.sum() == pytest.approx(0.0, abs=1e-9)
    if len(set(rewards)) == 1:  # a group that ended alike teaches nothing
        assert not adv.any()


@settings(max_examples=30)
@given(st.lists(st.floats(-5, 5), min_size=1, max_size=8), st.integers(0, 2 ** 31))
def test_a_draw_is_one_of_the_options_and_temperature_zero_takes_the_best(scores, seed):
    s = np.asarray(scores, np.float32)
    rng = np.random.default_rng(seed)
    assert 0 <= S.draw(s, 0.5, rng) < len(s)
    assert S.draw(s, 0.0, rng) == int(np.argmax(s))


def test_draws_follow_the_softened_scores():
    rng = np.random.default_rng(0)
    s = np.array([0.0, np.log(3.0)], np.float32)  # at temperature 1: a quarter, three quarters
    got = np.bincount([S.draw(s, 1.0, rng) for _ in range(4000)], minlength=2) / 4000
    assert got[1] == pytest.approx(0.75, abs=0.03)
    half = np.bincount([S.draw(s, 0.5, rng) for _ in range(4000)], minlength=2) / 4000
    assert half[1] == pytest.approx(0.9, abs=0.02)  # 9 to 1 at half the temperature


def test_the_close_scenes_are_close_on_the_python_engine_too_and_never_shipped():
    """The fast core picks them (it plays as the Python engine does, seed for seed): basic against basic
    on the Python engine gives the same 15-85% on the same dice."""
    seeds = S.balanced_seeds(3)
    assert seeds[0] >= S.FIRST_SEED and len(set(seeds)) == 3
    assert not {scene_digest(scene_from_dict(scene(s), "g")) for s in seeds} & held_out()
    sc = scene_from_dict(scene(seeds[0]), "g")
    pcs, npcs = S.seats(sc)
    won = sum(play(Conflict(sc, seed=i), controllers_for(sc, {pcs: "basic", npcs: "basic"}, seed=i)).outcome.winner
              == npcs for i in range(40))
    assert 0.15 <= won / 40 <= 0.85
    skipped = [s for s in range(S.FIRST_SEED, seeds[-1]) if s not in seeds]
    assert skipped and not any(S.close_call(s) for s in skipped[:5])


def test_a_self_play_fight_draws_the_npcs_turns_and_scores_the_end():
    seed = S.balanced_seeds(1)[0]
    a = S.play((seed, 7, "brute", str(shipped_path()), 0.5))
    b = S.play((seed, 7, "brute", str(shipped_path()), 0.5))
    assert a.chosen == b.chosen and a.reward == b.reward and a.reward in (0.0, 0.5, 1.0)
    assert a.decisions and all(0 <= i < len(e.options) for e, i in zip(a.decisions, a.chosen))
    assert all(e.characters[0, 0] == 1.0 for e in a.decisions)  # the ego's rows: the NPC deciding
    best = S.play((seed, 7, "brute", str(shipped_path()), 0.0))
    assert best.decisions and best.chosen != a.chosen


def test_a_self_play_run_changes_the_network_and_repeats():
    torch = pytest.importorskip("torch")
    from fate_env.learn.general_command import _started
    from fate_env.learn.general import weights

    def once():
        net, _ = _started(str(shipped_path()), 0)
        done = S.improve(net, S.Settings(iterations=2, scenes=2, group=3, pool=3, workers=1, snapshot_every=1),
                         log=None)
        return weights(net), done
    (w1, d1), (w2, _) = once(), once()
    start = EntityPolicy(shipped_path()).w
    assert all(np.array_equal(w1[k], w2[k]) for k in w1)
    assert any(not np.allclose(w1[k], start[k]) for k in w1)
    assert d1["fights"] == 12 and [m["name"] for m in d1["league"]][-1] == "self@1"
    assert torch.get_num_threads() == 1


def test_learn_from_a_file_with_self_play_writes_a_file_that_plays_and_refuses_in_one_line(tmp_path, capsys):
    pytest.importorskip("torch")
    from fate_env.cli import main
    out = tmp_path / "sp.zip"
    argv = ["learn", "--out", str(out), "--start", str(shipped_path()), "--self-play", "1", "--self-play-scenes", "2",
            "--self-play-group", "2", "--workers", "1"]
    assert main(argv) == 0
    card = json.loads(out.with_suffix(".json").read_text())
    assert card["started_from"] == str(shipped_path()) and card["self_play"]["fights"] == 4
    assert card["trained_on"]["shipped_scenes"].startswith("none")  # the imitation's record carries over
    sc = load_scene("duel")
    c = play(Conflict(sc, seed=2), controllers_for(sc, {"rival": f"learned:{out}"}, seed=2))
    assert c.pending is None
    capsys.readouterr()
    for extra, words in ((["--force", "--self-play-group", "1"], "at least 2"),
                         (["--force", "--recording", str(tmp_path)], "drop --recording"),
                         (["--force", "--start", str(tmp_path / "none.zip")], "no such policy file")):
        assert main([*argv[:-2], *extra]) != 0
        err = capsys.readouterr().err.strip()
        assert words in err and "\n" not in err, err


def test_learn_helper_is_written_carried_from_the_start_file_and_refused_in_one_line(tmp_path, capsys):
    """``--helper`` names the script the written file plays beside its network; without it a file
    made from ``--start`` keeps its start's helper (the weights unchanged with no self-play); a
    policy the fast core does not play as a script is refused in one line."""
    pytest.importorskip("torch")
    from fate_env.cli import main
    shipped = EntityPolicy(shipped_path())
    other = next(h for h in ("basic", "spender") if h != shipped.meta["helper"])
    first, second = tmp_path / "first.zip", tmp_path / "kept.zip"
    assert main(["learn", "--out", str(first), "--start", str(shipped_path()), "--self-play", "0", "--helper", other]) == 0
    assert main(["learn", "--out", str(second), "--start", str(first), "--self-play", "0"]) == 0
    for path in (first, second):
        got = EntityPolicy(path)
        assert got.meta["helper"] == other != shipped.meta["helper"]
        assert json.loads(path.with_suffix(".json").read_text())["helper"] == other
        assert all(np.array_equal(got.w[k], shipped.w[k]) for k in shipped.w)
    assert LearnedController(0, path=str(second)).helper.name == other
    capsys.readouterr()
    for bad in ("search", "random", "learned", "bsaic"):
        assert main(["learn", "--out", str(tmp_path / "x.zip"), "--start", str(first), "--self-play", "0",
                     "--helper", bad]) != 0
        err = capsys.readouterr().err.strip()
        assert f"--helper {bad!r}: expected a scripted policy" in err and "\n" not in err, err
    assert not (tmp_path / "x.zip").exists()
