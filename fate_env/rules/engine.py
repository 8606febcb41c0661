"""One entry point for every kind of scene: a conflict, a contest or a challenge."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .challenge import Challenge
from .conflict import Conflict
from .contest import Contest
from .scene import Scene

ENGINES: dict[str, type[Conflict]] = {"conflict": Conflict, "contest": Contest, "challenge": Challenge}


def start(scene: Scene, seed: int | None = None, **kwargs: Any) -> Conflict:
    """The engine for ``scene.kind``, started and waiting on its first decision."""
    return ENGINES[scene.kind](scene, seed, **kwargs)


def replay(scene: Scene, seed: int | None, choices: Iterable[int], forced: Iterable[Sequence[int]] = (),
           reasons: Iterable[str] | None = None) -> Conflict:
    """Rebuild a scene's play from its seed and recorded choices (and reasons, for an identical log)."""
    play = start(scene, seed, forced=forced)
    choices = list(choices)
    why = list(reasons) if reasons is not None else [""] * len(choices)
    for index, reason in zip(choices, why, strict=True):
        play.step(index, reason)
    return play
