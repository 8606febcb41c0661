"""The golden event logs (see ``tests/golden_runs.py``): a refactor changes none of them.

Each scene and rule set replays its few hundred golden plays and compares the hashes of their
event logs and choices; on a mismatch the test names the first seed that moved and, where a
whole log is kept, the first event that differs.
"""

from __future__ import annotations

import gzip
import json

import pytest

import golden_runs as g

EXPECTED = json.loads((g.HERE / "logs.json").read_text())


def _seeds(key: str) -> list[int]:
    scene, rules = key.split("/")
    return [seed for s, r, seed in g.runs() if (s, r) == (scene, rules)]


def _first_difference(scene: str, rules: str, seed: int) -> str:
    path = g.full_path(scene, rules, seed)
    if not path.exists():
        return "(no whole log kept for this play; run tests/golden_runs.py on the old commit to compare)"
    with gzip.open(path, "rt") as fh:
        want = json.load(fh)
    play = g.play_one(scene, rules, seed)
    got = json.loads(json.dumps({"log": play.log(), "choices": play.choices}, default=str))
    for i, (a, b) in enumerate(zip(want["log"], got["log"])):
        if a != b:
            return f"event {i}: expected {a}, got {b}"
    return f"logs differ in length or choices: {len(want['log'])} vs {len(got['log'])} events"


def test_every_shipped_scene_is_pinned():
    assert {k.split("/")[0] for k in EXPECTED} == set(g.SCENES)
    assert {k.split("/")[1] for k in EXPECTED} == set(g.RULES) | set(g.OLDER) | {"dials"}


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_golden_logs_unchanged(key):
    scene, rules = key.split("/")
    want = EXPECTED[key].split()
    seeds = _seeds(key)
    assert len(want) == len(seeds)
    for seed, digest in zip(seeds, want):
        play = g.play_one(scene, rules, seed)
        if g.digest(play) != digest:
            kept = [s for sc, r, s in g.FULL if (sc, r) == (scene, rules)]
            detail = _first_difference(scene, rules, kept[0]) if kept else "(no whole log kept for this scene)"
            pytest.fail(f"{key} seed {seed}: the event log moved. {detail}")


def test_kept_logs_match_their_hashes():
    for scene, rules, seed in g.FULL:
        with gzip.open(g.full_path(scene, rules, seed), "rt") as fh:
            kept = json.load(fh)
        assert kept["log"][0]["type"] in ("ConflictStarted", "ContestStarted", "ChallengeStarted")
        play = g.play_one(scene, rules, seed)
        assert json.loads(json.dumps({"log": play.log(), "choices": play.choices}, default=str)) == kept
