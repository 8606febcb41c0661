"""The GM's answer under a stranger's flood (issue 48): a real server (the one ``serve`` runs) on the
loopback, 300 idle sockets, 60 half-sent headers and 40 spectator streams open (past the connection
budget of 256 and the spectators' 32), then the GM answers; prints how long until the table settled
on the next prompt, three rounds and their median. Bounded: every socket closes with its round.

    python scripts/bench_web_flood.py
"""
import socket
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "web")]
from contextlib import ExitStack
from test_server import table
results = []
for run in range(3):
    with table("warehouse", 5) as (c, host), ExitStack() as held:
        h, port = c.base.split("//")[1].split(":")
        gm, sp = c.token("gm"), c.token("spectator")
        s = c.settled(gm)
        def sock():
            k = socket.create_connection((h, int(port)), timeout=5); held.callback(k.close); return k
        for _ in range(300): sock()
        for _ in range(60): sock().sendall(f"GET /api/{gm}/state HTTP/1.1\r\nHost: {h}\r\nX-Slow: ".encode())
        for _ in range(40):
            k = sock(); k.sendall(f"GET /api/{sp}/events HTTP/1.1\r\nHost: {h}:{port}\r\n\r\n".encode()); k.recv(64)
        t = time.perf_counter()
        status, body = c.answer(gm, s["question"]["seq"], "auto")
        c.settled(gm, body["version"], timeout=5)
        results.append((time.perf_counter() - t) * 1000)
        assert status == 200
print("GM answer applied and the table settled under the flood (ms):", [round(r, 1) for r in results], "median", round(statistics.median(results), 1))
