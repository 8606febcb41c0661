"""A bounded flood of a web table from its own process (as from another machine), for
``test_fair_service.py``: every ``--every`` seconds ``--batch`` more connections that pipeline 60
requests for the page's script and never read the answers, and for each ``--slow TOKEN:N`` N answers
from that link declaring a body and sending one byte of it; each round is kept open two seconds.
Prints the connections opened so far after each round. Stops after 30 s, ``--most`` connections, or
when it is terminated.

    python tests/web/flood.py --port 8765 --sources 127.0.0.2,127.0.0.3
"""

from __future__ import annotations

import argparse
import socket
import time
from contextlib import ExitStack


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




def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--sources", default="127.0.0.1")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--every", type=float, default=0.25)
    ap.add_argument("--most", type=int, default=3000)
    ap.add_argument("--slow", action="append", default=[])
    args = ap.parse_args()
    sources = args.sources.split(",")
    slow = [(spec.rsplit(":", 1)[0], int(spec.rsplit(":", 1)[1])) for spec in args.slow]
    end = time.time() + 30
    opened = 0
    rounds: list[tuple[float, ExitStack]] = []
    try:
        while time.time() < end and opened < args.most:
            held = ExitStack()
            rounds.append((time.time(), held))
            opened += never_reading(args.port, held, args.batch, sources)
            for token, n in slow:
                opened += len(slow_bodies(args.port, held, token, n, sources))
            print(opened, flush=True)
            while rounds and rounds[0][0] < time.time() - 2:
                rounds.pop(0)[1].close()
            time.sleep(args.every)
    finally:
        for _, held in rounds:
            held.close()


if __name__ == "__main__":
    main()
