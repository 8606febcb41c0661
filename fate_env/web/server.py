"""The web table's server: Starlette routes over one :class:`~fate_env.web.host.TableHost`.

Every route is reached through a link's token (unguessable: ``secrets.token_urlsafe``): the GM's,
one per PC, one for spectators. Nothing a request carries names a file: the session saves where
the server was told (``--save``, or its autosave). Bodies are bounded; a malformed one is a 400 with
the reason; an answer for a question that is gone is a 409.

    GET  /t/TOKEN              the page (one page for every seat; it asks the API what it may do)
    GET  /api/TOKEN/state      the snapshot: the feed, the scene (cards, map), the question
    GET  /api/TOKEN/events     server-sent events: a line each time the snapshot changes
    POST /api/TOKEN/answer     {"seq": N, "answer": KIND, ...}: a typed answer to question N (live/table.py)
    POST /api/TOKEN/command    {"command": NAME, FIELD: VALUE, ...}: a GM power (live/commands.py), the GM's link only
    GET  /api/TOKEN/report     the fight report (Markdown, as ``replay --markdown``) once it is over

The trust model (docs/safety.md): a link is the only credential, and what it may do is decided by
its seat on the typed answer or command (``Table.answer``, ``Table.command``); a request whose Host is a name this server was not
given is refused before any route (DNS rebinding), an answer from another site (its Origin, its
``Sec-Fetch-Site``, or any body type but JSON) is refused, and no page may be framed or leak its
URL in a Referer. Connections, header times and event streams are budgeted (``guard.py``) so that
strangers and spectators cannot take the GM's or the players' seats away.
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import ipaddress
import json
import re
import secrets
import socket
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..content.safe_text import printable
from . import guard
from ..live import seats
from .host import AnswerRefused, Seat, TableHost

STATIC = Path(__file__).resolve().parent / "static"
#: the page's files by name and type: read once, served from memory (no file or worker thread per request)
STATIC_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                ".css": "text/css; charset=utf-8"}
#: the largest request body read (an answer is a few dozen bytes)
MAX_BODY = 2048
#: how often a page's event stream looks for a change (seconds)
POLL = 0.01
#: what a token looks like (``secrets.token_urlsafe(18)``: 24 URL-safe characters); anything else is no seat
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: headers on every response: no framing (clickjacking), no Referer (a page's URL is its token), no
#: sniffing, and the page's own scripts and styles only
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                                 b"object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class Links:
    """The tokens of one table: the GM's, one per PC, the spectators'."""

    def __init__(self, pcs: list[str]) -> None:
        self.seats: dict[str, Seat] = {secrets.token_urlsafe(18): Seat("gm")}
        self.seats.update({secrets.token_urlsafe(18): Seat("player", pc) for pc in pcs})
        self.seats[secrets.token_urlsafe(18)] = Seat("spectator")
        self._made: dict[str, list[dict[str, Any]]] = {}

    def token(self, role: str, pc: str | None = None) -> str:
        return next(t for t, s in self.seats.items() if s.role == role and s.pc == pc)

    @property
    def pcs(self) -> list[str]:
        """The PCs whose players have a link, in order."""
        return [s.pc for s in self.seats.values() if s.role == "player" and s.pc is not None]

    def for_gm(self, base: str, host: TableHost) -> list[dict[str, Any]]:
        """Each player's link and the spectators', with a QR code (SVG) for a phone to scan; made once
        per address the GM's page was reached at (a QR code costs milliseconds, a state request should not)."""
        if base not in self._made:
            self._made[base] = self._links(base, host)
        return self._made[base]

    def _links(self, base: str, host: TableHost) -> list[dict[str, Any]]:
        out = []
        for token, seat in self.seats.items():
            if seat.role == "gm":
                continue
            url = f"{base}/t/{token}"
            name = host.session.narrator.name(seat.pc) if seat.pc else "spectators"
            out.append({"name": name, "url": url, "qr": _qr_svg(url)})
        return out

    def carries_seat(self, path: str) -> bool:
        """Whether a request's path goes through one of these links (``/t/TOKEN``, ``/api/TOKEN/...``)."""
        parts = path.split("/")
        return len(parts) >= 3 and parts[1] in ("t", "api") and self.seat(parts[2]) is not None

    def seat(self, token: str) -> Seat | None:
        """The seat of ``token``, or None: anything that is not a token's shape is no seat before any
        comparison (``compare_digest`` takes ASCII only), and every token is compared in constant time."""
        if not _TOKEN.fullmatch(token):
            return None
        found = None
        for t, s in self.seats.items():
            if secrets.compare_digest(t.encode(), token.encode()):
                found = s
        return found


