"""The entity view's rows written from the kernel's arrays, and fights whose asking seats a learned
network answers inside the kernel (issue 53: the ``learned`` NPC at the fast core's pace).

``environment/entities.py`` says what each row and column means and reads the reference engine;
:func:`rows` computes the same numbers from a paused fight's arrays (each in float64, rounded to
float32 once, as the Python rows are), as ``observe.py`` does for the fixed-shape observation. The
block starts that depend on the option classes and the skills come in one integer array (``EP``,
built by ``environment/fast_entities.py``), so an edit there needs no recompile here. A differential
test holds the two together on every decision of the shipped scenes.
"""

from __future__ import annotations

import numpy as np

from .bundles import Rows
from .entity_forward import scores
from .jit import njit
from .kernel import layout as k
from .kernel.entry import _advance, _scratch, _script_pick
from .kernel.mirror import mirrors
from .kernel.reach import _attack_skills, _can_reach
from .kernel.rolls import _attack_rating, _defense_rating
from .kernel.stress import _cap
from .observe import contest_standing, relation, slot_of

# EP: where each block of the rows starts, and the sizes the compiled code reads
(EP_NDEC, EP_CF, EP_ZF, EP_AF, EP_OF, EP_TYPE, EP_SKILL, EP_TEMPLATE, EP_FLAG, EP_COUNT, EP_WORD, EP_POINTS,
 EP_HINT, EP_SCENE_WORD, EP_BONUS_WORD, EP_REROLL_WORD, EP_BLOCK_WORD) = range(17)
EP_KIND_WORD = EP_BLOCK_WORD + k.MAX_BLOCKS  # EP[EP_BLOCK_WORD + i]: the word bucket of block i's name (a shove's block)
NEP = EP_KIND_WORD + len(k.BLOCK_KINDS)  # EP[EP_KIND_WORD + j]: the word of a Fate 3.0 block's kind of action j
# a character row's columns (entities.EntityEncoder._character, in its order)
C_REL, C_KIND, C_STATUS, C_PLACE, C_BOXES, C_SLOTS, C_CAP, C_FP, C_ACTED, C_FULLDEF, C_MEMBERS, C_REACH = \
    0, 3, 7, 10, 13, 17, 19, 20, 21, 22, 23, 24


@mirrors("fate_env.environment.entities.EntityEncoder.encode")
@njit(cache=True)
def rows(ego, pkind, count, suggested, T, W, EV, start, V, R):
    """The decision paused for ``ego`` (``pkind``, ``count`` option rows in ``EV`` from ``start``; -1
    for no decision of its) as the entity rows ``R`` (``bundles.Rows``); returns how many aspect
    rows it wrote. ``V`` (``bundles.EntityView``): ``CHS`` each character's fixed columns, ``ZS``
    each zone's, ``DK`` a kernel decision kind's place among entities.DECISIONS, ``OTYPE`` and
    ``OWORD`` an option code's class among entities.OPTION_TYPES and the word bucket it carries (-1:
    none), ``SKW`` a kernel skill's column in the skill block, ``TPLK`` an advantage template's
    target kind."""
    _global_row(ego, pkind, T, W, V, R)
    _character_rows(ego, T, W, V, R)
    _zone_rows(ego, T, W, V, R)
    na = _aspect_rows(ego, pkind, T, W, R)
    _option_rows(ego, count, suggested, T, W, EV, start, V, R, na)
    return na


@mirrors("fate_env.environment.entities.EntityEncoder._global")
@njit(cache=True)
def _global_row(ego, pkind, T, W, V, R):
    """The decision and the table: ``R.glob``."""
    SC, P, HOPS = T.SC, T.P, T.HOPS
    EP, DK = V.EP, V.DK
    glob = R.glob
    G, CH = W.G, W.CH
    n = SC.shape[0]
    nz = HOPS.shape[0]
    side = SC[ego, k.S_SIDE]
    nd = EP[EP_NDEC]
    for j in range(glob.shape[0]):
        glob[j] = 0.0
    if pkind >= 0:
        glob[DK[pkind]] = 1.0
        if pkind == k.D_INVOKE:
            glob[nd] = G[k.G_PEFFORT] / 10
            glob[nd + 1] = G[k.G_POPP] / 10
            glob[nd + 2] = G[k.G_PMARGIN] / 10
            glob[nd + 3] = 1.0 if G[k.G_PROLLER] != 0 else 0.0
        elif pkind == k.D_STYLE or pkind == k.D_ABSORB:
            glob[nd + 4] = G[k.G_PSHIFTS] / 10
    glob[nd + 5] = G[k.G_EXCHANGE] / max(1, P[k.P_MAXEX])
    glob[nd + 6] = G[k.G_GMPOOL] / 10
    glob[nd + 7] = (G[k.G_GMPOOL] if SC[ego, k.S_NPC] != 0 else CH[ego, k.C_FP]) / 10
    if G[k.G_CONTEST] != 0:
        glob[nd + 8], glob[nd + 9] = contest_standing(G, P, side)
    glob[nd + 10] = n / 16
    glob[nd + 11] = nz / 6


