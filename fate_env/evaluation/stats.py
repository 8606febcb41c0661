"""Interval and rating math for evaluations: Wilson intervals, Bradley-Terry strengths."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def bradley_terry(games: Sequence[tuple[str, str, float]], iterations: int = 500,
                  tol: float = 1e-10, prior: bool = True) -> tuple[dict[str, float], float]:
    """Strengths from games (first player, second player, first's score in [0, 1]; a draw is 0.5),
    with a first-player (side) advantage ``theta``: P(i beats j as first) = theta*p_i / (theta*p_i + p_j).
    Fitted by Hunter's MM iterations; strengths are scaled to a geometric mean of 1. ``prior``
    adds one virtual draw per ordered pair, so a policy that never wins keeps a finite rating."""
    players = sorted({g[0] for g in games} | {g[1] for g in games})
    if prior:
        games = list(games) + [(a, b, 0.5) for a in players for b in players if a != b]
    p = {k: 1.0 for k in players}
    theta = 1.0
    wins = {k: 0.0 for k in players}
    first_wins = 0.0
    count: dict[tuple[str, str], int] = {}  # games per ordered pair: the MM sums depend only on the pair
    for a, b, s in games:
        wins[a] += s
        wins[b] += 1 - s
        first_wins += s
        count[(a, b)] = count.get((a, b), 0) + 1
    pairs = list(count.items())
    for _ in range(iterations):
        old = dict(p)
        for k in players:
            denom = 0.0
            for (a, b), n in pairs:
                if a == k:
                    denom += n * theta / (theta * p[a] + p[b])
                elif b == k:
                    denom += n / (theta * p[a] + p[b])
            p[k] = max(wins[k], 1e-3) / denom if denom else p[k]
        g = math.exp(sum(math.log(v) for v in p.values()) / len(p))
        p = {k: v / g for k, v in p.items()}
        denom = sum(n * p[a] / (theta * p[a] + p[b]) for (a, b), n in pairs)
        theta = max(first_wins, 1e-3) / denom if denom else theta
        if max(abs(p[k] - old[k]) for k in players) < tol:
            break
    return p, theta


def odds_against(strengths: Mapping[str, float], reference: str) -> dict[str, float]:
    """Each player's odds of beating ``reference`` on neutral ground."""
    r = strengths[reference]
    return {k: v / (v + r) for k, v in strengths.items()}
