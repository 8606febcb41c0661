"""Hazards (``rules/hazards.py``): obstacles that attack (Fate Condensed's, 003:2270-2297). A hazard has no
character row: it rolls its rating as the roll's roller ``HZ_ROLLER - h`` (layout), only its target answers
and invokes, and its hit gives no one a free invoke. Its row in P (``HZ_*``) says where and whom it strikes
and where it acts in an order by skills; it acts while its aspect stands.
"""

from __future__ import annotations

from ..jit import njit
from .attack import _respond
from .events import _emit
from .harm import _harm
from .invokes import _settle
from .layout import (
    ACT_ATTACK, ACT_DEFEND, ACTIVE, A_ALIVE, BAIL_NONE, C_STATUS, C_ZONE, E_HAZARD, E_PASSIVE, E_ROLLED, G_BAIL,
    HIT_HAZARD, HZ_ASPECT, HZ_RATING, HZ_ROLLER, HZ_SIDES, HZ_SLOT, HZ_WEAPON, HZ_ZONE, HZW, NEG, P_HZ, P_NHZ,
    P_TRACK, P_WEAPONS, R_ABOUT, R_ACTOR, R_BASE, R_BONUS, R_FACES, R_OBASE, R_OBONUS, R_OFACES, R_OPP, R_TARGET,
    R_Z1, R_Z2, RESP_DEFEND, RESP_FORGO, RESP_NONE, S_ARMOR, S_SIDE, WEAPONS_ROLL, WEAPONS_SHIFTS, WHY_PASSIVE_FORGO,
)
from .mirror import mirrors
from .rolls import _defend_skill, _look, _roll, _rolled
from .table import _over


@mirrors("fate_env.rules.hazards._defence")
@njit(cache=True, _nrt=False)
def _hz_defence(T, W, c):
    """``c``'s defence against a hazard, a look without dice: the skill that defends on the scene's track
    (Athletics; Will in a mental conflict) with its stunts, full defense, consequences and solo bonus."""
    SK, ST, P = T.SK, T.ST, T.P
    CH, A = W.CH, W.A
    return _look(SK, ST, CH, A, c, _defend_skill(SK, ST, CH, A, P, c, NEG, 1 if P[P_TRACK] == 0 else 2, NEG),
                 ACT_DEFEND, NEG)


@mirrors("fate_env.rules.hazards.targets", "fate_env.rules.hazards.attack")
@njit(cache=True, _nrt=False)
def _hz_target(T, W, row):
    """The character the hazard at P[row:] strikes: of those still in, of the sides it attacks, in its zone
    (anywhere for one with none), the one with the lowest defence against it, the first in the scene's order
    on a tie; NEG for none."""
    SC, P = T.SC, T.P
    CH = W.CH
    zone, sides = P[row + HZ_ZONE], P[row + HZ_SIDES]
    best = NEG
    best_v = 0
    for c in range(SC.shape[0]):
        if CH[c, C_STATUS] != ACTIVE or (sides >> SC[c, S_SIDE]) & 1 == 0 or zone != NEG and CH[c, C_ZONE] != zone:
            continue
        v = _hz_defence(T, W, c)
        if best == NEG or v < best_v:
            best = c
            best_v = v
    return best


@mirrors("fate_env.rules.hazards.attack")
@njit(cache=True, _nrt=False)
def _hz_attack(T, W, B, EV, h):
    """Hazard ``h`` attacks (003:2288-2293): its target answers (defend, concede or, under forgo_defense,
    take it undefended: never a full defense declared, which is for a character's attack), the hazard rolls
    its rating, the target defends and invokes alone; a tie or better hits for the shifts plus its weapon
    rating, less armor where weapons add to a hit (003:2686-2687), with no one to hold a free invoke."""
    SC, SK, ST, P = T.SC, T.SK, T.ST, T.P
    CH, A, G, RNG = W.CH, W.A, W.G, W.RNG
    R, faces = B.R, B.faces
    row = P[P_HZ] + HZW * h
    target = _hz_target(T, W, row)
    if target == NEG:
        return
    code = HZ_ROLLER - h
    _emit(EV, G, E_HAZARD, (h, target, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    answer = _respond(T, W, EV, target, B, True, False)
    if answer == RESP_NONE:
        return
    rating = P[row + HZ_RATING]
    dice = _roll(RNG, G, faces)
    _emit(EV, G, E_ROLLED, (code, ACT_ATTACK, 0, rating, rating, faces[0], faces[1], faces[2], faces[3], 0, 0))
    R[R_ACTOR] = code
    R[R_BASE] = rating
    R[R_FACES] = dice
    R[R_BONUS] = 0
    R[R_Z1] = CH[target, C_ZONE]
    R[R_Z2] = CH[target, C_ZONE]
    R[R_TARGET] = target
    R[R_ABOUT] = 0
    R[R_OBONUS] = 0
    if answer == RESP_FORGO:  # against Mediocre: no defense roll, and no invokes at all
        R[R_OPP] = NEG
        R[R_OBASE] = 0
        R[R_OFACES] = 0
        _emit(EV, G, E_PASSIVE, (code, ACT_ATTACK, 0, target, WHY_PASSIVE_FORGO, 0, 0, 0, 0, 0, 0))
    else:
        dskill = _defend_skill(SK, ST, CH, A, P, target, NEG, 1 if P[P_TRACK] == 0 else 2, NEG)
        armor = SC[target, S_ARMOR] if P[P_WEAPONS] == WEAPONS_ROLL and P[P_TRACK] == 0 else 0
        R[R_OPP] = target
        R[R_OBASE], R[R_OFACES] = _rolled(T, W, EV, faces, target, ACT_DEFEND, dskill, NEG, NEG, armor)
    m = _settle(T, W, B, EV, True, answer == RESP_DEFEND, ACT_ATTACK, target)
    if G[G_BAIL] != BAIL_NONE or m < 0 or CH[target, C_STATUS] != ACTIVE:
        return
    shifts = m + P[row + HZ_WEAPON]
    armor = 0
    if P[P_WEAPONS] == WEAPONS_SHIFTS and P[P_TRACK] == 0:
        armor = SC[target, S_ARMOR]
        shifts -= armor
    if shifts > 0:  # nothing left: no harm, and no one takes a boost
        _harm(T, W, EV, target, shifts, NEG, B, HIT_HAZARD, h, armor)


@mirrors("fate_env.rules.hazards.act")
@njit(cache=True, _nrt=False)
def _hazards_act(T, W, B, EV, after, upto):
    """The hazards still standing whose slot in an order by skills lies in (after, upto] take their turns
    in the scene's order (popcorn order passes every slot: its hazards close the exchange), until the
    scene is over or a seat's answer is awaited."""
    SC, P = T.SC, T.P
    CH, A, G = W.CH, W.A, W.G
    for h in range(P[P_NHZ]):
        row = P[P_HZ] + HZW * h
        if P[row + HZ_SLOT] <= after or P[row + HZ_SLOT] > upto:
            continue
        if _over(SC, CH, G):
            return
        if A[P[row + HZ_ASPECT], A_ALIVE] != 0:
            _hz_attack(T, W, B, EV, h)
            if G[G_BAIL] != BAIL_NONE:
                return