@mirrors("fate_env.environment.entities.EntityEncoder._character")
@njit(cache=True)
def _character_rows(ego, T, W, V, R):
    """The characters, the ego first: ``R.chars`` and each one's zone ``R.czone``."""
    SC, P, SIGHT, HOPS = T.SC, T.P, T.SIGHT[W.G[k.G_MAP]], T.HOPS
    CHS, BOXES = V.CHS, V.BOXES
    chars, char_zone = R.chars, R.czone
    MARK, SLOTA, CH = W.MARK, W.SLOTA, W.CH
    n = SC.shape[0]
    side = SC[ego, k.S_SIDE]
    here = CH[ego, k.C_ZONE]
    track = P[k.P_TRACK]
    skills = np.empty(4, np.int64)
    for r in range(n):
        c = ego if r == 0 else (r - 1 if r - 1 < ego else r)
        for j in range(chars.shape[1]):
            chars[r, j] = CHS[c, j]
        char_zone[r] = CH[c, k.C_ZONE]
        foe = SC[c, k.S_SIDE] != side
        chars[r, C_REL + relation(SC, ego, c) - 1] = 1.0  # me, an ally, a foe
        status = CH[c, k.C_STATUS]
        chars[r, C_STATUS + status] = 1.0  # active, conceded, taken out (layout.ACTIVE...)
        hops = HOPS[here, CH[c, k.C_ZONE]]
        chars[r, C_PLACE] = 1.0 if CH[c, k.C_ZONE] == here else 0.0
        chars[r, C_PLACE + 1] = (hops if hops >= 0 else 0) / 6
        chars[r, C_PLACE + 2] = 1.0 if hops < 0 else 0.0
        marked = 0
        for b in range(SC[c, k.S_NBOX]):
            marked += 1 if MARK[c, b] != 0 else 0
        pm = marked if track == 0 else 0
        mm = marked if track == 1 else 0
        chars[r, C_BOXES] = (BOXES[c, 0] - pm) / 10
        chars[r, C_BOXES + 1] = (BOXES[c, 1] - mm) / 10
        chars[r, C_BOXES + 2] = pm / 10
        chars[r, C_BOXES + 3] = mm / 10
        used = 0
        for s in range(SC[c, k.S_NSLOT]):
            if SLOTA[c, s] != k.NEG:
                used += 1
        chars[r, C_SLOTS] = used / 5
        chars[r, C_SLOTS + 1] = (SC[c, k.S_NSLOT] - used) / 5
        chars[r, C_CAP] = _cap(SC, T.SLOTS, MARK, SLOTA, CH, P, c) / 20 if status == k.ACTIVE else 0.0
        chars[r, C_FP] = CH[c, k.C_FP] / 10
        chars[r, C_ACTED] = 1.0 if CH[c, k.C_ACTED] != 0 else 0.0
        chars[r, C_FULLDEF] = 1.0 if CH[c, k.C_FULLDEF] != 0 else 0.0
        chars[r, C_MEMBERS] = CH[c, k.C_MEMBERS] / SC[c, k.S_COUNT] if SC[c, k.S_MOB] != 0 else 0.0
        if foe and status == k.ACTIVE and CH[ego, k.C_STATUS] == k.ACTIVE:
            na = _attack_skills(P, ego, skills)
            for j in range(na):
                if _can_reach(P, SIGHT, CH, ego, skills[j], here, c):
                    chars[r, C_REACH] = 1.0
                    break
            na = _attack_skills(P, c, skills)
            for j in range(na):
                if _can_reach(P, SIGHT, CH, c, skills[j], CH[c, k.C_ZONE], ego):
                    chars[r, C_REACH + 1] = 1.0
                    break


