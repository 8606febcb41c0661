"""What an action handler is: the options it offers on a turn, and the flow that plays it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..decisions import Flow
from ..state import Fighter

if TYPE_CHECKING:
    from ..engine import Engine


@dataclass(frozen=True, slots=True)
class TurnContext:
    """What every handler's offer needs to know about the turn being offered."""

    free_move: bool          # the free one-zone move is still unused
    free_now: list[str]      # the zones the free move reaches now
    foes: list[str]          # the actor's foes still in the scene


@dataclass(frozen=True, slots=True)
class Action:
    """One action: the option type it answers, its offer, its flow.

    ``takes_action`` False marks the free move: after it the turn is offered again."""

    option: type
    offer: Callable[["Engine", Fighter, TurnContext], Iterable[Any]]
    run: Callable[["Engine", Fighter, Any], Flow]
    takes_action: bool = True
