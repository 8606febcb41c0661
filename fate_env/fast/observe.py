"""The environment's observation and action mask written from the kernel's flat state.

These mirror ``fate_env/environment/observation.py`` (``ObservationEncoder.encode``) and
``actions.py`` (``ActionLayout.encode``) number for number, so an environment stepping the fast
core hands a learner exactly the vectors the reference would. The layout's sizes and segment
starts come in one integer array (``LP``, built by ``fate_env.environment.fast_table``); the
aspect table's slots are kept by the caller (they follow every decision, as ``AspectSlots``).
Everything is computed in float64 and rounded to float32 once, as the reference does.
"""

from __future__ import annotations

import numpy as np

from .kernel import layout as k
from .jit import njit
from .kernel.stress import _room

# LP: the layout's numbers
(L_C, L_Z, L_A, L_K, L_CHAR, L_MAXEX, L_X, L_B, L_ONEBOX, L_TRACK, L_STAY, L_MOVE, L_ATTACK, L_ADVANTAGE,
 L_EXPLOIT, L_OVERCOME, L_REMOVE, L_FULLDEF, L_SUPPORT, L_CONCEDE, L_PASS, L_DEFEND, L_DONE, L_INVOKE, L_BOOST,
 L_FULLHIT, L_BOOSTHIT, L_NOASPECT, L_FORENEMY, L_MINOR, L_FAILBOOST, L_ABSORB, L_TAKENOUT, L_NEXT, L_FAIL,
 L_MAJOR, L_ABSORB_SIZE, L_ZONEATTACK, L_FORGO, L_STANDASIDE, L_STANDIN, L_OFFER, L_ACCEPT, L_REFUSE, L_HOLD, L_ACTNOW, L_KEEPHOLD, L_SHOVE,
 L_TAKEASPECT, L_AVOIDASPECT, L_SPIN, L_SPINOBS, L_PROTECT, L_BLOCKACT, L_ROLLFOR, L_NOSUPPORT, L_NOADVANTAGE,
 L_FORFEIT, L_PAY, L_TASK, L_TOCONTEST, L_TOCONFLICT, L_KC, L_NBL, L_BLKMAP) = range(65)
# L_SPIN: the spin segment's start (a holder each, SpendSpin); L_SPINOBS: where the spin tokens per character
# sit in the observation after its boosts (ObservationEncoder.spin), -1 for a layout without them; L_KC: the
# layout's contest skills (roll_for's width)
NL = L_BLKMAP + k.MAX_BLOCKS  # LP[L_NBL]: the layout's blocks; LP[L_BLKMAP + i]: block i's place among them (-1: none)
GLOBAL = 23   # observation.GLOBAL
ASPECT = 14   # observation.ASPECT
DYN = 7       # where a character row's dynamic columns start (observation.encode: rows[:, 7:])
OVERFLOW = -1  # an option the layout cannot name (LayoutOverflow)


@njit(cache=True, _nrt=False)
def slot_of(ego, c):
    """ActionLayout.slot: the ego first, then the others in scene order."""
    if c == ego:
        return 0
    return c + 1 if c < ego else c


@njit(cache=True, _nrt=False)
def relation(SC, ego, who):
    """0 no one, 1 me, 2 an ally, 3 a foe."""
    if who == k.NEG:
        return 0
    if who == ego:
        return 1
    return 2 if SC[who, k.S_SIDE] == SC[ego, k.S_SIDE] else 3


@njit(cache=True, _nrt=False)
def contest_standing(G, P, side):
    """View.contest_standing while G_CONTEST: ``side``'s victories and the best other side's, as shares of the
    victories that win (both observations read it: this one and entity_rows)."""
    best = 0
    for s in range(P[k.P_NSIDES]):
        if s != side and G[k.G_VICT + s] > best:
            best = G[k.G_VICT + s]
    return G[k.G_VICT + side] / P[k.P_CVICT], best / P[k.P_CVICT]


