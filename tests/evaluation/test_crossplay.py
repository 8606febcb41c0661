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


def test_the_fast_core_gives_the_same_table():
    """Pairs of policies the fast core plays (every scripted one, random too) go to it; the table
    is the reference's to the last number."""
    scene = load_scene("warehouse")
    fast = crossplay(scene, ["basic", "brute", "random"], 30, seed=4)
    ref = crossplay(scene, ["basic", "brute", "random"], 30, seed=4, engine="reference")
    assert fast["engine"] == {"fast core": 9 * 30, "reference": 0}
    assert ref["engine"] == {"fast core": 0, "reference": 9 * 30}
    fast.pop("engine"), ref.pop("engine")
    assert fast == ref


def test_fast_cells_shared_by_workers_give_the_same_table():
    """The fast core's cells go to the workers too (one batch per pair); the table is unchanged."""
    scene = load_scene("duel")
    one = crossplay(scene, ["basic", "brute", "coward"], 20, seed=9)
    two = crossplay(scene, ["basic", "brute", "coward"], 20, seed=9, workers=2)
    assert one["engine"] == two["engine"] == {"fast core": 9 * 20, "reference": 0}
    assert one == two
