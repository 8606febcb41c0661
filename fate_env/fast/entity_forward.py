"""The ``learned`` NPC's network compiled with numba: one decision's option scores, the same sums as
``entity_policy.EntityPolicy``'s numpy forward (to float32 rounding), without numpy's per-call cost.

Numpy pays for each small product and for padding a batch to its largest decision; a decision of the
warehouse costs it about 150 µs in a batch of hundreds. Here the products are loops over the rows a
decision has: a row embedder's first layer input-major, so each nonzero input adds a row of weights
(one-hot inputs, most of an option's row, add nothing), the dense layers as dot products the
compiler vectorises; and a decision's scores depend on that decision alone: whichever fights share a batch, a fight's choices are the same, so the fast path
and the reference engine choose alike (``LearnedController`` scores with this too when numba is
there).
"""

from __future__ import annotations

from collections import namedtuple
from typing import Mapping

import numpy as np

from .jit import njit
from .kernel.mirror import mirrors

#: the weights as the products read them, float32, C-contiguous: the first layer of each row embedder
#: input-major (``in, out``: an entity's or an option's row is mostly zeros, and a zero input adds no
#: weights), every other layer output-major (torch's ``out, in``: a dot product per output over a
#: dense input); the score layer's first product by block (option, character, zone, aspect, ego,
#: context), its second layer and the last
Net = namedtuple("Net", "g0 gb0 g2 gb2 c0 cb0 c2 cb2 z0 zb0 z2 zb2 a0 ab0 a2 ab2 o0 ob0 o2 ob2 x0 xb0 x2 xb2 "
                        "s_o s_c s_z s_a s_e s_x sb0 s2 sb2 s1 sb1")
_EMBED = (("g", "glob"), ("c", "char"), ("z", "zone"), ("a", "aspect"), ("o", "option"), ("x", "context"))
#: the embedders whose first layer reads sparse rows (the context's reads pooled, dense ones)
_SPARSE = ("g", "c", "z", "a", "o")


