"""``njit`` from numba when the fast extra is installed, else a no-op (the kernel then runs as
plain Python: slow, but the same logic, which keeps it testable without numba)."""

from __future__ import annotations

try:
    from numba import njit
    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - exercised on machines without the extra
    HAVE_NUMBA = False

    def njit(*args, **kwargs):
        if args and callable(args[0]):
            return args[0]
        return lambda f: f

__all__ = ["njit", "HAVE_NUMBA"]
