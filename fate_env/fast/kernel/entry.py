"""The kernel's entry points: a batch of conflicts (``play_batch``), a session answered from
outside and resumed from its last turn's start (``advance``: ``rules/engine.py``'s checkpoint), and a
look-ahead's copies (``playouts``: ``Engine.fork``), with the state they set up and copy.
"""

from __future__ import annotations

import numpy as np

from ..bundles import Fight, Scene, Work
from ..dice import RNG_SIZE, seed_rng
from ..jit import njit
from .checkpoint import _restore
from .flow import _flow
from .layout import (
    G_CONTEST, G_TASKS, KIND_CONTEST, P_KIND, P_NTASK,
    C_SCALE, S_SCALE, A_ALIVE, BAIL_NONE, E_DECISION, G_ANSPOS, G_EXCHANGE, G_NEV, BAIL_PAUSE, C_COUNT, C_SLOTNAME, C_FP, C_MEMBERS, C_MOB, C_NSTUNT, C_TOOKBY, C_TWCAP, C_ZONE, G_ASEQ,
    G_BAIL, G_CKMODE, G_GMPOOL, G_HORIZON, G_NAL, G_NANS, G_PACTOR, G_PCOUNT, G_PKIND, G_PLAYOUT, G_RESUME, G_STOPEV, G_WINNER,
    L_TRACK, L_VALUE, NAF, NCF, NEG, NG, NR, NSF, P_AMAX, P_GMPOOL, P_NSIDES, P_POL, P_TRACK, P_TWCAP, POL_ASKS,
    MAX_SLOTS, POL_W, S_COUNT, S_FP, S_MOB, S_NBOX, S_NSLOT, S_NSTUNT, S_ZONE,
)
from .countdowns import _cd_setup
from .solo import _count_facing
from .mirror import kernel_only, mirrors


@mirrors("fate_env.rules.engine.start")
@njit(cache=True, _nrt=False)
def _reset(T, W):
    """A fresh table for the next episode: the characters as built, the aspects of the set-up."""
    SC, A0, AF0, P = T.SC, T.A0, T.AF0, T.P
    CH, MARK, SLOTA, G, A, AF, AL, INV = W.CH, W.MARK, W.SLOTA, W.G, W.A, W.AF, W.AL, W.INV
    n = SC.shape[0]
    for a in range(A.shape[0]):
        for k in range(NAF):
            A[a, k] = 0
        for h in range(n):
            AF[a, h] = 0
        AL[a] = 0
        for sd in range(INV.shape[0]):
            INV[sd, a] = 0
    nans, playout, horizon = G[G_NANS], G[G_PLAYOUT], G[G_HORIZON]
    for k in range(NG):  # past NG: an agent's answers, kept (and a look-ahead's settings)
        G[k] = 0
    G[G_NANS], G[G_PLAYOUT], G[G_HORIZON] = nans, playout, horizon
    G[G_GMPOOL] = P[P_GMPOOL]
    G[G_WINNER] = NEG
    _cd_setup(P, G)
    G[G_CONTEST] = 1 if P[P_KIND] == KIND_CONTEST else 0
    G[G_TASKS] = (1 << P[P_NTASK]) - 1  # every task of the scene's challenge left
    for a in range(A0.shape[0]):
        aid = a + 1
        for k in range(NAF):
            A[aid, k] = A0[a, k]
        for h in range(n):
            AF[aid, h] = AF0[a, h]
        A[aid, A_ALIVE] = 1
        AL[a] = aid
    A[0, 0] = A0.shape[0]
    G[G_NAL] = A0.shape[0]
    G[G_ASEQ] = A0.shape[0]
    for c in range(n):
        for k in range(NCF):
            CH[c, k] = 0
        CH[c, C_ZONE] = SC[c, S_ZONE]
        CH[c, C_FP] = SC[c, S_FP]
        CH[c, C_TOOKBY] = NEG
        CH[c, C_NSTUNT] = SC[c, S_NSTUNT]
        CH[c, C_MEMBERS] = SC[c, S_COUNT]
        CH[c, C_MOB] = SC[c, S_MOB]
        CH[c, C_COUNT] = SC[c, S_COUNT]
        CH[c, C_TWCAP] = P[P_TWCAP]
        CH[c, C_SCALE] = SC[c, S_SCALE]
        for b in range(MARK.shape[1]):
            MARK[c, b] = 0
        for k in range(SLOTA.shape[1]):
            SLOTA[c, k] = NEG
        for k in range(MAX_SLOTS):
            CH[c, C_SLOTNAME + k] = NEG
    _count_facing(SC, CH, P)  # the solo skill bonus's counts (C_SOLOSKILL)


