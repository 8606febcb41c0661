"""A task of the scene's challenge (``rules/actions/task.py``): an overcome against its difficulty (003:1473-1476;
000:42-62), invoked on as any roll; a failure may be taken as success at a major cost (003:673-679), a tie is a
minor cost (or, under Condensed, a failure with a boost), success with style a boost. In a challenge it is the
whole turn; in a conflict holding one, an action a character not set back this exchange may take (000:501-505).
The results live in G (G_TASKS, G_TASKRES) for the outcome.
"""

from __future__ import annotations

from ..jit import njit
from .aspects import _boost
from .events import _decision, _emit, _paused_two
from .invokes import _opposition, _settle
from .layout import (
    ACT_OVERCOME, BAIL_NONE, BAIL_TASKS, D_COST, E_TASKRES, G_BAIL, G_NTASKRES, G_TASKRES, G_TASKS, KIND_CHALLENGE,
    MAX_TASKRES, O_FAIL, O_MAJOR_COST, OUT_COST, P_KIND, P_NAME_FLYING, P_TASK, R_BASE, R_BONUS, R_CT_DONE, R_FACES,
    TK_DIFF, TK_SKILL, TKW, TR_FAIL, TR_FAIL_BOOST, TR_MAJOR, TR_MINOR, TR_STYLE, TR_SUCCESS, TRW, WHY_PASSIVE_TASK,
    NEG, C_SETBACK, P_CSIDE, P_NTASK, S_SIDE, TK_BY,
)
from .mirror import mirrors
from .overcome import _overcome_outcome
from .rolls import _roll_action
from .seats import _draw, _draws, _why


@mirrors("fate_env.rules.actions.task.attempt_task", "agents.basic.BasicController._cost")
@njit(cache=True, _nrt=False)
def _attempt(T, W, B, EV, c, i):
    """Task ``i`` taken on by ``c``: an overcome against its difficulty, its result recorded; in a challenge
    every task is tried once, in a conflict a failed one stays to be tried again (000:501-505). False: paused
    (or the results outgrew the kernel's record: BAIL_TASKS)."""
    P = T.P
    G, RNG = W.G, W.RNG
    R = B.R
    row = P[P_TASK] + TKW * i
    _roll_action(T, W, B, EV, c, ACT_OVERCOME, P[row + TK_SKILL], NEG, NEG, NEG,
                 (P[row + TK_DIFF], i, WHY_PASSIVE_TASK))
    if G[G_BAIL] != BAIL_NONE:
        return False
    m = _settle(T, W, B, EV, False, False, ACT_OVERCOME, NEG)
    if G[G_BAIL] != BAIL_NONE:
        return False
    if m < 0:  # fail, or succeed at a major cost (003:673-679): basic gets it done
        rnd = _draws(P, c, D_COST)
        j = _draw(P, RNG, G, c, D_COST, 2) if rnd else 1
        if j < 0:
            _paused_two(EV, G, O_FAIL, O_MAJOR_COST)
            return False
        _decision(EV, G, D_COST, c, j, _why(P, c, D_COST) if rnd else R_CT_DONE, O_MAJOR_COST if j else O_FAIL,
                  0, 0, 0, 0, 0)
        result = TR_MAJOR if j else TR_FAIL
    elif m == 0:
        result = TR_MINOR if _overcome_outcome(T, W, B, EV, c, 0, NEG) == OUT_COST else TR_FAIL_BOOST
        if G[G_BAIL] != BAIL_NONE:
            return False
    else:
        result = TR_STYLE if m >= 3 else TR_SUCCESS
        if m >= 3:
            _boost(W.A, W.AF, W.AL, G, P, EV, c, P[P_NAME_FLYING])
    if P[P_KIND] == KIND_CHALLENGE or result != TR_FAIL and result != TR_FAIL_BOOST:
        G[G_TASKS] &= ~(1 << i)
    if G[G_NTASKRES] >= MAX_TASKRES:
        G[G_BAIL] = BAIL_TASKS
        return False
    effort = R[R_BASE] + R[R_FACES] + R[R_BONUS]
    at = G_TASKRES + TRW * G[G_NTASKRES]
    G[at], G[at + 1], G[at + 2], G[at + 3], G[at + 4], G[at + 5] = i, c, effort, _opposition(R), m, result
    G[G_NTASKRES] += 1
    _emit(EV, G, E_TASKRES, (i, c, effort, _opposition(R), m, result, 0, 0, 0, 0, 0))
    return True


@mirrors("fate_env.rules.actions.task.offer")
@njit(cache=True, _nrt=False)
def _nth_own_task(SC, CH, P, G, actor, q):
    """The q-th task ``actor`` may take on in a turn (NEG past the last): none once set back this exchange or
    for another side than the challengers'; each left that names no one or names it."""
    if G[G_TASKS] == 0 or CH[actor, C_SETBACK] != 0 or SC[actor, S_SIDE] != P[P_CSIDE]:
        return NEG
    for i in range(P[P_NTASK]):
        if (G[G_TASKS] >> i) & 1 == 0:
            continue
        by = P[P[P_TASK] + TKW * i + TK_BY]
        if by == NEG or by == actor:
            if q == 0:
                return i
            q -= 1
    return NEG
