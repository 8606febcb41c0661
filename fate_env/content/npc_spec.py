"""One-line NPC specs: a character written as a GM jots it down.

    "Thug x4: mob, Fight 2, Athletics 1"
    "Og: major, Fight 4, Physique 3, aspects: [Big and Mean, Hates Wizards]"
    "Sniper: minor, Shoot 3, stress 1, zone: roof, side: gang"

The name comes first (``xN`` after it makes N members: a mob), then a colon and comma-separated
items: the kind (``pc``, ``major``, ``minor`` or ``mob``), skills as ``NAME RATING`` (the name may
have spaces: ``Sense Motive 2``), ``stress N``, and ``key: value`` fields of the scene format
(``side``, ``zone``, ``high_concept``, ``trouble``, ``controller``, ``refresh``, ``fate_points``,
``weapon``, ``armor``, ``aspects: [A, B]``). :func:`parse` turns one into the mapping a scene's
``characters:`` entry holds; the scene loader checks it like any other (``scenes.py``).
"""

from __future__ import annotations

import re
from typing import Any

KINDS = ("pc", "major", "minor", "mob")
#: the ``key: value`` fields a spec may give, with how their value is read
FIELDS = {"side": str, "zone": str, "high_concept": str, "trouble": str, "controller": str, "refresh": int,
          "fate_points": int, "weapon": str, "armor": str, "aspects": list}
_HEAD = re.compile(r"^\s*(?P<name>[^:]+?)(?:\s+x(?P<count>\d+))?\s*:(?P<rest>.*)$")
_SKILL = re.compile(r"^(?P<skill>[A-Za-z][A-Za-z '\-]*?)\s+(?P<rating>-?\d+)$")


class SpecError(ValueError):
    """A spec that does not read; the message says which part and what was expected."""


def _items(rest: str) -> list[str]:
    """Split on commas outside brackets."""
    out, depth, cur = [], 0, []
    for ch in rest:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur).strip())
    return [x for x in out if x]


def _value(key: str, raw: str) -> Any:
    kind = FIELDS[key]
    raw = raw.strip()
    if kind is list:
        if not (raw.startswith("[") and raw.endswith("]")):
            raise SpecError(f"{key}: expected a bracketed list, e.g. {key}: [Big and Mean, Hates Wizards]")
        return [x.strip() for x in raw[1:-1].split(",") if x.strip()]
    if kind is int:
        if not re.fullmatch(r"\d+", raw):
            raise SpecError(f"{key}: expected a whole number, got {raw!r}")
        return int(raw)
    if key in ("weapon", "armor") and re.fullmatch(r"\d+", raw):
        return int(raw)
    return raw


def parse(text: str) -> dict[str, Any]:
    """The character mapping a one-line spec describes (without defaults the scene supplies)."""
    m = _HEAD.match(text)
    if not m:
        raise SpecError(f"expected 'Name: kind, Skill rating, ...' (e.g. 'Thug x4: mob, Fight 2'), got {text!r}")
    if "," in m["name"]:  # "Thug x4 mob, Fight 2, side: gang": the name ran on to the first colon
        raise SpecError(f"a colon is missing after the name: the part before the first colon is {m['name'].strip()!r}; "
                        f"write 'Name: kind, Skill rating, ...' (e.g. 'Thug x4: mob, Fight 2')")
    out: dict[str, Any] = {"name": m["name"].strip()}
    count = int(m["count"]) if m["count"] else None
    skills: dict[str, int] = {}
    for item in _items(m["rest"]):
        if ":" in item:
            key, raw = item.split(":", 1)
            key = key.strip().replace(" ", "_")
            if key not in FIELDS:
                from .suggest import did_you_mean
                raise SpecError(f"{key!r}{did_you_mean(key, FIELDS)}: expected one of {', '.join(FIELDS)} before a colon")
            out[key] = _value(key, raw)
        elif item.lower() in KINDS:
            out["kind"] = item.lower()
        elif (s := _SKILL.match(item)) is not None:
            name, rating = s["skill"].strip(), int(s["rating"])
            if name.lower() == "stress":
                out["stress"] = rating
            else:
                skills[name] = rating
        elif item.split()[0].lower() in FIELDS and len(item.split()) > 1:  # "side gang"
            key = item.split()[0].lower()
            raise SpecError(f"{item!r}: a colon is missing after {key!r}; write '{key}: {item.split(None, 1)[1]}'")
        else:
            raise SpecError(f"{item!r}: expected a kind ({', '.join(KINDS)}), 'Skill rating', 'stress N' or "
                            f"'key: value'")
    if "kind" not in out:
        if count is None:
            raise SpecError(f"{text!r}: expected a kind ({', '.join(KINDS)}) among the items")
        out["kind"] = "mob"
    if count is not None:
        if out["kind"] != "mob":
            raise SpecError(f"x{count}: only a mob has members; expected kind mob (or no kind)")
        out["count"] = count
    out["skills"] = skills
    return out


def expand(characters: dict[str, Any], zones: list[str], fail: Any, npcs: dict[str, Any] | None = None) -> dict[str, Any]:
    """A scene's ``characters`` (or ``reserves``) with every one-line spec read into its mapping.
    A spec without a zone starts in the scene's first zone; without a side, on the side every
    other NPC of the scene (of ``npcs`` when given) is on (refused when they are on several)."""
    if not any(isinstance(c, str) for c in characters.values()):
        return characters
    npc_sides = {c.get("side") for c in (characters if npcs is None else npcs).values()
                 if isinstance(c, dict) and c.get("kind") != "pc"}
    out: dict[str, Any] = {}
    for cid, c in characters.items():
        if not isinstance(c, str):
            out[cid] = c
            continue
        try:
            spec = parse(c)
        except SpecError as exc:
            fail(f"characters.{cid}", str(exc))
        if "zone" not in spec and zones:
            spec["zone"] = zones[0]
        if "side" not in spec:
            if len(npc_sides) != 1 or spec["kind"] == "pc":
                fail(f"characters.{cid}", "expected 'side: NAME' in the spec (no single NPC side to put it on)")
            spec["side"] = next(iter(npc_sides))
        out[cid] = spec
    return out


def slug(text: str, fallback: str) -> str:
    """An id from a name: transliterated to plain letters, never dropped (``Magané`` -> ``magane``,
    ``Ørsted`` -> ``orsted``, ``Дмитрий`` -> ``dmitriy``: anyascii), lower case, every other run of
    characters an ``_`` (``Dock Thug`` -> ``dock_thug``); ``fallback`` if nothing is left."""
    from anyascii import anyascii
    plain = anyascii(text)
    return re.sub(r"[^a-z0-9]+", "_", plain.lower()).strip("_") or fallback


def new_id(name: str, taken: set[str]) -> str:
    """An id for a character the GM adds or a file brings: its name's slug (``dock_thug``),
    numbered when taken (``dock_thug2``)."""
    base = slug(name, "npc")
    cid, n = base, 1
    while cid in taken:
        n += 1
        cid = f"{base}{n}"
    return cid
