"""The scene's flow (``rules/flows/registry.py``): the conflict, the contest or the challenge the scene is now,
and the other flow when one hands the scene over (an attack in a contest, a conflict turned into its contest).
"""

from __future__ import annotations

from ..jit import njit
from .challenge import _challenge_run
from .conflict import _run
from .contest import _contest_run
from .layout import BAIL_NONE, G_BAIL, G_CONTEST, G_HANDOVER, G_RESUME, KIND_CHALLENGE, P_KIND
from .mirror import mirrors


@mirrors("fate_env.rules.engine.Engine.__init__", "fate_env.rules.engine.Engine._rebuild")
@njit(cache=True, _nrt=False)
def _flow(T, W, B, EV, K):
    """The scene's flow from the state set up (or, under G_RESUME, from its checkpoint): a challenge's, the
    contest's while the scene is one, else the conflict's; when one hands the scene to the other, the other
    starts afresh."""
    G = W.G
    if T.P[P_KIND] == KIND_CHALLENGE:
        _challenge_run(T, W, B, EV, K)
        return
    while True:
        G[G_HANDOVER] = 0
        if G[G_CONTEST] != 0:
            _contest_run(T, W, B, EV, K)
        else:
            _run(T, W, B, EV, K)
        if G[G_HANDOVER] == 0 or G[G_BAIL] != BAIL_NONE:
            return
        G[G_RESUME] = 0