@kernel_only("the working buffers, allocated once per call into the kernel (the helpers run without reference counting)")
@njit(cache=True)
def _scratch(n, ZF, TPL):
    """The working buffers a flow writes into, sized for the scene (allocated once per call into
    the kernel: the helpers run without reference counting)."""
    return Work(np.zeros(NR, np.int64), np.empty(n, np.int64), np.empty(4, np.int64), np.empty(n, np.int64),
                np.empty(n, np.int64), np.empty(8, np.int64), np.empty(4, np.int64), np.empty((2048, 7), np.int64),
                np.empty(4, np.int64), np.empty(ZF.shape[2] + 1, np.int64), np.empty(4 * n, np.int64),
                np.empty(4 * n, np.int64), np.empty(8, np.int64), np.empty(n, np.int64),
                np.empty(TPL.shape[0] * (n + 1) + 1, np.int64), np.empty(TPL.shape[0] * (n + 1) + 1, np.int64))


@mirrors("fate_env.rules.flows.conflict.run")
@njit(cache=True, nogil=True)
def play_batch(T, SEEDS, POLICY_RNG0, EV, CH_out, MARK, SLOTA_out, G_out):
    """Play one conflict per seed in ``SEEDS`` on the scene ``T`` (a ``Scene``), each from its
    start with the dice of ``default_rng(seed)``. The final states come back in ``CH_out[i]``,
    ``SLOTA_out[i]``, ``G_out[i]``; ``EV[:G_out[-1, G_NEV]]`` holds the last episode's events (one
    seed: its log). ``G_out[i, G_BAIL]`` is non-zero when episode i took a path the kernel does not
    cover (the caller then plays it on the reference engine). ``POLICY_RNG0[i]``: the random
    policy's generator at the start of episode i (numpy's state: see core.py). Every array the
    flow needs is allocated here, once per batch: the helpers below run without reference
    counting. It runs without the GIL, so a worker's watcher thread can end the worker mid-batch
    when its parent is gone (``evaluation/pools._end_with_parent``)."""
    SC, P = T.SC, T.P
    n = SC.shape[0]
    amax = P[P_AMAX]
    A = np.zeros((amax, NAF), np.int64)
    AF = np.zeros((amax, n), np.int64)
    AL = np.zeros(amax, np.int64)
    INV = np.zeros((P[P_NSIDES], amax), np.int64)
    RNG = np.zeros(2 * RNG_SIZE, np.uint64)  # the dice, then the random policy's generator
    B = _scratch(n, T.ZF, T.TPL)
    for i in range(SEEDS.shape[0]):
        seed_rng(RNG, SEEDS[i])
        for j in range(RNG_SIZE):
            RNG[RNG_SIZE + j] = POLICY_RNG0[i, j]
        W = Fight(CH_out[i], MARK, SLOTA_out[i], G_out[i], A, AF, AL, INV, RNG)
        _reset(T, W)
        _flow(T, W, B, EV, W)  # no checkpoints in a batch: the state stands in for them, unused


@mirrors("fate_env.rules.engine.Engine.step")
@njit(cache=True)
def advance(T, SEED, POLICY_RNG0, EV, W, K, fresh):
    """Play one conflict whose ``agent`` seats are answered from outside (G past NG), from its
    start (``fresh``) or from the checkpoint ``K`` of the last turn's start, to its end or to the
    first decision past the answers (a pause: see _draw). ``W`` and ``K`` (both ``Fight``
    bundles) are the caller's and persist between calls, so a pause costs the replay of one
    turn, not of the whole fight."""
    _advance(T, SEED, POLICY_RNG0, EV, W, K, fresh, _scratch(T.SC.shape[0], T.ZF, T.TPL))


