"""The pieces of a table's state: each character's tracks and slots, and the aspects in play.

Plain mutable dataclasses with a hand-written ``copy`` each (the engine copies a table at
every checkpoint, so the copy must be cheap): what never changes during a scene (the sheet,
a track's box values) is shared, everything else is copied.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .kinds import AspectKind, Status
from .scene import CharacterSheet

ACTIVE, CONCEDED, TAKEN_OUT = Status.ACTIVE, Status.CONCEDED, Status.TAKEN_OUT


@dataclass(slots=True)
class Track:
    """A stress track: box values and which are marked."""

    values: list[int]
    marked: list[bool]

    @classmethod
    def of(cls, values: tuple[int, ...] | list[int]) -> "Track":
        return cls(list(values), [False] * len(values))

    def free(self) -> list[int]:
        return [i for i, m in enumerate(self.marked) if not m]

    def copy(self) -> "Track":
        return Track(self.values, self.marked[:])  # box values never change in a scene

    def clear(self) -> None:
        self.marked = [False] * len(self.values)

    @property
    def capacity(self) -> int:
        return len(self.values)


@dataclass(slots=True)
class Slot:
    """A consequence slot. ``track`` restricts it (the extra mild at Superb). ``name``: a
    condition's (the ``conditions`` dial, 003:2062-2101); None for a consequence, named by the hit."""

    severity: str
    value: int
    track: str | None = None
    aspect: int | None = None  # id of the consequence aspect filling it
    name: str | None = None

    @property
    def free(self) -> bool:
        return self.aspect is None

    def copy(self) -> "Slot":
        return Slot(self.severity, self.value, self.track, self.aspect, self.name)


@dataclass(slots=True)
class Fighter:
    """One character's state in a conflict."""

    sheet: CharacterSheet
    zone: str
    tracks: dict[str, Track]
    slots: list[Slot]
    fate_points: int = 0
    status: str = ACTIVE
    full_defense: bool = False
    defended_on_full: bool = False
    members: int = 1            # mobs: members still standing
    consequences_taken: int = 0
    owed: int = 0               # fate points owed at scene end (hostile invokes)
    supporters: list[str] = field(default_factory=list)
    taken_out_by: str | None = None
    ward: str | None = None     # on full defense guarding this ally (the full_defense_focus dial)

    @property
    def id(self) -> str:
        return self.sheet.id

    @property
    def active(self) -> bool:
        return self.status == ACTIVE

    def skill(self, name: str) -> int:
        return self.sheet.skills.get(name, 0)

    def copy(self) -> "Fighter":
        return Fighter(self.sheet, self.zone, {k: t.copy() for k, t in self.tracks.items()},
                       [s.copy() for s in self.slots], self.fate_points, self.status, self.full_defense,
                       self.defended_on_full, self.members, self.consequences_taken, self.owed,
                       self.supporters[:], self.taken_out_by, self.ward)


# -- aspects -------------------------------------------------------------

CHARACTER, SITUATION, ADVANTAGE, CONSEQUENCE, BOOST = (AspectKind.CHARACTER, AspectKind.SITUATION, AspectKind.ADVANTAGE,
                                                       AspectKind.CONSEQUENCE, AspectKind.BOOST)


@dataclass(slots=True)
class Aspect:
    """An aspect in play. ``free`` maps holder id -> free invokes held."""

    id: int
    name: str
    kind: str
    owner: str | None = None    # the character it is on, if any
    zone: str | None = None     # the zone it is on, if any
    creator: str | None = None
    free: dict[str, int] = field(default_factory=dict)
    role: str | None = None     # high_concept / trouble / other; severity for consequences
    skill: str | None = None    # for advantages: the skill that made it (its creator defends it with that)
    #: an obstacle's name (a block's, a distraction's, a hazard's with no zone): it bears only on the rolls
    #: about that obstacle (``Roll.about``), not on every roll of the scene (003:2310-2313)
    obstacle: bool = False
    #: in play but not yet known: nobody invokes it until someone discovers it (003:820-824, 003:854-867)
    hidden: bool = False

    def free_total(self) -> int:
        return sum(self.free.values())

    def copy(self) -> "Aspect":
        return Aspect(self.id, self.name, self.kind, self.owner, self.zone, self.creator, dict(self.free),
                      self.role, self.skill, self.obstacle, self.hidden)
