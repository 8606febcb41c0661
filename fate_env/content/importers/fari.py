"""Fari character files (https://github.com/farirpgs/fari-app), in every layout Fari has shipped.

Fari's character model and its migrations (``lib/domains/character/CharacterFactory.tsx``,
``types.tsx``) give the layouts, by the file's ``version``:

* 1 and 2 (2020): the sheet at the top level: ``aspects``, ``stunts``, ``skills``,
  ``consequences`` (lists of ``{name, value}``), ``stressTracks`` (``{name, value}``, the boxes
  booleans in version 1, ``{checked, label}`` from 2), ``refresh`` and ``fatePoints``;
* 3: ``pages[].sections[]``, each section a label and ``blocks`` (a block: ``type`` Text,
  Skill, SlotTracker, PointCounter, ...; ``label``; ``value``; ``meta``), placed left or right;
* 4: ``pages[].sections.left[]`` and ``.right[]``;
* 5 and 6: ``pages[].rows[].columns[].sections[]`` (6 upper-cases the labels).

Fari's own templates are in several languages (its ``character-templates`` folder), and users
rename labels freely, so every label is read by meaning (``labels.py``). Older template files
sometimes lack ``fariType``; a file is taken as Fari's by its shape.
"""

from __future__ import annotations

from typing import Any, Callable

from ..safe_text import excerpt
from .labels import PYRAMID_ROW, aspect_role, is_fate_points, other_game, section_kind, severity, track_kind


class NoSections(ValueError):
    """A Fari file with no section on any page: nothing to read."""


class OtherGame(ValueError):
    """A Fari sheet of another game (Fari ships sheets for D&D and others): refused by name."""


def looks_like_fari(data: Any) -> bool:
    """A Fari character by its marker or, for files without one, by its shape."""
    if not isinstance(data, dict):
        return False
    if str(data.get("fariType", "")).lower() == "character":
        return True
    if isinstance(data.get("pages"), list) and isinstance(data.get("version"), int):
        return True
    return isinstance(data.get("stressTracks"), list) and isinstance(data.get("skills"), list)


