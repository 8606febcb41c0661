"""``bench``'s report: each side's figures split by win and by loss, paired differences between
variants on the same seeds, the sweep's table, ``--tune``'s lines, the honest footnotes (what a
scene asks for that the run does not play) and the plot."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from fate_env.evaluation.stats import Z95, wilson

SEVERITIES = ("mild", "moderate", "severe", "extreme")
#: how badly a fight left a PC, for "worst-off" (bench's report, the designer's judge) and the designer's harm to
#: the PCs: each consequence by its severity, being taken out ``TAKEN_OUT_HARM``
HARM = {"mild": 1, "moderate": 2, "severe": 3, "extreme": 4}
TAKEN_OUT_HARM = 10
_HARM_BY_SEVERITY = np.array([HARM[s] for s in SEVERITIES], dtype=np.int64)


def harms(taken_out: np.ndarray, severities: np.ndarray) -> np.ndarray:
    """How badly each fight left each PC, by HARM and TAKEN_OUT_HARM: from whether it was taken out (any shape)
    and how many consequences of each severity it took (that shape, then one axis in SEVERITIES' order). The
    one place the score is worked out: bench's report builds these arrays from records, the designer's judge
    from the fast core's."""
    return TAKEN_OUT_HARM * taken_out.astype(np.int64) + severities.astype(np.int64) @ _HARM_BY_SEVERITY


def worst_off_parts(harm: np.ndarray) -> np.ndarray:
    """Each PC's part of "came off worst" in each fight, from a fights x PCs array of harm: the most harmed
    share the fight equally, and none has a part when no PC was harmed. A fight in which every PC is taken
    out alike has no single worst-off PC; counting it for the first listed blamed one PC for every fight
    the PCs lost. The designer's judge (design/judge.py) and bench's report both count by this."""
    top = harm.max(axis=1, keepdims=True)
    most = (harm == top) & (top > 0)
    return most / np.maximum(most.sum(axis=1, keepdims=True), 1)


def worst_off_counts(records: list[dict[str, Any]], pcs: list[str]) -> dict[str, float]:
    """Over ``records``, the fights each PC came off worst (worst_off_parts, summed)."""
    if not records or not pcs:
        return dict.fromkeys(pcs, 0.0)
    out = np.array([[r["characters"][p]["taken_out"] for p in pcs] for r in records], dtype=bool)
    cons = np.zeros(out.shape + (len(SEVERITIES),), dtype=np.int64)
    for f, r in enumerate(records):
        for j, p in enumerate(pcs):
            for sev in r["characters"][p]["consequences"]:
                cons[f, j, SEVERITIES.index(sev)] += 1
    parts = worst_off_parts(harms(out, cons)).sum(axis=0)
    return {p: float(x) for p, x in zip(pcs, parts)}


def _mean(xs: Iterable[float]) -> float | None:
    xs = list(xs)
    return sum(xs) / len(xs) if xs else None


def side_summary(records: list[dict[str, Any]], side: str) -> dict[str, Any]:
    n = len(records)
    wins = sum(1 for r in records if r["winner"] == side)
    lo, hi = wilson(wins, n)
    split = {}
    for label, subset in (("when_won", [r for r in records if r["winner"] == side]),
                          ("when_lost", [r for r in records if r["winner"] not in (side, None)])):
        split[label] = {
            "episodes": len(subset),
            "exchanges": _mean(r["exchanges"] for r in subset),
            "consequences": {k: _mean(r["sides"][side]["consequences"][k] for r in subset) for k in SEVERITIES},
            "taken_out": _mean(r["sides"][side]["taken_out"] for r in subset),
            "conceded": _mean(r["sides"][side]["conceded"] for r in subset),
            "fate_points_spent": _mean(r["sides"][side]["fate_points"] for r in subset),
            "invokes": _mean(r["sides"][side]["invokes"] for r in subset),
            "advantages": _mean(r["sides"][side]["advantages"] for r in subset),
        }
    return {"wins": wins, "episodes": n, "win_rate": wins / n if n else 0.0, "ci95": [lo, hi], **split}


def paired_difference(a: list[dict], b: list[dict], side: str) -> dict[str, float]:
    """Win-rate difference of variant a minus b on the same seeds, with a 95% interval."""
    d = [(ra["winner"] == side) - (rb["winner"] == side) for ra, rb in zip(a, b)]
    n = len(d)
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n) if n else 0.0
    return {"difference": mean, "ci95": [mean - half, mean + half]}


