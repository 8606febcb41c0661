"""The fast core's fights per second in this tree against another revision's, interleaved.

Issue 38 asks that nothing the fast core played before runs slower. A figure from one run means
little on a shared two-core machine, so this script checks out ``--base`` in a git worktree and
times both trees in turns (A B, then B A, ...), each in a fresh process that puts its tree first
on ``sys.path``: per scene the best of ``--batches`` batches of ``--fights`` fights, both for the
kernel alone (``FastCore.run``) and with the outcomes decoded (``FastCore.outcomes``, what
``bench`` pays per fight). It prints each round and then the medians and this tree's ratio.

    python scripts/bench_fast_ab.py --base 0dbfb40 [--scenes warehouse,ghoul] [--rounds 6]

The base compiles its own kernel on its first round (about a minute and a half), in its worktree,
which is removed at the end unless ``--keep``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the shipped scenes the fast core played before issue 38 (0dbfb40)
SCENES = "duel,ghoul,interrogation,warehouse,warehouse_mobs"


def child(tree: str, scenes: list[str], fights: int, batches: int) -> None:
    """Time ``scenes`` on the fast core of ``tree``; print {scene: [run/s, outcomes/s]} as JSON."""
    sys.path.insert(0, tree)
    from fate_env.content.scenes import load_scene
    from fate_env.fast import FastCore

    out = {}
    for name in scenes:
        core = FastCore(load_scene(name))
        core.outcomes(list(range(50)))  # loads (or compiles) the kernel
        best_run = best_out = 0.0
        for b in range(batches):
            seeds = list(range(1000 + b * fights, 1000 + (b + 1) * fights))
            t = time.perf_counter()
            core.run(seeds)
            best_run = max(best_run, fights / (time.perf_counter() - t))
            t = time.perf_counter()
            core.outcomes(seeds)
            best_out = max(best_out, fights / (time.perf_counter() - t))
        out[name] = [best_run, best_out]
    print(json.dumps(out))


def measure(tree: Path, args: argparse.Namespace) -> dict[str, list[float]]:
    cmd = [sys.executable, __file__, "--child", str(tree), "--scenes", args.scenes,
           "--fights", str(args.fights), "--batches", str(args.batches)]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=tempfile.gettempdir())
    if done.returncode != 0:
        sys.exit(f"{tree}: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else 'failed'}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", help="the revision to compare against (a commit, tag or branch)")
    ap.add_argument("--scenes", default=SCENES)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--fights", type=int, default=1500)
    ap.add_argument("--batches", type=int, default=7)
    ap.add_argument("--keep", action="store_true", help="keep the base's worktree (and its compiled kernel)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    scenes = args.scenes.split(",")
    if args.child:
        child(args.child, scenes, args.fights, args.batches)
        return
    if not args.base:
        ap.error("--base is required")
    base = Path(tempfile.gettempdir()) / ("fate-npc-ab-" + args.base.replace("/", "-"))
    if not base.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), args.base], check=True,
                       capture_output=True)
    trees = {"this tree": ROOT, args.base: base}
    runs: dict[str, list[dict[str, list[float]]]] = {name: [] for name in trees}
    try:
        print("warming both kernels (the base compiles its own the first time)...", flush=True)
        for tree in trees.values():
            measure(tree, argparse.Namespace(scenes=scenes[0], fights=50, batches=1))
        for r in range(args.rounds):
            order = list(trees) if r % 2 == 0 else list(trees)[::-1]
            for name in order:
                got = measure(trees[name], args)
                runs[name].append(got)
                print(f"round {r + 1} {name:>10}: " + "  ".join(f"{s} {v[0]:,.0f}/{v[1]:,.0f}" for s, v in got.items()),
                      flush=True)
    finally:
        if not args.keep:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], capture_output=True)
    print(f"\nmedians of {args.rounds} rounds, fights/s (best of {args.batches} batches of {args.fights}): "
          f"kernel alone / with outcomes decoded")
    for s in scenes:
        cells = []
        for i, what in enumerate(("kernel", "outcomes")):
            ours = statistics.median(run[s][i] for run in runs["this tree"])
            theirs = statistics.median(run[s][i] for run in runs[args.base])
            cells.append(f"{what} {ours:,.0f} vs {theirs:,.0f} ({ours / theirs - 1:+.1%})")
        print(f"  {s:15s} " + "   ".join(cells))


if __name__ == "__main__":
    main()
