"""The live table's service times that issue 72 names, measured on a real server on the loopback.

1. **Reads during a long change**: the warehouse with a ``learned`` smugglers' side, whose first
   rehearsal runs inside the change that Cynere's answer starts. While it runs, a spectator asks for
   the report and the GM's page reads its state over and over: each read's time (the report used to
   wait for the change's lock on the event loop, freezing every page for the whole rehearsal).
2. **Reinforcements**: ``/add`` of the 68th character on the warehouse (64 thugs added one by one),
   the GM's command to the table settled on its next question, against the reference in the same
   run: every option's odds worked out by a what-if roll (``table_menu.MAX_WHAT_IF`` unbounded).

    python scripts/bench_table_service.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "web")]

from test_server import table  # noqa: E402

from fate_env.live import autopilot as ap  # noqa: E402
from fate_env.live import table_menu  # noqa: E402
from fate_env.live.seats import GM  # noqa: E402
from fate_env.live.session import SessionSetup, open_session  # noqa: E402
from fate_env.web.host import TableHost  # noqa: E402


def reads_during_a_rehearsal() -> tuple[list[float], float]:
    """(the GM's state reads during the rehearsal, in ms; how long the change took, in s)."""
    import agents.learned as learned
    learned._LINES.clear()  # the rehearsal runs anew, as at a table's first fight with this file
    with table("warehouse", 4, controls={"smugglers": "learned"}) as (c, host):
        gm = c.token("gm")
        s = c.settled(gm)
        done = threading.Event()
        got: list = []

        def answer() -> None:
            got.append(c.answer(c.token("player", "cynere"), s["question"]["seq"], "auto"))
            done.set()
        start = time.perf_counter()
        threading.Thread(target=answer, daemon=True).start()
        while not host.busy and not done.is_set():
            time.sleep(0.001)
        report = threading.Thread(target=_report, args=(c,), daemon=True)
        report.start()
        reads = []
        while not done.is_set():
            t = time.perf_counter()
            c.get(gm)
            reads.append((time.perf_counter() - t) * 1000)
            time.sleep(0.02)
        took = time.perf_counter() - start
        report.join(timeout=60)
        return reads, took


def _report(c) -> None:
    try:
        urllib.request.urlopen(f"{c.base}/api/{c.token('spectator')}/report", timeout=60).close()
    except urllib.error.HTTPError:  # 409: the fight is not over; answered at once, which is the point
        pass


def add_68th(unbounded: bool) -> float:
    """Seconds for /add of the 68th character (64 added before it, one by one)."""
    kept = table_menu.MAX_WHAT_IF
    table_menu.MAX_WHAT_IF = 10 ** 9 if unbounded else kept
    try:
        host = TableHost(lambda i, o: open_session(SessionSetup("warehouse", 5, autopilot=ap.Autopilot()), i, o))
        host.start()
        while len(host.table.play.f) < 67:
            host.command(GM, {"command": "add", "who": "Thug: minor, Fight 1, side: smugglers"})
        assert len(host.table.play.f) == 67
        start = time.perf_counter()
        host.command(GM, {"command": "add", "who": "Thug: minor, Fight 1, side: smugglers"})
        return time.perf_counter() - start
    finally:
        table_menu.MAX_WHAT_IF = kept


def main() -> None:
    ap_ = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap_.add_argument("--repeat", type=int, default=3)
    args = ap_.parse_args()
    reads, took = reads_during_a_rehearsal()
    print(f"GM state reads during a learned side's first rehearsal ({took:.1f} s change, a report asked for "
          f"meanwhile): {len(reads)} reads, median {statistics.median(reads):.1f} ms, "
          f"slowest {max(reads):.1f} ms")
    now, ref = [], []
    for _ in range(args.repeat):
        now.append(add_68th(unbounded=False))
        ref.append(add_68th(unbounded=True))
    print(f"/add of the 68th character: {statistics.median(now) * 1000:.0f} ms (runs "
          f"{', '.join(f'{x * 1000:.0f}' for x in now)}); every option's odds by a what-if roll: "
          f"{statistics.median(ref) * 1000:.0f} ms ({statistics.median(ref) / statistics.median(now):.1f}x)")


if __name__ == "__main__":
    main()
