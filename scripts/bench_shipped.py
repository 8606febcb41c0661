"""Fights per second of `fate-npc bench` on every shipped scene the fast core plays, on the fast core
and on the reference engine, in one run: the ratio issue 74 asks to be at least 20x.

    python scripts/bench_shipped.py [-n 2000] [--scenes duel,ghoul] [--reference-n 400]

One worker, the scene's own rule set and controllers, the same seeds on both engines (bench's jobs);
each engine warmed up first in this process (imports; the kernel loaded or compiled). The reference
plays ``--reference-n`` fights (its rate is steady well before 2,000 and it is ~100x slower); both
rates are fights per second. A scene the fast core does not play is listed with its reason.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import yaml  # noqa: E402

from fate_env.content.scenes import list_scenes, load_scene, scene_path  # noqa: E402
from fate_env.evaluation import bench as B  # noqa: E402
from fate_env.fast import covered  # noqa: E402


def rate(name: str, n: int, engine: str) -> float:
    path = scene_path(name)
    base = yaml.safe_load(path.read_text())
    jobs = [(base, str(path), {}, None, {}, 0, 0, i) for i in range(n)]
    B.run_jobs(jobs[:20], 1, engine=engine)  # warm up: imports, the kernel's load
    t = time.perf_counter()
    B.run_jobs(jobs, 1, engine=engine)
    return n / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=2000, help="fights on the fast core")
    ap.add_argument("--reference-n", type=int, default=400, help="fights on the reference engine")
    ap.add_argument("--scenes", help="comma-separated (default: every shipped scene)")
    args = ap.parse_args()
    names = args.scenes.split(",") if args.scenes else list_scenes()
    print(f"{'scene':16} {'fast/s':>9} {'reference/s':>12} {'ratio':>7}")
    for name in names:
        why = covered(load_scene(name))
        if why:
            print(f"{name:16} not on the fast core: {why[0]}")
            continue
        fast, ref = rate(name, args.n, "fast"), rate(name, args.reference_n, "reference")
        print(f"{name:16} {fast:9,.0f} {ref:12,.1f} {fast / ref:6.0f}x", flush=True)


if __name__ == "__main__":
    main()
