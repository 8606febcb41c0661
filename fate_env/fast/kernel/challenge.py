"""A challenge's flow (``rules/flows/challenge.py``) and its task (``rules/actions/task.py``): the challengers'
first character picks the next task and who takes it on (a task may name who must); each is an overcome
against its difficulty, invoked on as any roll; a failure may be taken as success at a major cost, a tie is a
minor cost (or, under Condensed, a failure with a boost), success with style a boost. With ``basic``'s answers
(``agents/basic.py``: the task with the best odds next, a failure at the major cost), a random seat's draws,
or an answer from outside. The results live in G (G_TASKS, G_TASKRES) for the outcome.
"""

from __future__ import annotations

from ..jit import njit
from .aspects import _boost
from .checkpoint import _save
from .conflict import _finish
from .contest import _effective
from .events import _decision, _emit, _opt, _paused_two
from .invokes import _settle
from .layout import (
    ACT_OVERCOME, ACTIVE, BAIL_NONE, BAIL_PAUSE, C_STATUS, D_COST, D_TASK, E_TASKRES, G_BAIL, G_CKMODE, G_EXCHANGE,
    G_NTASKRES, G_RESUME, G_TASKRES, G_TASKS, NEG, O_FAIL, O_MAJOR_COST, O_TASK, OUT_COST, P_CSIDE, P_NAME_FLYING,
    P_NTASK, P_TASK, R_BASE, R_BONUS, R_CT_DONE, R_CT_TASK, R_FACES, S_SIDE, TK_BY, TK_DIFF, TK_SKILL, TKW,
    TR_FAIL, TR_FAIL_BOOST, TR_MAJOR, TR_MINOR, TR_STYLE, TR_SUCCESS, TRW, WHY_PASSIVE_TASK,
)
from .invokes import _opposition
from .mirror import mirrors
from .overcome import _overcome_outcome
from .rolls import _roll_action
from .seats import _draw, _draws, _why


@mirrors("fate_env.rules.flows.challenge.run")
@njit(cache=True, _nrt=False)
def _nth_task(T, W, q):
    """The q-th option of the task question (task by task in the scene's order, each by who may take it on:
    its named character, else every challenger still in): (task, character), or (NEG, NEG) past the last."""
    SC, P = T.SC, T.P
    CH, G = W.CH, W.G
    for i in range(P[P_NTASK]):
        if (G[G_TASKS] >> i) & 1 == 0:
            continue
        by = P[P[P_TASK] + TKW * i + TK_BY]
        for c in range(SC.shape[0]):
            if CH[c, C_STATUS] != ACTIVE or SC[c, S_SIDE] != P[P_CSIDE] or by != NEG and c != by:
                continue
            if q == 0:
                return i, c
            q -= 1
    return NEG, NEG


@mirrors("fate_env.rules.actions.task.attempt_task", "agents.basic.BasicController._cost")
@njit(cache=True, _nrt=False)
def _attempt(T, W, B, EV, c, i):
    """Task ``i`` taken on by ``c``: an overcome against its difficulty, its result recorded. False: paused."""
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
    G[G_TASKS] &= ~(1 << i)  # in a challenge every task is tried once
    effort = R[R_BASE] + R[R_FACES] + R[R_BONUS]
    at = G_TASKRES + TRW * G[G_NTASKRES]
    G[at], G[at + 1], G[at + 2], G[at + 3], G[at + 4], G[at + 5] = i, c, effort, _opposition(R), m, result
    G[G_NTASKRES] += 1
    _emit(EV, G, E_TASKRES, (i, c, effort, _opposition(R), m, result, 0, 0, 0, 0, 0))
    return True


@mirrors("fate_env.rules.flows.challenge.run", "agents.basic.BasicController._task")
@njit(cache=True, _nrt=False)
def _challenge_run(T, W, B, EV, K):
    """The tasks, one at a time, until none is left or no challenger can take one on (003:1462-1488; 000:16-76);
    resumed from the checkpoint at a task's pick."""
    SC, SK, ST, P = T.SC, T.SK, T.ST, T.P
    CH, A, G, RNG = W.CH, W.A, W.G, W.RNG
    G[G_RESUME] = 0
    while G[G_TASKS] != 0:
        if G[G_CKMODE] != 0:
            _save(W, K)
        count = 0
        while _nth_task(T, W, count)[0] != NEG:
            count += 1
        if count == 0:
            break
        lead = NEG
        for c in range(SC.shape[0]):
            if CH[c, C_STATUS] == ACTIVE and SC[c, S_SIDE] == P[P_CSIDE]:
                lead = c
                break
        why = R_CT_TASK
        if count == 1:
            j = 0
        elif _draws(P, lead, D_TASK):
            j = _draw(P, RNG, G, lead, D_TASK, count)
            if j < 0:
                if G[G_BAIL] == BAIL_PAUSE:
                    for q in range(count):
                        i, c = _nth_task(T, W, q)
                        _opt(EV, G, q, O_TASK, i, c, 0, 0, 0)
                return
            why = _why(P, lead, D_TASK)
        else:  # basic: the best odds (rating with stunts less the difficulty), the first of equals
            j = 0
            best = 0
            for q in range(count):
                i, c = _nth_task(T, W, q)
                v = _effective(SK, ST, CH, A, c, P[P[P_TASK] + TKW * i + TK_SKILL]) - P[P[P_TASK] + TKW * i + TK_DIFF]
                if q == 0 or v > best:
                    best = v
                    j = q
        i, c = _nth_task(T, W, j)
        if count > 1:
            _decision(EV, G, D_TASK, lead, j, why, O_TASK, i, c, 0, 0, 0)
        G[G_EXCHANGE] += 1
        if not _attempt(T, W, B, EV, c, i):
            return
    _finish(SC, CH, W.MARK, G, EV, P, False)
