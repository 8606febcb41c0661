"""How loading and playing a scene grows with its size.

Zones: a chain of N zones (the duel's two fighters at one end), loaded through the YAML reader and
checks and then played to its end, beside the shipped duel measured in the same run. Checks are
linear in the scene (issue 33): the time per zone should stay flat as N grows.

Characters (``--characters``): the warehouse's PCs and its major NPC copied until the scene holds N
characters (half on each side), benched on the fast core and on the reference engine in the same run,
and on the fast core at the old fixed table sizes (256 aspects, 4,096 events); the fast
core's tables are sized from the scene (issue 50), so a crowded scene stays on it (the fights that
outgrow it and go back to the reference are counted).

    python scripts/bench_scene_size.py [--zones 1000,2000,5000,10000] [--repeat 3]
    python scripts/bench_scene_size.py --characters 8,16,24,32 [--episodes 200]
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


def crowd(n: int) -> dict:
    """The warehouse with ``n`` characters: its three PCs copied in turn on one side, its major NPC Og
    copied on the other (each copy its own id and name), so the two sides are even and the fight long:
    the scene whose aspects and events outgrew the fast core's fixed tables."""
    _, data = read_scene_data("warehouse")
    data = copy.deepcopy(data)
    pcs = [(cid, sheet) for cid, sheet in data["characters"].items() if sheet.get("kind") == "pc"]
    og = data["characters"]["og"]
    out: dict = {}
    for i in range(n):
        cid, sheet = pcs[(i // 2) % len(pcs)] if i % 2 == 0 else ("og", og)
        out[f"{cid}_{i}"] = {**sheet, "name": f"{sheet['name']} {i // 2 + 1}"}
    data["characters"] = out
    data.pop("reserves", None)
    data["first"] = next(iter(out))
    return data


def crowded(sizes: list[int], episodes: int) -> None:
    from fate_env.content.scenes import scene_from_dict
    from fate_env.fast import FastCore
    print(f"characters: {episodes} fights each on the fast core, {max(episodes // 10, 5)} on the reference "
          "(episodes per second; the ratio is the speed-up)")
    for n in sizes:
        scene = scene_from_dict(crowd(n), f"warehouse x{n}")
        core = FastCore(scene)
        core.outcomes([0])  # compiled and loaded before the clock
        t0 = time.perf_counter()
        outcomes = core.outcomes(list(range(episodes)))
        fast = episodes / (time.perf_counter() - t0)
        bailed = sum(o is None for o in outcomes)
        fixed = _fixed_tables(scene, episodes)
        ref_n = max(episodes // 10, 5)
        t0 = time.perf_counter()
        for seed in range(ref_n):
            play(start(scene, seed), controllers_for(scene, seed=seed))
        ref = ref_n / (time.perf_counter() - t0)
        print(f"{n:>4} characters: fast core {fast:8.1f}/s ({bailed} of {episodes} back on the reference; "
              f"{fixed} at the old fixed sizes), reference {ref:6.2f}/s: {fast / ref:6.1f}x", flush=True)


def _fixed_tables(scene, episodes: int) -> int:
    """How many of the fights would have outgrown the old fixed tables (and gone back to the reference)."""
    from fate_env.fast import FastCore, tables
    sized = tables.limits
    tables.limits = lambda characters, aspects: (tables.AMAX, tables.EMAX)
    try:
        return sum(o is None for o in FastCore(scene).outcomes(list(range(episodes))))
    finally:
        tables.limits = sized


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
    ap.add_argument("--characters", help="crowded scenes instead: these numbers of characters, e.g. 8,16,24,32")
    ap.add_argument("--episodes", type=int, default=200, help="fights per crowded scene on the fast core")
    args = ap.parse_args()
    if args.characters:
        crowded([int(x) for x in args.characters.split(",")], args.episodes)
        return
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
