"""Countdowns (``rules/countdowns.py``, 003:2171-2195): a row of boxes each trigger marks; the last
box brings the outcome (a side wins, an aspect comes into play); one tied to a character stops when
it leaves the fight. The state lives in G (G_CD, G_DECIDED) so checkpoints and copies carry it; the
rows are in P (P_CD). A scene without countdowns (P_NCD 0) never calls in here: each caller tests
P_NCD first.
"""

from __future__ import annotations

from ..jit import njit
from .aspects import _new_aspect
from .events import _emit
from .layout import (
    CD_ANAME, CD_AZONE, CD_BOXES, CD_FREE, CD_NTRIG, CD_STOP, CD_TRIG, CD_WINNER, CDW, E_CDENDED, E_CDMARKED,
    E_CDSTOPPED, E_CREATED, G_CD, G_DECIDED, K_SITUATION, NEG, P_CD, P_NCD, TGT_SCENE, TGT_ZONE,
)
from .mirror import mirrors


@mirrors("fate_env.rules.countdowns.setup")
@njit(cache=True, _nrt=False)
def _cd_setup(P, G):
    """No box marked, every countdown running, no side decided."""
    G[G_DECIDED] = NEG
    for i in range(P[P_NCD]):
        G[G_CD + 2 * i] = 0
        G[G_CD + 2 * i + 1] = 1


@mirrors("fate_env.rules.countdowns.trigger")
@njit(cache=True, _nrt=False)
def _cd_trigger(P, G, A, AF, AL, EV, tag, c):
    """``tag`` happened (to ``c``, NEG for none): a box marked on each running countdown it triggers."""
    for i in range(P[P_NCD]):
        if G[G_CD + 2 * i + 1] == 0:
            continue
        row = P[P_CD] + CDW * i
        for j in range(P[row + CD_NTRIG]):
            if P[row + CD_TRIG + 2 * j] == tag and P[row + CD_TRIG + 2 * j + 1] == c:
                _cd_mark(P, G, A, AF, AL, EV, i)
                break


@mirrors("fate_env.rules.countdowns._mark")
@njit(cache=True, _nrt=False)
def _cd_mark(P, G, A, AF, AL, EV, i):
    """A box of countdown ``i`` marked; the last one ends it: the aspect put into play with its free
    invokes, the side it names made the winner unless one already is (003:2190-2191)."""
    row = P[P_CD] + CDW * i
    G[G_CD + 2 * i] += 1
    _emit(EV, G, E_CDMARKED, (i, G[G_CD + 2 * i], P[row + CD_BOXES], 0, 0, 0, 0, 0, 0, 0, 0))
    if G[G_CD + 2 * i] < P[row + CD_BOXES]:
        return
    G[G_CD + 2 * i + 1] = 0
    _emit(EV, G, E_CDENDED, (i, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    name = P[row + CD_ANAME]
    if name != NEG:
        zone = P[row + CD_AZONE]
        aid = _new_aspect(A, AF, AL, G, P, name, K_SITUATION, NEG, zone, NEG)
        if aid == NEG:
            return
        free = P[row + CD_FREE]
        total = 0
        for h in range(AF.shape[1]):
            AF[aid, h] = P[free + h]
            total += P[free + h]
        holder = P[free + AF.shape[1]]  # the first holder the scene names (AspectCreated's)
        _emit(EV, G, E_CREATED, (name, aid, K_SITUATION, TGT_SCENE if zone == NEG else TGT_ZONE + zone, total,
                                 holder, 0, 0, 0, 0, 0))
    if P[row + CD_WINNER] != NEG and G[G_DECIDED] == NEG:
        G[G_DECIDED] = P[row + CD_WINNER]


@mirrors("fate_env.rules.countdowns.left_fight")
@njit(cache=True, _nrt=False)
def _cd_left(P, G, EV, c):
    """``c`` left the fight (taken out or conceded): the countdowns tied to it stop."""
    for i in range(P[P_NCD]):
        if G[G_CD + 2 * i + 1] != 0 and P[P[P_CD] + CDW * i + CD_STOP] == c:
            G[G_CD + 2 * i + 1] = 0
            _emit(EV, G, E_CDSTOPPED, (i, c, 0, 0, 0, 0, 0, 0, 0, 0, 0))
