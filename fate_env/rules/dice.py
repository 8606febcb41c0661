"""Fate dice (4dF) drawn from an injected generator, with forced rolls.

Each Fate die shows -1, 0 or +1 with equal chance; four are summed
(Fate Condensed, 003:542-545). Randomness is always injected as a
``numpy.random.Generator`` so that a seed reproduces a conflict exactly, and a
queue of forced rolls lets a GM enter physical dice or a test pin a worked
example.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

import numpy as np

Faces = tuple[int, int, int, int]

_BLOCK = 512  # dice are drawn in blocks: one numpy call serves many rolls


class DiceError(ValueError):
    """A forced roll that is not four faces of -1, 0 or +1."""


def check_faces(faces: Sequence[int]) -> Faces:
    """Validate four Fate-die faces, or raise :class:`DiceError`."""
    faces = tuple(int(f) for f in faces)
    if len(faces) != 4 or any(f not in (-1, 0, 1) for f in faces):
        raise DiceError(f"a Fate roll is four faces each -1, 0 or +1, got {list(faces)}")
    return faces  # type: ignore[return-value]


def faces_for_total(total: int) -> Faces:
    """A canonical set of faces summing to ``total`` (-4..+4), for forcing by total."""
    if not -4 <= total <= 4:
        raise DiceError(f"4dF totals run from -4 to +4, got {total}")
    sign = 1 if total >= 0 else -1
    n = abs(total)
    return tuple([sign] * n + [0] * (4 - n))  # type: ignore[return-value]


def show_faces(faces: Faces) -> str:
    """``[+ - 0 +]``: the faces as a table would read them."""
    return "[" + " ".join("+" if f > 0 else "-" if f < 0 else "0" for f in faces) + "]"


class Dice:
    """A source of 4dF rolls: forced faces first, then the generator."""

    outside = 0  # (a class default too: a copy pickled before the count existed has none)

    def __init__(self, rng: np.random.Generator | None = None, forced: Iterable[Sequence[int]] = ()):
        self._rng: np.random.Generator | None = rng if rng is not None else np.random.default_rng()
        self._rng_state: tuple | None = None  # (bit generator type, state): a copy's generator, made when first needed
        self._forced: deque[Faces] = deque(check_faces(f) for f in forced)
        self._block: list[tuple[int, int, int, int]] = []
        # physical dice: for the rolls ``wants(who)`` picks, ``provider(who, what)`` gives the faces
        self.provider = None
        self.wants = None
        # the engine's bookkeeping for copies: every roll is noted in ``journal`` (if set), and a
        # copy being rebuilt takes its rolls from ``_replay`` first (the rolls its original drew)
        self.journal: list[Faces] | None = None
        self._replay: deque[Faces] = deque()
        #: rolls that came from outside the generator (forced, or a player's physical dice)
        self.outside = 0

    @property
    def rng(self) -> np.random.Generator:
        if self._rng is None:
            kind, state = self._rng_state
            bg = kind(0)
            bg.state = state
            self._rng, self._rng_state = np.random.Generator(bg), None
        return self._rng

    def copy(self, replay: Iterable[Faces] = ()) -> "Dice":
        """An independent copy in the same state (the generator's included), which first gives
        back ``replay``: the rolls already made since a checkpoint. The copy's generator is
        rebuilt only when it is first drawn from (most copies live on the block already drawn)."""
        d = Dice.__new__(Dice)
        if self._rng is None:
            d._rng_state = self._rng_state
        else:
            bg = self._rng.bit_generator
            d._rng_state = (type(bg), bg.state)
        d._rng = None
        d._forced = deque(self._forced)
        d._block = self._block[:]
        d.provider, d.wants = self.provider, self.wants
        d.journal = None
        d._replay = deque(replay)
        d.outside = self.outside
        return d

    def __getstate__(self) -> dict:
        state = {k: getattr(self, k) for k in ("_forced", "_block", "journal", "_replay", "outside")}
        state["_rng"], state["_rng_state"] = self.rng, None
        state["provider"] = state["wants"] = None  # a live player's dice do not travel
        return state

    def __setstate__(self, state: dict) -> None:
        for k, v in state.items():
            setattr(self, k, v)

    def reseed(self, rng: np.random.Generator) -> None:
        """Draw from ``rng`` from now on, dropping the rolls drawn ahead: a live table's undo past dice
        the players saw rolls new ones instead of the same again. The rolls no longer follow from the
        scene's seed alone, so they count as from outside (a look-ahead forks instead of replaying)."""
        self._rng, self._rng_state, self._block = rng, None, []
        self.outside += 1

    def force(self, *rolls: Sequence[int] | int) -> None:
        """Queue rolls: each is four faces or a total from -4 to +4."""
        for roll in rolls:
            self._forced.append(faces_for_total(roll) if isinstance(roll, int) else check_faces(roll))

    @property
    def forced_pending(self) -> int:
        return len(self._forced)

    def roll(self, who: str = "", what: str = "") -> Faces:
        """The next roll's four faces: forced, then a player's physical dice, then the generator."""
        faces = self._draw(who, what)
        if self.journal is not None:
            self.journal.append(faces)
        return faces

    def _draw(self, who: str, what: str) -> Faces:
        if self._replay:
            return self._replay.popleft()
        if self._forced:
            self.outside += 1
            return self._forced.popleft()
        if self.provider is not None and self.wants is not None and self.wants(who):
            self.outside += 1
            return check_faces(self.provider(who, what))
        if not self._block:
            draws = self.rng.integers(-1, 2, size=(_BLOCK, 4))
            self._block = [tuple(row) for row in draws.tolist()]
            self._block.reverse()
        return self._block.pop()  # type: ignore[return-value]
