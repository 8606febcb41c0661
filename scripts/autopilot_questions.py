"""What the live table asks per fight: the players' questions by kind, the GM's gates, and the answers the
autopilot gave for the players without asking, over many seeded fights answered as the table proposes.

    python scripts/autopilot_questions.py [--scene warehouse] [--fights 40] [--spare IDS] [--compels]

Each fight is played on the live table's model (fate_env/live/table.py), every question answered with
what the table proposes (a player's: the proposed option; a gate: accepted; a name: the first offered).
Prints the mean per fight of each count and its range.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fate_env.live import autopilot as ap  # noqa: E402
from fate_env.live.answers import Accept, Auto, Choose  # noqa: E402
from fate_env.live.save import SessionLog  # noqa: E402
from fate_env.live.seats import GM, Seat  # noqa: E402
from fate_env.live.table import Table  # noqa: E402


def one_fight(scene: str, seed: int, pilot: ap.Autopilot) -> Counter:
    t = Table(SessionLog(scene, None, seed, {}), autopilot=pilot)
    n: Counter = Counter()
    while (q := t.advance()) is not None:
        if q.kind == "decision" and not q.for_npc:
            n[f"asked: {q.decision}"] += 1
            t.answer(Seat("player", q.owner) if q.owner else GM, q.seq, Choose(q.proposal + 1))
        elif q.kind == "gate":
            n["gate"] += 1
            t.answer(GM, q.seq, Accept())
        elif q.kind in ("offer", "compel"):  # a proposed compel (the GM's), then the player's answer to it
            n[f"asked: {q.kind}"] += 1
            t.answer(Seat("player", q.owner) if q.owner else GM, q.seq, Accept())
        else:
            n[f"asked: {q.kind}"] += 1
            t.answer(Seat("player", q.owner) if q.owner else GM, q.seq, Auto())
    for entry in t.log.entries:
        if entry.get("by") == "obvious":
            n["answered for the player: " + entry.get("reason", "").split(":")[0].replace("(one answer) ", "")] += 1
    return n


def main() -> None:
    ap_ = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap_.add_argument("--scene", default="warehouse")
    ap_.add_argument("--fights", type=int, default=40)
    ap_.add_argument("--spare", default=None, help="PC ids whose players chose to be spared (as play --spare)")
    ap_.add_argument("--compels", action="store_true", help="the NPCs' side proposes compels (as play --compels)")
    args = ap_.parse_args()
    pilot = ap.with_flags(ap.load(), spare=args.spare, compels=args.compels)
    fights = [one_fight(args.scene, seed, pilot) for seed in range(1, args.fights + 1)]
    keys = sorted(set().union(*fights))
    print(f"{args.scene}: {args.fights} fights (seeds 1-{args.fights}), every question answered as proposed")
    for k in keys:
        xs = [f[k] for f in fights]
        print(f"  {k:<60} mean {statistics.mean(xs):6.2f}  range {min(xs)}-{max(xs)}")
    asked = [sum(v for k, v in f.items() if k.startswith("asked")) for f in fights]
    print(f"  {'players asked, all kinds':<60} mean {statistics.mean(asked):6.2f}  range {min(asked)}-{max(asked)}")


if __name__ == "__main__":
    main()
