"""The fast core's first compile: seconds with an empty numba cache, then a cached load.

Each measurement runs in a fresh process (numba's in-memory dispatchers would otherwise hide
the cost): the first with ``NUMBA_CACHE_DIR`` pointed at a new, empty folder, the second with the
same folder filled by the first. Also prints how many compiled specialisations the kernel's
functions hold after the first run (each one is compiled separately).

    python scripts/bench_compile.py [--scene warehouse] [--repeat 1]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = r"""
import importlib, json, pkgutil, sys, time
t0 = time.perf_counter()
from fate_env.content.scenes import load_scene
from fate_env.fast import FastCore
FastCore(load_scene(sys.argv[1])).run([1, 2, 3])
seconds = time.perf_counter() - t0
import fate_env.fast as fast
count = 0
for m in pkgutil.walk_packages(fast.__path__, "fate_env.fast."):  # the kernel's own package too
    mod = importlib.import_module(m.name)
    count += sum(len(f.signatures) for f in vars(mod).values()
                 if hasattr(f, "signatures") and getattr(f, "__module__", "") == mod.__name__)
print(json.dumps({"seconds": seconds, "specialisations": count}))
"""


def probe(scene: str, cache: str) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", PROBE, scene], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scene", default="warehouse")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    cold, warm = [], []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as cache:
            first = probe(args.scene, cache)
            cold.append(first["seconds"])
            warm.append(probe(args.scene, cache)["seconds"])
            print(f"first run, empty cache: {first['seconds']:.1f} s ({first['specialisations']} specialisations); "
                  f"then from the cache: {warm[-1]:.1f} s", flush=True)
    print(f"median: first {statistics.median(cold):.1f} s, cached {statistics.median(warm):.1f} s "
          f"({args.scene}, {args.repeat} run{'s' if args.repeat > 1 else ''})")


if __name__ == "__main__":
    main()