@mirrors("fate_env.environment.entities.EntityEncoder._zone")
@njit(cache=True)
def _zone_rows(ego, T, W, V, R):
    """The zones: ``R.zones``."""
    SC, HOPS = T.SC, T.HOPS
    ZS = V.ZS
    zones = R.zones
    CH, G, A, AL = W.CH, W.G, W.A, W.AL
    n = SC.shape[0]
    nz = HOPS.shape[0]
    side = SC[ego, k.S_SIDE]
    here = CH[ego, k.C_ZONE]
    for z in range(nz):
        hops = HOPS[here, z]
        allies = 0
        people = 0
        for c in range(n):
            if CH[c, k.C_STATUS] == k.ACTIVE and CH[c, k.C_ZONE] == z:
                people += 1
                allies += 1 if SC[c, k.S_SIDE] == side else 0
        on = 0
        for i in range(G[k.G_NAL]):
            on += 1 if A[AL[i], k.A_ZONE] == z else 0
        zones[z, 0] = 1.0 if z == here else 0.0
        zones[z, 1] = (hops if hops >= 0 else 0) / 6
        zones[z, 2] = 1.0 if hops < 0 else 0.0
        zones[z, 3] = allies / 8
        zones[z, 4] = (people - allies) / 8
        zones[z, 5] = on / 4
        zones[z, 6] = ZS[z, 0]
        zones[z, 7] = ZS[z, 1]


@mirrors("fate_env.environment.entities.EntityEncoder._aspect")
@njit(cache=True)
def _aspect_rows(ego, pkind, T, W, R):
    """The aspects in play, in the order they were made: ``R.aspects``, their owners' and zones'
    places, and ``R.row_of`` (an aspect id's row); returns how many there are."""
    SC = T.SC
    aspects, owner, azone, row_of = R.aspects, R.owner, R.azone, R.row_of
    CH, G, A, AF, AL, INV = W.CH, W.G, W.A, W.AF, W.AL, W.INV
    n = SC.shape[0]
    side = SC[ego, k.S_SIDE]
    here = CH[ego, k.C_ZONE]
    na = G[k.G_NAL]
    rolling = pkind == k.D_INVOKE
    for i in range(na):
        aid = AL[i]
        row_of[aid] = i
        for j in range(aspects.shape[1]):
            aspects[i, j] = 0.0
        aspects[i, A[aid, k.A_KIND]] = 1.0
        who = A[aid, k.A_OWNER]
        aspects[i, 5 + relation(SC, ego, who)] = 1.0
        if A[aid, k.A_ZONE] == here or (who != k.NEG and CH[who, k.C_ZONE] == here):
            aspects[i, 9] = 1.0
        h0 = 0.0
        h1 = 0.0
        h2 = 0.0
        for h in range(n):
            if AF[aid, h] != 0:
                if h == ego:
                    h0 += AF[aid, h] / 3
                elif SC[h, k.S_SIDE] == side:
                    h1 += AF[aid, h] / 3
                else:
                    h2 += AF[aid, h] / 3
        aspects[i, 10] = h0
        aspects[i, 11] = h1
        aspects[i, 12] = h2
        aspects[i, 13] = 1.0 if rolling and INV[side, aid] == G[k.G_ROLLNO] else 0.0
        owner[i] = -1 if who == k.NEG else slot_of(ego, who)
        azone[i] = A[aid, k.A_ZONE] if A[aid, k.A_ZONE] != k.NEG else -1
    return na


