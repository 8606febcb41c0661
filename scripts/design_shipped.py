"""`fate-npc design` on every shipped scene the fast core plays: the designed side, the target, what an
independent 10,000-fight bench of the designed file gives, each PC's share of the PCs' contribution, and
the minutes it took (docs/design.md's table).

    python scripts/design_shipped.py [--target 0.7] [--seed 0] [--scenes warehouse,ghoul]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import tempfile
import time
from pathlib import Path

from fate_env.cli import main as cli
from fate_env.content.scenes import list_scenes, load_scene
from fate_env.fast import covered


def designable(name: str) -> str | None:
    """The NPCs' side of a shipped scene the fast core plays (None: not one the designer takes)."""
    scene = load_scene(name)
    if covered(scene):
        return None
    pcs = {c.side for c in scene.characters if c.kind == "pc"}
    others = [s for s in scene.sides if s not in pcs]
    return others[0] if pcs and len(others) == 1 else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", type=float, default=0.7)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--scenes", help="comma-separated (default: every shipped scene it can design)")
    args = ap.parse_args()
    names = args.scenes.split(",") if args.scenes else list_scenes()
    print("| scene | designed side | target | PCs win (10,000 fresh fights) | each PC's share of the PCs' contribution "
          "| left behind | knobs moved | minutes |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            side = designable(name)
            if side is None:
                continue
            out = Path(tmp) / f"{name}.yaml"
            start = time.monotonic()
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                code = cli(["design", name, "--side", side, "--target-win", str(args.target), "--seed",
                            str(args.seed), "--out", str(out)])
            minutes = (time.monotonic() - start) / 60
            if code:
                print(f"| {name} | {side} | {args.target:.0%} | failed (exit {code}) | | | | {minutes:.1f} |")
                continue
            text = buf.getvalue()
            win = next(line.split("win ", 1)[1] for line in text.splitlines() if "  the PCs win" in line)
            shares = [line.split(":")[0].strip() + " " + line.split(":")[1].split(" of")[0].strip()
                      for line in text.splitlines() if "of the PCs' contribution" in line]
            behind = next(("none" if line.strip() == "no PC left behind" else line.split(": ", 1)[1])
                          for line in text.splitlines() if line.strip() == "no PC left behind"
                          or line.startswith("  left behind: "))
            knobs = next(line.split("(", 1)[1].split(")")[0] for line in text.splitlines()
                         if line.startswith("knobs moved"))
            print(f"| {name} | {side} | {args.target:.0%} | {win} | {', '.join(shares)} | {behind} | {knobs} "
                  f"| {minutes:.1f} |", flush=True)


if __name__ == "__main__":
    main()
