"""How often a live session stops the table: answers per fight, NPC side and PC side.

Plays ``fate-npc play SCENE --seed S`` through a pipe, answering every prompt with ``auto`` (the
PCs' helper, the NPCs' proposals, the suggested consequence names), and counts the prompts from
what the terminal shows, so the same count runs on any version of the tool (``--repo`` points at
another checkout, e.g. a clone of an older commit, to measure "before"):

* PC decisions: a player's menu (``> ``);
* NPC decisions: ``Enter to accept, o to override`` (every NPC decision before the autopilot;
  since, only the GM gates, a pause or an override);
* consequence names: ``Enter for '...'``, split by whether a PC or an NPC took it (and the names of
  aspects a PC created, where the version asks them).

The PC decisions are also counted by kind (``Cynere decides (invoke):``). With ``--seeds 0-9`` the
figures are medians over the fights, each fight's listed.

    python scripts/count_answers.py [--scene warehouse] [--seeds 5 | 0-9] [--repo PATH] [-- extra play flags]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fate_env.content.scenes import load_scene  # noqa: E402


def count(text: str, pcs: set[str]) -> dict[str, int]:
    """The prompts in a session's output, by kind."""
    # the line before each naming prompt says whose wound it is (it may follow an earlier prompt, as a
    # pipe does not echo the answer)
    lines = text.split("\n")
    asked = [lines[i - 1] for i, line in enumerate(lines) if line.startswith("  Enter for '") and i]
    names = [m.group(1).strip() for m in (re.search(r"([^:>]+?) takes a \w+ consequence", line) for line in asked)
             if m]
    pc_names = sum(1 for n in names if n in pcs)
    got = {"PC decisions": len(re.findall(r"(?:^|\n)> ", text)),
           "NPC decisions": text.count("Enter to accept, o to override") + text.count("GM's choice> "),
           "GM gates": text.count("GM gate:"),
           "PC consequence names": pc_names, "NPC consequence names": len(names) - pc_names,
           "PC aspect names": sum(" creates an aspect: " in line for line in asked)}
    for kind in re.findall(r"\n.+ decides \((\w+)\):", text):
        got[f"  of which {kind}"] = got.get(f"  of which {kind}", 0) + 1
    return got


def play(repo: Path, scene: str, seed: int, extra: list[str]) -> str:
    with tempfile.TemporaryDirectory() as state:
        env = {**os.environ, "XDG_STATE_HOME": state, "COLUMNS": "110"}
        r = subprocess.run([sys.executable, "-m", "fate_env.cli", "play", scene, "--seed", str(seed), *extra],
                           cwd=repo, env=env, input="auto\n" * 2000, capture_output=True, text=True, timeout=600)
    if "Winner:" not in r.stdout and "Over after" not in r.stdout:
        raise SystemExit(f"the session did not reach its end:\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
    return r.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scene", default="warehouse")
    ap.add_argument("--seeds", default="5", help="a seed, or a range A-B (medians over the fights)")
    ap.add_argument("--repo", type=Path, default=ROOT, help="the checkout whose fate-npc plays (default: this one)")
    ap.add_argument("extra", nargs="*", help="more flags for play (after --)")
    args = ap.parse_args()
    pcs = {c.name for c in load_scene(args.scene).characters if c.kind == "pc"}
    lo, _, hi = args.seeds.partition("-")
    seeds = range(int(lo), int(hi or lo) + 1)
    fights = [count(play(args.repo, args.scene, seed, args.extra), pcs) for seed in seeds]
    keys = list(dict.fromkeys(k for got in fights for k in got))
    totals = [sum(v for k, v in got.items() if k != "GM gates" and not k.startswith(" ")) for got in fights]
    print(f"{args.scene} --seeds {args.seeds} ({args.repo}{' ' + ' '.join(args.extra) if args.extra else ''}): "
          f"{statistics.median(totals):g} answers" + (f" (median; per fight {totals})" if len(fights) > 1 else ""))
    for k in keys:
        values = [got.get(k, 0) for got in fights]
        print(f"  {k:24} {statistics.median(values):g}" + (f"   {values}" if len(fights) > 1 else ""))


if __name__ == "__main__":
    main()