@mirrors("fate_env.rules.engine.Engine.step")
@njit(cache=True)
def _advance(T, SEED, POLICY_RNG0, EV, W, K, fresh, B):
    """``advance`` with the caller's working buffers ``B`` (``_scratch``'s; the roll in progress is
    zeroed here): a caller that pauses many times (``entity_rows.play_learned``) makes them once."""
    G, RNG = W.G, W.RNG
    if fresh:
        seed_rng(RNG, SEED[0])
        for j in range(RNG_SIZE):
            RNG[RNG_SIZE + j] = POLICY_RNG0[j]
        _reset(T, W)
    else:
        _restore(W, K)
        G[G_RESUME] = 1
    G[G_CKMODE] = 1
    G[G_BAIL] = BAIL_NONE
    B.R[:] = 0
    _flow(T, W, B, EV, K)


@mirrors("fate_env.rules.engine.Engine.fork", "agents.search.SearchController._lookahead")
@njit(cache=True, nogil=True)
def playouts(T0, SEED, ANSWERS, TRIES, RSEEDS, horizon, EV, CH_out, OUT, H_out):
    """Copies of one position, each played on with its own dice (``Engine.fork``). The scene is
    replayed once from ``SEED`` with every seat answered by ``ANSWERS`` (the scene's answers so
    far) to the decision they lead to, keeping the state at that turn's start; copy i starts from
    there, answers that decision with ``TRIES[i]``, and from then on every seat plays its policy on
    the dice of ``default_rng(RSEEDS[i])`` until the end or until exchange ``horizon`` begins (0:
    the end). ``OUT[i]``: the winning side (-1 none) and G_BAIL (BAIL_HORIZON: stopped at the
    horizon); ``OUT[-1]``: the decision the replay reached (kind, actor, option count; actor -1 if
    it reached none, the count then its G_BAIL: a fight too long for the tables says so). ``H_out[i, c]``: what c has used up of its stress boxes and consequence
    slots on the scene's track, and their total (search.harm); ``CH_out[i]``: its characters."""
    SC, SLOTS = T0.SC, T0.SLOTS
    n = SC.shape[0]
    P = T0.P.copy()  # the copies' seats stop asking once their answers are spent: their own P
    T = Scene(SC, T0.SK, T0.ST, SLOTS, T0.A0, T0.AF0, P, T0.SIGHT, T0.HOPS, T0.ZF, T0.ZFN, T0.ZR, T0.ZRN, T0.TPL)
    asks = np.zeros(n, np.int64)
    for c in range(n):
        asks[c] = P[P[P_POL] + POL_W * c + POL_ASKS]
    amax = P[P_AMAX]
    A = np.zeros((amax, NAF), np.int64)
    AF = np.zeros((amax, n), np.int64)
    AL = np.zeros(amax, np.int64)
    INV = np.zeros((P[P_NSIDES], amax), np.int64)
    MARK = np.zeros((n, 64), np.int64)
    RNG = np.zeros(3 * RNG_SIZE, np.uint64)  # the dice, the random policy's generator, the copy's dice
    nans = ANSWERS.shape[0]
    G = np.zeros(NG + nans + 1, np.int64)
    CH = np.zeros((n, CH_out.shape[2]), np.int64)
    SLOTA = np.zeros((n, SLOTS.shape[1]), np.int64)
    W = Fight(CH, MARK, SLOTA, G, A, AF, AL, INV, RNG)
    K = Fight(np.zeros_like(CH), np.zeros_like(MARK), np.zeros_like(SLOTA), np.zeros(NG, np.int64), np.zeros_like(A),
              np.zeros_like(AF), np.zeros_like(AL), np.zeros_like(INV), np.zeros_like(RNG))
    B = _scratch(n, T.ZF, T.TPL)
    # the scene to the decision, once, keeping its turn's start
    for j in range(nans):
        G[NG + j] = ANSWERS[j]
    G[G_NANS] = nans
    seed_rng(RNG, SEED[0])
    _reset(T, W)
    G[G_CKMODE] = 1
    _flow(T, W, B, EV, K)
    last = OUT.shape[0] - 1
    OUT[last, 0] = G[G_PKIND]
    OUT[last, 1] = G[G_PACTOR] if G[G_BAIL] == BAIL_PAUSE else NEG
    OUT[last, 2] = G[G_PCOUNT] if G[G_BAIL] == BAIL_PAUSE else G[G_BAIL]
    if G[G_BAIL] != BAIL_PAUSE:
        return
    for i in range(TRIES.shape[0]):
        _restore(W, K)
        for c in range(n):
            P[P[P_POL] + POL_W * c + POL_ASKS] = asks[c]
        seed_rng(RNG[2 * RNG_SIZE:], RSEEDS[i])
        G[NG + nans] = TRIES[i]
        G[G_NANS] = nans + 1
        G[G_RESUME] = 1
        G[G_CKMODE] = 0
        G[G_BAIL] = BAIL_NONE
        G[G_PLAYOUT] = n
        G[G_HORIZON] = horizon
        _flow(T, W, B, EV, K)
        OUT[i, 0] = G[G_WINNER]
        OUT[i, 1] = G[G_BAIL]
        for c in range(n):
            used = 0
            total = 0
            for b in range(SC[c, S_NBOX]):
                total += SC[c, NSF + b]
                if MARK[c, b] != 0:
                    used += SC[c, NSF + b]
            for k in range(SC[c, S_NSLOT]):
                if SLOTS[c, k, L_TRACK] == NEG or SLOTS[c, k, L_TRACK] == P[P_TRACK]:
                    total += SLOTS[c, k, L_VALUE]
                    if SLOTA[c, k] != NEG:
                        used += SLOTS[c, k, L_VALUE]
            H_out[i, c, 0] = used
            H_out[i, c, 1] = total
        for c in range(n):
            for k in range(CH.shape[1]):
                CH_out[i, c, k] = CH[c, k]


