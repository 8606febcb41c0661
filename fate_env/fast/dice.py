"""The reference's dice, drawn inside the kernel: numpy's ``default_rng(seed)`` (SeedSequence,
then PCG64) and ``integers(-1, 2)`` (Lemire's bounded draw from buffered 32-bit outputs),
reimplemented over unsigned 64-bit integers so numba can compile them.

The reference engine draws its 4dF rolls as ``default_rng(seed).integers(-1, 2, size=(512, 4))``
blocks (``rules/dice.py``); drawing the same stream one die at a time gives the same faces in
the same order, block after block, so a seed gives the fast core exactly the reference's dice.
``tests/fast/test_dice.py`` checks this against numpy itself.

``RNG`` is a uint64 array of 6: PCG64's 128-bit state (high, low) and increment (high, low),
whether a 32-bit half is buffered, and that half.
"""

from __future__ import annotations

import numpy as np

from .jit import njit

U = np.uint64
M32 = U(0xFFFFFFFF)
S16, S32, S58, S63, S64 = U(16), U(32), U(58), U(63), U(64)
ZERO, ONE, THREE = U(0), U(1), U(3)
INIT_A, MULT_A, INIT_B, MULT_B = U(0x43b0d7e5), U(0x931e8875), U(0x8b51f9dd), U(0x58f38ded)
MIX_L, MIX_R = U(0xca01f9dd), U(0x4973f715)
MULT_HI, MULT_LO = U(2549297995355413924), U(4865540595714422341)  # PCG's default 128-bit multiplier
RNG_SIZE = 6


@njit(cache=True, _nrt=False)
def _hashmix(v, h):
    """SeedSequence's hashmix: returns (mixed value, next hash constant), 32-bit."""
    v = (v ^ h) & M32
    h = (h * MULT_A) & M32
    v = (v * h) & M32
    v ^= v >> S16
    return v, h


@njit(cache=True, _nrt=False)
def _mix(x, y):
    r = (MIX_L * x - MIX_R * y) & M32
    return r ^ (r >> S16)


@njit(cache=True, _nrt=False)
def _mul128(ah, al, bh, bl):
    """(a * b) mod 2**128 as (high, low) 64-bit halves."""
    a0, a1 = al & M32, al >> S32
    b0, b1 = bl & M32, bl >> S32
    p00 = a0 * b0
    p10 = a1 * b0
    p01 = a0 * b1
    cross = (p00 >> S32) + (p10 & M32) + p01
    lo = (cross << S32) | (p00 & M32)
    hi = (p10 >> S32) + (cross >> S32) + a1 * b1 + ah * bl + al * bh
    return hi, lo


@njit(cache=True, _nrt=False)
def _step(RNG):
    hi, lo = _mul128(RNG[0], RNG[1], MULT_HI, MULT_LO)
    lo2 = lo + RNG[3]
    carry = ONE if lo2 < lo else ZERO
    RNG[0] = hi + RNG[2] + carry
    RNG[1] = lo2


@njit(cache=True)
def seed_rng(RNG, seed):
    """``default_rng(seed)``: SeedSequence's pool from the seed's 32-bit words, eight words of
    state, then PCG64's seeding (srandom: step, add the seed, step)."""
    seed = U(seed)
    lo_word = seed & M32
    hi_word = seed >> S32
    nwords = 2 if hi_word != ZERO else 1
    h = INIT_A
    pool0, h = _hashmix(lo_word, h)
    pool1, h = _hashmix(hi_word if nwords == 2 else ZERO, h)
    pool2, h = _hashmix(ZERO, h)
    pool3, h = _hashmix(ZERO, h)
    p = [pool0, pool1, pool2, pool3]
    for s in range(4):
        for d in range(4):
            if s != d:
                m, h = _hashmix(p[s], h)
                p[d] = _mix(p[d], m)
    hb = INIT_B
    w = [ZERO] * 8
    for i in range(8):
        v = p[i % 4] ^ hb
        hb = (hb * MULT_B) & M32
        v = (v * hb) & M32
        w[i] = v ^ (v >> S16)
    s_hi = w[0] | (w[1] << S32)
    s_lo = w[2] | (w[3] << S32)
    i_hi = w[4] | (w[5] << S32)
    i_lo = w[6] | (w[7] << S32)
    RNG[2] = (i_hi << ONE) | (i_lo >> S63)
    RNG[3] = (i_lo << ONE) | ONE
    RNG[0] = ZERO
    RNG[1] = ZERO
    _step(RNG)
    lo = RNG[1] + s_lo
    carry = ONE if lo < RNG[1] else ZERO
    RNG[0] = RNG[0] + s_hi + carry
    RNG[1] = lo
    _step(RNG)
    RNG[4] = ZERO
    RNG[5] = ZERO


@njit(cache=True, _nrt=False)
def _next64(RNG):
    _step(RNG)
    hi = RNG[0]
    x = hi ^ RNG[1]
    rot = hi >> S58
    return (x >> rot) | (x << ((S64 - rot) & S63))


@njit(cache=True, _nrt=False)
def _next32(RNG):
    if RNG[4] != ZERO:
        RNG[4] = ZERO
        return RNG[5]
    n = _next64(RNG)
    RNG[4] = ONE
    RNG[5] = n >> S32
    return n & M32


@njit(cache=True, _nrt=False)
def die(RNG):
    """One Fate die, -1, 0 or +1: ``integers(-1, 2)``'s Lemire draw over three values."""
    m = _next32(RNG) * THREE
    if (m & M32) < THREE:
        while (m & M32) < ONE:  # the threshold (2**32 - 3) % 3 is 1: only a zero leftover is redrawn
            m = _next32(RNG) * THREE
    return np.int64(m >> S32) - 1


# -- a policy's own generator (RNG[6:12]): the ``random`` controller's default_rng(seed) ---------
POLICY_RNG = 6  # its offset in the kernel's RNG array


@njit(cache=True, _nrt=False)
def _next32_at(RNG, o):
    """``_next32`` on the generator stored at ``RNG[o:o + 6]``."""
    if RNG[o + 4] != ZERO:
        RNG[o + 4] = ZERO
        return RNG[o + 5]
    hi, lo = _mul128(RNG[o], RNG[o + 1], MULT_HI, MULT_LO)
    lo2 = lo + RNG[o + 3]
    carry = ONE if lo2 < lo else ZERO
    RNG[o] = hi + RNG[o + 2] + carry
    RNG[o + 1] = lo2
    h = RNG[o]
    x = h ^ RNG[o + 1]
    rot = h >> S58
    n = (x >> rot) | (x << ((S64 - rot) & S63))
    RNG[o + 4] = ONE
    RNG[o + 5] = n >> S32
    return n & M32


@njit(cache=True, _nrt=False)
def pick(RNG, n):
    """``Generator.integers(n)`` on the policy's generator: numpy's 32-bit Lemire draw (a single
    value: nothing is drawn when n is 1)."""
    if n <= 1:
        return np.int64(0)
    nn = U(n)
    m = _next32_at(RNG, POLICY_RNG) * nn
    if (m & M32) < nn:
        threshold = (U(0x100000000) - nn) % nn
        while (m & M32) < threshold:
            m = _next32_at(RNG, POLICY_RNG) * nn
    return np.int64(m >> S32)
