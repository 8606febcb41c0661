"""What keeps the web table served when strangers can reach its port.

A café or convention network puts the server in reach of people who hold no link. Nothing they
send must take the GM's or the players' seats away, so the server keeps three budgets that a
stranger cannot spend for them:

* **connections**: at most :data:`MAX_CONNECTIONS` open at once. A new connection over the budget
  closes the oldest one that has no request in flight (an idle keep-alive, or one that has not
  finished its headers): a stranger's idle sockets make room for the GM, never the other way round.
  uvicorn's own ``limit_concurrency`` counted idle sockets and event streams alike and answered 503
  to everyone past 64, the GM included; it is off.
* **time**: a connection must finish a request's headers within :data:`HEADER_TIMEOUT` seconds of
  opening (or of its last response): half-sent headers are dropped, not waited on. An idle
  keep-alive is closed after uvicorn's ``timeout_keep_alive``; a body must arrive within
  :data:`BODY_TIMEOUT` (the server's own check).
* **event streams**: a page listens on one stream; each link holds at most
  :data:`STREAMS_PER_SEAT` (the GM's and each player's; a newer one ends the oldest, as a phone that
  reloads leaves its old stream behind), and all the spectators together
  :data:`SPECTATOR_STREAMS` (more are refused, 429). So streams never fill the connection budget.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

#: open connections at once, whoever holds them (well under the usual 1,024 file descriptors)
MAX_CONNECTIONS = 256
#: seconds a connection has to send a request's headers, from its opening or its last response
HEADER_TIMEOUT = 10.0
#: seconds a request has to send its (small) body once its headers are in
BODY_TIMEOUT = 10.0
#: event streams one link (the GM's, a player's) holds at once: a newer one ends the oldest
STREAMS_PER_SEAT = 4
#: event streams all spectators hold together: past it a spectator's page is refused (429)
SPECTATOR_STREAMS = 32


class Budget:
    """The open connections of one server, oldest first (shared by its protocol instances)."""

    def __init__(self, limit: int | None = None, header_timeout: float | None = None) -> None:
        self.limit = MAX_CONNECTIONS if limit is None else limit
        self.header_timeout = HEADER_TIMEOUT if header_timeout is None else header_timeout
        self.open: dict["GuardedH11", None] = {}  # in the order they opened (a dict keeps it)

    def admit(self, conn: "GuardedH11") -> None:
        self.open[conn] = None
        if len(self.open) <= self.limit:
            return
        idle = next((c for c in self.open if c is not conn and not c.busy()), None)
        if idle is None:  # every other connection is mid-request: the newcomer is the one turned away
            idle = conn
        idle.drop()  # out of the budget now: its connection_lost comes later

    def leave(self, conn: "GuardedH11") -> None:
        self.open.pop(conn, None)


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a header deadline and the shared connection :class:`Budget`."""

    budget: Budget  # set on the subclass :func:`protocol` makes, one per server

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def busy(self) -> bool:
        """A request in flight (its headers in, its response not finished): an event stream or an answer."""
        return self.cycle is not None and not self.cycle.response_complete

    def drop(self) -> None:
        self.budget.leave(self)
        if not self.transport.is_closing():
            self.transport.close()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.budget.header_timeout, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if not self.busy():
            self.drop()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()
        self.budget.admit(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.budget.leave(self)
        super().connection_lost(exc)

    def handle_events(self) -> None:
        before = self.cycle
        super().handle_events()
        if self.cycle is not before and self.busy():  # a request's headers are in: no deadline while it runs
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request's headers have the same deadline


def protocol(budget: Budget | None = None) -> type[GuardedH11]:
    """A protocol class for ``uvicorn.Config(http=...)`` with a budget of its own (one per server)."""
    return type("GuardedH11ForServer", (GuardedH11,), {"budget": budget or Budget()})


class Streams:
    """The event streams open per link. ``open`` returns a stop event the stream watches (set when a
    newer stream of the same link takes its place), or None when the spectators' share is full."""

    def __init__(self, per_seat: int | None = None, spectators: int | None = None) -> None:
        self.per_seat = STREAMS_PER_SEAT if per_seat is None else per_seat
        self.spectators = SPECTATOR_STREAMS if spectators is None else spectators
        self.by_token: dict[str, list[asyncio.Event]] = {}

    def open(self, token: str, spectator: bool) -> asyncio.Event | None:
        held = self.by_token.setdefault(token, [])
        if spectator and len(held) >= self.spectators:
            return None
        while len(held) >= self.per_seat and not spectator:
            held.pop(0).set()
        stop = asyncio.Event()
        held.append(stop)
        return stop

    def close(self, token: str, stop: asyncio.Event) -> None:
        held = self.by_token.get(token, [])
        if stop in held:
            held.remove(stop)

    def count(self) -> int:
        return sum(len(v) for v in self.by_token.values())
