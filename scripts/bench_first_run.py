"""What a user waits for the first `fate-npc bench` after an install: the cold run (numba's cache
empty), the reference engine alone, and the warm run, each timed from the command line in a fresh
process, with the ratios to the reference measured in the same run.

    python scripts/bench_first_run.py [--scene warehouse] [-n 2000] [--repeat 1]

The cold run points NUMBA_CACHE_DIR at a new, empty folder: the kernel is compiled in a background
process while the reference engine plays (fate_env/evaluation/bench.py, Compiling), and the run
hands over to the fast core when the compile is done. The warm run uses the cache the cold run's
compile left (the script waits for it).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(args: list[str], env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "fate_env.cli", *args], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=3600)
    seconds = time.perf_counter() - start
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {r.stderr[-2000:]}")
    engine = next((ln for ln in r.stdout.splitlines() if ln.startswith("engine:")), "?")
    return seconds, engine


def wait_for_cache(env: dict[str, str], limit: float = 900) -> float:
    """Seconds until the background compile's cache loads (the fast core compiled)."""
    probe = "from fate_env.fast import compiled; import sys; sys.exit(0 if compiled() else 1)"
    start = time.perf_counter()
    while time.perf_counter() - start < limit:
        if subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env).returncode == 0:
            return time.perf_counter() - start
        time.sleep(2)
    raise SystemExit("the background compile did not finish")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--scene", default="warehouse")
    p.add_argument("-n", type=int, default=2000)
    p.add_argument("--repeat", type=int, default=1)
    args = p.parse_args()
    bench = ["bench", args.scene, "-n", str(args.n)]
    rows: dict[str, list[float]] = {"cold": [], "reference": [], "warm": []}
    for _ in range(args.repeat):
        env = {**os.environ, "NUMBA_CACHE_DIR": tempfile.mkdtemp(prefix="fate-npc-cold-")}
        cold, cold_engine = timed(bench, env)
        rows["cold"].append(cold)
        wait_for_cache(env)  # the compile left running in the background, done before the others are timed
        ref, _ = timed([*bench, "--engine", "reference"], env)
        rows["reference"].append(ref)
        warm, warm_engine = timed(bench, env)
        rows["warm"].append(warm)
        print(f"cold {cold:.1f} s ({cold_engine}); reference {ref:.1f} s; warm {warm:.1f} s ({warm_engine})")
    ref = statistics.median(rows["reference"])
    for name, values in rows.items():
        m = statistics.median(values)
        print(f"{name:10} median {m:6.1f} s   {m / ref:5.2f}x the reference   ({len(values)} run(s))")


if __name__ == "__main__":
    main()
