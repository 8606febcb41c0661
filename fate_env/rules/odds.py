"""Exact odds of Fate rolls: 4dF totals 1, 4, 10, 16, 19, 16, 10, 4, 1 in 81 (003:542-545)."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import product

#: P(4dF = total), exactly
FOUR_DF: dict[int, Fraction] = {}
for _faces in product((-1, 0, 1), repeat=4):
    FOUR_DF[sum(_faces)] = FOUR_DF.get(sum(_faces), Fraction(0)) + Fraction(1, 81)
FOUR_DF = dict(sorted(FOUR_DF.items()))


@lru_cache(maxsize=None)
def margin_distribution(opposed: bool) -> dict[int, Fraction]:
    """The distribution of the dice's part of a margin: one 4dF, or 4dF minus 4dF (opposed)."""
    if not opposed:
        return dict(FOUR_DF)
    out: dict[int, Fraction] = {}
    for a, pa in FOUR_DF.items():
        for b, pb in FOUR_DF.items():
            out[a - b] = out.get(a - b, Fraction(0)) + pa * pb
    return dict(sorted(out.items()))


@lru_cache(maxsize=None)
def band_odds(diff: int, opposed: bool = True) -> dict[str, float]:
    """Chances of each outcome band (003:630-642) when ratings differ by ``diff`` before the dice."""
    out = {"fail": Fraction(0), "tie": Fraction(0), "success": Fraction(0), "success_with_style": Fraction(0)}
    for d, p in margin_distribution(opposed).items():
        m = diff + d
        out["fail" if m < 0 else "tie" if m == 0 else "success" if m < 3 else "success_with_style"] += p
    return {k: float(v) for k, v in out.items()}
