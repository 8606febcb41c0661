"""Reading JSON that someone else wrote, within bounds: session saves, fight logs, imported
characters, model sidecars. A regular file under a size limit, nesting no deeper than such files
need, and every failure one line that names the file (never a ``RecursionError``)."""

from __future__ import annotations

import json
import os
from typing import Any

from .safe_text import OneLineError
from .yaml_input import InputTooLarge, read_bounded

#: the largest JSON file read (a long session with its scene is well under 1 MB; a Foundry
#: actor with an embedded portrait a few MB)
MAX_BYTES = 32 * 1024 * 1024
#: the deepest nesting of arrays and objects (a save or a Foundry actor needs about 10)
MAX_DEPTH = 64


class JSONInputError(OneLineError):
    """A JSON file that cannot be read, with where and why."""


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` nests lists and dicts deeper than ``limit`` (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, (list, dict)):
            if depth > limit:
                return True
            stack.extend((x, depth + 1) for x in (v.values() if isinstance(v, dict) else v))
    return False


def loads(text: str | bytes, where: str, what: str) -> Any:
    """Parse ``text``; ``where`` and ``what`` name the source in the message."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise JSONInputError(f"{where}: nested deeper than {MAX_DEPTH} levels; expected a {what}") from None
    except UnicodeDecodeError:
        raise JSONInputError(f"{where}: not UTF-8 text; expected a {what}") from None
    except ValueError as exc:
        raise JSONInputError(f"{where}: not JSON, or cut short ({exc}); expected a {what}") from None
    if too_deep(data):
        raise JSONInputError(f"{where}: nested deeper than {MAX_DEPTH} levels; expected a {what}")
    return data


def load_json(path: str | os.PathLike, what: str, limit: int = MAX_BYTES) -> Any:
    """The JSON value in ``path``, refusing a missing or unreadable file, a device, anything over
    ``limit`` bytes, broken JSON and nesting past ``MAX_DEPTH``, each in one line."""
    try:
        raw = read_bounded(path, limit, what)
    except InputTooLarge as exc:
        raise JSONInputError(f"{path}: {exc}") from None
    except OSError as exc:
        raise JSONInputError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    return loads(raw, str(path), what)
