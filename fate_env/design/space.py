"""What `fate-npc design` may change on the designed side, inside Fate's guidelines for NPCs.

Every knob is an integer with its value as written, so a candidate is a plain mapping and "how far
from the scene as written" is a count. The guidelines (003:1964-2006):

* nameless NPCs (``minor``, and each member of a ``mob``): one or two skills from Average to Good,
  zero to three stress boxes, no consequences (the engine gives them none), one aspect and at most
  two more, perhaps a stunt (003:1975-1994). How many of each kind is a knob: a nameless NPC may be
  left out or copied, a mob grows or shrinks.
* major NPCs: statted like a PC, a boss may have a higher peak skill and more stunts (003:1964-1971):
  every skill moves together by ``shift`` (its peak kept within two of the PCs' peak), and up to two
  designed stunts (a narrow +2 to attack with its peak skill, 003:402-415; one more mild
  consequence). Its consequences are its rule set's (Core's, Condensed's, FATE 2.0's track...): the
  shapes the scene's rule set gives every major character.
* weapons and armor (0-2) where the rule set rates them (the ``weapons`` dial, 003:2675-2693).

The PCs, the map, the scene's aspects and every other field stay exactly as written.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from typing import Any

#: Average (+1) to Good (+3): a nameless NPC's skills (003:1984-1986, the issue's guideline)
NAMELESS_SKILLS = (1, 3)
#: a nameless NPC's stress boxes (003:1988)
NAMELESS_STRESS = (0, 3)
#: members a designed mob may have (a mob is two or more)
MOB_MEMBERS = (2, 10)
#: copies of a nameless NPC as written (0: left out)
NAMELESS_COPIES = (0, 4)
#: a major NPC's skills move together by at most this much
MAJOR_SHIFT = 2
#: how far a major NPC's peak may rise above the PCs' peak (a boss, 003:1968-1971)
BOSS_PEAK = 2
#: weapon and armor ratings a designed NPC may carry when the rule set rates them
GEAR = (0, 2)
#: aspects a nameless NPC may gain beyond its high concept (003:1978-1981: "another aspect or two")
EXTRA_ASPECTS = (0, 2)
#: the aspects the designer adds, in order: words that fit any fighter, for the GM to rename
ASPECT_WORDS = ("Ready for Trouble", "Knows the Ground")
#: the id of the nameless NPCs the designer may add to the side, and how many at most (one: a minor NPC;
#: two or more: a mob)
ADDED, ADDED_MEMBERS = "added", 8
#: what a designed stunt is called (the GM renames it)
STUNT_NAMES = {"attack": "Designed: Pressing Edge", "mild": "Designed: Hard to Put Down"}
#: how a designed NPC spreads its attention: the scripted policies a GM would pick between for whom a
#: thug goes for (its ``controller``), each in a GM's words (agents/basic.py, agents/tactics.py)
ATTENTION = (("basic", "goes for the best odds in reach"), ("brute", "engages the nearest foe"),
             ("tactician", "sets up on the most wounded foe, then strikes it"),
             ("spreader", "spreads its blows: strikes the foe with the most left to take"))
ATTENTION_NAMES = tuple(name for name, _ in ATTENTION)


class DesignError(ValueError):
    """A scene or a side the designer cannot work on: one line, nothing written."""


@dataclass(frozen=True)
class Knob:
    """One integer the search sets: its range and its value in the scene as written."""

    name: str
    low: int
    high: int
    written: int
    what: str
    labels: tuple[str, ...] = ()  # what each value stands for (a zone's id, a policy), where not a number

    def show(self, value: int) -> str:
        return self.labels[value] if self.labels else str(value)


def _attack_skill(c: dict[str, Any]) -> str:
    """A character's peak attack skill (Fight unless its Shoot or Provoke is higher)."""
    skills = c.get("skills", {})
    return max(("Fight", "Shoot", "Provoke"), key=lambda s: (skills.get(s, 0), s == "Fight"))


