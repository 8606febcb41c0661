"""``njit`` from numba when the fast extra is installed, else a no-op (the kernel then runs as
plain Python: slow, but the same logic, which keeps it testable without numba).

numba caches each compiled function beside its source and reloads it while *that file* is
unchanged; it does not notice an edit to another file the function calls into (``kernel/conflict.py``
calls ``kernel/stress.py`` and ``dice.py``; ``observe.py`` calls the kernel). :func:`guard_cache`
closes that gap: the kernel's modules (those with numba functions, in this folder and below) are
hashed together, and when the hash differs from the one recorded in a cache folder, the cached
functions there are dropped, so an edit to any of them recompiles all of them.
"""

from __future__ import annotations

from pathlib import Path

from . import stamp
from .stamp import installed, kernel_files, sources_digest

#: why numba, installed, did not import ("" when it did, or is not installed): the fast core then
#: refuses to run rather than run its kernel as plain Python where numba was meant to compile it
BROKEN = ""
try:
    from numba import njit
    HAVE_NUMBA = True
except ImportError as exc:  # pragma: no cover - exercised on machines without the extra
    HAVE_NUMBA = False
    BROKEN = f"numba is installed but does not import ({exc})" if installed() else ""

    def njit(*args, **kwargs):
        if args and callable(args[0]):
            return args[0]
        return lambda f: f

__all__ = ["njit", "HAVE_NUMBA", "BROKEN", "guard_cache", "bound", "first_call"]

STAMP = "fate_npc_fast_sources.sha256"


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


def _cache_folder(source: Path) -> Path | None:
    """Where numba caches the functions of ``source``'s folder."""
    from numba.core import caching
    for locator in caching.CacheImpl._locator_classes:
        found = locator.from_function(_here, str(source))
        if found is not None:
            return Path(found.get_cache_path())
    return None


if HAVE_NUMBA:  # before any kernel function is decorated (explicit signatures compile on import)
    _digest = sources_digest()
    _by_folder: dict[Path, list[Path]] = {}
    for _path in kernel_files():
        _by_folder.setdefault(_path.parent, []).append(_path)
    for _files in _by_folder.values():
        try:
            _folder = _cache_folder(_files[0])
        except Exception:  # numba's cache internals moved: its own per-file check still applies
            _folder = None
        if _folder is not None:
            guard_cache(_folder, _digest, [p.stem for p in _files])


def bound(fn, args: tuple):
    """``fn`` compiled for the types of ``args``, callable without numba's per-call type
    resolution: the environment calls ``advance`` and ``observe`` on every step with arrays of
    the same types, and working out the types of their bundles (named tuples) each time cost
    more than the call. The result takes arguments of exactly those types (the caller keeps
    them); without numba it is ``fn`` itself."""
    if not HAVE_NUMBA:
        return fn
    from numba import typeof
    sig = tuple(typeof(a) for a in args)
    overload = fn.overloads.get(sig)
    if overload is None:
        with stamp.compile_lock(fn.__name__):  # one process compiles it; the others wait, then load it
            fn.compile(sig)  # compiled, or loaded from numba's cache
        overload = fn.overloads[sig]
    return overload.entry_point


def first_call(fn, *args):
    """``fn(*args)``, holding ``fn``'s compile lock (stamp.compile_lock) when it has nothing compiled in
    this process yet: of several processes that start on a cold cache (runs started together, the test
    suite's workers), one compiles each entry point and the others load it."""
    if HAVE_NUMBA and not fn.signatures:
        with stamp.compile_lock(fn.__name__):
            return fn(*args)
    return fn(*args)