@mirrors("fate_env.environment.entities.EntityEncoder._option")
@njit(cache=True)
def _option_rows(ego, count, suggested, T, W, EV, start, V, R, na):
    """The options, field by field as EntityEncoder._option reads the reference's (decode.decode_option):
    ``R.options`` and each one's character, zone and aspect places."""
    SK, ST, P = T.SK, T.ST, T.P
    EP, OTYPE, OWORD, SKW, TPLK = V.EP, V.OTYPE, V.OWORD, V.SKW, V.TPLK
    options, o_char, o_zone, o_asp, row_of = R.options, R.o_char, R.o_zone, R.o_asp, R.row_of
    CH, A, AL = W.CH, W.A, W.AL
    for i in range(count):
        ev = EV[start + i]
        o, x1, x2, x3, x5 = ev[5], ev[6], ev[7], ev[8], ev[10]
        for j in range(options.shape[1]):
            options[i, j] = 0.0
        options[i, EP[EP_TYPE] + OTYPE[o]] = 1.0
        ch = -1
        zn = -1
        asp = -1
        if OWORD[o] >= 0:
            options[i, EP[EP_WORD] + OWORD[o]] = 1.0
        if o == k.O_ATTACK or o == k.O_ZONEATTACK:
            if o == k.O_ATTACK:
                ch = slot_of(ego, x1)
            else:
                zn = x1
            options[i, EP[EP_SKILL] + SKW[x2]] = 1.0
            if o == k.O_ATTACK and CH[x1, k.C_STATUS] == k.ACTIVE:
                margin = _attack_rating(SK, ST, CH, A, ego, x2, x1) - _defense_rating(SK, ST, CH, A, P, x1, ego, x2)
                options[i, EP[EP_HINT] + 1] = margin / 8
        elif o == k.O_SHOVE:  # a foe, a skill, a block's name (a word)
            ch = slot_of(ego, x1)
            options[i, EP[EP_SKILL] + SKW[x2]] = 1.0
            options[i, EP[EP_WORD] + EP[EP_BLOCK_WORD + x3]] = 1.0
        elif o == k.O_MOVE or o == k.O_OVERCOME:
            zn = x1
        elif o == k.O_ROLLFOR:  # a contest's roller and its skill
            ch = slot_of(ego, x1)
            options[i, EP[EP_SKILL] + SKW[x2]] = 1.0
        elif o == k.O_TASK:  # a challenge's task (its number, /10) and who takes it on
            options[i, EP[EP_COUNT] + 2] = x1 / 10
            ch = slot_of(ego, x2)
        elif o == k.O_SUPPORT or o == k.O_NEXT or o == k.O_SPIN or o == k.O_PROTECT:
            ch = slot_of(ego, x1)
        elif o == k.O_BLOCKACT:  # a foe, and the kind of action blocked (a word)
            ch = slot_of(ego, x1)
            options[i, EP[EP_WORD] + EP[EP_KIND_WORD + x2]] = 1.0
        elif o == k.O_EXPLOIT or o == k.O_REMOVE:
            asp = _row(row_of, na, AL, x1)
        elif o == k.O_INVOKE:
            asp = _row(row_of, na, AL, x1)
            ch = slot_of(ego, x2)
            options[i, EP[EP_FLAG]] = 1.0 if x3 != 0 else 0.0
            options[i, EP[EP_WORD] + (EP[EP_REROLL_WORD] if x5 != 0 else EP[EP_BONUS_WORD])] = 1.0
        elif o == k.O_ADVANTAGE:
            options[i, EP[EP_TEMPLATE] + TPLK[x1]] = 1.0
            if x2 >= k.TGT_ZONE:
                zn = x2 - k.TGT_ZONE
            elif x2 == k.TGT_SCENE:
                options[i, EP[EP_WORD] + EP[EP_SCENE_WORD]] = 1.0
            else:
                ch = slot_of(ego, x2)
        elif o == k.O_ABSORB:
            options[i, EP[EP_COUNT]] = _bits(x1) / 5
            options[i, EP[EP_COUNT] + 1] = _bits(x2) / 5
        options[i, EP[EP_POINTS]] = 1.0 if ch >= 0 else 0.0
        options[i, EP[EP_POINTS] + 1] = 1.0 if zn >= 0 else 0.0
        options[i, EP[EP_POINTS] + 2] = 1.0 if asp >= 0 else 0.0
        o_char[i] = ch
        o_zone[i] = zn
        o_asp[i] = asp
    if 0 <= suggested < count:
        options[suggested, EP[EP_HINT]] = 1.0


@mirrors("fate_env.environment.entities.EntityEncoder.encode")
@njit(cache=True, _nrt=False)
def _row(row_of, na, AL, aid):
    """The row of aspect ``aid`` among those in play (-1: not in play)."""
    r = row_of[aid]
    return r if 0 <= r < na and AL[r] == aid else -1


@mirrors("fate_env.environment.entities.EntityEncoder._option")
@njit(cache=True, _nrt=False)
def _bits(m):
    """How many boxes or slots an absorb's mask names (decode._mask's length)."""
    total = 0
    for i in range(63):
        total += (m >> i) & 1
    return total


#: what play_learned returns when it cannot go on (0: every fight played or handed back)
PL_OK, PL_NO_PICK, PL_ASPECTS, PL_OPTIONS = 0, 1, 2, 3


