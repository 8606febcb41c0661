"""How quick ``fate-npc --help`` and every ``fate-npc COMMAND --help`` are (issue 77: the dispatch
table imports only the command named).

Each is run ``--repeat`` times as a fresh process (``python -m fate_env.cli ...``), interleaved with a
reference measured in the same run: a bare interpreter that imports argparse (the floor any Python
command line pays). Prints each command's median seconds and its ratio to the reference; with
``--ref DIR`` (another checkout, e.g. a ``git worktree`` of an older commit) the same commands from
there too, side by side.

    python scripts/bench_help.py [--repeat 9] [--ref /tmp/old]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fate_env.cli import COMMANDS  # noqa: E402


def seconds(argv: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *argv], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--ref", type=Path, help="another checkout whose commands to time beside these")
    args = ap.parse_args()
    commands = [[]] + [[name] for name in COMMANDS]
    trees = {"here": ROOT, **({"ref": args.ref} if args.ref else {})}
    times: dict[tuple[str, str], list[float]] = {}
    floor: list[float] = []
    for _ in range(args.repeat):  # interleaved, so the machine's noise falls on every figure alike
        floor.append(seconds(["-c", "import argparse"], ROOT))
        for cmd in commands:
            for tree, where in trees.items():
                times.setdefault((" ".join(cmd) or "(none)", tree), []).append(
                    seconds(["-m", "fate_env.cli", *cmd, "--help"], where))
    ref = statistics.median(floor)
    print(f"reference (python -c 'import argparse'): {ref:.3f} s, median of {args.repeat}")
    print(f"{'command':10} " + " ".join(f"{t + ' s':>9} {'x ref':>6}" for t in trees))
    for cmd in commands:
        name = " ".join(cmd) or "(none)"
        cells = []
        for tree in trees:
            m = statistics.median(times[(name, tree)])
            cells.append(f"{m:9.3f} {m / ref:6.1f}")
        print(f"{name:10} " + " ".join(cells))


if __name__ == "__main__":
    main()
