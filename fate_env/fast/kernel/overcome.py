"""An overcome's outcome and its costs (``rules/overcome.py``).
"""

from __future__ import annotations

from ..jit import njit
from .aspects import _boost, _cons_name, _new_aspect
from .events import _decision, _emit, _paused_two
from .layout import (
    ACTIVE, C_CTAKEN, C_NSUP, C_SLOTNAME, C_STATUS, D_COST, NCF, P_SHARED, E_CREATED, E_MAJOR, G_PLACED, K_CONSEQUENCE, K_SITUATION, L_SEV, L_TRACK, L_VALUE,
    MAJOR_CONSEQUENCE, MAJOR_ENEMY_ASPECT, MAJOR_OFF, NEG, O_FAIL, O_FAIL_BOOST, O_MAJOR_COST, O_MINOR_COST, OUT_COST,
    OUT_FAIL, OUT_STYLE, OUT_SUCCESS, P_MAJOR, P_NAME_HARD_WON, P_NAME_SECOND_WIND, P_NAME_SMALL_WIN,
    P_TIE_CHOICE, P_TRACK, R_C_HURT, R_C_MAJOR, R_C_MINOR, R_OPP, S_NSLOT, TGT_ZONE, P_NCD, TR_CONSEQUENCE,
)
from .countdowns import _cd_trigger
from .stress import _consequence_taken
from .mirror import mirrors
from .seats import _draw, _draws, _why


@mirrors("fate_env.rules.overcome.major_cost_slot")
@njit(cache=True, _nrt=False)
def _major_slot(SC, SLOTS, SLOTA, P, c):
    """overcome.major_cost_slot: the smallest free mild or moderate slot for the scene's track."""
    best = NEG
    for k in range(SC[c, S_NSLOT]):
        if SLOTA[c, k] == NEG and SLOTS[c, k, L_SEV] <= 1 and (SLOTS[c, k, L_TRACK] == NEG or
                                                             SLOTS[c, k, L_TRACK] == P[P_TRACK]):
            if best == NEG or SLOTS[c, k, L_VALUE] < SLOTS[c, best, L_VALUE]:
                best = k
    return best


@mirrors("fate_env.rules.overcome.sharers")
@njit(cache=True, _nrt=False)
def _sharer(CH, P, actor, k):
    """overcome.sharers: the k-th who pays ``actor``'s major cost (0: the roller; then its
    supporters still in the fight, each once, in pledge order, under the shared_costs dial), or NEG."""
    if k == 0:
        return actor
    if P[P_SHARED] == 0:
        return NEG
    seen = 0
    for j in range(CH[actor, C_NSUP]):
        x = CH[actor, NCF + j]
        if x == actor or CH[x, C_STATUS] != ACTIVE:
            continue
        first = True
        for i in range(j):
            if CH[actor, NCF + i] == x:
                first = False
        if first:
            seen += 1
            if seen == k:
                return x
    return NEG


@mirrors("fate_env.rules.overcome._cost_consequence")
@njit(cache=True, _nrt=False)
def _cost_consequence(SC, SLOTS, SLOTA, CH, A, AF, AL, G, P, EV, c, enemy):
    """overcome._cost_consequence: a mild or moderate consequence on ``c`` as a major cost (False:
    the aspect table is full)."""
    slot = _major_slot(SC, SLOTS, SLOTA, P, c)
    name = _cons_name(A, AL, G, P, P[P_TRACK], SLOTS[c, slot, L_SEV], c, NEG)
    aid = _new_aspect(A, AF, AL, G, P, name, K_CONSEQUENCE, c, NEG, enemy)
    if aid == NEG:
        return False
    if enemy != NEG:
        AF[aid, enemy] = 1
    SLOTA[c, slot] = aid
    CH[c, C_SLOTNAME + slot] = name
    if P[P_NCD] != 0:
        _cd_trigger(P, G, A, AF, AL, EV, TR_CONSEQUENCE, c)
    _consequence_taken(P, CH, c, SLOTS[c, slot, L_SEV])
    _emit(EV, G, E_MAJOR, (c, MAJOR_CONSEQUENCE, aid, name, 0, 0, 0, 0, 0, 0, 0))
    _emit(EV, G, E_CREATED, (name, aid, K_CONSEQUENCE, c, 1 if enemy != NEG else 0, enemy, 0, 0, 0, 0, 0))
    return True


