"""How the scripted policies invoke, before and after the GM-like defaults (issue 51).

Plays each scene with `basic` NPCs (and `--pcs` PCs), on the same dice, twice: with the defaults
(`fitting_invokes: true`, `fate_points_on_any_roll: false`) and with the behaviour before them
(`fitting_invokes: false`, `fate_points_on_any_roll: true`), and counts per fight the invokes of
the other party's aspects by the kind of aspect, the fate points paid on rolls that decide no harm,
and the PCs' wins. Prints a table per scene.

    python scripts/npc_invokes.py --fights 300 warehouse ghoul duel
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.basic import BasicController  # noqa: E402
from agents.base import controllers_for, play  # noqa: E402
from fate_env.content.scenes import load_scene  # noqa: E402
from fate_env.rules import events as ev  # noqa: E402
from fate_env.rules.engine import start  # noqa: E402

SETTINGS = {"before": {"fitting_invokes": False, "fate_points_on_any_roll": True}, "now": {}}


def fight(scene, seed: int, params: dict, pcs: str) -> tuple[Counter, bool]:
    c = start(scene, seed)
    who = controllers_for(scene, {ch.id: pcs for ch in scene.characters if ch.kind == "pc"}, seed=seed)
    who.update({ch.id: BasicController(seed, **params) for ch in scene.characters if ch.is_npc})
    play(c, who)
    kinds = {}
    counts: Counter = Counter()
    action = None
    for e in c.events:
        if isinstance(e, ev.Rolled) and e.action != "defend":
            action = e.action
        if isinstance(e, ev.Invoked):
            a = c.t.aspects.get(e.aspect_id)
            if e.hostile_to is not None or (a is not None and a.owner not in (None, e.invoker)
                                            and c.t.f[a.owner].sheet.side != c.t.f[e.invoker].sheet.side):
                kind = kinds.get(e.aspect_id) or (a.role if a is not None and a.kind == "character" else
                                                  str(a.kind) if a is not None else "gone")
                counts[f"hostile {kind}"] += 1
            if not e.free and action not in ("attack", "contest"):
                counts["fp off harm"] += 1
            if not e.free:
                counts["fp"] += 1
    won = c.outcome.winner == "pcs" or c.outcome.winner == next((ch.side for ch in scene.characters if ch.kind == "pc"), None)
    return counts, won


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenes", nargs="*", default=["warehouse", "ghoul", "duel"])
    ap.add_argument("--fights", type=int, default=300)
    ap.add_argument("--pcs", default="basic", help="the PCs' policy (the NPCs play basic, before and now)")
    args = ap.parse_args()
    for name in args.scenes:
        scene = load_scene(name)
        rows = {}
        for label, params in SETTINGS.items():
            total: Counter = Counter()
            wins = 0
            for seed in range(args.fights):
                counts, won = fight(scene, seed, params, args.pcs)
                total.update(counts)
                wins += won
            rows[label] = (total, wins)
        keys = sorted({k for total, _ in rows.values() for k in total})
        print(f"\n{name}: per fight over {args.fights} fights (NPCs basic, PCs {args.pcs}, the same dice)")
        print("| | " + " | ".join(keys) + " | PCs win |")
        print("| --- " * (len(keys) + 2) + "|")
        for label, (total, wins) in rows.items():
            cells = [f"{total[k] / args.fights:.2f}" for k in keys]
            print(f"| {label} | " + " | ".join(cells) + f" | {100 * wins / args.fights:.1f}% |")


if __name__ == "__main__":
    main()
