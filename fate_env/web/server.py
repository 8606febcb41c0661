"""The web table's server: Starlette routes over one :class:`~fate_env.web.host.TableHost`.

Every route is reached through a link's token (unguessable: ``secrets.token_urlsafe``): the GM's,
one per PC, one for spectators. Nothing a request carries names a file: the session saves where
the server was told (``--save``, its autosave, or the GM's ``/save`` as at the terminal). Bodies
are bounded; a malformed one is a 400 with the reason; an answer for a prompt that is gone is a 409.

    GET  /t/TOKEN              the page (one page for every seat; it asks the API what it may do)
    GET  /api/TOKEN/state      the snapshot: narration, short panel, the pending prompt
    GET  /api/TOKEN/events     server-sent events: a line each time the snapshot changes
    POST /api/TOKEN/answer     {"seq": N, "text": "..."}: one answer, checked as the terminal checks it
    GET  /api/TOKEN/report     the fight report (Markdown, as ``replay --markdown``) once it is over
"""

from __future__ import annotations

import asyncio
import json
import secrets
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .host import AnswerRefused, Seat, TableHost

STATIC = Path(__file__).resolve().parent / "static"
#: the largest request body read (an answer is a few dozen bytes)
MAX_BODY = 2048
#: how often a page's event stream looks for a change (seconds)
POLL = 0.01


class Links:
    """The tokens of one table: the GM's, one per PC, the spectators'."""

    def __init__(self, pcs: list[str]) -> None:
        self.seats: dict[str, Seat] = {secrets.token_urlsafe(18): Seat("gm")}
        self.seats.update({secrets.token_urlsafe(18): Seat("player", pc) for pc in pcs})
        self.seats[secrets.token_urlsafe(18)] = Seat("spectator")
        self._made: dict[str, list[dict[str, Any]]] = {}

    def token(self, role: str, pc: str | None = None) -> str:
        return next(t for t, s in self.seats.items() if s.role == role and s.pc == pc)

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

    def seat(self, token: str) -> Seat | None:
        for t, s in self.seats.items():
            if secrets.compare_digest(t, token):
                return s
        return None


def app(host: TableHost, links: Links) -> Starlette:
    def seat_of(request: Request) -> Seat:
        seat = links.seat(request.path_params["token"])
        if seat is None:
            raise _NoSeat
        return seat

    async def page(request: Request) -> Response:
        seat_of(request)
        return FileResponse(STATIC / "table.html", headers=_NO_STORE)

    async def state(request: Request) -> Response:
        seat = seat_of(request)
        snap = host.snapshot(seat)
        if seat.role == "gm":  # only the GM's page hands out the other links (and their QR codes)
            snap["links"] = links.for_gm(str(request.base_url).rstrip("/"), host)
        return JSONResponse(snap, headers=_NO_STORE)

    async def answer(request: Request) -> Response:
        seat = seat_of(request)
        body = await _bounded_body(request)
        try:
            data = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            return _refuse("the body is not JSON; expected {\"seq\": N, \"text\": \"...\"}", 400)
        if not isinstance(data, dict) or set(data) != {"seq", "text"}:
            return _refuse("expected exactly {\"seq\": N, \"text\": \"...\"}", 400)
        try:
            version = await asyncio.to_thread(host.answer, seat, data["seq"], data["text"])
        except AnswerRefused as exc:
            return _refuse(str(exc), exc.status)
        return JSONResponse({"ok": True, "version": version})

    async def report(request: Request) -> Response:
        """The fight report (``replay --markdown``'s text) once the fight is over, as a download."""
        seat_of(request)
        text = host.report()
        if text is None:
            return _refuse("the fight is not over yet; its report comes at the end", 409)
        return Response(text, media_type="text/markdown; charset=utf-8",
                        headers={**_NO_STORE, "Content-Disposition": 'attachment; filename="fight-report.md"'})

    async def events(request: Request) -> Response:
        seat_of(request)

        async def stream():
            # polls the host's version on the event loop: a page listening holds no worker thread
            # (six pages waiting in threads would starve the answers' own), and a poll costs nothing
            seen, quiet, polls = -1, 0.0, 0
            while polls % 50 or not await request.is_disconnected():  # a look at the socket every half second
                polls += 1
                version = host.version
                if version != seen and (host.waiting or host.finished):
                    seen, quiet = version, 0.0
                    yield f"data: {version}\n\n"
                    if host.finished:
                        return
                elif quiet > 10:
                    quiet = 0.0
                    yield ": still here\n\n"  # keeps proxies and the browser from dropping the stream
                await asyncio.sleep(POLL)
                quiet += POLL
        return StreamingResponse(stream(), media_type="text/event-stream", headers=_NO_STORE)

    routes = [Route("/t/{token}", page), Route("/api/{token}/state", state),
              Route("/api/{token}/answer", answer, methods=["POST"]), Route("/api/{token}/events", events),
              Route("/api/{token}/report", report),
              Mount("/static", StaticFiles(directory=STATIC))]
    return Starlette(routes=routes, exception_handlers={_NoSeat: _no_seat, _TooLarge: _too_large})


_NO_STORE = {"Cache-Control": "no-store"}


class _NoSeat(Exception):
    pass


class _TooLarge(Exception):
    pass


async def _no_seat(request: Request, exc: Exception) -> Response:
    return _refuse("no table at this link; ask the GM for yours", 404)


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


def _refuse(reason: str, status: int) -> JSONResponse:
    return JSONResponse({"ok": False, "error": reason}, status_code=status)


def links_text(links: Links, base: str, names: dict[str, str]) -> list[str]:
    """The lines ``serve`` prints: the GM's address, each player's, the spectators'."""
    out = [f"GM:         {base}/t/{links.token('gm')}"]
    for token, seat in links.seats.items():
        if seat.role == "player":
            out.append(f"{names.get(seat.pc, seat.pc)}: {base}/t/{token}")
    out.append(f"spectators: {base}/t/{links.token('spectator')}")
    return out


def serve(host: TableHost, links: Links, address: str, port: int, on_ready: Any = None) -> None:
    """Run the server until Ctrl-C (uvicorn); ``on_ready(port)`` once it listens."""
    import uvicorn
    config = uvicorn.Config(app(host, links), host=address, port=port, log_level="warning", lifespan="off",
                            limit_concurrency=64, timeout_keep_alive=5, timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    if on_ready is not None:
        original = server.startup

        async def startup(sockets=None):
            await original(sockets)
            bound = server.servers[0].sockets[0].getsockname()[1] if server.servers else port
            on_ready(bound)
        server.startup = startup
    server.run()
