"""The general learned NPC (issue 53): its file plays with numpy exactly what the torch network
computes, on decisions from scenes of every size and rule set; its teacher's recording is the same
for a seed and round-trips; ``learned`` plays the shipped scenes and generated ones, refuses a scene
past the view's limits and a foreign or damaged file in one line; ``fate-npc learn`` makes a file
that plays, and never writes over one unasked."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest

from agents.base import UnknownController, controllers_for, make_controller, play
from agents.learned import shipped_path
from conftest import ROOT, random_decisions
from fate_env.environment.entity_policy import FORMAT, EntityPolicy, write
from fate_env.content.generate import RULE_SETS, held_out, scene
from fate_env.content.policy_file import ModelFileError
from fate_env.content.scenes import list_scenes, load_scene, scene_digest, scene_from_dict
from fate_env.environment.entities import LIMITS
from fate_env.rules.conflict import Conflict


def _decisions(sc, seed: int, most: int = 8):
    return [e for e, _ in random_decisions(sc, seed, most)]


def test_the_numpy_policy_plays_what_the_torch_network_computes(tmp_path):
    torch = pytest.importorskip("torch")
    from fate_env.learn.entity_net import collate, net
    from fate_env.learn.general import weights
    model = net(seed=4)
    path = tmp_path / "p.zip"
    write(path, weights(model), {"learn": ["turn"], "helper": "basic"})
    policy = EntityPolicy(path)
    batch = [e for name in ("duel", "warehouse", "burning_mill") for e in _decisions(load_scene(name), 3)]
    batch += [e for i, r in enumerate(RULE_SETS) for e in _decisions(scene_from_dict(scene(70 + i, r), "g"), i)]
    with torch.no_grad():
        logits, _ = model(collate(batch))
    got = policy.logits(batch)
    alone = [policy.logits([e])[0] for e in batch]
    assert len({len(e.characters) for e in batch}) >= 4
    for i, e in enumerate(batch):
        np.testing.assert_allclose(got[i], logits[i, :len(e.options)].numpy(), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(alone[i], got[i], rtol=1e-5, atol=1e-6)  # a batch changes no one's scores


def _covered_seed() -> int:
    """A small generated scene the fast core plays (the teacher's copies run there: quick)."""
    from fate_env.fast.tables import covered
    for s in range(200):
        data = scene(s)
        if len(data["characters"]) <= 8 and not covered(scene_from_dict(data, "g")):
            return s
    raise AssertionError("no small covered scene in 200 seeds")


def test_the_teachers_recording_is_the_same_for_a_seed_and_round_trips(tmp_path):
    from fate_env.learn.teacher import Recording, fight
    s = _covered_seed()
    a, b = fight(s, most=6), fight(s, most=6)
    assert 1 <= len(a) <= 6 and np.array_equal(a.chosen, b.chosen) and np.array_equal(a.outlook, b.outlook)
    joined = Recording.join([a, b])
    joined.save(tmp_path / "r.npz")
    back = Recording.load(tmp_path / "r.npz")
    assert len(back) == 2 * len(a)
    for i in range(len(back)):
        e, o = back.entities(i), back.outlooks(i)
        assert len(o) == len(e.options) >= 2 and 0 <= back.chosen[i] < len(o) and 0 <= back.script[i] < len(o)
        same = a.entities(i % len(a))
        assert all(np.array_equal(getattr(e, k), getattr(same, k)) for k in vars(e))
    # search takes its best-looking option or keeps basic's move: never a third
    for i in range(len(back)):
        o = back.outlooks(i)
        assert back.chosen[i] == back.script[i] or o[back.chosen[i]] >= o[back.script[i]]


def test_learned_plays_every_shipped_scene_the_same_way_for_a_seed():
    for name in list_scenes():
        sc = load_scene(name)
        npcs = [s for s in sc.sides if s != "pcs"] or sc.sides[-1:]
        runs = []
        for _ in range(2):
            ctl = controllers_for(sc, {npcs[0]: "learned"}, seed=1)
            runs.append(play(Conflict(sc, seed=1), ctl))
        assert runs[0].choices == runs[1].choices and runs[0].pending is None, name
        if sc.kind == "conflict":  # it chose turns itself (a contest's or challenge's turns are its helper's too)
            assert any("the learned NPC" in r for r in runs[0].reasons), name


def test_learned_plays_generated_scenes_of_every_rule_set_and_size():
    sizes = set()
    for i, rules in enumerate(RULE_SETS * 3):
        sc = scene_from_dict(scene(900_000 + i, rules), "g")
        sizes.add(len(sc.characters))
        c = Conflict(sc, seed=i)
        ctl = controllers_for(sc, {"npcs": "learned"}, seed=i)
        steps = 0
        while c.pending is not None and steps < 80:
            d = c.pending
            index, why = ctl[d.actor].choose(c, d)
            assert 0 <= index < len(d.options) and why
            c.step(index, why)
            steps += 1
    assert len(sizes) >= 5


def test_a_foreign_damaged_or_missing_policy_file_is_refused_in_one_line(tmp_path):
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"not a zip")
    other = ROOT / "models" / "duel_rival.zip"  # an fixed-shape policy-only export: another format
    old = tmp_path / "old.zip"
    with zipfile.ZipFile(old, "w") as z:
        z.writestr("policy.json", json.dumps({"format": FORMAT, "features": {"option": 3}}))
        z.writestr("policy.npz", b"")
    for path, words in ((tmp_path / "none.zip", "no such policy file"), (bad, "not a learned policy file"),
                        (other, "expected 'fate-npc entity policy 1'"), (old, "train it again")):
        with pytest.raises(UnknownController) as err:
            make_controller(f"learned:{path}")
        assert "\n" not in str(err.value) and words in str(err.value), str(err.value)
    with pytest.raises(ModelFileError):
        EntityPolicy(bad)
    odd = tmp_path / "odd.zip"
    write(odd, EntityPolicy(shipped_path()).w, {"learn": ["turn"], "helper": "basic", "keep_within": "a lot"})
    with pytest.raises(UnknownController, match="keep_within 'a lot': expected a number"):
        make_controller(f"learned:{odd}")
    sly = tmp_path / "sly.zip"  # a file naming a model as its helper: only scripts answer for it
    write(sly, EntityPolicy(shipped_path()).w, {"learn": ["turn"], "helper": "ppo:/elsewhere/x.zip"})
    with pytest.raises(UnknownController, match="expected a scripted policy"):
        make_controller(f"learned:{sly}")
    lopsided = tmp_path / "lopsided.zip"  # a score layer that does not read the six joined rows
    cut = dict(EntityPolicy(shipped_path()).w)
    w = cut["score.0.2.weight"].shape[1]
    cut["score.0.0.weight"] = cut["score.0.0.weight"][:, :-w]
    write(lopsided, cut, {"learn": ["turn"], "helper": "basic"})
    with pytest.raises(UnknownController, match=f"a score layer reading {5 * w} columns; a network of width {w} joins {6 * w}"):
        make_controller(f"learned:{lopsided}")


