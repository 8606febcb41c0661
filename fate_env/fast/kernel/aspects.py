"""Aspects in play (``rules/aspects.py``): made, dropped, boosts and their expiry, and which an
action can take advantage of or clear.
"""

from __future__ import annotations

from ..jit import njit
from .events import _emit
from .layout import (
    A_BLOCK, BK_A, BK_B, BKW, P_BLK, A_ALIVE, A_BTURN, A_CREATOR, A_KIND, A_NAME, A_OWNER, A_SKILL, A_ZONE, ACTIVE, BAIL_ASPECTS, C_STATUS, C_ZONE,
    E_BOOST, E_REMOVED, G_ASEQ, G_BAIL, G_NAL, G_TURNSEQ, K_ADVANTAGE, K_BOOST, K_CONSEQUENCE, K_SITUATION, NEG,
    P_AMAX, P_CNAMES, P_COWNED, P_SHOOT, P_TRACK, S_SIDE, WHY_EXPIRED, HZ_ASPECT, HZ_ZONE, HZW, P_HZ,
    P_NHZ,
)
from .mirror import mirrors


@mirrors("fate_env.rules.aspects.consequence_name")
@njit(cache=True, _nrt=False)
def _cons_name(A, AL, G, P, track, sev, owner, skill):
    """A new consequence's name id: the first of its candidates (aspects.consequence_candidates, laid
    out per skill that struck, NEG: none) that no consequence in play carries; once all are, the
    default made the taker's own. Name ids are one per text, so equal ids are equal names."""
    at = P[P_CNAMES] + 2 * (((skill + 1) * 2 + track) * 4 + sev)
    for j in range(P[at]):
        name = P[P[at + 1] + j]
        taken = False
        for i in range(G[G_NAL]):
            aid = AL[i]
            if A[aid, A_ALIVE] != 0 and A[aid, A_KIND] == K_CONSEQUENCE and A[aid, A_NAME] == name:
                taken = True
                break
        if not taken:
            return name
    return P[P[P_COWNED] + (owner * 2 + track) * 4 + sev]


@mirrors("fate_env.rules.aspects.far_aspect")
@njit(cache=True, _nrt=False)
def _far_aspect(SC, CH, P, actor, owner):
    """aspects.far_aspect: an aspect on a foe's body in another zone, in a physical conflict."""
    return owner != NEG and P[P_TRACK] == 0 and SC[owner, S_SIDE] != SC[actor, S_SIDE] \
        and CH[owner, C_ZONE] != CH[actor, C_ZONE]


@mirrors("fate_env.rules.aspects.exploitable")
@njit(cache=True, _nrt=False)
def _exploitable(SC, CH, A, P, SIGHT, actor, aid):
    """aspects.exploitable, for one aspect: not a boost, on no one or on someone still in, here or
    nowhere in particular; on a foe's body elsewhere, within the shooting range."""
    owner = A[aid, A_OWNER]
    z = A[aid, A_ZONE]
    if A[aid, A_KIND] == K_BOOST or not (owner == NEG or CH[owner, C_STATUS] == ACTIVE):
        return False
    if not (z == NEG or z == CH[actor, C_ZONE]):
        return False
    if _far_aspect(SC, CH, P, actor, owner):
        d = SIGHT[CH[actor, C_ZONE], CH[owner, C_ZONE]]
        return 0 <= d <= P[P_SHOOT]
    return True


@mirrors("fate_env.rules.aspects.removable")
@njit(cache=True, _nrt=False, inline="always")
def _removable(SC, CH, A, P, actor, aid):
    """aspects.removable, for one aspect: an advantage or a made situation aspect on a friend still in
    or here (or nowhere in particular); a block's own, from either of its border's zones (003:2344-2345)."""
    kind = A[aid, A_KIND]
    owner = A[aid, A_OWNER]
    here = CH[actor, C_ZONE]
    if kind == K_ADVANTAGE or (kind == K_SITUATION and A[aid, A_CREATOR] != NEG):
        if owner != NEG:
            return CH[owner, C_STATUS] == ACTIVE and SC[owner, S_SIDE] == SC[actor, S_SIDE]
        z = A[aid, A_ZONE]
        return z == NEG or z == here
    b = A[aid, A_BLOCK]
    if b != 0:  # its block stands while it does (an aspect cleared goes with its block)
        at = P[P_BLK] + BKW * (b - 1)
        return here == P[at + BK_A] or here == P[at + BK_B]
    h = _hazard_of(P, aid)
    if h != NEG:  # a hazard is overcome from where it strikes (003:2295-2297)
        z = P[P[P_HZ] + HZW * h + HZ_ZONE]
        return z == NEG or z == here
    return False


