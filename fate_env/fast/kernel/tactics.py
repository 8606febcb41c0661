"""The tactics built on ``basic`` (``agents/tactics.py``): the tactician's free invokes held, the
sniper's trigger and shot, the brute's closest foe.
"""

from __future__ import annotations

from ..jit import njit
from .layout import A_OWNER, ACTIVE, C_STATUS, C_ZONE, G_NAL, NEG, P_FIGHT, S_SIDE
from .mirror import mirrors
from .rolls import _attack_rating, _defense_rating


@mirrors("agents.tactics.TacticianController._held")
@njit(cache=True, _nrt=False)
def _held(SC, A, AF, AL, G, me, target):
    """TacticianController._held: free invokes ``me``'s side holds on aspects of ``target``."""
    side = SC[me, S_SIDE]
    total = 0
    for i in range(G[G_NAL]):
        aid = AL[i]
        if A[aid, A_OWNER] == target:
            for h in range(SC.shape[0]):
                if SC[h, S_SIDE] == side:
                    total += AF[aid, h]
    return total


@mirrors("agents.tactics.TacticianController._next")
@njit(cache=True, _nrt=False)
def _holds_free(AF, AL, G, c):
    """``c`` holds a free invoke on some aspect in play."""
    for i in range(G[G_NAL]):
        if AF[AL[i], c] > 0:
            return True
    return False


@mirrors("agents.tactics.SniperController._foe_here")
@njit(cache=True, _nrt=False)
def _foe_here(SC, CH, me):
    """An active foe in ``me``'s zone (the sniper's trigger)."""
    side = SC[me, S_SIDE]
    z = CH[me, C_ZONE]
    for x in range(SC.shape[0]):
        if CH[x, C_STATUS] == ACTIVE and SC[x, S_SIDE] != side and CH[x, C_ZONE] == z:
            return True
    return False


@mirrors("agents.tactics.SniperController._turn")
@njit(cache=True, _nrt=False)
def _ranged_pick(SK, ST, CH, A, P, actor, natt, att_t, att_s):
    """sniper: the attack not with Fight with the best rating against defense (the first of equals)."""
    best = NEG
    best_v = 0
    for i in range(natt):
        if att_s[i] == P[P_FIGHT]:
            continue
        v = _attack_rating(SK, ST, CH, A, actor, att_s[i], att_t[i]) - \
            _defense_rating(SK, ST, CH, A, P, att_t[i], actor, att_s[i])
        if best == NEG or v > best_v:
            best = i
            best_v = v
    return best


@mirrors("agents.tactics.BruteController._turn")
@njit(cache=True, _nrt=False)
def _closest_pick(SK, ST, CH, A, actor, natt, att_t, att_s):
    """brute: the closest foe (its own zone if any there), the attack with the highest rating."""
    here = CH[actor, C_ZONE]
    same = False
    for i in range(natt):
        if CH[att_t[i], C_ZONE] == here:
            same = True
    best = NEG
    best_r = 0
    for i in range(natt):
        if same and CH[att_t[i], C_ZONE] != here:
            continue
        r = _attack_rating(SK, ST, CH, A, actor, att_s[i], att_t[i])
        if best == NEG or r > best_r:
            best = i
            best_r = r
    return best