def test_the_shipped_learned_npc_is_small_and_its_sidecar_says_what_it_learned_from():
    path = shipped_path()
    assert path.stat().st_size < 2_000_000
    policy = EntityPolicy(path)
    card = json.loads(path.with_suffix(".json").read_text())
    assert policy.meta["learn"] == card["learn"] == ["turn"]
    assert policy.meta["limits"]["characters"] == LIMITS.characters
    assert 0.0 < card["agreement"]["held_out_fights"] <= 1.0
    # every step's scenes are generated ones, none shipped: the file's own, and each teacher's before it
    shipped = held_out()
    steps = [card] + ([card["distilled_from"]] if "distilled_from" in card else [])
    assert any("self_play" in step for step in steps)
    for step in steps:
        first = step["trained_on"]["generator_seeds"][0]
        assert step["trained_on"]["shipped_scenes"].startswith("none") and first >= 1000
        played = [first] + ([step["self_play"]["generator_seeds"][0]] if "self_play" in step else [])
        for seed in played:
            assert not {scene_digest(scene_from_dict(scene(s), "g")) for s in range(seed, seed + 50)} & shipped
    # the measured cells are the file's own: a learned column for each held-out scene, beside search's
    assert {"learned", "search", "basic"} <= set(card["measured"]["scenes"]["duel"])


