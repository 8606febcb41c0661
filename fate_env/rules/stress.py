"""Stress styles and absorbers: how a character's boxes and consequences take a hit.

Two strategies meet here, each behind one small interface:

* a **stress style** says how boxes work, chosen by the rule set's ``stress.style``:
  :class:`Condensed` marks any number of 1-point boxes (003:1589-1593); :class:`Core` marks one
  box per hit, of the hit's value or a higher one if that is marked (000:305-309);
* an **absorber** says what a kind of character brings to a hit: :class:`Standard` (PCs and
  major NPCs: boxes, then consequences of 2/4/6 and 8 extreme, several at once, 000:330),
  :class:`Minor` (boxes only, 003:2002-2008) and :class:`Mob` (members absorb one after
  another, automatically, 003:1996-2001).

A new style is one class and one entry in ``STYLES``; a new kind of character one class and one
entry in ``ABSORBERS``. Neither touches the others.

A plan is offered only if it is minimal: dropping any one box or slot from it would leave the
hit unabsorbed. Being taken out is always a choice (003:1568).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from itertools import combinations

from .kinds import StressStyleName
from .options import Absorb, TakenOut  # noqa: F401  (TakenOut: harm's callers read it here)
from .ruleset import STYLE_NAMES, RuleSet
from .scene import CharacterSheet
from .skills import MENTAL, PHYSICAL
from .state import Fighter, Slot, Track


#: Fate Condensed's conditions (003:2070-2078): name, severity, value; the first two take the
#: extra boxes an extra mild slot becomes (Hurt for physical, Scared for mental, 003:2085-2086)
CONDITION_ROWS = (("Hurt", "mild", 1), ("Scared", "mild", 1), ("Injured", "moderate", 2), ("Shaken", "moderate", 2),
                  ("Wounded", "severe", 3), ("Demoralized", "severe", 3))
CONDITION_FOR_TRACK = {PHYSICAL: "Hurt", MENTAL: "Scared"}
#: which hits mark which conditions when they are kept apart (003:2089-2101)
CONDITION_TRACKS = {"Hurt": PHYSICAL, "Injured": PHYSICAL, "Wounded": PHYSICAL,
                    "Scared": MENTAL, "Shaken": MENTAL, "Demoralized": MENTAL}


# -- stress styles ------------------------------------------------------------------
class StressStyle(ABC):
    """How a track's boxes take what is left of a hit once consequences are counted."""

    name: StressStyleName

    @abstractmethod
    def default_boxes(self, count: int) -> tuple[int, ...]:
        """``count`` boxes for a minor NPC or mob member."""

    @abstractmethod
    def stunt_box(self, values: list[int]) -> int:
        """The value of one more box a stunt adds to ``values``."""

    @abstractmethod
    def box_options(self, track: Track, rem: int) -> list[tuple[tuple[int, ...], int]]:
        """The ways to absorb ``rem`` shifts with this track's free boxes: (box indices, their worth)."""

    @abstractmethod
    def minimal(self, box_value: int, cons_total: int, cons_values: list[int], shifts: int) -> bool:
        """Whether boxes worth ``box_value`` beside these consequences make a minimal plan."""

    @abstractmethod
    def capacity(self, track: Track) -> int:
        """The biggest hit the free boxes alone can take now."""

    @abstractmethod
    def absorb_whole(self, track: Track, shifts: int) -> bool:
        """Mark boxes that take all ``shifts`` if the free boxes can (a mob member's hit)."""


class Condensed(StressStyle):
    name = StressStyleName.CONDENSED

    def default_boxes(self, count: int) -> tuple[int, ...]:
        return (1,) * count

    def stunt_box(self, values: list[int]) -> int:
        return 1

    def box_options(self, track: Track, rem: int) -> list[tuple[tuple[int, ...], int]]:
        free = track.free()
        return [(tuple(free[:rem]), rem)] if len(free) >= rem else []

    def minimal(self, box_value: int, cons_total: int, cons_values: list[int], shifts: int) -> bool:
        return True

    def capacity(self, track: Track) -> int:
        return len(track.free())

    def absorb_whole(self, track: Track, shifts: int) -> bool:
        free = track.free()
        if len(free) < shifts:
            return False
        for i in free[:shifts]:
            track.marked[i] = True
        return True


