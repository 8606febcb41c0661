"""Invoking aspects (``rules/invokes.py``): who may pay, every invoke option in the reference's
order, the budget, an invoke applied, and the rounds of invokes after a roll with the policies' answers.
"""

from __future__ import annotations

from ..jit import njit
from .aspects import _boost, _drop_aspect
from .events import _decision, _emit, _opt
from .layout import (
    P_SOLO, A_KIND, A_NAME, A_OWNER, A_ZONE, ACT_ADVANTAGE, ACTIVE, C_ADV, C_ASSISTS, ANY_ASPECT, BAIL_NONE, BEAR_ANY, BEAR_FOE, BEAR_OWN, BEAR_SCENE, BAIL_PAUSE, C_FP, C_INVOKES, C_OWED, C_PAID,
    C_STATUS, D_INVOKE, E_INVOKED, E_REMOVED, E_RESOLVED, G_BAIL, G_GMPOOL, G_NAL, G_PEFFORT, G_PMARGIN,
    G_POPP, G_PROLLER, G_ROLLNO, K_ADVANTAGE, K_BOOST, K_CHARACTER, K_CONSEQUENCE, NEG, NOT_HERE, O_DONE, O_INVOKE, P_NAME_UPPER,
    P_POL, PK_STACKER, PK_TACTICIAN, POL_ANY, POL_ANYROLL, POL_FIT, POL_FLOOR, POL_KIND, POL_RESERVE, POL_W, R_ACTOR, R_BASE, R_BONUS, R_FACES, R_I_CANNOT,
    R_I_CASHES, R_I_ENOUGH, R_I_FREE, R_I_HOLDS, R_I_NOOWN, R_I_PAID, R_I_STACKS, R_OBASE, R_OBONUS, R_OFACES, R_OPP,
    R_Z1, R_Z2, R_TARGET, A_BLOCK, R_ABOUT, S_NPC, S_SIDE, S_TROUBLE, WHY_USED, HZ_ROLLER, A_ALIVE, P_FRAGILE,
    WHY_FRAGILE, C_SPIN, E_SPIN, O_SPIN, P_SPIN, R_I_SPIN, R_ALONE, R_HASFLOOR, R_OFLOOR,
)
from .mirror import mirrors
from .rolls import _roll
from .seats import _draw, _draws, _why
from .table import _allies, _pay_point, _points_of
from .solo import _solo_invoke, _solo_need


@mirrors("fate_env.rules.table.Roll.opposition")
@njit(cache=True, _nrt=False, inline="always")
def _opposition(R):
    """The roll's opposition: the defense or difficulty, at least a protecting block's strength where one
    stands under it (Roll.opp_floor, 002:46), plus the invokes on its side."""
    o = R[R_OBASE] + R[R_OFACES]
    if R[R_HASFLOOR] != 0 and R[R_OFLOOR] > o:
        o = R[R_OFLOOR]
    return o + R[R_OBONUS]


@mirrors("fate_env.rules.invokes.invoke_options")
@njit(cache=True, _nrt=False)
def _payers(SC, CH, G, who, allies, nal, out):
    """Who may pay a fate point for ``who``'s invoke: itself (NPCs: the GM pool), PC allies."""
    if SC[who, S_NPC] != 0:
        if G[G_GMPOOL] > 0:
            out[0] = who
            return 1
        return 0
    n = 0
    if CH[who, C_FP] > 0:
        out[0] = who
        n = 1
    for i in range(nal):
        p = allies[i]
        if SC[p, S_NPC] == 0 and CH[p, C_FP] > 0:
            out[n] = p
            n += 1
    return n


@mirrors("fate_env.rules.aspects.visible")
@njit(cache=True, _nrt=False)
def _visible_here(A, CH, R, aid):
    owner = A[aid, A_OWNER]
    if owner != NEG and CH[owner, C_STATUS] != ACTIVE:
        return False
    z = A[aid, A_ZONE]
    return (z == NEG or z == R[R_Z1] or z == R[R_Z2]) and _about(A, R, aid)


