"""fate-npc: a Fate conflict engine, scene files, and NPC controllers.

``fate_env.env(scene=...)`` and ``fate_env.raw_env(...)`` give the PettingZoo
environment; they import PettingZoo only when called, so the rules core
(``fate_env.rules``) stays free of it.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"


def env(**kwargs: Any):
    """The wrapped PettingZoo AEC environment (see ``fate_env.environment.aec``)."""
    from .environment.aec import env as _env
    return _env(**kwargs)


def raw_env(**kwargs: Any):
    """The bare PettingZoo AEC environment."""
    from .environment.aec import raw_env as _raw_env
    return _raw_env(**kwargs)