@dataclass
class _Routes:
    """The handlers of one table's routes, and what they share: the table, its links, the shutdown's
    signal, the event streams open, each link's answers in flight and the page's files."""

    host: TableHost
    links: Links
    stopping: threading.Event
    gm_anywhere: bool
    streams: guard.Streams
    posting: dict[str, int]  # a link's answers and commands in flight
    files: dict[str, tuple[bytes, str]]

    def seat_of(self, request: Request) -> Seat:
        seat = self.links.seat(request.path_params["token"])
        if seat is None:
            raise _NoSeat
        if seat.role == "gm" and not self.gm_anywhere and not _from_this_machine(request):
            raise _GmElsewhere
        return seat

    async def page(self, request: Request) -> Response:
        self.seat_of(request)
        return Response(self.files["table.html"][0], media_type=STATIC_TYPES[".html"], headers=_NO_STORE)

    async def static(self, request: Request) -> Response:
        """The page's script and style, from memory; a copy the browser holds is confirmed (304), not sent."""
        found = self.files.get(request.path_params["name"])
        if found is None:
            raise _NoSeat
        body, tag = found
        headers = {"ETag": tag, "Cache-Control": "no-cache"}
        if request.headers.get("if-none-match") == tag:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type=STATIC_TYPES[Path(request.path_params["name"]).suffix], headers=headers)

    async def state(self, request: Request) -> Response:
        seat = self.seat_of(request)
        snap = self.host.snapshot(seat)
        if seats.sees_everything(seat):  # only the GM's page hands out the other links (and their QR codes)
            snap["links"] = self.links.for_gm(str(request.base_url).rstrip("/"), self.host)
        return JSONResponse(snap, headers=_NO_STORE)

    async def posted(self, request: Request, may, why, apply) -> Response:
        """A POSTed answer or command. Everything a request's head tells is checked before its body is
        read (a link that may not use the route, another site's page, a link with too many in flight:
        refused at once; the connection then holds no request, so a slow body keeps nothing from the
        seats: ``guard`` closes it first when room is needed, or at its header deadline); then a bounded JSON body;
        then the host's own checks on the typed value (in a worker thread: applying it may play NPC turns)."""
        seat = self.seat_of(request)
        if not may(seat):
            return _refuse(why(seat), 403)
        foreign = _cross_site(request)
        if foreign is not None:
            return _refuse(*foreign)
        token = request.path_params["token"]
        if self.posting.get(token, 0) >= guard.POSTS_PER_LINK:
            return _refuse(f"this link has {guard.POSTS_PER_LINK} answers in flight already; wait for them", 429)
        self.posting[token] = self.posting.get(token, 0) + 1
        try:
            try:
                body = await asyncio.wait_for(_bounded_body(request), guard.BODY_TIMEOUT)
            except asyncio.TimeoutError:
                return _refuse(f"the body did not arrive within {guard.BODY_TIMEOUT:g} s", 408, close=True)
            try:
                data = json.loads(body)
            except (ValueError, UnicodeDecodeError, RecursionError):
                return _refuse("the body is not JSON; expected a JSON object", 400)
            if not isinstance(data, dict):
                return _refuse("expected a JSON object", 400)
            taken = threading.Event()
            try:
                version = await _off_the_loop(lambda: apply(seat, data, taken), self.stopping)
            except AnswerRefused as exc:
                return _refuse(str(exc), exc.status)
            except _Stopped:  # Ctrl-C mid-change: say whether this one is in the saved log
                if taken.wait(timeout=1.0):
                    return JSONResponse({"ok": True, "version": self.host.version, "stopping": True,
                                         "note": "taken and saved; the table is stopping"})
                return _refuse("the table is stopping; this was not taken", 503)
            return JSONResponse({"ok": True, "version": version})
        finally:
            self.posting[token] -= 1

    async def answer(self, request: Request) -> Response:
        def apply(seat: Seat, data: dict, taken: threading.Event) -> int:
            if "seq" not in data:
                raise AnswerRefused("'seq': expected the number of the question answered", 400)
            return self.host.answer(seat, data["seq"], {k: v for k, v in data.items() if k != "seq"}, taken)
        return await self.posted(request, seats.answers_anything, seats.why_not_answer, apply)

    async def command(self, request: Request) -> Response:
        return await self.posted(request, seats.may_command, seats.why_not_command, self.host.command)

    async def report(self, request: Request) -> Response:
        """The fight report (``replay --markdown``'s text) once the fight is over, as a download."""
        text = self.host.report(self.seat_of(request))
        if text is None:
            return _refuse("the fight is not over yet; its report comes at the end", 409)
        return Response(printable(text, keep="\n"), media_type="text/markdown; charset=utf-8",
                        headers={**_NO_STORE, "Content-Disposition": 'attachment; filename="fight-report.md"'})

    async def report_page(self, request: Request) -> Response:
        """The same report as a page's part, in HTML: what the page shows at the end, the Markdown staying a
        download. Rendered with raw HTML off (a name typed at the table is text, never markup)."""
        text = self.host.report(self.seat_of(request))
        if text is None:
            return _refuse("the fight is not over yet; its report comes at the end", 409)
        return Response(report_html(printable(text, keep="\n")), media_type="text/html; charset=utf-8",
                        headers=_NO_STORE)

    async def events(self, request: Request) -> Response:
        seat = self.seat_of(request)
        token = request.path_params["token"]
        stop = self.streams.open(token, seat.role == "spectator")
        if stop is None:
            return _refuse(f"the spectators' page is full ({self.streams.spectators} open); try again later", 429)

        async def stream():
            # polls the host's version on the event loop: a page listening holds no worker thread
            # (six pages waiting in threads would starve the answers' own), and a poll costs nothing
            seen, quiet, polls = -1, 0.0, 0
            while not (stop.is_set() or self.stopping.is_set()) and (polls % 50 or not await request.is_disconnected()):
                polls += 1  # a look at the socket every half second
                version = self.host.version
                if version != seen:  # a settled change, or the feed published mid-change (busy: no question)
                    seen, quiet = version, 0.0
                    yield f"data: {version}\n\n"
                    if self.host.finished:
                        return
                elif quiet > 10:
                    quiet = 0.0
                    yield ": still here\n\n"  # keeps proxies and the browser from dropping the stream
                await asyncio.sleep(POLL)
                quiet += POLL
        return _Stream(stream(), lambda: self.streams.close(token, stop), media_type="text/event-stream",
                       headers=_NO_STORE)


