"""Cross-play evaluation: every policy on every side, on the same dice.

Each cell plays ``n`` episodes with seeds ``seed .. seed+n-1`` (paired: every
cell faces the same dice sequences), records who won and how, and the table
gets Wilson intervals and a Bradley-Terry rating per policy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.base import controllers_for, play
from fate_env import fast
from fate_env.evaluation.stats import bradley_terry, odds_against, wilson
from fate_env.rules.engine import start
from fate_env.rules.scene import Scene

from ..content.scenes import load_rules, rule_dials
from .pools import imap, start_method


@dataclass
class Cell:
    a: str
    b: str
    n: int = 0
    a_wins: int = 0
    b_wins: int = 0
    unresolved: int = 0
    exchanges: int = 0
    consequences: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    concessions: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})

    def to_json(self, sides: tuple[str, str]) -> dict[str, Any]:
        return {"policy_a": self.a, "policy_b": self.b, "episodes": self.n, "a_wins": self.a_wins,
                "b_wins": self.b_wins, "unresolved": self.unresolved, "a_win_rate": self.a_wins / self.n,
                "a_win_ci95": list(wilson(self.a_wins, self.n)), "b_win_rate": self.b_wins / self.n,
                "b_win_ci95": list(wilson(self.b_wins, self.n)), "mean_exchanges": self.exchanges / self.n,
                "consequences_per_episode": {sides[0]: self.consequences["a"] / self.n,
                                             sides[1]: self.consequences["b"] / self.n},
                "concessions_per_episode": {sides[0]: self.concessions["a"] / self.n,
                                            sides[1]: self.concessions["b"] / self.n}}


def episode(job: tuple) -> tuple[str | None, int, int, int, int, int]:
    """One paired-seed episode: (winner, exchanges, consequences and concessions of side a, of side b)."""
    scene, pa, pb, s = job
    side_a, side_b = scene.sides
    out = play(start(scene, s), controllers_for(scene, {side_a: pa, side_b: pb}, seed=s)).outcome
    a_side = {c.id for c in scene.characters if c.side == side_a}
    cons_a = sum(len(v) for cid, v in out.consequences.items() if cid in a_side)
    cons_b = sum(len(v) for cid, v in out.consequences.items() if cid not in a_side)
    conc_a = sum(1 for cid in out.conceded if cid in a_side)
    return out.winner, out.exchanges, cons_a, cons_b, conc_a, len(out.conceded) - conc_a


def episodes(jobs: list[tuple]) -> list[tuple]:
    return [episode(j) for j in jobs]


def run_episodes(jobs: list[tuple], workers: int = 1) -> list[tuple]:
    """Every episode, in job order, in this process or a pool of ``workers`` (identical results;
    a worker that dies stops the run with :class:`~.pools.WorkerDied`)."""
    if workers <= 1:
        return episodes(jobs)
    size = max(1, min(50, len(jobs) // (workers * 16)))
    # spawn, not fork (a ppo: controller's torch threads); each worker loads what it needs
    batches = imap(episodes, (jobs[i:i + size] for i in range(0, len(jobs), size)), workers, method="spawn")
    return [row for batch in batches for row in batch]


def _seats(scene: Scene, pa: str, pb: str) -> dict[str, str]:
    """Who plays each character: ``pa`` the first side, ``pb`` the second."""
    return {c.id: pa if c.side == scene.sides[0] else pb for c in scene.characters}


def _fast_cell(job: tuple) -> list[tuple]:
    """One pair's episodes as one batch on the fast core (``learned`` seats too): the same tuples as
    ``episode`` gives (an episode it hands back is played by ``episode`` on the reference)."""
    from .learned_fast import fast_outcomes
    scene, pa, pb, n, seed = job
    side_a = scene.sides[0]
    who = _seats(scene, pa, pb)
    seeds = [seed + k for k in range(n)]
    outcomes = fast_outcomes(scene, who, seeds)  # learned seats answered inside the kernel
    a_side = {c.id for c in scene.characters if c.side == side_a}
    rows = []
    for s, o in zip(seeds, outcomes):
        if o is None:
            rows.append(episode((scene, pa, pb, s)))
            continue
        cons_a = sum(len(v) for cid, v in o.consequences.items() if cid in a_side)
        conc_a = sum(1 for cid in o.conceded if cid in a_side)
        rows.append((o.winner, o.exchanges, cons_a, sum(len(v) for v in o.consequences.values()) - cons_a,
                     conc_a, len(o.conceded) - conc_a))
    return rows


def fast_cells(scene: Scene, pairs: list[tuple[str, str]], n: int, seed: int,
               workers: int = 1) -> dict[tuple[str, str], list[tuple]]:
    """The pairs the fast core can play (every seat a policy it covers, numba installed), each as
    one batch, the batches shared by ``workers`` processes."""
    if not fast.available():
        return {}
    from .learned_fast import fast_reasons
    covered = [(scene, pa, pb, n, seed) for pa, pb in pairs if not fast_reasons(scene, _seats(scene, pa, pb))]
    if workers <= 1 or len(covered) <= 1:
        rows = [_fast_cell(j) for j in covered]
    else:
        if start_method() == "fork":  # load the kernel here, once for every child (one fight of the
            _fast_cell((*covered[0][:3], 1, seed))  # first pair, by its own path: a learned seat's too)
        rows = list(imap(_fast_cell, covered, workers))
    return {(j[1], j[2]): r for j, r in zip(covered, rows)}


def crossplay(scene: Scene, policies: list[str], n: int, seed: int = 0,
              columns: list[str] | None = None, workers: int = 1, engine: str = "auto") -> dict[str, Any]:
    """``policies`` play the first side (rows) against ``columns`` (default: the same) on the second;
    ``workers`` processes share the episodes (the table is the same for any count). ``engine``
    auto: the pairs the fast core covers are played on it (the same table, faster)."""
    columns = list(columns) if columns is not None else list(policies)
    if len(scene.sides) != 2:
        raise ValueError(f"cross-play needs a scene with two sides; {scene.name} has {len(scene.sides)}")
    side_a, side_b = scene.sides
    pairs = [(pa, pb) for pa in policies for pb in columns]
    done = fast_cells(scene, pairs, n, seed, workers) if engine == "auto" else {}
    rest = iter(run_episodes([(scene, pa, pb, seed + k) for pa, pb in pairs if (pa, pb) not in done
                              for k in range(n)], workers))
    results = iter([row for pa, pb in pairs for row in (done[(pa, pb)] if (pa, pb) in done
                                                        else [next(rest) for _ in range(n)])])
    cells: list[Cell] = []
    games: list[tuple[str, str, float]] = []
    for pa, pb in pairs:
        cell = Cell(pa, pb)
        for _ in range(n):
            winner, exchanges, cons_a, cons_b, conc_a, conc_b = next(results)
            cell.n += 1
            cell.exchanges += exchanges
            score = 0.5
            if winner == side_a:
                cell.a_wins += 1
                score = 1.0
            elif winner == side_b:
                cell.b_wins += 1
                score = 0.0
            else:
                cell.unresolved += 1
            cell.consequences["a"] += cons_a
            cell.consequences["b"] += cons_b
            cell.concessions["a"] += conc_a
            cell.concessions["b"] += conc_b
            if pa != pb:
                games.append((pa, pb, score))
        cells.append(cell)
    everyone = list(dict.fromkeys(policies + columns))
    strengths, theta = bradley_terry(games) if games else ({p: 1.0 for p in everyone}, 1.0)
    ref = "random" if "random" in strengths else min(strengths, key=strengths.get)
    return {
        "scene": scene.name, "rules": scene.rules.name, "dials": changed_dials(scene.rules), "sides": [side_a, side_b], "episodes_per_cell": n,
        "seed": seed, "policies": policies, "columns": columns,
        "cells": [c.to_json((side_a, side_b)) for c in cells],
        "ratings": {p: {"strength": strengths[p], "odds_vs_" + ref: odds_against(strengths, ref)[p]}
                    for p in everyone},
        "side_advantage": theta,
        "engine": {"fast core": len(done) * n, "reference": (len(pairs) - len(done)) * n},
    }


def _short(policy: str) -> str:
    """``ppo:models/duel_rival_turns.zip`` -> ``ppo:duel_rival_turns``, to keep the columns narrow."""
    if policy.startswith("ppo:"):
        return "ppo:" + Path(policy[4:]).stem
    return policy


def _grid(result: dict[str, Any], who: str, width: int) -> list[str]:
    """One side's win rates: rows are the first side's policy, columns the second's."""
    cols = result["columns"]
    cells = {(c["policy_a"], c["policy_b"]): c for c in result["cells"]}
    cw = max([22] + [len(_short(p)) + 2 for p in cols])
    lines = [" " * width + "".join(f"{_short(p):>{cw}}" for p in cols)]
    for pa in result["policies"]:
        row = f"{_short(pa):<{width}}"
        for pb in cols:
            c = cells[(pa, pb)]
            lo, hi = c[f"{who}_win_ci95"]
            row += f"{c[f'{who}_win_rate']:>7.0%} [{lo:4.0%},{hi:4.0%}]".rjust(cw)
        lines.append(row)
    return lines


