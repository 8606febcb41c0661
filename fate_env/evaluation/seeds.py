"""Episode seeds: each episode's seed from (seed, episode index) alone, one at a time or a batch at once.

Every bench, eval and design run seeds episode ``i`` with the first word numpy's ``SeedSequence([seed, i])``
generates, so a run is the same on one worker, K workers or Ray, and every variant faces the same dice.
Made one at a time that costs 6-7 µs an episode, more than the fast core takes to play a short contest
(about 5 µs), so ``episode_seeds`` makes a batch's seeds at once: the same hash, written over arrays of
32-bit words (numpy's own algorithm, ``numpy/random/bit_generator.pyx``: ``hashmix``, ``mix``,
``mix_entropy`` and ``generate_state``), checked word for word against ``SeedSequence`` in
tests/evaluation/test_seeds.py.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

# numpy's SeedSequence constants (bit_generator.pyx)
_INIT_A = np.uint32(0x43B0D7E5)
_MULT_A = np.uint32(0x931E8875)
_INIT_B = np.uint32(0x8B51F9DD)
_MULT_B = np.uint32(0x58F38DED)
_MIX_MULT_L = np.uint32(0xCA01F9DD)
_MIX_MULT_R = np.uint32(0x4973F715)
_XSHIFT = np.uint32(16)
_POOL = 4
_WORD = 2 ** 32


def episode_seed(seed: int, index: int) -> int:
    """The seed of episode ``index``: the same for every variant (common random numbers)."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1)[0])


def episode_seeds(seed: int, indices: Sequence[int]) -> list[int]:
    """``[episode_seed(seed, i) for i in indices]``, computed over the whole batch at once where the seed and
    every index fit in one 32-bit word (any bench: its indices stop at two million), else one at a time."""
    indices = [int(i) for i in indices]
    if not 0 <= seed < _WORD or not indices or not 0 <= min(indices) <= max(indices) < _WORD:
        return [episode_seed(seed, i) for i in indices]
    words = np.empty((len(indices), 2), np.uint32)
    words[:, 0] = seed
    words[:, 1] = indices
    return _first_word(words).tolist()


def _first_word(entropy: np.ndarray) -> np.ndarray:
    """The first word ``SeedSequence(e).generate_state(1)`` gives for each row ``e`` of ``entropy``
    (its words as ``SeedSequence`` assembles them: here at most the pool's four, so no late mixing)."""
    n, width = entropy.shape
    assert width <= _POOL
    const = [_INIT_A]  # the hash's running constant, the same for every row

    def hashmix(value: np.ndarray) -> np.ndarray:
        value = value ^ const[0]
        const[0] = const[0] * _MULT_A
        value = value * const[0]
        return value ^ (value >> _XSHIFT)

    def mix(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        result = _MIX_MULT_L * x - _MIX_MULT_R * y
        return result ^ (result >> _XSHIFT)

    with np.errstate(over="ignore"):
        zero = np.zeros(n, np.uint32)
        pool = [hashmix(entropy[:, i] if i < width else zero) for i in range(_POOL)]
        for src in range(_POOL):
            for dst in range(_POOL):
                if src != dst:
                    pool[dst] = mix(pool[dst], hashmix(pool[src]))
        value = pool[0] ^ _INIT_B
        value = value * (_INIT_B * _MULT_B)
        return value ^ (value >> _XSHIFT)
