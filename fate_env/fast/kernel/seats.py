"""Who makes a decision: the seat's policy, a random draw, or an answer from outside (an
agent's, a session's, a look-ahead's copy); ``agents/random_policy.py`` and the environment's seats.
"""

from __future__ import annotations

from ..dice import pick as _pick_index, RNG_SIZE
from ..jit import njit
from .layout import (
    BAIL_ANSWER, BAIL_PAUSE, G_ANSPOS, G_BAIL, G_NANS, G_PACTOR, G_PCOUNT, G_PKIND, G_PLAYOUT, NEG, NG, P_POL,
    PK_RANDOM, POL_ASKS, POL_KIND, POL_W, R_AGENT, R_RANDOM,
)
from .events import _paused_two
from .mirror import kernel_only, mirrors


@kernel_only("the kind of policy a seat plays, read from the scene's parameters (the controllers are classes)")
@njit(cache=True, _nrt=False)
def _kind(P, c):
    """The kind of policy playing ``c`` (PK_*)."""
    return P[P[P_POL] + POL_W * c + POL_KIND]


@kernel_only("which decisions a seat answers from outside: the environment's agent seats")
@njit(cache=True, _nrt=False)
def _asks(P, c, dkind):
    """``c``'s decisions of kind ``dkind`` are answered from outside (an agent)."""
    return (P[P[P_POL] + POL_W * c + POL_ASKS] >> dkind) & 1 != 0


@kernel_only("whether a seat's decision is drawn or answered rather than scripted")
@njit(cache=True, _nrt=False)
def _draws(P, c, dkind):
    """``c``'s decision of kind ``dkind`` is drawn (random) or answered from outside, not scripted."""
    return _kind(P, c) == PK_RANDOM or _asks(P, c, dkind)


@mirrors("agents.random_policy.RandomController.choose")
@njit(cache=True, _nrt=False)
def _why(P, c, dkind):
    """The reason a drawn decision gives: random's "at random", an agent's none."""
    return R_AGENT if _asks(P, c, dkind) else R_RANDOM


@mirrors("agents.search.SearchController._play_on")
@njit(cache=True, _nrt=False)
def _play_out(P, RNG, G):
    """A look-ahead's copy has taken its last answer: from here every seat plays its policy
    (``P`` is the copy's own) and the dice are the copy's own (the third block of ``RNG``), as
    ``Engine.fork`` gives a copy its own generator."""
    for c in range(G[G_PLAYOUT]):
        P[P[P_POL] + POL_W * c + POL_ASKS] = 0
    for j in range(RNG_SIZE):
        RNG[j] = RNG[2 * RNG_SIZE + j]
    G[G_PLAYOUT] = NEG


@mirrors("agents.random_policy.RandomController.choose")
@njit(cache=True, _nrt=False)
def _draw(P, RNG, G, who, dkind, n):
    """The option ``who`` takes among ``n``: random's draw, or an agent's next answer. With no
    answer left the episode pauses (-1; G_BAIL = BAIL_PAUSE, the decision in G_PKIND, G_PACTOR,
    G_PCOUNT): the caller replays it from its seed with one more answer."""
    if not _asks(P, who, dkind):
        return _pick_index(RNG, n)
    pos = G[G_ANSPOS]
    if pos < G[G_NANS]:
        G[G_ANSPOS] = pos + 1
        a = G[NG + pos]
        if 0 <= a < n:
            if G[G_PLAYOUT] > 0 and pos + 1 == G[G_NANS]:
                _play_out(P, RNG, G)
            return a
        G[G_BAIL] = BAIL_ANSWER
    else:
        G[G_BAIL] = BAIL_PAUSE
    G[G_PKIND] = dkind
    G[G_PACTOR] = who
    G[G_PCOUNT] = n
    return NEG


@mirrors("fate_env.rules.decisions.ask", "agents.random_policy.RandomController.choose")
@njit(cache=True, _nrt=False)
def _ask_two(P, RNG, G, EV, who, dkind, o0, o1, j, why):
    """A question of two options (``o0``, ``o1``) to ``who``: drawn for a random or outside seat, else
    the script's answer ``j`` for ``why``. (the option, its reason), or (-1, 0) while an answer is
    awaited (the two options written past the events)."""
    if _draws(P, who, dkind):
        j = _draw(P, RNG, G, who, dkind, 2)
        if j < 0:
            _paused_two(EV, G, o0, o1)
            return -1, 0
        why = _why(P, who, dkind)
    return j, why