@mirrors("fate_env.rules.aspects.hazard_of")
@njit(cache=True, _nrt=False, inline="always")
def _hazard_of(P, aid):
    """The hazard whose aspect ``aid`` is (NEG: none); a scene without hazards looks at nothing."""
    for h in range(P[P_NHZ]):
        if P[P[P_HZ] + HZW * h + HZ_ASPECT] == aid:
            return h
    return NEG


@mirrors("fate_env.rules.aspects.exploitable", "fate_env.rules.aspects.removable")
@njit(cache=True, _nrt=False)
def _nth_aspect(SC, CH, A, AL, G, P, SIGHT, actor, n, removable):
    """The n-th aspect ``actor`` could take advantage of (aspects.exploitable) or, with
    ``removable``, clear (aspects.removable), in the table's order."""
    q = 0
    for i in range(G[G_NAL]):
        aid = AL[i]
        if _removable(SC, CH, A, P, actor, aid) if removable else _exploitable(SC, CH, A, P, SIGHT, actor, aid):
            if q == n:
                return aid
            q += 1
    return NEG


@mirrors("fate_env.rules.aspects.new_aspect")
@njit(cache=True, _nrt=False)
def _new_aspect(A, AF, AL, G, P, name, kind, owner, zone, creator):
    aid = G[G_ASEQ] + 1
    if aid >= P[P_AMAX]:
        G[G_BAIL] = BAIL_ASPECTS
        return NEG
    G[G_ASEQ] = aid
    A[aid, A_KIND] = kind
    A[aid, A_OWNER] = owner
    A[aid, A_ZONE] = zone
    A[aid, A_CREATOR] = creator
    A[aid, A_NAME] = name
    A[aid, A_BTURN] = 0
    A[aid, A_ALIVE] = 1
    A[aid, A_SKILL] = NEG
    A[aid, A_BLOCK] = 0
    A[0, 0] = aid
    for h in range(AF.shape[1]):
        AF[aid, h] = 0
    AL[G[G_NAL]] = aid
    G[G_NAL] += 1
    return aid


@mirrors("fate_env.rules.aspects.expire_boosts", "fate_env.rules.engine.Engine.gm_remove_aspect")
@njit(cache=True, _nrt=False)
def _drop_aspect(A, AL, G, aid):
    A[aid, A_ALIVE] = 0
    n = G[G_NAL]
    j = 0
    for i in range(n):
        if AL[i] != aid:
            AL[j] = AL[i]
            j += 1
    G[G_NAL] = j


@mirrors("fate_env.rules.aspects.boost")
@njit(cache=True, _nrt=False)
def _boost(A, AF, AL, G, P, EV, holder, name):
    aid = _new_aspect(A, AF, AL, G, P, name, K_BOOST, NEG, NEG, holder)
    if aid == NEG:
        return
    AF[aid, holder] = 1
    A[aid, A_BTURN] = G[G_TURNSEQ]
    _emit(EV, G, E_BOOST, (name, aid, holder, 0, 0, 0, 0, 0, 0, 0, 0))


@mirrors("fate_env.rules.aspects.expire_boosts")
@njit(cache=True, _nrt=False)
def _expire_boosts(A, AF, AL, G, EV, actor):
    i = 0
    while i < G[G_NAL]:
        aid = AL[i]
        if A[aid, A_KIND] == K_BOOST and AF[aid, actor] > 0 and A[aid, A_BTURN] < G[G_TURNSEQ]:
            _drop_aspect(A, AL, G, aid)
            _emit(EV, G, E_REMOVED, (aid, A[aid, A_NAME], WHY_EXPIRED, 0, 0, 0, 0, 0, 0, 0, 0))
        else:
            i += 1
