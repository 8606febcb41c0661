"""4dF against its exact distribution, forced rolls, and the ladder."""

from __future__ import annotations

import numpy as np
import pytest

from fate_env.rules.dice import Dice, DiceError, faces_for_total, show_faces
from fate_env.rules.ladder import describe, ladder_name

EXACT = {-4: 1, -3: 4, -2: 10, -1: 16, 0: 19, 1: 16, 2: 10, 3: 4, 4: 1}  # out of 81 (3^4 faces)
CHI2_8DOF_P001 = 26.124  # the 0.1% critical value of chi-square with 8 degrees of freedom


def test_exact_distribution_sums_to_81():
    assert sum(EXACT.values()) == 81
    # the same counts from enumerating every face combination
    faces = np.array(np.meshgrid(*[[-1, 0, 1]] * 4)).reshape(4, -1).sum(axis=0)
    assert {t: int((faces == t).sum()) for t in range(-4, 5)} == EXACT


@pytest.mark.parametrize("seed", [0, 1, 2024])
def test_dice_match_the_4df_distribution(seed):
    n = 81_000
    dice = Dice(np.random.default_rng(seed))
    totals = np.array([sum(dice.roll()) for _ in range(n)])
    observed = np.array([(totals == t).sum() for t in range(-4, 5)])
    expected = np.array([EXACT[t] * n / 81 for t in range(-4, 5)])
    chi2 = float(((observed - expected) ** 2 / expected).sum())
    assert chi2 < CHI2_8DOF_P001, (observed.tolist(), chi2)
    assert abs(totals.mean()) < 0.02  # sd of the mean is sqrt(4*2/3/n) ~ 0.0057
    assert abs(totals.var() - 8 / 3) < 0.05


def test_each_die_is_uniform_over_three_faces():
    dice = Dice(np.random.default_rng(7))
    faces = np.array([dice.roll() for _ in range(30_000)]).ravel()
    counts = np.array([(faces == f).sum() for f in (-1, 0, 1)])
    chi2 = float(((counts - 40_000) ** 2 / 40_000).sum())
    assert chi2 < 13.8  # 0.1% critical value, 2 dof


def test_same_seed_same_rolls():
    a, b = Dice(np.random.default_rng(5)), Dice(np.random.default_rng(5))
    assert [a.roll() for _ in range(1000)] == [b.roll() for _ in range(1000)]


def test_forced_rolls_come_first_then_the_generator():
    d = Dice(np.random.default_rng(3), forced=[(1, 1, 0, -1)])
    d.force(-3)
    assert d.roll() == (1, 1, 0, -1)
    assert sum(d.roll()) == -3
    plain = Dice(np.random.default_rng(3))
    assert d.roll() == plain.roll()


@pytest.mark.parametrize("bad", [(1, 1, 1), (2, 0, 0, 0), (1, 1, 1, 1, 1)])
def test_forced_faces_are_checked(bad):
    with pytest.raises(DiceError):
        Dice(forced=[bad])


def test_totals_out_of_range_are_refused():
    with pytest.raises(DiceError):
        faces_for_total(5)


def test_ladder_names():
    assert describe(4) == "Great (+4)"
    assert describe(-4) == "Horrifying (-4)"
    assert describe(8) == "Legendary (+8)"
    assert describe(9) == "+9" and describe(-5) == "-5"  # off the ladder: plain numbers
    assert ladder_name(0) == "Mediocre"
    assert show_faces((1, -1, 0, 1)) == "[+ - 0 +]"
