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

import gc
import json
import socket
import subprocess
import sys
import threading
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install -e '.[web]')")

from flood import never_reading, slow_bodies, stranger  # noqa: E402
from test_server import Client, table  # noqa: E402

from fate_env.live import autopilot as ap  # noqa: E402
from fate_env.web import guard  # noqa: E402

#: each test times the seats' answers: none runs beside another test (tests/conftest.py)
pytestmark = pytest.mark.timed

#: how long the GM and a player keep answering while a flood holds (seconds)
WINDOW = 6.0
#: the slowest an answer may be applied under a flood (seconds)
PROMPT = 1.0


def answers_stay_prompt(c: Client, host, player: str, window: float = WINDOW) -> dict[str, list[float]]:
    """Answer every question for ``window`` seconds as a table would (the player its PC's, the GM the
    rest); each answer's time from sending to the table settled again, by who answered."""
    gm = c.token("gm")
    took: dict[str, list[float]] = {"gm": [], "player": [], "gc": []}
    with _collections_timed(took["gc"]):
        _answer_for(c, gm, player, window, took)
    return took


@contextmanager
def _collections_timed(into: list[float]):
    """The garbage collections over a tenth of a second while the block runs (into ``into``): when an
    answer is slow, the failure says whether the process stood still meanwhile."""
    began = [0.0]

    def note(phase: str, info: dict) -> None:
        if phase == "start":
            began[0] = time.perf_counter()
        elif time.perf_counter() - began[0] > 0.1:
            into.append(round(time.perf_counter() - began[0], 3))
    gc.callbacks.append(note)
    try:
        yield
    finally:
        gc.callbacks.remove(note)


def _answer_for(c: Client, gm: str, player: str, window: float, took: dict[str, list[float]]) -> None:
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


def confirmed() -> ap.Autopilot:
    """Every NPC decision is the GM's to accept: the GM and the players both answer all along."""
    return ap.Autopilot(confirm_all=True)


def port_of(c: Client) -> int:
    return int(c.base.rsplit(":", 1)[1])


def assert_prompt(took: dict[str, list[float]]) -> None:
    assert len(took["gm"]) >= 2 and len(took["player"]) >= 2, took
    slowest = max(took["gm"] + took["player"])
    assert slowest < PROMPT, (f"an answer took {slowest:.2f} s under the flood (garbage collections over 0.1 s "
                              f"meanwhile: {took['gc']}): {took}")


