"""A zone attack (``rules/actions/zone_attack.py``): one roll against everyone in a zone, friend and
foe alike (003:2644-2650), offered by a ``zone_attack`` stunt; basic's test of when one is worth it.
"""

from __future__ import annotations

from ..jit import njit
from .attack import _land, _respond
from .events import _decision, _emit, _opt
from .invokes import _settle
from .layout import (
    BK_ATTACK, P_BLOCKACT,
    G_MAP, R_ABOUT, ACT_ATTACK, ACT_DEFEND, ACTIVE, BAIL_NONE, BLAST_BITS, C_STATUS, C_ZONE, D_TURN, E_BLAST, G_BAIL, NEG, O_ZONEATTACK,
    P_SHOOT, R_ACTOR, R_BASE, R_BONUS, R_FACES, R_OBASE, R_OBONUS, R_OFACES, R_OPP, R_SKILL, R_Z1, R_Z2,
    S_SIDE, T_ARG, T_OWNER, T_SKILL, T_TAG, W_BLAST, E_PASSIVE, RESP_DEFEND, RESP_NONE, WHY_PASSIVE_FORGO, R_TARGET,
)
from .block import _get_past
from .mirror import kernel_only, mirrors
from .rolls import _attack_rating, _defend_skill, _rolled
from .table import _over


@mirrors("fate_env.rules.actions.zone_attack.offer", "fate_env.rules.actions.zone_attack.zones_in_reach")
@njit(cache=True, _nrt=False)
def _nth_blast(SC, ST, P, SIGHT, CH, actor, nth):
    """zone_attack.offer's option ``nth``: for each of ``actor``'s zone_attack stunts (in the sheet's
    order), each zone in the skill's reach (its own in melee, those in range when shooting, any)
    where anyone else stands, in the map's order. (zone, skill), or (NEG, NEG) past the last. Counted
    and read again rather than kept: a buffer more in the flows' bundle would cost every call. Only
    the turn compiled for scenes with zone attacks asks (conflict._turn's ``blasts``)."""
    here = CH[actor, C_ZONE]
    n = 0
    for i in range(ST.shape[0]):
        if ST[i, T_OWNER] != actor or ST[i, T_TAG] != W_BLAST:
            continue
        reach = ST[i, T_ARG]
        for z in range(SIGHT.shape[0]):
            if reach == 0 and z != here:
                continue
            if reach == 1 and not (0 <= SIGHT[here, z] <= P[P_SHOOT]):
                continue
            for c in range(SC.shape[0]):
                if c != actor and CH[c, C_STATUS] == ACTIVE and CH[c, C_ZONE] == z:
                    if n == nth:
                        return z, ST[i, T_SKILL]
                    n += 1
                    break
    return NEG, NEG


@mirrors("fate_env.rules.decisions.Decision.options")
@njit(cache=True, _nrt=False)
def _blast_options(T, CH, EV, G, actor, at, count):
    """A paused turn's zone attacks, written as its options from ``at`` (they come last)."""
    SC, ST, P, SIGHT = T.SC, T.ST, T.P, T.SIGHT[G[G_MAP]]
    for i in range(count):
        z, s = _nth_blast(SC, ST, P, SIGHT, CH, actor, i)
        _opt(EV, G, at + i, O_ZONEATTACK, z, s, 0, 0, 0)


@mirrors("fate_env.rules.flows.conflict.turn")
@njit(cache=True, _nrt=False)
def _blast(T, W, B, EV, actor, nth, index, why, foes):
    """The turn's zone attack ``nth`` taken (option ``index``, for ``why``; ``foes``: the reason's
    count, basic's), and made. Out of the turn's own code, which every turn runs: zone attacks are rare."""
    z, s = _nth_blast(T.SC, T.ST, T.P, T.SIGHT[W.G[G_MAP]], W.CH, actor, nth)
    _decision(EV, W.G, D_TURN, actor, index, why, O_ZONEATTACK, z, s, 0, 0, foes)
    if T.P[P_BLOCKACT] != 0 and not _get_past(T, W, B, EV, actor, BK_ATTACK, s):
        return  # blocked: the action is spent (002:47)
    _zone_attack(T, W, B, EV, actor, z, s)


@mirrors("agents.basic.BasicController._turn")
@njit(cache=True, _nrt=False)
def _worth_blasting(T, W, actor, count):
    """basic: the first of the turn's ``count`` zone attacks that catches two foes or more and no
    friend, and the foes it catches; (NEG, 0) if none does."""
    SC, ST, P, SIGHT, CH = T.SC, T.ST, T.P, T.SIGHT[W.G[G_MAP]], W.CH
    for i in range(count):
        foes = _worth_it(SC, CH, actor, _nth_blast(SC, ST, P, SIGHT, CH, actor, i)[0])
        if foes:
            return i, foes
    return NEG, 0


