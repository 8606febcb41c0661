"""``fate-npc import``: characters from where GMs keep them, as a scene's ``characters:``.

Two sources: an actor exported from Foundry VTT's Fate Core Official system (right-click the
actor, Export Data: JSON with ``type: fate-core-official``, or one of the system's older type
names, and ``system.aspects / skills / stunts / tracks / details.fatePoints``), and a Fari
character file (``fariType: character``: pages of sections of blocks, the older
``pages[].sections`` or the newer ``pages[].rows[].columns[].sections``).

Everything is read into one plain :class:`Imported` record, then written as a scene's character
mapping. What the engine can check is mapped (skills, the high concept, trouble and other aspects,
fate points and refresh, bonus stunts of the "+N to SKILL when ACTION" kind, a minor NPC's stress
boxes); everything else is kept as text in comments and listed in :attr:`Imported.notes`, never
dropped without a word and never guessed into a rule.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..rules.skills import DEFAULT_SKILLS
from .safe_text import OneLineError

ACTIONS = {"overcome": "overcome", "caa": "create_advantage", "attack": "attack", "defend": "defend"}
#: how a stunt's text names an action ("+2 to Fight when you attack")
ACTION_WORDS = {"attack": "attack", "attacking": "attack", "defend": "defend", "defending": "defend",
                "overcome": "overcome", "overcoming": "overcome", "create an advantage": "create_advantage",
                "create advantages": "create_advantage", "creating an advantage": "create_advantage",
                "creating advantages": "create_advantage"}
_STUNT_TEXT = re.compile(
    r"\+\s*(?P<bonus>[1-4])\s+(?:to|on)\s+(?:all\s+|your\s+)*(?P<skill>[A-Z][A-Za-z]+)\s+(?:rolls?\s+)?"
    r"(?:when|while|to)\s+(?:you\s+)?(?:are\s+)?(?P<action>" + "|".join(sorted(ACTION_WORDS, key=len, reverse=True))
    + r")", re.I)
SEVERITIES = ("mild", "moderate", "severe", "extreme")
#: the Fate Core Official system's character actor types (its template.json: the system was ModularFate
#: before its rename, and kept the older names readable); its "Thing" actors are containers, not characters
FOUNDRY_CHARACTER_TYPES = ("fate-core-official", "FateCoreOfficial", "fateCoreOfficial", "ModularFate")


class ImportError_(OneLineError):
    """A file that is not a character export this importer reads, with why."""


@dataclass
class Imported:
    """One character as read from a file, before it becomes a scene's mapping."""

    name: str
    skills: dict[str, int] = field(default_factory=dict)
    high_concept: str | None = None
    trouble: str | None = None
    aspects: list[str] = field(default_factory=list)
    stunts: list[dict[str, Any]] = field(default_factory=list)      # the engine's bonus stunts
    stunt_texts: list[tuple[str, str]] = field(default_factory=list)  # (name, text) of every stunt
    stress: dict[str, int] = field(default_factory=dict)             # track -> boxes in the file
    consequences: dict[str, str] = field(default_factory=dict)       # severity -> what it holds ("" = open)
    fate_points: int | None = None
    refresh: int | None = None
    notes: list[str] = field(default_factory=list)                  # what could not be mapped, and why
    source: str = ""


def read(path: str) -> list[Imported]:
    """Every character in ``path`` (one, or a list of them)."""
    from .json_input import JSONInputError, load_json
    try:
        data = load_json(path, "Foundry actor export or a Fari character")
    except JSONInputError as exc:
        raise ImportError_(str(exc)) from None
    items = data if isinstance(data, list) else [data]
    out = []
    for i, item in enumerate(items):
        where = path if len(items) == 1 else f"{path}[{i}]"
        if isinstance(item, dict) and item.get("type") in FOUNDRY_CHARACTER_TYPES:
            out.append(_convert(from_foundry, item, where, "Foundry actor"))
        elif isinstance(item, dict) and item.get("type") == "Thing":
            raise ImportError_(f"{where}: a Foundry 'Thing' actor (a container or an object), not a character; "
                               "export the character's actor instead")
        elif isinstance(item, dict) and str(item.get("fariType", "")).lower() == "character":
            out.append(_convert(from_fari, item, where, "Fari character"))
        else:
            raise ImportError_(f"{where}: not a character this tool reads; expected a Foundry VTT actor of the "
                               "Fate Core Official system (type: fate-core-official) or a Fari character "
                               "(fariType: character)")
    return out