@mirrors("fate_env.rules.overcome.overcome_outcome", "fate_env.rules.overcome.major_cost_payable")
@njit(cache=True, _nrt=False)
def _overcome_outcome(T, W, B, EV, actor, m, zone):
    """overcome.overcome_outcome: OUT_FAIL, OUT_COST, OUT_SUCCESS or OUT_STYLE after the roller's
    choices: a tie at a minor cost (the opposition gets a boost) or, under Condensed, a failure
    with a boost; a failure at a major cost (the major_cost dial). basic takes the minor cost, and
    the major one while unhurt; ``zone``: where a "Hard-Won Ground" goes."""
    SC, SLOTS, P = T.SC, T.SLOTS, T.P
    SLOTA, CH, A, AF, AL, G, RNG = W.SLOTA, W.CH, W.A, W.AF, W.AL, W.G, W.RNG
    R = B.R
    rnd = _draws(P, actor, D_COST)
    why = _why(P, actor, D_COST)
    enemy = R[R_OPP]
    if m < 0:
        if P[P_MAJOR] == MAJOR_OFF:
            return OUT_FAIL
        payable = enemy != NEG
        if P[P_MAJOR] == MAJOR_CONSEQUENCE:  # a free slot on everyone who pays
            payable = True
            k = 0
            x = actor
            while x != NEG:
                if _major_slot(SC, SLOTS, SLOTA, P, x) == NEG:
                    payable = False
                k += 1
                x = _sharer(CH, P, actor, k)
        if not payable:
            return OUT_FAIL  # the lone option, fail, is taken at once
        if rnd:
            j = _draw(P, RNG, G, actor, D_COST, 2)
            if j < 0:
                _paused_two(EV, G, O_FAIL, O_MAJOR_COST)
                return OUT_FAIL
            major = j == 1
        else:
            major = CH[actor, C_CTAKEN] == 0
        if not major:
            _decision(EV, G, D_COST, actor, 0, why if rnd else R_C_HURT, O_FAIL, 0, 0, 0, 0, 0)
            return OUT_FAIL
        _decision(EV, G, D_COST, actor, 1, why if rnd else R_C_MAJOR, O_MAJOR_COST, 0, 0, 0, 0, 0)
        if P[P_MAJOR] == MAJOR_CONSEQUENCE:  # overcome.pay_major_cost: the roller, then each who shares it
            k = 0
            x = actor
            while x != NEG:
                if not _cost_consequence(SC, SLOTS, SLOTA, CH, A, AF, AL, G, P, EV, x, enemy):
                    return OUT_FAIL
                k += 1
                x = _sharer(CH, P, actor, k)
        else:
            name = P[P_NAME_HARD_WON]
            aid = _new_aspect(A, AF, AL, G, P, name, K_SITUATION, NEG, zone, enemy)
            if aid == NEG:
                return OUT_FAIL
            G[G_PLACED] += 1
            AF[aid, enemy] = 2
            _emit(EV, G, E_MAJOR, (actor, MAJOR_ENEMY_ASPECT, aid, name, 0, 0, 0, 0, 0, 0, 0))
            _emit(EV, G, E_CREATED, (name, aid, K_SITUATION, TGT_ZONE + zone, 2, enemy, 0, 0, 0, 0, 0))
        return OUT_COST
    if m > 0:
        return OUT_STYLE if m >= 3 else OUT_SUCCESS
    if P[P_TIE_CHOICE] != 0:  # minor cost, or fail with a boost: basic takes the cost
        j = _draw(P, RNG, G, actor, D_COST, 2) if rnd else 0
        if j < 0:
            _paused_two(EV, G, O_MINOR_COST, O_FAIL_BOOST)
            return OUT_FAIL
        if j == 1:
            _decision(EV, G, D_COST, actor, 1, why, O_FAIL_BOOST, 0, 0, 0, 0, 0)
            _boost(A, AF, AL, G, P, EV, actor, P[P_NAME_SECOND_WIND])
            return OUT_FAIL
        _decision(EV, G, D_COST, actor, 0, why if rnd else R_C_MINOR, O_MINOR_COST, 0, 0, 0, 0, 0)
    if enemy != NEG:
        _boost(A, AF, AL, G, P, EV, enemy, P[P_NAME_SMALL_WIN])
    return OUT_COST