def sections(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every section of every page, whatever the layout (version 1-2 sheets made into sections)."""
    if isinstance(data.get("stressTracks"), list):
        return _top_level_sections(data)
    if "pages" in data and not isinstance(data["pages"], list):
        raise ValueError(f"its 'pages' is {type(data['pages']).__name__}; expected a list of pages "
                         "(nothing is imported from it as it is)")
    if not isinstance(data.get("pages"), list):
        return _top_level_sections(data)
    out: list[dict[str, Any]] = []
    for page in data["pages"]:
        if not isinstance(page, dict):
            continue
        held = page.get("sections")
        if isinstance(held, list):                       # version 3
            out += held
        elif isinstance(held, dict):                     # version 4: {left: [...], right: [...]}
            for side in held.values():
                out += side if isinstance(side, list) else []
        for row in page.get("rows") or []:              # versions 5 and 6
            for col in (row or {}).get("columns") or []:
                out += (col or {}).get("sections") or []
    return [s for s in out if isinstance(s, dict)]


def _top_level_sections(data: dict[str, Any]) -> list[dict[str, Any]]:
    """A version 1 or 2 sheet as the sections Fari's own migration makes of it (v2 -> v3)."""
    def blocks(key: str, kind: str) -> list[dict[str, Any]]:
        return [{"type": kind, "label": item.get("name", ""), "value": item.get("value", "")}
                for item in data.get(key) or [] if isinstance(item, dict)]
    stress = []
    for st in data.get("stressTracks") or []:
        if isinstance(st, dict):
            boxes = [b if isinstance(b, dict) else {"checked": bool(b)} for b in st.get("value") or []]
            stress.append({"type": "SlotTracker", "label": st.get("name", ""), "value": boxes})
    fp = {"type": "PointCounter", "label": "Fate Points", "value": data.get("fatePoints"),
          "meta": {"isMainPointCounter": True, "max": data.get("refresh")}}
    return [{"label": data.get("aspectsLabel") or "Aspects", "blocks": blocks("aspects", "Text")},
            {"label": data.get("stuntsLabel") or "Stunts", "blocks": blocks("stunts", "Text")},
            {"label": data.get("skillsLabel") or "Skills", "blocks": blocks("skills", "Skill")},
            {"label": data.get("stressTracksLabel") or "Stress", "blocks": stress},
            {"label": data.get("consequencesLabel") or "Consequences", "blocks": blocks("consequences", "Text")},
            {"label": "Fate Points", "blocks": [fp]},
            {"label": data.get("notesLabel") or "Notes", "blocks": [{"type": "Text", "label": "Notes",
                                                                       "value": data.get("notes") or ""}]}]


def read_sheet(c, data: dict[str, Any], text: Callable[[Any], str], as_int: Callable[[Any], int | None],
               defaults: tuple[str, ...]) -> None:
    """Fill the record ``c`` (an ``Imported``) from a Fari character."""
    found = sections(data)
    if not found:
        raise NoSections("a Fari character without sections")
    labels = [str(x.get("label", "")) for s in found for x in [s, *(b for b in s.get("blocks") or []
                                                                     if isinstance(b, dict))]]
    other = other_game(labels)
    if other is not None:
        raise OtherGame(f"a {other[0]} sheet ({', '.join(other[1])}), not a Fate character: its abilities and "
                        "numbers are not Fate's skills; nothing imported")
    for section in found:
        kind = section_kind(str(section.get("label", "")))
        for b in section.get("blocks") or []:
            if isinstance(b, dict):
                _block(c, kind, str(section.get("label", "")), b, text, as_int, defaults)


def _block(c, kind: str | None, where: str, b: dict[str, Any], text, as_int, defaults) -> None:
    btype, label, value = b.get("type"), str(b.get("label") or ""), b.get("value")
    meta = b.get("meta") if isinstance(b.get("meta"), dict) else {}
    if btype == "Skill":
        _skill_block(c, label, value, as_int, defaults)
    elif btype == "SlotTracker":
        boxes = len(value) if isinstance(value, list) else 0
        track = track_kind(label) or (track_kind(where) if kind != "stress" else None)
        if kind not in ("stress", None) and track is None:
            c.notes.append(f"{where} / {label}: a box track, not a stress track; not imported")
        elif track is None:
            c.notes.append(f"stress track {label!r}: not physical or mental; not imported")
        else:
            c.stress[track] = boxes
    elif btype in ("PointCounter", "Numeric") and (meta.get("isMainPointCounter") or is_fate_points(label)):
        c.fate_points = as_int(value)
        c.refresh = as_int(meta.get("max"))
    elif btype in ("Text", "RichText"):
        _text_block(c, kind, where, label, text(value))
    elif btype in ("Link", "Image", "Separator", "DicePool", "Dice") or not str(value or "").strip():
        return
    else:
        c.notes.append(f"{where} / {label}: a {btype} block ({excerpt(str(value), 120)}); not imported")


def _skill_block(c, label: str, value: Any, as_int, defaults) -> None:
    row = PYRAMID_ROW.match(label)
    if row and (row["word"] is None or section_kind(row["word"]) == "skills"):  # "+4 Skills: Fight, Shoot"
        names = [n.strip() for n in row["names"].replace(";", ",").replace("/", ",").split(",") if n.strip()]
        for n in names:
            c.add_skill(n, int(row["rating"]))
        return
    if str(value or "").strip():
        c.add_skill(label, value)


def _text_block(c, kind: str | None, where: str, label: str, value: str) -> None:
    if kind is None:  # a section of no kind we know ("standard features"): the block's own label may say
        kind = section_kind(label)
    if kind == "aspects":
        c.add_aspect(aspect_role(label), value)
    elif kind == "stunts":
        if value:  # a slot's label ("Stunt #1", "Talento #2") is no name: the text's own comes first
            c.add_stunt_text(_title(value) if section_kind(label) == "stunts" else label, value)
    elif kind == "consequences":
        sev = severity(label)
        if sev:
            c.consequences[sev] = value
        elif value:
            c.notes.append(f"{where} / {label}: {excerpt(value, 200)!r}, not a consequence severity; not imported")
    elif kind == "notes" or section_kind(label) == "notes":
        return
    elif value:  # not imported, but never lost: its words go into the comment
        c.notes.append(f"{where} / {label}: {excerpt(value, 200)!r}; not imported")


def _title(text: str) -> str:
    """A stunt written as one text ("Swordmaster: +2 to Fight when ..."): its name before the colon."""
    head = text.split(":")[0] if ":" in text else text.split(".")[0]
    return head.strip()[:60]
