"""The fast core's Python face: a scene compiled once, episodes played by seed, one or a batch.

``FastCore(scene)`` refuses a scene it does not cover (:class:`Unsupported`, naming why);
``episode(seed)`` plays one conflict and can spell its log; ``outcomes(seeds)`` plays many in
one call into the kernel. Every seed's dice are the reference engine's (``dice.py`` draws
``numpy.random.default_rng(seed)``'s stream inside the kernel), so a covered episode ends
exactly as the reference would end it; an episode that leaves the covered paths (``bail``) is
played on the reference.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .kernel import layout as k
from .kernel.entry import advance, play_batch, script_pick
from .bundles import Fight
from . import stamp
from .jit import BROKEN, HAVE_NUMBA, bound, first_call
from .stamp import NOTICE
from .decode import events, outcome, outcome_width
from .dice import RNG_SIZE
from .tables import AGENT, CONTROLLERS, Tables, Unsupported, asks_mask, build, covered

__all__ = ["FastCore", "Episode", "Unsupported", "covered", "available", "compiled", "basic_params", "NOTICE"]



def available() -> bool:
    """Whether the kernel is compiled (numba installed); without it the kernel is plain Python."""
    return HAVE_NUMBA


def compiled(entry: Any = None) -> bool:
    """Whether the kernel's ``entry`` (by default ``play_batch``, what bench plays) is compiled already
    (in this process or in numba's disk cache); the first run after an install or an upgrade compiles
    it, which takes minutes. A caller that would use another entry asks for that one: each compiles
    on its own (the learned rehearsal's ``play_learned`` is not ready because ``play_batch`` is)."""
    if not HAVE_NUMBA:
        return True
    fn = play_batch if entry is None else entry
    try:
        found = bool(fn.signatures) or bool(fn._cache._cache_file._load_index())
    except Exception:  # numba's cache layout changed: cannot tell, so say nothing
        return True
    if found and fn is play_batch:
        stamp.mark()  # the next run can tell without importing numba (stamp.py)
    return found


_MARKED = False


def _play_batch(*args) -> None:
    """``kernel.play_batch``; the first call in a process, once numba has compiled or loaded it, leaves
    the compiled marker (stamp.py), so a later ``bench`` knows without importing numba. A first call
    that finds nothing compiled holds play_batch's compile lock (jit.first_call): of several runs
    started together, one compiles and the others wait for it, then load its cache."""
    global _MARKED
    first_call(play_batch, *args)
    if not _MARKED and HAVE_NUMBA:
        _MARKED = True
        stamp.mark()


def basic_params(name: str = "basic") -> dict[str, Any]:
    """A scripted policy's parameters, read where its Python controller reads them
    (``content.policies``: configs/policies.yaml over basic's defaults)."""
    from ..content.policies import scripted_params
    return scripted_params(name)


def rng_state(seed: int) -> np.ndarray:
    """numpy's PCG64 state for ``default_rng(seed)`` as the kernel keeps a policy's generator
    (state and increment as 64-bit halves, then the cached 32-bit draw); SeedSequence on a seed
    past 64 bits is left to numpy."""
    mask = (1 << 64) - 1
    st = np.random.default_rng(seed).bit_generator.state
    state, inc = st["state"]["state"], st["state"]["inc"]
    return np.array([state >> 64, state & mask, inc >> 64, inc & mask, st["has_uint32"], st["uinteger"]], np.uint64)


def seed_array(seeds) -> np.ndarray:
    out = [int(s) for s in seeds]
    bad = [s for s in out if not 0 <= s < 2 ** 64]
    if bad:
        raise ValueError(f"the fast core takes seeds from 0 to 2**64 - 1, got {bad[0]}")
    return np.array(out, dtype=np.uint64)


@dataclass
class Episode:
    """One conflict played by the kernel: its final state and its event rows."""

    core: "FastCore"
    seed: int
    EV: np.ndarray
    CH: np.ndarray
    SLOTA: np.ndarray
    G: np.ndarray

    @property
    def bail(self) -> str:
        """Why the kernel stopped short ("" if it played the episode to its end)."""
        return k.BAIL_REASONS[int(self.G[k.G_BAIL])]

    def events(self) -> list:
        return events(self.core.tables, self.EV, int(self.G[k.G_NEV]), self.CH)

    def log(self) -> list[dict[str, Any]]:
        return [e.to_json() for e in self.events()]

    @property
    def pending(self) -> tuple[str, str, int] | None:
        """The decision a replay paused at: (kind, actor, number of options)."""
        if int(self.G[k.G_BAIL]) != k.BAIL_PAUSE:
            return None
        from .decode import KINDS
        return (str(KINDS[int(self.G[k.G_PKIND])]), self.core.tables.ids[int(self.G[k.G_PACTOR])],
                int(self.G[k.G_PCOUNT]))

    @property
    def outcome(self):
        return outcome(self.core.tables, self.CH, self.SLOTA, self.G)


class Session:
    """One conflict whose ``agent`` seats are answered one decision at a time (``FastCore.session``).
    The kernel keeps the state at each turn's start; an answer replays only the turn in progress
    from there. ``pending`` is the decision waiting for an answer: (kind, actor, option count)."""

    def __init__(self, core: "FastCore", seed: int, policy_rng: np.ndarray | None = None):
        t = core.tables
        self.core, self.seed = core, seed
        self._seed = seed_array([seed])
        self._policy_rng = core._policy_rngs([seed])[0] if policy_rng is None else np.asarray(policy_rng, np.uint64)
        self.EV = np.zeros((t.emax, k.EW), np.int64)
        #: the fight's arrays, and their copy at the last turn's start (``bundles.Fight``)
        self.state = core.fight(k.NG + 1024, 2)
        self.G = self.state.G
        self.checkpoint = core.fight(k.NG, 2)
        self._copy: Fight | None = None  # script_pick's copy of the fight
        self._advance(True)

    def _advance(self, fresh: bool) -> None:
        args = (self.core.arrays, self._seed, self._policy_rng, self.EV, self.state, self.checkpoint, fresh)
        core = self.core
        if core._advance is None:  # every session of a scene hands the kernel arrays of the same types
            core._advance = bound(advance, args)
        if HAVE_NUMBA:
            core._advance(*args)
        else:  # plain Python: the uint64 dice wrap as intended, with warnings
            with np.errstate(over="ignore"):
                core._advance(*args)

    def answer(self, index: int) -> None:
        """Answer the pending decision with option ``index`` and play on to the next one."""
        G = self.G
        if int(G[k.G_BAIL]) != k.BAIL_PAUSE:
            raise ValueError("no decision is waiting for an answer")
        n = int(G[k.G_NANS])
        if k.NG + n >= len(G):  # room for more answers: the state's G grows, the checkpoint's does not
            G2 = np.zeros(2 * len(G), np.int64)
            G2[:len(G)] = G
            self.G = G2
            self.state = self.state._replace(G=G2)
            G = G2
        G[k.NG + n] = index
        G[k.G_NANS] = n + 1
        self._advance(False)

    def script_pick(self) -> int:
        """The option the paused seat's own script (its policy in the scene's tables) would take
        here: what the ``learned`` NPC reads as its helper's move. A copy from the turn's start
        plays it; the session itself is left as it was."""
        if int(self.G[k.G_BAIL]) != k.BAIL_PAUSE:
            raise ValueError("no decision is waiting for an answer")
        core = self.core
        nans = int(self.G[k.G_NANS])
        copy = self._copy
        if copy is None or len(copy.G) < k.NG + nans:
            copy = self._copy = core.fight(k.NG + max(256, 2 * nans), 3)
        if core._script_events is None:
            core._script_events = np.zeros_like(self.EV)
        args = (core.arrays, self.state, self.checkpoint, core._script_events, copy)
        if core._script_pick is None:
            core._script_pick = bound(script_pick, args)
        with np.errstate(over="ignore"):
            pick = int(core._script_pick(*args))
        if pick < 0:
            raise RuntimeError(f"the fast core's copy of {core.tables.scene.name!r} (seed {self.seed}) made no decision "
                               "where the session paused: a bug")
        return pick

    @property
    def episode(self) -> Episode:
        """The conflict so far (or to its end)."""
        CH, _, SLOTA, G = self.state[:4]
        return Episode(self.core, self.seed, self.EV[:int(G[k.G_NEV])].copy(), CH.copy(), SLOTA.copy(), G[:k.NG].copy())

    @property
    def pending(self) -> tuple[str, str, int] | None:
        G = self.G
        if int(G[k.G_BAIL]) != k.BAIL_PAUSE:
            return None
        from .decode import KINDS
        return str(KINDS[int(G[k.G_PKIND])]), self.core.tables.ids[int(G[k.G_PACTOR])], int(G[k.G_PCOUNT])

    @property
    def options(self) -> list:
        """The pending decision's options, as the reference's option objects (the kernel writes
        them past the events when it pauses)."""
        pending = self.pending
        if pending is None:
            return []
        from .decode import decode_option
        start = int(self.G[k.G_NEV])
        if start + pending[2] > len(self.EV):
            raise RuntimeError("the paused decision's options did not fit past the events: the episode outgrew "
                               "the kernel's table (play it on the reference)")
        return [decode_option(self.core.tables, self.EV[start + i]) for i in range(pending[2])]

    @property
    def over(self) -> bool:
        return int(self.G[k.G_BAIL]) == k.BAIL_NONE

    def policy_rng(self) -> np.ndarray:
        """The random policy's generator now (its draws so far taken): where a controller that
        lives across episodes goes on from (``FastCore.session(seed, policy_rng=...)``)."""
        return self.state.RNG[RNG_SIZE:2 * RNG_SIZE].copy()


class FastCore:
    """A scene compiled for the kernel. ``controllers`` maps characters to the scripted policy
    playing them (``basic`` for any not named; ``tables.CONTROLLERS`` are covered); ``asks`` maps
    characters to the decision kinds answered from outside (a session's answers), their policy
    making the rest; a seat played by ``"agent"`` answers every kind."""

    def __init__(self, scene, controllers: dict[str, str] | None = None, asks: dict[str, Any] | None = None):
        if BROKEN:
            raise Unsupported(f"{BROKEN}: pip install -e \".[fast]\" again")
        self.scene = scene
        names = {c.id: (controllers or {}).get(c.id, "basic") for c in scene.characters}
        params = {name: basic_params(name if name in CONTROLLERS and name != "random" else "basic")
                  for name in set(names.values()) if name in CONTROLLERS or name == AGENT}
        #: the random policy's seed offset: agents.base.controllers_for seeds one controller per
        #: policy name with seed * 1000 + the index of the first character it plays
        self._random_at = next((i for i, c in enumerate(scene.characters) if names[c.id] == "random"), None)
        self.tables: Tables = build(scene, {cid: (name, params.get(name, {})) for cid, name in names.items()},
                                    {cid: asks_mask(kinds) for cid, kinds in (asks or {}).items()})
        #: the scene's tables as the kernel takes them (``bundles.Scene``)
        self.arrays = self.tables.arrays()
        self._scratch_events = np.zeros((self.tables.emax, k.EW), np.int64)  # a batch's events are not kept
        self._replay_scratch: tuple | None = None
        self._advance = None  # kernel.advance bound to a session's argument types (jit.bound)
        self._script_pick = None  # kernel.script_pick, bound likewise, and its scratch events
        self._script_events: np.ndarray | None = None

    def _state(self, *lead: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        t = self.tables
        n = t.SC.shape[0]
        return (np.zeros(lead + (n, k.NCF + n), np.int64), np.zeros(lead + (n, t.SLOTS.shape[1]), np.int64),
                np.zeros(lead + (k.NG,), np.int64))

    def fight(self, g: int, generators: int) -> Fight:
        """Zeroed arrays for one fight of this scene (``bundles.Fight``): ``g`` globals (answers past
        NG), ``generators`` generators' states (the dice, the random policy's, a copy's dice)."""
        t = self.tables
        n, amax = t.SC.shape[0], int(t.P[k.P_AMAX])
        CH, SLOTA, _ = self._state()
        return Fight(CH, np.zeros((n, 64), np.int64), SLOTA, np.zeros(g, np.int64), np.zeros((amax, k.NAF), np.int64),
                     np.zeros((amax, n), np.int64), np.zeros(amax, np.int64),
                     np.zeros((int(t.P[k.P_NSIDES]), amax), np.int64), np.zeros(generators * RNG_SIZE, np.uint64))

    def _policy_rngs(self, seeds) -> np.ndarray:
        """Each episode's random-policy generator at its start: ``default_rng(seed * 1000 + i)``
        (agents.base.controllers_for's seeding), as ``rng_state`` gives it."""
        out = np.zeros((len(seeds), RNG_SIZE), np.uint64)
        if self._random_at is None:
            return out
        for j, seed in enumerate(seeds):
            out[j] = rng_state(int(seed) * 1000 + self._random_at)
        return out

    def episode(self, seed: int) -> Episode:
        CH, SLOTA, G = self._state(1)
        EV = np.zeros((self.tables.emax, k.EW), np.int64)
        MARK = np.zeros((CH.shape[1], 64), np.int64)
        with np.errstate(over="ignore"):  # without numba the uint64 dice wrap as intended, with warnings
            _play_batch(self.arrays, seed_array([seed]), self._policy_rngs([seed]), EV, CH, MARK, SLOTA, G)
        return Episode(self, seed, EV, CH[0], SLOTA[0], G[0])

    def session(self, seed: int, policy_rng: np.ndarray | None = None) -> Session:
        """A conflict to answer one decision at a time (the ``agent`` seats), resumed from the last
        turn's start after each answer. ``policy_rng``: the random policy's generator to start
        from (``rng_state``, or a past session's ``policy_rng()``) instead of the seed's."""
        return Session(self, seed, policy_rng)

    def replay(self, seed: int, answers: list[int]) -> Episode:
        """Play ``seed`` with the seats given to ``"agent"`` answered by ``answers`` in turn (each an
        option index of the decision asked, as ``Conflict.step`` takes it). The episode stops at
        the first decision past them: ``bail`` says "paused for an answer" and ``pending`` names
        it. Replaying from the seed with one answer more is how the kernel resumes (a whole
        warehouse fight replays in tens of microseconds). The arrays the kernel writes are
        reused from call to call; the episode keeps copies of what it reads."""
        scratch = self._replay_scratch
        if scratch is None or scratch[3].shape[1] < k.NG + len(answers):
            CH, SLOTA, _ = self._state(1)
            G = np.zeros((1, k.NG + max(256, 2 * len(answers))), np.int64)
            MARK = np.zeros((CH.shape[1], 64), np.int64)
            scratch = self._replay_scratch = (CH, SLOTA, MARK, G)
        CH, SLOTA, MARK, G = scratch
        G[0, k.G_NANS] = len(answers)
        G[0, k.NG:k.NG + len(answers)] = answers
        EV = self._scratch_events
        with np.errstate(over="ignore"):
            _play_batch(self.arrays, seed_array([seed]), self._policy_rngs([seed]), EV, CH, MARK, SLOTA, G)
        n = int(G[0, k.G_NEV])
        return Episode(self, seed, EV[:n].copy(), CH[0].copy(), SLOTA[0].copy(), G[0, :k.NG].copy())

    def run(self, seeds: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Play every seed in one kernel call: the final (CH, SLOTA, G) arrays, one row per seed."""
        SEEDS = seed_array(seeds)
        CH, SLOTA, G = self._state(len(SEEDS))
        MARK = np.zeros((self.tables.SC.shape[0], 64), np.int64)
        with np.errstate(over="ignore"):
            _play_batch(self.arrays, SEEDS, self._policy_rngs(seeds), self._scratch_events, CH, MARK, SLOTA, G)
        return CH, SLOTA, G

    def outcomes(self, seeds: list[int]) -> list[Any]:
        """Each seed's ``Outcome`` (None where the kernel bailed: play that one on the reference)."""
        CH, SLOTA, G = self.run(seeds)
        width = outcome_width(self.tables.scene)  # the part of G an outcome reads
        return [None if G[i, k.G_BAIL] else outcome(self.tables, CH[i], SLOTA[i], G[i, :width]) for i in range(len(G))]

