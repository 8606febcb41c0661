"""How much strength a cheaper general NPC would cost (issue 53's pace): the shipped `learned` file's own turns
on the self-play scenes, cloned into fresh networks of several widths; each clone's agreement with it, its
batched forward's cost per decision, and (with ``--measure``) its wins on the generated validation scenes.

The 0.2x floor leaves 29-65 us per NPC turn (``bench_learned.py --budget``); the shipped width-64 network's
forward alone costs more than that even batched. A narrower network is the first half of the way there (the
other: the entity rows written inside the kernel), and this says what it gives up before anyone builds it.

    python scripts/narrow_npc.py [--fights 800] [--widths 16,32,64] [--epochs 15] [--out DIR] [--measure]

The teacher plays as ``fate-npc learn --distill`` has it play (``learn/distill.py``: its best move, against a
script drawn per fight), and each clone is the one that command makes with ``--width``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from bench_learned import forward  # noqa: E402  (this folder: the same timing as its --budget table)
from fate_env.learn.distill import record  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fights", type=int, default=800)
    ap.add_argument("--widths", default="16,32,64")
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--teacher", help="the policy file cloned (default: the shipped learned file)")
    ap.add_argument("--out", default="runs/narrow", help="where the clones are written")
    ap.add_argument("--measure", action="store_true",
                    help="also each clone's wins on the eight validation scenes (general_npc.py, 20 fights a PC policy)")
    args = ap.parse_args()
    from agents.learned import shipped_path
    from fate_env.environment.entity_policy import EntityPolicy
    from fate_env.learn.general import clone, save
    teacher = args.teacher or str(shipped_path())
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    rec = record(teacher, args.fights, args.workers)
    print(f"recorded {len(rec)} turns of {teacher} in {args.fights} fights ({time.perf_counter() - start:.0f} s); "
          f"it keeps its script's move on {np.mean(rec.script == rec.chosen):.1%}")
    sample = [rec.entities(i) for i in range(0, len(rec), max(1, len(rec) // 300))]
    files = {"teacher": teacher}
    print("\n| network | agrees with the teacher (held-out fights) | forward, batches of 256 (us per decision) | fit (s) |")
    print("| --- | --- | --- | --- |")
    print(f"| the teacher (width {EntityPolicy(teacher).meta.get('width')}) | - | {forward(EntityPolicy(teacher), sample, 256, 3):.0f} | - |",
          flush=True)
    for width in (int(w) for w in args.widths.split(",")):
        fitted = clone(rec, epochs=args.epochs, width=width, log=None)
        path = out / f"width-{width}.zip"
        save(path, fitted.net)
        files[f"width {width}"] = str(path)
        print(f"| width {width} | {fitted.held_agree:.1%} | {forward(EntityPolicy(path), sample, 256, 3):.0f} | "
              f"{fitted.seconds:.0f} |", flush=True)
    if args.measure:
        only = ",".join(f"learned:{p}" for p in files.values())
        subprocess.run([sys.executable, str(Path(__file__).with_name("general_npc.py")), "--scenes", "none",
                        "--generated", "8", "--generated-from", "800000", "-n", "20", "--only", only,
                        "--workers", str(args.workers), "--json", str(out / "validation.json")], check=True)


if __name__ == "__main__":
    main()
