"""The kernel's log: events and decisions as integer rows (``rules/events.py``), and a
paused decision's options written past them (``rules/decisions.py``); ``decode.py`` spells them back.
"""

from __future__ import annotations

from ..jit import njit
from .layout import BAIL_EVENTS, BAIL_HORIZON, BAIL_PAUSE, E_DECISION, EV_T, G_ASEQ, G_BAIL, G_NEV, G_STOPEV, G_T
from .mirror import mirrors


@mirrors("fate_env.rules.events.Event")
@njit(f"void({EV_T}, {G_T}, int64, UniTuple(int64, 11))", cache=True, _nrt=False)
def _emit(EV, G, code, a):
    """An event row: its code, then its 11 fields (``a``: decode.py names them per code). A copy
    told to stop at this row (G_STOPEV) stops here, as at a horizon."""
    n = G[G_NEV]
    if n >= EV.shape[0]:
        G[G_BAIL] = BAIL_EVENTS
        return
    EV[n, 0] = code
    for j in range(11):
        EV[n, 1 + j] = a[j]
    G[G_NEV] = n + 1
    if n + 1 == G[G_STOPEV]:
        G[G_BAIL] = BAIL_HORIZON


@mirrors("fate_env.rules.events.DecisionMade")
@njit(f"void({EV_T}, {G_T}, int64, int64, int64, int64, int64, int64, int64, int64, int64, int64)", cache=True,
      _nrt=False)
def _decision(EV, G, kind, actor, index, reason, okind, x1, x2, x3, x4, x5):
    """A decision taken; its last field is the last aspect id made before it (the environment's
    aspect slots follow every decision: fate_env/environment/fast_table.py)."""
    _emit(EV, G, E_DECISION, (kind, actor, index, reason, okind, x1, x2, x3, x4, x5, G[G_ASEQ]))


@mirrors("fate_env.rules.decisions.Decision.options")
@njit(f"void({EV_T}, {G_T}, int64, int64, int64, int64, int64, int64, int64)", cache=True, _nrt=False)
def _opt(EV, G, i, okind, x1, x2, x3, x4, x5):
    """Option ``i`` of a paused decision, written past the events (decode._option reads it)."""
    r = G[G_NEV] + i
    if r < EV.shape[0]:
        EV[r, 0] = 0
        EV[r, 5] = okind
        EV[r, 6] = x1
        EV[r, 7] = x2
        EV[r, 8] = x3
        EV[r, 9] = x4
        EV[r, 10] = x5


@mirrors("fate_env.rules.decisions.Decision.options")
@njit(cache=True, _nrt=False)
def _paused_two(EV, G, o0, o1):
    """A two-option decision paused: write its options."""
    if G[G_BAIL] == BAIL_PAUSE:
        _opt(EV, G, 0, o0, 0, 0, 0, 0, 0)
        _opt(EV, G, 1, o1, 0, 0, 0, 0, 0)
