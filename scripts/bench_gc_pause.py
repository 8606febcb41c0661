"""How long a full garbage collection pauses a ``serve`` process, with and without its start-up's
objects frozen out of the collector (``gc.freeze``, as fate_env/web/server.py's ``serve`` does).

Why it matters: while a collection runs no thread moves, so the GM's and the players' answers wait
for it. A table whose NPCs are ``learned`` has torch loaded, and a full collection walks every object
start-up made; frozen, it walks only what serving made since.

    python scripts/bench_gc_pause.py --repeat 5 [--scene ghoul --control monsters=learned]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fate_env.live import autopilot as ap  # noqa: E402
from fate_env.live.session import SessionSetup, open_session  # noqa: E402
from fate_env.web.host import TableHost  # noqa: E402


def pause(repeat: int) -> float:
    """The median of ``repeat`` full collections, in milliseconds."""
    took = []
    for _ in range(repeat):
        start = time.perf_counter()
        gc.collect()
        took.append(time.perf_counter() - start)
    return 1000 * statistics.median(took)


def main() -> None:
    ap_ = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap_.add_argument("--scene", default="ghoul")
    ap_.add_argument("--control", default="monsters=learned", help="SIDE=POLICY, as serve's --control")
    ap_.add_argument("--repeat", type=int, default=5)
    args = ap_.parse_args()
    side, policy = args.control.split("=", 1)
    setup = SessionSetup(args.scene, 1, {side: policy}, autosave=None, autopilot=ap.Autopilot())
    host = TableHost(lambda inp, out: open_session(setup, inp, out))
    host.start()
    try:
        time.sleep(2.0)  # the table's first questions asked (a learned NPC's model loaded)
        objects = len(gc.get_objects())
        whole = pause(args.repeat)
        gc.freeze()
        frozen = pause(args.repeat)
        gc.unfreeze()
    finally:
        host.stop()
        host.session.release()
    print(f"{args.scene} with {args.control}: {objects:,} objects tracked after start-up")
    print(f"full collection, start-up's objects walked: {whole:7.1f} ms (median of {args.repeat})")
    print(f"full collection, start-up's objects frozen: {frozen:7.1f} ms  ({frozen / whole:.3f}x)")


if __name__ == "__main__":
    main()
