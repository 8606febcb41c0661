"""What an action handler is: the options it offers on a turn, and the flow that plays it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..decisions import Flow
from ..state import Fighter
from ..play import Play

if TYPE_CHECKING:
    from ..scene import Scene


@dataclass(frozen=True, slots=True)
class TurnContext:
    """What every handler's offer needs to know about the turn being offered."""

    free_move: bool          # the free one-zone move is still unused
    free_now: list[str]      # the zones the free move reaches now
    foes: list[str]          # the actor's foes still in the scene


@dataclass(frozen=True, slots=True)
class Action:
    """One action, declared once: the option type it answers, its offer, its flow, and what
    everything else reads off it.

    - ``takes_action`` False marks the free move: after it the turn is offered again.
    - ``gate``: whether a scene can offer it at all (a dial, a stunt, a block); None: every scene.
      ``actions_for`` drops a gated-off action, so its ``offer`` never runs there and need not ask.
    - ``feature``: the name its gate goes by outside the rules: the environment's action layout keeps
      the segments of this action's option empty in a scene without it (so other layouts keep their
      indices) and full in one with it. An action with a gate and no feature keeps its segment always
      (Concede: under the offered-concession rule it is not offered, yet its index stays).
    - ``menu``: its group at the live table and its words, ``(engine, decision, narrator, option) -> str``.
    """

    option: type
    offer: Callable[["Play", Fighter, TurnContext], Iterable[Any]]
    run: Callable[["Play", Fighter, Any], Flow]
    takes_action: bool = True
    gate: Callable[["Scene"], bool] | None = None
    feature: str | None = None
    menu: tuple[str, Callable[..., str]] | None = None

    def __post_init__(self) -> None:
        if self.feature is not None and self.gate is None:
            raise ValueError(f"action {self.option.__name__}: a feature ({self.feature!r}) names a gate; it has none")
