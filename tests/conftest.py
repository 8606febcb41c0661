"""Shared test helpers: build scenes from dicts, and drive a conflict by hand."""

from __future__ import annotations

import contextlib
import copy
import fcntl
import gc
import io
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from fate_env.rules.conflict import Conflict  # noqa: E402
from fate_env.rules.options import DoneInvoking  # noqa: E402
from fate_env.content.scenes import scene_from_dict  # noqa: E402

def random_decisions(scene, seed: int, most: int = 60) -> list:
    """Random play through a conflict: (entity rows, decision) at each decision, encoded as it stands
    (the entity view's and the learned NPC's tests)."""
    import numpy as np

    from fate_env.environment.entities import EntityEncoder
    c = Conflict(scene, seed=seed)
    rng = np.random.default_rng(seed)
    enc = EntityEncoder(scene)
    out = []
    while c.pending is not None and len(out) < most:
        d = c.pending
        out.append((enc.encode(c, d.actor), d))
        c.step(int(rng.integers(len(d.options))))
    return out


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """``fate-npc ARGS`` run in this process: its exit code, stdout and stderr, as ``subprocess.run``
    gives them, without a new interpreter's start-up (torch and SB3 alone take seconds to import).
    For the commands whose tests are about what they compute; the tests of the command line as a
    process (installs, signals, terminals) start one."""
    from fate_env.cli import main
    out, err = io.StringIO(), io.StringIO()
    environ = dict(os.environ)  # what a command sets for its workers (--trust-models) ends with it
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 1
        finally:
            os.environ.clear()
            os.environ.update(environ)
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


#: a PC and a major NPC alone in one room: the smallest fight most rules tests start from
DUO = {
    "hero": {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Fight": 3, "Athletics": 2, "Notice": 2},
             "high_concept": "Brave Hero", "trouble": "Reckless", "fate_points": 3},
    "brute": {"kind": "major", "side": "npcs", "zone": "room", "skills": {"Fight": 3, "Athletics": 1},
              "high_concept": "Hulking Brute", "trouble": "Slow Witted"},
}


def confirm_mode():
    """The table as it was before the autopilot (``play --confirm --ask-all``): every NPC decision waits for
    Enter and the players are asked every decision. The tests written for that mode run in it."""
    from fate_env.live.autopilot import Autopilot
    return Autopilot(confirm_all=True, obvious=False)


def events(c, kind):
    """The events of ``kind`` in a conflict's log, in order."""
    return [e for e in c.events if isinstance(e, kind)]


def rolled(c, actor):
    """The rolls ``actor`` made (its Rolled events), in order."""
    from fate_env.rules import events as ev
    return [e for e in events(c, ev.Rolled) if e.actor == actor]


def under(name, chars=None, dials=None, **extra):
    """A scene of ``chars`` (by default DUO) under rule set ``name`` with some dials."""
    return make_scene(chars if chars is not None else DUO, rules={"name": name, "dials": dials or {}}, **extra)


def aspect_id(c, name):
    """The id of the aspect in play called ``name``."""
    return next(a.id for a in c.aspects.values() if a.name == name)


SHIPPED = ["warehouse", "warehouse_mobs", "ghoul", "interrogation", "duel", "race", "chase", "ritual", "debate", "vault",
           "summoning", "wyrm", "burning_mill", "horde", "highwaymen", "crossing", "leviathan"]


def make_scene(characters: dict, zones=("room",), borders=(), aspects=(), rules="condensed", **extra):
    data = {
        "name": "test",
        "rules": rules,
        "zones": [{"id": z} for z in zones],
        "borders": [dict(b) for b in borders],
        "aspects": [dict(a) for a in aspects],
        "characters": copy.deepcopy(characters),
        **extra,
    }
    return scene_from_dict(data, "<test>")


class Driver:
    """Answer a conflict's decisions by hand; invoke rounds pass unless told otherwise."""

    def __init__(self, conflict: Conflict):
        self.c = conflict

    def skip_invokes(self) -> None:
        while self.c.pending is not None and self.c.pending.kind == "invoke":
            self.c.step(DoneInvoking())

    def do(self, kind: str, actor: str, option) -> None:
        if kind != "invoke":
            self.skip_invokes()
        d = self.c.pending
        assert d is not None, f"conflict over, expected {kind} for {actor}"
        assert (d.kind, d.actor) == (kind, actor), f"pending is {d.kind} for {d.actor}, expected {kind} for {actor}"
        self.c.step(option)

    def expect(self, kind: str, actor: str):
        if kind != "invoke":
            self.skip_invokes()
        d = self.c.pending
        assert d is not None and (d.kind, d.actor) == (kind, actor), (
            f"pending is {d and (d.kind, d.actor)}, expected {(kind, actor)}")
        return d


@pytest.fixture
def driver():
    return Driver


@pytest.fixture(autouse=True, scope="session")
def _trusted_models_in_a_temporary_folder(tmp_path_factory):
    """The record of full saves this machine's training wrote (policy_file: Trust) lives under
    $XDG_DATA_HOME: one folder per test process, inherited by the commands the tests start."""
    import os
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data"))


