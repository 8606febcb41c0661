"""Each kernel function says which reference function it mirrors.

``@mirrors("fate_env.rules.rolls.base")`` above a compiled function records the reference
functions (dotted paths: the rules, and the policies of ``agents/``) whose behaviour it
reproduces, event for event; ``@kernel_only("why")`` marks the few that mirror nothing (buffers,
bit counts, the seats' bookkeeping). Both return the function unchanged. The record is what
``tests/fast/test_kernel_mirrors.py`` reads: every compiled function carries one of the two, and
every named target imports. The paths are strings: the fast core never imports ``agents``.
"""

from __future__ import annotations

from typing import Any, Callable

#: "module.function" -> the reference paths it mirrors (empty: kernel-only, with ``REASONS``)
MIRRORS: dict[str, tuple[str, ...]] = {}
#: "module.function" -> why a kernel-only function mirrors nothing
REASONS: dict[str, str] = {}


def _key(fn: Any) -> str:
    py = getattr(fn, "py_func", fn)  # a numba dispatcher keeps the Python function
    return f"{py.__module__}.{py.__name__}"


def mirrors(*targets: str) -> Callable[[Any], Any]:
    if not targets:
        raise ValueError("mirrors() needs the reference function it mirrors (else kernel_only)")

    def mark(fn: Any) -> Any:
        MIRRORS[_key(fn)] = tuple(targets)
        return fn
    return mark


def kernel_only(why: str) -> Callable[[Any], Any]:
    def mark(fn: Any) -> Any:
        MIRRORS[_key(fn)] = ()
        REASONS[_key(fn)] = why
        return fn
    return mark
