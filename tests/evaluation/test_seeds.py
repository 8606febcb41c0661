"""Episode seeds made a batch at once are numpy's SeedSequence's, word for word (fate_env/evaluation/seeds.py)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from fate_env.evaluation.seeds import episode_seed, episode_seeds


def numpy_seed(seed: int, index: int) -> int:
    return int(np.random.SeedSequence([seed, index]).generate_state(1)[0])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.lists(st.integers(0, 2 ** 32 - 1), min_size=1, max_size=40))
def test_a_batch_is_numpys_seed_sequence(seed, indices):
    assert episode_seeds(seed, indices) == [numpy_seed(seed, i) for i in indices]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2 ** 80), st.lists(st.integers(0, 2 ** 70), min_size=1, max_size=5))
def test_seeds_past_one_word_fall_back_to_numpy(seed, indices):
    assert episode_seeds(seed, indices) == [numpy_seed(seed, i) for i in indices]


def test_a_bench_sized_batch_and_the_one_at_a_time_seed_agree():
    got = episode_seeds(2026, range(5000))
    assert got == [episode_seed(2026, i) for i in range(5000)]
    assert len(set(got)) == 5000  # no two episodes share dice
