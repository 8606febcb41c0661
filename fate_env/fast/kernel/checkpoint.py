"""A fight's state at a turn's start, kept and restored (``rules/engine.py``'s checkpoint):
what a paused session resumes from and what a look-ahead's copies start from.
"""

from __future__ import annotations

from ..jit import njit
from .layout import G_NAL, G_NANS, NG
from .mirror import kernel_only, mirrors


@kernel_only("a row-by-row copy for the checkpoints")
@njit(cache=True, _nrt=False)
def _copy2(dst, src, rows):
    for i in range(rows):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@mirrors("fate_env.rules.engine.Engine.checkpoint")
@njit(cache=True, _nrt=False)
def _save(W, K):
    """The state at a turn's start, into the checkpoint (the aspect rows in use only)."""
    CH, MARK, SLOTA, G, A, AF, AL, INV, RNG = W.CH, W.MARK, W.SLOTA, W.G, W.A, W.AF, W.AL, W.INV, W.RNG
    CKCH, CKMARK, CKSLOTA, CKG, CKA = K.CH, K.MARK, K.SLOTA, K.G, K.A
    CKAF, CKAL, CKINV, CKRNG = K.AF, K.AL, K.INV, K.RNG
    _copy2(CKCH, CH, CH.shape[0])
    _copy2(CKMARK, MARK, MARK.shape[0])
    _copy2(CKSLOTA, SLOTA, SLOTA.shape[0])
    for k in range(NG):
        CKG[k] = G[k]
    top = A[0, 0] + 1
    _copy2(CKA, A, top)
    _copy2(CKAF, AF, top)
    for i in range(G[G_NAL]):
        CKAL[i] = AL[i]
    for sd in range(INV.shape[0]):
        for a in range(top):
            CKINV[sd, a] = INV[sd, a]
    for j in range(min(RNG.shape[0], CKRNG.shape[0])):
        CKRNG[j] = RNG[j]


@mirrors("fate_env.rules.engine.Engine.checkpoint")
@njit(cache=True, _nrt=False)
def _restore(W, K):
    """Back to the checkpoint, keeping the answers (G past NG, and their count): the marks of
    aspects made after it are cleared, so a new path cannot read the abandoned one's."""
    CH, MARK, SLOTA, G, A, AF, AL, INV, RNG = W.CH, W.MARK, W.SLOTA, W.G, W.A, W.AF, W.AL, W.INV, W.RNG
    CKCH, CKMARK, CKSLOTA, CKG, CKA = K.CH, K.MARK, K.SLOTA, K.G, K.A
    CKAF, CKAL, CKINV, CKRNG = K.AF, K.AL, K.INV, K.RNG
    nans = G[G_NANS]
    old_top = A[0, 0] + 1
    _copy2(CH, CKCH, CH.shape[0])
    _copy2(MARK, CKMARK, MARK.shape[0])
    _copy2(SLOTA, CKSLOTA, SLOTA.shape[0])
    for k in range(NG):
        G[k] = CKG[k]
    G[G_NANS] = nans
    top = CKA[0, 0] + 1
    _copy2(A, CKA, top)
    _copy2(AF, CKAF, top)
    for i in range(G[G_NAL]):
        AL[i] = CKAL[i]
    for sd in range(INV.shape[0]):
        for a in range(top):
            INV[sd, a] = CKINV[sd, a]
        for a in range(top, old_top):
            INV[sd, a] = 0
    for j in range(min(RNG.shape[0], CKRNG.shape[0])):  # a copy's own third generator is its own
        RNG[j] = CKRNG[j]