@mirrors("fate_env.rules.invokes.invoke_options")
@njit(cache=True, _nrt=False, inline="always")
def _about(A, R, aid):
    """Not a block's own aspect, or one of the blocks the roll is about: an obstacle bears on the
    rolls about it alone (003:2306-2313)."""
    b = A[aid, A_BLOCK]
    return b == 0 or (R[R_ABOUT] >> (b - 1)) & 1 != 0


@mirrors("fate_env.rules.invokes.invoke_options")
@njit(cache=True, _nrt=False)
def _may_pay(SC, A, aid, payer, side):
    """A fate point buys your own aspect, a situation aspect, or an opponent's (never a friend's)."""
    kind = A[aid, A_KIND]
    owner = A[aid, A_OWNER]
    personal = (kind == K_CHARACTER or kind == K_CONSEQUENCE) and owner != NEG
    return (not personal) or owner == payer or SC[owner, S_SIDE] != side


@mirrors("fate_env.rules.invokes.invoke_options")
@njit(cache=True, _nrt=False)
def _holder_here(CH, A, AF, R, aid, who, allies, nal):
    """For an aspect and the roll in progress: the first of ``who`` and its allies holding a free
    invoke on it (NEG: none), or NOT_HERE when it is not in play here (its owner has left, or it
    sits in another zone)."""
    owner = A[aid, A_OWNER]
    if owner != NEG and CH[owner, C_STATUS] != ACTIVE:
        return NOT_HERE
    z = A[aid, A_ZONE]
    if z != NEG and z != R[R_Z1] and z != R[R_Z2] or not _about(A, R, aid):
        return NOT_HERE
    if AF[aid, who] > 0:
        return who
    for j in range(nal):
        if AF[aid, allies[j]] > 0:
            return allies[j]
    return NEG


@mirrors("fate_env.rules.invokes.bears_on", "fate_env.rules.invokes.fits")
@njit(cache=True, _nrt=False)
def _bears(SC, A, aid, owner, who, bear, actor, strict):
    """An aspect of ``owner`` (NEG: a situation aspect) bears on ``who``'s part in the roll whose
    other party is ``bear``; under ANY_ASPECT every aspect does. ``strict`` (invokes.fits): of the
    other party's, only its consequences, advantages on it and, for the actor, its trouble."""
    if bear == ANY_ASPECT or owner == NEG or owner == who:
        return True
    if owner != bear:
        return False
    if strict == 0:
        return True
    kind = A[aid, A_KIND]
    if kind == K_CONSEQUENCE or kind == K_ADVANTAGE:
        return True
    return who == actor and kind == K_CHARACTER and SC[owner, S_TROUBLE] == aid


@mirrors("agents.basic.BasicController._bearing")
@njit(cache=True, _nrt=False)
def _bearing(owner, who, other):
    """How an invoked aspect bears on the roll, for the reason: BEAR_SCENE, BEAR_OWN, BEAR_FOE or BEAR_ANY."""
    if owner == NEG:
        return BEAR_SCENE
    if owner == who:
        return BEAR_OWN
    return BEAR_FOE if owner == other else BEAR_ANY


