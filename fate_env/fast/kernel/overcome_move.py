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
    G_MAP, HIT_CROSSING, P_NBLK, P_ZHARM, P_ZPATH, R_ABOUT, E_SPRINTED, P_BDIFF, P_PREV, P_SPRINT, WHY_PASSIVE_SPRINT,
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


@mirrors("fate_env.rules.rolls.best_skill")
@njit(cache=True, _nrt=False)
def _block_skill(T, W, by, actor):
    """The skill ``by`` opposes ``actor`` with, standing in the way of its move or defending an aspect it
    made from being cleared (NEG: no one's attack): best_skill(by, BLOCK_SKILLS, "defend", attacker=actor),
    widened by its use_skill stunts for a roll that is not an attack."""
    SK, ST, P = T.SK, T.ST, T.P
    CH, A = W.CH, W.A
    dskill = P[P_FIGHT]
    v = NEG
    for c in (P[P_FIGHT], P[P_ATHLETICS]):
        e = SK[by, c] + (_stunt(ST, CH, A, by, c, ACT_DEFEND, actor) if CH[by, C_NSTUNT] else 0)
        if v == NEG or e > v:
            v = e
            dskill = c
    return _use_skill(SK, ST, CH, A, P, by, dskill, ACT_DEFEND, actor, NEG)


@mirrors("fate_env.rules.actions.overcome_move.sprint")
@njit(cache=True, _nrt=False)
def _sprint(T, W, B, EV, actor, zone, by, dskill):
    """Fate 3.0's sprint (002:50-51): Athletics against Mediocre (or the foe in the way); each zone of the
    cheapest way to ``zone`` takes a shift and its border's value more, and the sprinter goes as far as its
    shifts pay for (no tie's cost, no style's boost)."""
    P = T.P
    CH, G = W.CH, W.G
    here = CH[actor, C_ZONE]
    nz = T.HOPS.shape[0]
    active = _roll_action(T, W, B, EV, actor, ACT_OVERCOME, P[P_ATHLETICS], NEG, by, dskill,
                          (0, TGT_ZONE + zone, WHY_PASSIVE_SPRINT))
    if G[G_BAIL] != BAIL_NONE:
        return
    m = _settle(T, W, B, EV, False, active, ACT_OVERCOME, TGT_ZONE + zone)
    if G[G_BAIL] != BAIL_NONE:
        return
    way = B.moves  # the cheapest way, zone back to here, read from its predecessors (zones.path_borders)
    prev = P[P_PREV] + G[G_MAP] * nz * nz + here * nz
    steps = 0
    z = zone
    while z != here and P[prev + z] != NEG:
        way[steps] = z
        steps += 1
        z = P[prev + z]
    left = m
    at = here
    moved = 0
    for i in range(steps - 1, -1, -1):  # walked from here on
        cost = 1 + P[P[P_BDIFF] + (G[G_MAP] * nz + at) * nz + way[i]]
        if left < cost:
            break
        left -= cost
        at = way[i]
        moved += 1
    _emit(EV, G, E_SPRINTED, (actor, m if m > 0 else 0, zone, moved, 0, 0, 0, 0, 0, 0, 0))
    if at != here:
        _emit(EV, G, E_MOVED, (actor, here, at, 0, 0, 0, 0, 0, 0, 0, 0))
        CH[actor, C_ZONE] = at


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
    dskill = _block_skill(T, W, by, actor) if by != NEG else P[P_FIGHT]
    if P[P_SPRINT] != 0:
        _sprint(T, W, B, EV, actor, zone, by, dskill)
        return
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