@pytest.fixture(autouse=True)
def _autosaves_in_a_temporary_folder(tmp_path_factory, monkeypatch):
    """Live sessions autosave under $XDG_STATE_HOME: keep the tests' saves out of the home folder."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))


# -- the kernel's one compile ------------------------------------------------------------------------
# Tests marked ``kernel`` run the fast core. They run last, and a run that has any starts
# ``python -m fate_env.environment.warm`` first: one process compiles every entry point of the kernel (about
# 150 s of a core on a clean clone) while the workers run everything else; a kernel test that comes
# before it is done waits on its entry point's lock, then loads it (fate_env/environment/warm.py). Without
# it each worker compiled the entry point its first kernel test needed, both at once, each paying for
# the functions they share. A kernel test left unmarked is no less correct, only possibly slower.

def pytest_configure(config):
    config.addinivalue_line("markers", "kernel: runs the fast core's compiled kernel (run after the rest, "
                                       "while one process compiles it: tests/conftest.py)")
    config.addinivalue_line("markers", "timed: bounds a server's or a page's answering time; runs with no "
                                       "other test beside it (tests/conftest.py)")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    kernel = [item for item in items if item.get_closest_marker("kernel")]
    if not kernel:
        return
    items[:] = [item for item in items if not item.get_closest_marker("kernel")] + kernel
    if not config.option.collectonly:
        config._kernel_warm = _start_warm()


def _in_the_background() -> None:
    """The compile is a batch job beside the workers: at a lower priority it takes the cores they leave
    idle (a kernel test waiting on its lock leaves one); a ``timed`` test pauses it altogether
    (:func:`_compile_paused`)."""
    os.nice(WARM_NICENESS)


#: how much lower than the workers' the background compile's priority is (os.nice)
WARM_NICENESS = 10


def _start_warm():
    """The background compile, once it holds every entry point's lock (it says so on its first line);
    None when it has nothing to do (no numba) or another run's is at it."""
    proc = subprocess.Popen([sys.executable, "-m", "fate_env.environment.warm"], cwd=ROOT, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, preexec_fn=_in_the_background)
    if proc.stdout.readline().strip() != "locked":
        proc.wait()
        return None
    _warm_pid_file().write_text(str(proc.pid))
    return proc


def _warm_pid_file() -> Path:
    """Where the background compile's process id is kept for this run's workers (the one that started
    it and the one running a ``timed`` test may differ)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"solo-{os.getpid()}"
    return Path(tempfile.gettempdir()) / f"fate-npc-warm-{run}.pid"


@contextlib.contextmanager
def _compile_paused():
    """The background compile stopped (SIGSTOP) for the block, then let go on (SIGCONT): a ``timed``
    test's server has the machine to itself. The process is checked to still be the compile before it
    is stopped (a finished compile's number may have been given to another process)."""
    try:
        pid = int(_warm_pid_file().read_text())
        compiling = b"fate_env.environment.warm" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError):
        compiling = False
    if compiling:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        if compiling:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)


@contextlib.contextmanager
def _heap_frozen():
    """The worker's heap (thousands of tests' modules, torch among them) collected, then frozen out of
    the garbage collector for the block, as ``serve`` freezes its start-up's (fate_env/web/server.py):
    a full collection inside a timed test walks only what the test made."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@pytest.fixture(autouse=True)
def _timed_apart(request, tmp_path_factory):
    """A test marked ``timed`` bounds how long a server or a page takes to answer (under a flood, per
    click): it runs while no other test runs on another worker. A flood beside a chromium or a
    compile left the server a third of a core on two, and the bounds are about the server's
    fairness, not about the machine's spare cores. Every other test holds a shared lock while it
    runs, a ``timed`` one the exclusive lock, in the run's shared temporary folder (the workers'
    parent folder under pytest-xdist); a turnstile in front keeps a waiting ``timed`` test from being
    passed over by the other worker's next tests. The kernel's background compile, if it still runs,
    is paused meanwhile, and the worker's heap is frozen out of the garbage collector."""
    timed = request.node.get_closest_marker("timed") is not None
    folder = tmp_path_factory.getbasetemp().parent
    with open(folder / "timed-turnstile.lock", "a") as gate, open(folder / "timed-apart.lock", "a") as held:
        fcntl.flock(gate, fcntl.LOCK_EX)
        try:
            fcntl.flock(held, fcntl.LOCK_EX if timed else fcntl.LOCK_SH)
        finally:
            if not timed:
                fcntl.flock(gate, fcntl.LOCK_UN)
        try:
            with _compile_paused() if timed else contextlib.nullcontext(), _heap_frozen() if timed else contextlib.nullcontext():
                yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)
            if timed:
                fcntl.flock(gate, fcntl.LOCK_UN)


#: the aspect :func:`hidden_duel` hides on the steps
HIDDEN = "Rotten Floorboards"


def hidden_duel(folder: Path) -> str:
    """The shipped duel with one more aspect, hidden on the steps (in play, known to the GM alone,
    003:854-867), written in ``folder``; its path."""
    import yaml
    data = yaml.safe_load((ROOT / "configs" / "scenes" / "duel.yaml").read_text())
    data["name"] = "hidden_duel"
    data["aspects"].append({"name": HIDDEN, "zone": "steps", "hidden": True})
    path = folder / "hidden_duel.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return str(path)


def pytest_unconfigure(config):
    proc = getattr(config, "_kernel_warm", None)
    if proc is None:
        return
    _warm_pid_file().unlink(missing_ok=True)
    if proc.poll() is None:  # the run ended before its kernel tests (-x, Ctrl-C)
        proc.send_signal(signal.SIGCONT)  # in case a timed test was cut short while it was paused
        proc.terminate()
        proc.wait()
