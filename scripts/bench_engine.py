"""Conflicts resolved per second on one core, scripted controllers on the warehouse.

Prints the rate for the ``basic`` policy on every side on the reference engine and on the fast
core (the warehouse and the duel: issue 13's aims), and, as references measured in the same
run, the rate with ``random`` controllers, the raw cost of drawing the dice, and random games
of PettingZoo's connect_four_v3 (the bench extra).

    python scripts/bench_engine.py [--scene warehouse] [--seconds 10] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from agents.base import controllers_for, play  # noqa: E402
from fate_env.rules.conflict import Conflict  # noqa: E402
from fate_env.rules.dice import Dice  # noqa: E402
from fate_env.content.scenes import load_scene  # noqa: E402


def rate(scene, policy: str | None, seconds: float) -> tuple[float, float, float]:
    """(conflicts/s, decisions per conflict, exchanges per conflict)."""
    n = decisions = exchanges = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        overrides = {s: policy for s in scene.sides} if policy else None
        c = play(Conflict(scene, n), controllers_for(scene, overrides, seed=n))
        decisions += len(c.choices)
        exchanges += c.outcome.exchanges
        n += 1
    elapsed = time.perf_counter() - start
    return n / elapsed, decisions / n, exchanges / n


def fast_rate(scene, seconds: float) -> tuple[float, float, int] | None:
    """(conflicts/s on the fast core, seconds of the first call, episodes it handed back), or
    None when it does not cover the scene or numba is missing. Batches of 1,000 seeds, each
    seed's dice drawn as the reference draws them (included in the time)."""
    from fate_env import fast
    from fate_env.fast import kernel as k
    if not fast.available() or fast.covered(scene):
        return None
    t = time.perf_counter()
    core = fast.FastCore(scene)
    core.run([0])
    first = time.perf_counter() - t
    n = bailed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, G = core.run(range(n, n + 1000))
        bailed += int((G[:, k.G_BAIL] != 0).sum())
        n += 1000
    return n / (time.perf_counter() - start), first, bailed


def connect_four_rate(seconds: float) -> float | None:
    """Random games of PettingZoo's connect_four_v3 per second (the reference of issue 13), or None
    without the bench extra."""
    try:
        import warnings
        warnings.filterwarnings("ignore")
        from pettingzoo.classic import connect_four_v3
    except ImportError:
        return None
    env = connect_four_v3.env()
    rng = np.random.default_rng(0)
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=games)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        games += 1
    return games / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scene", default="warehouse")
    ap.add_argument("--rules", default=None)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--repeat", type=int, default=1, help="measure the fast core and connect four this many times")
    args = ap.parse_args()
    scene = load_scene(args.scene, rules=args.rules)
    basic = rate(scene, "basic", args.seconds)
    rnd = rate(scene, "random", args.seconds / 2)
    dice = Dice(np.random.default_rng(0))
    t = time.perf_counter()
    for _ in range(100_000):
        dice.roll()
    per_roll = (time.perf_counter() - t) / 100_000
    print(f"scene {scene.name} ({scene.rules.name} rules), one core")
    print(f"basic vs basic : {basic[0]:8.1f} conflicts/s  ({basic[1]:.0f} decisions, {basic[2]:.1f} exchanges each;"
          f" {1000 / basic[0]:.2f} ms per conflict) on the reference engine")
    print(f"random vs random: {rnd[0]:8.1f} conflicts/s  ({rnd[1]:.0f} decisions, {rnd[2]:.1f} exchanges each)")
    print(f"reference: one 4dF roll costs {per_roll * 1e6:.2f} us; decisions/s with basic = {basic[0] * basic[1]:,.0f}")
    aims = {"warehouse": 5, "duel": 20}
    for rep in range(args.repeat):
        c4 = connect_four_rate(args.seconds / 2)
        if c4 is None:
            print("connect_four_v3 unavailable: pip install -e '.[bench]' for the reference")
        else:
            print(f"connect_four_v3 random games: {c4:8.1f} games/s in this run; reference basic conflicts / "
                  f"connect four games = {basic[0] / c4:.2f}x")
        for name in dict.fromkeys([scene.name, "warehouse", "duel"]):
            sc = scene if name == scene.name else load_scene(name, rules=args.rules)
            got = fast_rate(sc, args.seconds / 2)
            if got is None:
                from fate_env import fast
                why = fast.NOTICE if not fast.available() else "; ".join(fast.covered(sc))
                print(f"fast core, {name}: not measured ({why})")
                continue
            fps, first, bailed = got
            line = f"fast core, {name}: {fps:8.1f} conflicts/s (first call {first:.2f} s; {bailed} handed back)"
            if c4 is not None:
                ratio = fps / c4
                aim = aims.get(name)
                line += f"; / connect four = {ratio:.1f}x" + (
                    f" (aim >= {aim}x: {'met' if ratio >= aim else 'NOT met'})" if aim else "")
            if name == scene.name:
                line += f"; {fps / basic[0]:.0f}x the reference engine"
            print(line)


if __name__ == "__main__":
    main()
