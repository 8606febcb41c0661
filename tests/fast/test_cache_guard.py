"""Editing any file of the fast core recompiles it (issue 34): numba's cache checks only the file
that defines a function, so ``jit.guard_cache`` drops the fast core's cached functions when the
hash of all its sources changes."""

from __future__ import annotations

import pytest

from fate_env.fast import jit, stamp


def _cached(folder, names):
    for name in names:
        (folder / f"{name}._emit-128.py311.nbi").write_text("index")
        (folder / f"{name}._emit-128.py311.1.nbc").write_text("code")


def test_a_changed_source_drops_the_fast_cores_cached_functions_and_nothing_else(tmp_path):
    src, cache = tmp_path / "src", tmp_path / "cache"
    src.mkdir()
    cache.mkdir()
    (src / "kernel.py").write_text("@njit\nx = 1\n")
    (src / "dice.py").write_text("@njit\ny = 1\n")
    (src / "tables.py").write_text("z = 1\n")  # no compiled code: not hashed
    _cached(cache, ["kernel", "dice", "someone_else"])
    first = jit.sources_digest(src)
    assert jit.guard_cache(cache, first, ["kernel", "dice"])  # no record yet: stale
    assert sorted(p.name for p in cache.iterdir()) == sorted(
        ["someone_else._emit-128.py311.nbi", "someone_else._emit-128.py311.1.nbc", jit.STAMP])

    _cached(cache, ["kernel", "dice"])
    assert not jit.guard_cache(cache, first, ["kernel", "dice"])  # unchanged: kept
    assert len(list(cache.glob("kernel.*"))) == 2

    (src / "tables.py").write_text("z = 2\n")
    assert jit.sources_digest(src) == first
    (src / "dice.py").write_text("@njit\ny = 2\n")  # an edit to a callee, not to kernel.py
    second = jit.sources_digest(src)
    assert second != first
    assert jit.guard_cache(cache, second, ["kernel", "dice"])
    assert not list(cache.glob("kernel.*")) and not list(cache.glob("dice.*"))
    assert (cache / jit.STAMP).read_text() == second

    (src / "sub").mkdir()  # the kernel's own folder (fast/kernel/) is hashed with the rest
    (src / "sub" / "rolls.py").write_text("@njit\nw = 1\n")
    third = jit.sources_digest(src)
    assert third != second
    (src / "sub" / "rolls.py").write_text("@njit\nw = 2\n")
    assert jit.sources_digest(src) != third


@pytest.mark.skipif(not jit.HAVE_NUMBA, reason="numba caches only when installed")
def test_the_cache_folders_record_the_sources_they_were_compiled_from():
    folders = {path.parent for path in jit.kernel_files()}
    assert folders == {stamp.SOURCES, stamp.SOURCES / "kernel"}  # fast/ (observe.py, dice.py) and fast/kernel/
    for source_folder in folders:
        cache = jit._cache_folder(next(source_folder.glob("*.py")))
        assert cache is not None
        assert (cache / jit.STAMP).read_text() == jit.sources_digest()
