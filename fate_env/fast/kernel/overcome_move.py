"""Moving as an overcome (``rules/actions/overcome_move.py``), and who blocks the way (``rules/reach.py``'s blocker).
"""

from __future__ import annotations

from ..jit import njit
from .aspects import _boost
from .events import _emit
from .invokes import _settle
from .layout import (
    ACT_DEFEND, ACT_OVERCOME, ACTIVE, BAIL_NONE, C_NSTUNT, C_STATUS, C_ZONE, E_MOVED, G_BAIL, NEG, OUT_FAIL,
    OUT_STYLE, P_ATHLETICS, P_BLOCK, P_FIGHT, P_NAME_MOMENTUM, P_ZCOST, S_SIDE, TGT_ZONE, WHY_PASSIVE_TEMPLATE,
    G_MAP, HIT_CROSSING, P_NBLK, P_ZHARM, P_ZPATH, R_ABOUT,
)
from .harm import _harm
from .mirror import mirrors
from .overcome import _overcome_outcome
from .rolls import _roll_action, _stunt, _use_skill


@mirrors("fate_env.rules.actions.overcome_move.offer")
@njit(cache=True, _nrt=False)
def _nth_overcome(ZR, ZRN, here, moves, nm, n):
    """The n-th overcome move's zone (overcome_move.offer: a reachable zone the free move does not
    reach, in the map's order), or NEG past the last."""
    q = 0
    for i in range(ZRN[here]):
        z = ZR[here, i]
        inside = False
        for m in range(nm):
            if moves[m] == z:
                inside = True
        if not inside:
            if q == n:
                return z
            q += 1
    return NEG


@mirrors("fate_env.rules.reach.blocker")
@njit(cache=True, _nrt=False)
def _blocker(SC, SK, ST, CH, A, P, mover):
    """reach.blocker: the foe in the mover's zone with the best Fight or Athletics defense."""
    best = NEG
    best_v = 0
    side = SC[mover, S_SIDE]
    for x in range(SC.shape[0]):
        if CH[x, C_STATUS] == ACTIVE and SC[x, S_SIDE] != side and CH[x, C_ZONE] == CH[mover, C_ZONE]:
            v = NEG
            for s in (P[P_FIGHT], P[P_ATHLETICS]):
                e = SK[x, s] + (_stunt(ST, CH, A, x, s, ACT_DEFEND, NEG) if CH[x, C_NSTUNT] else 0)
                if v == NEG or e > v:
                    v = e
            if best == NEG or v > best_v:
                best = x
                best_v = v
    return best


@mirrors("fate_env.rules.actions.overcome_move.run", "fate_env.rules.blocks.harmful_crossing")
@njit(cache=True, _nrt=False)
def _overcome_move(T, W, B, EV, actor, zone):
    """overcome_move.run with basic's answers: Athletics against the foe who blocks the way
    (foes_block_movement) or the move's difficulty, the roll about the blocks it crosses; a tie
    takes the minor cost (the voice gets a boost), a failure a major cost while unhurt (the
    major_cost dial), style a boost; a failure against the difficulty across a block that harms,
    a hit of the shifts missed (003:2318-2322)."""
    SC, SK, ST, P = T.SC, T.SK, T.ST, T.P
    CH, A, AF, AL, G = W.CH, W.A, W.AF, W.AL, W.G
    here = CH[actor, C_ZONE]
    way = (G[G_MAP] * T.HOPS.shape[0] + here) * T.HOPS.shape[0] + zone  # the map in force, here to zone
    by = _blocker(SC, SK, ST, CH, A, P, actor) if P[P_BLOCK] != 0 else NEG
    dskill = P[P_FIGHT]
    if by != NEG:
        v = NEG
        for c in (P[P_FIGHT], P[P_ATHLETICS]):  # best_skill(by, BLOCK_SKILLS, "defend", attacker=actor)
            e = SK[by, c] + (_stunt(ST, CH, A, by, c, ACT_DEFEND, actor) if CH[by, C_NSTUNT] else 0)
            if v == NEG or e > v:
                v = e
                dskill = c
        dskill = _use_skill(SK, ST, CH, A, P, by, dskill, ACT_DEFEND, actor, NEG)  # a move, not an attack
    active = _roll_action(T, W, B, EV, actor, ACT_OVERCOME, P[P_ATHLETICS], NEG, by, dskill,
                          (P[P[P_ZCOST] + way], TGT_ZONE + zone, WHY_PASSIVE_TEMPLATE))
    if G[G_BAIL] != BAIL_NONE:
        return
    if by == NEG and P[P_NBLK] != 0:
        B.R[R_ABOUT] = P[P[P_ZPATH] + way]
    m = _settle(T, W, B, EV, False, active, ACT_OVERCOME, TGT_ZONE + zone)
    if G[G_BAIL] != BAIL_NONE:
        return
    outcome = _overcome_outcome(T, W, B, EV, actor, m, zone)
    if outcome == OUT_FAIL:
        if by == NEG and P[P_NBLK] != 0 and m < 0 and CH[actor, C_STATUS] == ACTIVE and P[P[P_ZHARM] + way] != NEG:
            _harm(T, W, EV, actor, -m, NEG, B, HIT_CROSSING, P[P[P_ZHARM] + way], 0)
        return
    _emit(EV, G, E_MOVED, (actor, here, zone, 0, 0, 0, 0, 0, 0, 0, 0))
    CH[actor, C_ZONE] = zone
    if outcome == OUT_STYLE:
        _boost(A, AF, AL, G, P, EV, actor, P[P_NAME_MOMENTUM])
