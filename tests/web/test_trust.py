"""The web table's trust boundary (issue 48), tried as a hostile player or a stranger would: against
a real server on the loopback (the one ``serve`` runs), with raw HTTP where a browser would not send
such a request. A link is the only credential; what it may do is decided on the typed answer or command."""

from __future__ import annotations

import http.client
import io
import json
import socket
import time
from contextlib import ExitStack

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install -e '.[web]')")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from test_server import table  # noqa: E402

from fate_env.live import autopilot as ap  # noqa: E402
from fate_env.live.answers import Choose  # noqa: E402
from fate_env.live.commands import POWERS, Command  # noqa: E402
from fate_env.live.refusals import Refused  # noqa: E402
from fate_env.live.save import SessionLog  # noqa: E402
from fate_env.live.seats import Seat  # noqa: E402
from fate_env.live.table import Table  # noqa: E402
from fate_env.web import guard  # noqa: E402

#: every command the table knows, from its declarations (so a new one is covered the day it is added)
COMMANDS = sorted(POWERS)
#: a value of each field kind a hostile page might send
VALUES = {"character": "cynere", "npc": "og", "aspect": 1, "created": 1, "zone": "dock", "skill": "Fight",
          "text": "Gotcha", "addable": "Thug x3: mob, Fight 2", "number": 5, "signed": 5, "flag": True}


