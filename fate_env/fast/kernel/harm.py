"""A hit lands (``rules/harm.py``): the target's absorb decision (basic's least cost, a random draw or
an outside answer), its boxes and consequences, taken out; FATE 2.0's offered concession and its
answer (001:150-152).
"""

from __future__ import annotations

from ..jit import njit
from .aspects import _cons_name, _drop_aspect, _new_aspect
from .basic import _should_concede
from .countdowns import _cd_trigger
from .events import _decision, _emit, _opt
from .layout import (
    HIT_FORCED, HIT_PLAIN, HIT_WEAPON, P_SOLO, A_ALIVE, A_NAME, ACTIVE, BAIL_PAUSE, C_DEALT, C_OWED, C_SLOTNAME, C_STATUS,
    C_TAKEN, D_ABSORB, D_CONCESSION, E_ABSORBED, E_ANSWERED, E_HIT, E_OFFERED, E_REMOVED, G_BAIL,
    G_PSHIFTS, K_CONSEQUENCE, L_SEV, L_TRACK, L_VALUE, NEG, NSF, O_ABSORB, O_ACCEPT, O_OFFER, O_REFUSE,
    O_TAKENOUT, P_NCD, P_OFFERED, P_ORDERED, P_POL, P_STYLE, P_TRACK, POL_MARGIN, POL_W, R_A_LEAST, R_A_OFFER,
    R_CN_ACCEPT, R_SKILL, S_MOB, S_NBOX, S_NSLOT, S_XREPL, SEV_EXTREME, SEV_SEVERE, STYLE_CONDENSED, STYLE_ROLLUP,
    TR_CONSEQUENCE, WHY_REPLACED,
)
from .mirror import kernel_only, mirrors
from .solo import _reduce_hit
from .seats import _ask_two, _draw, _draws, _why
from .table import _pay_point, _points_of
from .stress import (
    _concede, _consequence_taken, _lexkey, _minimal, _mob_hit, _next_ordered, _plan, _plan_masks, _popcount,
    _sort_plans, _taken_out,
)