@mirrors("fate_env.rules.invokes.invoke_options")
@njit(cache=True, _nrt=False)
def _invoke_scan(T, W, B, who, neffects, nal, npay, owned_by, bear, strict):
    """Walk ``who``'s invoke options in the reference's order. Returns the option count; fills
    pick_free = [index, aspect, holder] of the first free +2 that bears on the roll (``bear``: the
    other party, or ANY_ASPECT), pick_free[3:6] the same for the first free +2 on an aspect of
    ``owned_by`` (the tactician's), pick_free[6:8] = [index, aspect] of the first free +2 ``who``
    holds itself (the stacker's), and pick_paid = [index, aspect] of the first paid +2 paid by
    ``who`` itself that bears on the roll."""
    SC = T.SC
    CH, A, AF, AL, G, INV = W.CH, W.A, W.AF, W.AL, W.G, W.INV
    R, allies, payers, pick_free, pick_paid = B.R, B.allies, B.payers, B.pick_free, B.pick_paid
    side = SC[who, S_SIDE]
    stamp = G[G_ROLLNO]
    n = 0
    pick_free[0] = NEG
    pick_free[3] = NEG
    pick_free[6] = NEG
    pick_paid[0] = NEG
    for i in range(G[G_NAL]):
        aid = AL[i]
        holder = _holder_here(CH, A, AF, R, aid, who, allies, nal)
        if holder == NOT_HERE:
            continue
        owner = A[aid, A_OWNER]
        if holder != NEG:
            if pick_free[0] == NEG and _bears(SC, A, aid, owner, who, bear, R[R_ACTOR], strict):
                pick_free[0] = n + 1
                pick_free[1] = aid
                pick_free[2] = holder
            if pick_free[3] == NEG and owner == owned_by and owned_by != NEG:
                pick_free[3] = n + 1
                pick_free[4] = aid
                pick_free[5] = holder
            if pick_free[6] == NEG and holder == who:
                pick_free[6] = n + 1
                pick_free[7] = aid
            n += neffects
        kind = A[aid, A_KIND]
        if npay > 0 and kind != K_BOOST and INV[side, aid] != stamp:
            # a fate point buys your own aspect, a situation aspect, or an opponent's (_may_pay)
            personal = (kind == K_CHARACTER or kind == K_CONSEQUENCE) and owner != NEG
            for j in range(npay):
                p = payers[j]
                if (not personal) or owner == p or SC[owner, S_SIDE] != side:
                    if p == who and pick_paid[0] == NEG and _bears(SC, A, aid, owner, who, bear, R[R_ACTOR], strict):
                        pick_paid[0] = n + 1
                        pick_paid[1] = aid
                    n += neffects
    return n


@mirrors("fate_env.rules.invokes.invoke_options")
@njit(cache=True, _nrt=False)
def _invoke_at(T, W, B, who, neffects, nal, npay, index, out):
    """The invoke option at ``index`` (1-based: 0 is "done") in the reference's order, as
    out = [aspect, payer, free, reroll] (the walk of ``_invoke_scan``)."""
    SC = T.SC
    CH, A, AF, AL, G, INV = W.CH, W.A, W.AF, W.AL, W.G, W.INV
    R, allies, payers = B.R, B.allies, B.payers
    side = SC[who, S_SIDE]
    stamp = G[G_ROLLNO]
    n = 0
    for i in range(G[G_NAL]):
        aid = AL[i]
        holder = _holder_here(CH, A, AF, R, aid, who, allies, nal)
        if holder == NOT_HERE:
            continue
        owner = A[aid, A_OWNER]
        if holder != NEG:
            if index <= n + neffects:
                out[0] = aid
                out[1] = holder
                out[2] = 1
                out[3] = index - n - 1
                return
            n += neffects
        kind = A[aid, A_KIND]
        if npay > 0 and kind != K_BOOST and INV[side, aid] != stamp:
            personal = (kind == K_CHARACTER or kind == K_CONSEQUENCE) and owner != NEG
            for j in range(npay):
                p = payers[j]
                if (not personal) or owner == p or SC[owner, S_SIDE] != side:
                    if index <= n + neffects:
                        out[0] = aid
                        out[1] = p
                        out[2] = 0
                        out[3] = index - n - 1
                        return
                    n += neffects


