"""Output paths checked before any work starts, so a long run never fails at its last step."""

from __future__ import annotations

import os
from pathlib import Path


class OutputPathError(ValueError):
    """A file the command was asked to write cannot be written there."""


def check_output(path: str | os.PathLike, what: str) -> Path:
    """Refuse, with the reason, a path whose folder is missing or that names a folder."""
    p = Path(path)
    parent = p.parent  # "." for a bare file name
    if p.is_dir():
        raise OutputPathError(f"{what} {path}: is a folder; expected a file name")
    if not parent.is_dir():
        raise OutputPathError(f"{what} {path}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise OutputPathError(f"{what} {path}: the folder {parent} is not writable")
    return p


def write_atomically(path: str | os.PathLike, text: str) -> None:
    """Write a whole file or nothing: a crash mid-write leaves the old file in place."""
    p = Path(path)
    tmp = p.with_name(f".{p.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, p)
