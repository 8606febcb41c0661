"""``fate-npc learn --distill FILE``: a learned file's own turns, cloned into a fresh (narrower) network."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents.base import controllers_for, play
from agents.learned import shipped_path
from fate_env.content.digests import scene_digest
from fate_env.content.generate import held_out, scene
from fate_env.content.scenes import load_scene, scene_from_dict
from fate_env.environment.entities import O_AT
from fate_env.environment.entity_policy import EntityPolicy
from fate_env.learn import distill, self_play
from fate_env.rules.conflict import Conflict


def test_the_recording_is_the_teachers_best_move_at_each_turn_and_repeats_for_a_seed():
    rec = distill.record(str(shipped_path()), 3, workers=1)
    assert len(rec) > 10 and len(set(rec.fight.tolist())) == 3
    assert set(rec.fight.tolist()) == set(self_play.balanced_seeds(3))  # the self-play scenes, none shipped
    assert not {scene_digest(scene_from_dict(scene(s), "g")) for s in rec.fight.tolist()} & held_out()
    teacher = EntityPolicy(shipped_path())
    for i in range(len(rec)):
        e = rec.entities(i)
        assert rec.chosen[i] == int(np.argmax(teacher.logits([e])[0]))  # its best move, never a draw
        assert e.options[rec.script[i], O_AT["hint"]] == 1.0             # the script's move, as its rows mark it
    again = distill.record(str(shipped_path()), 3, workers=1)
    assert np.array_equal(again.chosen, rec.chosen) and np.array_equal(again.rows["options"], rec.rows["options"])
    other = distill.jobs(str(shipped_path()), 3, seed=1)
    assert [j[1] for j in other] != [j[1] for j in distill.jobs(str(shipped_path()), 3)]  # the seed draws the dice


def test_learn_distill_writes_a_narrower_file_that_plays_and_refuses_in_one_line(tmp_path, capsys):
    pytest.importorskip("torch")
    from fate_env.cli import main
    out = tmp_path / "narrow.zip"
    argv = ["learn", "--out", str(out), "--distill", str(shipped_path()), "--fights", "3", "--width", "16",
            "--epochs", "1", "--self-play", "0", "--workers", "1"]
    assert main(argv) == 0
    assert EntityPolicy(out).meta["width"] == 16 and EntityPolicy(out).w["option.0.weight"].shape == (16, 91)
    card = json.loads(out.with_suffix(".json").read_text())
    assert card["teacher"] == "learned:learned.zip" and card["trained_on"]["fights"] == 3
    assert card["trained_on"]["shipped_scenes"].startswith("none")
    teacher = json.loads(shipped_path().with_suffix(".json").read_text())
    assert card["distilled_from"]["trained_on"] == teacher["trained_on"]  # the teacher's record, down its chain
    assert "measured" in teacher and "measured" not in json.dumps(card) and "npc_reward_by_iteration" not in json.dumps(card)
    sc = load_scene("duel")
    c = play(Conflict(sc, seed=2), controllers_for(sc, {"rival": f"learned:{out}"}, seed=2))
    assert c.pending is None
    more = tmp_path / "more.zip"  # self-play from the clone keeps the record of where it came from
    assert main(["learn", "--out", str(more), "--start", str(out), "--self-play", "1", "--self-play-scenes", "2",
                 "--self-play-group", "2", "--workers", "1"]) == 0
    after = json.loads(more.with_suffix(".json").read_text())
    assert after["distilled_from"] == card["distilled_from"] and after["width"] == 16 and after["self_play"]["fights"] == 4
    capsys.readouterr()
    damaged = tmp_path / "damaged.zip"  # a teacher whose sidecar is cut short
    damaged.write_bytes(out.read_bytes())
    damaged.with_suffix(".json").write_text('{"oops":')
    for extra, words in ((["--start", str(shipped_path())], "drop --start"),
                         (["--distill", str(damaged)], "expected a JSON sidecar (the one fate-npc learn writes)"),
                         (["--recording", str(tmp_path)], "drop --recording"),
                         (["--distill", str(tmp_path / "none.zip")], "no such policy file")):
        assert main([*argv, "--force", *extra]) != 0
        err = capsys.readouterr().err.strip()
        assert words in err and "\n" not in err, err
