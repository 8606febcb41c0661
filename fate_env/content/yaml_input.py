"""Reading YAML that someone else wrote, within bounds: a file of bounded size that is a file, no
nesting deeper than a scene needs, and no alias trick that expands a few lines into billions of
values (the "billion laughs": PyYAML shares an anchored value, so it is the first walk over the
result, a schema check or a message, that would never end).

Every YAML input of the tool reads through here (scenes, rule sets, training configs, the
policies file, the NPC library, ``--dial`` values); the limits are stated in the docs.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import yaml

#: the largest YAML file read (the largest shipped scene is ~10 KB)
MAX_BYTES = 4 * 1024 * 1024
#: the deepest nesting of lists and mappings (a scene needs about 6)
MAX_DEPTH = 64
#: the most values a document may hold once its aliases are expanded
MAX_VALUES = 200_000


class InputTooLarge(ValueError):
    """A file over the size limit, or one that is not a regular file."""


def read_bounded(path: str | os.PathLike, limit: int | None = None, what: str = "file") -> bytes:
    """The bytes of ``path``, refusing a device, a pipe or a folder (``/dev/zero`` reads forever)
    and anything over ``limit`` bytes (default ``MAX_BYTES``), without reading past the limit."""
    limit = MAX_BYTES if limit is None else limit
    p = Path(path)
    st = os.stat(p)
    if not stat.S_ISREG(st.st_mode):
        raise InputTooLarge(f"not a regular file; expected a {what} (a device, pipe or folder is not read)")
    with open(p, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise InputTooLarge(f"over {limit:,} bytes; expected a {what} under that")
    return data


class BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader with a nesting limit and a limit on values once aliases expand."""

    def __init__(self, stream: Any):
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise yaml.composer.ComposerError(
                    None, None, f"nested deeper than {MAX_DEPTH} levels; expected a flatter file",
                    self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def get_single_node(self) -> Any:
        node = super().get_single_node()
        if node is not None and _expanded_size(node, MAX_VALUES) > MAX_VALUES:
            raise yaml.composer.ComposerError(
                None, None, f"its aliases expand to over {MAX_VALUES:,} values; expected a plain file "
                            "(anchors and aliases that repeat a value a few times are fine)", node.start_mark)
        return node


def _expanded_size(node: yaml.Node, cap: int) -> int:
    """How many values ``node`` stands for with every alias expanded, counting no further than ``cap``."""
    count, stack = 0, [node]
    while stack and count <= cap:
        n = stack.pop()
        count += 1
        if isinstance(n, yaml.SequenceNode):
            stack.extend(n.value)
        elif isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                stack.append(k)
                stack.append(v)
    return count


def load(text: str, loader: type[BoundedLoader] = BoundedLoader) -> Any:
    """One YAML document, within the bounds (``yaml.YAMLError`` with a mark when it is not)."""
    return yaml.load(text, Loader=loader)  # noqa: S506 - a SafeLoader subclass


def load_file(path: str | os.PathLike, what: str = "YAML file") -> Any:
    """A YAML file read within the bounds; ``ValueError`` in one line (file, line, what is wrong)."""
    try:
        text = read_bounded(path, what=what).decode("utf-8")
    except InputTooLarge as exc:
        raise ValueError(f"{path}: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: byte {exc.start} is not UTF-8 text; expected a UTF-8 {what}") from None
    try:
        return load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}, column {mark.column + 1}:" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ValueError(f"{path}:{where} {problem}") from None


__all__ = ["MAX_BYTES", "MAX_DEPTH", "MAX_VALUES", "BoundedLoader", "InputTooLarge", "load", "load_file",
           "read_bounded"]
