"""What is known about the compiled kernel without importing numba (fate_env/fast/stamp.py): the
light import a run on the reference pays, and the marker a compiled kernel leaves (issue 38: the
first bench is never slower than the reference, so it must not load numba to learn it is cold)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from fate_env.fast import stamp
from fate_env.fast.jit import HAVE_NUMBA


def _python(code: str, **env: str) -> str:
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900,
                       env={**os.environ, **env})
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout.strip()


def test_choosing_an_engine_imports_neither_numba_nor_the_kernel():
    code = ("import sys\nfrom fate_env.content.scenes import load_scene\nimport fate_env.fast as f\n"
            "print(f.covered(load_scene('horde')), f.available(), 'numba' in sys.modules, "
            "'fate_env.fast.kernel.entry' in sys.modules)")
    assert _python(code) == f"[] {stamp.installed()} False False"


def test_the_marker_is_one_per_cache_folder_and_left_by_mark(tmp_path, monkeypatch):
    if not stamp.installed():
        assert stamp.marker() is None and not stamp.marked()
        return
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert not stamp.marked()
    stamp.mark()
    assert stamp.marked() and stamp.marker().parent == tmp_path / "fate-npc"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "elsewhere"))  # another cache: not compiled there
    assert not stamp.marked()


@pytest.mark.kernel
@pytest.mark.skipif(not HAVE_NUMBA, reason="the marker is left by a compiled kernel")
def test_a_process_that_plays_the_kernel_leaves_the_marker(tmp_path):
    code = ("from fate_env.content.scenes import load_scene\nfrom fate_env.fast import FastCore, stamp\n"
            "print(stamp.marked()); FastCore(load_scene('duel')).run([1]); print(stamp.marked())")
    assert _python(code, XDG_CACHE_HOME=str(tmp_path)).split() == ["False", "True"]
