"""``fate-npc import``: characters from where GMs keep them, as a scene's ``characters:``.

Two sources, each in every shape it has shipped (see the modules): Foundry VTT actors of the Fate
Core Official system (``foundry.py``) and Fari character files (``fari.py``). Labels are read by
meaning in the languages the sheets are written in (``labels.py``); stunts by their words
(``stunts.py``).

Everything is read into one plain :class:`Imported` record, then written as a scene's character
mapping. What the engine can check is mapped (skills, the high concept, trouble and other aspects,
fate points and refresh, stunts of the kinds the engine plays, a minor NPC's stress boxes);
everything else is kept as text in YAML comments and listed in :attr:`Imported.notes`, never
dropped without a word and never guessed into a rule. ``--strict`` refuses a file with anything
unmapped.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from typing import Any

from ...rules.engine import start
from ...rules.skills import DEFAULT_SKILLS
from ..json_input import MAX_BYTES, JSONInputError, load_json, loads
from ..npc_spec import new_id
from ..safe_text import OneLineError
from ..scenes import SIZE_LIMITS, scene_from_dict, schema
from ..yaml_input import InputTooLarge, read_bounded
from . import fari, foundry
from .labels import fold, skill_name
from .stunts import read_stunt


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
    stunts: list[dict[str, Any]] = field(default_factory=list)      # the stunts the engine plays
    stunt_texts: list[tuple[str, str, str]] = field(default_factory=list)  # (name, text, what it became)
    stress: dict[str, int] = field(default_factory=dict)             # track -> boxes in the file
    consequences: dict[str, str] = field(default_factory=dict)       # severity -> what it holds ("" = open)
    fate_points: int | None = None
    refresh: int | None = None
    notes: list[str] = field(default_factory=list)                  # what could not be mapped, and why
    renamed: list[str] = field(default_factory=list)                # skills read by meaning ("Kämpfen -> Fight")
    source: str = ""

    def add_skill(self, label: str, rank: Any) -> None:
        n = _int(rank)
        label = " ".join(str(label).split())
        if not label or n is None:
            self.notes.append(f"skill {label!r}: rating {rank!r} is not a whole number; not imported")
            return
        name, translated = skill_name(label, DEFAULT_SKILLS)
        low, high = _skill_range()
        if not low <= n <= high:  # a stress-test sheet's 999: the character comes in without that skill
            self.notes.append(f"skill {name!r}: rated {n}, off the ladder a scene takes ({low} to {high}); "
                              "not imported")
            return
        if translated:
            self.renamed.append(f"{label} -> {name}")
        if n:
            self.skills[name] = max(n, self.skills.get(name, n))

    def add_aspect(self, role: str, value: str) -> None:
        if not value:
            return
        if role == "high_concept" and self.high_concept is None:
            self.high_concept = value
        elif role == "trouble" and self.trouble is None:
            self.trouble = value
        else:
            self.aspects.append(value)

    def add_stunt(self, stunt: dict[str, Any], text: str, what: str) -> None:
        self.stunts.append(stunt)
        self.stunt_texts.append((stunt["name"], text, f"played: {what}"))

    def add_stunt_text(self, name: str, text: str) -> None:
        """A stunt known only by its words: mapped if they say something the engine plays."""
        got = read_stunt(name, text, self.skill_of)
        if got.stunt is not None:
            self.add_stunt(got.stunt, text, got.why)
        else:
            self.stunt_texts.append((name, text, f"kept as text: {got.why}"))

    def kept_stunts(self) -> list[str]:
        """The stunts kept as text, each said once: in the YAML by its own comment (with its words),
        and in what ``--strict`` refuses and the terminal lists."""
        prefix = "kept as text: "
        return [f"stunt {name!r}: kept as text ({what.removeprefix(prefix)})" for name, _, what in self.stunt_texts
                if what.startswith(prefix)]

    def skill_of(self, word: str) -> str | None:
        """The skill a stunt's text names (``fight`` -> ``Fight``), of this sheet or the default list."""
        folded = fold(word)
        for s in [*self.skills, *DEFAULT_SKILLS]:
            if fold(s) == folded:
                return s
        name, translated = skill_name(word, DEFAULT_SKILLS)
        return name if translated else None