def app(host: TableHost, links: Links, hosts: "Hosts | None" = None,
        stopping: threading.Event | None = None, gm_anywhere: bool = False) -> "Gate":
    """The ASGI app: the routes (:class:`_Routes`) behind the :class:`Gate` (Host check, security
    headers). ``hosts``: the Host names accepted (default: this machine's, see :class:`Hosts`);
    ``stopping``: set when the server shuts down, so every event stream ends at once instead of
    holding the shutdown; ``gm_anywhere``: the GM's link is served to any address, not only to this
    machine."""
    r = _Routes(host, links, stopping or threading.Event(), gm_anywhere, guard.Streams(), {}, _static_files())
    routes = [Route("/t/{token}", r.page), Route("/api/{token}/state", r.state),
              Route("/api/{token}/answer", r.answer, methods=["POST"]),
              Route("/api/{token}/command", r.command, methods=["POST"]), Route("/api/{token}/events", r.events),
              Route("/api/{token}/report", r.report), Route("/api/{token}/report.html", r.report_page),
              Route("/static/{name}", r.static)]
    inner = Starlette(routes=routes, exception_handlers={_NoSeat: _no_seat, _TooLarge: _too_large, 404: _no_seat,
                                                         405: _no_method, _GmElsewhere: _gm_elsewhere})
    return Gate(inner, hosts or Hosts("127.0.0.1"))