def pc_peak(data: dict[str, Any]) -> int:
    return max((max(c.get("skills", {}).values(), default=0) for c in data["characters"].values()
                if c.get("kind") == "pc"), default=4)


def designed_ids(data: dict[str, Any], side: str) -> list[str]:
    return [cid for cid, c in data["characters"].items() if c.get("side") == side]


def knobs(data: dict[str, Any], side: str, gear: bool, controlled: frozenset[str] = frozenset()) -> list[Knob]:
    """The knobs of ``side`` in ``data`` (characters already expanded), each NPC's in file order: its
    numbers, where it starts (a zone of the map) and how it spreads its attention (ATTENTION), unless
    ``controlled`` (the ids --control names) fixes who plays it."""
    ids = designed_ids(data, side)
    if not ids:
        raise DesignError(f"--side {side}: no character of the scene is on that side; its sides are "
                          f"{', '.join(sorted({c['side'] for c in data['characters'].values()}))}")
    if any(data["characters"][c].get("kind") == "pc" for c in ids):
        raise DesignError(f"--side {side}: that is the PCs' side; the designer keeps the PCs as written and "
                          "designs their opposition (name the NPCs' side)")
    peak = pc_peak(data)
    needed = referenced(data)
    optional = may_sit_out(data, ids)
    out: list[Knob] = []
    for cid in ids:
        c = data["characters"][cid]
        kind = c.get("kind")
        top = max(c.get("skills", {}).values(), default=0)
        if kind in ("minor", "mob"):
            lo, hi = NAMELESS_SKILLS
            out.append(Knob(f"{cid}.skill", lo, hi, top, "its best skill (the others move with it)"))
            out.append(Knob(f"{cid}.stress", *NAMELESS_STRESS, int(c.get("stress", 2 if kind == "minor" else 1)),
                            "stress boxes" + (" per member" if kind == "mob" else "")))
            if kind == "minor":
                low = 1 if cid in needed else NAMELESS_COPIES[0]  # another field names it: it stays
                out.append(Knob(f"{cid}.copies", low, NAMELESS_COPIES[1], 1, "how many of it"))
            else:
                out.append(Knob(f"{cid}.count", *MOB_MEMBERS, int(c.get("count", 2)), "members"))
                if cid in optional:
                    out.append(_presence(cid, needed))
            extra = len(c.get("aspects", []))
            out.append(Knob(f"{cid}.aspects", EXTRA_ASPECTS[0], max(EXTRA_ASPECTS[1], extra), extra,
                            "aspects beyond its high concept"))
            out.append(Knob(f"{cid}.stunt", 0, 1, 0, "a designed +2 attack stunt"))
        elif kind == "major":
            lo = max(-MAJOR_SHIFT, 1 - top)
            hi = min(MAJOR_SHIFT, peak + BOSS_PEAK - top)
            out.append(Knob(f"{cid}.shift", min(lo, 0), max(hi, 0), 0, "every skill moves by this"))
            out.append(Knob(f"{cid}.stunts", 0, 2, 0, "designed stunts (a +2 attack, one more mild consequence)"))
            if cid in optional:
                out.append(_presence(cid, needed))
        if gear and kind != "pc":
            out.append(Knob(f"{cid}.weapon", *GEAR, _rating(c.get("weapon", 0)), "weapon rating"))
            out.append(Knob(f"{cid}.armor", *GEAR, _rating(c.get("armor", 0)), "armor rating"))
        out += _place_and_attention(data, cid, c.get("zone"), c.get("controller", "basic"), controlled)
    out.append(Knob(f"{ADDED}.count", 0, ADDED_MEMBERS, 0, "nameless NPCs added (1: one, 2 or more: a mob)"))
    out.append(Knob(f"{ADDED}.skill", *NAMELESS_SKILLS, 2, "the added nameless NPCs' attack skill"))
    out.append(Knob(f"{ADDED}.stress", *NAMELESS_STRESS, 1, "the added nameless NPCs' stress boxes (each)"))
    out += _place_and_attention(data, ADDED, data["characters"][ids[0]].get("zone"), "basic",
                                controlled if side not in controlled else frozenset({ADDED}))
    return out


