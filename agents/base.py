"""The controller protocol, the registry of named controllers, and a runner.

A controller answers the engine's pending decision: given the conflict (a
read-only view; controllers must not change it) and the decision, it returns
the index of an option and a one-line reason for the narration.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from fate_env.rules.conflict import Conflict, Decision
from fate_env.rules.scene import Scene


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
    _load_builtin()
    return sorted(_REGISTRY)


def make_controller(spec: str, seed: int = 0) -> Controller:
    """A controller from its name; ``seed`` seeds any randomness it has."""
    _load_builtin()
    name, _, arg = spec.partition(":")
    if name not in _REGISTRY:
        from fate_env.content.suggest import did_you_mean
        raise UnknownController(f"no controller named {spec!r}{did_you_mean(name, _REGISTRY)}; expected one of {', '.join(sorted(_REGISTRY))}"
                                " (or ppo:PATH)")
    if arg and name != "ppo":  # "basic:x" used to play plain basic, the argument dropped unread
        raise UnknownController(f"{spec!r}: only ppo: takes an argument (ppo:PATH); {name}'s parameters are "
                                f"set in configs/policies.yaml")
    if name == "ppo":
        try:
            return _REGISTRY[name](seed, path=arg)
        except ImportError as exc:
            raise UnknownController(f"{spec}: the learned controller needs the train extra ({exc})") from None
        except ValueError as exc:
            raise UnknownController(str(exc)) from None
    return _REGISTRY[name](seed)


def _load_builtin() -> None:
    from . import basic, learned, random_policy, search, tactics  # noqa: F401  (registers on import)


def controllers_for(scene: Scene, overrides: Mapping[str, str] | None = None, seed: int = 0) -> dict[str, Controller]:
    """One controller per character: the scene's choice, unless a side or character is overridden."""
    overrides = dict(overrides or {})
    ids = {c.id for c in scene.characters}
    sides = set(scene.sides)
    for who in overrides:
        if who not in ids and who not in sides:
            from fate_env.content.suggest import did_you_mean
            raise UnknownController(f"--control {who}=...: no side or character {who!r}"
                                    f"{did_you_mean(who, sides | ids)}; expected one of {', '.join(sorted(sides | ids))}")
    out: dict[str, Controller] = {}
    cache: dict[str, Controller] = {}
    for i, c in enumerate(scene.characters):
        spec = overrides.get(c.id) or overrides.get(c.side) or c.controller
        if spec not in cache:
            try:
                cache[spec] = make_controller(spec, seed * 1000 + i)
            except UnknownController as exc:
                where = "" if spec in (overrides.get(c.id), overrides.get(c.side)) else f"characters.{c.id}.controller: "
                raise UnknownController(f"{where}{exc}") from None
            check = getattr(cache[spec], "check_scene", None)
            if check is not None:  # a learned model made for another scene: refused before any play
                try:
                    check(scene)
                except ValueError as exc:
                    raise UnknownController(str(exc)) from None
        out[c.id] = cache[spec]
    return out


class ControllerRegistry:
    """The registry as a factory object, for the environments that take one (they never import
    controllers by name): ``FateSingleAgentEnv(..., controllers=REGISTRY)``. Picklable by reference."""

    #: its scripted controllers are the ones the fast core plays natively (fate_env/fast/tables.py),
    #: so an environment may run them inside the kernel
    native = True

    def controllers_for(self, scene: Scene, overrides: Mapping[str, str] | None = None,
                        seed: int = 0) -> dict[str, Controller]:
        return controllers_for(scene, overrides, seed)

    def make_controller(self, spec: str, seed: int = 0) -> Controller:
        return make_controller(spec, seed)


REGISTRY = ControllerRegistry()


def play(conflict: Conflict, controllers: Mapping[str, Controller]) -> Conflict:
    """Run a conflict to its end, each decision answered by its owner's controller."""
    while conflict.pending is not None:
        d = conflict.pending
        index, reason = controllers[d.actor].choose(conflict, d)
        conflict.step(index, reason)
    return conflict