@mirrors("fate_env.rules.harm.harm", "agents.basic.BasicController._absorb")
@njit(cache=True, _nrt=False)
def _harm(T, W, EV, target, shifts, source, B, note, weapon, armor):
    SC, SLOTS, P = T.SC, T.SLOTS, T.P
    MARK, SLOTA, CH, A, AF, AL, G, RNG = W.MARK, W.SLOTA, W.CH, W.A, W.AF, W.AL, W.G, W.RNG
    plans, usable = B.plans, B.usable
    track = P[P_TRACK]
    if P[P_SOLO] != 0 and (note == HIT_PLAIN or note == HIT_WEAPON or note == HIT_FORCED):
        shifts = _reduce_hit(SC, CH, G, EV, target, shifts)  # an attack's hit on a big bad (003:2588-2591)
        if shifts <= 0:
            return  # the bonus took it all: no harm, and no boost (harm.harm)
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
        _taken_out(SC, P, W, EV, target, source)
        return
    reason = R_A_LEAST
    # offered concessions (001:150): one taking a consequence may offer to concede to whoever hit it
    offer = False
    if P[P_OFFERED] != 0 and source >= 0 and CH[source, C_STATUS] == ACTIVE:
        for i in range(np_):
            if plans[i, 4] != 0:
                offer = True
    offered = False
    sev = 0  # the severity basic's offer names (its reason's)
    if _draws(P, target, D_ABSORB):  # any plan, or taken out, or the offer (the last options)
        best = _draw(P, RNG, G, target, D_ABSORB, np_ + (2 if offer else 1))
        if best < 0:
            if G[G_BAIL] == BAIL_PAUSE:  # the context, then the options: every plan, then taken out
                G[G_PSHIFTS] = shifts
                for q in range(np_):
                    bm, sm = _plan_masks(SC, MARK, target, plans, q, usable, nu)
                    _opt(EV, G, q, O_ABSORB, bm, sm, 0, 0, 0)
                _opt(EV, G, np_, O_TAKENOUT, 0, 0, 0, 0, 0)
                if offer:
                    _opt(EV, G, np_ + 1, O_OFFER, 0, 0, 0, 0, 0)
            return
        reason = _why(P, target, D_ABSORB)
        if best == np_:
            _decision(EV, G, D_ABSORB, target, best, reason, O_TAKENOUT, 0, 0, 0, 0, 0)
            _taken_out(SC, P, W, EV, target, source)
            return
        offered = best == np_ + 1
    else:
        best = 0  # basic._absorb: the least consequence value, then the fewest slots, then boxes
        for i in range(1, np_):
            if (plans[i, 1], plans[i, 0], plans[i, 6]) < (plans[best, 1], plans[best, 0], plans[best, 6]):
                best = i
        pol = P[P_POL] + POL_W * target
        if offer and P[pol + POL_MARGIN] > -99 and plans[best, 4] != 0:  # basic offers rather than take a severe
            sev = SLOTS[target, usable[_lowest_bit(plans[best, 4])], L_SEV]  # one, or when it would concede
            if sev == SEV_SEVERE or _should_concede(T, W, target, B):
                offered, reason = True, R_A_OFFER
    if offered:
        if not _offer(T, W, EV, target, source, np_ + 1, reason, sev):
            return  # accepted (the offerer concedes), or the answer is awaited
        best = 0  # refused: the consequence stands (the first plan that takes one)
        while plans[best, 4] == 0:
            best += 1
        boxmask, slotmask = _plan_masks(SC, MARK, target, plans, best, usable, nu)
    else:
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
            name = _cons_name(A, AL, G, P, track, sev, target, B.R[R_SKILL] if source != NEG else NEG)
            aid = _new_aspect(A, AF, AL, G, P, name, K_CONSEQUENCE, target, NEG, source)
            if aid == NEG:
                return
            if source != NEG:
                AF[aid, source] = 1
            SLOTA[target, k] = aid
            CH[target, C_SLOTNAME + k] = name
            _consequence_taken(P, CH, target, sev)
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


@mirrors("fate_env.rules.harm.offer_concession", "agents.basic.BasicController._concession")
@njit(cache=True, _nrt=False)
def _offer(T, W, EV, target, source, j, reason, sev):
    """harm.offer_concession: ``target``, taking a consequence from ``source``, offers its concession
    (the absorb's option ``j``); ``source`` accepts (basic always does) or refuses (a random draw).
    Accepted: ``target`` concedes, for no payout. Refused: ``target`` is owed a fate point and ``source``
    loses one (an NPC's from the GM's pool) if it has one. True when the hit still lands (refused)."""
    SC, P = T.SC, T.P
    CH, G, RNG = W.CH, W.G, W.RNG
    _decision(EV, G, D_ABSORB, target, j, reason, O_OFFER, 0, 0, 0, 0, sev)
    _emit(EV, G, E_OFFERED, (target, source, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    a, why = _ask_two(P, RNG, G, EV, source, D_CONCESSION, O_ACCEPT, O_REFUSE, 0, R_CN_ACCEPT)  # basic accepts
    if a < 0:
        return False
    _decision(EV, G, D_CONCESSION, source, a, why, O_ACCEPT if a == 0 else O_REFUSE, 0, 0, 0, 0, target)
    if a == 0:
        _emit(EV, G, E_ANSWERED, (target, source, 1, 0, 0, 0, 0, 0, 0, 0, 0))
        _concede(SC, P, CH, EV, G, target)
        return False
    lost = 0
    if _points_of(SC, CH, G, source) > 0:
        _pay_point(SC, CH, G, source)
        lost = 1
    CH[target, C_OWED] += 1
    _emit(EV, G, E_ANSWERED, (target, source, 0, lost, 0, 0, 0, 0, 0, 0, 0))
    return True


@kernel_only("the lowest set bit of a plan's slot mask (the reference keeps the slots as a tuple)")
@njit(cache=True, _nrt=False)
def _lowest_bit(mask):
    j = 0
    while not (mask >> j) & 1:
        j += 1
    return j