def test_fate_npc_learn_makes_a_file_that_plays_and_never_writes_over_one_unasked(tmp_path, capsys):
    pytest.importorskip("torch")
    from fate_env.cli import main
    out = tmp_path / "mine.zip"
    argv = ["learn", "--out", str(out), "--fights", "3", "--slow-fights", "1", "--most", "3", "--epochs", "1",
            "--rounds", "2", "--dagger-fights", "2", "--self-play", "0",
            "--workers", "1", "--first-seed", "20000"]
    argv += ["--recording", str(tmp_path / "rec")]
    assert main(argv) == 0
    card = json.loads(out.with_suffix(".json").read_text())
    assert card["rounds"] == 2 and card["trained_on"]["fights"] >= 5 and card["trained_on"]["decisions"] > 0
    assert sorted(p.name for p in (tmp_path / "rec").iterdir()) == ["round-0.npz", "round-1.npz"]
    sc = load_scene("duel")
    c = play(Conflict(sc, seed=2), controllers_for(sc, {"rival": f"learned:{out}"}, seed=2))
    assert c.pending is None
    before = out.read_bytes()
    assert main(argv) != 0
    assert "--force" in capsys.readouterr().err and out.read_bytes() == before
    assert main(argv + ["--force"]) == 0  # the recordings read back: the same file again
    assert "read from" in capsys.readouterr().out and out.read_bytes() == before


def test_a_margin_past_every_score_gap_keeps_the_scripts_move_and_none_departs_from_it():
    """``keep_within``: another move must beat the helper's by that much in the network's scores; far
    past every gap, learned plays its helper script's turns exactly (the same fight, choice for choice)."""
    from agents.learned import LearnedController
    sc = load_scene("warehouse")
    ctl = controllers_for(sc, {"smugglers": "learned"}, seed=3)
    sure = LearnedController(3, keep_within=1e5)
    npcs = {c.id for c in sc.characters if c.side == "smugglers"}
    fought = play(Conflict(sc, seed=3), {**ctl, **{cid: sure for cid in npcs}})
    plain = play(Conflict(sc, seed=3), controllers_for(sc, {"smugglers": sure.helper.name}, seed=3))
    assert fought.choices == plain.choices
    departs = play(Conflict(sc, seed=3), ctl)  # the shipped margin (0) does depart somewhere
    assert departs.choices != plain.choices


def test_the_policy_files_read_are_kept_a_few_at_a_time_and_reread_when_changed(tmp_path):
    """Self-play reads a new file every iteration: a process keeps the last few, not every one."""
    from agents import learned as L
    weights = EntityPolicy(shipped_path()).w
    paths = [tmp_path / f"it-{i}.zip" for i in range(L.KEPT_FILES + 3)]
    read = []
    for p in paths:
        write(p, weights, {"learn": ["turn"], "helper": "basic"})
        read.append(L._load_policy(p))
    assert len(L._POLICIES) == L.KEPT_FILES
    assert L._load_policy(paths[-1]) is read[-1]      # a file still kept is not read again
    assert L._load_policy(paths[0]) is not read[0]    # the oldest was let go: read afresh
    write(paths[-1], weights, {"learn": ["turn"], "helper": "basic", "keep_within": 1.0})
    import os
    os.utime(paths[-1], (1, 1))  # another time stamp: the file changed, read again
    assert L._load_policy(paths[-1]).meta["keep_within"] == 1.0


def test_the_training_seeds_end_where_no_generated_scene_is_off_the_fast_core():
    """The fast core plays every generated conflict now (issue 74): asked for fights it does not play, the
    search looks through a bounded window of seeds and returns what it found, never running on forever."""
    pytest.importorskip("torch")  # the learn command's module loads the network's (torch)
    from fate_env.content.generate import scene as generated
    from fate_env.content.scenes import scene_from_dict
    from fate_env.fast.tables import covered
    from fate_env.learn.general_command import SLOW_WINDOW, training_seeds
    fast, slow = training_seeds(20000, 2, 1)
    assert fast == [20000, 20001]
    window = range(20000, 20000 + 2 + 1 + SLOW_WINDOW)
    assert slow == [s for s in window if covered(scene_from_dict(generated(s), f"generated {s}"))][:1]