def report_html(markdown: str) -> str:
    """The fight report's Markdown as HTML (CommonMark with tables; raw HTML in the text is escaped, links
    to ``javascript:`` and the like are not made)."""
    return MarkdownIt("js-default").render(markdown)


def _static_files() -> dict[str, tuple[bytes, str]]:
    """The page's files (name -> (bytes, ETag)), read once when the app is made."""
    out = {}
    for path in sorted(STATIC.iterdir()):
        if path.suffix in STATIC_TYPES:
            body = path.read_bytes()
            out[path.name] = (body, '"' + hashlib.sha256(body).hexdigest()[:16] + '"')
    return out


class Hosts:
    """The Host header values the server answers. A browser lured to an attacker's name that resolves
    to this machine (DNS rebinding) sends that name as Host, so names are refused unless they are
    this machine's own (``localhost``, its host name, ``NAME.local``) or given with ``--allow-host``;
    an address typed as digits (IPv4, or IPv6 in brackets) cannot be rebound and is accepted."""

    def __init__(self, bind: str, extra: tuple[str, ...] | list[str] = ()) -> None:
        names = {"localhost", bind.lower()}
        try:
            mine = socket.gethostname().lower()
            names |= {mine, f"{mine}.local"}
        except OSError:
            pass
        self.names = names | {n.lower().rstrip(".") for n in extra}

    def allows(self, header: str | None) -> bool:
        if not header:
            return False
        name = header.lower()
        if name.startswith("["):  # [v6] or [v6]:port
            end = name.find("]")
            rest = name[end + 1:]
            if end < 0 or (rest and not (rest[0] == ":" and rest[1:].isascii() and rest[1:].isdigit())):
                return False
            return _is_ip(name[1:end])
        host, _, port = name.partition(":")
        if port and not (port.isascii() and port.isdigit()):
            return False
        return _is_ip(host) or host.rstrip(".") in self.names


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


class Gate:
    """The outer ASGI layer: refuses a request whose Host is not this server's (400, before any
    route runs) and adds :data:`SECURITY_HEADERS` to every response."""

    def __init__(self, inner: Any, hosts: Hosts) -> None:
        self.inner, self.hosts = inner, hosts

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.inner(scope, receive, send)
            return
        host = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"host"), None)

        async def secured(message: dict) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": list(message.get("headers", [])) + SECURITY_HEADERS}
            await send(message)

        if not self.hosts.allows(host):
            response = _refuse("this table answers to its own address only (the Host header names another: "
                               "start serve with --allow-host NAME to reach it by that name)", 400)
            await response(scope, receive, secured)
            return
        await self.inner(scope, receive, secured)


def _cross_site(request: Request) -> tuple[str, int] | None:
    """Why an answer looks sent by another site's page (a cross-site form or fetch), or None. A
    browser names the page's origin (``Origin``) and whether it is this site (``Sec-Fetch-Site``);
    a form or a ``no-cors`` fetch cannot send ``application/json``, which the page always does."""
    site = request.headers.get("sec-fetch-site")
    origin = request.headers.get("origin")
    if site not in (None, "same-origin", "none") or (
            origin is not None and origin != f"{request.url.scheme}://{request.headers.get('host', '')}"):
        return "an answer from another site's page is refused; answer from this table's own page", 403
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        return "an answer or command is sent as application/json", 415
    return None