def net_of(w: Mapping[str, np.ndarray]) -> Net:
    """A policy file's weights (torch's ``out, in`` layout) as :class:`Net`."""
    def t(a: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(np.asarray(a, np.float32).T)

    def d(a: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(np.asarray(a, np.float32))

    def v(a: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(np.asarray(a, np.float32).reshape(-1))
    parts: dict[str, np.ndarray] = {}
    for short, name in _EMBED:
        first = w[f"{name}.0.weight"]
        parts[f"{short}0"] = t(first) if short in _SPARSE else d(first)
        parts[f"{short}b0"] = v(w[f"{name}.0.bias"])
        parts[f"{short}2"], parts[f"{short}b2"] = d(w[f"{name}.2.weight"]), v(w[f"{name}.2.bias"])
    blocks = np.split(np.asarray(w["score.0.0.weight"], np.float32), 6, axis=1)
    for key, b in zip(("s_o", "s_c", "s_z", "s_a", "s_e", "s_x"), blocks):
        parts[key] = d(b)
    parts["sb0"], parts["s2"], parts["sb2"] = v(w["score.0.0.bias"]), d(w["score.0.2.weight"]), v(w["score.0.2.bias"])
    parts["s1"], parts["sb1"] = v(w["score.1.weight"]), v(w["score.1.bias"])
    return Net(**parts)


@mirrors("fate_env.environment.entity_policy.EntityPolicy._mlp")
@njit(cache=True, _nrt=False)
def _sparse(x, m, W, b, out):
    """``out[:m] = relu(x[:m] @ W + b)``, ``W`` input-major: each nonzero input adds its row of weights."""
    width = W.shape[1]
    for i in range(m):
        for j in range(width):
            out[i, j] = b[j]
        for p in range(W.shape[0]):
            v = x[i, p]
            if v != 0.0:
                for j in range(width):
                    out[i, j] += v * W[p, j]
        for j in range(width):
            if out[i, j] < 0.0:
                out[i, j] = 0.0


@mirrors("fate_env.environment.entity_policy.EntityPolicy._mlp")
@njit(cache=True, _nrt=False, fastmath=True)
def _dense(x, m, W, b, out, relu):
    """``out[:m] = x[:m] @ W.T + b`` (then ReLU), ``W`` output-major: one dot product per output (the
    sum's order is the compiler's: within float32 rounding of numpy's)."""
    width = W.shape[0]
    n = W.shape[1]
    for i in range(m):
        for j in range(width):
            a = b[j]
            for p in range(n):
                a += x[i, p] * W[j, p]
            out[i, j] = 0.0 if relu and a < 0.0 else a


@mirrors("fate_env.environment.entity_policy.EntityPolicy._mlp")
@njit(cache=True)
def _embed(x, m, W0, b0, W2, b2):
    """Two layers, each then ReLU, over the first ``m`` rows of ``x`` (entity_net's ``_mlp``), the
    first reading sparse rows."""
    width = W2.shape[0]
    h = np.empty((max(m, 1), width), np.float32)
    out = np.empty((max(m, 1), width), np.float32)
    _sparse(x, m, W0, b0, h)
    _dense(h, m, W2, b2, out, True)
    return out


@mirrors("fate_env.environment.entity_policy._pool")
@njit(cache=True, _nrt=False)
def _pool(h, m, out, at):
    """The mean, then the max, of the first ``m`` rows into ``out[at:]`` (zeros for no rows)."""
    width = h.shape[1]
    for j in range(width):
        total = np.float32(0.0)
        big = np.float32(-1e9)
        for i in range(m):
            total += h[i, j]
            if h[i, j] > big:
                big = h[i, j]
        out[0, at + j] = total / np.float32(max(m, 1))
        out[0, at + width + j] = big if m > 0 else 0.0


@mirrors("fate_env.environment.entity_policy.EntityPolicy._logits")
@njit(cache=True)
def scores(N, R, nc, nz, na, no, out):
    """The scores of a decision's ``no`` options into ``out``, from its rows ``R`` (``bundles.Rows``:
    its ``nc`` characters, ``nz`` zones and ``na`` aspects; pointers -1 for none), as EntityPolicy's
    forward computes them."""
    glob, chars, czone, zones, aspects = R.glob, R.chars, R.czone, R.zones, R.aspects
    options, o_char, o_zone, o_asp = R.options, R.o_char, R.o_zone, R.o_asp
    width = N.c2.shape[0]
    hz = _embed(zones, nz, N.z0, N.zb0, N.z2, N.zb2)
    hc = _embed(chars, nc, N.c0, N.cb0, N.c2, N.cb2)
    for i in range(nc):  # a character is also where it stands
        if czone[i] >= 0:
            for j in range(width):
                hc[i, j] += hz[czone[i], j]
    ha = _embed(aspects, na, N.a0, N.ab0, N.a2, N.ab2)
    g = np.empty((1, glob.shape[0]), np.float32)
    g[0, :] = glob
    joined = np.empty((1, 7 * width), np.float32)
    hg = _embed(g, 1, N.g0, N.gb0, N.g2, N.gb2)
    for j in range(width):
        joined[0, j] = hg[0, j]
    _pool(hc, nc, joined, width)
    _pool(hz, nz, joined, 3 * width)
    _pool(ha, na, joined, 5 * width)
    h1 = np.empty((1, width), np.float32)
    ctx = np.empty((1, width), np.float32)
    _dense(joined, 1, N.x0, N.xb0, h1, True)
    _dense(h1, 1, N.x2, N.xb2, ctx, True)
    # the score layer's first product, block by block: each row's part once, gathered by the options
    base = np.empty((1, width), np.float32)
    ego = np.empty((1, width), np.float32)
    _dense(hc, 1, N.s_e, N.sb0, ego, False)
    _dense(ctx, 1, N.s_x, ego[0], base, False)
    pc = np.empty((max(nc, 1), width), np.float32)
    pz = np.empty((max(nz, 1), width), np.float32)
    pa = np.empty((max(na, 1), width), np.float32)
    zero = np.zeros(width, np.float32)
    _dense(hc, nc, N.s_c, zero, pc, False)
    _dense(hz, nz, N.s_z, zero, pz, False)
    _dense(ha, na, N.s_a, zero, pa, False)
    ho = _embed(options, no, N.o0, N.ob0, N.o2, N.ob2)
    first = np.empty((max(no, 1), width), np.float32)
    _dense(ho, no, N.s_o, base[0], first, False)
    for i in range(no):
        for j in range(width):
            v = first[i, j]
            if o_char[i] >= 0:
                v += pc[o_char[i], j]
            if o_zone[i] >= 0:
                v += pz[o_zone[i], j]
            if o_asp[i] >= 0:
                v += pa[o_asp[i], j]
            first[i, j] = v if v > 0.0 else 0.0
    h = np.empty((max(no, 1), width), np.float32)
    _dense(first, no, N.s2, N.sb2, h, True)
    for i in range(no):
        s = N.sb1[0]
        for j in range(width):
            s += h[i, j] * N.s1[j]
        out[i] = s
