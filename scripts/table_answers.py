"""How often the live table stops for the people at it: a warehouse fight played through `play` with
`auto` typed at every question (the PCs' helper, the NPCs' proposals, the suggested names), counting
the questions asked of the players (their PCs' decisions, by kind, and the naming of their wounds)
and of the GM (gates). Reads only play's printed words, so the same script measures any version.

    python scripts/table_answers.py [--scene warehouse] [--seeds 0-9]
"""

from __future__ import annotations

import argparse
import io
import re
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fate_env.live import autopilot as ap  # noqa: E402
from fate_env.live.session import run_session  # noqa: E402


def count(scene: str, seed: int) -> Counter:
    out = io.StringIO()
    run_session(scene, seed, {}, "auto", None, None, io.StringIO("auto\n" * 2000), out, autosave=None,
                autopilot=ap.load())
    text = out.getvalue()
    asked = Counter(f"pc {kind}" for kind in re.findall(r"\n.+ decides \((\w+)\):", text))
    asked["pc name"] = text.count("Enter for '")
    asked["gm gate"] = text.count("Enter to accept, o to override")
    assert "Winner:" in text or "ended" in text, text[-500:]
    return asked


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--scene", default="warehouse")
    p.add_argument("--seeds", default="0-9")
    args = p.parse_args()
    lo, _, hi = args.seeds.partition("-")
    runs = [count(args.scene, s) for s in range(int(lo), int(hi or lo) + 1)]
    kinds = sorted(set().union(*runs))
    for k in kinds:
        values = [r[k] for r in runs]
        print(f"{k:16} median {statistics.median(values):5.1f}  per fight {values}")
    pc = [sum(v for k, v in r.items() if k.startswith("pc")) for r in runs]
    print(f"{'players, all':16} median {statistics.median(pc):5.1f}  per fight {pc}")


if __name__ == "__main__":
    main()
