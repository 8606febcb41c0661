"""How loading and playing a scene grows with its size: a chain of N zones (the duel's two
fighters at one end), loaded through the YAML reader and checks and then played to its end, beside
the shipped duel measured in the same run. Checks are linear in the scene (issue 33): the time per
zone should stay flat as N grows.

    python scripts/bench_scene_size.py [--zones 1000,2000,5000,10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import yaml  # noqa: E402

from agents.base import controllers_for, play  # noqa: E402
from fate_env.content.scenes import load_scene, read_scene_data  # noqa: E402
from fate_env.rules.engine import start  # noqa: E402


def chain(n: int) -> dict:
    """The duel with its two zones at the head of a chain of ``n`` zones in all."""
    _, data = read_scene_data("duel")
    data = copy.deepcopy(data)
    data["zones"] = [{"id": "steps"}, {"id": "fountain"}] + [{"id": f"z{i}"} for i in range(n - 2)]
    data["borders"] = [{"between": ["steps", "fountain"]}, {"between": ["fountain", "z0"]}] + [
        {"between": [f"z{i}", f"z{i + 1}"]} for i in range(n - 3)]
    return data


def measure(path: str) -> tuple[float, float]:
    """Seconds to load ``path`` and to play it once (seed 1)."""
    t0 = time.perf_counter()
    scene = load_scene(path)
    t1 = time.perf_counter()
    play(start(scene, 1), controllers_for(scene, seed=1))
    return t1 - t0, time.perf_counter() - t1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--zones", default="1000,2000,5000,10000")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        files = {"duel": "duel"}
        for n in (int(x) for x in args.zones.split(",")):
            path = Path(tmp) / f"chain{n}.yaml"
            path.write_text(yaml.safe_dump(chain(n)))
            files[f"{n} zones"] = str(path)
        runs = {name: [measure(path) for _ in range(args.repeat)] for name, path in files.items()}
    base = statistics.median(load for load, _ in runs["duel"])
    print(f"median of {args.repeat} runs each; load = read, check and build the scene")
    for name, results in runs.items():
        load = statistics.median(r[0] for r in results)
        fight = statistics.median(r[1] for r in results)
        print(f"{name:>12}: load {load:7.3f} s ({load / base:6.1f}x the duel), play {fight:6.3f} s")


if __name__ == "__main__":
    main()
