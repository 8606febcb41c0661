"""Taking a hit (``rules/harm.py`` and ``rules/stress.py``): what a character can absorb, the
absorb plans in the reference's order, a mob's members, taken out and conceding (``rules/steps.py``).
"""

from __future__ import annotations

from ..jit import njit
from .aspects import _cons_name, _drop_aspect, _new_aspect
from .events import _decision, _emit, _opt
from .layout import (
    A_ALIVE, A_NAME, BAIL_PAUSE, C_CTAKEN, C_MEMBERS, C_STATUS, C_TOOKBY, CONCEDED, D_ABSORB, E_ABSORBED, E_CONCEDED,
    E_HIT, E_MOBHIT, E_REMOVED, E_TAKENOUT, G_BAIL, G_PSHIFTS, K_CONSEQUENCE, L_SEV, L_TRACK, L_VALUE, NEG, NSF,
    C_DEALT, C_SLOTNAME, C_TAKEN, O_ABSORB, O_TAKENOUT, P_STYLE, P_TRACK, R_A_LEAST, S_MOB, S_NBOX, S_NSLOT, S_XREPL, SEV_EXTREME,
    STYLE_CONDENSED, STYLE_ROLLUP, TAKEN_OUT, WHY_REPLACED,
)
from .countdowns import _cd_left, _cd_trigger
from .layout import C_PEN, P_NCD, P_ORDERED, TR_CONSEQUENCE, TR_TAKEN_OUT, WHOLE_HIT
from .mirror import kernel_only, mirrors
from .seats import _draw, _draws, _why


@mirrors("fate_env.rules.stress.Absorber.capacity")
@njit(cache=True, _nrt=False)
def _cap(SC, SLOTS, MARK, SLOTA, CH, P, c):
    """What ``c`` can still absorb on the scene's track (Absorber.capacity): Condensed, every
    free box; Core, the biggest free box; and the free consequence slots for the track."""
    n = 0
    core = P[P_STYLE] != STYLE_CONDENSED  # roll_up's capacity is Core's (stress.RollUp inherits it)
    for b in range(SC[c, S_NBOX]):
        if MARK[c, b] == 0:
            if not core:
                n += 1
            elif SC[c, NSF + b] > n:
                n = SC[c, NSF + b]
    if P[P_ORDERED] != 0 and SC[c, S_MOB] == 0:  # the next consequence takes any hit whole (001:117): WHOLE_HIT while one is left
        return WHOLE_HIT if _next_ordered(SLOTS, SLOTA, SC, c) != NEG else n
    for k in range(SC[c, S_NSLOT]):
        if SLOTA[c, k] == NEG:
            tr = SLOTS[c, k, L_TRACK]
            if tr == NEG or tr == P[P_TRACK]:
                n += SLOTS[c, k, L_VALUE]
    if SC[c, S_MOB] != 0:  # stress.Mob.capacity: each member still standing behind this one
        n += (CH[c, C_MEMBERS] - 1) * (SC[c, S_NBOX] + 1)
    return n


