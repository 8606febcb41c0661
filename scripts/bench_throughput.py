"""Episodes per second of `fate-npc bench` on the warehouse, with 1 and 2 worker processes.

    python scripts/bench_throughput.py [--scene warehouse] [-n 400] [--engine reference|fast]

Scripted controllers (the scene's, `basic`); the same seeds for both runs, whose
records are checked to be identical. This process warms up first (imports, and the fast core's
kernel loaded); with 2 workers their start-up is included (fork where it is safe: the children
inherit the loaded kernel; spawn: each imports numba and loads it).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import yaml  # noqa: E402

from fate_env.evaluation import bench as B  # noqa: E402
from fate_env.content.scenes import scene_path  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scene", default="warehouse")
    ap.add_argument("-n", type=int, default=400)
    ap.add_argument("--engine", choices=["reference", "fast"], default="reference")
    args = ap.parse_args()
    path = scene_path(args.scene)
    base = yaml.safe_load(path.read_text())
    jobs = [(base, str(path), {}, None, {}, 0, 0, i) for i in range(args.n)]
    B.run_jobs(jobs[:20], 1, engine=args.engine)  # warm up in this process: imports, the kernel's load
    results = {}
    for workers in (1, 2):
        t = time.perf_counter()
        recs = B.run_jobs(jobs, workers, engine=args.engine)
        rate = args.n / (time.perf_counter() - t)
        results[workers] = (rate, recs)
        print(f"{args.scene} ({args.engine}), {workers} worker(s): {rate:8.1f} episodes/s")
    assert results[1][1] == results[2][1], "records differ between 1 and 2 workers"
    print(f"speed-up with 2 workers: {results[2][0] / results[1][0]:.2f}x (records identical); "
          f"aim: >= 1000 episodes/s per core -> {results[1][0] / 1000:.2f}x of it")


if __name__ == "__main__":
    main()
