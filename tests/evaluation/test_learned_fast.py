"""``bench`` with ``learned`` NPCs plays on the fast core (issue 53's pace), and its records are the
reference engine's, record for record: the network answers the learned seats inside the kernel with
the same rows, the same helper's move and the same scores as ``LearnedController`` on the reference."""

from __future__ import annotations

import pytest
import yaml

pytest.importorskip("numba")

from fate_env.content.scenes import load_scene, scene_path  # noqa: E402
from fate_env.evaluation import bench as B  # noqa: E402
from fate_env.evaluation.learned_fast import kernel_controls  # noqa: E402


def _jobs(name: str, controls: dict, n: int, seed: int = 0) -> list[tuple]:
    path = scene_path(name)
    base = yaml.safe_load(path.read_text())
    return [(base, str(path), {}, None, controls, seed, 0, i) for i in range(n)]


@pytest.mark.parametrize("name, controls", [("duel", {"rival": "learned"}), ("ghoul", {"monsters": "learned"}),
                                            ("warehouse", {"smugglers": "learned"}),
                                            ("debate", {"crown": "learned"}), ("vault", {"temple": "learned"})])
def test_learned_npcs_play_on_the_fast_core_and_end_as_on_the_reference(name, controls):
    sc = load_scene(name)
    assert B.choose_engine([sc], controls) == ("fast", "")
    jobs = _jobs(name, controls, 12, seed=3)
    fast = B.run_jobs(jobs, engine="fast")
    reference = B.run_jobs(jobs, engine="reference")
    assert {r["engine"] for r in fast} == {"fast"} and {r["engine"] for r in reference} == {"reference"}
    strip = [({**f, "engine": None}, {**r, "engine": None}) for f, r in zip(fast, reference)]
    assert all(f == r for f, r in strip)
    assert len({r["winner"] for r in fast} | {r["exchanges"] for r in fast}) > 2  # not one story twelve times


def test_learned_seats_the_kernel_cannot_ask_are_named():
    _, asks, why = kernel_controls({"a": "learned", "b": "basic"})
    assert asks == {"a": ("turn",)} and why == []
    _, _, why = kernel_controls({"a": "learned", "b": "learned:configs/models/learned.zip"})
    assert len(why) == 1 and "different files" in why[0]


def test_eval_plays_learned_cells_on_the_fast_core_with_the_references_table():
    from fate_env.evaluation.crossplay import crossplay
    sc = load_scene("duel")
    fast = crossplay(sc, ["basic"], 8, seed=2, columns=["learned", "brute"])
    reference = crossplay(sc, ["basic"], 8, seed=2, columns=["learned", "brute"], engine="reference")
    assert fast["engine"] == {"fast core": 16, "reference": 0}
    assert fast["cells"] == reference["cells"]