@mirrors("fate_env.rules.invokes.invoke_budget")
@njit(cache=True, _nrt=False)
def _budget(SC, W, R, who, allies, nal, bear, strict):
    """(free invokes held by who and allies here, fate points, aspects payable) — invoke_budget,
    counting only the aspects that bear on the roll unless ``bear`` is ANY_ASPECT."""
    CH, A, AF, AL, G, INV = W.CH, W.A, W.AF, W.AL, W.G, W.INV
    side = SC[who, S_SIDE]
    stamp = G[G_ROLLNO]
    fp = _points_of(SC, CH, G, who)
    free = 0
    payable = 0
    for i in range(G[G_NAL]):
        aid = AL[i]
        owner = A[aid, A_OWNER]
        if owner != NEG and CH[owner, C_STATUS] != ACTIVE:
            continue
        z = A[aid, A_ZONE]
        if z != NEG and z != R[R_Z1] and z != R[R_Z2] or not _about(A, R, aid):
            continue
        if not _bears(SC, A, aid, owner, who, bear, R[R_ACTOR], strict):
            continue
        free += AF[aid, who]
        for j in range(nal):
            free += AF[aid, allies[j]]
        kind = A[aid, A_KIND]
        if fp != 0 and kind != K_BOOST and INV[side, aid] != stamp:
            personal = (kind == K_CHARACTER or kind == K_CONSEQUENCE) and owner != NEG
            if (not personal) or owner == who or SC[owner, S_SIDE] != side:
                payable += 1
    return free, fp, payable


@mirrors("fate_env.rules.invokes.apply_invoke")
@njit(cache=True, _nrt=False)
def _apply_invoke(T, W, B, EV, who, aid, payer, free, reroll):
    SC, P = T.SC, T.P
    CH, A, AF, AL, G, INV, RNG = W.CH, W.A, W.AF, W.AL, W.G, W.INV, W.RNG
    R, faces = B.R, B.faces
    hostile = NEG
    if free:
        AF[aid, payer] -= 1
        if payer != who and SC[payer, S_SIDE] == SC[who, S_SIDE]:  # an ally's free invoke put to use
            CH[payer, C_ASSISTS] += 1
    else:
        _pay_point(SC, CH, G, payer)
        kind = A[aid, A_KIND]
        owner = A[aid, A_OWNER]
        if (kind == K_CHARACTER or kind == K_CONSEQUENCE) and owner != NEG and SC[owner, S_SIDE] != SC[who, S_SIDE]:
            hostile = owner
            CH[owner, C_OWED] += 1
        INV[SC[who, S_SIDE], aid] = G[G_ROLLNO]
        CH[payer, C_PAID] += 1
    CH[who, C_INVOKES] += 1
    if reroll:  # new dice for the invoker's side of the roll
        s = _roll(RNG, G, faces)
        if who == R[R_ACTOR]:
            R[R_FACES] = s
        else:
            R[R_OFACES] = s
        _emit(EV, G, E_INVOKED,
              (who, aid, payer, 1 if free else 0, hostile, A[aid, A_NAME], 1, faces[0], faces[1], faces[2], faces[3]))
    else:
        if who == R[R_ACTOR]:
            R[R_BONUS] += 2
        else:
            R[R_OBONUS] += 2
        _emit(EV, G, E_INVOKED, (who, aid, payer, 1 if free else 0, hostile, A[aid, A_NAME], 0, 0, 0, 0, 0))
        if P[P_SOLO] != 0:
            _solo_invoke(SC, CH, R, EV, G, who, free)
    if A[aid, A_KIND] == K_BOOST:
        left = 0
        for h in range(AF.shape[1]):
            left += AF[aid, h]
        if left == 0:
            _drop_aspect(A, AL, G, aid)
            _emit(EV, G, E_REMOVED, (aid, A[aid, A_NAME], WHY_USED, 0, 0, 0, 0, 0, 0, 0, 0))
    elif P[P_FRAGILE] != 0 and A[aid, A_KIND] == K_ADVANTAGE and A[aid, A_OWNER] != NEG and A[aid, A_ALIVE] != 0:
        _drop_aspect(A, AL, G, aid)  # a maneuver's aspect on a character goes at its first tag (002:83)
        _emit(EV, G, E_REMOVED, (aid, A[aid, A_NAME], WHY_FRAGILE, 0, 0, 0, 0, 0, 0, 0, 0))