@njit(cache=True, _nrt=False)
def observe(out, buf, ego, pactor, pkind, SC, SLOTS, P, W, V):
    """ObservationEncoder.encode for ``ego``, the decision (``pactor``, ``pkind``; -1 for none)
    pending, from the fight ``W`` (``bundles.Fight``) through the layout ``V`` (``bundles.View``).
    ``buf``: a float64 scratch of the observation's size."""
    CH, G, A, AF, AL, INV = W.CH, W.G, W.A, W.AF, W.AL, W.INV
    SLOT_AT, LP, DK2OBS = V.SLOT_AT, V.LP, V.DK2OBS
    n = SC.shape[0]
    C, NA = LP[L_C], LP[L_A]
    cs = LP[L_CHAR]
    for i in range(buf.shape[0]):
        buf[i] = 0.0
    side = SC[ego, k.S_SIDE]
    buf[0] = G[k.G_EXCHANGE] / max(1, LP[L_MAXEX])
    if pactor == ego:
        if DK2OBS[pkind] >= 0:
            buf[1 + DK2OBS[pkind]] = 1.0
        if pkind == k.D_INVOKE:
            buf[13] = G[k.G_PEFFORT] / 10
            buf[14] = G[k.G_POPP] / 10
            buf[15] = G[k.G_PMARGIN] / 10
            buf[17] = 1.0 if G[k.G_PROLLER] != 0 else 0.0
        elif pkind == k.D_STYLE or pkind == k.D_ABSORB:
            buf[16] = G[k.G_PSHIFTS] / 10
        buf[20] = 1.0
    buf[18] = G[k.G_GMPOOL] / 10
    buf[19] = (G[k.G_GMPOOL] if SC[ego, k.S_NPC] != 0 else CH[ego, k.C_FP]) / 10
    if G[k.G_CONTEST] != 0:
        buf[21], buf[22] = contest_standing(G, P, side)
    _characters(buf, ego, SC, SLOTS, P, W, V)
    # aspects in their slots; boosts by who holds them
    base = GLOBAL + C * cs
    myzone = CH[ego, k.C_ZONE]
    rolling = pkind == k.D_INVOKE
    for slot in range(NA):
        aid = SLOT_AT[slot]
        if aid == 0:
            continue
        o = base + slot * ASPECT
        owner = A[aid, k.A_OWNER]
        buf[o] = 1.0
        buf[o + 1 + A[aid, k.A_KIND]] = 1.0
        buf[o + 5 + relation(SC, ego, owner)] = 1.0
        if A[aid, k.A_ZONE] == myzone or (owner != k.NEG and CH[owner, k.C_ZONE] == myzone):
            buf[o + 9] = 1.0
        if rolling and INV[side, aid] == G[k.G_ROLLNO]:
            buf[o + 13] = 1.0
        for h in range(n):
            if AF[aid, h] != 0:
                buf[o + 9 + relation(SC, ego, h)] += AF[aid, h] / 3
    tail = base + NA * ASPECT
    for i in range(G[k.G_NAL]):
        aid = AL[i]
        if A[aid, k.A_KIND] == k.K_BOOST:
            for h in range(n):
                if AF[aid, h] != 0:
                    buf[tail + relation(SC, ego, h) - 1] += AF[aid, h] / 3
    for i in range(P[k.P_NCD]):  # countdowns.marks: the share of its boxes marked, whether it still runs
        buf[tail + 3 + 2 * i] = G[k.G_CD + 2 * i] / P[P[k.P_CD] + k.CDW * i + k.CD_BOXES]
        buf[tail + 4 + 2 * i] = 1.0 if G[k.G_CD + 2 * i + 1] != 0 else 0.0
    if pactor == ego and DK2OBS[pkind] < 0:  # FATE 2.0's concession and hold decisions, after the countdowns
        buf[tail + 3 + 2 * P[k.P_NCD] - 1 - DK2OBS[pkind]] = 1.0
    if LP[L_SPINOBS] >= 0:  # Fate 3.0's spin tokens held, per character in the ego's order (/3)
        for c in range(n):
            buf[tail + LP[L_SPINOBS] + slot_of(ego, c)] = CH[c, k.C_SPIN] / 3
    for i in range(buf.shape[0]):
        out[i] = buf[i]


