"""Controllers for a scene's characters, the registry as a factory object, and a runner.

The protocol and the registry by name live in :mod:`agents.registry` (re-exported here, where callers
have always found them).
"""

from __future__ import annotations

from collections.abc import Mapping

from fate_env.content.suggest import did_you_mean
from fate_env.rules.conflict import Conflict
from fate_env.rules.scene import Scene

from .registry import Controller, UnknownController, controller_names, make_controller, register

__all__ = ["Controller", "UnknownController", "controller_names", "make_controller", "register", "controllers_for",
           "ControllerRegistry", "REGISTRY", "play"]


def controllers_for(scene: Scene, overrides: Mapping[str, str] | None = None, seed: int = 0) -> dict[str, Controller]:
    """One controller per character: the scene's choice, unless a side or character is overridden."""
    overrides = dict(overrides or {})
    ids = {c.id for c in scene.characters}
    sides = set(scene.sides)
    for who in overrides:
        if who not in ids and who not in sides:
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
