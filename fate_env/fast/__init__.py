"""The fast core: whole conflicts with the scripted ``basic`` controllers, compiled with numba.

A mirror of the reference engine (``fate_env.rules``) for a declared subset of scenes, over
flat arrays; it writes the same event logs (checked by the differential test). See ``core``.
"""

from .core import NOTICE, Episode, FastCore, Unsupported, available, basic_params, compiled, covered

__all__ = ["FastCore", "Episode", "Unsupported", "available", "basic_params", "compiled", "covered", "NOTICE"]