def _convert(convert, item: dict[str, Any], where: str, what: str) -> Imported:
    """``convert(item, where)``, with a part of an unexpected shape (a list where a mapping was
    expected, a missing section) refused in one line naming the file, not a traceback."""
    try:
        return convert(item, where)
    except ImportError_:
        raise
    except (AttributeError, TypeError, KeyError, IndexError, ValueError) as exc:
        raise ImportError_(f"{where}: a {what} laid out in a way this importer does not read "
                           f"({type(exc).__name__}: {exc}); see docs/play.md, fate-npc import") from None


# -- Foundry VTT: Fate Core Official ---------------------------------------------------

def from_foundry(actor: dict[str, Any], where: str) -> Imported:
    system = actor.get("system") or actor.get("data") or {}  # "data" in exports before Foundry v10
    c = Imported(str(actor.get("name") or "Unnamed"), source=where)
    for a in _values(system.get("aspects")):
        _aspect(c, str(a.get("name", "")), _text(a.get("value", "")))
    for s in _values(system.get("skills")):
        _skill(c, str(s.get("name", "")), s.get("rank", 0))
    for st in _values(system.get("stunts")):
        name, text = str(st.get("name", "Stunt")), _text(st.get("description", ""))
        c.stunt_texts.append((name, text))
        flags = [ACTIONS[k] for k in ACTIONS if st.get(k)]
        bonus, skill = st.get("bonus") or 0, st.get("linked_skill")
        if isinstance(bonus, int) and 1 <= bonus <= 4 and len(flags) == 1 and skill in c.skills:
            c.stunts.append({"name": name, "kind": "bonus", "skill": skill, "action": flags[0], "bonus": bonus})
        elif not _stunt_from_text(c, name, text):
            c.notes.append(f"stunt {name!r}: kept as text (not a +1..+4 bonus to one skill and one action)")
    for t in _values(system.get("tracks")):
        _track(c, t)
    fp = (system.get("details") or {}).get("fatePoints") or {}
    c.fate_points = _int(fp.get("current"))
    c.refresh = _int(fp.get("refresh"))
    if actor.get("items"):
        c.notes.append(f"{len(actor['items'])} item(s) (extras) not imported: the engine has no extras")
    return c


def _track(c: Imported, t: dict[str, Any]) -> None:
    name = str(t.get("name", ""))
    low = name.lower()
    severity = next((s for s in SEVERITIES if s in low), None)
    if severity is not None:
        aspect = t.get("aspect")
        held = aspect.get("name", "") if isinstance(aspect, dict) else ""
        c.consequences[severity] = _text(held)
        return
    if t.get("enabled") is False:
        return
    for track in ("physical", "mental"):
        if track in low and "stress" in low or low == track:
            c.stress[track] = int(t.get("boxes") or len(t.get("box_values") or []))
            return
    c.notes.append(f"track {name!r}: not a stress track or consequence the engine knows; not imported")


# -- Fari ----------------------------------------------------------------------------------

def from_fari(data: dict[str, Any], where: str) -> Imported:
    c = Imported(str(data.get("name") or "Unnamed"), source=where)
    for section in _fari_sections(data):
        label = str(section.get("label", "")).lower()
        for b in section.get("blocks") or []:
            kind, blabel, value = b.get("type"), str(b.get("label", "")), b.get("value")
            if kind == "Skill":
                if str(value or "").strip():
                    _skill(c, blabel, value)
            elif kind == "SlotTracker" and "stress" in label:
                track = blabel.lower()
                if track in ("physical", "mental"):
                    c.stress[track] = len(value or [])
                else:
                    c.notes.append(f"stress track {blabel!r}: not physical or mental; not imported")
            elif kind == "PointCounter" and "fate" in blabel.lower():
                c.fate_points = _int(value)
                c.refresh = _int((b.get("meta") or {}).get("max"))
            elif kind == "Text" and "aspect" in label:
                _aspect(c, blabel, _text(value))
            elif kind == "Text" and "stunt" in label:
                text = _text(value)
                if text:
                    name = text.split(":")[0].split(".")[0][:60] if ":" in text or "." in text else blabel
                    c.stunt_texts.append((name, text))
                    if not _stunt_from_text(c, name, text):
                        c.notes.append(f"stunt {name!r}: kept as text (no '+N to SKILL when ACTION' in it)")
            elif kind == "Text" and ("consequence" in label or "condition" in label):
                severity = next((s for s in SEVERITIES if s in blabel.lower()), None)
                if severity:
                    c.consequences[severity] = _text(value)
                else:
                    c.notes.append(f"{section.get('label')} {blabel!r}: not a consequence severity; not imported")
            elif kind in ("Text", "RichText") and str(value or "").strip() and "note" not in blabel.lower():
                c.notes.append(f"{section.get('label')} / {blabel}: not imported")
    return c


