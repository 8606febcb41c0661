"""The fast core's dice are the reference's: numpy's default_rng(seed).integers(-1, 2) stream,
block after block (the reference draws blocks of 512 rolls), for any seed a bench can use."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from fate_env.fast.dice import RNG_SIZE, die, seed_rng


def stream(seed: int, n: int) -> list[int]:
    rng = np.zeros(RNG_SIZE, np.uint64)
    seed_rng(rng, np.uint64(seed))
    return [int(die(rng)) for _ in range(n)]


def reference(seed: int, blocks: int) -> list[int]:
    g = np.random.default_rng(seed)
    return [int(x) for _ in range(blocks) for x in g.integers(-1, 2, size=(512, 4)).ravel()]


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2 ** 64 - 1))
def test_any_seed_gives_numpys_dice(seed):
    assert stream(seed, 2048) == reference(seed, 1)


def test_the_stream_runs_on_past_the_first_block():
    """Long fights draw a second block; the stream goes on where the first ended."""
    for seed in (0, 7, 2 ** 32 + 1):
        assert stream(seed, 3 * 2048) == reference(seed, 3)


def test_the_faces_are_fair():
    """Sanity on the law itself: each face a third of 60,000 dice, within 4 standard errors."""
    faces = np.array(stream(12345, 60_000))
    for v in (-1, 0, 1):
        share = float(np.mean(faces == v))
        assert abs(share - 1 / 3) < 4 * np.sqrt((1 / 3) * (2 / 3) / 60_000)
