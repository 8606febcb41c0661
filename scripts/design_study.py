"""The designer against the research anchors' methods, on generated scenes (issue 76's study).

For each generated scene (content/generate.py, every rule set; a scene the fast core does not play, or
whose NPCs are not one side, is skipped and counted) and each target, three searches design the NPCs'
side at the same budget (trials), on the same seeds, judged and chosen exactly alike (design/search.py):
the designer's TPE, random search, and a plain genetic algorithm (NSGA-II, the method of "No Player Left
Behind", AIIDE 2024). Each design is measured on the fights of dice the search never saw that chose
it: within ±0.04 of the target (and so with fights that end: no more than search.MAX_UNRESOLVED
unresolved), no PC left behind (of the designs with two PCs or more, where any candidate of that
search managed it: a PC with no way to act in the scene cannot be brought in, and a lone PC is never
left behind, so its designs are not counted), the fight's length, the harm to the PCs a fight
(bench_report.HARM), and the seconds it took.

    python scripts/design_study.py [--scenes 50] [--targets 0.3,0.5,0.8] [--trials 600] [--budget 120]
                                   [--methods tpe,random,ga] [--first 7000] [--seed 0] [--shard K/N]
                                   [--log rows.jsonl] [--only 7010@0.3,7001@0.5]
    python scripts/design_study.py --summary rows1.jsonl rows2.jsonl

Trials and budget default to the designer's own (design/defaults.py). Prints one line per design and a
table per method (the log a docs/results/ page keeps); ``--shard K/N`` takes every Nth scene from the
Kth, so N processes share the machine's cores; ``--log`` keeps each design as a JSON line, and
``--summary`` prints the tables from such logs. A design is judged on its own fresh bench (CHECK
fights on seeds neither the search nor its finalists saw), as `fate-npc design` checks its file.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fate_env.content import generate  # noqa: E402
from fate_env.content.scenes import SceneError, scene_from_dict  # noqa: E402
from fate_env.design import search as Q  # noqa: E402
from fate_env.design import space as S  # noqa: E402
from fate_env.design.defaults import DEFAULT_BUDGET, DEFAULT_TRIALS, TOLERANCE  # noqa: E402
from fate_env.design.judge import judge  # noqa: E402
from fate_env.evaluation.bench import effective_controls, episode_seed  # noqa: E402
from fate_env.fast import FastCore  # noqa: E402

#: fights of the design's own check, on seeds past the search's and the finalists'
CHECK = 4000
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


def check(data, values: dict, seed: int, target: float):
    """The chosen design benched on CHECK fresh fights (the seeds after the search's and the finalists')."""
    scene = scene_from_dict(S.apply(data, "npcs", values), "study")
    pcs = tuple(c.id for c in scene.characters if c.kind == "pc")
    first = Q.SEARCH_FIGHTS + Q.FINAL_FIGHTS
    seeds = [episode_seed(seed, i) for i in range(first, first + CHECK)]
    return judge(FastCore(scene, effective_controls(scene, {})), pcs, seeds, target, TOLERANCE, CHECK)


def design(data, seed: int, target: float, trials: int, budget: float, method: str) -> dict:
    gear = bool(scene_from_dict(data, "study").rules.weapons)
    start = time.monotonic()
    r = Q.run(Q.Ask(data, "study", "npcs", target, seed=seed, trials=trials, budget=budget, tolerance=TOLERANCE,
                    gear=gear, sampler=method))
    seconds = time.monotonic() - start
    fig = check(data, r.chosen.values, seed, target)
    possible = any(t.figures and not t.figures.raced_out and t.figures.left_behind() == 0 for t in r.trials) \
        or any(f.left_behind() == 0 for f in r.finals.values())
    return {"pcs": len(fig.pcs), "within": abs(fig.win_rate - target) <= TOLERANCE, "win": fig.win_rate,
            "behind": bool(fig.behind()), "why": fig.behind(),
            "possible": possible, "exchanges": fig.mean_exchanges, "harm": fig.harm / max(fig.fights, 1),
            "unresolved": fig.unresolved / max(fig.fights, 1),
            "seconds": seconds, "moved": r.chosen.moved, "trials": len(r.trials),
            "met": r.met, "replays": len(r.finals), "stopped": r.stopped_early}  # met: inside the band on its replays


def line(seed: int, rules: str, target: float, m: str, got: dict) -> str:
    return (f"| {seed} | {rules} | {target:.0%} | {m} | {got['win']:.1%} | {'yes' if got['within'] else 'no'} "
            f"| {'yes' if got['behind'] else 'no'} | {'yes' if got['possible'] else 'no'} | "
            f"{got['exchanges']:.1f} | {got['harm']:.2f} | {got['moved']} | {got['trials']} | {got['seconds']:.1f} |")


def _row(label: str, got: list[dict]) -> str:
    # a lone PC is never left behind: its designs would only pad the share, so they are not counted in it
    possible = [g for g in got if g["possible"] and g["pcs"] > 1]
    fair = f"{sum(not g['behind'] for g in possible) / len(possible):.0%} of {len(possible)}" if possible else "none possible"
    ending = (f"{sum(g['within'] and g['unresolved'] <= Q.MAX_UNRESOLVED for g in got) / len(got):.0%}"
              if all("unresolved" in g for g in got) else "not logged")
    return (f"| {label} | {len(got)} | {sum(g['within'] for g in got) / len(got):.0%} | {ending} | "
            f"{sum(g['met'] for g in got) / len(got):.0%} | {fair} | "
            f"{statistics.median(g['seconds'] for g in got):.1f} | {statistics.mean(g['exchanges'] for g in got):.1f} | "
            f"{statistics.mean(g['harm'] for g in got):.2f} |")


#: "and fights that end": within, with at most search.MAX_UNRESOLVED of the check's fights unresolved at the
#: exchange cap; "met" is the designer's own verdict (the same, on its replay of the finalists)
TABLE = ("| {} | designs | within ±0.04 | within, and fights that end | met, by the designer | no PC left behind "
         "(two PCs or more, where possible) | median seconds | mean exchanges | harm to the PCs a fight |\n"
         "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")


def summary(rows: dict[str, list[dict]]) -> None:
    """The table per method; then, where the methods designed different pairs (a baseline run on fewer
    scenes), the same table over the pairs every method designed, which is the comparison on the same
    seeds; then each method by target and by rule set."""
    print("\n" + TABLE.format("method"))
    for m, got in rows.items():
        print(_row(m, got))
    pairs = [{(g["scene"], g["target"]) for g in got} for got in rows.values()]
    common = set.intersection(*pairs) if pairs else set()
    if len(rows) > 1 and any(p != common for p in pairs) and common:
        print(f"\nOn the {len(common)} designs every method made (the same scenes, targets and seeds):\n")
        print(TABLE.format("method"))
        for m, got in rows.items():
            print(_row(m, [g for g in got if (g["scene"], g["target"]) in common]))
    for m, got in rows.items():
        print(f"\n{m}, by target and by rule set:\n")
        print(TABLE.format(""))
        for t in sorted({g["target"] for g in got}):
            print(_row(f"target {t:.0%}", [g for g in got if g["target"] == t]))
        for r in sorted({g["rules"] for g in got}):
            print(_row(r, [g for g in got if g["rules"] == r]))
        for n in sorted({g["pcs"] for g in got}):
            print(_row(f"{n} PC{'s' if n > 1 else ''}", [g for g in got if g["pcs"] == n]))


def from_logs(paths: list[str]) -> None:
    rows: dict[str, list[dict]] = {}
    for p in paths:
        for text in Path(p).read_text().splitlines():
            got = json.loads(text)
            if "pcs" not in got:  # a log from before the count was kept: the scene's, from the generator
                got["pcs"] = sum(c.get("kind") == "pc" for c in generate.scene(got["scene"])["characters"].values())
            rows.setdefault(got["method"], []).append(got)
    for m in rows:
        rows[m].sort(key=lambda g: (g["scene"], g["target"]))
    print(HEADER)
    for got in sorted((g for m in rows.values() for g in m), key=lambda g: (g["scene"], g["target"], g["method"])):
        print(line(got["scene"], got["rules"], got["target"], got["method"], got))
    summary(rows)


HEADER = ("\n| scene | rules | target | method | PCs win | within ±0.04 | left behind | possible | exchanges | "
          "harm | knobs moved | trials | seconds |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
          "| --- | --- |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=50)
    ap.add_argument("--targets", default="0.3,0.5,0.8")
    ap.add_argument("--trials", type=int, default=DEFAULT_TRIALS)
    ap.add_argument("--budget", type=float, default=DEFAULT_BUDGET, help="seconds per design, as the designer's")
    ap.add_argument("--shard", default="0/1", help="K/N: every Nth scene from the Kth")
    ap.add_argument("--log", help="append each design to this file as a JSON line")
    ap.add_argument("--summary", nargs="+", help="print the tables from these logs and stop")
    ap.add_argument("--methods", default=",".join(Q.SAMPLERS))
    ap.add_argument("--first", type=int, default=7000, help="the first generated scene's seed")
    ap.add_argument("--seed", type=int, default=0, help="the searches' seed")
    ap.add_argument("--only", help="SCENE@TARGET,...: design only these pairs (e.g. a log's misses, again)")
    args = ap.parse_args()
    if args.summary:
        from_logs(args.summary)
        return
    k, n = (int(x) for x in args.shard.split("/"))
    targets = [float(x) for x in args.targets.split(",")]
    methods = args.methods.split(",")
    picked, skipped = scenes(args.scenes, args.first)
    picked = picked[k::n]
    print(f"{len(picked)} generated scenes (seeds {picked[0][0]}..{picked[-1][0]}; {skipped} skipped), targets "
          f"{', '.join(f'{t:.0%}' for t in targets)}, {args.trials} trials each, methods {', '.join(methods)}")
    print(HEADER)
    rows: dict[str, list[dict]] = {m: [] for m in methods}
    only = {(int(a), float(b)) for a, b in (x.split("@") for x in args.only.split(","))} if args.only else None
    for seed, data in picked:
        for target in targets:
            if only is not None and (seed, target) not in only:
                continue
            for m in methods:
                got = design(data, args.seed, target, args.trials, args.budget, m)
                rows[m].append(got)
                print(line(seed, data["rules"], target, m, got), flush=True)
                if args.log:
                    with open(args.log, "a") as f:
                        f.write(json.dumps({"scene": seed, "rules": data["rules"], "target": target, "method": m,
                                            **got}) + "\n")
    summary(rows)


if __name__ == "__main__":
    main()