def may_sit_out(data: dict[str, Any], ids: list[str]) -> set[str]:
    """The major NPCs and mobs the design may leave out: where the side brings more of them than there
    are PCs (a lone PC against a captain, a duelist and their gang is no fight to balance), every one
    but the first (the side's lead); else none, so the search spends its trials on the rest."""
    pcs = sum(1 for c in data["characters"].values() if c.get("kind") == "pc")
    big = [cid for cid in ids if data["characters"][cid].get("kind") in ("major", "mob")]
    return set(big[1:]) if len(big) > pcs else set()


def _presence(cid: str, needed: set[str]) -> Knob:
    """Whether a major NPC or a mob takes part: a GM sets who shows up to a fight as much as how strong
    they are. One that another field names stays."""
    return Knob(f"{cid}.present", 1 if cid in needed else 0, 1, 1, "takes part (0: sits this fight out)")


def copies(values: dict[str, int], cid: str) -> int:
    """How many of an NPC a candidate puts in the fight (0: left out)."""
    return values.get(f"{cid}.copies", values.get(f"{cid}.present", 1))


def zone_ids(data: dict[str, Any]) -> list[str]:
    return [z["id"] for z in data.get("zones", []) if isinstance(z, dict) and "id" in z]


def within_reach(data: dict[str, Any], written_zone: str) -> list[str]:
    """Where the design may start an NPC: where it is written, where a PC starts, or one border from a
    PC (in the map's order). A GM sets the opposition where the fight is; farther off, NPCs the PCs
    cannot reach make stand-offs that end at the exchange cap, not fights."""
    pcs = {c.get("zone") for c in data["characters"].values() if c.get("kind") == "pc"}
    near = set(pcs) | {written_zone}
    for b in data.get("borders", []):
        pair = b.get("between", []) if isinstance(b, dict) else []
        if len(pair) == 2 and (pair[0] in pcs or pair[1] in pcs):
            near.update(pair)
    return [z for z in zone_ids(data) if z in near]


def _place_and_attention(data: dict[str, Any], cid: str, zone: str | None, controller: str,
                         controlled: frozenset[str]) -> list[Knob]:
    """Where ``cid`` starts (where the map has a choice) and whom it goes for (where its controller as
    written is one of ATTENTION and --control does not name it or its side)."""
    out = []
    zones = within_reach(data, zone) if zone in zone_ids(data) else []
    if len(zones) > 1:
        out.append(Knob(f"{cid}.zone", 0, len(zones) - 1, zones.index(zone), "where it starts", tuple(zones)))
    side = data["characters"].get(cid, {}).get("side")
    if controller in ATTENTION_NAMES and cid not in controlled and side not in controlled:
        out.append(Knob(f"{cid}.attention", 0, len(ATTENTION) - 1, ATTENTION_NAMES.index(controller),
                        "whom it goes for (its controller)", ATTENTION_NAMES))
    return out


def referenced(data: dict[str, Any]) -> set[str]:
    """The characters another field names (who opens, who leads or protects whom, a true form):
    the designer never leaves them out."""
    out = {data.get("first")} if data.get("first") else set()
    for c in data["characters"].values():
        out.update(x for x in (c.get("leads"), c.get("true_form")) if x)
        out.update(c.get("protected_by", []))
    return out


def _rating(v: Any) -> int:
    return v if isinstance(v, int) else 0


def written(ks: list[Knob]) -> dict[str, int]:
    """The scene as written, each knob brought inside its guideline (a nameless NPC written Great
    starts at Good: the search's first candidate; it counts as a knob moved)."""
    return {k.name: min(k.high, max(k.low, k.written)) for k in ks}