def raw(base: str, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
    """One request with exactly the headers given (http.client adds Host unless one is given)."""
    host, port = base.split("//")[1].split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, dict(r.getheaders()), r.read()
    finally:
        conn.close()


def fingerprint(host) -> tuple:
    """What a GM power would change: the log, every character's fate points, the pending prompt."""
    play = host.session.play
    return (json.dumps(host.session.log.entries), {cid: f.fate_points for cid, f in play.f.items()},
            host.prompt.seq if host.prompt else None, host.table.autopilot.paused, len(play.events))


@pytest.fixture(scope="module")
def warehouse():
    """The warehouse (three PCs) waiting on a player's decision."""
    with table("warehouse", 5) as (c, host):
        s = c.settled(c.token("gm"))
        assert s["question"]["kind"] == "decision", s["question"]
        yield c, host


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(command=st.sampled_from(COMMANDS), fields=st.sampled_from(["all", "none", "junk"]),
       where=st.sampled_from(["command", "answer"]), seat=st.sampled_from(["owner", "other", "spectator"]))
def test_no_seat_but_the_gm_s_runs_a_gm_command(warehouse, command, fields, where, seat):
    """Every command, with its fields filled, empty or junk, sent from a player's or a spectator's link
    to the command route (or dressed as an answer): refused, and nothing changes."""
    c, host = warehouse
    owner = host.prompt.owner
    token = {"owner": c.token("player", owner),
             "other": c.token("player", next(p for p in ("cynere", "zird", "landon") if p != owner)),
             "spectator": c.token("spectator")}[seat]
    before = fingerprint(host)
    body = {"command": command, **({f.name: VALUES[f.kind] for f in POWERS[command].fields} if fields == "all" else
                                   {"file": "/tmp/x", "args": ["/end"]} if fields == "junk" else {})}
    if where == "answer":
        body = {"seq": host.prompt.seq, "answer": "choose", **body}
    status, _, reply = raw(c.base, "POST", f"/api/{token}/{where}", json.dumps(body),
                           {"Content-Type": "application/json"})
    assert status in ((403,) if where == "command" else (400, 403)), (body, reply)
    assert fingerprint(host) == before


def test_the_model_itself_runs_no_command_from_a_player_s_seat():
    """Behind the server's route, the live table asks whose seat a command comes from before it runs it,
    and answers a question only from the seat it belongs to."""
    table = Table(SessionLog("duel", None, 1, {}), autopilot=ap.Autopilot())
    q = table.advance()
    points = table.play.f["cynere"].fate_points
    for seat in (Seat("player", "cynere"), Seat("spectator")):
        for cmd in (Command("fp", {"who": "cynere", "n": 5}), Command("end"), Command("undo")):
            with pytest.raises(Refused) as refused:
                table.command(seat, cmd)
            assert refused.value.status == 403
    if q.owner is None:  # the GM's question: a player may not answer it
        with pytest.raises(Refused) as refused:
            table.answer(Seat("player", "cynere"), q.seq, Choose(1))
        assert refused.value.status == 403
    assert table.play.f["cynere"].fate_points == points and not table.play.over
    assert not any("gm" in entry for entry in table.log.entries) and table.question is q


def test_a_stranger_s_requests_are_refused_in_one_line_never_a_traceback(warehouse):
    c, host = warehouse
    gm = c.token("gm")
    for path in ("/t/%C3%A9", "/api/%C3%A9/state", "/t/%00", "/api/" + "a" * 5000 + "/state", "/t/..%2F..%2Fetc"):
        status, _, body = raw(c.base, "GET", path)
        assert status == 404 and json.loads(body)["error"], (path, status, body[:200])
    deep = b"[" * 1020 + b"]" * 1020
    status, _, body = raw(c.base, "POST", f"/api/{gm}/answer", deep, {"Content-Type": "application/json"})
    assert status == 400 and "not JSON" in json.loads(body)["error"]


def test_a_host_name_the_server_was_not_given_is_refused_dns_rebinding(warehouse):
    c, host = warehouse
    gm = c.token("gm")
    port = c.base.rsplit(":", 1)[1]
    for name in ("evil.example", f"evil.example:{port}", "127.0.0.1.nip.io", ""):
        status, _, body = raw(c.base, "GET", f"/api/{gm}/state", headers={"Host": name})
        assert status == 400 and "Host" in json.loads(body)["error"], name
    for name in (f"127.0.0.1:{port}", f"localhost:{port}", "[::1]:8765", "192.168.1.20"):
        status, _, _ = raw(c.base, "GET", f"/api/{gm}/state", headers={"Host": name})
        assert status == 200, name


def test_every_response_forbids_framing_and_referers(warehouse):
    c, host = warehouse
    for path in (f"/t/{c.token('gm')}", f"/api/{c.token('spectator')}/state", "/t/nobody", "/static/table.js"):
        status, headers, _ = raw(c.base, "GET", path)
        low = {k.lower(): v for k, v in headers.items()}
        assert "frame-ancestors 'none'" in low["content-security-policy"], path
        assert low["x-frame-options"] == "DENY" and low["referrer-policy"] == "no-referrer", path


def test_an_answer_from_another_site_is_refused(warehouse):
    """A page elsewhere can make a browser POST here, but only as a form or a no-cors fetch: its
    Origin, its Sec-Fetch-Site and its body type all give it away."""
    c, host = warehouse
    owner = host.prompt.owner
    token = c.token("player", owner)
    before = fingerprint(host)
    body = json.dumps({"seq": host.prompt.seq, "answer": "choose", "number": 1})
    for headers, code in (({"Content-Type": "text/plain"}, 415),
                          ({"Content-Type": "application/json", "Origin": "http://evil.example"}, 403),
                          ({"Content-Type": "application/json", "Origin": "null"}, 403),
                          ({"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, 403),
                          ({"Content-Type": "application/json", "Sec-Fetch-Site": "same-site"}, 403)):
        status, _, reply = raw(c.base, "POST", f"/api/{token}/answer", body, headers)
        assert status == code, (headers, reply)
    assert fingerprint(host) == before


def test_strangers_and_spectators_cannot_lock_the_gm_out(monkeypatch):
    """A flood on the loopback, bounded in count and time: idle sockets past the whole connection
    budget, half-sent headers, spectator streams past their share. The GM's answer is still applied
    within a second, and a player's too."""
    monkeypatch.setattr(guard, "MAX_CONNECTIONS", 120)
    monkeypatch.setattr(guard, "SPECTATOR_STREAMS", 8)
    with table("warehouse", 5) as (c, host), ExitStack() as held:
        host_, port = c.base.split("//")[1].split(":")
        gm, spectator = c.token("gm"), c.token("spectator")
        s = c.settled(gm)
        deadline = time.time() + 30  # the flood stops by itself

        def sock() -> socket.socket:
            conn = socket.create_connection((host_, int(port)), timeout=5)
            held.callback(conn.close)
            return conn
        for _ in range(200):  # idle: connected, nothing sent
            sock()
        for _ in range(40):  # half-sent headers
            sock().sendall(f"GET /api/{gm}/state HTTP/1.1\r\nHost: {host_}\r\nX-Slow: ".encode())
        refused = 0
        for _ in range(20):  # spectators' pages listening
            conn = sock()
            conn.sendall(f"GET /api/{spectator}/events HTTP/1.1\r\nHost: {host_}:{port}\r\n\r\n".encode())
            refused += conn.recv(64).startswith(b"HTTP/1.1 429")
        assert time.time() < deadline
        assert refused == 12  # 8 listen, the rest are told the spectators' page is full
        start = time.time()
        status, body = c.answer(gm, s["question"]["seq"], "auto")
        assert status == 200, body
        s = c.settled(gm, body["version"], timeout=5)
        assert time.time() - start < 1.0 and s["question"]["seq"] > 0
        # the streams of the GM's and the players' links are their own: still served
        owner = host.prompt.owner
        conn = sock()
        conn.sendall(f"GET /api/{c.token('player', owner)}/events HTTP/1.1\r\nHost: {host_}:{port}\r\n\r\n".encode())
        assert conn.recv(64).startswith(b"HTTP/1.1 200")


def test_half_sent_headers_are_dropped_after_the_header_deadline(monkeypatch):
    monkeypatch.setattr(guard, "HEADER_TIMEOUT", 0.5)
    with table() as (c, host):
        host_, port = c.base.split("//")[1].split(":")
        conn = socket.create_connection((host_, int(port)), timeout=5)
        try:
            conn.sendall(b"GET /api/x/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            start = time.time()
            assert conn.recv(64) == b""  # closed by the server
            assert 0.3 < time.time() - start < 3
        finally:
            conn.close()


def test_a_link_s_streams_are_bounded_and_a_newer_one_ends_the_oldest():
    with table() as (c, host):
        host_, port = c.base.split("//")[1].split(":")
        gm = c.token("gm")
        conns = []
        try:
            for _ in range(guard.STREAMS_PER_SEAT + 2):
                conn = socket.create_connection((host_, int(port)), timeout=5)
                conns.append(conn)
                conn.sendall(f"GET /api/{gm}/events HTTP/1.1\r\nHost: {host_}:{port}\r\n\r\n".encode())
                assert conn.recv(64).startswith(b"HTTP/1.1 200")
            conns[0].settimeout(5)
            tail = b""
            while not tail.endswith(b"0\r\n\r\n"):  # the oldest stream was ended: its last chunk came
                chunk = conns[0].recv(4096)
                assert chunk, tail
                tail += chunk
            conns[-1].settimeout(0.5)
            with pytest.raises(socket.timeout):  # the newest goes on
                while True:
                    assert not conns[-1].recv(4096).endswith(b"0\r\n\r\n")
        finally:
            for conn in conns:
                conn.close()


def test_the_fight_report_shows_a_scene_s_control_characters_instead_of_obeying_them(tmp_path):
    from test_serve_cli import _hostile_scene
    with table(str(_hostile_scene(tmp_path))) as (c, host):
        gm = c.token("gm")
        s = c.settled(gm)
        status, body = c.command(gm, "end")
        assert status == 200
        assert c.settled(gm, body["version"])["over"]
        status, _, report = raw(c.base, "GET", f"/api/{c.token('spectator')}/report")
    text = report.decode()
    assert status == 200 and "\\x1b[2J" in text and "\\u202e" in text
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text


def test_the_report_page_shows_markup_in_a_scene_s_words_as_text(tmp_path):
    """The report as a page (``report.html``): a title carrying HTML and a Markdown link to ``javascript:`` is
    shown as the words typed, never as an element or a link (raw HTML is escaped, such links not made)."""
    import re
    from conftest import ROOT
    text = (ROOT / "configs" / "scenes" / "duel.yaml").read_text(encoding="utf-8")
    hostile = '<img src=x onerror=alert(1)> [click](javascript:alert(2)) <script>alert(3)</script>'
    scene = tmp_path / "markup.yaml"
    scene.write_text(re.sub(r"^title: .*$", lambda _: "title: '" + hostile + "'", text, count=1, flags=re.M),
                     encoding="utf-8")
    with table(str(scene)) as (c, host):
        gm = c.token("gm")
        status, body = c.command(gm, "end")
        assert status == 200 and c.settled(gm, body["version"])["over"]
        status, headers, page = raw(c.base, "GET", f"/api/{c.token('spectator')}/report.html")
    html = page.decode()
    assert status == 200 and "<h1>" in html and "<table>" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html and "&lt;script&gt;" in html
    assert "<img" not in html and "<script" not in html and "href=" not in html


def _asgi_get(app, path: str, client: str, server: str) -> int:
    """The status the app answers a GET of ``path`` with, from ``client`` to ``server`` (addresses as a
    connection on a network would carry them), through its real ASGI entry."""
    import asyncio
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"host", server.encode())], "client": (client, 50000), "server": (server, 8765)}
    asyncio.run(app(scope, receive, send))
    return next(m["status"] for m in sent if m["type"] == "http.response.start")


@pytest.mark.parametrize("anywhere", [False, True])
def test_the_gm_s_link_opens_on_the_serving_machine_only_unless_gm_anywhere(anywhere):
    """Served on a network (192.168.1.5), the GM's link answers a request from the machine itself (the
    loopback, or its own address) and, by default, no other: a player's phone that saw the GM's link go
    by gets a 403. ``--gm-anywhere`` opens it. The players' and spectators' links answer from anywhere."""
    from fate_env.web.server import Hosts, Links, app
    table = Table(SessionLog("duel", None, 1, {}), autopilot=ap.Autopilot())

    class Host:  # what the routes read of a TableHost for a state request
        session = type("S", (), {"narrator": table.narrator})()

        @staticmethod
        def snapshot(seat):
            return {"role": seat.role}
    links = Links(["cynere"])
    served = app(Host(), links, Hosts("0.0.0.0"), gm_anywhere=anywhere)
    gm, player = links.token("gm"), links.token("player", "cynere")
    assert _asgi_get(served, f"/api/{gm}/state", "127.0.0.1", "127.0.0.1") == 200
    assert _asgi_get(served, f"/api/{gm}/state", "192.168.1.5", "192.168.1.5") == 200  # its own address
    assert _asgi_get(served, f"/api/{gm}/state", "192.168.1.20", "192.168.1.5") == (200 if anywhere else 403)
    assert _asgi_get(served, f"/t/{gm}", "192.168.1.20", "192.168.1.5") == (200 if anywhere else 403)
    assert _asgi_get(served, f"/api/{player}/state", "192.168.1.20", "192.168.1.5") == 200
