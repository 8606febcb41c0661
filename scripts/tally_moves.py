"""What an NPC does with its turns: each character's moves, tallied over fights (docs/npcs.md, "League training").

    python scripts/tally_moves.py warehouse smugglers ppo:models/warehouse_smugglers.zip --vs basic -n 30

Plays ``-n`` fights (seeds from ``--seed``) with POLICY for SIDE and ``--vs`` for every other side,
and prints, per character of SIDE, the share of its turns spent on each kind of move (an attack
by skill, taking advantage of which aspect, creating which advantage, full defense, ...), as the
narration words them, the targets left out.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.base import controllers_for, make_controller  # noqa: E402
from agents.search import describe  # noqa: E402
from fate_env.rules.engine import start  # noqa: E402
from fate_env.content.scenes import load_scene  # noqa: E402

_TARGET = re.compile(r"^(attacks|backs) \S+|^(creates .*) on \S+$")


def move(words: str) -> str:
    """The narration's words for a move without its target ("attacks X with Fight")."""
    m = _TARGET.match(words)
    if not m:
        return words
    if m.group(1):
        return words.replace(m.group(0), f"{m.group(1)} X", 1)
    return f"{m.group(2)} on X"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scene")
    ap.add_argument("side")
    ap.add_argument("policy")
    ap.add_argument("--vs", default="basic", help="the other sides' policy")
    ap.add_argument("-n", type=int, default=30)
    ap.add_argument("--seed", type=int, default=30_000)
    args = ap.parse_args()
    scene = load_scene(args.scene)
    npc = make_controller(args.policy)
    mine = {c.id for c in scene.characters if c.side == args.side}
    moves: dict[str, Counter] = {c: Counter() for c in sorted(mine)}
    wins = 0
    for i in range(args.n):
        c = start(scene, args.seed + i)
        others = controllers_for(scene, {s: args.vs for s in scene.sides if s != args.side}, seed=i)
        while c.pending is not None:
            d = c.pending
            index, why = (npc if d.actor in mine else others[d.actor]).choose(c, d)
            if d.actor in mine and d.kind == "turn":
                moves[d.actor][move(describe(c, d.actor, d.options[index]))] += 1
            c.step(index, why)
        wins += c.outcome.winner == args.side
    print(f"{args.policy} as {args.side} against {args.vs}: won {wins} of {args.n} fights")
    for who, tally in moves.items():
        total = sum(tally.values())
        if not total:
            continue
        print(f"{who} ({total} turns): " + "; ".join(f"{k} {v / total:.0%}" for k, v in tally.most_common(8)))


if __name__ == "__main__":
    main()
