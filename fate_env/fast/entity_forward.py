"""The ``learned`` NPC's network compiled with numba: one decision's option scores, the same sums as
``entity_policy.EntityPolicy``'s numpy forward (to float32 rounding), without numpy's per-call cost.

Most of a decision's rows have been seen before: an option row is mostly one-hot (its class, its
skill, what it points at), an aspect's or a zone's row takes few values, and the same characters
stand in the same states fight after fight. What the network computes from a row alone (its
embedding, and its product with its block of the score layer) is kept in a memo per kind of row
(``bundles.Memo``), keyed by the whole row, and looked up before it is computed: a decision then
costs what is new in it, plus the per-option score layer (its second product four options at a
time). A row's values are computed one row at a time, the same way whether they are kept or not,
so a decision scores the same whichever decisions came before it or share its batch, and the fast
path and the reference engine choose alike (``LearnedController`` scores with this too when numba
is there). The dense products run four outputs at a time, each a dot product the compiler
vectorises.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Mapping

import numpy as np

from .bundles import Memo, Memos
from .jit import njit
from .kernel.mirror import kernel_only, mirrors

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


#: slots a row's lookup tries past the one its hash names before it gives up (the row is then
#: computed and not kept)
PROBES = 8
ZERO = np.float32(0.0)


def memos(net: Net, size: int = 4096) -> Memos:
    """Empty memos for ``net``'s rows, ``size`` rows of each kind (a quarter of it for zones). Not
    shared between threads: each caller keeps its own."""
    width = net.c2.shape[0]
    rng = np.random.default_rng(53)

    def memo(features: int, slots: int) -> Memo:
        return Memo(np.zeros((slots, features), np.float32), np.zeros((slots, 2 * width), np.float32),
                    np.zeros(slots, np.int64), rng.integers(1, 2 ** 31 - 1, features, dtype=np.int32) | 1)
    return Memos(memo(net.c0.shape[0], size), memo(net.z0.shape[0], size // 4), memo(net.a0.shape[0], size),
                 memo(net.o0.shape[0], size))


@kernel_only("the memo of rows seen: numpy's forward computes every row")
@njit(cache=True, _nrt=False)
def _lookup(M, x, i):
    """Where ``M`` keeps row ``x[i]`` (a slot, >= 0); else ``-1 - s``, ``s`` the free slot to keep
    it in (``s`` = the memo's size: none free within PROBES). The hash weighs each column's value
    (to 1/256) by an odd 32-bit integer, with wrap-around: integer sums, the same in any order, so
    the compiler vectorises them; its high bits name the first slot tried."""
    keys, used, H = M.keys, M.used, M.H
    size = keys.shape[0]
    width = x.shape[1]
    h = np.int32(0)
    for p in range(width):
        h = np.int32(h + np.int32(x[i, p] * np.float32(256.0)) * H[p])
    start = (((np.int64(h) & 0xFFFFFFFF) * 0x9E3779B1) >> 20) % size
    for probe in range(PROBES):
        s = (start + probe) % size
        if used[s] == 0:
            return -1 - s
        d = 0
        for p in range(width):
            d += keys[s, p] != x[i, p]
        if d == 0:
            return s
    return -1 - size


@kernel_only("the memo of rows seen: numpy's forward computes every row")
@njit(cache=True, _nrt=False)
def _keep(M, x, i, s, values, r):
    """Keep row ``x[i]`` and its ``values[r]`` in the free slot ``_lookup`` named (``-1 - s``), if any."""
    keys, vals, used = M.keys, M.vals, M.used
    slot = -1 - s
    if slot >= keys.shape[0]:
        return
    used[slot] = 1
    for p in range(x.shape[1]):
        keys[slot, p] = x[i, p]
    for j in range(values.shape[1]):
        vals[slot, j] = values[r, j]


@mirrors("fate_env.environment.entity_policy.EntityPolicy._mlp")
@njit(cache=True, _nrt=False)
def _sparse(x, i, W, b, out):
    """``out[0] = relu(x[i] @ W + b)``, ``W`` input-major: each nonzero input adds its row of weights."""
    width = W.shape[1]
    for j in range(width):
        out[0, j] = b[j]
    for p in range(W.shape[0]):
        v = x[i, p]
        if v != 0.0:
            for j in range(width):
                out[0, j] += v * W[p, j]
    for j in range(width):
        if out[0, j] < 0.0:
            out[0, j] = 0.0


@mirrors("fate_env.environment.entity_policy.EntityPolicy._mlp")
@njit(cache=True, _nrt=False, fastmath=True)
def _dense(x, m, W, b, out, at, relu):
    """``out[:m, at:] = x[:m] @ W.T + b`` (then ReLU), ``W`` output-major: four outputs at a time,
    each a dot product over the input (the sum's order is the compiler's: within float32 rounding
    of numpy's, and the same for a row whatever rows share the call)."""
    width = W.shape[0]
    n = W.shape[1]
    for i in range(m):
        j = 0
        while j + 4 <= width:
            a0, a1, a2, a3 = b[j], b[j + 1], b[j + 2], b[j + 3]
            for p in range(n):
                v = x[i, p]
                a0 += v * W[j, p]
                a1 += v * W[j + 1, p]
                a2 += v * W[j + 2, p]
                a3 += v * W[j + 3, p]
            if relu:
                a0, a1, a2, a3 = max(a0, ZERO), max(a1, ZERO), max(a2, ZERO), max(a3, ZERO)
            out[i, at + j], out[i, at + j + 1], out[i, at + j + 2], out[i, at + j + 3] = a0, a1, a2, a3
            j += 4
        while j < width:
            a = b[j]
            for p in range(n):
                a += x[i, p] * W[j, p]
            out[i, at + j] = max(a, ZERO) if relu else a
            j += 1


@mirrors("fate_env.environment.entity_policy.EntityPolicy._logits")
@njit(cache=True, _nrt=False, fastmath=True)
def _dense_rows(x, m, W, b, out):
    """``out[:m] = relu(x[:m] @ W.T + b)`` four rows and two outputs at a time (each weight read
    once for four rows: the score layer's second product, over a decision's options); the last
    ``m % 4`` rows as ``_dense``. A row's sums depend on its place among the ``m``: the same for the
    same decision."""
    width = W.shape[0]
    n = W.shape[1]
    i = 0
    while i + 4 <= m:
        j = 0
        while j + 2 <= width:
            a00, a10, a20, a30 = b[j], b[j], b[j], b[j]
            a01, a11, a21, a31 = b[j + 1], b[j + 1], b[j + 1], b[j + 1]
            for p in range(n):
                w0, w1 = W[j, p], W[j + 1, p]
                x0, x1, x2, x3 = x[i, p], x[i + 1, p], x[i + 2, p], x[i + 3, p]
                a00 += x0 * w0
                a10 += x1 * w0
                a20 += x2 * w0
                a30 += x3 * w0
                a01 += x0 * w1
                a11 += x1 * w1
                a21 += x2 * w1
                a31 += x3 * w1
            out[i, j], out[i + 1, j], out[i + 2, j], out[i + 3, j] = (max(a00, ZERO), max(a10, ZERO), max(a20, ZERO),
                                                                      max(a30, ZERO))
            out[i, j + 1], out[i + 1, j + 1], out[i + 2, j + 1], out[i + 3, j + 1] = (
                max(a01, ZERO), max(a11, ZERO), max(a21, ZERO), max(a31, ZERO))
            j += 2
        if j < width:
            _dense(x[i:i + 4], 4, W[j:], b[j:], out[i:i + 4], j, True)
        i += 4
    if i < m:
        _dense(x[i:], m - i, W, b, out[i:], 0, True)


@mirrors("fate_env.environment.entity_policy.EntityPolicy._mlp")
@njit(cache=True)
def _embed(x, m, W0, b0, W2, b2, S, M, project):
    """Each of the first ``m`` rows of ``x`` through two layers, each then ReLU (entity_net's
    ``_mlp``), then, with ``project``, through ``S`` (its score block, no bias): ``[embedding |
    product]`` per row (the product's half unset without ``project``), from ``M`` where it keeps
    the row, else computed (and kept)."""
    width = W2.shape[0]
    out = np.empty((max(m, 1), 2 * width), np.float32)
    h = np.empty((1, width), np.float32)
    zero = np.zeros(width, np.float32)
    vals = M.vals
    for i in range(m):
        s = _lookup(M, x, i)
        if s >= 0:
            for j in range(2 * width):
                out[i, j] = vals[s, j]
            continue
        _sparse(x, i, W0, b0, h)
        _dense(h, 1, W2, b2, out[i:i + 1], 0, True)
        if project:
            _dense(out[i:i + 1], 1, S, zero, out[i:i + 1], width, False)
        _keep(M, x, i, s, out, i)
    return out


@mirrors("fate_env.environment.entity_policy._pool")
@njit(cache=True, _nrt=False)
def _pool(h, m, out, at):
    """The mean, then the max, of the first ``m`` rows' first ``out``-width/7 columns into
    ``out[at:]`` (zeros for no rows)."""
    width = out.shape[1] // 7
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
def scores(N, R, nc, nz, na, no, out, M):
    """The scores of a decision's ``no`` options into ``out``, from its rows ``R`` (``bundles.Rows``:
    its ``nc`` characters, ``nz`` zones and ``na`` aspects; pointers -1 for none), as EntityPolicy's
    forward computes them; ``M`` (``bundles.Memos``, from :func:`memos`) keeps rows seen before."""
    glob, chars, czone, zones, aspects = R.glob, R.chars, R.czone, R.zones, R.aspects
    options, o_char, o_zone, o_asp = R.options, R.o_char, R.o_zone, R.o_asp
    width = N.c2.shape[0]
    zero = np.zeros(width, np.float32)
    hz = _embed(zones, nz, N.z0, N.zb0, N.z2, N.zb2, N.s_z, M.zone, True)  # [embedding | score-block product]
    ha = _embed(aspects, na, N.a0, N.ab0, N.a2, N.ab2, N.s_a, M.aspect, True)
    hc = _embed(chars, nc, N.c0, N.cb0, N.c2, N.cb2, N.s_c, M.char, False)  # its product below, zone added
    for i in range(nc):  # a character is also where it stands: its product is of the sum
        if czone[i] >= 0:
            for j in range(width):
                hc[i, j] += hz[czone[i], j]
    _dense(hc, nc, N.s_c, zero, hc, width, False)
    g = np.empty((1, glob.shape[0]), np.float32)
    g[0, :] = glob
    joined = np.empty((1, 7 * width), np.float32)
    h = np.empty((1, width), np.float32)
    _sparse(g, 0, N.g0, N.gb0, h)
    _dense(h, 1, N.g2, N.gb2, joined, 0, True)
    _pool(hc, nc, joined, width)
    _pool(hz, nz, joined, 3 * width)
    _pool(ha, na, joined, 5 * width)
    ctx = np.empty((1, width), np.float32)
    _dense(joined, 1, N.x0, N.xb0, h, 0, True)
    _dense(h, 1, N.x2, N.xb2, ctx, 0, True)
    # the score layer's first product, block by block: each row's part once, gathered by the options
    ego = np.empty((1, width), np.float32)
    base = np.empty((1, width), np.float32)
    _dense(hc, 1, N.s_e, N.sb0, ego, 0, False)
    _dense(ctx, 1, N.s_x, ego[0], base, 0, False)
    ho = _embed(options, no, N.o0, N.ob0, N.o2, N.ob2, N.s_o, M.option, True)
    first = np.empty((max(no, 1), width), np.float32)
    for i in range(no):
        for j in range(width):
            first[i, j] = ho[i, width + j] + base[0, j]
        c, z, a = o_char[i], o_zone[i], o_asp[i]
        if c >= 0:
            for j in range(width):
                first[i, j] += hc[c, width + j]
        if z >= 0:
            for j in range(width):
                first[i, j] += hz[z, width + j]
        if a >= 0:
            for j in range(width):
                first[i, j] += ha[a, width + j]
        for j in range(width):
            if first[i, j] < 0.0:
                first[i, j] = 0.0
    last = np.empty((max(no, 1), width), np.float32)
    _dense_rows(first, no, N.s2, N.sb2, last)
    for i in range(no):
        s = N.sb1[0]
        for j in range(width):
            s += last[i, j] * N.s1[j]
        out[i] = s
