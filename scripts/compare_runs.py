"""Learning curves of training runs side by side: the mean episode return (SB3's
``rollout/ep_rew_mean``, logged by ``fate-npc train`` in ``OUT.log/progress.csv``) at steps
along the way, one row per run, and optionally a plot.

    python scripts/compare_runs.py runs/full_s1.log runs/compact_s1.log ... [--every 50000] [--plot curves.png]

A run's label is its folder name without ``.log``; runs whose labels share a prefix before ``_s``
(``full_s1``, ``full_s2``) are also averaged into one row.
"""

from __future__ import annotations

import argparse
import csv
from collections import defaultdict
from pathlib import Path


def curve(log_dir: Path) -> list[tuple[int, float]]:
    """(timesteps, ep_rew_mean) for each logged iteration that has a return."""
    out = []
    with open(log_dir / "progress.csv", newline="") as f:
        for row in csv.DictReader(f):
            value = row.get("rollout/ep_rew_mean", "")
            if value:
                out.append((int(float(row["time/total_timesteps"])), float(value)))
    if not out:
        raise SystemExit(f"{log_dir}: no rollout/ep_rew_mean in progress.csv (a run from before the curves were logged)")
    return out


def at(points: list[tuple[int, float]], step: int) -> float | None:
    """The last logged value at or before ``step``."""
    best = None
    for t, v in points:
        if t <= step:
            best = v
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("logs", nargs="+", type=Path)
    ap.add_argument("--every", type=int, default=50_000)
    ap.add_argument("--plot", type=Path, help="write the curves to this image (needs matplotlib)")
    args = ap.parse_args()
    curves = {d.name.removesuffix(".log"): curve(d) for d in args.logs}
    last = max(t for c in curves.values() for t, _ in c)
    steps = list(range(args.every, last + 1, args.every))
    groups: dict[str, list[str]] = defaultdict(list)
    for label in curves:
        groups[label.split("_s")[0]].append(label)
    print("run".ljust(16) + "".join(f"{s:>10,}" for s in steps))
    for label, points in curves.items():
        print(label.ljust(16) + "".join(f"{at(points, s):>10.3f}" if at(points, s) is not None else f"{'':>10}"
                                        for s in steps))
    for group, labels in groups.items():
        if len(labels) > 1:
            cells = []
            for s in steps:
                values = [at(curves[lb], s) for lb in labels]
                values = [v for v in values if v is not None]
                cells.append(f"{sum(values) / len(values):>10.3f}" if values else f"{'':>10}")
            print(f"{group} (mean of {len(labels)})".ljust(16) + "".join(cells))
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(8, 4.5))
        for label, points in curves.items():
            ax.plot([t for t, _ in points], [v for _, v in points], label=label, linewidth=1)
        ax.set_xlabel("learner steps")
        ax.set_ylabel("mean episode return")
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=120)
        print(f"wrote {args.plot}")


if __name__ == "__main__":
    main()
