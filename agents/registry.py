"""The controller protocol and the registry of named controllers.

A controller answers the engine's pending decision: given the conflict (a read-only view; controllers
must not change it) and the decision, it returns the index of an option and a one-line reason for the
narration. Each controller module registers itself by name (``@register("basic")``); the package's
``__init__`` imports them all, so the registry is full whenever any part of ``agents`` is imported, and
no module here imports the one that imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from fate_env.content.suggest import did_you_mean
from fate_env.rules.conflict import Conflict, Decision


class Controller(Protocol):
    name: str

    def choose(self, conflict: Conflict, decision: Decision) -> tuple[int, str]:
        """The chosen option's index and why."""
        ...


class UnknownController(ValueError):
    pass


_REGISTRY: dict[str, Callable[[int], Controller]] = {}


def register(name: str) -> Callable:
    """Class decorator: make a controller available by name (``random``, ``basic``)."""
    def deco(factory):
        _REGISTRY[name] = factory
        return factory
    return deco


def controller_names() -> list[str]:
    return sorted(_REGISTRY)


def make_controller(spec: str, seed: int = 0) -> Controller:
    """A controller from its name; ``seed`` seeds any randomness it has."""
    name, _, arg = spec.partition(":")
    if name not in _REGISTRY:
        raise UnknownController(f"no controller named {spec!r}{did_you_mean(name, _REGISTRY)}; expected one of {', '.join(sorted(_REGISTRY))}"
                                " (or ppo:PATH, learned:PATH)")
    if arg and name not in ("ppo", "learned"):  # "basic:x" used to play plain basic, the argument dropped unread
        raise UnknownController(f"{spec!r}: only ppo: and learned: take an argument (a model file); {name}'s parameters are "
                                f"set in configs/policies.yaml")
    if name == "learned":
        try:
            return _REGISTRY[name](seed, path=arg or None)
        except ValueError as exc:
            raise UnknownController(str(exc)) from None
    if name == "ppo":
        try:
            return _REGISTRY[name](seed, path=arg)
        except ImportError as exc:
            raise UnknownController(f"{spec}: the learned controller needs the train extra ({exc})") from None
        except ValueError as exc:
            raise UnknownController(str(exc)) from None
    return _REGISTRY[name](seed)