class Core(StressStyle):
    name = StressStyleName.CORE

    def default_boxes(self, count: int) -> tuple[int, ...]:
        return tuple(range(1, count + 1))

    def stunt_box(self, values: list[int]) -> int:
        return max(values) + 1 if values else 1

    def box_options(self, track: Track, rem: int) -> list[tuple[tuple[int, ...], int]]:
        values, free = track.values, track.free()
        exact = [i for i in free if values[i] == rem]
        if exact:
            return [((exact[0],), rem)]
        seen: set[int] = set()
        out = []
        for i in free:
            if values[i] > rem and values[i] not in seen:
                seen.add(values[i])
                out.append(((i,), values[i]))
        return out

    def minimal(self, box_value: int, cons_total: int, cons_values: list[int], shifts: int) -> bool:
        return all(box_value + cons_total - v < shifts for v in cons_values)

    def capacity(self, track: Track) -> int:
        free = [track.values[i] for i in track.free()]
        return max(free) if free else 0

    def absorb_whole(self, track: Track, shifts: int) -> bool:
        fits = [i for i in track.free() if track.values[i] >= shifts]
        if not fits:
            return False
        track.marked[min(fits, key=lambda i: track.values[i])] = True
        return True


class RollUp(Core):
    """FATE 2.0's track (001:108-117): a hit marks the box of its size; if that one is marked, the
    next free box above it ("rolls up"); a hit past the last free box needs a consequence."""

    name = StressStyleName.ROLL_UP

    def box_options(self, track: Track, rem: int) -> list[tuple[tuple[int, ...], int]]:
        values = track.values
        fits = [i for i in track.free() if values[i] >= rem]
        if not fits:
            return []
        i = min(fits, key=lambda j: values[j])
        return [((i,), values[i])]


STYLES: dict[str, StressStyle] = {s.name: s for s in (Condensed(), Core(), RollUp())}
if set(STYLES) != set(STYLE_NAMES):  # a name declared without its class, or the reverse
    raise RuntimeError(f"stress styles {sorted(STYLES)} and StressStyleName {sorted(STYLE_NAMES)} differ")

#: what a free consequence counts for in a capacity under the ordered rule, where it takes a whole
#: hit of any size (001:117): more than any roll's shifts in practice (the ladder spans -2..+8)
WHOLE_HIT = 20


def style_of(rules: RuleSet) -> StressStyle:
    return STYLES[rules.stress_style]


# -- absorbers by kind of character ----------------------------------------------------
class Absorber(ABC):
    """What a kind of character brings to a hit."""

    #: a hit is applied without asking (no plan to choose)
    automatic = False

    @abstractmethod
    def build(self, sheet: CharacterSheet, rules: RuleSet) -> Fighter:
        """A fresh fighter from a sheet."""

    def plans(self, f: Fighter, shifts: int, track: str, rules: RuleSet) -> list[Absorb]:
        return absorb_plans(f, shifts, track, rules)

    def capacity(self, f: Fighter, track: str, rules: RuleSet) -> int:
        """The biggest hit ``f`` could absorb now without being taken out."""
        boxes = style_of(rules).capacity(f.tracks[track])
        if rules.facts.ordered:
            return WHOLE_HIT if next_ordered(f) is not None else boxes
        if not rules.facts.conditions_apart:
            return boxes + sum(s.value for s in f.slots if s.free and (s.track in (None, track)))
        usable = [s for s in f.slots if s.free and (s.track in (None, track))]
        return boxes + sum(min(row_room(f, sev), sum(1 for s in usable if s.severity == sev)) * value
                           for sev, value in (("mild", 1), ("moderate", 2), ("severe", 3)))

    def absorb(self, f: Fighter, shifts: int, track: str, rules: RuleSet) -> tuple[int, int]:
        raise NotImplementedError(f"{type(self).__name__} asks how a hit is absorbed")


def _extra(sheet: CharacterSheet) -> tuple[dict[str, int], list[str | None]]:
    extra = {PHYSICAL: 0, MENTAL: 0}
    extra_mild: list[str | None] = []
    for stunt in sheet.stunts:
        if stunt.kind == "extra_stress":
            extra[stunt.track or PHYSICAL] += stunt.count
        elif stunt.kind == "extra_mild":
            extra_mild.append(stunt.track)
    return extra, extra_mild