@njit(cache=True, _nrt=False)
def _characters(buf, ego, SC, SLOTS, P, W, V):
    """The characters' columns of :func:`observe`, the ego first: the static columns (who is who,
    skills), then status, zone and the numbers."""
    MARK, SLOTA, CH = W.MARK, W.SLOTA, W.CH
    LP, STATIC, BOXES = V.LP, V.STATIC, V.BOXES
    C, Z = LP[L_C], LP[L_Z]
    cs = LP[L_CHAR]
    track = LP[L_TRACK]
    for r in range(C):
        c = ego if r == 0 else (r - 1 if r - 1 < ego else r)
        o = GLOBAL + r * cs
        for j in range(cs):
            buf[o + j] = STATIC[ego, r, j]
        d = o + DYN
        for j in range(3 + Z + 11):
            buf[d + j] = 0.0
        status = CH[c, k.C_STATUS]
        buf[d + status] = 1.0
        buf[d + 3 + CH[c, k.C_ZONE]] = 1.0
        marked = 0
        for b in range(SC[c, k.S_NBOX]):
            marked += 1 if MARK[c, b] != 0 else 0
        pm = marked if track == 0 else 0
        mm = marked if track == 1 else 0
        used = 0
        for s in range(SC[c, k.S_NSLOT]):
            if SLOTA[c, s] != k.NEG:
                used += 1
        cap = 0.0
        if status == k.ACTIVE:  # the encoder's own sum: free boxes and slots (under the ordered rule too)
            cap = _room(SC, SLOTS, MARK, SLOTA, CH, P, c) / 20
        x = d + 3 + Z
        buf[x] = (BOXES[c, 0] - pm) / 10
        buf[x + 1] = (BOXES[c, 1] - mm) / 10
        buf[x + 2] = pm / 10
        buf[x + 3] = mm / 10
        buf[x + 4] = used / 5
        buf[x + 5] = (SC[c, k.S_NSLOT] - used) / 5
        buf[x + 6] = cap
        buf[x + 7] = CH[c, k.C_FP] / 10
        buf[x + 8] = 1.0 if CH[c, k.C_ACTED] != 0 else 0.0
        buf[x + 9] = 1.0 if CH[c, k.C_FULLDEF] != 0 else 0.0
        buf[x + 10] = CH[c, k.C_MEMBERS] / SC[c, k.S_COUNT] if SC[c, k.S_MOB] != 0 else 0.0


#: the options that are one action each (ActionLayout._fixed): option code -> where LP holds its action
FIXED = np.full(k.NO, -1, np.int64)
for _code, _at in ((k.O_CONCEDE, L_CONCEDE), (k.O_FULLDEF, L_FULLDEF), (k.O_PASS, L_PASS), (k.O_DEFEND, L_DEFEND),
                   (k.O_DONE, L_DONE), (k.O_FULLHIT, L_FULLHIT), (k.O_BOOST_HIT, L_BOOSTHIT),
                   (k.O_TAKENOUT, L_TAKENOUT), (k.O_STAY, L_STAY), (k.O_NO_ASPECT, L_NOASPECT),
                   (k.O_FOR_ENEMY, L_FORENEMY), (k.O_MINOR_COST, L_MINOR), (k.O_FAIL_BOOST, L_FAILBOOST),
                   (k.O_FAIL, L_FAIL), (k.O_MAJOR_COST, L_MAJOR), (k.O_FORGO, L_FORGO),
                   (k.O_STAND_ASIDE, L_STANDASIDE), (k.O_STAND_IN, L_STANDIN), (k.O_OFFER, L_OFFER),
                   (k.O_ACCEPT, L_ACCEPT), (k.O_REFUSE, L_REFUSE), (k.O_HOLD, L_HOLD), (k.O_ACT_NOW, L_ACTNOW),
                   (k.O_KEEP_HOLDING, L_KEEPHOLD), (k.O_TAKE_ASPECT, L_TAKEASPECT), (k.O_AVOID_ASPECT, L_AVOIDASPECT),
                   (k.O_NO_SUPPORT, L_NOSUPPORT), (k.O_NO_ADVANTAGE, L_NOADVANTAGE), (k.O_FORFEIT, L_FORFEIT),
                   (k.O_PAY, L_PAY), (k.O_TO_CONTEST, L_TOCONTEST), (k.O_TO_CONFLICT, L_TOCONFLICT)):
    FIXED[_code] = _at


