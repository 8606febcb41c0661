"""Fights per second of `bench` with the `learned` NPCs against the same bench with `basic` NPCs, in one run
(issue 53's pace: at least 0.2x). Both play on the fast core, the engine `bench` picks for them: `learned`
inside the kernel (`fast/entity_rows.py`: the helper's move from a copy, the entity rows, the compiled
forward, at every turn of a learned seat). ``--reference`` adds `learned` on the Python engine, what it
played on before. Repeated; medians printed.

The shipped file picks its line per scene by rehearsing it first (``agents/rehearsal.py``), once per
process and scene: the warm-up pays it, and its own column says what it costs (timed on an empty
cache), with the ratio a bench of 2,000 fights would see once it is included.

A second table (``--budget``) says what the floor leaves for each of the network's decisions: 0.2x of
`basic`'s fast-core fights per second, over the turns the NPCs decide per fight, against what one
decision's forward costs alone (``EntityPolicy.logits``: compiled, decision by decision, where numba
is installed, else numpy over the padded batch), one at a time and in batches of 64 and 256;
``--files`` adds other policy files' batched forward (narrower networks: ``narrow_npc.py``) to the same run.

    python scripts/bench_learned.py [--scenes warehouse,duel] [-n 200] [--repeat 3] [--workers 1] [--reference]
    python scripts/bench_learned.py --budget [--files a.zip,b.zip]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import yaml  # noqa: E402

from fate_env.content.scenes import load_scene, scene_path  # noqa: E402
from fate_env.evaluation import bench as B  # noqa: E402
from fate_env.fast import covered  # noqa: E402
from fate_env.learn.self_play import seats  # noqa: E402


def npc_side(name: str) -> str:
    return seats(load_scene(name))[1]


def rate(name: str, policy: str, engine: str, n: int, workers: int) -> float:
    path = scene_path(name)
    base = yaml.safe_load(path.read_text())
    side = npc_side(name)
    jobs = [(base, str(path), {}, None, {side: policy}, 0, 0, i) for i in range(n)]
    B.run_jobs(jobs[:5], 1, engine=engine)  # warm: imports, the kernel, the policy file
    t = time.perf_counter()
    B.run_jobs(jobs, workers, engine=engine)
    return n / (time.perf_counter() - t)


def rehearsal(name: str) -> float:
    """Seconds the shipped file's rehearsal of ``name`` takes, from an empty cache (0 without lines)."""
    import agents.learned as L
    ctrl = L.LearnedController(0)
    L._LINES.clear()
    t = time.perf_counter()
    ctrl.line_for(load_scene(name), npc_side(name))
    return time.perf_counter() - t


def decisions(name: str, fights: int = 30) -> list:
    """The entity rows of the NPCs' turns (two options or more) in ``fights`` fights of basic against basic."""
    from agents.base import make_controller
    from fate_env.environment.entities import EntityEncoder
    from fate_env.rules.conflict import Conflict
    sc = load_scene(name)
    npcs = {c.id for c in sc.characters if c.side == npc_side(name)}
    out = []
    for seed in range(fights):
        c, enc, basic = Conflict(sc, seed=seed), EntityEncoder(sc), make_controller("basic", seed)
        while c.pending is not None:
            d = c.pending
            i, _ = basic.choose(c, d)
            if d.actor in npcs and d.kind == "turn" and len(d.options) > 1:
                out.append(enc.encode(c, d.actor, i))
            c.step(i, "")
    return out


def forward(policy, rows: list, size: int, repeat: int) -> float:
    """Microseconds per decision of ``policy``'s forward over ``rows``, in batches of ``size`` (median of ``repeat``)."""
    batch = (rows * (1 + size // len(rows)))[:size]
    times = []
    for _ in range(repeat):
        t, n = time.perf_counter(), 0
        while time.perf_counter() - t < 0.5:
            policy.logits(batch)
            n += 1
        times.append((time.perf_counter() - t) / n / size * 1e6)
    return statistics.median(times)


def budget(names: list[str], repeat: int, files: list[str]) -> None:
    from agents.learned import _load_policy, shipped_path
    from fate_env.environment.entity_policy import EntityPolicy
    policy = _load_policy(shipped_path())
    others = {f: EntityPolicy(f) for f in files}
    print("\n| scene | NPC turns per fight | options per turn | basic, fast core (fights/s) | the floor's budget per "
          "turn (us) | forward alone, 1 at a time (us) | in 64s | in 256s |"
          + "".join(f" {f} (width {p.meta.get('width')}), in 256s |" for f, p in others.items()))
    print("| --- " * (8 + len(others)) + "|")
    for name in names:
        rows = decisions(name)
        per_fight = len(rows) / 30
        fast = statistics.median(rate(name, "basic", "fast", 2000, 1) for _ in range(repeat))
        cost = [forward(policy, rows, size, repeat) for size in (1, 64, 256)]
        cost += [forward(p, rows, 256, repeat) for p in others.values()]
        allowed = 1e6 / (0.2 * fast) / per_fight
        print(f"| {name} | {per_fight:.1f} | {sum(len(e.options) for e in rows) / len(rows):.0f} | {fast:.0f} | "
              f"{allowed:.0f} | " + " | ".join(f"{c:.0f}" for c in cost) + " |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", default="warehouse,duel,ghoul")
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--reference", action="store_true", help="also learned on the Python engine (slow)")
    ap.add_argument("--budget", action="store_true", help="only the second table: the floor's budget per decision")
    ap.add_argument("--files", default="", help="with --budget: also these policy files' forward (comma-separated)")
    args = ap.parse_args()
    if args.budget:
        return budget(args.scenes.split(","), args.repeat, [f for f in args.files.split(",") if f])
    print("| scene | basic, fast core (fights/s) | learned, fast core | learned / basic | rehearsal, once (s) | "
          "learned / basic over 2,000 fights, the rehearsal included | issue's floor |"
          + (" learned, Python engine |" if args.reference else ""))
    print("| --- " * (7 + args.reference) + "|")
    for name in args.scenes.split(","):
        why = covered(load_scene(name))
        if why:  # this table is the fast core's pace: a scene it does not play has none
            print(f"| {name} | not on the fast core: {why[0]} |" + " |" * (5 + args.reference), flush=True)
            continue
        got: dict[str, list[float]] = {"basic": [], "learned": [], "ratio": [], "ref": [], "once": [], "whole": []}
        for _ in range(args.repeat):  # in turns, each ratio from the same round
            got["basic"].append(rate(name, "basic", "fast", args.n * 10, args.workers))
            got["learned"].append(rate(name, "learned", "fast", args.n * 2, args.workers))
            got["ratio"].append(got["learned"][-1] / got["basic"][-1])
            got["once"].append(rehearsal(name))
            got["whole"].append(2000 / (2000 / got["learned"][-1] + got["once"][-1]) / got["basic"][-1])
            if args.reference:
                got["ref"].append(rate(name, "learned", "reference", args.n // 4, args.workers))
        m = {k: statistics.median(v) if v else 0.0 for k, v in got.items()}
        print(f"| {name} | {m['basic']:.0f} | {m['learned']:.0f} | {m['ratio']:.3f} | {m['once']:.2f} | "
              f"{m['whole']:.3f} | 0.2 |"
              + (f" {m['ref']:.1f} |" if args.reference else ""), flush=True)

if __name__ == "__main__":
    main()