def _extend(boxes: tuple[int, ...], count: int, style: StressStyle) -> list[int]:
    """Add ``count`` stunt boxes (003:437-440)."""
    out = list(boxes)
    for _ in range(count):
        out.append(style.stunt_box(out))
    return out


class Standard(Absorber):
    """PCs and major NPCs: tracks by Physique and Will, consequence slots (003:1581-1620)."""

    def build(self, sheet: CharacterSheet, rules: RuleSet) -> Fighter:
        style = style_of(rules)
        extra, extra_mild = _extra(sheet)
        tracks = {
            PHYSICAL: Track.of(_extend(rules.boxes_for(sheet.skill("Physique")), extra[PHYSICAL], style)),
            MENTAL: Track.of(_extend(rules.boxes_for(sheet.skill("Will")), extra[MENTAL], style)),
        }
        fp = sheet.fate_points if sheet.kind == "pc" else 0
        return Fighter(sheet, sheet.zone, tracks, _slots(sheet, rules, extra_mild), fate_points=fp)


def _slots(sheet: CharacterSheet, rules: RuleSet, extra_mild: list[str | None]) -> list[Slot]:
    """A PC's or major NPC's consequence slots (or conditions) under ``rules``."""
    if rules.facts.conditions:
        return _conditions(sheet, rules, extra_mild)
    slots = [Slot(sev, val) for sev, val in rules.consequences]
    if rules.facts.ordered:  # three at most, no extra slots (001:119-123)
        return slots
    mild = rules.consequence_value("mild")
    if sheet.skill("Physique") >= rules.extra_mild_at:
        slots.append(Slot("mild", mild, PHYSICAL))
    if sheet.skill("Will") >= rules.extra_mild_at:
        slots.append(Slot("mild", mild, MENTAL))
    slots.extend(Slot("mild", mild, track) for track in extra_mild)
    if rules.extreme_consequences and (sheet.kind == "pc" or rules.facts.extreme_for_npcs) \
            and sheet.extreme_loses() is not None:
        slots.append(Slot("extreme", 8))  # 003:2204-2217 (a character), 000:398-404 (a PC)
    return slots


def _conditions(sheet: CharacterSheet, rules: RuleSet, extra_mild: list[str | None]) -> list[Slot]:
    """Condensed's conditions instead of consequences (003:2062-2087): six named slots of 1, 1, 2,
    2, 3 and 3, any of which a hit of either kind may mark; each extra mild slot (Superb Physique or
    Will, a stunt) becomes two more 1-point boxes of Hurt or Scared, as its track says (a stunt
    that names none: Hurt). A condition with several boxes is one aspect (``harm``). Kept apart
    (003:2089-2101), each condition has two boxes, for its own kind of hit only, and a row takes
    two boxes in all, two more for each extra mild slot (:func:`row_room`)."""
    apart = rules.facts.conditions_apart
    slots = [Slot(sev, val, CONDITION_TRACKS[name] if apart else None, None, name)
             for name, sev, val in CONDITION_ROWS for _ in range(2 if apart else 1)]
    more = []
    if sheet.skill("Physique") >= rules.extra_mild_at:
        more.append(PHYSICAL)
    if sheet.skill("Will") >= rules.extra_mild_at:
        more.append(MENTAL)
    more.extend(track or PHYSICAL for track in extra_mild)
    for track in more:
        slots.extend(Slot("mild", 1, track if apart else None, None, CONDITION_FOR_TRACK[track]) for _ in range(2))
    return slots


def row_room(f: Fighter, severity: str) -> int:
    """Boxes a row of conditions kept apart may still take: two, two more per extra mild slot
    (its boxes beyond the row's four), less those marked (003:2092-2101)."""
    row = [s for s in f.slots if s.severity == severity]
    return len(row) - 2 - sum(1 for s in row if not s.free)


class Minor(Absorber):
    """Minor NPCs: a few boxes (the sheet's ``stress``), no consequences (003:2002-2008)."""

    def build(self, sheet: CharacterSheet, rules: RuleSet) -> Fighter:
        style = style_of(rules)
        extra, _ = _extra(sheet)
        boxes = style.default_boxes(sheet.stress or 0)
        tracks = {t: Track.of(_extend(boxes, extra[t], style)) for t in (PHYSICAL, MENTAL)}
        return Fighter(sheet, sheet.zone, tracks, [], members=sheet.count)