def _fari_sections(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Sections of every page: ``pages[].sections`` (version 3) or ``pages[].rows[].columns[].sections``."""
    out: list[dict[str, Any]] = []
    for page in data.get("pages") or []:
        out += page.get("sections") or []
        for row in page.get("rows") or []:
            for col in row.get("columns") or []:
                out += col.get("sections") or []
    if not out:
        raise ImportError_(f"{data.get('name')!r}: a Fari character without sections")
    return out


# -- shared --------------------------------------------------------------------------------

def _values(node: Any) -> list[dict[str, Any]]:
    if isinstance(node, dict):
        return [v for v in node.values() if isinstance(v, dict)]
    if isinstance(node, list):
        return [v for v in node if isinstance(v, dict)]
    return []


def _text(value: Any) -> str:
    """Plain text from a field that may hold HTML."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", str(value or ""))).split())


def _int(value: Any) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def _aspect(c: Imported, label: str, value: str) -> None:
    if not value:
        return
    low = label.lower()
    if "high concept" in low and c.high_concept is None:
        c.high_concept = value
    elif "trouble" in low and c.trouble is None:
        c.trouble = value
    else:
        c.aspects.append(value)


def _skill(c: Imported, name: str, rank: Any) -> None:
    n = _int(rank)
    if not name or n is None:
        c.notes.append(f"skill {name!r}: rating {rank!r} is not a whole number; not imported")
        return
    if n:
        c.skills[name.strip()] = n


def _stunt_from_text(c: Imported, name: str, text: str) -> bool:
    """A bonus stunt read from words like "+2 to Fight when you attack"."""
    m = _STUNT_TEXT.search(text)
    if not m or m["skill"] not in c.skills and m["skill"] not in DEFAULT_SKILLS:
        return False
    c.stunts.append({"name": name, "kind": "bonus", "skill": m["skill"], "action": ACTION_WORDS[m["action"].lower()],
                     "bonus": int(m["bonus"])})
    return True


def to_character(c: Imported, kind: str, side: str, zone: str) -> dict[str, Any]:
    """The scene mapping of one imported character (what the scene format can hold)."""
    out: dict[str, Any] = {"name": c.name, "kind": kind, "side": side, "zone": zone}
    if c.high_concept:
        out["high_concept"] = c.high_concept
    if c.trouble:
        out["trouble"] = c.trouble
    if c.aspects:
        out["aspects"] = list(c.aspects)
    out["skills"] = dict(c.skills)
    if c.stunts:
        out["stunts"] = [dict(s) for s in c.stunts]
    if kind in ("minor", "mob"):
        out["stress"] = min(3, c.stress.get("physical", c.stress.get("mental", 0)))
    if c.refresh is not None and c.refresh >= 1 and kind in ("pc", "major"):
        out["refresh"] = c.refresh
    if c.fate_points is not None and kind in ("pc", "major"):
        out["fate_points"] = c.fate_points
    return out


