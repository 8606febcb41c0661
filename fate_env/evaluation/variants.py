"""``bench --vary``'s grammar: the values a field takes (``2..5``, ``a,b``, ``on,off``), the path into
a scene file they set (``characters.og.skills.Fight``, ``rules.DIAL``, ``countdowns.0.boxes``), the
grid of variants, the one that is the scene as written, and each variant built as a scene."""

from __future__ import annotations

import copy
import itertools
from collections.abc import Sequence
from typing import Any

from fate_env.content.scenes import SceneError, scene_from_dict


def parse_values(text: str) -> list[Any]:
    """``2..5`` (inclusive), ``2,4,6``, ``on,off``."""
    if ".." in text and "," not in text:
        lo, hi = text.split("..", 1)
        try:
            a, b = int(lo), int(hi)
        except ValueError:
            raise ValueError(f"{text!r}: a range is two whole numbers, LOW..HIGH (e.g. 2..5); "
                             "for words list them with commas (a,b)") from None
        if b < a:
            raise ValueError(f"{text!r}: expected LOW..HIGH with LOW <= HIGH")
        return list(range(a, b + 1))
    out: list[Any] = []
    for v in text.split(","):
        v = v.strip()
        if v in ("on", "true", "yes"):
            out.append(True)
        elif v in ("off", "false", "no"):
            out.append(False)
        else:
            try:
                out.append(int(v))
            except ValueError:
                out.append(v)
    return out


def parse_vary(spec: str) -> tuple[str, list[Any]]:
    path, sep, values = spec.partition("=")
    if not sep or not path or not values:
        raise ValueError(f"--vary {spec!r}: expected PATH=VALUES, e.g. characters.og.skills.Fight=2..5")
    try:
        return path, parse_values(values)
    except ValueError as exc:
        raise ValueError(f"--vary {spec!r}: {exc}") from None


def set_path(data: dict, path: str, value: Any) -> None:
    """Set ``a.b.c`` in a scene mapping; ``rules.X`` sets the rule-set dial X."""
    parts = path.split(".")
    if parts[0] == "rules" and len(parts) == 2:
        rules = data.get("rules", "condensed")
        if isinstance(rules, str):
            rules = {"name": rules}
        rules.setdefault("dials", {})[parts[1]] = value
        data["rules"] = rules
        return
    node = data
    for p in parts[:-1]:
        if _has(node, p):
            node = node[int(p)] if isinstance(node, list) else node[p]
            continue
        raise ValueError(f"--vary {path}: no field {p!r} on the way; expected a path into the scene file "
                         "(a list's items by number: countdowns.0.boxes)")
    if not isinstance(node, dict):
        raise ValueError(f"--vary {path}: {parts[-2]!r} is not a mapping")
    node[parts[-1]] = value


def variants(base: dict, varies: Sequence[tuple[str, list[Any]]]) -> list[dict[str, Any]]:
    """The grid: one dict of path -> value per variant, the first being the first value of each."""
    if not varies:
        return [{}]
    paths = [p for p, _ in varies]
    return [dict(zip(paths, combo)) for combo in itertools.product(*(v for _, v in varies))]


def get_path(data: dict, path: str) -> Any:
    parts = path.split(".")
    if parts[0] == "rules" and len(parts) == 2:
        rules = data.get("rules", "condensed")
        return rules.get("dials", {}).get(parts[1]) if isinstance(rules, dict) else None
    node: Any = data
    for p in parts:
        if not _has(node, p):
            return None
        node = node[int(p)] if isinstance(node, list) else node[p]
    return node


def _has(node: Any, key: str) -> bool:
    """Whether a scene mapping has ``key``, or a list has item number ``key``."""
    if isinstance(node, list):
        return key.isascii() and key.isdigit() and int(key) < len(node)
    return isinstance(node, dict) and key in node


def baseline_index(base: dict, grid: list[dict[str, Any]]) -> int:
    """The variant that is the scene as written (every varied field at its written value), else the first."""
    for i, params in enumerate(grid):
        if all(get_path(base, k) == v for k, v in params.items()):
            return i
    return 0


def build_variant(base: dict, file: str, params: dict[str, Any], rules: str | None = None):
    data = copy.deepcopy(base)
    for path, value in params.items():
        set_path(data, path, value)
    try:
        return scene_from_dict(data, file, rules=rules)
    except SceneError as exc:
        where = ", ".join(f"{k}={v}" for k, v in params.items())
        raise SceneError(exc.file, exc.field, f"{exc.message} (in the variant {where})") from None