@njit(cache=True, _nrt=False)
def actions(out, mask, EV, start, count, ego, A, SLOT_OF, LP, SKMAP, boosts):
    """ActionLayout.encode for each option row of a paused decision (``count`` rows from
    ``start``), marking each in ``mask`` (zeros on entry); ``boosts`` a scratch for the boost
    segment's order (usable_boosts); ``SKMAP[0, s]`` and ``SKMAP[1, s]`` kernel skill s's place among the layout's
    attack skills and its contest skills (-1: none). Returns -1, or the first option the layout cannot name, or
    -2 - i when option i shares its action with an earlier one."""
    C, Z, K = LP[L_C], LP[L_Z], LP[L_K]
    X1 = LP[L_X] + 1
    nb = 0
    for i in range(count):
        row = EV[start + i]
        o, x1, x2, x3 = row[5], row[6], row[7], row[8]
        a = OVERFLOW
        if FIXED[o] >= 0:
            a = LP[FIXED[o]]
        elif o == k.O_ATTACK:
            sk = SKMAP[0, x2]
            if sk >= 0:
                a = LP[L_ATTACK] + slot_of(ego, x1) * K + sk
        elif o == k.O_ZONEATTACK:
            sk = SKMAP[0, x2]
            if sk >= 0:
                a = LP[L_ZONEATTACK] + x1 * K + sk
        elif o == k.O_SHOVE:
            sk = SKMAP[0, x2]
            if sk >= 0 and LP[L_BLKMAP + x3] >= 0:
                a = LP[L_SHOVE] + (slot_of(ego, x1) * K + sk) * LP[L_NBL] + LP[L_BLKMAP + x3]
        elif o == k.O_MOVE:
            a = LP[L_MOVE] + x1
        elif o == k.O_OVERCOME:
            a = LP[L_OVERCOME] + x1
        elif o == k.O_SUPPORT:
            a = LP[L_SUPPORT] + slot_of(ego, x1)
        elif o == k.O_SPIN:
            a = LP[L_SPIN] + slot_of(ego, x1)
        elif o == k.O_PROTECT:
            a = LP[L_PROTECT] + slot_of(ego, x1)
        elif o == k.O_BLOCKACT:
            a = LP[L_BLOCKACT] + slot_of(ego, x1) * 3 + x2
        elif o == k.O_NEXT:
            a = LP[L_NEXT] + slot_of(ego, x1)
        elif o == k.O_ROLLFOR:
            sk = SKMAP[1, x2]
            if sk >= 0:
                a = LP[L_ROLLFOR] + slot_of(ego, x1) * LP[L_KC] + sk
        elif o == k.O_TASK:
            a = LP[L_TASK] + x1 * C + slot_of(ego, x2)
        elif o == k.O_EXPLOIT or o == k.O_REMOVE:
            if SLOT_OF[x1] >= 0:
                a = LP[L_EXPLOIT if o == k.O_EXPLOIT else L_REMOVE] + SLOT_OF[x1]
        elif o == k.O_ADVANTAGE:
            if x2 >= k.TGT_ZONE:
                t = C + x2 - k.TGT_ZONE
            elif x2 == k.TGT_SCENE:
                t = C + Z
            else:
                t = slot_of(ego, x2)
            a = LP[L_ADVANTAGE] + x1 * (C + Z + 1) + t
        elif o == k.O_INVOKE:
            effect = 1 if row[10] != 0 else 0
            if A[x1, k.A_KIND] == k.K_BOOST:
                b = 0
                while b < nb and boosts[b] != x1:
                    b += 1
                if b == nb:
                    boosts[nb] = x1
                    nb += 1
                if b < LP[L_B]:
                    a = LP[L_BOOST] + b * 2 + effect
            elif SLOT_OF[x1] >= 0:
                mode = effect if x3 != 0 else 2 + 2 * slot_of(ego, x2) + effect
                a = LP[L_INVOKE] + SLOT_OF[x1] * (2 + 2 * C) + mode
        elif o == k.O_ABSORB:
            box = 0
            if LP[L_ONEBOX] != 0 and x1 != 0:
                low = 0
                while not (x1 >> low) & 1:
                    low += 1
                box = 1 + low
            if x2 * X1 + box < LP[L_ABSORB_SIZE]:
                a = LP[L_ABSORB] + x2 * X1 + box
        if a == OVERFLOW:
            return i
        if mask[a] != 0:
            return -2 - i
        mask[a] = 1
        out[i] = a
    return -1


