"""One compile per cache (issue 50): runs started together share the kernel's first compile instead of
each compiling it, and the background compile stays in the run's scheduler group so its idle priority
holds. The kernel itself is not compiled here (a minute and a half of CPU): the protocol is tried with a
stand-in build, and the kernel's first call is checked to keep it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from contextlib import contextmanager

import pytest
from conftest import ROOT

from fate_env.fast import stamp

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the lock is POSIX flock")

BUILD = """
import sys, time
from pathlib import Path
from fate_env.fast import stamp
built = Path(sys.argv[1])
print("ready", flush=True)
sys.stdin.readline()  # both started: go together
with stamp.compile_lock():
    if built.exists():
        print("loaded")
    else:
        time.sleep(1.0)  # the compile
        built.write_text("compiled")
        print("compiled")
"""


@pytest.mark.skipif(not stamp.installed(), reason="the lock sits beside the compiled marker (numba's)")
def test_two_runs_started_together_compile_once(tmp_path):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    runs = [subprocess.Popen([sys.executable, "-c", BUILD, str(tmp_path / "cache.bin")], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, env=env) for _ in range(2)]
    for run in runs:
        assert run.stdout.readline().strip() == "ready"
    for run in runs:
        run.stdin.write("go\n")
        run.stdin.flush()
    said = sorted(run.communicate(timeout=60)[0].strip() for run in runs)
    assert said == ["compiled", "loaded"]


def test_the_kernel_s_first_call_holds_the_lock_only_while_nothing_is_compiled(monkeypatch):
    pytest.importorskip("numba")
    from fate_env.fast import core
    taken = []

    @contextmanager
    def lock(entry="play_batch"):
        taken.append(True)
        yield

    class Kernel:
        __name__ = "play_batch"
        signatures: list = []

        def __call__(self, *args):
            pass

    monkeypatch.setattr(stamp, "compile_lock", lock)
    monkeypatch.setattr(stamp, "mark", lambda: None)
    monkeypatch.setattr(core, "play_batch", Kernel())
    monkeypatch.setattr(core, "_MARKED", False)
    core._play_batch()
    assert taken == [True]  # nothing compiled: the first call compiles (or waits) under the lock
    Kernel.signatures = ["compiled"]
    monkeypatch.setattr(core, "_MARKED", False)
    core._play_batch()
    assert taken == [True]  # compiled in this process already: no lock


def test_the_background_compile_stays_in_the_run_s_session_in_a_group_of_its_own():
    """A new session would get a scheduler autogroup of its own, where SCHED_IDLE ranks the compile
    against nothing; in the run's session it yields to the run. Its own process group keeps a terminal's
    Ctrl-C (sent to the foreground group) from killing it half-way."""
    from fate_env.evaluation.bench import Compiling
    c = Compiling("duel", None)
    c.start()
    try:
        assert os.getsid(c.proc.pid) == os.getsid(0)
        assert os.getpgid(c.proc.pid) == c.proc.pid != os.getpgid(0)
    finally:  # idle-priority: on a busy machine it may not run for minutes; not waited for
        os.killpg(c.proc.pid, signal.SIGKILL)
        c.proc.wait(timeout=60)


def test_every_entry_point_s_first_compile_holds_the_lock(monkeypatch):
    """Not only play_batch: the environment's advance and observe (through jit.bound) and the look-ahead's
    playouts (jit.first_call) compile under the same lock, so the suite's workers and runs started
    together never compile the same entry point twice."""
    numba = pytest.importorskip("numba")
    from fate_env.fast import jit
    taken = []

    @contextmanager
    def lock(entry="play_batch"):
        taken.append(True)
        yield

    monkeypatch.setattr(stamp, "compile_lock", lock)
    add = numba.njit(lambda x: x + 1)
    assert jit.first_call(add, 1) == 2 and taken == [True]
    assert jit.first_call(add, 2) == 3 and taken == [True]  # compiled in this process: no lock
    twice = numba.njit(lambda x: x * 2)
    assert jit.bound(twice, (3,))(3) == 6 and taken == [True, True]
    assert jit.bound(twice, (4,))(4) == 8 and taken == [True, True]


def test_each_entry_point_has_its_own_lock(tmp_path, monkeypatch):
    """Two processes compiling different entry points do not wait for each other (the suite's workers
    would idle for minutes); the same entry point is still compiled once."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    if stamp.marker() is None:
        pytest.skip("no compiled marker here (numba not installed)")
    import fcntl
    with stamp.compile_lock("advance"):
        other = open(stamp.marker().with_name(stamp.marker().name + ".playouts.lock"), "a")
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # another entry point's lock is free
        fcntl.flock(other, fcntl.LOCK_UN)
        same = open(stamp.marker().with_name(stamp.marker().name + ".advance.lock"), "a")
        with pytest.raises(BlockingIOError):
            fcntl.flock(same, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the same one's is held
        other.close()
        same.close()


PROBE = """
import sys
from fate_env.fast import stamp
print(" ".join(e for e in sys.argv[1:] if not stamp.hold(e, wait=False)), flush=True)
"""


def _held_elsewhere(env, entries):
    """The entry points whose lock another process holds (tried from a new process, without waiting)."""
    out = subprocess.run([sys.executable, "-c", PROBE, *entries], env=env, capture_output=True, text=True,
                         timeout=60)
    return out.stdout.split()


@pytest.mark.skipif(not stamp.installed(), reason="the locks sit beside the compiled marker (numba's)")
def test_the_warm_compile_holds_every_entry_point_s_lock_before_it_compiles_and_lets_go_after(tmp_path,
                                                                                            monkeypatch):
    """The suite's background compile (fate_env/environment/warm.py): a worker whose kernel test comes before an
    entry point is ready must wait on its lock, not compile it a second time."""
    from fate_env.environment import warm
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    entries = [e for names, _ in warm.STEPS for e in names]
    assert set(entries) >= {"play_batch", "advance", "observe", "playouts"}
    seen = []
    steps = [(names, lambda scene, names=names: seen.append(_held_elsewhere(env, entries))) for names, _ in warm.STEPS]
    monkeypatch.setattr(warm, "STEPS", tuple(steps))
    warm.warm(ready=lambda: seen.append(_held_elsewhere(env, entries)))
    assert seen[0] == entries  # every lock is held before the first compile
    for i, (names, _) in enumerate(steps):  # each step's locks until it is done; the earlier ones let go
        done = {e for n, _ in steps[:i] for e in n}
        assert seen[i + 1] == [e for e in entries if e not in done]
    assert _held_elsewhere(env, entries) == []


@pytest.mark.skipif(not stamp.installed(), reason="the locks sit beside the compiled marker (numba's)")
def test_a_second_warm_compile_leaves_at_once(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert stamp.hold("warm")
    try:
        out = subprocess.run([sys.executable, "-m", "fate_env.environment.warm"], cwd=ROOT, capture_output=True, text=True,
                             timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert out.stdout.strip() == "busy"
    finally:
        stamp.release("warm")
