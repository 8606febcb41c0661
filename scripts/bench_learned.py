"""Fights per second of `bench` with the `learned` NPCs against the same bench with `basic` NPCs, in one run
(issue 53's pace: at least 0.2x). `basic` plays on the fast core (the engine `bench` picks for it);
`learned` on the engine `bench` picks for it, today the Python engine. Also `basic` on the Python engine,
to show what part of the gap is the engine and what part the network. Repeated; medians printed.

    python scripts/bench_learned.py [--scenes warehouse,duel] [-n 200] [--repeat 3] [--workers 1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import yaml  # noqa: E402

from fate_env.content.scenes import load_scene, scene_path  # noqa: E402
from fate_env.evaluation import bench as B  # noqa: E402


def npc_side(name: str) -> str:
    sc = load_scene(name)
    pcs = {c.side for c in sc.characters if c.kind == "pc"}
    return next(s for s in sc.sides if s not in pcs)


def rate(name: str, policy: str, engine: str, n: int, workers: int) -> float:
    path = scene_path(name)
    base = yaml.safe_load(path.read_text())
    jobs = [(base, str(path), {}, None, {npc_side(name): policy}, 0, 0, i) for i in range(n)]
    B.run_jobs(jobs[:5], 1, engine=engine)  # warm: imports, the kernel, the policy file
    t = time.perf_counter()
    B.run_jobs(jobs, workers, engine=engine)
    return n / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", default="warehouse,duel,ghoul")
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    print("| scene | basic, fast core (fights/s) | basic, Python engine | learned, Python engine | learned / basic "
          "(fast) | issue's floor |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name in args.scenes.split(","):
        got: dict[str, list[float]] = {"fast": [], "ref": [], "learned": []}
        for _ in range(args.repeat):
            got["fast"].append(rate(name, "basic", "fast", args.n * 10, args.workers))
            got["ref"].append(rate(name, "basic", "reference", args.n, args.workers))
            got["learned"].append(rate(name, "learned", "reference", args.n, args.workers))
        m = {k: statistics.median(v) for k, v in got.items()}
        print(f"| {name} | {m['fast']:.0f} | {m['ref']:.1f} | {m['learned']:.1f} | {m['learned'] / m['fast']:.4f} | 0.2 |",
              flush=True)


if __name__ == "__main__":
    main()
