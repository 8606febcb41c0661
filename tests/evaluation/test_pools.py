"""Worker pools start by fork only where that is safe: never once torch is loaded."""

from __future__ import annotations

import multiprocessing as mp
import sys

from fate_env.evaluation import pools


def test_fork_without_torch_spawn_with_it(monkeypatch):
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    expected = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
    assert pools.start_method() == expected
    monkeypatch.setitem(sys.modules, "torch", object())
    assert pools.start_method() == "spawn"


def test_a_pool_runs_work():
    with pools.pool(2) as p:
        assert p.map(abs, [-1, -2, 3]) == [1, 2, 3]
