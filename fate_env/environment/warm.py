"""Compile every entry point of the kernel in one process, holding their compile locks from the start.

Each entry point (``play_batch`` for whole fights, ``advance`` and ``observe`` for the environment,
``playouts`` for the look-ahead) compiles the kernel's shared functions again when it is compiled
alone, and two processes compiling two entry points at once (the test suite's two workers did) each
pay for them: about 140 s of a core each on this machine. One process compiling them in turn pays for
the shared functions once and loads them from numba's cache for the later entry points. It lives with
the environment, above the fast core, because it compiles the environment's entry points through it.

``warm`` takes every entry point's lock (``stamp.hold``) before it compiles anything, then says so
(the caller may wait for that line), then compiles them one by one, letting go of each lock as its
entry point is ready: a process that needs an entry point meanwhile waits on its lock, then loads it.
The fast core's modules are imported inside the steps, each where it is first needed.

    python -m fate_env.environment.warm        # what the test suite starts in the background

It prints one line once it holds every lock ("locked"), or "busy" when another ``warm`` runs (it
then leaves at once), or "no numba".
"""

from __future__ import annotations

import sys
from typing import Callable

from fate_env.content.scene_files import config_dir
from fate_env.content.scenes import load_scene
from fate_env.fast import stamp

#: the scene the entry points are compiled on (any covered scene gives the same types)
SCENE = "duel"


def _play_batch(scene) -> None:
    from fate_env.fast.core import FastCore
    FastCore(scene).run([1])


def _environment(scene) -> None:
    """``advance`` (a session's turn), ``observe`` and the action encoding, through the environment."""
    from .aec import raw_env
    env = raw_env(scene, core="fast")
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    env.step(int(mask.nonzero()[0][0]))


def _playouts(scene) -> None:
    from fate_env.fast.lookahead import Lookahead
    look = Lookahead(scene, "basic")
    pending = look.core.replay(1, []).pending
    look.play(1, [], pending, [0], [1], 0)


def _learned(scene) -> None:
    """``play_learned`` (the learned NPC's fights), and ``script_pick`` and ``rows`` (a session's
    helper move and entity rows), through the shipped file."""
    from fate_env.fast.core import FastCore

    from . import entity_policy, fast_entities
    core = FastCore(scene, None, {c.id: ("turn",) for c in scene.characters if c.kind != "pc"})
    learned = entity_policy.EntityPolicy(config_dir() / "models" / "learned.zip")
    fast_entities.FastLearned(core, learned, 0.0).run([1])
    s = core.session(1)
    fast_entities.FastEntities(core).encode(s, core.tables.ids.index(s.pending[1]), s.script_pick())


#: each entry point's lock, and what compiles it (in this order: the later ones reuse the earlier's functions)
STEPS: tuple[tuple[tuple[str, ...], Callable], ...] = (
    (("play_batch",), _play_batch),
    (("advance", "observe"), _environment),
    (("playouts",), _playouts),
    (("play_learned", "script_pick", "rows"), _learned),
)


def warm(ready: Callable[[], None] = lambda: None) -> None:
    """Compile (or load) every entry point, each lock held until its entry point is ready; ``ready``
    is called once every lock is held, before the first compile."""
    entries = [entry for names, _ in STEPS for entry in names]
    for entry in entries:
        stamp.hold(entry)
    ready()
    try:
        scene = load_scene(SCENE)
        for names, compile_ in STEPS:
            try:
                compile_(scene)
            finally:
                for entry in names:
                    stamp.release(entry)
            if "play_batch" in names:
                stamp.mark()  # what bench asks before it chooses the fast core: play_batch is ready
    finally:
        for entry in entries:
            stamp.release(entry)


def main() -> None:
    if not stamp.installed():
        print("no numba: nothing to compile", flush=True)
        return
    if not stamp.hold("warm", wait=False):  # another warm is compiling: its locks make this one's wait
        print("busy", flush=True)
        return
    try:
        warm(lambda: print("locked", flush=True))
    finally:
        stamp.release("warm")


if __name__ == "__main__":
    sys.exit(main())