def check_against_rules(c: Imported, kind: str, built) -> list[str]:
    """What the file says that the rule set decides otherwise (stress boxes, consequences held,
    consequence slots), for a character built by the engine (``built``: its Fighter)."""
    notes = []
    if kind in ("pc", "major"):
        for track, boxes in c.stress.items():
            ours = len(built.tracks[track].values) if track in built.tracks else 0
            if ours != boxes:
                notes.append(f"{track} stress: {boxes} box(es) in the file, {ours} under the rule set (from the "
                             "skills; an extra_stress stunt adds boxes)")
        file_slots = {s for s in c.consequences}
        ours = {s.severity for s in built.slots}
        if file_slots and file_slots != ours:
            notes.append(f"consequence slots: {', '.join(sorted(file_slots))} in the file; the rule set gives "
                         f"{', '.join(sorted(ours)) or 'none'}")
    elif kind in ("minor", "mob") and c.stress.get("physical", 0) > 3:
        notes.append(f"stress: {c.stress['physical']} boxes in the file; a minor NPC has zero to three (003:1990)")
    if c.refresh is not None and c.refresh < 1 and kind in ("pc", "major"):
        notes.append(f"refresh {c.refresh} in the file: the scene format keeps refresh at 1 or more (003:396); left at the default")
    held = {s: v for s, v in c.consequences.items() if v}
    if held:
        notes.append("carries " + "; ".join(f"{s} {v!r}" for s, v in held.items())
                     + ": a scene starts without consequences; not imported")
    unknown = [s for s in c.skills if s not in DEFAULT_SKILLS]
    if unknown:
        notes.append(f"skills not in the default list ({', '.join(unknown)}): added to the scene's skills "
                     "(they attack or defend only through a use_skill stunt)")
    if any("when" not in s for s in c.stunts):
        notes.append("bonus stunts mapped without their circumstance: the engine applies each to every roll "
                     "of its skill and action; add 'when:' to narrow it to what its text says")
    return notes


#: members of an imported mob when --count does not say
MOB_COUNT = 3


def scene_fragment(chars: list[Imported], kind: str, side: str, zone: str, rules: str | None = None,
                   count: int | None = None) -> tuple[str, list[str]]:
    """The YAML a scene takes (``skills:`` if any are new, then ``characters:``), with what could
    not be mapped as comments; and those notes, each naming its character. Every character is
    checked by loading it in a scene of its own (a bad one raises SceneError)."""
    import yaml

    from .npc_spec import new_id
    from ..rules.engine import start
    from .scenes import scene_from_dict
    ids: dict[str, Imported] = {}
    for c in chars:
        ids[new_id(c.name, set(ids))] = c
    mapped = {cid: to_character(c, kind, side, zone) for cid, c in ids.items()}
    if kind == "mob":  # a mob is several of one sheet: how many is the GM's to say
        for m in mapped.values():
            m["count"] = count or MOB_COUNT
    elif count is not None:
        raise ImportError_(f"--count {count}: only a mob has members; expected --kind mob with it")
    custom = sorted({s for c in chars for s in c.skills if s not in DEFAULT_SKILLS})
    probe = {"name": "import", "zones": [{"id": zone}], "characters": dict(mapped), **({"skills": custom} if custom else {})}
    if rules:
        probe["rules"] = rules
    if len({m["side"] for m in mapped.values()}) < 2:  # a conflict needs someone to face
        probe["characters"]["__foe"] = {"kind": "minor", "side": f"not_{side}", "zone": zone, "skills": {"Fight": 1}}
    engine = start(scene_from_dict(probe, "<import>"), 0)
    notes: list[str] = []
    lines = ["# Characters imported by `fate-npc import`; paste into a scene (fate-npc validate checks it).", ""]
    if custom:
        lines += [f"skills: {json.dumps(custom)}   # skills of the imported sheets not in the default list", ""]
    lines.append("characters:")
    for cid, c in ids.items():
        own = c.notes + check_against_rules(c, kind, engine.t.f[cid])
        if kind == "mob" and count is None:
            own = [f"a mob of {MOB_COUNT} (--count N sets how many)", *own]
        notes += [f"{c.name}: {n}" for n in own]
        lines.append(f"  {cid}:   # from {c.source}")
        body = yaml.safe_dump(mapped[cid], sort_keys=False, allow_unicode=True, width=100)
        lines += ["    " + ln for ln in body.rstrip("\n").split("\n")]
        for name, text in c.stunt_texts:
            lines.append(f"    # stunt {name!r}: {text}" if text else f"    # stunt {name!r}")
        for n in own:
            lines.append(f"    # note: {n}")
    return "\n".join(lines) + "\n", notes
