"""The fast core against the reference engine, episode by episode (issue 13).

For every shipped scene the fast core covers (or those named), under each rule set, plays N
seeded episodes on both engines, ``basic`` in every seat (or ``--policies A,B``: the first side
played by A, the second by B, any policies the fast core plays), and compares the whole event log
and the outcome. Prints, per scene: identical, different (with the first differing event of the
first few), and handed back to the reference (with the reason). Exits 1 if any log differs.

    python scripts/diff_cores.py [-n 10000] [--scenes duel,warehouse] [--rules condensed,core]
                                 [--seed 0] [--workers 2] [--policies sniper,basic]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.base import controllers_for, play  # noqa: E402
from fate_env.evaluation.bench import episode_seed  # noqa: E402
from fate_env.fast import FastCore, covered  # noqa: E402
from fate_env.rules.engine import start  # noqa: E402
from fate_env.content.scenes import config_dir, load_scene  # noqa: E402

_CORES: dict = {}


def _seats(scene, policies: tuple[str, ...]) -> dict[str, str]:
    """Each character's policy: its side's, in the order of the scene's sides."""
    sides = dict(zip(scene.sides, policies))
    return {c.id: sides[c.side] for c in scene.characters}


def compare(job: tuple) -> tuple[int, int, Counter, list[str]]:
    """(identical, different, handed back by reason, first differences) for a chunk of seeds."""
    name, rules, policies, seeds = job
    key = (name, rules, policies)
    if key not in _CORES:
        scene = load_scene(name, rules=rules)
        _CORES[key] = (scene, FastCore(scene, _seats(scene, policies)))
    scene, core = _CORES[key]
    sides = dict(zip(scene.sides, policies))
    same = differ = 0
    back: Counter = Counter()
    notes: list[str] = []
    for seed in seeds:
        ep = core.episode(seed)
        if ep.bail:
            back[ep.bail] += 1
            continue
        ref = play(start(scene, seed), controllers_for(scene, sides, seed=seed))
        a, b = ref.log(), ep.log()
        if a == b and ref.outcome.to_json() == ep.outcome.to_json():
            same += 1
            continue
        differ += 1
        if len(notes) < 3:
            i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            notes.append(f"seed {seed}, event {i}: reference {a[i] if i < len(a) else None}; "
                         f"fast core {b[i] if i < len(b) else None}")
    return same, differ, back, notes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=10_000, help="episodes per scene and rule set")
    ap.add_argument("--scenes", help="comma-separated scene names (default: every shipped scene it covers)")
    ap.add_argument("--rules", default="condensed,core")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--policies", default="basic,basic", help="the first side's policy, the second's")
    args = ap.parse_args()
    policies = tuple(p.strip() for p in args.policies.split(","))
    if len(policies) != 2:
        ap.error(f"--policies: expected two comma-separated policies, got {args.policies!r}")
    names = args.scenes.split(",") if args.scenes else sorted(p.stem for p in (config_dir() / "scenes").glob("*.yaml"))
    bad = 0
    for rules in args.rules.split(","):
        for name in names:
            scene = load_scene(name, rules=rules)
            why = covered(scene, _seats(scene, policies))
            if why:
                print(f"{name} ({rules}): refused by the fast core: {'; '.join(why)}")
                continue
            seeds = [episode_seed(args.seed, i) for i in range(args.n)]
            size = max(1, len(seeds) // (args.workers * 8))
            jobs = [(name, rules, policies, seeds[i:i + size]) for i in range(0, len(seeds), size)]
            t = time.perf_counter()
            if args.workers > 1:
                from fate_env.evaluation.pools import imap
                results = list(imap(compare, jobs, args.workers))
            else:
                results = [compare(j) for j in jobs]
            same = sum(r[0] for r in results)
            differ = sum(r[1] for r in results)
            back = sum((r[2] for r in results), Counter())
            notes = [n for r in results for n in r[3]][:3]
            bad += differ
            handed = "; ".join(f"{n} handed back ({why})" for why, n in back.items()) or "none handed back"
            print(f"{name} ({rules}, {' vs '.join(policies)}): {same} identical, {differ} different, {handed} "
                  f"[{time.perf_counter() - t:.0f} s]")
            for note in notes:
                print("   ", note)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
