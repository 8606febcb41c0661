"""A ``fate-npc eval --json`` report as a Markdown table of one side's win rates, for the README.

    fate-npc eval duel --policies random,basic,... --vs basic,tactician,search -n 200 --json > duel.json
    python scripts/eval_table.py duel.json [--side b] [--best search]

Rows are the first side's policies (``--policies``), columns the second side's (``--vs``); each cell
the chosen side's win rate with its 95% Wilson interval. With ``--best P``, a last column says
whether P's interval lies wholly above every other column's in that row ("apart"), or by how much
the intervals overlap.
"""

from __future__ import annotations

import argparse
import json


def table(report: dict, side: str = "b", best: str | None = None) -> str:
    cells = {(c["policy_a"], c["policy_b"]): c for c in report["cells"]}
    rows, cols = report["policies"], report["columns"]
    who = report["sides"][0 if side == "a" else 1]
    head = [f"{report['sides'][0]} \\ {report['sides'][1]}"] + [f"`{c}`" for c in cols]
    if best:
        head.append(f"`{best}` apart?")
    out = [f"{who}'s win rate, {report['episodes_per_cell']} fights per cell (seeds from {report['seed']}, "
           f"{report['rules']} rules)", "", "| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for r in rows:
        line = [f"`{r}`"]
        for c in cols:
            cell = cells[(r, c)]
            rate, (lo, hi) = cell[f"{side}_win_rate"], cell[f"{side}_win_ci95"]
            line.append(f"{rate:.0%} [{lo:.0%}, {hi:.0%}]")
        if best:
            mine = cells[(r, best) if side == "b" else (best, r)]
            lo = mine[f"{side}_win_ci95"][0]
            others = [cells[(r, c)][f"{side}_win_ci95"][1] for c in cols if c != best]
            top = max(others) if others else 0.0
            line.append("apart" if lo > top else f"overlap {top - lo:.0%}")
        out.append("| " + " | ".join(line) + " |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report")
    ap.add_argument("--side", choices=("a", "b"), default="b", help="whose win rate: a (rows) or b (columns)")
    ap.add_argument("--best", help="a column policy to compare with the others in each row")
    args = ap.parse_args()
    with open(args.report) as f:
        print(table(json.load(f), args.side, args.best))


if __name__ == "__main__":
    main()
