"""Mutable conflict state: each fighter's tracks and slots, and the aspects in play."""

from __future__ import annotations

from dataclasses import dataclass, field

from .ruleset import RuleSet
from .scene import CharacterSheet
from .skills import MENTAL, PHYSICAL

ACTIVE, CONCEDED, TAKEN_OUT = "active", "conceded", "taken_out"


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

    def clear(self) -> None:
        self.marked = [False] * len(self.values)

    @property
    def capacity(self) -> int:
        return len(self.values)


@dataclass(slots=True)
class Slot:
    """A consequence slot. ``track`` restricts it (the extra mild at Superb)."""

    severity: str
    value: int
    track: str | None = None
    aspect: int | None = None  # id of the consequence aspect filling it

    @property
    def free(self) -> bool:
        return self.aspect is None


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

    @property
    def id(self) -> str:
        return self.sheet.id

    @property
    def active(self) -> bool:
        return self.status == ACTIVE

    def skill(self, name: str) -> int:
        return self.sheet.skills.get(name, 0)


def build_fighter(sheet: CharacterSheet, rules: RuleSet) -> Fighter:
    """A fresh fighter from a sheet: tracks by Physique/Will, slots by kind."""
    extra = {PHYSICAL: 0, MENTAL: 0}
    extra_mild: list[str | None] = []
    for stunt in sheet.stunts:
        if stunt.kind == "extra_stress":
            extra[stunt.track or PHYSICAL] += stunt.count
        elif stunt.kind == "extra_mild":
            extra_mild.append(stunt.track)
    if sheet.kind in ("minor", "mob"):
        boxes = rules.minor_boxes(sheet.stress or 0)
        tracks = {t: Track.of(_extend(boxes, extra[t], rules)) for t in (PHYSICAL, MENTAL)}
        return Fighter(sheet, sheet.zone, tracks, [], members=sheet.count)
    tracks = {
        PHYSICAL: Track.of(_extend(rules.boxes_for(sheet.skill("Physique")), extra[PHYSICAL], rules)),
        MENTAL: Track.of(_extend(rules.boxes_for(sheet.skill("Will")), extra[MENTAL], rules)),
    }
    slots = [Slot(sev, val) for sev, val in rules.consequences]
    mild = rules.consequence_value("mild")
    if sheet.skill("Physique") >= rules.extra_mild_at:
        slots.append(Slot("mild", mild, PHYSICAL))
    if sheet.skill("Will") >= rules.extra_mild_at:
        slots.append(Slot("mild", mild, MENTAL))
    slots.extend(Slot("mild", mild, track) for track in extra_mild)
    if rules.extreme_consequences and sheet.kind == "pc":
        slots.append(Slot("extreme", 8))
    fp = sheet.fate_points if sheet.kind == "pc" else 0
    return Fighter(sheet, sheet.zone, tracks, slots, fate_points=fp)


def _extend(boxes: tuple[int, ...], count: int, rules: RuleSet) -> list[int]:
    """Add ``count`` stunt boxes: 1-point, or the next values up when escalating."""
    out = list(boxes)
    for _ in range(count):
        out.append((max(out) + 1 if out else 1) if rules.one_box_per_hit else 1)
    return out


# -- aspects -------------------------------------------------------------

CHARACTER, SITUATION, ADVANTAGE, CONSEQUENCE, BOOST = "character", "situation", "advantage", "consequence", "boost"


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

    def free_total(self) -> int:
        return sum(self.free.values())