@mirrors("agents.learned.LearnedController.choose", "agents.base.play")
@njit(cache=True, nogil=True)
def play_learned(T, SEEDS, POLICY_RNG0, EV, EV2, W, K, W2, S, V, limits, OUT):
    """Play each seed's fight to its end, the seats that ask (the learned ones) answered by the
    network ``S`` (``bundles.Scorer``): at each pause the helper's move (``script_pick``), the entity rows (``rows``), the
    scores (``entity_forward.scores``), then ``LearnedController.choose``'s rule (the best option,
    unless it beats the helper's by less than ``limits[0]``, keep_within), and the fight goes on
    from its turn's start (``advance``). A fight that outgrows the kernel's tables stops with its
    bail-out (the caller plays it on the reference). ``limits[1]``, ``limits[2]``: the view's most
    aspects and options. Each fight's end goes into ``OUT`` (``bundles.Outcomes``). Returns PL_OK, or
    why it stopped (``OUT.where``: the fight, the count past the limit)."""
    EP = V.EP
    CH_out, SLOTA_out, G_out, where = OUT.CH, OUT.SLOTA, OUT.G, OUT.where
    keep_within = limits[0]
    max_aspects = limits[1]
    max_options = limits[2]
    G = W.G
    n = T.SC.shape[0]
    nz = T.HOPS.shape[0]
    amax = T.P[k.P_AMAX]
    glob = np.zeros(EP[EP_NDEC] + 12, np.float32)
    chars = np.zeros((n, EP[EP_CF]), np.float32)
    czone = np.zeros(n, np.int64)
    zones = np.zeros((nz, EP[EP_ZF]), np.float32)
    aspects = np.zeros((amax, EP[EP_AF]), np.float32)
    owner = np.zeros(amax, np.int64)
    azone = np.zeros(amax, np.int64)
    row_of = np.zeros(amax, np.int64)
    limit = EV.shape[0]
    options = np.zeros((limit, EP[EP_OF]), np.float32)
    o_char = np.zeros(limit, np.int64)
    o_zone = np.zeros(limit, np.int64)
    o_asp = np.zeros(limit, np.int64)
    out = np.zeros(limit, np.float32)
    R = Rows(glob, chars, czone, zones, aspects, owner, azone, options, o_char, o_zone, o_asp, row_of)
    B = _scratch(n, T.ZF, T.TPL)  # the flows' working buffers, made once for every pause
    seed = np.zeros(1, np.uint64)  # advance's arguments as a session hands them (one compiled _advance)
    rng = np.zeros(POLICY_RNG0.shape[1], np.uint64)
    for f in range(SEEDS.shape[0]):
        G[k.G_NANS] = 0
        seed[0] = SEEDS[f]
        for j in range(rng.shape[0]):
            rng[j] = POLICY_RNG0[f, j]
        _advance(T, seed, rng, EV, W, K, True, B)
        while G[k.G_BAIL] == k.BAIL_PAUSE:
            count = G[k.G_PCOUNT]
            start = G[k.G_NEV]
            nans = G[k.G_NANS]
            if start + count > EV.shape[0] or k.NG + nans >= G.shape[0]:
                G[k.G_BAIL] = k.BAIL_EVENTS  # the fight outgrew the tables: the reference plays it
                break
            if count > max_options:
                where[0] = f
                where[1] = count
                return PL_OPTIONS
            pick = 0
            if count > 1:
                suggested = _script_pick(T, W, K, EV2, W2, B)
                if suggested < 0:
                    where[0] = f
                    return PL_NO_PICK
                na = rows(G[k.G_PACTOR], G[k.G_PKIND], count, suggested, T, W, EV, start, V, R)
                if na > max_aspects:
                    where[0] = f
                    where[1] = na
                    return PL_ASPECTS
                scores(S.net, R, n, nz, na, count, out, S.memos)
                pick = 0
                for i in range(1, count):
                    if out[i] > out[pick]:
                        pick = i
                if out[pick] - out[suggested] < keep_within:
                    pick = suggested
            G[k.NG + nans] = pick
            G[k.G_NANS] = nans + 1
            _advance(T, seed, rng, EV, W, K, False, B)
        for c in range(n):
            for j in range(CH_out.shape[2]):
                CH_out[f, c, j] = W.CH[c, j]
            for j in range(SLOTA_out.shape[2]):
                SLOTA_out[f, c, j] = W.SLOTA[c, j]
        for j in range(k.NG):
            G_out[f, j] = G[j]
    return PL_OK