# what digest() reports for the environment's rewards (aec.raw_env._score)
SC_HIT, SC_ABSORBED, SC_CONCEDED, SC_TAKEN_OUT, SC_DECISION = range(5)  # SC_DECISION: who decided
# digest's state (ST): aspect ids given slots so far, removals waiting for the next decision; then
# what it reports of the step: the events written, why the kernel stopped (G_BAIL: a pause is a
# decision pending), the pending kind, actor and option count (-1 when the kernel paused with no
# room for the options: it outgrew its table)
D_SEQ, D_NREM, D_NEV, D_BAIL, D_PKIND, D_PACTOR, D_PCOUNT = range(7)
ND = 7


@njit(cache=True, _nrt=False)
def _sync(A, SLOT_AT, SLOT_OF, ST, REM, upto):
    """AspectSlots.sync at a decision (``upto``: the last aspect id made before it): the removed
    leave their slots, then the new aspects take the lowest free ones in the order they were
    made. Returns False when the table is full (LayoutOverflow)."""
    nrem = ST[D_NREM]
    if upto <= ST[D_SEQ] and nrem == 0:
        return True
    for i in range(nrem):
        aid = REM[i]
        if SLOT_OF[aid] >= 0:
            SLOT_AT[SLOT_OF[aid]] = 0
            SLOT_OF[aid] = -1
    for aid in range(ST[D_SEQ] + 1, upto + 1):
        if A[aid, k.A_KIND] == k.K_BOOST:
            continue
        gone = False
        for i in range(nrem):
            if REM[i] == aid:
                gone = True
        if gone:
            continue
        slot = 0
        while slot < SLOT_AT.shape[0] and SLOT_AT[slot] != 0:
            slot += 1
        if slot == SLOT_AT.shape[0]:
            return False
        SLOT_AT[slot] = aid
        SLOT_OF[aid] = slot
    if upto > ST[D_SEQ]:
        ST[D_SEQ] = upto
    ST[D_NREM] = 0
    return True


@njit(cache=True, _nrt=False)
def digest(EV, start, G, A, SLOT_AT, SLOT_OF, ST, REM, SCORED):
    """Read the event rows a step wrote: keep the aspect slots in step with every decision (and the
    one now pending), and list what the rewards score (SCORED rows: what, who, shifts), each
    decision marking where a step of the reference environment begins. Returns
    the number of SCORED rows, or -1 when the aspect table overflows."""
    m = 0
    end = G[k.G_NEV]
    paused = G[k.G_BAIL] == k.BAIL_PAUSE
    ST[D_NEV] = end
    ST[D_BAIL] = G[k.G_BAIL]
    ST[D_PKIND] = G[k.G_PKIND]
    ST[D_PACTOR] = G[k.G_PACTOR]
    ST[D_PCOUNT] = G[k.G_PCOUNT] if end + G[k.G_PCOUNT] <= EV.shape[0] else -1
    for r in range(start, end):
        code = EV[r, 0]
        if code == k.E_REMOVED:
            REM[ST[D_NREM]] = EV[r, 1]
            ST[D_NREM] += 1
        elif code == k.E_DECISION:
            if not _sync(A, SLOT_AT, SLOT_OF, ST, REM, EV[r, 11]):
                return -1
            SCORED[m, 0] = SC_DECISION  # a new step of the environment begins
            SCORED[m, 1] = EV[r, 2]
            m += 1
        elif code == k.E_HIT:
            SCORED[m, 0] = SC_HIT
            SCORED[m, 1] = EV[r, 2]
            m += 1
        elif code == k.E_ABSORBED or code == k.E_MOBHIT:
            SCORED[m, 0] = SC_ABSORBED
            SCORED[m, 1] = EV[r, 1]
            SCORED[m, 2] = EV[r, 2]
            m += 1
        elif code == k.E_CONCEDED or code == k.E_TAKENOUT:
            SCORED[m, 0] = SC_CONCEDED if code == k.E_CONCEDED else SC_TAKEN_OUT
            SCORED[m, 1] = EV[r, 1]
            m += 1
    # at the pending decision, and at the end: the last observation shows what the final steps made
    # (a consequence taken on the last hit before the exchange cap), as the reference's does
    if (paused or G[k.G_BAIL] == k.BAIL_NONE) and not _sync(A, SLOT_AT, SLOT_OF, ST, REM, G[k.G_ASEQ]):
        return -1
    return m