@mirrors("fate_env.rules.harm.harm", "agents.basic.BasicController._absorb")
@njit(cache=True, _nrt=False)
def _harm(T, W, EV, target, shifts, source, B, note, weapon, armor):
    SC, SLOTS, P = T.SC, T.SLOTS, T.P
    MARK, SLOTA, CH, A, AF, AL, G, RNG = W.MARK, W.SLOTA, W.CH, W.A, W.AF, W.AL, W.G, W.RNG
    plans, usable = B.plans, B.usable
    track = P[P_TRACK]
    _emit(EV, G, E_HIT, (target, source, shifts, track, note, weapon, armor, 0, 0, 0, 0))
    CH[target, C_TAKEN] += shifts
    if source >= 0:
        CH[source, C_DEALT] += shifts
    if SC[target, S_MOB] != 0:
        _mob_hit(SC, P, W, EV, target, shifts, source)
        return
    # usable slots, in slot order
    nu = 0
    for k in range(SC[target, S_NSLOT]):
        if SLOTA[target, k] == NEG:
            tr = SLOTS[target, k, L_TRACK]
            if tr == NEG or tr == track:
                usable[nu] = k
                nu += 1
    nfree = 0
    for b in range(SC[target, S_NBOX]):
        if MARK[target, b] == 0:
            nfree += 1
    # every combination of usable slots, in itertools.combinations order (by size, then lexicographic);
    # under the ordered rule the boxes alone (size 0), then the next consequence instead (001:117)
    ordered = P[P_ORDERED] != 0
    np_ = 0
    for size in range(1 if ordered else nu + 1):
        for mask in range(1 << nu):
            if _popcount(mask) != size:
                continue
            total = 0
            vmin = 1 << 30
            for j in range(nu):
                if mask & (1 << j):
                    v = SLOTS[target, usable[j], L_VALUE]
                    total += v
                    if v < vmin:
                        vmin = v
            rem = shifts - total
            if rem <= 0:
                if size > 0 and total - vmin < shifts:
                    np_ = _plan(plans, np_, size, total, 0, _lexkey(mask, nu), mask, NEG, 0)
                continue
            if P[P_STYLE] == STYLE_CONDENSED:  # any rem free boxes (stress.Condensed.box_options)
                if nfree >= rem:
                    np_ = _plan(plans, np_, size, total, rem, _lexkey(mask, nu), mask, NEG, rem)
                continue
            if P[P_STYLE] == STYLE_ROLLUP:  # the smallest free box that holds rem (stress.RollUp.box_options)
                fit = NEG
                for b in range(SC[target, S_NBOX]):
                    v = SC[target, NSF + b]
                    if MARK[target, b] == 0 and v >= rem and (fit == NEG or v < SC[target, NSF + fit]):
                        fit = b
                if fit != NEG:
                    v = SC[target, NSF + fit]
                    if _minimal(SLOTS, target, usable, nu, mask, v + total, shifts):
                        np_ = _plan(plans, np_, size, total, v, _lexkey(mask, nu), mask, fit, 1)
                continue
            # Core: one box of exactly rem, else one of each higher value (stress.Core.box_options),
            # kept if minimal: no consequence in the plan could be dropped
            exact = NEG
            for b in range(SC[target, S_NBOX]):
                if MARK[target, b] == 0 and SC[target, NSF + b] == rem:
                    exact = b
                    break
            seen = 0
            for b in range(SC[target, S_NBOX]):
                if MARK[target, b] != 0:
                    continue
                v = SC[target, NSF + b]
                if exact != NEG:
                    if b != exact:
                        continue
                elif v <= rem or (seen >> v) & 1:
                    continue
                seen |= 1 << v
                if _minimal(SLOTS, target, usable, nu, mask, v + total, shifts):
                    np_ = _plan(plans, np_, size, total, v, _lexkey(mask, nu), mask, b, 1)
    if ordered:  # the boxes' ways in the style's order, then the next consequence (stress.absorb_plans)
        nxt = _next_ordered(SLOTS, SLOTA, SC, target)
        for j in range(nu):
            if usable[j] == nxt:
                np_ = _plan(plans, np_, 1, SLOTS[target, nxt, L_VALUE], 0, 0, 1 << j, NEG, 0)
    else:  # the reference's order: combinations order, then a stable sort by (slots, total, boxes)
        _sort_plans(plans, np_)
    if np_ == 0:  # only "taken out": taken without asking
        _taken_out(P, W, EV, target, source)
        return
    reason = R_A_LEAST
    if _draws(P, target, D_ABSORB):  # any plan, or taken out (the last option)
        best = _draw(P, RNG, G, target, D_ABSORB, np_ + 1)
        if best < 0:
            if G[G_BAIL] == BAIL_PAUSE:  # the context, then the options: every plan, then taken out
                G[G_PSHIFTS] = shifts
                for q in range(np_):
                    bm, sm = _plan_masks(SC, MARK, target, plans, q, usable, nu)
                    _opt(EV, G, q, O_ABSORB, bm, sm, 0, 0, 0)
                _opt(EV, G, np_, O_TAKENOUT, 0, 0, 0, 0, 0)
            return
        reason = _why(P, target, D_ABSORB)
        if best == np_:
            _decision(EV, G, D_ABSORB, target, best, reason, O_TAKENOUT, 0, 0, 0, 0, 0)
            _taken_out(P, W, EV, target, source)
            return
    else:
        best = 0  # basic._absorb: the least consequence value, then the fewest slots, then boxes
        for i in range(1, np_):
            if (plans[i, 1], plans[i, 0], plans[i, 6]) < (plans[best, 1], plans[best, 0], plans[best, 6]):
                best = i
    boxmask, slotmask = _plan_masks(SC, MARK, target, plans, best, usable, nu)
    _decision(EV, G, D_ABSORB, target, best, reason, O_ABSORB, boxmask, slotmask, 0, 0, 0)
    for b in range(SC[target, S_NBOX]):
        if boxmask & (1 << b):
            MARK[target, b] = 1
    extreme = False
    n0 = n1 = n2 = n3 = n4 = n5 = NEG  # the consequences' names, in slot order (the event spells them)
    j = 0
    for k in range(SC[target, S_NSLOT]):
        if slotmask & (1 << k):
            sev = SLOTS[target, k, L_SEV]
            name = _cons_name(A, AL, G, P, track, sev, target)
            aid = _new_aspect(A, AF, AL, G, P, name, K_CONSEQUENCE, target, NEG, source)
            if aid == NEG:
                return
            if source != NEG:
                AF[aid, source] = 1
            SLOTA[target, k] = aid
            CH[target, C_SLOTNAME + k] = name
            CH[target, C_CTAKEN] += 1
            if ordered:
                CH[target, C_PEN] += _penalty(sev)
            if sev == SEV_EXTREME:
                extreme = True
            if j == 0:
                n0 = name
            elif j == 1:
                n1 = name
            elif j == 2:
                n2 = name
            elif j == 3:
                n3 = name
            elif j == 4:
                n4 = name
            else:
                n5 = name
            j += 1
    _emit(EV, G, E_ABSORBED, (target, shifts, track, boxmask, slotmask, n0, n1, n2, n3, n4, n5))
    lost = SC[target, S_XREPL]
    if extreme and lost != NEG and A[lost, A_ALIVE] != 0:  # harm.replace_for_extreme
        _drop_aspect(A, AL, G, lost)
        _emit(EV, G, E_REMOVED, (lost, A[lost, A_NAME], WHY_REPLACED, 0, 0, 0, 0, 0, 0, 0, 0))
    if P[P_NCD] != 0:
        for _ in range(j):  # one box per consequence taken (a hit may take two)
            _cd_trigger(P, G, A, AF, AL, EV, TR_CONSEQUENCE, target)


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
        _taken_out(P, W, EV, target, source)


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
def _taken_out(P, W, EV, target, source):
    CH, G = W.CH, W.G
    CH[target, C_STATUS] = TAKEN_OUT
    CH[target, C_TOOKBY] = source
    _emit(EV, G, E_TAKENOUT, (target, source, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    if P[P_NCD] != 0:
        _cd_trigger(P, G, W.A, W.AF, W.AL, EV, TR_TAKEN_OUT, target)
        _cd_left(P, G, EV, target)


@mirrors("fate_env.rules.steps.concede_fighter")
@njit(cache=True, _nrt=False)
def _concede(P, CH, EV, G, c):
    CH[c, C_STATUS] = CONCEDED
    _emit(EV, G, E_CONCEDED, (c, 1 + CH[c, C_CTAKEN], 0, 0, 0, 0, 0, 0, 0, 0, 0))
    if P[P_NCD] != 0:
        _cd_left(P, G, EV, c)
