"""The environment's fuzz at scale: the invariants of tests/environment/test_env.py (masks, spaces,
rewards, who acts) over many seeded masked-random episodes per shipped scene. The test suite runs the
first 150 (and 25 under each other rule set) of the same seeds; this is the scale run, for a release
or a change to the environment's or the engine's shape.

    python scripts/fuzz_env.py [--episodes 1000] [--others 100] [--scenes duel,warehouse]
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "environment")]

from conftest import SHIPPED  # noqa: E402
from test_env import fuzz  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--episodes", type=int, default=1000)
    p.add_argument("--others", type=int, default=100, help="episodes under each other rule set")
    p.add_argument("--scenes", default=",".join(SHIPPED))
    args = p.parse_args()
    warnings.simplefilter("ignore")
    for scene in args.scenes.split(","):
        start = time.perf_counter()
        fuzz(scene, args.episodes, args.others)
        print(f"{scene}: {args.episodes} + 3x{args.others} episodes, invariants held ({time.perf_counter() - start:.0f} s)",
              flush=True)


if __name__ == "__main__":
    main()
