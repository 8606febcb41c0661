"""The designer against the research anchors' methods, on generated scenes (issue 76's study).

For each generated scene (content/generate.py, every rule set; a scene the fast core does not play, or
whose NPCs are not one side, is skipped and counted) and each target, three searches design the NPCs'
side at the same budget (trials), on the same seeds, judged and chosen exactly alike (design/search.py):
the designer's TPE, random search, and a plain genetic algorithm (NSGA-II, the method of "No Player Left
Behind", AIIDE 2024). Each design is measured on the 6,000 fights of dice the search never saw that chose
it: within ±0.04 of the target, no PC left behind (where any candidate of that search managed it: a PC
with no way to act in the scene cannot be brought in), the fight's length, the harm to the PCs a fight
(bench_report.HARM), and the seconds it took.

    python scripts/design_study.py [--scenes 50] [--targets 0.3,0.5,0.8] [--trials 150]
                                   [--methods tpe,random,ga] [--first 7000] [--seed 0]

Prints a table per method and one line per design (the log a docs/results/ page keeps).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fate_env.content import generate  # noqa: E402
from fate_env.content.scenes import SceneError, scene_from_dict  # noqa: E402
from fate_env.design import search as Q  # noqa: E402
from fate_env.design import space as S  # noqa: E402
from fate_env.design.defaults import TOLERANCE  # noqa: E402
from fate_env.fast import covered  # noqa: E402


def scenes(count: int, first: int):
    """(seed, data) for ``count`` generated scenes the designer takes, and how many were skipped."""
    out, skipped, seed = [], 0, first
    while len(out) < count:
        data = generate.scene(seed)
        seed += 1
        try:
            sc = scene_from_dict(data, f"generated_{seed - 1}")
        except SceneError:
            skipped += 1
            continue
        sides = {c.side for c in sc.characters if c.kind != "pc"}
        if covered(sc) or sides != {"npcs"} or sc.kind != "conflict":
            skipped += 1
            continue
        out.append((seed - 1, data))
    return out, skipped


def design(data, seed: int, target: float, trials: int, method: str) -> dict:
    gear = bool(scene_from_dict(data, "study").rules.weapons)
    start = time.monotonic()
    r = Q.run(data, "study", "npcs", target, {}, None, seed, trials, 10_000, TOLERANCE, gear, sampler=method)
    seconds = time.monotonic() - start
    fig = r.finals[r.chosen.number]
    possible = any(t.figures and not t.figures.raced_out and t.figures.left_behind() == 0 for t in r.trials) \
        or any(f.left_behind() == 0 for f in r.finals.values())
    return {"within": abs(fig.win_rate - target) <= TOLERANCE, "win": fig.win_rate, "behind": bool(fig.behind()),
            "possible": possible, "exchanges": fig.mean_exchanges, "harm": fig.harm / max(fig.fights, 1),
            "seconds": seconds, "moved": r.chosen.moved}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=50)
    ap.add_argument("--targets", default="0.3,0.5,0.8")
    ap.add_argument("--trials", type=int, default=150)
    ap.add_argument("--methods", default=",".join(Q.SAMPLERS))
    ap.add_argument("--first", type=int, default=7000, help="the first generated scene's seed")
    ap.add_argument("--seed", type=int, default=0, help="the searches' seed")
    args = ap.parse_args()
    targets = [float(x) for x in args.targets.split(",")]
    methods = args.methods.split(",")
    picked, skipped = scenes(args.scenes, args.first)
    print(f"{len(picked)} generated scenes (seeds {picked[0][0]}..{picked[-1][0]}; {skipped} skipped), targets "
          f"{', '.join(f'{t:.0%}' for t in targets)}, {args.trials} trials each, methods {', '.join(methods)}")
    print("\n| scene | rules | target | method | PCs win | within ±0.04 | left behind | possible | exchanges | "
          "harm | knobs moved | seconds |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    rows: dict[str, list[dict]] = {m: [] for m in methods}
    for seed, data in picked:
        for target in targets:
            for m in methods:
                got = design(data, args.seed, target, args.trials, m)
                rows[m].append(got)
                print(f"| {seed} | {data['rules']} | {target:.0%} | {m} | {got['win']:.1%} | {'yes' if got['within'] else 'no'} "
                      f"| {'yes' if got['behind'] else 'no'} | {'yes' if got['possible'] else 'no'} | "
                      f"{got['exchanges']:.1f} | {got['harm']:.2f} | {got['moved']} | {got['seconds']:.1f} |", flush=True)
    print("\n| method | designs | within ±0.04 | no PC left behind (where possible) | median seconds | "
          "mean exchanges | harm to the PCs a fight |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for m, got in rows.items():
        possible = [g for g in got if g["possible"]]
        fair = sum(not g["behind"] for g in possible) / len(possible) if possible else float("nan")
        print(f"| {m} | {len(got)} | {sum(g['within'] for g in got) / len(got):.0%} | {fair:.0%} of {len(possible)} | "
              f"{statistics.median(g['seconds'] for g in got):.1f} | {statistics.mean(g['exchanges'] for g in got):.1f} | "
              f"{statistics.mean(g['harm'] for g in got):.2f} |")


if __name__ == "__main__":
    main()
