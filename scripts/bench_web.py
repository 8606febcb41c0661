"""How fast the web table answers: from an answer's POST to the page's next prompt, over HTTP on
the loopback, on the warehouse with the autopilot on (issue 36: under 100 ms at the 95th percentile).

Each answer is timed from the moment it is sent until ``/api/TOKEN/state`` shows the session
waiting at its next prompt (or over): what a page shows after a click, the NPCs' autopilot moves
between the two included. The same answers are timed with no page listening and with six pages
holding the event stream open (a table of six), in one run, so the ratio says what the pages cost.

    python scripts/bench_web.py [--scene warehouse] [--answers 300] [--pages 6]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import uvicorn  # noqa: E402

from fate_env.live import autopilot as ap  # noqa: E402
from fate_env.live.session import open_session  # noqa: E402
from fate_env.web.host import TableHost  # noqa: E402
from fate_env.web.server import Links, app  # noqa: E402


def start(scene: str, seed: int):
    host = TableHost(lambda inp, out: open_session(scene, seed, {}, "auto", None, None, inp, out, autosave=None,
                                                   autopilot=ap.Autopilot()))
    s = host.session
    links = Links([c for c in s.play.f if c in s.humans and not s.play.f[c].sheet.is_npc])
    server = uvicorn.Server(uvicorn.Config(app(host, links), host="127.0.0.1", port=0, log_level="warning",
                                           lifespan="off"))
    threading.Thread(target=server.run, daemon=True).start()
    host.start()
    while not server.started:
        time.sleep(0.01)
    return host, links, server, f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.loads(r.read())


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def listen(url: str, stop: threading.Event) -> None:
    """A page holding the event stream open, reading the state at each event as the page does."""
    state = url.replace("/events", "/state")
    with urllib.request.urlopen(url, timeout=60) as r:
        for line in r:
            if stop.is_set():
                return
            if line.startswith(b"data:"):
                get(state)


def timed_answers(scene: str, n: int, pages: int) -> list[float]:
    """Seconds per answer over fights from seed 0 until ``n`` answers were timed."""
    times: list[float] = []
    seed = 0
    while len(times) < n:
        host, links, server, base = start(scene, seed)
        gm = f"{base}/api/{links.token('gm')}"
        stop = threading.Event()
        for _ in range(pages):
            threading.Thread(target=listen, args=(f"{gm}/events", stop), daemon=True).start()
        s = get(f"{gm}/state")
        while not s["over"] and len(times) < n:
            p = s["prompt"]
            proposed = [o["number"] for o in p["options"] if o["proposed"]]
            t0 = time.perf_counter()
            version = post(f"{gm}/answer", {"seq": p["seq"], "text": str(proposed[0]) if proposed else ""})["version"]
            while True:
                s = get(f"{gm}/state")
                if s["over"] or (s["prompt"] and s["version"] > version):
                    break
            times.append(time.perf_counter() - t0)
        stop.set()
        server.should_exit = True
        host.stop()
        seed += 1
    return times


def main() -> None:
    ap_ = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap_.add_argument("--scene", default="warehouse")
    ap_.add_argument("--answers", type=int, default=300)
    ap_.add_argument("--pages", type=int, default=6)
    args = ap_.parse_args()
    for pages in (0, args.pages):
        t = sorted(timed_answers(args.scene, args.answers, pages))
        p95 = t[int(0.95 * (len(t) - 1))]
        print(f"{args.scene}, {len(t)} answers, {pages} pages listening: median {1000 * statistics.median(t):.1f} ms, "
              f"95th percentile {1000 * p95:.1f} ms, slowest {1000 * t[-1]:.1f} ms (aim: 95th under 100 ms)")


if __name__ == "__main__":
    main()
