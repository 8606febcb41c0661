"""``fate-npc rules``: every rule set and every dial, with its value, its choices and where the texts set it.

The rule sets are data (``configs/rules/*.yaml``) and each dial there carries its citation as a
comment (``turn_order: popcorn  # 003:1408-1413``; the nested ``stress`` dials on the comment
lines above them). A rule set that ``inherits:`` another states only its differences; a dial it
keeps takes the citation of a ``# kept DIAL: ...`` line if it has one (its own text agreeing),
else the parent's, marked as such. This module reads the values through the loader (so what is
listed is what the engine plays) and the comments from the files, so the listing cannot drift
from either.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..rules import ruleset as R
from .scenes import config_dir, load_rules, rule_dials, rule_set_chain

#: the choices of each dial that takes one of a few values (declared on the rule set's fields)
CHOICES: dict[str, tuple[str, ...]] = R.CHOICES
DEFAULT = "condensed"
_KEY = re.compile(r"^(\s*)([a-z_]+):(.*)$")
_KEPT = re.compile(r"^#\s*kept\s+([a-z_]+):\s*(.*)$")


def _comments(path: Path) -> dict[str, str]:
    """Each dial's comment in a rule-set file: the one after its value, or the lines just above it."""
    out: dict[str, str] = {}
    above: list[str] = []
    for line in path.read_text().splitlines():
        stripped = line.strip()
        kept = _KEPT.match(stripped)
        if kept:
            out[kept.group(1)] = kept.group(2)
            continue
        if stripped.startswith("#"):
            above.append(stripped.lstrip("#").strip())
            continue
        m = _KEY.match(line)
        if not m:
            above = []
            continue
        key, rest = m.group(2), m.group(3)
        trailing = rest.split("#", 1)[1].strip() if "#" in rest else ""
        if trailing or above:
            out[key] = trailing or " ".join(above)
        above = []
    return out


def _citations(name: str) -> dict[str, str]:
    """Each dial's citation in a rule set, following its ``inherits:`` chain: its own comment,
    else the nearest parent's, marked "inherited from PARENT"."""
    chain = rule_set_chain(name)
    out = _comments(chain[0][0])
    for path, _ in chain[1:]:
        for key, note in _comments(path).items():
            out.setdefault(key, f"inherited from {path.stem}: {note}")
    return out


def _choices(dial: str, value: Any) -> str:
    if dial in CHOICES:
        return " | ".join(CHOICES[dial])
    if isinstance(value, bool):
        return "true | false"
    return ""


def _derived(dial: str) -> str:
    """What a file that leaves a dial out gets, when that follows another dial (said from the declaration)."""
    follows = R.DIALS.get(dial, {}).get("follows")
    if not follows:
        return ""
    other, by_value = follows
    given = ", ".join(f"{v} when {R.address(other)} is {str(k).lower()}" for k, v in by_value.items())
    return f"unless {R.address(dial)} names one: {given}, else {R.DIALS[dial]['default']}"


def catalogue() -> dict[str, Any]:
    """The rule sets (name, title, file) and, per dial, each set's value and citation, and the choices."""
    files = sorted((config_dir() / "rules").glob("*.yaml"), key=lambda p: (p.stem != DEFAULT, p.stem))
    sets, values, notes = [], {}, {}
    for path in files:
        rules = load_rules(path.stem, str(path))
        sets.append({"name": rules.name, "title": rules.title, "file": str(path), "default": path.stem == DEFAULT})
        values[rules.name] = rule_dials(rules)
        notes[rules.name] = _citations(path.stem)
    dials = []
    first = sets[0]["name"]
    for dial in values[first]:
        if dial == "name":
            continue
        key = R.key_of(dial) if dial in R.DIALS else dial
        dials.append({"dial": dial, "choices": _choices(dial, values[first][dial]),
                      "values": {s["name"]: values[s["name"]][dial] for s in sets},
                      "cites": {s["name"]: notes[s["name"]].get(key) or _derived(dial) for s in sets}})
    return {"rule_sets": sets, "dials": dials}


def format_catalogue(cat: dict[str, Any]) -> list[str]:
    lines = ["rule sets: " + ", ".join(f"{s['name']} ({s['title']}{', the default' if s['default'] else ''})"
                                      for s in cat["rule_sets"]),
             "a scene picks one (rules: NAME) and may change single dials (rules: {name: NAME, dials: {...}});",
             "fate-npc eval takes --rules NAME and --dial KEY=VALUE", ""]
    width = max(len(str(v)) for d in cat["dials"] for v in d["values"].values())
    width = min(width, 40)
    for d in cat["dials"]:
        lines.append(d["dial"] + (f"  ({d['choices']})" if d["choices"] else ""))
        for name, value in d["values"].items():
            text = str(value).replace(" ", "")
            if len(text) > width:
                text = text[: width - 3] + "..."
            cite = d["cites"][name]
            lines.append(f"  {name:<10} {text:<{width}}  {cite}".rstrip())
    return lines
