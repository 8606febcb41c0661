"""Cross-play on several processes gives the very table one process gives (paired seeds)."""

from __future__ import annotations

from fate_env.evaluation.crossplay import crossplay, episode
from fate_env.scenes import load_scene


def test_workers_do_not_change_the_table():
    scene = load_scene("duel")
    one = crossplay(scene, ["basic", "random"], 6, seed=11)
    two = crossplay(scene, ["basic", "random"], 6, seed=11, workers=2)
    assert one == two
    assert sum(c["episodes"] for c in one["cells"]) == 24


def test_an_episode_record_adds_up():
    scene = load_scene("warehouse")
    winner, exchanges, cons_a, cons_b, conc_a, conc_b = episode((scene, "basic", "basic", 3))
    assert winner in (*scene.sides, None) and exchanges >= 1
    assert min(cons_a, cons_b, conc_a, conc_b) >= 0
