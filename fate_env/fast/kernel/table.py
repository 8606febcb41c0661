"""Who is in the fight (``rules/table.py``).
"""

from __future__ import annotations

from ..jit import njit
from .layout import ACTIVE, C_STATUS, G_DECIDED, NEG, S_SIDE
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