#: the knobs that make the designed side stronger as they rise; the others (where an NPC starts, whom it
#: goes for) shape the fight without making the side stronger or weaker as such
STRENGTH = (".skill", ".stress", ".copies", ".count", ".present", ".shift", ".stunts", ".stunt", ".weapon", ".armor",
            ".aspects")


#: the golden ratio's fraction: the points at which the knobs step (toward) spread evenly, whatever their number
GOLDEN = (math.sqrt(5) - 1) / 2


def toward(ks: list[Knob], values: dict[str, int], alpha: float) -> dict[str, int]:
    """``values`` with every strength knob (STRENGTH) moved the fraction ``alpha`` of the way to its
    strongest setting (``alpha`` > 0) or its weakest (< 0), and the rest as they are: the whole side
    toned up or down together, as a GM first does with opposition too strong or too weak. Each knob
    steps at its own points along the way (staggered by the golden ratio), so that a side of many
    two-valued knobs (who shows up) changes a few at a time, not all at one fraction."""
    out = dict(values)
    strength = [k for k in ks if k.name.endswith(STRENGTH)]
    for j, k in enumerate(strength):
        end = k.high if alpha > 0 else k.low
        span = abs(end - values[k.name])
        step = min(span, math.floor(abs(alpha) * span + ((j + 1) * GOLDEN) % 1.0))
        out[k.name] = values[k.name] + (step if end >= values[k.name] else -step)
    return out


def counted(k: Knob) -> bool:
    """Whether a knob says how many (the others shape what is there)."""
    return k.name.endswith((".copies", ".present")) or k.name == f"{ADDED}.count"


def absent(ks: list[Knob], values: dict[str, int]) -> set[str]:
    """The NPCs a candidate leaves out (or does not add): their other knobs do not matter."""
    return {k.name.rsplit(".", 1)[0] for k in ks if counted(k) and values[k.name] == 0}


def moved(ks: list[Knob], values: dict[str, int]) -> int:
    """How many knobs a candidate sets away from the scene as written (an NPC left out counts
    once: its other knobs no longer matter)."""
    gone = absent(ks, values)
    return sum(1 for k in ks if values[k.name] != k.written
               and (counted(k) or k.name.rsplit(".", 1)[0] not in gone))


def _shift_skills(skills: dict[str, int], delta: int, lo: int, hi: int) -> dict[str, int]:
    return {s: max(lo, min(hi, v + delta)) if v > 0 else v for s, v in skills.items()}


def _stunt(c: dict[str, Any], which: str) -> dict[str, Any]:
    if which == "mild":
        return {"name": STUNT_NAMES["mild"], "kind": "extra_mild", "track": "physical"}
    skill = _attack_skill(c)
    when = "same_zone" if skill == "Fight" else "other_zone" if skill == "Shoot" else None
    out = {"name": STUNT_NAMES["attack"], "kind": "bonus", "skill": skill, "action": "attack", "bonus": 2}
    if when:
        out["when"] = when
    return out


def designed_npc(c: dict[str, Any], cid: str, values: dict[str, int], peak: int,
                 data: dict[str, Any] | None = None) -> dict[str, Any]:
    """One NPC as the candidate sets it (copies are made by :func:`apply`); ``data``: the scene (the
    zones within reach a zone knob points among)."""
    c = copy.deepcopy(c)
    kind = c.get("kind")
    skills = c.get("skills", {})
    top = max(skills.values(), default=0)
    if kind in ("minor", "mob"):
        target = values[f"{cid}.skill"]
        c["skills"] = _shift_skills(skills, target - top, *NAMELESS_SKILLS)
        c["stress"] = values[f"{cid}.stress"]
        if kind == "mob":
            c["count"] = values[f"{cid}.count"]
        have = list(c.get("aspects", []))
        n = values[f"{cid}.aspects"]
        extra = [w for w in ASPECT_WORDS if w not in have]
        c["aspects"] = have[:n] + extra[:max(0, n - len(have))]
        if not c["aspects"]:
            c.pop("aspects")
        if values[f"{cid}.stunt"]:
            c["stunts"] = list(c.get("stunts", [])) + [_stunt(c, "attack")]
    elif kind == "major":
        delta = values[f"{cid}.shift"]
        c["skills"] = _shift_skills(skills, delta, 1, max(peak + BOSS_PEAK, top))
        n = values[f"{cid}.stunts"]
        c["stunts"] = list(c.get("stunts", [])) + [_stunt(c, w) for w in ("attack", "mild")[:n]]
        if not c["stunts"]:
            c.pop("stunts")
    if f"{cid}.weapon" in values:
        c["weapon"] = values[f"{cid}.weapon"]
        c["armor"] = values[f"{cid}.armor"]
    return _placed(c, cid, values, data)


