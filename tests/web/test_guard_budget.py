"""The connection budget's choice, on its own (fate_env/web/guard.py): which connection a newcomer past
the budget closes. The floods in test_fair_service.py show the seats stay served; this pins the order
the guard's docstring promises, for any mix of connections, since the choice now runs in one pass with
its counts kept as connections come and go."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install -e '.[web]')")

from fate_env.web import guard  # noqa: E402


class Clock:
    def time(self) -> float:
        return 100.0


class Conn:
    """What the budget reads of a connection: its address, its state, its loop; dropping leaves."""

    loop = Clock()

    def __init__(self, budget: guard.Budget, peer: str, state: int) -> None:
        self.budget, self.peer, self.fixed = budget, peer, state
        self.dropped = False

    def state(self, now: float | None = None) -> int:
        return self.fixed

    def drop(self) -> None:
        self.dropped = True
        self.budget.leave(self)


def expected_victim(open_before: list[Conn], newcomer: Conn, limit: int, share: int) -> Conn:
    """The docstring's order, spelled out the slow way: the pool (the newcomer's address past its
    share, else everyone), then the lowest state, the address holding the most, the oldest; the
    newcomer itself when every other one serves a link's request."""
    everyone = open_before + [newcomer]
    held = Counter(c.peer for c in everyone)
    pool = [c for c in everyone if c.peer == newcomer.peer] if held[newcomer.peer] > share else everyone
    candidates = [c for c in pool if c is not newcomer and c.state() != guard.SEATED]
    if not candidates:
        return newcomer
    return min(candidates, key=lambda c: (c.state(), -held[c.peer], everyone.index(c)))


arrivals = st.lists(st.tuples(st.sampled_from(["a", "b", "c", "d"]),
                              st.sampled_from([guard.STALLED, guard.IDLE, guard.STRANGER, guard.FRESH, guard.SEATED]),
                              st.booleans()),  # whether an older connection leaves (its peer hung up) first
                    min_size=1, max_size=60)


@settings(max_examples=300, deadline=None)
@given(arrivals)
def test_a_newcomer_past_the_budget_closes_the_one_the_order_names(steps):
    budget = guard.Budget(limit=8, peer_share=4)
    for peer, state, someone_leaves in steps:
        if someone_leaves and budget.open:
            gone = next(iter(budget.open))
            budget.leave(gone)
            budget.leave(gone)  # lost after it was dropped: counted out once
        before = list(budget.open)
        newcomer = Conn(budget, peer, state)
        over = len(before) + 1 > budget.limit or sum(c.peer == peer for c in before) + 1 > budget.peer_share
        want = expected_victim(before, newcomer, budget.limit, budget.peer_share) if over else None
        budget.admit(newcomer)
        closed = [c for c in before + [newcomer] if c.dropped]
        assert closed == ([want] if want else []), (before, newcomer, closed)
        assert budget.held == Counter(c.peer for c in budget.open)
        assert len(budget.open) <= budget.limit
