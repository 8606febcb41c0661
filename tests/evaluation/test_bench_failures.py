"""bench and eval when things go wrong (issue 33): a killed worker stops the run and says so, Ctrl-C
prints one line and leaves no file, job counts and worker counts are bounded, and a cluster that is
not there is named within seconds. Real processes, real signals."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT

from fate_env.cli import main


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(c) for c in text.split()]


def _workers(pid: int, count: int, timeout: float = 60) -> list[int]:
    """The worker processes of ``pid`` (not Python's resource tracker), once ``count`` are up."""
    end = time.time() + timeout
    while time.time() < end:
        kids = [c for c in _children(pid) if b"resource_tracker" not in Path(f"/proc/{c}/cmdline").read_bytes()]
        if len(kids) >= count:
            return kids
        time.sleep(0.1)
    raise AssertionError(f"no {count} workers appeared")


#: runs the CLI as a terminal starts it, Ctrl-C at its default even where the test runner was started
#: with it ignored (a shell's background job: Python would then ignore it too, and never stop)
_AS_FROM_A_TERMINAL = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                       "os.execv(sys.executable, [sys.executable, '-m', 'fate_env.cli', *sys.argv[1:]])")


def _start(args: list[str], tmp_path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", _AS_FROM_A_TERMINAL, *args], cwd=tmp_path, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})


pytestmark = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")


@pytest.mark.parametrize("command", [
    ["bench", "duel", "-n", "20000", "--workers", "2", "--engine", "reference", "--json", "out.json"],
    ["eval", "duel", "--policies", "basic,random", "-n", "5000", "--workers", "2"],
])
@pytest.mark.kernel
def test_a_killed_worker_stops_the_run_and_says_so(tmp_path, command):
    proc = _start(command, tmp_path)
    victim = _workers(proc.pid, 2)[0]
    os.kill(victim, signal.SIGKILL)
    try:
        out, err = proc.communicate(timeout=60)  # never a hang
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 2, err
    assert "worker process died" in err and "Traceback" not in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no report, no temporary file


def test_ctrl_c_prints_one_line_and_leaves_no_file(tmp_path):
    proc = _start(["bench", "duel", "-n", "20000", "--workers", "2", "--engine", "reference",
                   "--json", "out.json", "--csv", "out.csv"], tmp_path)
    _workers(proc.pid, 2)
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole foreground group
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err.strip().splitlines()[-1].startswith("fate-npc: interrupted"), err
    assert len([line for line in err.splitlines() if line.strip()]) == 1, err
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_episode_and_worker_counts_are_bounded_before_anything_runs(capsys):
    started = time.perf_counter()
    assert main(["bench", "duel", "-n", "100000000", "--engine", "reference"]) == 2
    err = capsys.readouterr().err
    assert "over the limit of 2,000,000" in err and time.perf_counter() - started < 30
    with pytest.raises(SystemExit):
        main(["bench", "duel", "--workers", "100000"])
    assert "at most 64 processes" in capsys.readouterr().err


@pytest.mark.parametrize("address", ["127.0.0.1:9", "ray://127.0.0.1:9", "nonsense"])
def test_a_cluster_that_is_not_there_fails_in_seconds_naming_the_address(capsys, address):
    pytest.importorskip("ray")
    started = time.perf_counter()
    assert main(["bench", "duel", "-n", "4", "--engine", "reference", "--ray", address]) == 2
    err = capsys.readouterr().err
    assert f"--ray {address}:" in err and time.perf_counter() - started < 15, err
