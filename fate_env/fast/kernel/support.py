"""Teamwork and full defense (``rules/actions/support.py``, ``rules/actions/full_defense.py``).
"""

from __future__ import annotations

from ..jit import njit
from .events import _emit
from .layout import BAIL_SUPPORT, C_DEFONFULL, C_FULLDEF, C_NSUP, E_FULLDEF, E_SUPPORT, G_BAIL, NCF
from .mirror import mirrors


@mirrors("fate_env.rules.actions.support.run")
@njit(cache=True, _nrt=False)
def _pledge(CH, EV, G, actor, ally):
    """support.run: ``actor`` helps ``ally``'s next action (False: the pledge list is full)."""
    if CH[ally, C_NSUP] >= CH.shape[0]:
        G[G_BAIL] = BAIL_SUPPORT
        return False
    CH[ally, NCF + CH[ally, C_NSUP]] = actor
    CH[ally, C_NSUP] += 1
    _emit(EV, G, E_SUPPORT, (actor, ally, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    return True


@mirrors("fate_env.rules.actions.full_defense.run")
@njit(cache=True, _nrt=False)
def _full_defense(CH, EV, G, actor):
    CH[actor, C_FULLDEF] = 1
    CH[actor, C_DEFONFULL] = 0
    _emit(EV, G, E_FULLDEF, (actor, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
