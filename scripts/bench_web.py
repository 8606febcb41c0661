"""How fast the web table answers: from an answer's POST to the page's next prompt, over HTTP on
the loopback, on the warehouse with the autopilot on (issue 36: under 100 ms at the 95th percentile).

The server is `fate-npc serve` itself, in a process of its own; the pages that listen are another
process (as browsers would be), so the client's own work is not counted against the server. Each
answer is timed from the moment it is sent until the page has what it shows next: its event stream
announces the version the answer settled at and ``/api/TOKEN/state`` then shows the table waiting at its next question
(or over), the NPCs' autopilot moves between the two included. The same answers are timed with no
other page listening and with ``--pages`` more holding the stream open and fetching the state at
each change, in one run, so the two figures say what a full table costs.

    python scripts/bench_web.py [--scene warehouse] [--answers 300] [--pages 6]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LISTENER = """
import sys, threading, urllib.request
def page(url):
    state = url.replace('/events', '/state')
    with urllib.request.urlopen(url, timeout=600) as r:
        for line in r:
            if line.startswith(b'data:'):
                urllib.request.urlopen(state, timeout=60).read()
for _ in range(int(sys.argv[2])):
    threading.Thread(target=page, args=(sys.argv[1],), daemon=True).start()
sys.stdin.read()
"""


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.loads(r.read())


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def events(url: str):
    """The versions a page's event stream announces, one at a time."""
    r = urllib.request.urlopen(url, timeout=60)
    for line in r:
        if line.startswith(b"data:"):
            yield int(line[5:].strip())


def serve(scene: str, seed: int, state: str) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "fate_env.cli", "serve", scene, "--seed", str(seed), "--port", "0"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "XDG_STATE_HOME": state})
    for line in proc.stdout:
        m = re.match(r"GM: +(\S+)/t/(\S+)", line)
        if m:
            return proc, f"{m.group(1)}/api/{m.group(2)}"
    raise SystemExit("serve did not print the GM's link")


def timed_answers(scene: str, n: int, pages: int) -> list[float]:
    """Seconds per answer over fights from seed 0 until ``n`` answers were timed."""
    times: list[float] = []
    seed = 0
    with tempfile.TemporaryDirectory() as state:
        while len(times) < n:
            proc, gm = serve(scene, seed, state)
            listeners = subprocess.Popen([sys.executable, "-c", LISTENER, f"{gm}/events", str(pages)],
                                         stdin=subprocess.PIPE) if pages else None
            time.sleep(0.5 if pages else 0)
            stream = events(f"{gm}/events")
            s = get(f"{gm}/state")
            while not s["over"] and len(times) < n:
                q = s["question"]
                answer = ({"answer": "choose", "number": q["proposal"]} if q["kind"] == "decision" and q["proposal"]
                          else {"answer": "accept"} if q["kind"] in ("gate", "compel") else {"answer": "auto"})
                t0 = time.perf_counter()
                version = post(f"{gm}/answer", {"seq": q["seq"], **answer})["version"]
                while True:  # as a page: at its stream's event for that version, it fetches the state
                    if next(stream) >= version:
                        s = get(f"{gm}/state")
                        if s["over"] or (s["question"] and not s["busy"]):
                            break
                times.append(time.perf_counter() - t0)
            if listeners:
                listeners.kill()
            proc.terminate()
            proc.wait(timeout=30)
            seed += 1
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scene", default="warehouse")
    ap.add_argument("--answers", type=int, default=300)
    ap.add_argument("--pages", type=int, default=6)
    args = ap.parse_args()
    for pages in (0, args.pages):
        t = sorted(timed_answers(args.scene, args.answers, pages))
        p95 = t[int(0.95 * (len(t) - 1))]
        print(f"{args.scene}, {len(t)} answers, {pages} more pages listening: median {1000 * statistics.median(t):.1f} ms, "
              f"95th percentile {1000 * p95:.1f} ms, slowest {1000 * t[-1]:.1f} ms (aim: 95th under 100 ms)", flush=True)


if __name__ == "__main__":
    main()