class Flood:
    """Strangers that keep coming for the whole window, from another process (as from another machine:
    the flood's own work never slows the server's measurements): ``flood.py`` (see there)."""

    def __init__(self, port: int, sources: list[str], batch: int = 64, every: float = 0.25, most: int = 3000,
                 slow: tuple[tuple[str, int], ...] = ()):
        self.args = [sys.executable, str(Path(__file__).with_name("flood.py")), "--port", str(port),
                     "--sources", ",".join(sources), "--batch", str(batch), "--every", str(every),
                     "--most", str(most), *[f"--slow={token}:{n}" for token, n in slow]]  # "=": a token may start with "-"
        self.opened = 0

    def reached(self, n: int) -> None:
        """Wait (10 s at most) until ``n`` connections have come."""
        end = time.time() + 10
        while self.opened < n and time.time() < end:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.opened = int(line)
        assert self.opened >= n, (self.opened, self.proc.poll(), self.proc.stderr.read() if self.proc.poll() is not None
                                  else "(still running)")

    def __enter__(self) -> "Flood":
        self.proc = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        return self

    def __exit__(self, *exc) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.proc.stdout.close()
        self.proc.stderr.close()


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
    of it: the spectators' are refused at once (403), Zird's past its share of answers in flight at once
    too (429); the GM and Cynere answer within a second throughout."""
    with table("warehouse", 5, autopilot=confirmed()) as (c, host), ExitStack() as held:
        port = port_of(c)
        spectators = slow_bodies(port, held, c.token("spectator"), 262, ["127.0.0.2", "127.0.0.3", "127.0.0.4",
                                                                           "127.0.0.5", "127.0.0.6"])
        zird = slow_bodies(port, held, c.token("player", "zird"), 40, ["127.0.0.7"])
        seen = {}
        for conn in spectators[-40:]:  # a sample: each is answered at once, without its body
            conn.settimeout(5)
            try:
                head = conn.recv(64)[:12]
            except ConnectionResetError:
                head = b"closed"  # answered, then closed to make room for newer ones (302 past 256)
            seen[head] = seen.get(head, 0) + 1
        assert set(seen) <= {b"HTTP/1.1 403", b"closed"} and seen.get(b"HTTP/1.1 403", 0) > 0, seen
        answered = {}
        for conn in zird:
            conn.settimeout(0.5)
            try:
                head = conn.recv(64)[:12]
            except socket.timeout:
                head = b"waiting"  # its body is being waited for: one of the link's answers in flight
            except ConnectionResetError:
                head = b"closed"  # refused, then closed to make room (the budget past 256 connections)
            answered[head] = answered.get(head, 0) + 1
        assert answered.get(b"waiting", 0) <= guard.POSTS_PER_LINK, answered
        assert set(answered) <= {b"waiting", b"closed", b"HTTP/1.1 429"}, answered
        assert_prompt(answers_stay_prompt(c, host, "cynere"))


def test_both_floods_at_once_with_300_connections():
    """Never-reading strangers and slow bodies from the spectators' and Zird's links together, 300 new
    connections every quarter second from eight other addresses (faster than the server reads them:
    the budget is full of connections that have sent nothing yet, and the newcomers past it close
    those of the address holding the most): the GM and Cynere still answer within a second."""
    with table("warehouse", 5, autopilot=confirmed()) as (c, host):
        sources = [f"127.0.0.{i}" for i in range(2, 10)]
        slow = ((c.token("spectator"), 60), (c.token("player", "zird"), 40))
        with Flood(port_of(c), sources, batch=200, slow=slow) as flood:
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
            while not reply.endswith(b"}"):  # the refusal's JSON, whole, with the body still unsent
                chunk = conn.recv(4096)
                assert chunk, reply
                reply += chunk
            assert reply.startswith(b"HTTP/1.1 403") and time.time() - start < 1.5, reply[:200]


@pytest.mark.parametrize("at", ["npc_turn", "answer"])
def test_stopping_mid_change_tells_the_page_whether_its_answer_was_taken_and_exits_promptly(tmp_path, at):
    """Ctrl-C (uvicorn's signal handler sets ``should_exit``) while an answer is in flight: the page is
    answered at once, 200 if the answer is in the saved log ("taken and saved"), 503 if it was not taken;
    the server stops within a few seconds although the NPC decision under way would take ten; the
    autosave holds the answer exactly when the page was told so, and no temporary file is left."""
    import io

    from fate_env.live.session import SessionSetup, finish_session, open_session
    from fate_env.web.host import TableHost
    from fate_env.web.server import Links, listen
    from fate_env.web.server import server as make_server
    auto, final = tmp_path / "auto.json", tmp_path / "final.json"
    host = TableHost(lambda inp, out: open_session(SessionSetup("duel", 1, save=str(final), autosave=str(auto),
                                                                autopilot=ap.Autopilot()), inp, out))
    links = Links(["cynere"])
    server = make_server(host, links, listen("127.0.0.1", 0))
    thread = threading.Thread(target=server.run, daemon=True)
    host.start()
    thread.start()
    while not server.started:
        time.sleep(0.02)
    c = Client(f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}", links)
    q = c.settled(c.token("gm"))["question"]
    assert q["owner"] == "cynere"
    entries = len(host.session.log.entries)
    slow = threading.Event()
    if at == "npc_turn":  # the NPC's next decision takes ten seconds, after Cynere's answer is in
        blade = host.table.controllers["blade"]
        real = blade.choose
        blade.choose = lambda *a, **k: (slow.set(), time.sleep(10), real(*a, **k))[2]
    else:  # the answer itself is slow to apply: the stop comes before it is in the log
        real_answer = host.table.answer
        host.table.answer = lambda *a, **k: (slow.set(), time.sleep(3), real_answer(*a, **k))[2]
    got = []
    sender = threading.Thread(target=lambda: got.append(c.answer(c.token("player", "cynere"), q["seq"], "auto")))
    sender.start()
    assert slow.wait(10)
    start = time.time()
    server.should_exit = True  # what Ctrl-C does
    sender.join(timeout=10)
    thread.join(timeout=10)
    host.stop()
    stopped = time.time() - start
    finish_session(host.session, str(final), io.StringIO())  # serve's --save, written as it stops
    host.session.release()
    assert not thread.is_alive() and stopped < 5, stopped
    status, body = got[0]
    saved = json.loads(auto.read_text())["entries"]
    if at == "npc_turn":
        assert status == 200 and body["stopping"] and "taken and saved" in body["note"], body
        assert len(saved) > entries and saved[entries].get("by") is None  # Cynere's answer, hers
    else:
        assert status == 503 and "not taken" in body["error"], body
        assert len(saved) == entries
    assert json.loads(final.read_text())["entries"] == saved  # the --save holds what the page was told, too
    assert not [p.name for p in tmp_path.iterdir() if p.name not in ("auto.json", "final.json")
                and not p.name.startswith(".")]
