"""Clearing an aspect (``rules/actions/remove.py``).
"""

from __future__ import annotations

from ..jit import njit
from .aspects import _boost, _drop_aspect, _hazard_of
from .events import _emit
from .invokes import _settle
from .layout import (
    A_BLOCK, BK_REMOVE, BKW, G_MAP, P_BLK, R_ABOUT, A_ALIVE, A_CREATOR, A_NAME, A_SKILL, ACT_OVERCOME, ACTIVE, BAIL_NONE, C_NSTUNT, C_STATUS, C_ZONE,
    E_REMOVED, G_BAIL, NEG, OUT_FAIL, OUT_STYLE, P_NAME_CLEAR, P_RSK, S_SIDE, WHY_CLEARED,
    WHY_PASSIVE_CLEAR, HZ_RATING, HZW, P_HZ,
)
from .mirror import mirrors
from .overcome import _overcome_outcome
from .overcome_move import _block_skill
from .rolls import _roll_action, _stunt, _use_skill


@mirrors("fate_env.rules.actions.remove.run", "fate_env.rules.blocks.clear")
@njit(cache=True, _nrt=False)
def _remove(T, W, B, EV, actor, aid):
    """remove.run: an overcome against the creator's defense (the skill that made the aspect) if
    the creator is a foe still in, else a Fair difficulty, or a block's own: its rating plus two
    (003:2344-2345), or a hazard's: its rating (003:2295-2297); the aspect goes on success or at a
    cost, and with a block's the block (the map in force is the one without it: G_MAP), with a
    hazard's the hazard (it acts while its aspect stands)."""
    SC, SK, ST, P = T.SC, T.SK, T.ST, T.P
    CH, A, AF, AL, G = W.CH, W.A, W.AF, W.AL, W.G
    skill = NEG
    best = 0
    for j in range(3):  # best_skill(actor, REMOVE_SKILLS, "overcome")
        x = P[P[P_RSK] + j]
        v = SK[actor, x] + (_stunt(ST, CH, A, actor, x, ACT_OVERCOME, NEG) if CH[actor, C_NSTUNT] else 0)
        if skill == NEG or v > best:
            skill = x
            best = v
    skill = _use_skill(SK, ST, CH, A, P, actor, skill, ACT_OVERCOME, NEG, NEG)
    creator = A[aid, A_CREATOR]
    active = creator != NEG and CH[creator, C_STATUS] == ACTIVE and SC[creator, S_SIDE] != SC[actor, S_SIDE]
    dskill = A[aid, A_SKILL]
    if active and dskill == NEG:  # best_skill(creator, BLOCK_SKILLS, "defend"): not an attack, unlimited stunts only
        dskill = _block_skill(T, W, creator, NEG)
    block = A[aid, A_BLOCK] - 1  # NEG: not a block's
    h = _hazard_of(P, aid)  # a hazard's rating (003:2295-2297)
    difficulty = P[P[P_BLK] + BKW * block + BK_REMOVE] if block != NEG else \
        P[P[P_HZ] + HZW * h + HZ_RATING] if h != NEG else 2  # 2: REMOVE_DIFFICULTY
    _roll_action(T, W, B, EV, actor, ACT_OVERCOME, skill, creator if active else NEG, creator if active else NEG,
                 dskill, (difficulty, A[aid, A_NAME], WHY_PASSIVE_CLEAR))
    if G[G_BAIL] != BAIL_NONE:
        return
    if block != NEG:
        B.R[R_ABOUT] = 1 << block
    m = _settle(T, W, B, EV, False, active, ACT_OVERCOME, creator if active else NEG)
    if G[G_BAIL] != BAIL_NONE:
        return
    outcome = _overcome_outcome(T, W, B, EV, actor, m, CH[actor, C_ZONE])
    if outcome != OUT_FAIL and A[aid, A_ALIVE] != 0:
        if block != NEG:
            G[G_MAP] |= 1 << block
        _drop_aspect(A, AL, G, aid)
        _emit(EV, G, E_REMOVED, (aid, A[aid, A_NAME], WHY_CLEARED, actor, 0, 0, 0, 0, 0, 0, 0))
    if outcome == OUT_STYLE:
        _boost(A, AF, AL, G, P, EV, actor, P[P_NAME_CLEAR])