class _Stopped(Exception):
    """The server began to stop while a change was in flight."""


async def _off_the_loop(work: Any, stopping: threading.Event) -> Any:
    """``work()`` in a thread of its own, awaited until it ends or the server stops (:class:`_Stopped`).
    The thread is a daemon: a server stopping mid-change never waits for a long NPC decision (the table
    halts after the step in flight, ``TableHost.stop``), where ``asyncio.to_thread``'s pool would hold
    the exit until it ended."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future = loop.create_future()

    def deliver(result: Any, error: BaseException | None) -> None:
        if not done.done():
            done.set_exception(error) if error is not None else done.set_result(result)

    def run() -> None:
        try:
            result, error = work(), None
        except BaseException as exc:  # handed to the request, whatever it is
            result, error = None, exc
        try:
            loop.call_soon_threadsafe(deliver, result, error)
        except RuntimeError:  # the loop has closed: the server stopped meanwhile
            pass
    threading.Thread(target=run, name="fate-npc change", daemon=True).start()
    while not done.done():
        await asyncio.wait({done}, timeout=POLL * 5)
        if not done.done() and stopping.is_set():
            raise _Stopped
    return done.result()


class _Stream(StreamingResponse):
    """A streaming response that says when it ends, however it ends (done, disconnected, cancelled)."""

    def __init__(self, content: Any, on_close: Any, **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self._on_close = on_close

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._on_close()


_NO_STORE = {"Cache-Control": "no-store"}


class _NoSeat(Exception):
    pass


class _TooLarge(Exception):
    pass


class _GmElsewhere(Exception):
    pass


async def _gm_elsewhere(request: Request, exc: Exception) -> Response:
    return _refuse("the GM's link is served on the machine that runs the table only; open it there "
                   "(serve --gm-anywhere serves it to the network too)", 403)


def _from_this_machine(request: Request) -> bool:
    """Whether the request comes from the machine that serves: the loopback, or this machine's own
    address (a browser on it that opened the network address it printed)."""
    client, server = request.scope.get("client"), request.scope.get("server")
    if not client:
        return False
    try:
        peer = ipaddress.ip_address(client[0])
    except ValueError:
        return False
    if peer.is_loopback or (getattr(peer, "ipv4_mapped", None) or peer).is_loopback:
        return True
    return bool(server) and client[0] == server[0]


async def _no_seat(request: Request, exc: Exception) -> Response:
    return _refuse("no table at this link; ask the GM for yours", 404)


async def _no_method(request: Request, exc: Exception) -> Response:
    return _refuse("this address does not take that method (answers are POSTed, everything else is a GET)", 405)


async def _too_large(request: Request, exc: Exception) -> Response:
    return _refuse(f"the body is over {MAX_BODY} bytes; an answer is one line", 413)


async def _bounded_body(request: Request) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise _TooLarge
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise _TooLarge
    return body


def _qr_svg(url: str) -> str | None:
    """A QR code of ``url`` as an SVG data URI for an ``<img>`` (segno), or None when segno is not installed."""
    try:
        import segno
    except ImportError:
        return None
    return segno.make(url, error="m").svg_data_uri(scale=3)


def _refuse(reason: str, status: int, close: bool = False) -> JSONResponse:
    """A refusal in one line of JSON; ``close``: the connection is closed after it (a body that did not
    arrive in time: what is still coming of it is no request)."""
    return JSONResponse({"ok": False, "error": reason}, status_code=status,
                        headers={"Connection": "close"} if close else None)


def links_text(links: Links, base: str, names: dict[str, str]) -> list[str]:
    """The lines ``serve`` prints: the GM's address, each player's, the spectators'."""
    out = [f"GM:         {base}/t/{links.token('gm')}"]
    for token, seat in links.seats.items():
        if seat.role == "player":
            out.append(printable(f"{names.get(seat.pc, seat.pc)}: {base}/t/{token}"))
    out.append(f"spectators: {base}/t/{links.token('spectator')}")
    return out


