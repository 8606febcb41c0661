"""The names the engine has always been imported by (``from fate_env.rules.conflict import Conflict``).

The engine itself is :mod:`fate_env.rules.engine`; see ``ARCHITECTURE.md`` for where each rule lives.
"""

from __future__ import annotations

from .aspects import CONSEQUENCE_NAMES, ENGINE_ASPECTS
from .decisions import RECONSIDER, ConflictOver, Decision, Flow, IllegalChoice
from .end import Outcome
from .engine import Conflict, Engine, replay, start
from .kinds import PRE_DICE
from .rolls import FAIL, STYLE, SUCCESS, TIE, band
from .table import Roll

__all__ = ["CONSEQUENCE_NAMES", "ENGINE_ASPECTS", "RECONSIDER", "ConflictOver", "Decision", "Flow", "IllegalChoice",
           "Outcome", "Conflict", "Engine", "replay", "start", "PRE_DICE", "FAIL", "STYLE", "SUCCESS", "TIE", "band",
           "Roll"]