@mirrors("agents.basic.BasicController._invoke")
@njit(cache=True, _nrt=False, inline="always")
def _basic_invoke(T, W, B, who, mine, attack, nal, bear, strict):
    """basic._invoke: enough already (a hit, a tie held), else the invokes it needs at +2 each if it
    can pay for them: the first free one, else the first paid one it pays itself, else done. A pick:
    (option index, reason, aspect, for whom, free, reroll), index 0 being done."""
    SC, P = T.SC, T.P
    A, G = W.A, W.G
    R, allies, pick_free, pick_paid = B.R, B.allies, B.pick_free, B.pick_paid
    pol = P[P_POL] + POL_W * who
    other = R[R_OPP] if mine else R[R_ACTOR]
    effort = R[R_BASE] + R[R_FACES] + R[R_BONUS]
    opposition = _opposition(R)
    margin = effort - opposition if mine else opposition - effort
    if mine:
        goal = 1 if attack else 0
        if margin >= goal:
            return 0, R_I_ENOUGH, 0, 0, 0, 0
        short = goal - margin
    else:
        if margin >= 0:
            return 0, R_I_HOLDS, 0, 0, 0, 0
        short = -margin
    need = _solo_need(SC, W.CH, R, who, short) if P[P_SOLO] != 0 else (short + 1) // 2
    free, fp, payable = _budget(SC, W, R, who, allies, nal, bear, strict)
    fp = fp - P[pol + POL_RESERVE]
    if SC[who, S_NPC] != 0 and fp > G[G_GMPOOL] - P[pol + POL_FLOOR]:
        fp = G[G_GMPOOL] - P[pol + POL_FLOOR]  # the NPC's share of the GM pool (BasicController._pool_room)
    if fp < 0 or (not attack and P[pol + POL_ANYROLL] == 0):
        fp = 0  # fate points only where harm is decided (fate_points_on_any_roll)
    if free + min(fp, payable) < need:
        return 0, R_I_CANNOT, 0, 0, 0, 0
    if pick_free[0] != NEG:
        aid = pick_free[1]
        return pick_free[0], R_I_FREE + _bearing(A[aid, A_OWNER], who, other), aid, pick_free[2], 1, 0
    if pick_paid[0] == NEG or fp <= 0:
        return 0, R_I_NOOWN, 0, 0, 0, 0
    aid = pick_paid[1]
    return pick_paid[0], R_I_PAID + _bearing(A[aid, A_OWNER], who, other), aid, who, 0, 0


@mirrors("agents.tactics.TacticianController._invoke", "agents.tactics.StackerController._invoke")
@njit(cache=True, _nrt=False, inline="always")
def _script_invoke(T, W, B, who, mine, attack, nal, bear, strict):
    """The seat's script's pick in an invoke round: on its own attack, the tactician cashes every free
    invoke on the target first and the stacker puts its whole stack into the blow (``_invoke_scan``
    found them); else basic's."""
    P = T.P
    pick_free = B.pick_free
    kind = P[P[P_POL] + POL_W * who + POL_KIND]
    if mine and attack and kind == PK_TACTICIAN and pick_free[3] != NEG:
        return pick_free[3], R_I_CASHES, pick_free[4], pick_free[5], 1, 0
    if mine and attack and kind == PK_STACKER and pick_free[6] != NEG:
        return pick_free[6], R_I_STACKS, pick_free[7], who, 1, 0
    return _basic_invoke(T, W, B, who, mine, attack, nal, bear, strict)


