"""What keeps the web table served when strangers can reach its port.

A café or convention network puts the server in reach of people who hold no link. Nothing they
send must take the GM's or the players' seats away, so the server keeps budgets that a stranger
cannot spend for them:

* **connections**: at most :data:`MAX_CONNECTIONS` open at once, and at most :data:`PEER_SHARE` from
  one address. A new connection past either closes another, chosen in this order: one whose response
  makes no progress (its peer reads nothing), then one with no request in flight (an idle keep-alive,
  half-sent headers), then one serving a request that came through no link (a static file, a wrong
  token), then one opened less than :data:`FRESH_AGE` ago that has sent nothing yet (a page's request
  on its way); within each, from the address holding the most connections, oldest first. A request that
  came through a link (the GM's, a player's, the spectators') is never closed for a newcomer: when
  only such requests are open, the newcomer is the one turned away. uvicorn's own
  ``limit_concurrency`` counted idle sockets and event streams alike and answered 503 to everyone
  past 64, the GM included; it is off.
* **time**: a connection must finish a request's headers within :data:`HEADER_TIMEOUT` seconds of
  opening (or of its last response); a response that makes no progress for :data:`WRITE_TIMEOUT`
  seconds (the peer stopped reading: a socket that pipelines requests and never reads the answers) is
  dropped; an idle keep-alive is closed after uvicorn's ``timeout_keep_alive``; a body must arrive
  within :data:`BODY_TIMEOUT` (the server's own check).
* **requests**: one at a time per connection (h11 reads the next pipelined request only once the
  response before it is complete); a link's answers and commands in flight at most
  :data:`POSTS_PER_LINK` (the server's own check, before the body is read); requests that came
  through no link (the page's script and style, wrong tokens) at most :data:`STRANGER_RATE` a second
  from one address, in bursts of :data:`STRANGER_BURST`: past it the connection is closed, so that
  one address pipelining requests for the script cannot keep the server busy while the seats wait.
* **event streams**: a page listens on one stream; each link holds at most
  :data:`STREAMS_PER_SEAT` (the GM's and each player's; a newer one ends the oldest, as a phone that
  reloads leaves its old stream behind), and all the spectators together
  :data:`SPECTATOR_STREAMS` (more are refused, 429). So streams never fill the connection budget.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any, Callable

from uvicorn.protocols.http.h11_impl import H11Protocol

#: open connections at once, whoever holds them (well under the usual 1,024 file descriptors)
MAX_CONNECTIONS = 256
#: open connections one address holds at once (a browser opens a handful per page)
PEER_SHARE = 64
#: seconds a connection has to send a request's headers, from its opening or its last response
HEADER_TIMEOUT = 10.0
#: seconds a response may make no progress (its peer reads nothing) before its connection is dropped
WRITE_TIMEOUT = 10.0
#: seconds a request has to send its (small) body once its headers are in
BODY_TIMEOUT = 10.0
#: answers and commands one link has in flight at once (a page sends one at a time)
POSTS_PER_LINK = 4
#: requests through no link one address may make a second (a page's first load makes three), and at once
STRANGER_RATE = 20.0
STRANGER_BURST = 20
#: event streams one link (the GM's, a player's) holds at once: a newer one ends the oldest
STREAMS_PER_SEAT = 4
#: event streams all spectators hold together: past it a spectator's page is refused (429)
SPECTATOR_STREAMS = 32

#: seconds a new connection that has sent nothing yet is spared while older ones can go (a page's
#: request is on its way)
FRESH_AGE = 1.0
#: what a connection is doing, in the order a newcomer over the budget closes them
STALLED, IDLE, STRANGER, FRESH, SEATED = range(5)


class Budget:
    """The open connections of one server, oldest first (shared by its protocol instances).
    ``seated(path)``: whether a request's path came through a link (its connection is then never
    closed for a newcomer while the request is served)."""

    def __init__(self, limit: int | None = None, header_timeout: float | None = None,
                 write_timeout: float | None = None, peer_share: int | None = None,
                 seated: Callable[[str], bool] | None = None) -> None:
        self.limit = MAX_CONNECTIONS if limit is None else limit
        self.header_timeout = HEADER_TIMEOUT if header_timeout is None else header_timeout
        self.write_timeout = WRITE_TIMEOUT if write_timeout is None else write_timeout
        self.peer_share = PEER_SHARE if peer_share is None else peer_share
        self.seated = seated or (lambda path: False)
        self.open: dict["GuardedH11", None] = {}  # in the order they opened (a dict keeps it)
        self.held: Counter[str] = Counter()  # open connections per address, kept as they come and go
        self.rate, self.burst = STRANGER_RATE, STRANGER_BURST
        self._tokens: dict[str, tuple[float, float]] = {}  # address -> (tokens left, when counted)

    def stranger_request(self, peer: str, now: float) -> bool:
        """Whether ``peer`` may make one more request through no link now (a token bucket per address)."""
        tokens, then = self._tokens.get(peer, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        if len(self._tokens) > 4 * self.limit:  # forget the addresses long gone (bounded memory)
            self._tokens.clear()
        if tokens < 1.0:
            self._tokens[peer] = (tokens, now)
            return False
        self._tokens[peer] = (tokens - 1.0, now)
        return True

    def admit(self, conn: "GuardedH11") -> None:
        """Count ``conn`` in; past the address's share or the whole budget, close one (see :meth:`victim`).
        A flood brings hundreds of newcomers a second, each past the budget: this runs in one pass over
        the open connections, or the event loop spends its time here while the seats' requests wait."""
        self.open[conn] = None
        self.held[conn.peer] += 1
        if self.held[conn.peer] > self.peer_share:
            pool = [c for c in self.open if c.peer == conn.peer]
        elif len(self.open) > self.limit:
            pool = list(self.open)
        else:
            return
        (self.victim(pool, conn) or conn).drop()  # out of the budget now: its connection_lost comes later

    def victim(self, pool: list["GuardedH11"], newcomer: "GuardedH11") -> "GuardedH11 | None":
        """The connection of ``pool`` (oldest first) to close for ``newcomer``, or None (every other one
        is serving a link's request): the lowest state first, then the address holding the most, then
        the oldest."""
        now = newcomer.loop.time()
        first = (STALLED, -max(self.held.values()))  # none can come before it: the search ends there
        chosen, best = None, (SEATED, 0)
        for c in pool:
            state = SEATED if c is newcomer else c.state(now)
            if state == SEATED:
                continue
            rank = (state, -self.held[c.peer])
            if rank < best:  # strictly: the oldest of equals stays chosen
                chosen, best = c, rank
                if rank == first:
                    break
        return chosen

    def leave(self, conn: "GuardedH11") -> None:
        if self.open.pop(conn, False) is None:  # counted out once, whether dropped or lost first
            self.held[conn.peer] -= 1
            if not self.held[conn.peer]:
                del self.held[conn.peer]


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with header and write deadlines and the shared connection :class:`Budget`."""

    budget: Budget  # set on the subclass :func:`protocol` makes, one per server

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._stall: asyncio.TimerHandle | None = None
        self.peer: str = ""
        self.opened_at = 0.0
        self.seated = False  # the request in flight came through a link
        self.app = self._unless_dropped(self.app)

    def busy(self) -> bool:
        """A request in flight (its headers in, its response not finished): an event stream or an answer."""
        return self.cycle is not None and not self.cycle.response_complete

    def state(self, now: float | None = None) -> int:
        """:data:`STALLED`, :data:`IDLE`, :data:`STRANGER`, :data:`FRESH` or :data:`SEATED` (see
        :class:`Budget`), at the event loop's time ``now`` (read once for a whole pass over the budget)."""
        if self.flow.write_paused:
            return STALLED
        if not self.busy():
            now = self.loop.time() if now is None else now
            fresh = self.cycle is None and now - self.opened_at < FRESH_AGE
            return FRESH if fresh else IDLE
        return SEATED if self.seated else STRANGER

    def drop(self) -> None:
        """Close now, unsent data and all (a close would wait to send it to a peer that reads nothing).
        A request whose task is queued but not yet run is not run at all (see :meth:`_unless_dropped`)."""
        self.budget.leave(self)
        if self.cycle is not None:
            self.cycle.disconnected = True  # as connection_lost would say: no 500 for a request cut short
        if not self.transport.is_closing():
            self.transport.abort()

    def _unless_dropped(self, app: Any) -> Any:
        """``app``, run only if this connection is still open when the request's task starts. uvicorn
        queues the app's task as soon as a request's headers are in, before :meth:`handle_events` can
        refuse it: without this, every stranger's request refused over the rate would be served anyway,
        to a closed socket, and under a flood that work is what the seats' requests wait behind."""
        async def run(scope: Any, receive: Any, send: Any) -> None:
            if not self.transport.is_closing():
                await app(scope, receive, send)
        return run

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
        peer = transport.get_extra_info("peername")
        self.peer = str(peer[0]) if isinstance(peer, (tuple, list)) and peer else ""
        self.opened_at = self.loop.time()
        self._arm()
        self.budget.admit(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._unstall()
        self.budget.leave(self)
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        """The peer reads nothing for now: if it still reads nothing after the write deadline, drop it."""
        super().pause_writing()
        if self._stall is None:
            self._stall = self.loop.call_later(self.budget.write_timeout, self.drop)

    def resume_writing(self) -> None:
        self._unstall()
        super().resume_writing()

    def _unstall(self) -> None:
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None

    def handle_events(self) -> None:
        before = self.cycle
        super().handle_events()
        if self.cycle is not before and self.busy():  # a request's headers are in: no deadline while it runs
            self.seated = self.budget.seated(self.cycle.scope.get("path", ""))
            self._disarm()
            if not self.seated and not self.budget.stranger_request(self.peer, self.loop.time()):
                self.drop()  # this address asks too much through no link: no answer is worth the seats' wait

    def on_response_complete(self) -> None:
        self.seated = False  # before a pipelined request's headers are read (in the call below)
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
