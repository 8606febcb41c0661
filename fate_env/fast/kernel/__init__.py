"""The fast core's kernel: one scene played to its end by scripted or random controllers.

This mirrors, step for step, the reference engine's flows (``fate_env/rules/flows/``: a conflict, a contest,
a challenge), every action a turn offers (``rules/actions/``: moves, attack, create an advantage,
exploit, the overcome move, remove, full defense, support, concede, pass, a zone attack, a shove
into a block), hazards' turns, invoke rounds
(``rules/invokes.py``), overcome outcomes (``rules/overcome.py``), Condensed and Core stress
(``rules/stress.py``), boosts (``rules/aspects.py``), the scene's end (``rules/end.py``) and the
policies of ``agents/`` (``basic``, the tactics, ``random``) — over flat integer arrays, so numba
can compile it. The rules' citations live beside the reference code; each module is named after
the reference file it mirrors, and each function names the reference functions it mirrors
(``@mirrors``, ``mirror.py``). It writes the same events as the reference, as rows of integers
that ``decode.py`` turns back into event objects (only when a log is asked for).

An episode that outgrows the fixed tables (aspects, events) stops with a reason code (see
``BAIL_REASONS``); the caller then plays that episode on the reference engine. Nothing is
approximated.

Written in the subset of Python numba compiles; without numba it runs as plain Python (slowly),
which keeps the logic testable everywhere.

Modules, lowest first (each imports only those above it): ``layout`` (the arrays' columns and the
codes), ``events``, ``table``, ``seats`` (who decides), ``reach``, ``solo`` (scale and a big bad's solo bonuses), ``rolls``, ``aspects``,
``checkpoint``, ``stress`` (harm and absorbing), ``basic`` and ``tactics`` (the policies' tests),
``invokes``, Fate 3.0's blocks (``protect``, ``block``), the actions (``attack``, ``advantage``, ``overcome`` and ``overcome_move``,
``exploit``, ``remove``, ``shove``, ``support``, ``zone_attack``), ``hazards`` (obstacles that attack, at
their place in the order of turns), ``task`` (a challenge's task, alone or in a conflict), ``picks`` (each script's pick of a turn's option),
``turn`` (a turn: its options built, one picked, taken), ``conflict`` (its flow), ``contest`` and ``challenge``
(theirs), ``flow`` (the scene's flow: the one it is now, and the other when one hands it over), and ``entry``
(what Python calls: ``play_batch``, ``advance``, ``playouts``). The arrays travel between the larger
flows in the bundles of ``../bundles.py``.
"""

from __future__ import annotations

from .layout import *  # noqa: F401,F403 - the layout's names, as kernel.X (tests, scripts)

# No compiled function is re-exported here: importing the package loads the layout alone (no numba),
# and callers import ``kernel.entry`` for ``play_batch``, ``advance`` and ``playouts``. (A lazy module
# ``__getattr__`` did that once; CPython does not specialise attribute reads on a module that has
# one, which cost 8% of decoding an outcome: docs/fast_core.md.)
