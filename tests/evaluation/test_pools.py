"""Worker pools start by fork only where that is safe: never once torch is loaded."""

from __future__ import annotations

import multiprocessing as mp
import sys

import pytest

from fate_env.evaluation import pools


def test_fork_without_torch_spawn_with_it(monkeypatch):
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    expected = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
    assert pools.start_method() == expected
    monkeypatch.setitem(sys.modules, "torch", object())
    assert pools.start_method() == "spawn"


def test_a_pool_runs_work_in_order_a_window_at_a_time():
    fed = []

    def items():
        for x in range(-50, 50):
            fed.append(x)
            yield x
    got = pools.imap(abs, items(), 2, window=4)
    assert next(got) == 50 and len(fed) == 4  # four in flight, not the whole list
    assert list(got) == [abs(x) for x in range(-49, 50)]


def _die(x: int) -> int:
    import os
    if x == 3:
        os._exit(9)  # as a kill -9 or the OOM killer would end it
    return x


def test_a_worker_that_dies_stops_the_run_with_the_reason():
    import pytest
    with pytest.raises(pools.WorkerDied, match="worker process died"):
        list(pools.imap(_die, range(20), 2))


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    import os
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.add(int(entry))
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.kernel
def test_workers_end_when_their_parent_is_killed():
    """An ``eval --workers 2`` killed from outside (a script's timeout, kill -9) leaves no worker
    burning a core: each sees its parent gone and ends within seconds."""
    import os
    import signal
    import subprocess
    import time

    import pytest
    if not os.path.isdir("/proc"):
        pytest.skip("needs /proc to find the workers")
    from conftest import ROOT
    proc = subprocess.Popen([sys.executable, "-m", "fate_env.cli", "eval", "duel", "--policies", "basic,stacker",
                             "-n", "100000", "--workers", "2"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 120
        workers: set[int] = set()
        while time.time() < deadline and len(workers) < 2 and proc.poll() is None:
            workers = {p for p in _children(proc.pid) if _alive(p)}
            time.sleep(0.2)
        assert len(workers) >= 2, "the workers never started"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        deadline = time.time() + 15
        while time.time() < deadline and any(_alive(p) for p in workers):
            time.sleep(0.2)
        left = [p for p in workers if _alive(p)]
    finally:
        if proc.poll() is None:
            proc.kill()
    for p in left:  # never leave them behind, even when the test fails
        os.kill(p, signal.SIGKILL)
    assert not left, f"workers {left} outlived their parent"


_HELD = """
import os, signal, threading, time
from fate_env.evaluation.pools import interrupts_held
signal.signal(signal.SIGINT, signal.default_int_handler)  # as a terminal starts Python, whoever ran the tests
go, sent = threading.Event(), threading.Event()
# a thread started before the block (torch's, numba's) does not block Ctrl-C, so
# the kernel hands the signal to it
threading.Thread(target=lambda: (go.wait(), os.kill(os.getpid(), signal.SIGINT), sent.set())).start()
steps = []
try:
    with interrupts_held():
        go.set()
        end = time.monotonic() + 0.2
        while not sent.is_set() or time.monotonic() < end:  # the main thread keeps stepping, after
            pass                                            # the signal too: where Python would raise it
        steps.append("block finished")
    steps.append("not raised")
except KeyboardInterrupt:
    steps.append("raised after the block")
print(" / ".join(steps))
"""


@pytest.mark.skipif(not hasattr(__import__("signal"), "pthread_sigmask"), reason="POSIX signal masks")
def test_a_ctrl_c_taken_by_another_thread_waits_for_the_held_block_to_end():
    """A Ctrl-C while workers start is raised once they have started, never in the middle (where it
    left a spawned worker reading an empty pipe: ``EOFError: Ran out of input``). Run in a fresh
    interpreter, whose main thread owns the signal handlers."""
    import subprocess
    out = subprocess.run([sys.executable, "-c", _HELD], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "block finished / raised after the block", out.stdout + out.stderr
