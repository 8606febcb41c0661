"""Decision points: what the engine hands out, and how a flow asks for one.

A flow is a generator: ``yield`` hands a :class:`Decision` out, ``send`` brings the chosen option
back. :func:`ask` is the one way a flow asks; a decision with a single legal option is taken
without asking (it is still a step of the rules, not a choice).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any

from .options import key
from .play import Play


Flow = Generator["Decision", Any, Any]

#: sent into the flow when someone conceded while a decision was pending: ask it again (or not at all)
RECONSIDER = object()


class IllegalChoice(ValueError):
    """A choice that is not one of the pending decision's options."""


class ConflictOver(RuntimeError):
    """A step was asked of a scene that has ended."""


@dataclass(slots=True)
class Decision:
    """A pending decision. ``options`` may be built on first use (``build``):
    invoke decisions are many and usually answered "done", which is always
    option 0 (``first``), so listing every invoke is left until someone looks."""

    kind: str
    actor: str
    _options: list[Any] | None
    context: dict[str, Any] = field(default_factory=dict)
    build: Callable[[], list[Any]] | None = None
    first: Any = None

    @property
    def options(self) -> list[Any]:
        if self._options is None:
            self._options = self.build()
        return self._options

    def keys(self) -> list[str]:
        return [key(o) for o in self.options]


def ask(e: "Play", kind: str, actor: str, options: list[Any], **context: Any) -> Flow:
    """Hand a decision out and return the option chosen (a lone option is taken at once)."""
    if len(options) == 1 and e.autostep_single:
        return options[0]
    choice = yield Decision(kind, actor, options, context)
    return choice
