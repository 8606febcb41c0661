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
