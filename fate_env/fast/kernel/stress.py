"""What a character can take (``rules/stress.py``): its capacity, the absorb plans in the reference's
order, a mob's members, the ordered rule's next consequence; taken out and conceding (``rules/steps.py``).
A hit itself is ``harm.py``.
"""

from __future__ import annotations

from ..jit import njit
from .countdowns import _cd_left, _cd_trigger
from .events import _emit
from .solo import _count_facing
from .layout import (
    C_CTAKEN, C_MEMBERS, C_PEN, C_STATUS, C_TOOKBY, CONCEDED, E_CONCEDED, E_MOBHIT, E_TAKENOUT, L_SEV, L_TRACK,
    L_VALUE, NEG, NSF, P_NCD, P_OFFERED, P_ORDERED, P_STYLE, P_TRACK, S_MOB, S_NBOX, S_NSLOT, SEV_EXTREME,
    STYLE_CONDENSED, TAKEN_OUT, TR_TAKEN_OUT, WHOLE_HIT,
)
from .mirror import kernel_only, mirrors


@mirrors("fate_env.rules.stress.Absorber.capacity")
@njit(cache=True, _nrt=False)
def _cap(SC, SLOTS, MARK, SLOTA, CH, P, c):
    """What ``c`` can still absorb on the scene's track (Absorber.capacity): under the ordered rule
    the next consequence takes any hit whole (001:117: WHOLE_HIT while one is left, else the boxes);
    otherwise the boxes and free consequence slots (``_room``)."""
    if P[P_ORDERED] != 0 and SC[c, S_MOB] == 0:
        return WHOLE_HIT if _next_ordered(SLOTS, SLOTA, SC, c) != NEG else _boxes_room(SC, MARK, P, c)
    return _room(SC, SLOTS, MARK, SLOTA, CH, P, c)


@mirrors("fate_env.rules.stress.StressStyle.capacity")
@njit(cache=True, _nrt=False)
def _boxes_room(SC, MARK, P, c):
    """What ``c``'s free boxes alone can take: Condensed, every free box; Core (and roll-up), the biggest."""
    n = 0
    core = P[P_STYLE] != STYLE_CONDENSED  # roll_up's capacity is Core's (stress.RollUp inherits it)
    for b in range(SC[c, S_NBOX]):
        if MARK[c, b] == 0:
            if not core:
                n += 1
            elif SC[c, NSF + b] > n:
                n = SC[c, NSF + b]
    return n


@mirrors("fate_env.rules.stress.Absorber.capacity", "fate_env.environment.observation.ObservationEncoder.encode")
@njit(cache=True, _nrt=False)
def _room(SC, SLOTS, MARK, SLOTA, CH, P, c):
    """The free boxes and free consequence slots for the track, and a mob's members behind this one:
    the capacity under the shifts rule, and what the observation counts under either rule."""
    n = _boxes_room(SC, MARK, P, c)
    for k in range(SC[c, S_NSLOT]):
        if SLOTA[c, k] == NEG:
            tr = SLOTS[c, k, L_TRACK]
            if tr == NEG or tr == P[P_TRACK]:
                n += SLOTS[c, k, L_VALUE]
    if SC[c, S_MOB] != 0:  # stress.Mob.capacity: each member still standing behind this one
        n += (CH[c, C_MEMBERS] - 1) * (SC[c, S_NBOX] + 1)
    return n


@mirrors("fate_env.rules.stress.absorb_plans")
@njit(cache=True, _nrt=False)
def _plan_masks(SC, MARK, target, plans, i, usable, nu):
    """Plan ``i`` as (box mask, slot mask): Core names its one box, Condensed takes the first
    free boxes."""
    mask = plans[i, 4]
    slotmask = 0
    for j in range(nu):
        if mask & (1 << j):
            slotmask |= 1 << usable[j]
    boxmask = 0
    if plans[i, 5] != NEG:
        boxmask = 1 << plans[i, 5]
    else:
        left = plans[i, 6]
        for b in range(SC[target, S_NBOX]):
            if left == 0:
                break
            if MARK[target, b] == 0:
                boxmask |= 1 << b
                left -= 1
    return boxmask, slotmask


@mirrors("fate_env.rules.stress.Mob.absorb")
@njit(cache=True, _nrt=False)
def _mob_hit(SC, P, W, EV, target, shifts, source):
    """stress.Mob.absorb: the member in front takes what its boxes can; a hit past them takes it
    out (its capacity and one shift more) and the rest carries to the next, fresh member."""
    MARK, CH, G = W.MARK, W.CH, W.G
    total = shifts
    lost = 0
    core = P[P_STYLE] != STYLE_CONDENSED  # roll_up's absorb_whole is Core's
    nbox = SC[target, S_NBOX]
    while shifts > 0 and CH[target, C_MEMBERS] > 0:
        # absorb_whole: Condensed, any `shifts` free boxes; Core, the smallest box that holds it
        free = 0
        biggest = 0
        fit = NEG
        for b in range(nbox):
            if MARK[target, b] == 0:
                free += 1
                v = SC[target, NSF + b]
                if v > biggest:
                    biggest = v
                if v >= shifts and (fit == NEG or v < SC[target, NSF + fit]):
                    fit = b
        if not core and free >= shifts:
            left = shifts
            for b in range(nbox):
                if left > 0 and MARK[target, b] == 0:
                    MARK[target, b] = 1
                    left -= 1
            break
        if core and fit != NEG:
            MARK[target, fit] = 1
            break
        shifts -= (biggest if core else free) + 1
        CH[target, C_MEMBERS] -= 1
        lost += 1
        for b in range(nbox):
            MARK[target, b] = 0
    _emit(EV, G, E_MOBHIT, (target, total, lost, CH[target, C_MEMBERS], 0, 0, 0, 0, 0, 0, 0))
    if CH[target, C_MEMBERS] == 0:
        _taken_out(SC, P, W, EV, target, source)


