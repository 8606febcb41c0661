"""Foundry VTT actors of the Fate Core Official system (https://github.com/Sk1mble/fate-core-official).

The shapes, from the system's own files:

* the actor: ``type`` is ``fate-core-official`` (older worlds: ``ModularFate``, the system's name
  before its rename, or ``FateCoreOfficial``/``fateCoreOfficial``; ``template.json`` of those
  releases lists them); ``Thing`` actors are containers, not characters;
* its data under ``system`` (Foundry 10 on) or ``data`` (before): ``details.fatePoints``
  (``current``, ``refresh``; strings in the old ``template.json``, numbers in the data model of
  ``scripts/FateCoreOfficialModels.js``), and ``aspects``, ``skills``, ``stunts``, ``tracks``:
  mappings keyed by the item's name (older worlds) or its base64 (``fcoConstants.tob64``, since
  the keys were rationalised), each item carrying its own ``name``;
* a skill: ``name``, ``rank``; an aspect: ``name`` (its role: High Concept, Trouble, ...) and
  ``value`` (the aspect's words); a stunt: ``name``, ``description`` (HTML), ``linked_skill``,
  ``bonus`` and one flag per action (``overcome``, ``caa``, ``attack``, ``defend``); a track:
  ``name``, ``category``, ``boxes``, ``box_values``, ``enabled``, and for a consequence an
  ``aspect`` holding its name when marked.

Exports come one actor per file (the sheet's "Export Data"), as a list, or as a compendium pack
in the older NeDB form (``packs/*.db``: one document per line).
"""

from __future__ import annotations

import re
from typing import Any, Callable

from .labels import aspect_role, severity, track_kind

#: the system's character actor types, newest first (template.json of each release)
CHARACTER_TYPES = ("fate-core-official", "FateCoreOfficial", "fateCoreOfficial", "ModularFate")
#: words that start a circumstance in a stunt's description
CIRCUMSTANCE = re.compile(r"\b(?:when|while|whenever|if|against|once per|but only)\b[^.]{0,40}", re.I)
ACTION_FLAGS = {"overcome": "overcome", "caa": "create_advantage", "attack": "attack", "defend": "defend"}


def system_of(actor: dict[str, Any]) -> str | None:
    """The game system an exported actor says it belongs to (``_stats.systemId`` since Foundry 10,
    ``flags.exportSource.system`` in an "Export Data" file), if it says."""
    stats = actor.get("_stats") if isinstance(actor.get("_stats"), dict) else {}
    flags = actor.get("flags") if isinstance(actor.get("flags"), dict) else {}
    source = flags.get("exportSource") if isinstance(flags.get("exportSource"), dict) else {}
    return stats.get("systemId") or source.get("system")


#: Foundry documents that are not actors, by the field only they carry: what a pack of them holds
_DOCUMENTS = (("command", "macro"), ("results", "roll table"), ("walls", "scene"))


def other_documents(items: list[Any]) -> str | None:
    """What a file holds when every document in it is of one other Foundry kind (a macros pack),
    said with a few of their names; None when it holds anything else."""
    for key, kind in _DOCUMENTS:
        if items and all(isinstance(i, dict) and key in i and not is_actor(i) for i in items):
            names = ", ".join(repr(str(i.get("name", ""))[:40]) for i in items[:3]) + (", ..." if len(items) > 3 else "")
            return f"a pack of {len(items)} {kind}{'s' if len(items) != 1 else ''} ({names}), no actors"
    return None


def is_actor(item: Any) -> bool:
    """Something Foundry exported as an actor (of any system)."""
    return isinstance(item, dict) and isinstance(item.get("type"), str) and (
        "system" in item or "data" in item or "prototypeToken" in item or "token" in item)


def read_actor(c, actor: dict[str, Any], text: Callable[[Any], str], as_int: Callable[[Any], int | None],
               values: Callable[[Any], list[dict[str, Any]]]) -> None:
    """Fill the record ``c`` (an ``Imported``) from a Fate Core Official actor."""
    system = actor.get("system") if isinstance(actor.get("system"), dict) else actor.get("data") or {}
    if not isinstance(system, dict) or ("system" in actor and not isinstance(actor["system"], dict)):
        held = actor.get("system", system)
        raise ValueError(f"its 'system' is {type(held).__name__ if held is not None else 'empty'}; expected a "
                         "mapping of aspects, skills, stunts and tracks (nothing is imported from it as it is)")
    for a in values(system.get("aspects")):
        c.add_aspect(aspect_role(str(a.get("name", ""))), text(a.get("value", "")))
    for s in values(system.get("skills")):
        if s.get("hidden") is True and not s.get("rank"):
            continue
        c.add_skill(str(s.get("name", "")), s.get("rank", 0))
    for st in values(system.get("stunts")):
        _stunt(c, st, text)
    for t in values(system.get("tracks")):
        _track(c, t, text)
    fp = (system.get("details") or {}).get("fatePoints") or {}
    c.fate_points = as_int(fp.get("current"))
    c.refresh = as_int(fp.get("refresh"))
    items = actor.get("items")
    if items:
        c.notes.append(f"{len(items)} item(s) (extras) not imported: the engine has no extras")


def _stunt(c, st: dict[str, Any], text) -> None:
    name, words = str(st.get("name", "Stunt")), text(st.get("description", ""))
    flags = [ACTION_FLAGS[k] for k in ACTION_FLAGS if st.get(k) is True]
    bonus, skill = st.get("bonus") or 0, st.get("linked_skill")
    if isinstance(bonus, int) and 1 <= bonus <= 4 and len(flags) == 1 and skill in c.skills \
            and not CIRCUMSTANCE.search(words):
        c.add_stunt({"name": name, "kind": "bonus", "skill": skill, "action": flags[0], "bonus": bonus},
                    words, f"+{bonus} to {skill} to {flags[0].replace('_', ' ')} (the sheet's bonus)")
    else:  # words with a circumstance are read as any stunt's words are: played only if the engine can check it
        c.add_stunt_text(name, words)


def _track(c, t: dict[str, Any], text) -> None:
    name = str(t.get("name", ""))
    sev = severity(name)
    if sev is not None and "stress" not in name.lower():
        aspect = t.get("aspect")
        held = aspect.get("name", "") if isinstance(aspect, dict) else ""
        c.consequences[sev] = text(held)
        return
    if t.get("enabled") is False:
        return
    track = track_kind(name)
    if track is not None and (t.get("boxes") or t.get("box_values")):
        c.stress[track] = int(t.get("boxes") or len(t.get("box_values") or []))
        return
    c.notes.append(f"track {name!r}: not a stress track or consequence the engine knows; not imported")
