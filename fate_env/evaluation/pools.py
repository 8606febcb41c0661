"""Worker pools for the evaluation tools: how processes start, and what happens when one dies.

Fork where it is safe (POSIX, and torch not loaded: a forked child of a process with torch's
threads running can deadlock), so the children inherit the loaded fast-core kernel and the
scene's tables instead of importing numba and loading the kernel each (about a second apiece,
as long as a worker's share of a 10,000-fight bench). Spawn elsewhere; each spawned worker
loads what it needs itself.

The pool is ``concurrent.futures.ProcessPoolExecutor``, not ``multiprocessing.Pool``: when a
worker is killed (by the OOM killer, or by hand) the executor notices and fails every task,
where ``Pool`` starts a new worker and waits forever for the lost task's result. The work is fed
a window at a time, so a run of a hundred million episodes never holds them all as jobs.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")

#: the most worker processes any command starts (each holds a copy of the engine)
MAX_WORKERS = 64


class WorkerDied(RuntimeError):
    """A worker process ended without finishing its work (killed, out of memory)."""


def start_method() -> str:
    if "fork" in mp.get_all_start_methods() and "torch" not in sys.modules:
        return "fork"
    return "spawn"


def _worker_start(parent: int) -> None:
    """In each worker: Ctrl-C is the parent's to handle (it stops the run and says so once),
    not every worker's to print a traceback for; and the worker ends when its parent does
    (:func:`_end_with_parent`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _end_with_parent(parent)


def _end_with_parent(parent: int) -> None:
    """A worker whose parent is gone (killed by a script's timeout, ``kill -9``) ends too, instead of
    burning a core until someone finds it: a thread looks for the parent every second. (Linux's
    ``PR_SET_PDEATHSIG`` would fire when the *thread* that started the worker ends, which a pool
    started from a passing thread would take for the parent's death.)"""
    import os
    import threading

    def watch() -> None:
        import time
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)
    threading.Thread(target=watch, name="fate-npc-parent-watch", daemon=True).start()


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C held back while worker processes start: a process started inside inherits the
    blocked signal, so an interrupt cannot kill it mid-import (printing a traceback per worker);
    this process gets the held signal as soon as the block ends, and stops them itself.

    Blocking the signal holds it for this thread, and for the threads it starts inside. A thread
    started before (torch's, numba's) does not block it, so the kernel hands the Ctrl-C to that
    thread, and Python raises ``KeyboardInterrupt`` in the main thread at its next step, blocked
    or not. Raised between a spawned worker's start and the write of its start-up data, it leaves
    that worker reading an empty pipe, printing ``EOFError: Ran out of input`` (as a Ctrl-C test
    once did under load). So in the main thread the handler is swapped too, for one that only
    notes the interrupt, and the noted interrupt is handed to the old handler when the block ends."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows
        yield
        return
    import threading
    noted: list[int] = []
    main = threading.current_thread() is threading.main_thread()  # only it may set handlers
    handler = signal.getsignal(signal.SIGINT) if main else None
    swap = main and handler not in (signal.SIG_IGN, None)  # an ignored Ctrl-C stays ignored
    if swap:
        signal.signal(signal.SIGINT, lambda signum, frame: noted.append(signum))
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
        if swap:
            signal.signal(signal.SIGINT, handler)
            if noted:
                _deliver(handler)


def _deliver(handler: Any) -> None:
    """Hand a Ctrl-C noted while interrupts were held to the handler that was in place."""
    import os
    if handler == signal.SIG_DFL:
        os.kill(os.getpid(), signal.SIGINT)
    elif callable(handler):  # Python's own, default_int_handler, raises KeyboardInterrupt
        handler(signal.SIGINT, None)


def _submit(pool: ProcessPoolExecutor, fn: Callable[[Any], T], item: Any) -> Future:
    """``pool.submit``, which may start a worker: with interrupts held (``interrupts_held``)."""
    with interrupts_held():
        return pool.submit(fn, item)


def executor(workers: int, method: str | None = None) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes started the safe, cheap way (or by ``method``)."""
    import os
    return ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context(method or start_method()),
                               initializer=_worker_start, initargs=(os.getpid(),))


def imap(fn: Callable[[Any], T], items: Iterable[Any], workers: int, method: str | None = None,
         window: int | None = None) -> Iterator[T]:
    """``fn`` over ``items`` in ``workers`` processes, results in the items' order, at most
    ``window`` items in flight (default four per worker). A worker that dies raises
    :class:`WorkerDied` at once; Ctrl-C cancels what has not started."""
    window = window or 4 * workers
    with executor(workers, method) as pool:
        pending: deque[Future] = deque()
        try:
            for item in items:
                pending.append(_submit(pool, fn, item))
                if len(pending) >= window:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        except BrokenProcessPool:
            raise WorkerDied("a worker process died before finishing its episodes (killed, or out of "
                             "memory); the run stopped, and nothing was written") from None
        finally:
            for f in pending:
                f.cancel()