@mirrors("fate_env.rules.invokes.invoke_turns")
@njit(cache=True, _nrt=False)
def _invoke_options(T, W, B, EV, who, mine, neffects, nal, npay, n, nspin):
    """A paused invoke round: the roll's context (invokes.roll_context), then its options, done and
    every invoke, then the allies' spin tokens it may spend (``nspin``), written past the events."""
    A, G = W.A, W.G
    R, pick_paid = B.R, B.pick_paid
    effort = R[R_BASE] + R[R_FACES] + R[R_BONUS]
    opposition = _opposition(R)
    G[G_PEFFORT] = effort
    G[G_POPP] = opposition
    G[G_PMARGIN] = effort - opposition if mine else opposition - effort
    G[G_PROLLER] = 1 if mine else 0
    _opt(EV, G, 0, O_DONE, 0, 0, 0, 0, 0)
    for q in range(1, n + 1):
        _invoke_at(T, W, B, who, neffects, nal, npay, q, pick_paid)
        _opt(EV, G, q, O_INVOKE, pick_paid[0], pick_paid[1], pick_paid[2], A[pick_paid[0], A_NAME], pick_paid[3])
    for j in range(nspin):
        _opt(EV, G, n + 1 + j, O_SPIN, _nth_spin(W.CH, B.allies, nal, j), 0, 0, 0, 0)


@mirrors("fate_env.rules.invokes.invoke_options")
@njit(cache=True, _nrt=False, inline="always")
def _nth_spin(CH, allies, nal, j):
    """The j-th of ``allies`` (its first ``nal``) holding a spin token (002:95), NEG past the last."""
    q = 0
    for i in range(nal):
        if CH[allies[i], C_SPIN] > 0:
            if q == j:
                return allies[i]
            q += 1
    return NEG


@mirrors("fate_env.rules.invokes.spend_spin")
@njit(cache=True, _nrt=False)
def _spend_spin(CH, R, EV, G, who, holder):
    """A spin token of ``holder`` spent for +1 on ``who``'s defense (002:95)."""
    CH[holder, C_SPIN] -= 1
    R[R_OBONUS] += 1
    _emit(EV, G, E_SPIN, (holder, CH[holder, C_SPIN], who, 0, 0, 0, 0, 0, 0, 0, 0))