@mirrors("fate_env.rules.stress.Core.minimal")
@njit(cache=True, _nrt=False)
def _minimal(SLOTS, target, usable, nu, mask, worth, shifts):
    """A plan of boxes and the consequences in ``mask`` worth ``worth`` in all is minimal: none of its
    consequences could be left out and the rest still take the ``shifts`` (Core's and roll-up's)."""
    for j in range(nu):
        if mask & (1 << j) and worth - SLOTS[target, usable[j], L_VALUE] >= shifts:
            return False
    return True


@mirrors("fate_env.rules.stress.next_ordered")
@njit(cache=True, _nrt=False)
def _next_ordered(SLOTS, SLOTA, SC, c):
    """The slot the next consequence fills under the ordered rule: mild, then moderate, then severe
    (001:119); NEG once all three are taken (001:123)."""
    for sev in range(SEV_EXTREME):
        for k in range(SC[c, S_NSLOT]):
            if SLOTS[c, k, L_SEV] == sev and SLOTA[c, k] == NEG:
                return k
    return NEG


@mirrors("fate_env.rules.facts.Facts.consequence_penalty")
@njit(cache=True, _nrt=False)
def _penalty(sev):
    """What a consequence of severity ``sev`` takes off its holder's rolls under the ordered rule (001:119)."""
    return sev + 1 if sev < SEV_EXTREME else 3


@mirrors("fate_env.rules.stress.absorb_plans")
@njit(cache=True, _nrt=False)
def _plan(plans, n, size, total, box, lex, mask, boxindex, nboxes):
    plans[n, 0] = size
    plans[n, 1] = total
    plans[n, 2] = box
    plans[n, 3] = lex
    plans[n, 4] = mask
    plans[n, 5] = boxindex
    plans[n, 6] = nboxes
    return n + 1


@kernel_only("a bit count for the absorb plans' masks (the reference keeps tuples)")
@njit(cache=True, _nrt=False)
def _popcount(x):
    n = 0
    while x:
        n += x & 1
        x >>= 1
    return n


@mirrors("fate_env.rules.stress.absorb_plans")
@njit(cache=True, _nrt=False)
def _lexkey(mask, nu):
    """A key that orders same-size masks as itertools.combinations does (lexicographic indices)."""
    key = 0
    for j in range(nu):
        key = key * 2 + (1 if mask & (1 << j) else 0)
    return -key  # more low indices set first: (0, 1) before (0, 2) before (1, 2)


@mirrors("fate_env.rules.stress.absorb_plans")
@njit(cache=True, _nrt=False)
def _sort_plans(plans, n):
    """Order by (size, lexicographic) — the generation order — then stable by (size, total, boxes)."""
    for i in range(1, n):  # insertion sort: n is small (at most 2**slots)
        j = i
        while j > 0 and (plans[j, 0], plans[j, 1], plans[j, 2], plans[j, 3]) < \
                (plans[j - 1, 0], plans[j - 1, 1], plans[j - 1, 2], plans[j - 1, 3]):
            for k in range(7):
                tmp = plans[j, k]
                plans[j, k] = plans[j - 1, k]
                plans[j - 1, k] = tmp
            j -= 1


@mirrors("fate_env.rules.steps.taken_out")
@njit(cache=True, _nrt=False)
def _taken_out(SC, P, W, EV, target, source):
    CH, G = W.CH, W.G
    CH[target, C_STATUS] = TAKEN_OUT
    CH[target, C_TOOKBY] = source
    _count_facing(SC, CH, P)
    _emit(EV, G, E_TAKENOUT, (target, source, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    if P[P_NCD] != 0:
        _cd_trigger(P, G, W.A, W.AF, W.AL, EV, TR_TAKEN_OUT, target)
        _cd_left(P, G, EV, target)


@mirrors("fate_env.rules.facts.Facts.concession_payout")
@njit(cache=True, _nrt=False)
def _payout(P, CH, c):
    """Fate points a concession pays ``c``: one and one per consequence taken (003:1693-1712), none where
    the concession is offered (001:150)."""
    return 0 if P[P_OFFERED] != 0 else 1 + CH[c, C_CTAKEN]


@mirrors("fate_env.rules.harm.harm", "fate_env.rules.overcome._cost_consequence")
@njit(cache=True, _nrt=False)
def _consequence_taken(P, CH, c, sev):
    """``c`` took a consequence of severity ``sev``: counted (a concession's payout), and under the ordered
    rule its penalty on every roll (001:119)."""
    CH[c, C_CTAKEN] += 1
    if P[P_ORDERED] != 0:
        CH[c, C_PEN] += _penalty(sev)


@mirrors("fate_env.rules.steps.concede_fighter")
@njit(cache=True, _nrt=False)
def _concede(SC, P, CH, EV, G, c):
    CH[c, C_STATUS] = CONCEDED
    _count_facing(SC, CH, P)
    _emit(EV, G, E_CONCEDED, (c, _payout(P, CH, c), 0, 0, 0, 0, 0, 0, 0, 0, 0))
    if P[P_NCD] != 0:
        _cd_left(P, G, EV, c)
