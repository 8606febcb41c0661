"""Scale and a big bad's solo bonuses (``rules/solo.py``, ``rules/rolls.py``'s scale_edge): what they add
to a roll, take off a hit, or make an invoke worth. Read only where the scene has them (P_SCALED, P_SOLO).
"""

from __future__ import annotations

from ..jit import njit
from .events import _emit
from .layout import (
    INVOKE_BONUS, ACTIVE, C_SCALE, C_SOLOSKILL, C_STATUS, E_SOLO, P_SOLO, NEG, R_ACTOR, R_BONUS, R_OBONUS, R_OPP, R_TARGET, S_SIDE, S_SOLO, SOLO_AMPLIFIED, SOLO_REDUCE,
    SOLO_REDUCE_MIN_1, SOLO_SKILL, SOLO_SUPPRESS,
)
from .mirror import mirrors



@mirrors("fate_env.rules.solo._solo")
@njit(cache=True, _nrt=False)
def _facing(SC, CH, c, bonus):
    """How many characters ``c`` faces alone (no one of its side still in) if it has ``bonus``, else 0."""
    if (SC[c, S_SOLO] >> bonus) & 1 == 0 or CH[c, C_STATUS] != ACTIVE:
        return 0
    side = SC[c, S_SIDE]
    n = 0
    for x in range(SC.shape[0]):
        if x != c and CH[x, C_STATUS] == ACTIVE:
            if SC[x, S_SIDE] == side:
                return 0
            n += 1
    return n


@mirrors("fate_env.rules.solo._solo")
@njit(cache=True, _nrt=False)
def _count_facing(SC, CH, P):
    """Each character's count of those it faces alone with the solo skill bonus (C_SOLOSKILL), again:
    at the start and whenever someone leaves the fight."""
    if P[P_SOLO] == 0:
        return
    for c in range(SC.shape[0]):
        CH[c, C_SOLOSKILL] = _facing(SC, CH, c, SOLO_SKILL)


@mirrors("fate_env.rules.solo.skill_bonus")
@njit(cache=True, _nrt=False, inline="always")
def _solo_skill(CH, c, rating):
    """The solo skill bonus on a roll at ``rating``: +1 per character faced past the first, at most the
    rating (003:2581-2587); no branch and no call, for it runs on every roll of every scene."""
    b = CH[c, C_SOLOSKILL] - 1
    b = b if b < rating else rating
    return b if b > 0 else 0


@mirrors("fate_env.rules.rolls.scale_edge")
@njit(cache=True, _nrt=False, inline="always")
def _edge(CH, c, against):
    """The levels of scale ``c`` stands above ``against``, the character opposing its roll (003:2430-2439):
    0 when none opposes it (NEG) or it is not lesser; no branch on the scene, whose scales are all 0
    without scale."""
    d = CH[c, C_SCALE] - CH[against if against != NEG else c, C_SCALE]
    return d if d > 0 else 0


@mirrors("fate_env.rules.solo.reduce_hit")
@njit(cache=True, _nrt=False)
def _reduce_hit(SC, CH, G, EV, target, hit):
    """A successful attack's shifts on a big bad with a stress-reducing solo bonus: less half the
    characters it faces, rounded up, at least 0 (or 1, the second reading) (003:2588-2591); announced."""
    for bonus in (SOLO_REDUCE, SOLO_REDUCE_MIN_1):
        facing = _facing(SC, CH, target, bonus)
        if facing:
            floor = 1 if bonus == SOLO_REDUCE_MIN_1 else 0
            low = floor if floor < hit else hit
            reduced = hit - (facing + 1) // 2
            if reduced < low:
                reduced = low
            if reduced != hit:
                _emit(EV, G, E_SOLO, (target, bonus, hit - reduced, 0, 0, 0, 0, 0, 0, 0, 0))
            return reduced
    return hit


@mirrors("fate_env.rules.solo.invoke_worth")
@njit(cache=True, _nrt=False)
def _worth(SC, CH, R, who, free):
    """What a +2 invoke by ``who`` on the roll in progress is worth (003:2593-2600): (worth, the bonus that
    changed it or NEG, whose). A paid invoke by a big bad with amplified invokes: the number it faces, when
    more than 2; an invoke by an opponent of a big bad in the roll that suppresses invokes and faces two
    or more: +1."""
    if not free:
        facing = _facing(SC, CH, who, SOLO_AMPLIFIED)
        if facing > INVOKE_BONUS:
            return facing, SOLO_AMPLIFIED, who
    side = SC[who, S_SIDE]
    for other in (R[R_ACTOR], R[R_OPP], R[R_TARGET]):
        if other >= 0 and SC[other, S_SIDE] != side and _facing(SC, CH, other, SOLO_SUPPRESS) >= 2:
            return 1, SOLO_SUPPRESS, other
    return INVOKE_BONUS, NEG, NEG


@mirrors("fate_env.rules.invokes.apply_invoke")
@njit(cache=True, _nrt=False)
def _solo_invoke(SC, CH, R, EV, G, who, free):
    """An invoke's +2 just added to the roll, made what a solo bonus says it is worth, and announced after
    the Invoked event (invokes.apply_invoke); its own call, so scenes without solo bonuses pay nothing."""
    worth, rule, whose = _worth(SC, CH, R, who, free)
    if rule == NEG:
        return
    if who == R[R_ACTOR]:
        R[R_BONUS] += worth - INVOKE_BONUS
    else:
        R[R_OBONUS] += worth - INVOKE_BONUS
    _emit(EV, G, E_SOLO, (whose, rule, worth, 0, 0, 0, 0, 0, 0, 0, 0))


@mirrors("agents.basic.BasicController._invoke")
@njit(cache=True, _nrt=False)
def _solo_need(SC, CH, R, who, short):
    """How many invokes ``short`` shifts need at the lesser of a free and a paid invoke's worth (basic)."""
    w_free = _worth(SC, CH, R, who, True)[0]
    w_paid = _worth(SC, CH, R, who, False)[0]
    worth = w_free if w_free < w_paid else w_paid
    return (short + worth - 1) // worth
