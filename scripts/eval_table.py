"""A ``fate-npc eval --json`` report as a Markdown table of one side's win rates, for the docs' tables.

    fate-npc eval duel --policies random,basic,... --vs basic,tactician,search -n 200 --json > duel.json
    python scripts/eval_table.py duel.json [--side b] [--best search] [--against basic,tactician]

Rows are the first side's policies (``--policies``), columns the second side's (``--vs``); each cell
the chosen side's win rate with its 95% Wilson interval. With ``--best P``, a last column says
whether P's interval lies wholly above every other column's in that row ("apart"), or by how much
the intervals overlap; ``--against`` names the columns to compare with (default: all the others),
e.g. the scripted ones only, and a column before it names the best of them in each row.
"""

from __future__ import annotations

import argparse
import json


def verdict(mine: dict, rivals: list[dict], side: str) -> str:
    """Whether ``mine``'s interval lies above every rival's ("apart"), below the best one's
    ("below, apart"), or how far the intervals overlap (and on which side of the best it falls)."""
    if not rivals:
        return "apart"
    lo, hi = mine[f"{side}_win_ci95"]
    top = max(c[f"{side}_win_ci95"][1] for c in rivals)
    leader = max(rivals, key=lambda c: c[f"{side}_win_rate"])
    if lo > top:
        return "apart"
    if hi < leader[f"{side}_win_ci95"][0]:
        return "below, apart"
    below = mine[f"{side}_win_rate"] < leader[f"{side}_win_rate"]
    return f"{'below, ' if below else ''}overlap {top - lo:.1%}"


def table(report: dict, side: str = "b", best: str | None = None, against: list[str] | None = None) -> str:
    cells = {(c["policy_a"], c["policy_b"]): c for c in report["cells"]}
    rows, cols = report["policies"], report["columns"]
    who = report["sides"][0 if side == "a" else 1]
    head = [f"{report['sides'][0]} \\ {report['sides'][1]}"] + [f"`{c}`" for c in cols]
    if best and against:
        head.append("best of " + ", ".join(against))
    if best:
        head.append(f"`{best}` apart?")
    changed = ", ".join(f"{k}: {v}" for k, v in report.get("dials", {}).items())
    out = [f"{who}'s win rate, {report['episodes_per_cell']} fights per cell (seeds from {report['seed']}, "
           f"{report['rules']} rules{'; ' + changed if changed else ''})", "", "| " + " | ".join(head) + " |",
           "|" + " --- |" * len(head)]
    for r in rows:
        line = [f"`{r}`"]
        for c in cols:
            cell = cells[(r, c)]
            rate, (lo, hi) = cell[f"{side}_win_rate"], cell[f"{side}_win_ci95"]
            line.append(f"{rate:.0%} [{lo:.0%}, {hi:.0%}]")
        if best:
            mine = cells[(r, best) if side == "b" else (best, r)]
            lo = mine[f"{side}_win_ci95"][0]
            rivals = [c for c in cols if c != best and (against is None or c in against)]
            if against:
                leader = max(rivals, key=lambda c: cells[(r, c)][f"{side}_win_rate"])
                line.append(f"`{leader}` {cells[(r, leader)][f'{side}_win_rate']:.0%}")
            line.append(verdict(mine, [cells[(r, c)] for c in rivals], side))
        out.append("| " + " | ".join(line) + " |")
    return "\n".join(out)


def compact(report: dict, best: str, against: list[str], side: str = "b", also: tuple[str, ...] = ("search",)) -> str:
    """One line per row: the best of ``against`` (named), the ``also`` columns, ``best``, the verdict."""
    cells = {(c["policy_a"], c["policy_b"]): c for c in report["cells"]}
    cols = report["columns"]
    also = tuple(a for a in also if a in cols and a != best)
    other = report["sides"][0 if side == "b" else 1]
    head = [f"{other}'s policy", "best scripted", *(f"`{a}`" for a in also), f"`{best}`", "apart?"]
    changed = ", ".join(f"{k}: {v}" for k, v in report.get("dials", {}).items())
    out = [f"{report['sides'][1 if side == 'b' else 0]}'s win rate, {report['episodes_per_cell']} fights per cell "
           f"(seeds from {report['seed']}, {report['rules']} rules{'; ' + changed if changed else ''})", "",
           "| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]

    def show(c: dict) -> str:
        lo, hi = c[f"{side}_win_ci95"]
        return f"{c[f'{side}_win_rate']:.0%} [{lo:.0%}, {hi:.0%}]"

    for r in report["policies"]:
        rivals = [cells[(r, c)] for c in cols if c in against]
        lead = max((c for c in cols if c in against), key=lambda c: cells[(r, c)][f"{side}_win_rate"])
        mine = cells[(r, best)]
        line = [f"`{r}`", f"`{lead}` {show(cells[(r, lead)])}", *(show(cells[(r, a)]) for a in also), show(mine),
                verdict(mine, rivals, side)]
        out.append("| " + " | ".join(line) + " |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report")
    ap.add_argument("--side", choices=("a", "b"), default="b", help="whose win rate: a (rows) or b (columns)")
    ap.add_argument("--best", help="a column policy to compare with the others in each row")
    ap.add_argument("--against", help="the columns to compare it with, comma-separated (default: all the others)")
    ap.add_argument("--compact", action="store_true",
                    help="with --best and --against: one line per row (best of --against, search, --best, verdict)")
    args = ap.parse_args()
    against = [a.strip() for a in args.against.split(",")] if args.against else None
    with open(args.report) as f:
        report = json.load(f)
    if args.compact:
        if not (args.best and against):
            ap.error("--compact needs --best and --against")
        print(compact(report, args.best, against, args.side))
    else:
        print(table(report, args.side, args.best, against))


if __name__ == "__main__":
    main()
