"""``njit`` from numba when the fast extra is installed, else a no-op (the kernel then runs as
plain Python: slow, but the same logic, which keeps it testable without numba).

numba caches each compiled function beside its source and reloads it while *that file* is
unchanged; it does not notice an edit to another file the function calls into (``kernel.py``
calls ``dice.py``; ``observe.py`` calls ``kernel.py``). :func:`guard_cache` closes that gap: the
kernel's modules (those with numba functions) are hashed together, and
when the hash differs from the one recorded in the cache folder, their cached functions there
are dropped, so an edit to any of them recompiles all of them.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

try:
    from numba import njit
    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - exercised on machines without the extra
    HAVE_NUMBA = False

    def njit(*args, **kwargs):
        if args and callable(args[0]):
            return args[0]
        return lambda f: f

__all__ = ["njit", "HAVE_NUMBA", "guard_cache"]

SOURCES = Path(__file__).resolve().parent
STAMP = "fate_npc_fast_sources.sha256"


def kernel_files(folder: Path = SOURCES) -> list[Path]:
    """The modules compiled code depends on: those with numba functions."""
    return [p for p in sorted(folder.glob("*.py")) if b"@njit" in p.read_bytes()]


def sources_digest(folder: Path = SOURCES) -> str:
    """One hash over the kernel's modules (names and contents)."""
    h = hashlib.sha256()
    for path in kernel_files(folder):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def guard_cache(cache: Path, digest: str, modules: list[str]) -> bool:
    """Drop the cached functions of ``modules`` in ``cache`` unless it records ``digest``; record
    it. True if anything was dropped (a folder with no record yet counts as stale)."""
    stamp = cache / STAMP
    try:
        if stamp.read_text() == digest:
            return False
    except OSError:
        pass
    dropped = False
    for name in modules:
        for path in list(cache.glob(f"{name}.*.nbi")) + list(cache.glob(f"{name}.*.nbc")):
            try:
                path.unlink()
                dropped = True
            except OSError:
                pass
    try:
        cache.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest)
    except OSError:  # a cache numba cannot write either: nothing is cached there
        pass
    return dropped


def _here() -> None:
    """A function of this folder, for numba to say where it caches this folder's functions."""


def _cache_folder() -> Path | None:
    from numba.core import caching
    for locator in caching.CacheImpl._locator_classes:
        found = locator.from_function(_here, __file__)
        if found is not None:
            return Path(found.get_cache_path())
    return None


if HAVE_NUMBA:  # before any kernel function is decorated (explicit signatures compile on import)
    try:
        _folder = _cache_folder()
    except Exception:  # numba's cache internals moved: its own per-file check still applies
        _folder = None
    if _folder is not None:
        guard_cache(_folder, sources_digest(), [p.stem for p in kernel_files()])