def read(path: str) -> list[Imported]:
    """Every character in ``path``: one, a list of them, or a compendium pack (one per line)."""
    try:
        data = load_json(path, "Foundry actor export or a Fari character")
    except JSONInputError as exc:
        lines = _json_lines(path)
        if lines is None:
            raise ImportError_(str(exc)) from None
        data = lines
    items = data if isinstance(data, list) else [data]
    _check_count(path, len(items), "a list")
    held = foundry.other_documents(items)
    if held is not None:
        raise ImportError_(f"{path}: {held}; import reads actors (export the characters, or their actors' pack)")
    out = []
    for i, item in enumerate(items):
        where = path if len(items) == 1 else f"{path}[{i}]"
        if isinstance(item, dict) and item.get("type") in foundry.CHARACTER_TYPES:
            out.append(_convert(_from_foundry, item, where, "Foundry actor"))
        elif isinstance(item, dict) and item.get("type") == "Thing" and foundry.system_of(item) in (None, "fate-core-official"):
            raise ImportError_(f"{where}: a Foundry 'Thing' actor (a container or an object), not a character; "
                               "export the character's actor instead")
        elif foundry.is_actor(item):
            system = foundry.system_of(item)
            raise ImportError_(f"{where}: a Foundry actor of type {item['type']!r}"
                               + (f" from the {system!r} system" if system else "")
                               + "; this reads characters of the Fate Core Official system (type fate-core-official)")
        elif fari.looks_like_fari(item):
            out.append(_convert(_from_fari, item, where, "Fari character"))
        else:
            raise ImportError_(f"{where}: not a character this tool reads; expected a Foundry VTT actor of the "
                               "Fate Core Official system (type: fate-core-official) or a Fari character "
                               "(fariType: character)")
    if not out:
        raise ImportError_(f"{path}: no characters in it")
    return out


def _check_count(path: str, documents: int, what: str) -> None:
    """More documents than a scene holds characters is refused at once, none of them read."""
    most = SIZE_LIMITS["characters"]
    if documents > most:
        raise ImportError_(f"{path}: {what} of {documents:,} documents; a scene holds at most {most} characters: "
                           "import fewer at a time")


def _json_lines(path: str) -> list[Any] | None:
    """A Foundry compendium pack of the NeDB kind (``packs/NAME.db``): one JSON document per line,
    each read within the same bounds as a whole file (``json_input``); None if it is not one."""
    try:
        lines = [line for line in read_bounded(path, MAX_BYTES, "compendium pack").splitlines() if line.strip()]
        if len(lines) < 2 or not isinstance(loads(lines[0], path, "compendium pack"), dict):
            return None
        _check_count(path, len(lines), "a compendium pack")  # before thousands of documents are parsed for nothing
        rows = [loads(line, path, "compendium pack") for line in lines]
    except (OSError, InputTooLarge, JSONInputError):
        return None
    return rows if all(isinstance(r, dict) for r in rows) else None


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


def _from_foundry(actor: dict[str, Any], where: str) -> Imported:
    c = Imported(str(actor.get("name") or "Unnamed"), source=where)
    foundry.read_actor(c, actor, _text, _int, _values)
    return c


def _from_fari(data: dict[str, Any], where: str) -> Imported:
    c = Imported(str(data.get("name") or "Unnamed"), source=where)
    try:
        fari.read_sheet(c, data, _text, _int, DEFAULT_SKILLS)
    except fari.NoSections:
        raise ImportError_(f"{where}: {data.get('name')!r} is a Fari character without sections") from None
    except fari.OtherGame as exc:
        raise ImportError_(f"{where}: {exc}") from None
    return c


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


def _skill_range() -> tuple[int, int]:
    """The ratings a scene's skills take, as the scene schema declares them."""
    rating = schema()["$defs"]["character"]["properties"]["skills"]["additionalProperties"]
    return rating["minimum"], rating["maximum"]


def _int(value: Any) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


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