@mirrors("fate_env.rules.invokes.invoke_turns")
@njit(cache=True, _nrt=False)
def _invoke_rounds(T, W, B, EV, attack, active):
    """Roller, then opposer, in turns until both stop (invokes.invoke_turns): each seat's options
    scanned, one picked (drawn for a random or outside seat, else its script's), taken. ``active``:
    the opposition rolled (else a passive difficulty's voice, who may only add +2)."""
    SC, P = T.SC, T.P
    CH, A, G, RNG = W.CH, W.A, W.G, W.RNG
    R, allies, payers, pick_paid = B.R, B.allies, B.payers, B.pick_paid
    G[G_ROLLNO] += 1
    seats0 = R[R_ACTOR]
    seats1 = R[R_OPP]
    if seats0 <= HZ_ROLLER:  # a hazard's roll: its target alone invokes (hazards.attack), none when undefended
        seats0 = seats1
        seats1 = NEG
        if seats0 == NEG:
            return
    if R[R_ALONE] != 0:  # a Fate 3.0 block's roll: the blocker alone (protect.run, block.run)
        seats1 = NEG
    nseats = 2 if seats1 != NEG else 1
    passes = 0
    i = 0
    while passes < nseats:
        who = seats0 if i % nseats == 0 else seats1
        i += 1
        mine = who == R[R_ACTOR]
        neffects = 2 if mine or active else 1  # +2 and reroll; a passive roll's voice: +2 only
        tactician = mine and attack and P[P[P_POL] + POL_W * who + POL_KIND] == PK_TACTICIAN
        nal = _allies(SC, CH, who, allies)
        npay = _payers(SC, CH, G, who, allies, nal, payers)
        pol = P[P_POL] + POL_W * who
        bear = ANY_ASPECT if P[pol + POL_ANY] != 0 else (R[R_OPP] if mine else R[R_ACTOR])
        strict = P[pol + POL_FIT]
        n = _invoke_scan(T, W, B, who, neffects, nal, npay, R[R_TARGET] if tactician else NEG, bear, strict)
        nspin = 0  # the allies' spin tokens, on a defense rolled (invokes.invoke_options, 002:95)
        if P[P_SPIN] != 0 and not mine and active:
            while _nth_spin(CH, allies, nal, nspin) != NEG:
                nspin += 1
        if n + nspin == 0:
            passes += 1
            continue
        if _draws(P, who, D_INVOKE):  # RandomController (or an agent): "done" or any invoke
            idx = _draw(P, RNG, G, who, D_INVOKE, n + nspin + 1)
            if idx < 0:
                if G[G_BAIL] == BAIL_PAUSE:
                    _invoke_options(T, W, B, EV, who, mine, neffects, nal, npay, n, nspin)
                return
            if 0 < idx <= n:
                _invoke_at(T, W, B, who, neffects, nal, npay, idx, pick_paid)
            pick = (idx, _why(P, who, D_INVOKE), pick_paid[0], pick_paid[1], pick_paid[2], pick_paid[3])
        else:
            pick = _script_invoke(T, W, B, who, mine, attack, nal, bear, strict)
            if nspin != 0:  # basic: after "it holds", before the budget, enough tokens to hold the defense
                short = R[R_BASE] + R[R_FACES] + R[R_BONUS] - _opposition(R)
                tokens = 0
                for j in range(nspin):
                    tokens += CH[_nth_spin(CH, allies, nal, j), C_SPIN]
                if 0 < short <= tokens:
                    pick = (n + 1, R_I_SPIN, 0, 0, 0, 0)
        idx, why, aid, target, free, reroll = pick
        if idx == 0:
            _decision(EV, G, D_INVOKE, who, 0, why, O_DONE, 0, 0, 0, 0, 0)
            passes += 1
            continue
        if idx > n:
            holder = _nth_spin(CH, allies, nal, idx - n - 1)
            _decision(EV, G, D_INVOKE, who, idx, why, O_SPIN, holder, 0, 0, 0, 0)
            _spend_spin(CH, R, EV, G, who, holder)
            passes = 0
            continue
        _decision(EV, G, D_INVOKE, who, idx, why, O_INVOKE, aid, target, free, A[aid, A_NAME], reroll)
        _apply_invoke(T, W, B, EV, who, aid, target, free == 1, reroll == 1)
        passes = 0
        if G[G_BAIL] != BAIL_NONE:
            return


@mirrors("fate_env.rules.invokes.invoke_rounds", "fate_env.rules.rolls.resolved")
@njit(cache=True, _nrt=False)
def _settle(T, W, B, EV, attack, active, action, target):
    """invokes.invoke_rounds, then rolls.resolved: the margin (E_RESOLVED names ``target``, a
    target code); a defender who rolled and won by three or more gets a boost. The caller checks
    G_BAIL before reading the margin."""
    P = T.P
    CH, A, AF, AL, G = W.CH, W.A, W.AF, W.AL, W.G
    R = B.R
    _invoke_rounds(T, W, B, EV, attack, active)
    if G[G_BAIL] != BAIL_NONE:
        return 0
    effort = R[R_BASE] + R[R_FACES] + R[R_BONUS]
    opposition = _opposition(R)
    m = effort - opposition
    R[R_HASFLOOR] = 0  # a protecting block's floor was for this roll
    _emit(EV, G, E_RESOLVED, (R[R_ACTOR], action, effort, opposition, m, target, 0, 0, 0, 0, 0))
    if action == ACT_ADVANTAGE and m > 0:  # a success, styled or not (bench's advantages)
        CH[R[R_ACTOR], C_ADV] += 1
    if active and m <= -3 and CH[R[R_OPP], C_STATUS] == ACTIVE:
        if P[P_SPIN] != 0:  # a spin token instead (002:94-95)
            CH[R[R_OPP], C_SPIN] += 1
            _emit(EV, G, E_SPIN, (R[R_OPP], CH[R[R_OPP], C_SPIN], NEG, 0, 0, 0, 0, 0, 0, 0, 0))
        else:
            _boost(A, AF, AL, G, P, EV, R[R_OPP], P[P_NAME_UPPER])
    return m
