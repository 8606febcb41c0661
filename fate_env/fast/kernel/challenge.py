"""A challenge's flow (``rules/flows/challenge.py``): the challengers' first character picks the next task and
who takes it on (a task may name who must), until every task was tried once (the task itself: ``task.py``).
With ``basic``'s answers (``agents/basic.py``: the task with the best odds next), a random seat's draws, or an
answer from outside.
"""

from __future__ import annotations

from ..jit import njit
from .checkpoint import _save
from .conflict import _finish
from .events import _decision, _opt
from .layout import (
    ACTIVE, BAIL_PAUSE, C_STATUS, D_TASK, G_BAIL, G_CKMODE, G_EXCHANGE, G_RESUME, G_TASKS, NEG, O_TASK, P_CSIDE,
    P_NTASK, P_TASK, R_CT_TASK, S_SIDE, TK_BY, TK_DIFF, TK_SKILL, TKW,
)
from .mirror import mirrors
from .rolls import _effective
from .seats import _draw, _draws, _why
from .task import _attempt


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