def reachable(bind: str) -> str:
    """The address the players' phones should open for a server bound to ``bind``: itself, or for the
    wildcard (``0.0.0.0``, ``::``) this machine's address on the network its default route leaves by
    (a UDP socket "connected" to a private address: nothing is sent); the loopback when it has none."""
    if bind not in ("0.0.0.0", "::", ""):
        return bind
    family = socket.AF_INET6 if bind == "::" else socket.AF_INET
    probe = ("fd00::1", 9) if family == socket.AF_INET6 else ("10.255.255.255", 9)
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect(probe)
            found = s.getsockname()[0]
    except OSError:
        return "::1" if family == socket.AF_INET6 else "127.0.0.1"
    if found in ("0.0.0.0", "::"):
        return "::1" if family == socket.AF_INET6 else "127.0.0.1"
    return found


def listen(address: str, port: int) -> tuple[str, int]:
    """The address and port to serve on, claimed before anything else starts: a port that cannot be
    had is said (OSError) before a session is opened or a file written; port 0 becomes a free one.
    (uvicorn binds it again itself: served on a socket passed in, chromium's event streams stalled.)"""
    if not 0 <= port <= 65535:
        raise OSError(f"--port {port}: a port is a number from 0 to 65535")
    infos = socket.getaddrinfo(address, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, _, _, _, where = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(where)
        sock.listen(1)
        return address, sock.getsockname()[1]


def server(host: TableHost, links: Links, where: tuple[str, int], on_ready: Any = None,
           allow_hosts: tuple[str, ...] | list[str] = (), gm_anywhere: bool = False) -> Any:
    """The uvicorn server of one table at ``where`` (:func:`listen`); ``on_ready(port)`` once it
    listens. Its connections go through :mod:`guard`'s budget (uvicorn's ``limit_concurrency`` is
    off: it let idle sockets lock the GM out); at shutdown every event stream ends at once, so the
    shutdown is quick and prints nothing. A port lost between :func:`listen` and the start ends
    ``run`` with OSError."""
    import uvicorn
    stopping = threading.Event()
    address, port = where
    budget = guard.Budget(seated=links.carries_seat)
    config = uvicorn.Config(app(host, links, Hosts(address, allow_hosts), stopping, gm_anywhere), host=address,
                            port=port, log_level="critical", lifespan="off", http=guard.protocol(budget),
                            limit_concurrency=None,
                            timeout_keep_alive=5, timeout_graceful_shutdown=2)

    class Server(uvicorn.Server):
        async def shutdown(self, sockets=None):
            stopping.set()
            host.table.halt()  # the change in flight plays no step past its own: the exit is prompt
            await super().shutdown(sockets)

        async def startup(self, sockets=None):
            try:
                await super().startup(sockets)
            except SystemExit:  # uvicorn's way of saying it could not bind
                raise OSError(f"cannot listen on {address}:{port}") from None
            if on_ready is not None and self.started:
                on_ready(self.servers[0].sockets[0].getsockname()[1])

    made = Server(config)
    made.budget = budget  # what a test or a status line reads of the connections held
    return made


def serve(host: TableHost, links: Links, where: tuple[str, int], on_ready: Any = None,
          allow_hosts: tuple[str, ...] | list[str] = (), gm_anywhere: bool = False) -> None:
    """Serve the table at ``where`` until Ctrl-C (see :func:`server`).

    What start-up made (the modules, a learned NPC's torch, the scene) is collected once and then
    frozen out of the garbage collector (``gc.freeze``): a full collection while serving walks only
    what serving made, instead of pausing the answers while it walks the whole heap (0.2 s on the
    ghoul with a learned NPC, torch loaded; ``scripts/bench_gc_pause.py``)."""
    made = server(host, links, where, on_ready, allow_hosts, gm_anywhere)
    gc.collect()
    gc.freeze()
    try:
        made.run()
    except KeyboardInterrupt:  # uvicorn raises the Ctrl-C it caught again once it has shut down
        pass
