"""One flow per kind of scene, each a generator over the engine's table (see ``ARCHITECTURE.md``)."""

from __future__ import annotations

from . import challenge, conflict, contest
from .registry import FLOWS

FLOWS.update({"conflict": conflict.run, "contest": contest.run, "challenge": challenge.run})

__all__ = ["FLOWS"]
