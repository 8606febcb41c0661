"""Forcing a foe into a block (``rules/actions/shove.py``): which shoves a turn offers. Taking one
is an attack about the block (``attack._attack`` with its ``block``).
"""

from __future__ import annotations

from ..jit import njit
from .layout import ACTIVE, ATK_W, BK_A, BK_B, BKW, C_STATUS, C_ZONE, G_MAP, NEG, NP, P_BLK, P_NBLK, S_SIDE
from .mirror import mirrors


@mirrors("fate_env.rules.actions.shove.offer", "fate_env.rules.actions.shove._blocks_here")
@njit(cache=True, _nrt=False)
def _nth_shove(SC, CH, G, P, actor, n):
    """The n-th shove of ``actor``'s turn, in shove.offer's order (each melee attack skill, each foe
    in its zone, each block still standing on a border of that zone), as (foe, skill, block); with
    ``n`` NEG, or past the last, (NEG, NEG, NEG, how many there are)."""
    at = NP + ATK_W * actor
    here = CH[actor, C_ZONE]
    side = SC[actor, S_SIDE]
    q = 0
    for j in range(P[at]):
        if P[at + 2 + 2 * j] != 0:  # melee only (reach 0)
            continue
        for c in range(SC.shape[0]):
            if CH[c, C_STATUS] != ACTIVE or SC[c, S_SIDE] == side or CH[c, C_ZONE] != here:
                continue
            for b in range(P[P_NBLK]):
                row = P[P_BLK] + BKW * b
                if G[G_MAP] >> b & 1 != 0 or (P[row + BK_A] != here and P[row + BK_B] != here):
                    continue
                if q == n:
                    return c, P[at + 1 + 2 * j], b, q
                q += 1
    return NEG, NEG, NEG, q
