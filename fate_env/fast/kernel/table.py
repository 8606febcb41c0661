"""Who is in the fight (``rules/table.py``).
"""

from __future__ import annotations

from ..jit import njit
from .layout import ACTIVE, C_FP, C_FPSPENT, C_STATUS, G_DECIDED, G_GMPOOL, G_GMSPENT, NEG, S_NPC, S_SIDE
from .mirror import mirrors


@mirrors("fate_env.rules.table.Table.is_over")
@njit(cache=True, _nrt=False)
def _over(SC, CH, G):
    """One side (or none) is left, or a countdown has decided the scene (003:2190-2191)."""
    if G[G_DECIDED] != NEG:
        return True
    side = NEG
    for c in range(SC.shape[0]):
        if CH[c, C_STATUS] == ACTIVE:
            if side == NEG:
                side = SC[c, S_SIDE]
            elif SC[c, S_SIDE] != side:
                return False
    return True


@mirrors("fate_env.rules.table.Table.foes_of")
@njit(cache=True, _nrt=False)
def _foes(SC, CH, c, out):
    n = 0
    side = SC[c, S_SIDE]
    for x in range(SC.shape[0]):
        if CH[x, C_STATUS] == ACTIVE and SC[x, S_SIDE] != side:
            out[n] = x
            n += 1
    return n


@mirrors("fate_env.rules.table.Table.allies_of")
@njit(cache=True, _nrt=False)
def _allies(SC, CH, c, out):
    n = 0
    side = SC[c, S_SIDE]
    for x in range(SC.shape[0]):
        if x != c and CH[x, C_STATUS] == ACTIVE and SC[x, S_SIDE] == side:
            out[n] = x
            n += 1
    return n


@mirrors("fate_env.rules.table.Table.active_ids")
@njit(cache=True, _nrt=False)
def _first_active(CH):
    for x in range(CH.shape[0]):
        if CH[x, C_STATUS] == ACTIVE:
            return x
    return NEG


@mirrors("fate_env.rules.table.Table.fate_points_of")
@njit(cache=True, _nrt=False, inline="always")
def _points_of(SC, CH, G, c):
    """The fate points ``c`` may spend now: its own, or the GM pool for an NPC (003:2009-2028)."""
    return G[G_GMPOOL] if SC[c, S_NPC] != 0 else CH[c, C_FP]


@mirrors("fate_env.rules.table.Table.adjust_fp")
@njit(cache=True, _nrt=False, inline="always")
def _pay_point(SC, CH, G, c):
    """``c`` spends a fate point: its own, or for an NPC the GM pool's (counted as spent either way)."""
    if SC[c, S_NPC] != 0:
        G[G_GMPOOL] -= 1
        G[G_GMSPENT] += 1
    else:
        CH[c, C_FP] -= 1
        CH[c, C_FPSPENT] += 1