def changed_dials(rules: Any) -> dict[str, Any]:
    """The dials where ``rules`` differs from its named rule set (a scene's or ``--dial``'s changes)."""
    try:
        base = rule_dials(load_rules(rules.name))
    except Exception:  # noqa: BLE001 - a rule set not on disk: nothing to compare with
        return {}
    return {k: v for k, v in rule_dials(rules).items() if base.get(k) != v}


def format_table(result: dict[str, Any]) -> list[str]:
    """Both sides' win rates (a fight that hits the exchange cap is a win for neither, so one table
    cannot be read off the other), the ratings, and the undecided count."""
    side_a, side_b = result["sides"]
    width = max(12, max(len(_short(p)) for p in result["policies"] + result["columns"]) + 2)
    changed = ", ".join(f"{k}: {v}" for k, v in result.get("dials", {}).items())
    rules = f"{result['rules']} rules" + (f"; {changed}" if changed else "")
    head = (f"{result['scene']} ({rules}), {result['episodes_per_cell']} paired seeds per cell "
            f"from {result['seed']}; rows = {side_a}'s policy, columns = {side_b}'s policy")
    lines = [head, f"{side_a}'s win rate [95% Wilson]:", *_grid(result, "a", width),
             "", f"{side_b}'s win rate [95% Wilson]:", *_grid(result, "b", width)]
    undecided = sum(c["unresolved"] for c in result["cells"])
    if undecided:
        total = result["episodes_per_cell"] * len(result["cells"])
        lines.append(f"(the other {undecided} of {total} fights hit the exchange cap undecided: a win for neither)")
    ref = next(iter(next(iter(result["ratings"].values())).keys() - {"strength"}))
    lines.append("")
    lines.append(f"rating (Bradley-Terry, side advantage {result['side_advantage']:.2f}x for {side_a}):")
    for p, r in sorted(result["ratings"].items(), key=lambda kv: -kv[1]["strength"]):
        lines.append(f"  {_short(p):<{width}} strength {r['strength']:6.2f}   {ref.replace('_', ' ')}: {r[ref]:.0%}")
    mean_ex = sum(c["mean_exchanges"] for c in result["cells"]) / len(result["cells"])
    lines.append(f"mean exchanges per episode: {mean_ex:.1f}")
    eng = result.get("engine")
    if eng:
        lines.append(f"engine: fast core (numba) {eng['fast core']} episodes, reference (Python) {eng['reference']}")
    return lines
