"""The fast core: whole conflicts with the scripted ``basic`` controllers, compiled with numba.

A mirror of the reference engine (``fate_env.rules``) for a declared subset of scenes, over
flat arrays; it writes the same event logs (checked by the differential test). See ``core``.

Importing this package is light (no numba): ``covered``, ``available`` and ``NOTICE`` are what a
command asks before it chooses an engine, and a run that stays on the reference engine never pays
for numba and the kernel. ``FastCore`` and the rest load ``core`` (and numba) on first use.
"""

from typing import Any

from .stamp import NOTICE
from .stamp import installed as available
from .tables import TooLong, Unsupported, covered

__all__ = ["FastCore", "Episode", "TooLong", "Unsupported", "available", "basic_params", "compiled", "covered", "NOTICE"]

_FROM_CORE = ("FastCore", "Episode", "basic_params", "compiled")


def __getattr__(name: str) -> Any:
    if name in _FROM_CORE:
        from . import core
        globals()[name] = value = getattr(core, name)  # kept: the next look-up is a plain attribute
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
