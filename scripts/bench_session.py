"""Decisions per second answered from outside: the fast core's session against the Python engine.

The warehouse with every seat an agent answering at random (the same answers on both engines):
``Conflict.step`` on the reference, ``FastCore.session(seed).answer`` on the fast core, which
resumes each answer from the checkpoint of the turn in progress (issue 13: the groundwork of a
native environment). Prints both and the ratio, measured in the same run.

    python scripts/bench_session.py [--scene warehouse] [--episodes 100] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from fate_env.fast import FastCore  # noqa: E402
from fate_env.rules.engine import start  # noqa: E402
from fate_env.content.scenes import load_scene  # noqa: E402


def reference(scene, seeds) -> tuple[float, list[list[int]]]:
    """Decisions/s of the Python engine, and each episode's answers."""
    out = []
    steps = 0
    t = time.perf_counter()
    for seed in seeds:
        c = start(scene, seed)
        rng = np.random.default_rng(seed)
        answers = []
        while not c.over:
            i = int(rng.integers(len(c.pending.options)))
            answers.append(i)
            c.step(i)
        steps += len(answers)
        out.append(answers)
    return steps / (time.perf_counter() - t), out


def fast(core, seeds, answers) -> float:
    steps = 0
    t = time.perf_counter()
    for seed, got in zip(seeds, answers):
        s = core.session(seed)
        for i in got:
            s.answer(i)
        steps += len(got)
    return steps / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scene", default="warehouse")
    ap.add_argument("--episodes", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    scene = load_scene(args.scene)
    core = FastCore(scene, {c.id: "agent" for c in scene.characters})
    core.session(0)  # compile or load the kernel
    seeds = list(range(args.episodes))
    for _ in range(args.repeat):
        ref, answers = reference(scene, seeds)
        got = fast(core, seeds, answers)
        print(f"{args.scene}: Python engine {ref:9,.0f} decisions/s; fast core session {got:9,.0f} decisions/s; "
              f"{got / ref:.2f}x")


if __name__ == "__main__":
    main()