class Mob(Minor):
    """A mob: identical members with a minor NPC's boxes, absorbing one after another."""

    automatic = True

    def capacity(self, f: Fighter, track: str, rules: RuleSet) -> int:
        t = f.tracks[track]
        return style_of(rules).capacity(t) + (f.members - 1) * (len(t.values) + 1)

    def absorb(self, f: Fighter, shifts: int, track: str, rules: RuleSet) -> tuple[int, int]:
        """Apply a hit member by member: the current member absorbs what its boxes can; a hit
        beyond that takes it out, using up its capacity plus one shift (the shift that exceeds
        it), and the rest carries to the next member, who starts with clear boxes.
        Returns (members taken out, shifts absorbed by the survivor's boxes)."""
        style = style_of(rules)
        t = f.tracks[track]
        lost = 0
        while shifts > 0 and f.members > 0:
            if style.absorb_whole(t, shifts):
                return lost, shifts
            shifts -= style.capacity(t) + 1
            f.members -= 1
            lost += 1
            for tr in f.tracks.values():  # the next member starts fresh
                tr.clear()
        return lost, 0


ABSORBERS: dict[str, Absorber] = {"pc": Standard(), "major": Standard(), "minor": Minor(), "mob": Mob()}


def absorber_for(sheet: CharacterSheet) -> Absorber:
    return ABSORBERS.get(sheet.kind) or ABSORBERS["major"]


def next_ordered(f: Fighter) -> int | None:
    """The slot the next consequence fills under the ordered rule: mild, then moderate, then
    severe (001:119); None once all three are taken (001:123)."""
    for sev in ("mild", "moderate", "severe"):
        for i, s in enumerate(f.slots):
            if s.severity == sev and s.free:
                return i
    return None


def absorb_plans(f: Fighter, shifts: int, track: str, rules: RuleSet) -> list[Absorb]:
    """Every minimal way for ``f`` to absorb a ``shifts`` hit on ``track``."""
    if shifts <= 0:
        return [Absorb((), ())]
    style = style_of(rules)
    t = f.tracks[track]
    if rules.facts.ordered:  # a box, or the next consequence instead (001:117)
        plans = [Absorb(boxes, ()) for boxes, _ in style.box_options(t, shifts)]
        nxt = next_ordered(f)
        return plans + ([Absorb((), (nxt,))] if nxt is not None else [])
    usable = [i for i, s in enumerate(f.slots) if s.free and (s.track is None or s.track == track)]
    room = {sev: row_room(f, sev) for sev in ("mild", "moderate", "severe")} if rules.facts.conditions_apart else None
    plans: list[tuple[tuple, Absorb]] = []
    for n in range(len(usable) + 1):
        for combo in combinations(usable, n):
            if room is not None and any(sum(1 for i in combo if f.slots[i].severity == sev) > left
                                        for sev, left in room.items()):
                continue  # past a row's cutoff (003:2092-2099)
            values = [f.slots[i].value for i in combo]
            total = sum(values)
            rem = shifts - total
            if rem <= 0:
                if values and total - min(values) < shifts:
                    plans.append(((n, total, 0), Absorb((), combo)))
                continue
            for boxes, box in style.box_options(t, rem):
                if style.minimal(box, total, values, shifts):
                    plans.append(((n, total, box), Absorb(boxes, combo)))
    plans.sort(key=lambda p: p[0])
    return [p for _, p in plans]


def plan_value(f: Fighter, plan: Absorb, track: str, rules: RuleSet | None = None) -> int:
    """Shifts a plan absorbs (under the ordered rule a consequence takes the whole hit: WHOLE_HIT)."""
    t = f.tracks[track]
    if rules is not None and rules.facts.ordered and plan.slots:
        return WHOLE_HIT
    return sum(t.values[b] for b in plan.boxes) + sum(f.slots[s].value for s in plan.slots)


def build_fighter(sheet: CharacterSheet, rules: RuleSet) -> Fighter:
    """A fresh fighter from a sheet: tracks and slots as its kind and the rule set's stress style give them."""
    return absorber_for(sheet).build(sheet, rules)
