"""The general learned NPC against every script and `search`, in the NPCs' seat, on the held-out shipped
scenes (and on generated scenes from seeds no training used): each NPC policy's win rate averaged over
the scripted PC policies, with a 95% interval on the pooled fights, then learned against the best script
and against search. Paired seeds: every NPC policy meets every PC policy on the same dice.

    python scripts/general_npc.py [-n 12] [--scenes duel,ghoul] [--generated 0] [--workers 2] [--seed 30000]
                                  [--npc learned:path.zip] [--json out.json]
    python scripts/general_npc.py --only search,basic,... --json others.json   # some columns now,
    python scripts/general_npc.py --only learned --json learned.json          # others later,
    python scripts/general_npc.py --merge others.json learned.json            # one table
"""

from __future__ import annotations

import argparse
import json
import time

from fate_env.content.generate import scene as generated
from fate_env.content.scenes import list_scenes, load_scene, scene_from_dict
from fate_env.evaluation.crossplay import crossplay
from fate_env.evaluation.stats import wilson
from fate_env.fast.tables import CONTROLLERS
from fate_env.learn.self_play import balanced_seeds, seats
from fate_env.learn.teacher import OPPONENTS

SCRIPTS = OPPONENTS  # the scripted family: the PCs' policies, and the NPCs' scripts learned is compared with
#: the NPC scripts learned is compared with: every script the fast core plays (the family, then spender,
#: learned's helper, and counter, a line it may play outright: the best of them is the bar, so every script
#: learned leans on is part of it)
NPC_SCRIPTS = tuple(dict.fromkeys([*OPPONENTS, *(c for c in CONTROLLERS if c != "random")]))


def balanced(count: int, first: int = 900_000) -> list:
    """``count`` close generated scenes from seed ``first`` on (never a training seed; see
    ``self_play.close_call``): most drawn scenes are one-sided, and a one-sided scene says nothing
    about who plays better."""
    return [scene_from_dict(generated(s), f"generated-{s}") for s in balanced_seeds(count, first)]


def measure(scene, n: int, seed: int, workers: int, npcs: list[str]) -> dict:
    """Each NPC policy's wins over every scripted PC policy (n fights each)."""
    pc, npc = seats(scene)
    first = scene.sides[0] == pc
    result = crossplay(scene, list(SCRIPTS) if first else npcs, n, seed,
                       columns=npcs if first else list(SCRIPTS), workers=workers)
    out = {p: {"wins": 0, "fights": 0, "by_pcs": {}} for p in npcs}
    for cell in result["cells"]:
        pol = cell["policy_b"] if first else cell["policy_a"]
        foe = cell["policy_a"] if first else cell["policy_b"]
        wins = cell["b_wins"] if first else cell["a_wins"]
        out[pol]["wins"] += wins
        out[pol]["fights"] += cell["episodes"]
        out[pol]["by_pcs"][foe] = wins / cell["episodes"]
    for p in out.values():
        p["rate"] = p["wins"] / p["fights"]
        p["ci95"] = list(wilson(p["wins"], p["fights"]))
    return {"scene": scene.name, "npcs": npc, "pcs": pc, "policies": out}


def rate(cell: dict) -> float:
    """A cell's win rate, from its counts where it has them: a rate rounded for a sidecar must not
    decide a tie (133 wins of 160 against 133 read back as 0.8313)."""
    return cell["wins"] / cell["fights"] if "wins" in cell else cell["rate"]


def line(row: dict, learned: str) -> str:
    pol = row["policies"]
    scripts = {p: pol[p] for p in NPC_SCRIPTS if p in pol}
    best = max(scripts, key=lambda p: rate(scripts[p]))
    lr, sr, br = pol[learned], pol["search"], scripts[best]

    def cell(p):
        return f"{p['rate']:.0%} [{p['ci95'][0]:.0%}, {p['ci95'][1]:.0%}]"
    verdict = ("at or above both" if rate(lr) >= max(rate(sr), rate(br)) else
               "below " + " and ".join(w for w, r in (("the best script", br), ("search", sr)) if rate(lr) < rate(r)))
    return (f"| {row['scene']} | {row['npcs']} | {cell(lr)} | `{best}` {cell(br)} | {cell(sr)} | "
            f"{cell(pol['basic'])} | {verdict} |")


def merged(paths: list[str], learned: str, sidecar: str | None) -> None:
    """One table from several ``--only`` runs on the same scenes, seeds and fights; with ``sidecar``,
    the figures also go into the learned file's sidecar (its ``measured`` entry)."""
    rows: dict[str, dict] = {}
    for path in paths:
        with open(path) as f:
            for row in json.load(f):
                got = rows.setdefault(row["scene"], {**row, "policies": {}})
                got["policies"].update(row["policies"])
    print("| scene | NPC side | learned | best script | search | basic | learned is |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for row in rows.values():
        print(line(row, learned))
    if sidecar:
        card = json.loads(open(sidecar).read())
        card["measured"] = {
            "how": "scripts/general_npc.py: the NPC side's win rate over the PCs played by " + ", ".join(SCRIPTS),
            "date": time.strftime("%Y-%m-%d"),
            "scenes": {name: {p: {"rate": round(rate(v), 4), "ci95": [round(x, 4) for x in v["ci95"]],
                                  "wins": round(rate(v) * v["fights"]), "fights": v["fights"]}
                              for p, v in row["policies"].items()} for name, row in rows.items()}}
        with open(sidecar, "w") as f:
            f.write(json.dumps(card, indent=1) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=12, help="fights per NPC policy and PC policy")
    ap.add_argument("--scenes", help="comma-separated shipped scenes (default: every one with PCs against NPCs; none: only --generated)")
    ap.add_argument("--generated", type=int, default=0, help="also this many balanced generated scenes")
    ap.add_argument("--generated-from", type=int, default=900_000,
                    help="their first seed (default 900000, the measured ones; 800000: the validation ones)")
    ap.add_argument("--seed", type=int, default=30000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--npc", default="learned", help="the learned policy (learned, or learned:FILE)")
    ap.add_argument("--json", help="write every figure here")
    ap.add_argument("--only", help="measure these NPC policies only (comma-separated; for --merge later)")
    ap.add_argument("--merge", nargs="+", metavar="JSON", help="print one table from runs of --only")
    ap.add_argument("--sidecar", help="with --merge: write the figures into this learned file's sidecar")
    args = ap.parse_args()
    if args.merge:
        return merged(args.merge, args.npc, args.sidecar)
    npcs = args.only.split(",") if args.only else [args.npc, "search", *NPC_SCRIPTS]
    names = [] if args.scenes == "none" else args.scenes.split(",") if args.scenes else list_scenes()
    scenes = [load_scene(s) for s in names]
    scenes += balanced(args.generated, first=args.generated_from)
    rows = []
    print(f"NPC side's win rate, averaged over the PCs played by {', '.join(SCRIPTS)}, {args.n} fights each "
          f"(seeds from {args.seed})\n")
    print("| scene | NPC side | learned | best script | search | basic | learned is |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for sc in scenes:
        if seats(sc) is None or sc.kind != "conflict":
            continue
        start = time.monotonic()
        row = measure(sc, args.n, args.seed, args.workers, npcs)
        row["seconds"] = time.monotonic() - start
        rows.append(row)
        if args.only:
            print(f"| {sc.name} | " + ", ".join(f"{p} {v['rate']:.0%}" for p, v in row["policies"].items()), flush=True)
        else:
            print(line(row, args.npc), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
