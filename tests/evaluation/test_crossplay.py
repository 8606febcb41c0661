"""Cross-play on several processes gives the very table one process gives (paired seeds)."""

from __future__ import annotations

import pytest

from fate_env.evaluation.crossplay import crossplay, episode
from fate_env.content.scenes import load_scene

pytestmark = pytest.mark.kernel  # runs the fast core (tests/conftest.py)


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


def test_a_dial_given_on_the_command_line_is_played_and_named(tmp_path):
    """``fate-npc eval --dial exploit_opposition=foe_in_zone`` plays the scene as a scene file with
    that dial would, and the table's head says which dial differs from the rule set."""
    import json
    import subprocess
    import sys

    from conftest import ROOT
    from fate_env.evaluation.crossplay import format_table

    run = [sys.executable, "-m", "fate_env.cli", "eval", "duel", "--policies", "tactician", "--vs", "basic",
           "-n", "30", "--json"]
    plain = json.loads(subprocess.run(run, cwd=ROOT, capture_output=True, text=True, check=True).stdout)
    dialled = json.loads(subprocess.run(run + ["--dial", "exploit_opposition=foe_in_zone"], cwd=ROOT,
                                        capture_output=True, text=True, check=True).stdout)
    scene = load_scene("duel", dials={"exploit_opposition": "foe_in_zone"})
    direct = crossplay(scene, ["tactician"], 30, 0, columns=["basic"])
    assert dialled["cells"] == json.loads(json.dumps(direct["cells"]))
    assert plain["dials"] == {} and dialled["dials"] == {"exploit_opposition": "foe_in_zone"}
    assert "exploit_opposition: foe_in_zone" in format_table(dialled)[0]
    bad = subprocess.run(run + ["--dial", "exploit_oposition=foe_in_zone"], cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode != 0 and "exploit_oposition" in bad.stderr
