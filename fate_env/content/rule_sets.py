"""Rule sets read from ``configs/rules/``: a file names the one it inherits from (``inherits: condensed``)
and states only its differences; :func:`load_rules` resolves the chain into a :class:`RuleSet`."""

from __future__ import annotations

import copy
import functools
import re
from pathlib import Path
from typing import Any

from ..rules.ruleset import RuleSet, RuleSetError, merge_dials
from ..rules.ruleset import from_dict as ruleset_from_dict
from .yaml_input import load_file as load_yaml_file
from .scene_files import SceneError, config_dir


#: how many rule sets one ``inherits:`` chain may hold (condensed <- core is two)
MAX_RULE_INHERITS = 8
_RULE_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*")


def _rule_file(name: Any, file: str, field: str) -> Path:
    folder = config_dir() / "rules"
    path = folder / f"{name}.yaml"
    if not _RULE_NAME.fullmatch(str(name)) or not path.exists():
        known = ", ".join(sorted(p.stem for p in folder.glob("*.yaml")))
        what = "no rule set named" if re.fullmatch(r"[A-Za-z0-9_.-]+", str(name)) else "not a rule-set name (a name, never a path):"
        raise SceneError(file, field, f"{what} {str(name)[:40]!r}; expected one of {known}")
    return path


@functools.lru_cache(maxsize=64)
def _parsed(path: str, mtime_ns: int, size: int) -> Any:
    """A rule-set file parsed once per version of it (its time and size in the key: an edit is read
    anew). A scene built many times over (the designer builds one per candidate) reads each once."""
    return load_yaml_file(path, "rule-set file")


def _read_rule_file(path: Path) -> Any:
    """The rule-set file's mapping, the caller's own copy (the parsed one is kept for the next)."""
    st = path.stat()
    return copy.deepcopy(_parsed(str(path), st.st_mtime_ns, st.st_size))


def rule_set_chain(name: str, file: str = "<rules>", field: str = "rules") -> list[tuple[Path, dict[str, Any]]]:
    """The files of a rule set and of those it ``inherits:``, itself first, each with its own mapping.

    A rule set states only where it differs from the one it inherits (Fate Core from Fate
    Condensed); the chain is at most :data:`MAX_RULE_INHERITS` long and never loops."""
    chain: list[tuple[Path, dict[str, Any]]] = []
    while True:
        path = _rule_file(name, file, field)
        if any(p == path for p, _ in chain):
            raise SceneError(str(chain[-1][0]), "inherits", f"{name} inherits back from {chain[-1][0].stem}; "
                             "expected a chain that ends in a rule set that inherits nothing (condensed)")
        if len(chain) >= MAX_RULE_INHERITS:
            raise SceneError(str(path), "inherits", f"a chain of over {MAX_RULE_INHERITS} rule sets")
        data = _read_rule_file(path)
        if not isinstance(data, dict):
            raise SceneError(str(path), "(rule set)", "expected a mapping of dials")
        chain.append((path, data))
        if "inherits" not in data:
            return chain
        if "name" not in data:
            raise SceneError(str(path), "name", "a rule set that inherits states its own name "
                             f"(else it would be called {data['inherits']!r} too)")
        file, field, name = str(path), "inherits", data["inherits"]


def load_rules(name: str, file: str = "<rules>", field: str = "rules") -> RuleSet:
    """A shipped rule set by name, with what it inherits filled in."""
    chain = rule_set_chain(name, file, field)
    data: dict[str, Any] = {}
    for _, own in reversed(chain):
        data = merge_dials(data, {k: v for k, v in own.items() if k != "inherits"})
    if len(chain) > 1 and "title" not in chain[0][1]:
        data["title"] = data["name"]  # a parent's title would name the wrong set
    try:
        return ruleset_from_dict(data)
    except (RuleSetError, ValueError) as exc:
        raise SceneError(str(chain[0][0]), "(rule set)", str(exc)) from None
