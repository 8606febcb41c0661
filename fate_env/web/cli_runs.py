"""``fate-npc serve`` run: the live table behind a local web server (its arguments are declared in
``cli_commands``). Starlette and uvicorn, the web extra, are imported once it is known to be there."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..content import command_line as cl
from ..content.paths import OutputPathError
from ..content.safe_text import printable
from ..live.cli_runs import TableRefused, table_setup
from ..live.session import SessionError, SessionSetup, finish_session, open_session
from .host import TableHost


def _needs_starlette():
    """The web server's module, imported only once the web extra is known to be there."""
    from . import server
    return server


def cmd_serve(args: argparse.Namespace) -> int:
    """The live table in a browser: ``play``'s model, behind a local web server."""
    if cl.absent("starlette", "uvicorn"):
        return cl.fail("serve needs the web extra (Starlette and uvicorn): pip install -e '.[web]'")
    server = _needs_starlette()
    controls = cl.controls(args.control)
    try:
        pilot = table_setup(args, controls)
    except TableRefused as exc:
        return cl.fail(str(exc))
    try:  # the port first: a serve that cannot listen has opened no session and written no file
        where = server.listen(args.host, args.port)
    except OSError as exc:
        return cl.fail(f"--host {args.host} --port {args.port}: cannot listen there ({exc.strerror or exc})")
    try:
        setup = SessionSetup(args.scene, args.seed, controls, args.dice or "auto", args.save, args.resume, args.rules,
                             force=args.force, autopilot=pilot)
        host = TableHost(lambda inp, out: open_session(setup, inp, out))
    except (SessionError, OutputPathError) as exc:
        return cl.fail(str(exc))
    s = host.session
    links = server.Links([cid for cid in s.play.f if s.table.pc_of(cid)])
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"(listening on {args.host}: anyone on that network who has a link can open it"
              + ("" if args.gm_anywhere else "; the GM's link opens on this machine only (--gm-anywhere: anywhere)")
              + ")")
    _start_telling(host)
    try:
        server.serve(host, links, where, on_ready=lambda port: _announce(server, args, s, links, port),
                     allow_hosts=args.allow_host, gm_anywhere=args.gm_anywhere)
    except OSError as exc:
        return cl.fail(f"--host {args.host} --port {args.port}: {exc.strerror or exc}")
    finally:
        _close_table(host, args.save)
    if s.autosave_path is not None:
        print(f"(the session is in {s.autosave_path}: fate-npc serve --resume {s.autosave_path} goes on)")
    return 0


def _start_telling(host) -> None:
    """Play up to the table's first question before the links are printed; where that waits (a learned
    side rehearsing the scene, when the NPCs act first), the GM's terminal is told why meanwhile."""
    publish = host.table.on_wait

    def told() -> None:
        print(host.table.feed[-1].text.strip(), flush=True)
        publish()
    host.table.on_wait = told
    try:
        host.start()
    finally:
        host.table.on_wait = publish


def _announce(server: Any, args: argparse.Namespace, s: Any, links: Any, port: int) -> None:
    """The GM's terminal once ``server`` (the web server's module) listens: the table and every link (a
    wildcard bind: this machine's network address, which a phone can open)."""
    at = server.reachable(args.host)
    base = f"http://{f'[{at}]' if ':' in at else at}:{port}"
    print(printable(f"{s.scene.title} (seed {s.log.seed}) at the table; Ctrl-C stops the server (the session is saved)"))
    print("\n".join(server.links_text(links, base, {cid: s.narrator.name(cid) for cid in links.pcs})), flush=True)


def _close_table(host: Any, save: str | None) -> None:
    """The server stopped: no change is taken after this, ``--save`` is written (said in the terminal),
    the session's files are released."""
    host.stop()
    s = host.session
    s.out = sys.stdout  # what the session says from here on (its save) is the GM's to read, not the pages'
    try:
        finish_session(s, save, sys.stdout)
    finally:
        s.release()