def coverage(scene) -> list[str]:
    """What the scene asks for that this run does not play, per side (an honest footnote)."""
    notes: dict[str, list[str]] = {}
    for ch in scene.characters:
        side = notes.setdefault(ch.side, [])
        if (ch.weapon or ch.armor) and not scene.rules.weapons:
            side.append(f"{ch.id}'s weapon/armor ratings (the weapons dial is off)")
        for st in ch.stunts:
            if st.kind == "bonus" and st.when and st.when.startswith("aspect:"):
                name = st.when.split(":", 1)[1].strip()
                templates = {t.name for t in scene.advantages}
                declared = {a.name for a in scene.aspects} | {a for c in scene.characters for a in c.aspects}
                if name not in templates | declared:
                    side.append(f"{ch.id}'s stunt {st.name!r}: no aspect {name!r} can come into play")
    return [f"{s}: " + ("; ".join(v) if v else "everything it uses is modelled") for s, v in notes.items()]


def carried(scene, records: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Who carried the fight, per PC: its part of the shifts the PCs dealt (over every fight), the
    fights it came off worst (worst_off: ties shared), and the fights it was taken out."""
    pcs = [c.id for c in scene.characters if c.kind == "pc"]
    n = len(records) or 1
    total = sum(r["characters"][p]["shifts_dealt"] for r in records for p in pcs) or 1
    worst = worst_off_counts(records, pcs)
    return {p: {"share_of_shifts": sum(r["characters"][p]["shifts_dealt"] for r in records) / total,
                "shifts_dealt": sum(r["characters"][p]["shifts_dealt"] for r in records) / n,
                "assists": sum(r["characters"][p]["assists"] for r in records) / n,
                "worst_off": worst[p] / n,
                "taken_out": sum(r["characters"][p]["taken_out"] for r in records) / n} for p in pcs}


def carried_lines(scene, records: list[dict[str, Any]]) -> list[str]:
    figures = carried(scene, records)
    if not figures:
        return []
    equal = 1 / len(figures)
    out = [f"  who carried the fight (an equal share of the PCs' shifts is {equal:.0%}):"]
    out += [f"    {p:>12}: {f['share_of_shifts']:6.1%} of the shifts ({f['shifts_dealt']:.1f} a fight), "
            f"{f['assists']:.2f} assists a fight (its free invokes an ally spent), worst-off in "
            f"{f['worst_off']:.1%}, taken out in {f['taken_out']:.1%}" for p, f in figures.items()]
    return out


def histogram(records: list[dict[str, Any]]) -> dict[int, int]:
    return dict(sorted(Counter(r["exchanges"] for r in records).items()))


def variant_summaries(scene, grid: list[dict], by_variant: list[list[dict]], focus: str,
                      baseline: int) -> list[dict[str, Any]]:
    """Each variant in a few numbers (``--json``'s ``summary``): every side's win rate with its
    Wilson interval, the focus side's paired difference against the scene as written, the mean
    fight length, unresolved fights and the disaster counts."""
    out = []
    for vi, (params, recs) in enumerate(zip(grid, by_variant)):
        n = len(recs)
        sides = {side: {k: v for k, v in side_summary(recs, side).items() if k in ("wins", "episodes", "win_rate", "ci95")}
                 for side in scene.sides}
        diff = paired_difference(recs, by_variant[baseline], focus) if vi != baseline else None
        out.append({
            "variant": params, "baseline": vi == baseline, "sides": sides, "focus": focus,
            "difference_vs_baseline": diff,
            "exchanges": _mean(r["exchanges"] for r in recs),
            "carried": carried(scene, recs),
            "unresolved": sum(r["unresolved"] for r in recs),
            "disasters": {"pc_taken_out": sum(1 for r in recs if r["pc_taken_out"]),
                          "pc_severe_or_extreme": sum(1 for r in recs if r["pc_severe"])},
            "episodes": n,
        })
    return out


def summary_table(summaries: list[dict[str, Any]]) -> list[str]:
    """The sweep at a glance: variant x focus win rate [CI] x difference [CI] x exchanges."""
    focus = summaries[0]["focus"]
    labels = [", ".join(f"{k}={v}" for k, v in s["variant"].items()) or "the scene as written" for s in summaries]
    width = max(len("variant"), *(len(x) for x in labels))
    out = [f"  {'variant':<{width}}  {focus + ' win rate [95%]':>24}  {'difference [95%, paired]':>28}  exchanges",
           f"  {'-' * width}  {'-' * 24}  {'-' * 28}  ---------"]
    for label, s in zip(labels, summaries):
        side = s["sides"][focus]
        lo, hi = side["ci95"]
        rate = f"{side['win_rate']:.1%} [{lo:.1%}, {hi:.1%}]"
        d = s["difference_vs_baseline"]
        diff = "(baseline)" if d is None else f"{d['difference']:+.1%} [{d['ci95'][0]:+.1%}, {d['ci95'][1]:+.1%}]"
        out.append(f"  {label:<{width}}  {rate:>24}  {diff:>28}  {s['exchanges']:9.1f}")
    return out


# -- the text report and the plot ------------------------------------------------

def report_lines(scene, grid: list[dict], by_variant: list[list[dict]], focus: str, n: int, seed: int,
                 baseline: int) -> list[str]:
    """The bench report: per variant and side, win rates with intervals, averages split by win
    and by loss, paired differences against the baseline, unresolved fights, disasters, and the
    histogram of fight lengths."""
    out = [f"{scene.title} ({scene.rules.name} rules): {n} episodes per variant, seed {seed}, "
           f"paired seeds across variants"]
    out += [f"  coverage: {line}" for line in coverage(scene)]
    for vi, (params, recs) in enumerate(zip(grid, by_variant)):
        label = ", ".join(f"{k}={v}" for k, v in params.items()) or "the scene as written"
        out.append(f"\n== {label} ==")
        for side in scene.sides:
            out += _side_lines(side_summary(recs, side), side, len(recs))
        if len(grid) > 1 and vi != baseline:
            d = paired_difference(recs, by_variant[baseline], focus)
            base_label = ", ".join(f"{k}={v}" for k, v in grid[baseline].items())
            out.append(f"  vs the baseline ({base_label}): {focus} win rate {d['difference']:+.1%} "
                       f"[95% {d['ci95'][0]:+.1%}, {d['ci95'][1]:+.1%}] (same seeds)")
        out.append(f"  unresolved (hit the exchange cap, kept apart): {sum(r['unresolved'] for r in recs)}")
        out.append(f"  disasters: a PC taken out in {sum(1 for r in recs if r['pc_taken_out'])} episode(s); "
                   f"a severe or extreme consequence on a PC in {sum(1 for r in recs if r['pc_severe'])}")
        worst = worst_off_counts(recs, [c.id for c in scene.characters if c.kind == "pc"])
        if any(worst.values()):
            who = max(worst, key=worst.__getitem__)
            out.append(f"  worst-off PC most often: {who} (in {worst[who] / len(recs):.0%} of fights, "
                       "a fight's most harmed sharing it)")
        out += carried_lines(scene, recs)
        hist = histogram(recs)
        top = max(hist.values())
        out.append("  exchanges: " + "  ".join(f"{k}:{v}" for k, v in hist.items()))
        out += [f"    {k:>3} {'#' * max(1, round(40 * v / top))}" for k, v in hist.items()]
    return out


def tune_lines(path: str, grid: list[dict], by_variant: list[list[dict]], focus: str, target: float,
               n: int) -> list[str]:
    """``--tune``: each value's win rate for the focus side, the one closest to the target marked."""
    rows = []
    for g, recs in zip(grid, by_variant):
        wins = sum(r["winner"] == focus for r in recs)
        lo, hi = wilson(wins, len(recs))
        rows.append((abs(wins / len(recs) - target), g[path], wins / len(recs), lo, hi))
    best = min(rows, key=lambda r: (r[0], r[1]))
    out = [f"tuning {path} for a {focus} win rate of {target:.0%} ({n} paired seeds each):"]
    for _, v, rate, lo, hi in rows:
        mark = "  <- closest" if v == best[1] else ""
        out.append(f"  {path} = {v!s:>4}: {rate:6.1%} [{lo:.1%}, {hi:.1%}]{mark}")
    return out


def _side_lines(sm: dict[str, Any], side: str, n: int) -> list[str]:
    lo, hi = sm["ci95"]
    out = [f"  {side:>12} wins {sm['win_rate']:6.1%} [95% {lo:.1%}, {hi:.1%}]  ({sm['wins']}/{n})"]
    for label in ("when_won", "when_lost"):
        x = sm[label]
        if not x["episodes"]:
            continue
        cons = ", ".join(f"{k} {x['consequences'][k]:.2f}" for k in SEVERITIES if x["consequences"][k])
        out.append(f"      {label.replace('_', ' '):>9} ({x['episodes']}): {x['exchanges']:.1f} exchanges; "
                   f"taken out {x['taken_out']:.2f}, conceded {x['conceded']:.2f}; consequences {cons or 'none'}; "
                   f"fate points {x['fate_points_spent']:.2f}, invokes {x['invokes']:.2f}, "
                   f"advantages {x['advantages']:.2f}")
    return out


def plot(path: str, grid: list[dict], by_variant: list[list[dict]], focus: str, varies: list) -> None:
    """The sweep (win rate with its 95% band against the varied value) and the fight lengths."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2 if varies else 1, figsize=(11 if varies else 6, 4), squeeze=False)
    ax_hist = axes[0][-1]
    hist = histogram(by_variant[0])
    ax_hist.bar(list(hist), list(hist.values()), color="#4a7ab5")
    ax_hist.set_xlabel("exchanges")
    ax_hist.set_ylabel("episodes")
    ax_hist.set_title("length of the fight (first variant)")
    if varies:
        ax = axes[0][0]
        path0 = varies[0][0]
        xs = [g[path0] for g in grid]
        rates, los, his = [], [], []
        for recs in by_variant:
            wins = sum(r["winner"] == focus for r in recs)
            lo, hi = wilson(wins, len(recs))
            rates.append(wins / len(recs))
            los.append(lo)
            his.append(hi)
        if len(varies) == 1 and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in xs):
            ax.plot(xs, rates, marker="o", color="#b54a4a")
            ax.fill_between(xs, los, his, alpha=0.25, color="#b54a4a")
            ax.set_xlabel(path0)
        else:
            labels = [", ".join(f"{k.split('.')[-1]}={v}" for k, v in g.items()) for g in grid]
            pos = list(range(len(grid)))
            ax.errorbar(pos, rates, yerr=[[r - lo_ for r, lo_ in zip(rates, los)], [h - r for r, h in zip(rates, his)]],
                        fmt="o", color="#b54a4a")
            ax.set_xticks(pos, labels, rotation=30, ha="right")
        ax.set_ylim(0, 1)
        ax.set_ylabel(f"{focus} win rate (95% Wilson)")
        ax.set_title("win rate across the sweep")
    fig.tight_layout()
    from fate_env.content.paths import atomic_open
    try:
        with atomic_open(path, "wb") as fh:  # the whole image or none
            fig.savefig(fh, dpi=110, format=Path(path).suffix.lstrip(".").lower() or "png")
    finally:
        plt.close(fig)
