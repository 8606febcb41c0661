"""Absorbing a hit: the legal plans of stress boxes and consequence slots.

Condensed: mark any number of 1-point boxes (003:1589-1593). Core: one box
per hit, of the hit's value or, if that box is marked, a higher one
(000:305-309). In both, consequences reduce the hit by 2/4/6 (8 extreme) and
several may be taken at once (000:330). A plan is offered only if it is
minimal: dropping any one box or slot from it would leave the hit
unabsorbed, so "take every consequence for a 1-shift hit" is not a choice
anyone would make and is not listed. Being taken out is always a choice
(003:1568: "if you can't or don't absorb all of the shifts").
"""

from __future__ import annotations

from itertools import combinations
from dataclasses import dataclass

from .ruleset import RuleSet
from .state import Fighter


@dataclass(frozen=True, slots=True)
class Absorb:
    """Mark these box indices on the hit's track and fill these slot indices."""

    boxes: tuple[int, ...]
    slots: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TakenOut:
    """Take no stress: the character is taken out."""


def absorb_plans(f: Fighter, shifts: int, track: str, rules: RuleSet) -> list[Absorb]:
    """Every minimal way for ``f`` to absorb a ``shifts`` hit on ``track``."""
    if shifts <= 0:
        return [Absorb((), ())]
    t = f.tracks[track]
    free_boxes = t.free()
    usable = [i for i, s in enumerate(f.slots) if s.free and (s.track is None or s.track == track)]
    plans: list[tuple[tuple, Absorb]] = []
    for n in range(len(usable) + 1):
        for combo in combinations(usable, n):
            values = [f.slots[i].value for i in combo]
            total = sum(values)
            rem = shifts - total
            if rem <= 0:
                if values and total - min(values) < shifts:
                    plans.append(((n, total, 0), Absorb((), combo)))
                continue
            if rules.one_box_per_hit:
                for b in _core_boxes(t.values, free_boxes, rem):
                    box = t.values[b]
                    if all(box + total - v < shifts for v in values):
                        plans.append(((n, total, box), Absorb((b,), combo)))
            elif len(free_boxes) >= rem:
                plans.append(((n, total, rem), Absorb(tuple(free_boxes[:rem]), combo)))
    plans.sort(key=lambda p: p[0])
    return [p for _, p in plans]


def _core_boxes(values: list[int], free: list[int], rem: int) -> list[int]:
    """Core's one box: the box equal to the hit, or any higher one if it is marked."""
    exact = [i for i in free if values[i] == rem]
    if exact:
        return exact[:1]
    seen: set[int] = set()
    out = []
    for i in free:
        if values[i] > rem and values[i] not in seen:
            seen.add(values[i])
            out.append(i)
    return out


def plan_value(f: Fighter, plan: Absorb, track: str) -> int:
    """Shifts a plan absorbs."""
    t = f.tracks[track]
    return sum(t.values[b] for b in plan.boxes) + sum(f.slots[s].value for s in plan.slots)


def mob_absorb(f: Fighter, shifts: int, track: str, rules: RuleSet) -> tuple[int, int]:
    """Apply a hit to a mob, member by member.

    The current member absorbs what its boxes can; a hit beyond that takes it
    out, using up its capacity plus one shift (the shift that exceeds it), and
    the rest carries to the next member, who starts with clear boxes.
    Returns (members taken out, shifts absorbed by the survivor's boxes).
    """
    t = f.tracks[track]
    lost = 0
    while shifts > 0 and f.members > 0:
        free = t.free()
        if rules.one_box_per_hit:
            fits = [i for i in free if t.values[i] >= shifts]
            if fits:
                t.marked[min(fits, key=lambda i: t.values[i])] = True
                return lost, shifts
            cap = max((t.values[i] for i in free), default=0)
        else:
            if len(free) >= shifts:
                for i in free[:shifts]:
                    t.marked[i] = True
                return lost, shifts
            cap = len(free)
        shifts -= cap + 1
        f.members -= 1
        lost += 1
        for tr in f.tracks.values():  # the next member starts fresh
            tr.clear()
    return lost, 0