@mirrors("agents.basic.BasicController._turn")
@njit(cache=True, _nrt=False)
def _worth_it(SC, CH, actor, zone):
    """basic: the foes a zone attack on ``zone`` catches when it catches two or more and no friend
    (else 0)."""
    foes = 0
    for c in range(SC.shape[0]):
        if c != actor and CH[c, C_STATUS] == ACTIVE and CH[c, C_ZONE] == zone:
            if SC[c, S_SIDE] == SC[actor, S_SIDE]:
                return 0
            foes += 1
    return foes if foes >= 2 else 0


@mirrors("fate_env.rules.reach.reach_of")
@njit(cache=True, _nrt=False)
def _blast_reach(ST, actor, skill):
    """The reach of ``actor``'s zone attacks with ``skill`` (kept on its stunt's row by tables.build)."""
    for i in range(ST.shape[0]):
        if ST[i, T_OWNER] == actor and ST[i, T_TAG] == W_BLAST and ST[i, T_SKILL] == skill:
            return ST[i, T_ARG]
    return 0


@kernel_only("E_BLAST's targets as bits: the reference's event holds them as a tuple")
@njit("int64(int64[::1], int64, int64)", cache=True, _nrt=False)  # one copy, not one per constant word
def _bits(targets, n, word):
    """Word ``word`` of E_BLAST's target bits."""
    out = 0
    for i in range(n):
        c = targets[i]
        if c // BLAST_BITS == word:
            out |= 1 << (c % BLAST_BITS)
    return out


@mirrors("fate_env.rules.actions.zone_attack.run")
@njit(cache=True, _nrt=False)
def _zone_attack(T, W, B, EV, actor, zone, skill):
    """zone_attack.run: everyone else in ``zone`` may concede before the dice; the attacker rolls
    once (its stunts looking at no target), then each target still in defends and the two invoke
    as in a one-on-one attack, the attack's effort worked out against that target."""
    SC, SK, ST, P = T.SC, T.SK, T.ST, T.P
    CH, A, G = W.CH, W.A, W.G
    R, faces, standing = B.R, B.faces, B.pool  # pool: the popcorn's, free during a turn
    nt = 0
    for c in range(SC.shape[0]):
        if c != actor and CH[c, C_STATUS] == ACTIVE and CH[c, C_ZONE] == zone:
            standing[nt] = c
            nt += 1
    _emit(EV, G, E_BLAST, (actor, zone, skill, _bits(standing, nt, 0), _bits(standing, nt, 1), _bits(standing, nt, 2),
                           _bits(standing, nt, 3), _bits(standing, nt, 4), _bits(standing, nt, 5),
                           _bits(standing, nt, 6), _bits(standing, nt, 7)))
    ns = 0
    for i in range(nt):
        t = standing[i]
        if CH[actor, C_STATUS] != ACTIVE or _over(SC, CH, G):
            continue  # steps.respond: the fight ended (a concession) before this target was asked
        answer = _respond(T, W, EV, t, B, True, True)
        if answer != RESP_NONE:  # ns <= i: the targets still to ask are past it; one who forgoes the
            standing[ns] = t if answer == RESP_DEFEND else -1 - t  # defense is kept as -1 - t
            ns += 1
        if G[G_BAIL] != BAIL_NONE:
            return
    if ns == 0 or CH[actor, C_STATUS] != ACTIVE:
        return
    dice = _rolled(T, W, EV, faces, actor, ACT_ATTACK, skill, NEG, NEG, 0)[1]
    reach = _blast_reach(ST, actor, skill)
    for i in range(ns):
        t = standing[i]
        undefended = t < 0
        if undefended:
            t = -1 - t
        if CH[t, C_STATUS] != ACTIVE or CH[actor, C_STATUS] != ACTIVE or _over(SC, CH, G):
            continue
        if undefended:  # against Mediocre, no one to invoke for the opposition (000:292-294)
            _emit(EV, G, E_PASSIVE, (actor, ACT_ATTACK, 0, t, WHY_PASSIVE_FORGO, 0, 0, 0, 0, 0, 0))
            R[R_OBASE], R[R_OFACES] = 0, 0
        else:
            dskill = _defend_skill(SK, ST, CH, A, P, t, actor, reach, skill)
            R[R_OBASE], R[R_OFACES] = _rolled(T, W, EV, faces, t, ACT_DEFEND, dskill, actor, actor, 0)
        R[R_ACTOR] = actor
        R[R_SKILL] = skill
        R[R_BASE] = _attack_rating(SK, ST, CH, A, actor, skill, t)  # the effort against t (rolls.base, a look)
        R[R_FACES] = dice
        R[R_BONUS] = 0
        R[R_Z1] = CH[actor, C_ZONE]
        R[R_Z2] = zone
        R[R_OPP] = NEG if undefended else t
        R[R_TARGET] = t
        R[R_ABOUT] = 0
        R[R_OBONUS] = 0
        m = _settle(T, W, B, EV, True, not undefended, ACT_ATTACK, t)
        if G[G_BAIL] != BAIL_NONE:
            return
        _land(T, W, B, EV, actor, t, m, NEG)
        if G[G_BAIL] != BAIL_NONE:
            return
