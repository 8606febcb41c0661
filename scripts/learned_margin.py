"""How sure the learned NPC must be to depart from its script (``keep_within``, in the network's
scores), chosen on generated validation scenes: never a training seed, never the held-out shipped
scenes nor the generated ones the results measure on (seeds from 900000). For each margin, the NPC
side's win rate over the scripted PC policies on balanced generated scenes from seed 800000, beside
`basic`'s; the margin with the best average is what a policy file's ``keep_within`` should hold (the
shipped file's is 0: ``learned`` departs from its script whenever another move scores higher).

    python scripts/learned_margin.py [--margins 0,0.5,1,2] [--scenes 8] [-n 5] [--file configs/models/learned.zip]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from general_npc import balanced, measure

from fate_env.environment.entity_policy import EntityPolicy, write


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--margins", default="0,0.5,1,2")
    ap.add_argument("--scenes", type=int, default=8)
    ap.add_argument("-n", type=int, default=5)
    ap.add_argument("--file", default="configs/models/learned.zip")
    ap.add_argument("--seed", type=int, default=40000)
    args = ap.parse_args()
    policy = EntityPolicy(args.file)
    scenes = balanced(args.scenes, first=800_000)
    keep = {k: policy.meta[k] for k in ("learn", "helper", "width") if k in policy.meta}
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for m in args.margins.split(","):
            files[m] = str(Path(tmp) / f"m{m}.zip")
            write(files[m], policy.w, {**keep, "keep_within": float(m)})
        npcs = [f"learned:{f}" for f in files.values()] + ["basic"]
        rates: dict[str, list[float]] = {p: [] for p in npcs}
        for sc in scenes:
            row = measure(sc, args.n, args.seed, 1, npcs)
            for p in npcs:
                rates[p].append(row["policies"][p]["rate"])
            print(sc.name, " ".join(f"{p.split('/')[-1]} {row['policies'][p]['rate']:.0%}" for p in npcs), flush=True)
    for m, f in files.items():
        r = rates[f"learned:{f}"]
        print(f"keep_within {m}: average {statistics.mean(r):.1%}, worst against basic "
              f"{min(a - b for a, b in zip(r, rates['basic'])):+.0%}")
    print(f"basic: average {statistics.mean(rates['basic']):.1%}")


if __name__ == "__main__":
    main()
