"""What the web table's connection guard costs under a flood: the server's own CPU time per
connection it takes in, with the guard (fate_env/web/guard.py) and with uvicorn's stock h11 protocol
as the reference, in the same run, under the same flood (tests/web/flood.py, from its own process as
from another machine).

Why it matters: a flood brings connections faster than a starved event loop takes them in, and every
connection waits in the kernel's accept queue behind the ones before it, the GM's too. The cheaper
each connection is to take in (and, past the budget, to close), the more flood a table absorbs
before the seats' answers wait. Both servers answer every request with the same small response, so
the difference is the guard's own work.

    python scripts/bench_guard.py --repeat 5 [--uvloop] [--ref OLD/fate_env/web/guard.py]

Every row runs on asyncio's own event loop unless it says uvloop. ``--uvloop`` adds the guard on
uvloop's loop (what ``serve`` runs on when the web extra installed it: uvicorn picks it); ``--ref``
adds an earlier guard (a worktree's copy of guard.py), measured alike.
"""

from __future__ import annotations

import argparse
import importlib.util
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from fate_env.web import guard

FLOOD = Path(__file__).resolve().parent.parent / "tests" / "web" / "flood.py"


async def small(scope, receive, send):
    """Every request gets the same few bytes (the app's own cost kept out of the comparison)."""
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"ok"})


def counting(base: type) -> type:
    """``base`` with a count of the connections it was handed (shared by the class's instances)."""
    class Counted(base):  # type: ignore[misc, valid-type]
        made = 0

        def connection_made(self, transport):  # type: ignore[no-untyped-def]
            type(self).made += 1
            super().connection_made(transport)
    return Counted


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def load_guard(path: str):
    """The guard module in the file ``path`` (an earlier version, for comparison)."""
    spec = importlib.util.spec_from_file_location("guard_ref", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def one_run(base: type, seconds: float, batch: int, loop: str = "asyncio") -> float:
    """Microseconds of the server thread's CPU per connection taken in, over ``seconds`` of flood."""
    proto = counting(base)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(small, host="127.0.0.1", port=port, log_level="critical",
                                           lifespan="off", http=proto, limit_concurrency=None, loop=loop))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    clock = time.pthread_getcpuclockid(thread.ident)
    flood = subprocess.Popen([sys.executable, str(FLOOD), "--port", str(port), "--sources",
                              ",".join(f"127.0.0.{i}" for i in range(2, 10)), "--batch", str(batch),
                              "--every", "0.25", "--most", "100000"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)  # past the first round's start-up
    cpu0, made0 = time.clock_gettime(clock), proto.made
    time.sleep(seconds)
    cpu, made = time.clock_gettime(clock) - cpu0, proto.made - made0
    flood.terminate()
    flood.wait()
    server.should_exit = True
    thread.join(timeout=10)
    return 1e6 * cpu / max(made, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=4.0)
    ap.add_argument("--batch", type=int, default=300, help="connections per quarter second (default 300)")
    ap.add_argument("--uvloop", action="store_true", help="add the guard on uvloop's event loop as a row")
    ap.add_argument("--ref", help="an earlier guard.py to measure beside this one")
    args = ap.parse_args()
    kinds: dict[str, Any] = {"stock h11": (lambda: H11Protocol, "asyncio"),
                             "guard": (lambda: guard.protocol(guard.Budget()), "asyncio")}
    if args.uvloop:
        kinds["guard, uvloop"] = (lambda: guard.protocol(guard.Budget()), "uvloop")
    if args.ref:
        old = load_guard(args.ref)
        kinds["ref guard"] = (lambda: old.protocol(old.Budget()), "asyncio")
    runs: dict[str, list[float]] = {name: [] for name in kinds}
    for _ in range(args.repeat):  # interleaved: the machine's noise falls on all alike
        for name, (make, loop) in kinds.items():
            runs[name].append(one_run(make(), args.seconds, args.batch, loop))
    ref = statistics.median(runs["stock h11"])
    for name, us in runs.items():
        med = statistics.median(us)
        print(f"{name:13s} {med:5.0f} µs of server CPU per connection (median of {len(us)}; "
              f"{1e6 / med:6.0f} connections a CPU-second)  {med / ref:4.2f}× stock")


if __name__ == "__main__":
    main()
