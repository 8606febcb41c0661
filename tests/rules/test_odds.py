"""Exact roll odds (the view's ``attack_odds``): 4dF totals 1,4,10,16,19,16,10,4,1 in 81 (003:542-545)."""

from __future__ import annotations

from fractions import Fraction

from fate_env.rules.odds import FOUR_DF, band_odds, margin_distribution


def test_the_4df_distribution():
    assert [FOUR_DF[t] * 81 for t in range(-4, 5)] == [1, 4, 10, 16, 19, 16, 10, 4, 1]


def test_bands_against_a_difficulty():
    # effort = rating + 4dF against a difficulty equal to the rating: fail below 0, tie at 0,
    # success at 1-2, style at 3+ (003:630-642)
    got = band_odds(0, opposed=False)
    want = {"fail": 31 / 81, "tie": 19 / 81, "success": 26 / 81, "success_with_style": 5 / 81}
    assert got == want
    assert band_odds(4, opposed=False)["fail"] == 0.0


def test_opposed_rolls_are_symmetric_and_complete():
    dist = margin_distribution(True)
    assert sum(dist.values()) == Fraction(1) and dist[0] == sum(p * p for p in FOUR_DF.values())
    even = band_odds(0)
    assert abs(even["fail"] - (even["success"] + even["success_with_style"])) < 1e-15
    assert band_odds(2)["fail"] < even["fail"] < band_odds(-2)["fail"]