@mirrors("agents.learned.LearnedController.scores")
@njit(cache=True)
def script_pick(T, W, K, EV, W2):
    """The option a paused seat's own script would take (the move the ``learned`` NPC reads as its
    helper's): a copy ``W2`` of the fight from the turn's start ``K`` takes the turn's answers so
    far, then the seat plays its script; the copy's first decision past the pause is the script's,
    and the copy stops there (G_STOPEV). Returns its option index, or -1 when the copy made no such
    decision (it bailed). ``EV`` is a scratch event table (the session's own holds the
    paused options); ``W2.G`` has room for the answers and ``W2.RNG`` for three generators."""
    return _script_pick(T, W, K, EV, W2, _scratch(T.SC.shape[0], T.ZF, T.TPL))


@mirrors("agents.learned.LearnedController.scores")
@njit(cache=True)
def _script_pick(T, W, K, EV, W2, B):
    """``script_pick`` with the caller's working buffers ``B`` (as ``_advance``)."""
    G, G2 = W.G, W2.G
    n = T.SC.shape[0]
    P = T.P.copy()  # the copy's seats stop asking: its own parameters
    T2 = Scene(T.SC, T.SK, T.ST, T.SLOTS, T.A0, T.AF0, P, T.SIGHT, T.HOPS, T.ZF, T.ZFN, T.ZR, T.ZRN, T.TPL)
    nans = G[G_NANS]
    for j in range(nans):
        G2[NG + j] = G[NG + j]
    G2[G_NANS] = nans
    _restore(W2, K)
    RNG = W2.RNG
    if G2[G_ANSPOS] >= nans:  # no answer taken since the turn began: the seat's script plays from here, and
        # the copy stops at the next seat that asks, if one does before the exchange ends
        P[P[P_POL] + POL_W * G[G_PACTOR] + POL_ASKS] = 0
    else:  # the turn's answers first, then the scripts (kernel.seats._play_out), on the same dice
        G2[G_PLAYOUT] = n
        for j in range(RNG_SIZE):
            RNG[2 * RNG_SIZE + j] = RNG[j]
    G2[G_HORIZON] = G2[G_EXCHANGE] + 1
    G2[G_RESUME] = 1
    G2[G_CKMODE] = 0
    G2[G_BAIL] = BAIL_NONE
    at = G[G_NEV]
    G2[G_STOPEV] = at + 1  # the copy's first event past the pause is all it is for
    B.R[:] = 0
    _flow(T2, W2, B, EV, K)
    if G2[G_NEV] <= at or EV[at, 0] != E_DECISION or EV[at, 1] != G[G_PKIND] or EV[at, 2] != G[G_PACTOR]:
        return NEG
    return EV[at, 3]
