"""The proof tables of a learned NPC (issue 14): it against the best scripted NPC in its seat, row by
row of the other side's policies, under the default rules, a table's likelier ruling and Core.

    python scripts/proof_tables.py warehouse --model models/warehouse_smugglers.zip \
        -n 200 --variant-n 100 --seed 20000 --workers 2 --out runs/proof/warehouse

For each variant (``condensed``; ``foe_in_zone``: ``--dial exploit_opposition=foe_in_zone``;
``core``: ``--rules core``) it runs ``fate-npc eval SCENE --policies <every scripted policy and
search> --vs <every scripted policy, search and the model> --json`` (the model's side is the
second: the scene's NPC side), saves the report, and prints the Markdown table of the model's
side's win rates with the best scripted policy of each row beside the model (eval_table.py
``--best --against``) and the run's wall time. Seeds start at ``--seed`` (20000 by default: the
training runs draw their fights' seeds from their own generators and their closing evaluation
starts at 100000).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from eval_table import table  # noqa: E402

SCRIPTED = ["random", "basic", "brute", "sniper", "tactician", "coward", "minion", "support", "stacker"]
VARIANTS = {"condensed": [], "foe_in_zone": ["--dial", "exploit_opposition=foe_in_zone"], "core": ["--rules", "core"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scene")
    ap.add_argument("--model", required=True, help="the learned NPC (a .zip; it plays the scene's second side)")
    ap.add_argument("-n", type=int, default=200, help="fights per cell under the default rules")
    ap.add_argument("--variant-n", type=int, default=100, help="fights per cell under foe_in_zone and core")
    ap.add_argument("--seed", type=int, default=20000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--variants", default=",".join(VARIANTS), help="which of condensed,foe_in_zone,core")
    ap.add_argument("--out", required=True, help="a folder for the JSON reports")
    ap.add_argument("--search-column", choices=("all", "condensed"), default="all",
                    help="condensed: the search NPC's column under the default rules only (it is the costly one)")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    model = f"ppo:{args.model}"
    rows, cols = [*SCRIPTED, "search"], [*SCRIPTED, "search", model]
    for variant in args.variants.split(","):
        n = args.n if variant == "condensed" else args.variant_n
        vs = [c for c in cols if c != "search" or variant == "condensed" or args.search_column == "all"]
        cmd = [sys.executable, "-m", "fate_env.cli", "eval", args.scene, "--policies", ",".join(rows), "--vs",
               ",".join(vs), "-n", str(n), "--seed", str(args.seed), "--workers", str(args.workers), "--json",
               *VARIANTS[variant]]
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode:
            sys.exit(f"{' '.join(cmd)}\n{done.stderr}")
        report = json.loads(done.stdout)
        (out / f"{variant}.json").write_text(json.dumps(report, indent=1))
        print(f"## {args.scene}, {variant} ({(time.perf_counter() - start) / 60:.1f} min): "
              f"fate-npc eval {' '.join(cmd[4:])}\n")
        print(table(report, "b", model, SCRIPTED))
        ranked = sorted(report["ratings"].items(), key=lambda kv: -kv[1]["strength"])
        print("\nBradley-Terry strengths over the whole population (both sides' policies): "
              + ", ".join(f"`{p}` {r['strength']:.2f}" for p, r in ranked))
        print()
        sys.stdout.flush()


if __name__ == "__main__":
    main()
