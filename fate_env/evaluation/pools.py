"""Worker pools for the evaluation tools: how processes start.

Fork where it is safe (POSIX, and torch not loaded: a forked child of a process with torch's
threads running can deadlock), so the children inherit the loaded fast-core kernel and the
scene's tables instead of importing numba and loading the kernel each (about a second apiece,
as long as a worker's share of a 10,000-fight bench). Spawn elsewhere; each spawned worker
loads what it needs itself.
"""

from __future__ import annotations

import multiprocessing as mp
import sys


def start_method() -> str:
    if "fork" in mp.get_all_start_methods() and "torch" not in sys.modules:
        return "fork"
    return "spawn"


def pool(workers: int):
    """A pool of ``workers`` processes started the safe, cheap way."""
    return mp.get_context(start_method()).Pool(workers)