def _placed(c: dict[str, Any], cid: str, values: dict[str, int], data: dict[str, Any] | None) -> dict[str, Any]:
    """``c`` starting where ``values`` put it (among the zones within reach of where it is written) and
    playing the attention they chose (as written where the design has no such knob for it)."""
    if f"{cid}.zone" in values and data is not None:
        c["zone"] = within_reach(data, c["zone"])[values[f"{cid}.zone"]]
    if f"{cid}.attention" in values:
        chosen = ATTENTION_NAMES[values[f"{cid}.attention"]]
        if chosen != c.get("controller", "basic"):
            c["controller"] = chosen
    return c


def apply(data: dict[str, Any], side: str, values: dict[str, int]) -> dict[str, Any]:
    """The scene data with ``side`` designed as ``values`` say: every other character and field as
    written. A nameless NPC with two copies is written as two characters (``thug1``, ``thug1_2``);
    with none it is left out. A side left empty keeps one of its first nameless NPC."""
    peak = pc_peak(data)
    out: dict[str, Any] = {}
    ids = set(designed_ids(data, side))
    placed = False
    for cid, c in data["characters"].items():
        if cid not in ids:
            out[cid] = c
            continue
        if placed:
            continue
        placed = True  # the designed side goes where its first character was, in its order
        out.update(designed_side(data, side, values, peak))
    return {**data, "characters": out}


def _free_id(data: dict[str, Any], taken: dict[str, Any], want: str) -> str:
    key, n = want, 1
    while key in data["characters"] or key in taken:
        n += 1
        key = f"{want}_{n}"
    return key


def designed_side(data: dict[str, Any], side: str, values: dict[str, int], peak: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    ids = designed_ids(data, side)
    for cid in ids:
        c = data["characters"][cid]
        npc = designed_npc(c, cid, values, peak, data)
        for i in range(copies(values, cid)):
            key = cid if i == 0 else _free_id(data, out, f"{cid}_{i + 1}")
            out[key] = npc if i == 0 else {**npc, "name": f"{npc.get('name', cid)} {i + 1}"}
    n = values.get(f"{ADDED}.count", 0)
    if n:
        out[_free_id(data, out, ADDED)] = added_npc(data, side, values)
    if not out:  # every nameless NPC left out: the side keeps one (there is no fight without it)
        cid = ids[0]
        out[cid] = designed_npc(data["characters"][cid], cid, values, peak, data)
    return out


def added_npc(data: dict[str, Any], side: str, values: dict[str, int]) -> dict[str, Any]:
    """The nameless NPCs the design adds: one minor NPC, or a mob of them, where the side's first
    character starts, fighting with its peak attack skill (Average to Good, 003:1984-1988)."""
    first = data["characters"][designed_ids(data, side)[0]]
    n, skill = values[f"{ADDED}.count"], values[f"{ADDED}.skill"]
    out = {"name": "Designed Henchmen" if n > 1 else "Designed Henchman", "kind": "mob" if n > 1 else "minor",
           "side": side, "zone": first["zone"], "high_concept": "Hired Help",
           "skills": {_attack_skill(first): skill, "Athletics": max(1, skill - 1)}, "stress": values[f"{ADDED}.stress"]}
    if n > 1:
        out["count"] = n
    return _placed(out, ADDED, values, data)
