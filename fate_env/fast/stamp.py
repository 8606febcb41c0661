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
from typing import Iterator

SOURCES = Path(__file__).resolve().parent
#: the one line that gets the fast core
NOTICE = 'the fast core needs numba: pip install -e ".[fast]" (the reference engine runs meanwhile)'


def installed() -> bool:
    """numba is installed (not imported: ``jit.BROKEN`` says when it is there but fails to import)."""
    return util.find_spec("numba") is not None


def kernel_files(folder: Path = SOURCES) -> list[Path]:
    """The modules compiled code depends on: those with numba functions, here and below."""
    return [p for p in sorted(folder.rglob("*.py")) if "__pycache__" not in p.parts and b"@njit" in p.read_bytes()]


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


@contextmanager
def compile_lock(entry: str = "play_batch") -> Iterator[None]:
    """Held while this process compiles the kernel's ``entry`` point into its cache (the one
    :func:`marker` names): a second process that would compile the same entry point waits here instead,
    then loads what the first one saved, so runs started together compile it once. One lock per entry
    point: two processes compiling different ones (the suite's workers, one on the environment's
    ``advance``, one on the look-ahead's ``playouts``) go on side by side rather than one idling for
    minutes. POSIX ``flock`` on a file beside the marker (released if the holder dies); where there is
    no ``fcntl`` or the folder cannot be written, nothing is held and each process compiles on its own."""
    path = marker()
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        fcntl = None
    handle = None
    if path is not None and fcntl is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle = open(path.with_name(f"{path.name}.{entry}.lock"), "a")
            fcntl.flock(handle, fcntl.LOCK_EX)
        except OSError:
            if handle is not None:
                handle.close()
            handle = None
    try:
        yield
    finally:
        if handle is not None:
            fcntl.flock(handle, fcntl.LOCK_UN)
            handle.close()
