"""Scenes as GMs write them, drawn at random: the distribution a general learned NPC trains on.

A seed gives one scene file's mapping (``scene(seed)``), the same on every machine; the loader reads
it as it reads a GM's file, so every scene here is one the tool would accept from a person. What a
scene holds, within :data:`LIMITS`:

* a map of 1-6 zones, connected, some borders hard to cross (with the aspect that says why), some
  blocking shots, some held by one of Fate Condensed's blocks (003:2300-2345);
* situation aspects, on the scene or on a zone;
* 2-16 characters of every kind: PCs with Condensed's skill pyramid (003:170-178), high concept,
  trouble, an aspect and stunts (003:402-415); major NPCs statted like them, a boss perhaps a step
  higher (003:1964-1971); nameless NPCs with one or two skills from Average to Good and 0-3 stress
  boxes (003:1975-1994); mobs of them;
* weapon and armor ratings when the rule set rates them (003:2675-2693);
* one of the four rule sets (their own dials, their own stress and consequences).

The shipped scenes are never drawn: they are held out to measure what was learned
(:func:`held_out`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..rules.skills import DEFAULT_SKILLS

RULE_SETS = ("condensed", "core", "fate2", "fate3")


@dataclass(frozen=True)
class Limits:
    """What a generated scene holds at most (and at least): the sizes a learned NPC is built for."""

    characters: tuple[int, int] = (2, 16)
    zones: tuple[int, int] = (1, 6)
    pcs: tuple[int, int] = (1, 4)
    mob_members: tuple[int, int] = (2, 6)
    scene_aspects: tuple[int, int] = (0, 4)


LIMITS = Limits()

#: the skills PCs and NPCs are drawn from: the fighting ones first (every sheet gets some of them)
COMBAT = ("Fight", "Shoot", "Athletics", "Physique", "Will", "Notice", "Provoke")
OTHER = tuple(s for s in DEFAULT_SKILLS if s not in COMBAT)
WORDS = {
    "zone": ("Courtyard", "Gatehouse", "Rooftops", "Cellar", "Bridge", "Market", "Chapel", "Alley", "Dock", "Hall"),
    "border": ("Rubble", "Narrow Stair", "Rope Bridge", "Locked Gate", "Sheer Wall"),
    "block": ("Barricade of Carts", "Wall of Flame", "Collapsed Beam"),
    "aspect": ("Thick Smoke", "Slick Cobbles", "Crowded", "Poor Light", "Rain-Lashed", "Crumbling Walls",
               "Echoing Vaults", "Scattered Crates"),
    "pc": ("Wandering Swordsman", "Hedge Wizard", "Disgraced Knight", "Street Thief", "Temple Healer",
           "Mercenary Archer", "Exiled Noble"),
    "trouble": ("Owes Everyone", "Can't Say No", "Hunted by the Guild", "Quick Temper", "Haunted Past"),
    "major": ("Cult Leader", "Bandit Chief", "Corrupt Captain", "Rival Duelist", "Beast of the Marsh"),
    "minor": ("Hired Blade", "Guard Dog", "Nervous Lookout", "Temple Guard", "Cutpurse"),
    "mob": ("Rabble", "Skeletons", "Wolves", "Cultists", "Militia"),
    "extra": ("Sharp Eyes", "Iron Will", "Light on Her Feet", "Old Scars", "Knows the Streets"),
}


def held_out() -> set[str]:
    """The digests of the shipped scenes: never in a training set (content.digests)."""
    from .digests import scene_digest
    from .scenes import list_scenes, load_scene
    return {scene_digest(load_scene(name)) for name in list_scenes()}


def _pick(rng: np.random.Generator, words: tuple[str, ...], used: set[str]) -> str:
    free = [w for w in words if w not in used] or list(words)
    w = free[int(rng.integers(len(free)))]
    if w in used:  # every word taken: number it
        n = 2
        while f"{w} {n}" in used:
            n += 1
        w = f"{w} {n}"
    used.add(w)
    return w


def _pyramid(rng: np.random.Generator, peak: int) -> dict[str, int]:
    """Condensed's pyramid topped at ``peak`` (003:170-178: one Great, two Good, three Fair, four
    Average), the fighting skills drawn first."""
    fighting = list(rng.permutation(COMBAT))
    rest = list(rng.permutation(OTHER))
    order = fighting[:4] + rest[:2] + fighting[4:] + rest[2:]
    out: dict[str, int] = {}
    at = 0
    for rating in range(peak, 0, -1):
        for _ in range(peak - rating + 1):
            if at < len(order):
                out[str(order[at])] = rating
                at += 1
    return out


def _stunt(rng: np.random.Generator, skills: dict[str, int], zones: int) -> dict[str, Any]:
    """A narrow +2 (003:402-415) on one of the sheet's fighting skills (a circumstance that can
    happen on this map: another zone only where there is one)."""
    skill = max((s for s in skills if s in COMBAT), key=lambda s: (skills[s], s))
    action = "defend" if skill in ("Athletics", "Will") else "attack" if skill in ("Fight", "Shoot", "Provoke") \
        else "create_advantage"
    when = [None, "same_zone", "other_zone"][int(rng.integers(3 if zones > 1 else 2))] if action == "attack" else None
    out = {"kind": "bonus", "skill": skill, "action": action, "bonus": 2}
    if when and not (skill == "Fight" and when == "other_zone"):
        out["when"] = when
    return out


def _character(rng, kind: str, side: str, zone: str, used: set[str], gear: bool, pc_peak: int,
               zones: int) -> dict[str, Any]:
    c: dict[str, Any] = {"kind": kind, "side": side, "zone": zone}
    if kind in ("pc", "major"):
        peak = pc_peak if kind == "pc" else int(np.clip(pc_peak + rng.integers(-1, 2), 2, 6))
        c["high_concept"] = _pick(rng, WORDS["pc" if kind == "pc" else "major"], used)
        c["trouble"] = _pick(rng, WORDS["trouble"], used)
        if rng.random() < 0.6:
            c["aspects"] = [_pick(rng, WORDS["extra"], used)]
        c["skills"] = _pyramid(rng, peak)
        n = int(rng.integers(0, 3))
        stunts = []
        for _ in range(n):
            st = _stunt(rng, c["skills"], zones)
            if st not in stunts:
                stunts.append(st)
        if stunts:
            c["stunts"] = stunts
        if kind == "pc":
            c["fate_points"] = int(rng.integers(1, 4))
    else:
        c["high_concept"] = _pick(rng, WORDS[kind], used)
        first = str(rng.choice(["Fight", "Shoot", "Provoke"], p=[0.6, 0.3, 0.1]))
        c["skills"] = {first: int(rng.integers(1, 4))}
        if rng.random() < 0.6:
            second = "Athletics" if first != "Athletics" else "Physique"
            c["skills"][second] = int(rng.integers(1, c["skills"][first] + 1))
        c["stress"] = int(rng.integers(0, 4))
        if kind == "mob":
            c["count"] = int(rng.integers(LIMITS.mob_members[0], LIMITS.mob_members[1] + 1))
    if gear:
        c["weapon"] = int(rng.integers(0, 3))
        c["armor"] = int(rng.integers(0, 2))
    return c


def scene(seed: int, rules: str | None = None, limits: Limits = LIMITS) -> dict[str, Any]:
    """The scene file mapping seed ``seed`` draws (``rules``: that rule set, else one of the four)."""
    from .scenes import load_rules
    rng = np.random.default_rng([seed, 53])
    rules = rules or RULE_SETS[int(rng.integers(len(RULE_SETS)))]
    rs = load_rules(rules)
    gear = bool(rs.weapons)
    used: set[str] = set()
    nz = int(rng.integers(limits.zones[0], limits.zones[1] + 1))
    zones = [{"id": f"z{i + 1}", "name": _pick(rng, WORDS["zone"], used)} for i in range(nz)]
    borders = []
    for i in range(1, nz):  # a tree first (the map is connected), then a shortcut or two
        borders.append([f"z{int(rng.integers(i)) + 1}", f"z{i + 1}"])
    pairs = {frozenset(b) for b in borders}
    for _ in range(int(rng.integers(0, 3))):
        a, b = (int(x) + 1 for x in rng.choice(nz, 2, replace=False)) if nz > 1 else (1, 1)
        if a != b and frozenset((f"z{a}", f"z{b}")) not in pairs:
            borders.append([f"z{a}", f"z{b}"])
            pairs.add(frozenset((f"z{a}", f"z{b}")))
    out_borders = []
    for between in borders:
        b: dict[str, Any] = {"between": between}
        roll = rng.random()
        if roll < 0.25:
            b["difficulty"] = int(rng.integers(1, 3))
            b["aspect"] = _pick(rng, WORDS["border"], used)
        elif roll < 0.35:
            b["block"] = {"name": _pick(rng, WORDS["block"], used), "rating": int(rng.integers(2, 5))}
        if rng.random() < 0.1:
            b["blocks_ranged"] = True
        out_borders.append(b)
    aspects = []
    for _ in range(int(rng.integers(limits.scene_aspects[0], limits.scene_aspects[1] + 1))):
        a: dict[str, Any] = {"name": _pick(rng, WORDS["aspect"], used)}
        if rng.random() < 0.5:
            a["zone"] = zones[int(rng.integers(nz))]["id"]
        aspects.append(a)
    aspects += [{"name": b["aspect"]} for b in out_borders if "aspect" in b]
    n = int(rng.integers(limits.characters[0], limits.characters[1] + 1))
    n_pcs = int(rng.integers(limits.pcs[0], min(limits.pcs[1], n - 1) + 1))
    pc_peak = int(rng.integers(3, 6))
    home = zones[int(rng.integers(nz))]["id"]
    characters: dict[str, Any] = {}
    for i in range(n_pcs):
        characters[f"pc{i + 1}"] = _character(rng, "pc", "pcs", home, used, gear, pc_peak, nz)
    kinds = ("major", "minor", "mob")
    for i in range(n - n_pcs):
        kind = kinds[int(rng.choice(3, p=[0.2, 0.5, 0.3]))] if i else kinds[int(rng.integers(3))]
        zone = zones[int(rng.integers(nz))]["id"]
        characters[f"npc{i + 1}"] = _character(rng, kind, "npcs", zone, used, gear, pc_peak, nz)
    return {"name": f"generated_{seed}", "title": f"Generated scene {seed}", "rules": rules,
            "shoot_range": int(rng.integers(0, 3)), "zones": zones, "borders": out_borders, "aspects": aspects,
            "characters": characters}
