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


class BoundsError(yaml.composer.ComposerError):
    """A file that parses but is over a bound (too deep, aliases that expand too far): its
    message is already plain words."""


class BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader with a nesting limit and a limit on values once aliases expand."""

    def __init__(self, stream: Any):
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise BoundsError(
                    None, None, f"nested deeper than {MAX_DEPTH} levels; expected a flatter file",
                    self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def get_single_node(self) -> Any:
        node = super().get_single_node()
        if node is not None and _expanded_size(node, MAX_VALUES) > MAX_VALUES:
            raise BoundsError(
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


def explain(exc: yaml.YAMLError, text: str) -> tuple[str, str]:
    """A YAML syntax error in plain words: (``line L, column C``, what is wrong and how to fix it,
    with the line quoted). The parser's own terms (block end, simple key, stream) stay out."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    if mark is None:
        return "(YAML)", "the file is not valid YAML"
    if isinstance(exc, BoundsError):
        return f"line {mark.line + 1}, column {mark.column + 1}", str(exc.problem)
    lines = text.split("\n")
    row, col = mark.line, mark.column
    if row >= len(lines) or (not lines[row].strip() and row > 0):  # the end of the file: the last line with text
        row = max((i for i, ln in enumerate(lines[:row + 1]) if ln.strip()), default=0)
        col = len(lines[row])
    shown = lines[row].rstrip() if row < len(lines) else ""
    where = f"line {row + 1}, column {col + 1}"
    problem = (getattr(exc, "problem", None) or "").lower()
    context = (getattr(exc, "context", None) or "").lower()
    opened = getattr(exc, "context_mark", None)
    prev = next((lines[i] for i in range(row - 1, -1, -1) if lines[i].strip() and not lines[i].lstrip().startswith("#")), "")
    indent = len(shown) - len(shown.lstrip(" "))
    unclosed = _unclosed_quote(lines[:row + 1])
    if unclosed is not None:
        return f"line {unclosed + 1}", (f"a quote opened on line {unclosed + 1} is never closed: "
                                         f"{lines[unclosed].strip()[:80]!r}")
    if "could not find expected ':'" in problem and opened is not None and opened.line < len(lines):
        key_line = lines[opened.line]
        return (f"line {opened.line + 1}, column {opened.column + 1}",
                f"a missing colon: {key_line.strip()[:80]!r} has none (write 'key: value')")
    if "'\\t'" in problem or "\t" in shown[:col + 1]:  # the parser writes a tab as '\t'
        why = "a tab; YAML indents with spaces only (replace the tab with spaces)"
    elif "mapping values are not allowed" in problem:
        if prev and ":" not in prev.split("#")[0] and len(prev) - len(prev.lstrip(" ")) <= indent:
            return f"line {row}", (f"a missing colon: {prev.strip()!r} has none (write 'key: value'), so the next "
                                   f"line cannot start a field")
        if (shown.split("#")[0] + " ").count(": ") >= 2:
            why = "a second ': ' in one line; if it is part of a value, put the value in quotes"
        else:
            prev_indent = len(prev) - len(prev.lstrip(" "))
            why = (f"the indentation is off: this line starts at column {indent + 1}, deeper than the line before "
                   f"(column {prev_indent + 1}), which already has its value; line up the fields of one mapping")
    elif "could not find expected ':'" in problem or "simple key" in context:
        why = "a missing colon: a field is written 'key: value'"
    elif "expected <block end>" in problem or "expected <block mapping start>" in problem or (
            "block" in problem and "found" in problem):
        prev_indent = len(prev) - len(prev.lstrip(" "))
        why = (f"the indentation is off: this line starts at column {indent + 1}, the line before at column "
               f"{prev_indent + 1}; the fields of one mapping line up exactly (spaces, not tabs)")
    elif "expected ',' or '}'" in problem or "expected ',' or ']'" in problem or "flow" in context:
        close = "}" if "}" in problem or "mapping" in context else "]"
        start = f" opened on line {opened.line + 1}" if opened else ""
        why = f"a '{'{' if close == '}' else '['}'{start} is not closed with '{close}', or a ',' is missing between its items"
    elif "end of stream" in problem and "quote" in context or "quoted scalar" in context:
        start = f" on line {opened.line + 1}" if opened else ""
        why = f"a quote opened{start} is never closed"
        if opened is not None:
            where, shown = f"line {opened.line + 1}, column {opened.column + 1}", lines[opened.line].rstrip()
    elif "found duplicate anchor" in problem or "undefined alias" in problem:
        why = "an '&' or '*' that YAML reads as an anchor or alias; put the value in quotes"
    elif "found character" in problem:
        why = "a character that cannot start a value here (such as @ or `); put the value in quotes"
    else:
        why = "the text cannot be read as YAML here; look for a missing colon, quote or bracket"
    return where, f"{why}: {shown.strip()[:80]!r}" if shown.strip() else why


def _unclosed_quote(lines: list[str]) -> int | None:
    """The first line whose double quotes do not pair up (outside comments), if any: a value's
    opening quote with no closing one makes the parser fail far below it."""
    for i, line in enumerate(lines):
        body = line.replace('\\"', "")
        quotes = 0
        for j, ch in enumerate(body):
            if ch == "#" and quotes % 2 == 0 and (j == 0 or body[j - 1] == " "):
                break
            if ch == '"':
                quotes += 1
        if quotes % 2 and not line.rstrip().endswith("\\"):
            return i
    return None


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
        where, why = explain(exc, text)
        raise ValueError(f"{path}: {where}: {why}") from None


__all__ = ["MAX_BYTES", "MAX_DEPTH", "MAX_VALUES", "BoundedLoader", "InputTooLarge", "explain", "load", "load_file",
           "read_bounded"]
