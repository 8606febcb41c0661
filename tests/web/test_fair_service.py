"""Fair service under hostile load (issue 72), on a real server on the loopback: whatever strangers,
the spectators' link or one player send, the GM's and the other players' answers are applied within a
second. Every flood is bounded in count and time and stops by itself; the strangers come from other
loopback addresses (127.0.0.2 and up) as well as the GM's own, as on a café network and on the GM's
machine.

The floods are the ones that took the table away before: sockets that pipeline requests for the
page's script and never read the answers (their responses stall, and a stalled response used to count
as a request being served, so the budget turned the GM away), and answers whose body never arrives
(read before the seat was refused, each holding a connection for the whole body timeout)."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import ExitStack

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install -e '.[web]')")

from test_server import Client, table  # noqa: E402

from fate_env.live import autopilot as ap  # noqa: E402
from fate_env.web import guard  # noqa: E402

#: how long the GM and a player keep answering while a flood holds (seconds)
WINDOW = 6.0
#: the slowest an answer may be applied under a flood (seconds)
PROMPT = 1.0


def stranger(port: int, held: ExitStack, source: str = "127.0.0.1") -> socket.socket | None:
    """A connection from ``source`` (a loopback address), closed when the test ends; None if the server
    had already closed it (the budget at work)."""
    conn = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window: what is not read backs up
    conn.settimeout(5)
    try:
        conn.bind((source, 0))
        conn.connect(("127.0.0.1", port))
    except OSError:
        conn.close()
        return None
    held.callback(conn.close)
    return conn


def never_reading(port: int, held: ExitStack, count: int, sources: list[str], requests: int = 60) -> int:
    """``count`` connections, each pipelining ``requests`` requests for the page's script and reading
    nothing; returns how many were opened."""
    ask = b"GET /static/table.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * requests
    opened = 0
    for i in range(count):
        conn = stranger(port, held, sources[i % len(sources)])
        if conn is None:
            continue
        conn.setblocking(False)
        try:
            conn.send(ask)
        except OSError:  # a full buffer or a closed socket: the server is not reading it, as intended
            pass
        opened += 1
    return opened


def slow_bodies(port: int, held: ExitStack, token: str, count: int, sources: list[str]) -> list[socket.socket]:
    """``count`` answers from ``token``'s link declaring a 2,000-byte body and sending one byte of it."""
    conns = []
    for i in range(count):
        conn = stranger(port, held, sources[i % len(sources)])
        if conn is None:
            continue
        try:
            conn.sendall(f"POST /api/{token}/answer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         f"Content-Length: 2000\r\n\r\n{{".encode())
        except OSError:
            continue
        conns.append(conn)
    return conns


def answers_stay_prompt(c: Client, host, player: str, window: float = WINDOW) -> dict[str, list[float]]:
    """Answer every question for ``window`` seconds as a table would (the player its PC's, the GM the
    rest); each answer's time from sending to the table settled again, by who answered."""
    gm = c.token("gm")
    took: dict[str, list[float]] = {"gm": [], "player": []}
    end = time.time() + window
    s = c.settled(gm, timeout=PROMPT * 5)
    while time.time() < end and not s["over"]:
        q = s["question"]
        start = time.time()
        if q["owner"] == player:
            status, body = c.answer(c.token("player", player), q["seq"], "auto")
            who = "player"
        else:
            status, body = c.answer(gm, q["seq"], "accept" if q["kind"] in ("gate", "offer", "compel") else "auto")
            who = "gm"
        assert status == 200, body
        s = c.settled(gm, body["version"], timeout=PROMPT * 5)
        took[who].append(time.time() - start)
    return took


def confirmed() -> ap.Autopilot:
    """Every NPC decision is the GM's to accept: the GM and the players both answer all along."""
    return ap.Autopilot(confirm_all=True)


def port_of(c: Client) -> int:
    return int(c.base.rsplit(":", 1)[1])


def assert_prompt(took: dict[str, list[float]]) -> None:
    assert len(took["gm"]) >= 2 and len(took["player"]) >= 2, took
    slowest = max(took["gm"] + took["player"])
    assert slowest < PROMPT, f"an answer took {slowest:.2f} s under the flood: {took}"


class Flood:
    """Strangers that keep coming for the whole window: every ``every`` seconds ``batch`` more
    never-reading connections (pipelining 60 requests each), spread over ``sources``; each kept open
    two seconds. Bounded: at most ``most`` connections in all, and it stops when told or after 30 s."""

    def __init__(self, port: int, sources: list[str], batch: int = 64, every: float = 0.25, most: int = 3000,
                 extra=None):
        self.port, self.sources, self.batch, self.every, self.most = port, sources, batch, every, most
        self.extra = extra  # a callable run each round too (slow bodies)
        self.opened = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        end = time.time() + 30
        rounds: list[tuple[float, ExitStack]] = []
        try:
            while not self.stop.is_set() and time.time() < end and self.opened < self.most:
                held = ExitStack()
                rounds.append((time.time(), held))
                self.opened += never_reading(self.port, held, self.batch, self.sources)
                if self.extra is not None:
                    self.opened += self.extra(held)
                while rounds and rounds[0][0] < time.time() - 2:
                    rounds.pop(0)[1].close()
                self.stop.wait(self.every)
        finally:
            for _, held in rounds:
                held.close()

    def reached(self, n: int) -> None:
        """Wait (5 s at most) until ``n`` connections have come."""
        end = time.time() + 5
        while self.opened < n and time.time() < end:
            time.sleep(0.02)
        assert self.opened >= n, self.opened

    def __enter__(self) -> "Flood":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(timeout=30)


def test_never_reading_pipelined_requests_from_strangers_leave_the_seats_served():
    """Strangers' sockets from five addresses, the GM's own among them, each pipelining 60 requests for
    the script and reading nothing, 256 a second for the whole window: the GM's and Cynere's answers
    are applied within a second throughout, and no address holds more than its share."""
    with table("warehouse", 5, autopilot=confirmed()) as (c, host), \
            Flood(port_of(c), ["127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"]) as flood:
        flood.reached(256)
        assert_prompt(answers_stay_prompt(c, host, "cynere"))
        held_by: dict[str, int] = {}
        for conn in list(c.server.budget.open):
            held_by[conn.peer] = held_by.get(conn.peer, 0) + 1
        assert max(held_by.values(), default=0) <= guard.PEER_SHARE, held_by


def test_a_stalled_response_is_dropped_after_the_write_deadline(monkeypatch):
    monkeypatch.setattr(guard, "WRITE_TIMEOUT", 1.0)
    with table("duel") as (c, host), ExitStack() as held:
        budget = c.server.budget
        budget.write_timeout = 1.0
        budget.rate = budget.burst = 10 ** 9  # this test is about the write deadline alone
        never_reading(port_of(c), held, 8, ["127.0.0.2"], requests=600)  # 14 MB each: more than any buffer
        end = time.time() + 10
        while time.time() < end and not any(conn.state() == guard.STALLED for conn in list(c.server.budget.open)):
            time.sleep(0.05)
        assert any(conn.state() == guard.STALLED for conn in list(c.server.budget.open)), "nothing stalled"
        time.sleep(2.5)  # past the write deadline: every stalled one is gone
        assert not any(conn.state() == guard.STALLED for conn in list(c.server.budget.open))


def test_slow_bodies_from_the_spectators_and_a_player_s_link_are_refused_before_they_are_read():
    """262 answers from the spectators' link and 40 from Zird's, each declaring a body and sending a byte
    of it: the spectators' are refused at once (403) and closed, Zird's past its share of answers in
    flight at once too (429); the GM and Cynere answer within a second throughout."""
    with table("warehouse", 5, autopilot=confirmed()) as (c, host), ExitStack() as held:
        port = port_of(c)
        spectators = slow_bodies(port, held, c.token("spectator"), 262, ["127.0.0.2", "127.0.0.3", "127.0.0.4",
                                                                           "127.0.0.5", "127.0.0.6"])
        zird = slow_bodies(port, held, c.token("player", "zird"), 40, ["127.0.0.7"])
        refused = 0
        for conn in spectators[:40]:  # a sample: each is answered without its body, then closed
            conn.settimeout(5)
            head = conn.recv(64)
            refused += head.startswith(b"HTTP/1.1 403")
            assert conn.recv(4096) is not None
        assert refused == 40
        answered = {}
        for conn in zird:
            conn.settimeout(0.5)
            try:
                head = conn.recv(64)
            except socket.timeout:
                head = b"(waiting for its body)"
            answered[head[:12]] = answered.get(head[:12], 0) + 1
        assert answered.get(b"HTTP/1.1 429", 0) >= len(zird) - guard.POSTS_PER_LINK, answered
        assert_prompt(answers_stay_prompt(c, host, "cynere"))


def test_both_floods_at_once_with_300_connections():
    """Never-reading strangers and slow bodies from the spectators' and Zird's links together, 300 new
    connections every quarter second from eight addresses: the GM and Cynere still answer within a second."""
    with table("warehouse", 5, autopilot=confirmed()) as (c, host):
        sources = [f"127.0.0.{i}" for i in range(1, 9)]
        port = port_of(c)

        def bodies(held: ExitStack) -> int:
            return (len(slow_bodies(port, held, c.token("spectator"), 60, sources))
                    + len(slow_bodies(port, held, c.token("player", "zird"), 40, sources)))
        with Flood(port, sources, batch=200, extra=bodies) as flood:
            flood.reached(300)
            assert_prompt(answers_stay_prompt(c, host, "cynere"))


def test_a_link_that_may_not_use_a_route_is_refused_before_its_body_is_read():
    """The spectators' link and a player's post to the GM's command route, and the spectators' to the
    answer route, each declaring a body they never send: 403 at once, not 408 ten seconds later."""
    with table("warehouse", 5) as (c, host), ExitStack() as held:
        port = port_of(c)
        for token, route in ((c.token("spectator"), "command"), (c.token("player", "zird"), "command"),
                             (c.token("spectator"), "answer")):
            conn = stranger(port, held)
            conn.sendall(f"POST /api/{token}/{route} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         f"Content-Length: 100\r\n\r\n".encode())
            conn.settimeout(2)
            start = time.time()
            reply = b""
            while chunk := conn.recv(4096):
                reply += chunk
            assert reply.startswith(b"HTTP/1.1 403") and time.time() - start < 1.5, reply[:200]
            assert b"connection: close" in reply.lower()
