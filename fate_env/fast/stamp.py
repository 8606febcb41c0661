"""What can be known about the compiled kernel without importing numba: the hash of its sources,
and a marker left once it is compiled (so ``bench`` can tell in a millisecond whether the first
run's compile is still ahead: importing numba and the kernel's ~100 functions costs most of a
second, which a cold run would pay on top of the reference engine's time).

The marker is a hint, never trusted alone: with it, the caller still asks numba (``compiled()``);
without it, the caller starts the compile in the background, which finishes at once when numba's
cache was there after all (and leaves the marker).
"""

from __future__ import annotations

import hashlib
import os
import sys
from contextlib import contextmanager
from importlib import metadata, util
from pathlib import Path
from typing import Any, Iterator

SOURCES = Path(__file__).resolve().parent
#: the one line that gets the fast core
NOTICE = 'the fast core needs numba: pip install -e ".[fast]" (the reference engine runs meanwhile)'


def installed() -> bool:
    """numba is installed (not imported: ``jit.BROKEN`` says when it is there but fails to import)."""
    return util.find_spec("numba") is not None


def kernel_files(folder: Path = SOURCES) -> list[Path]:
    """The modules compiled code depends on: those with numba functions, here and below, and the kernel's
    layout (its codes and columns are compiled in as constants: a change there must drop the cache too)."""
    return [p for p in sorted(folder.rglob("*.py")) if "__pycache__" not in p.parts
            and (b"@njit" in p.read_bytes() or p.name == "layout.py")]


def sources_digest(folder: Path = SOURCES) -> str:
    """One hash over the kernel's modules (names and contents)."""
    h = hashlib.sha256()
    for path in kernel_files(folder):
        h.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def marker() -> Path | None:
    """Where the marker for this kernel, this numba, this Python and this cache folder lives (None:
    numba is not installed)."""
    try:
        numba = metadata.version("numba")
    except metadata.PackageNotFoundError:
        return None
    key = "\0".join((sources_digest(), numba, sys.version, os.environ.get("NUMBA_CACHE_DIR", ""), str(SOURCES)))
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return home / "fate-npc" / f"compiled-{hashlib.sha256(key.encode()).hexdigest()[:24]}"


def marked() -> bool:
    """The marker is there: the kernel was compiled (numba's cache may still have been cleared since)."""
    path = marker()
    return path is not None and path.exists()


def mark() -> None:
    """Leave the marker (nothing happens where the cache folder cannot be written)."""
    path = marker()
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    except OSError:
        pass


#: the compile locks this process holds, by entry point (``hold``): a lock held is not taken again
_HELD: dict[str, Any] = {}


def _lock_file(entry: str) -> Path | None:
    path = marker()
    return None if path is None else path.with_name(f"{path.name}.{entry}.lock")


def hold(entry: str, wait: bool = True) -> bool:
    """Take ``entry``'s compile lock for this process until :func:`release` (waiting while another
    process holds it, or with ``wait`` False, giving up at once). False where it was not taken:
    another process holds it and ``wait`` is False, or nothing can be held (no numba, no ``fcntl``
    on Windows, a folder that cannot be written: each process then compiles on its own)."""
    if entry in _HELD:
        return True
    path = _lock_file(entry)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return False
    if path is None:
        return False
    handle = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a")
        fcntl.flock(handle, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # BlockingIOError among them: held elsewhere
        if handle is not None:
            handle.close()
        return False
    _HELD[entry] = handle
    return True


def release(entry: str) -> None:
    """Let go of ``entry``'s compile lock (nothing happens when this process does not hold it)."""
    handle = _HELD.pop(entry, None)
    if handle is not None:
        import fcntl
        fcntl.flock(handle, fcntl.LOCK_UN)
        handle.close()


@contextmanager
def compile_lock(entry: str = "play_batch") -> Iterator[None]:
    """Held while this process compiles the kernel's ``entry`` point into its cache (the one
    :func:`marker` names): a second process that would compile the same entry point waits here instead,
    then loads what the first one saved, so runs started together compile it once. One lock per entry
    point: two processes compiling different ones go on side by side rather than one idling for
    minutes. POSIX ``flock`` on a file beside the marker (released if the holder dies). A lock this
    process already holds (``environment.warm`` takes them all first) is left to its holder."""
    taken = entry not in _HELD and hold(entry)
    try:
        yield
    finally:
        if taken:
            release(entry)