def check_against_rules(c: Imported, kind: str, built) -> tuple[list[str], list[str]]:
    """What the file says that the rule set decides otherwise, for a character built by the engine
    (``built``: its Fighter): (what is not imported, remarks on what was)."""
    lost, said = [], []
    if kind in ("pc", "major"):
        for track, boxes in c.stress.items():
            ours = len(built.tracks[track].values) if track in built.tracks else 0
            if ours != boxes:
                said.append(f"{track} stress: {boxes} box(es) in the file, {ours} under the rule set (from the "
                            "skills; an extra_stress stunt adds boxes)")
        file_slots = {s for s in c.consequences}
        ours = {s.severity for s in built.slots}
        if file_slots and file_slots != ours:
            said.append(f"consequence slots: {', '.join(sorted(file_slots))} in the file; the rule set gives "
                        f"{', '.join(sorted(ours)) or 'none'}")
    elif kind in ("minor", "mob") and c.stress.get("physical", 0) > 3:
        lost.append(f"stress: {c.stress['physical']} boxes in the file; a minor NPC has zero to three (003:1990)")
    if c.refresh is not None and c.refresh < 1 and kind in ("pc", "major"):
        lost.append(f"refresh {c.refresh} in the file: the scene format keeps refresh at 1 or more (003:396); "
                    "left at the default")
    held = {s: v for s, v in c.consequences.items() if v}
    if held:
        lost.append("carries " + "; ".join(f"{s} {v!r}" for s, v in held.items())
                    + ": a scene starts without consequences; not imported")
    if c.renamed:
        said.append("skills read by meaning: " + ", ".join(c.renamed))
    unknown = [s for s in c.skills if s not in DEFAULT_SKILLS]
    if unknown:
        said.append(f"skills not in the default list ({', '.join(unknown)}): added to the scene's skills "
                    "(they attack or defend only through a use_skill stunt)")
    return lost, said


#: members of an imported mob when --count does not say
MOB_COUNT = 3


@dataclass
class Fragment:
    """What ``import`` writes: the YAML (notes as comments only: pasting it is always valid), and
    per character what was not imported (``unmapped``, refused by ``--strict``) and remarks."""
    text: str
    unmapped: list[str]
    remarks: list[str]


def _comment(text: str) -> str:
    """One YAML comment line, whatever the text holds (a newline would end the comment)."""
    return " ".join(str(text).split())


def scene_fragment(chars: list[Imported], kind: str, side: str, zone: str, rules: str | None = None,
                   count: int | None = None) -> Fragment:
    """The YAML a scene takes (``skills:`` if any are new, then ``characters:``), with what could
    not be mapped as comments. Every character is checked by loading it in a scene of its own (a
    bad one raises SceneError)."""
    import yaml

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
    unmapped: list[str] = []
    remarks: list[str] = []
    lines = ["# Characters imported by `fate-npc import`; paste into a scene (fate-npc validate checks it).", ""]
    if custom:
        lines += [f"skills: {json.dumps(custom, ensure_ascii=False)}   # skills of the imported sheets not in the "
                  "default list", ""]
    lines.append("characters:")
    for cid, c in ids.items():
        lost, said = check_against_rules(c, kind, engine.t.f[cid])
        lost = c.notes + lost
        if kind == "mob" and count is None:
            said = [f"a mob of {MOB_COUNT} (--count N sets how many)", *said]
        unmapped += [f"{c.name}: {n}" for n in lost + c.kept_stunts()]
        remarks += [f"{c.name}: {n}" for n in said]
        lines.append(f"  {cid}:   # from {_comment(c.source)}")
        body = yaml.safe_dump(mapped[cid], sort_keys=False, allow_unicode=True, width=100)
        lines += ["    " + ln for ln in body.rstrip("\n").split("\n")]
        for name, text, what in c.stunt_texts:
            lines.append(f"    # stunt {_comment(repr(name))}, {_comment(what)}" + (f": {_comment(text)}" if text else ""))
        lines += [f"    # not imported: {_comment(n)}" for n in lost]
        lines += [f"    # note: {_comment(n)}" for n in said]
    return Fragment("\n".join(lines) + "\n", unmapped, remarks)
