"""What a character can reach (``rules/reach.py``): attack skills and their reach, who blocks
a move, the free moves.
"""

from __future__ import annotations

from ..jit import njit
from .layout import ACTIVE, ATK_W, C_STATUS, C_ZONE, NP, P_BLOCK, P_SHOOT, S_IMMOBILE, S_SIDE
from .mirror import mirrors


@mirrors("fate_env.rules.reach.reach_of")
@njit(cache=True, _nrt=False)
def _reach_of(P, c, skill):
    """The reach of ``c``'s attacks with ``skill`` (reach.reach_of): melee unless listed."""
    at = NP + ATK_W * c
    for j in range(P[at]):
        if P[at + 1 + 2 * j] == skill:
            return P[at + 2 + 2 * j]
    return 0


@mirrors("fate_env.rules.reach.can_reach")
@njit(cache=True, _nrt=False)
def _can_reach(P, SIGHT, CH, c, skill, here, target):
    reach = _reach_of(P, c, skill)
    if reach == 2:
        return True
    tz = CH[target, C_ZONE]
    if reach == 0:
        return tz == here
    d = SIGHT[here, tz]
    return d >= 0 and d <= P[P_SHOOT]


@mirrors("fate_env.rules.reach.attack_skills")
@njit(cache=True, _nrt=False)
def _attack_skills(P, c, out):
    """``c``'s attack skills in this scene (reach.attack_skills): the track's, then its stunts'."""
    at = NP + ATK_W * c
    for j in range(P[at]):
        out[j] = P[at + 1 + 2 * j]
    return P[at]


@mirrors("fate_env.rules.reach.free_moves")
@njit(cache=True, _nrt=False)
def _free_moves(SC, CH, P, ZF, ZFN, c, out):
    if SC[c, S_IMMOBILE] != 0:  # a part of the map, a turret: it stays where it is
        return 0
    z = CH[c, C_ZONE]
    if P[P_BLOCK] != 0:
        side = SC[c, S_SIDE]
        for x in range(SC.shape[0]):
            if CH[x, C_STATUS] == ACTIVE and SC[x, S_SIDE] != side and CH[x, C_ZONE] == z:
                return 0
    for i in range(ZFN[z]):
        out[i] = ZF[z, i]
    return ZFN[z]
