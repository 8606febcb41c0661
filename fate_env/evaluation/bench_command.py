"""``fate-npc bench`` as steps: the plan (outputs checked, variants built, the side in focus), the
engine (and the background compile of a cold fast core), the runs (a fixed count, or until the
intervals are narrow enough), the outputs and the report. ``cli_runs.cmd_bench`` calls :func:`run`.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Any, Callable

from agents.base import UnknownController, controllers_for

from ..content.paths import OutputPathError, atomic_open, check_output
from ..content.scenes import read_scene_data, scene_from_dict
from . import bench as B
from .pools import WorkerDied
from .stats import wilson


class Usage(ValueError):
    """A bench that cannot start as asked: one line, before any fight."""


class Failed(ValueError):
    """A bench that stopped while it ran (a worker died, a limit): one line."""


@dataclass
class Plan:
    """What to bench: the scene as written, its variants (the same dice for each), the side in focus."""

    file: str
    base: dict[str, Any]
    controls: dict[str, str]
    varies: list
    grid: list[dict[str, Any]]
    scenes: list
    focus: str


def run(args: Any, controls: dict[str, str], progress: Callable[[int, int], None]) -> int:
    """The whole command."""
    p = plan(args, controls)
    engine, why_not, compiling = choose(args, p)
    records, n = play(args, p, engine, compiling, progress)
    write(args, p, records, n)
    report(args, p, records, n, engine, why_not, compiling)
    return 0


def plan(args: Any, controls: dict[str, str]) -> Plan:
    """Every output checked before the first episode runs; the scene read (one clear message for a bad
    file); the variants built (``--vary``, or ``--tune``'s field)."""
    try:
        for flag, path in (("--json", args.json), ("--csv", args.csv), ("--plot", args.plot)):
            if path:
                check_output(path, flag, args.force)
    except OutputPathError as exc:
        raise Usage(str(exc)) from None
    if args.tune and args.target_win is None:
        raise Usage("--tune needs --target-win RATE (the win rate of the PCs' side to aim for)")
    file, base = read_scene_data(args.scene)
    written = scene_from_dict(base, file, rules=args.rules)
    try:
        varies = [B.parse_vary(v) for v in args.vary]
        if args.tune:
            values = next((v for name, v in varies if name == args.tune), list(range(0, 9)))
            varies = [(args.tune, values)]
        grid = B.variants(base, varies)
        scenes = [B.build_variant(base, file, params, args.rules) for params in grid]
        controllers_for(scenes[0], controls)
    except (ValueError, UnknownController) as exc:
        raise Usage(str(exc)) from None
    focus = next((c.side for c in written.characters if c.kind == "pc"), scenes[0].sides[0])
    return Plan(file, base, controls, varies, grid, scenes, focus)


def choose(args: Any, p: Plan) -> tuple[str, str | None, Any]:
    """The engine, why not the fast core (or None), and the background compile of a cold fast core
    (a run on one worker plays the reference meanwhile and hands over: never slower than the reference)."""
    try:
        engine, why_not = B.choose_engine(p.scenes, p.controls, args.engine)
    except B.BenchError as exc:
        raise Usage(str(exc)) from None
    compiling = None
    if engine == "fast":
        from .. import fast
        from ..fast import stamp
        if not (stamp.marked() and fast.compiled()):  # no marker: not compiled, and numba left unimported
            if args.engine == "auto" and args.workers == 1 and not args.ray:
                compiling = B.Compiling(args.scene, args.rules)
                print("fate-npc: the fast core is not compiled yet: the reference engine plays, and a background "
                      "process compiles the kernel (once, about a minute; cached on disk), from the start when "
                      "the run is long enough to hand over to it, else as the run ends, for the next one",
                      file=sys.stderr, flush=True)
            else:
                print("fate-npc: compiling the fast core (once, about a minute; cached on disk for later runs)",
                      file=sys.stderr, flush=True)
    elif why_not:  # said before the run starts, not after it: the user may prefer to fix it first
        print(f"fate-npc: running on the reference engine (Python), not the fast core: {why_not}",
              file=sys.stderr, flush=True)
    return engine, why_not, compiling


def play(args: Any, p: Plan, engine: str, compiling: Any, progress) -> tuple[list[dict], int]:
    """The episodes' records, in order, and the episodes per variant: ``-n``, or with ``--ci-width``
    batches of 200 until every variant's interval is that narrow (at most 50,000)."""
    def batch(n: int, start: int = 0) -> list[dict]:
        jobs = ((p.base, p.file, params, args.rules, p.controls, args.seed, vi, i)  # made as the workers take them
                for vi, params in enumerate(p.grid) for i in range(start, start + n))
        if compiling is not None and not compiling.ready():
            return B.run_while_compiling(jobs, n * len(p.grid), compiling, progress)
        return B.run_jobs(jobs, args.workers, args.ray, progress, engine=engine, total=n * len(p.grid))

    try:
        if not args.ci_width or args.tune:
            return batch(args.n), args.n
        records: list[dict] = []
        done = 0
        while True:
            records += batch(200, done)
            done += 200
            if _widest(records, len(p.grid), p.focus) < args.ci_width or done >= 50_000:
                break
        records.sort(key=lambda r: (r["variant"], r["index"]))
        return records, done
    except (B.BenchError, WorkerDied) as exc:
        raise Failed(str(exc)) from None


def _widest(records: list[dict], variants: int, focus: str) -> float:
    """The widest 95% interval of the focus side's win rate over the variants."""
    widths = []
    for vi in range(variants):
        recs = [r for r in records if r["variant"] == vi]
        lo, hi = wilson(sum(r["winner"] == focus for r in recs), len(recs))
        widths.append(hi - lo)
    return max(widths)


def _by_variant(p: Plan, records: list[dict]) -> list[list[dict]]:
    return [[r for r in records if r["variant"] == vi] for vi in range(len(p.grid))]


def write(args: Any, p: Plan, records: list[dict], n: int) -> None:
    """``--json`` (the header, the summaries, every episode) and ``--csv`` (a row per episode)."""
    if args.json:
        summaries = B.variant_summaries(p.scenes[0], p.grid, _by_variant(p, records), p.focus,
                                        B.baseline_index(p.base, p.grid))
        header = {"scene": p.scenes[0].name, "rules": p.scenes[0].rules.name, "seed": args.seed,
                  "episodes_per_variant": n, "controls": p.controls, "variants": p.grid, "focus": p.focus,
                  "engine": B.engine_line(records)}
        with atomic_open(args.json) as fh:
            json.dump({**header, "summary": summaries, "episodes": records}, fh, sort_keys=True, separators=(",", ":"))
            fh.write("\n")
    if args.csv:
        write_csv(args.csv, records, p.scenes[0].sides)


def write_csv(path: str, records: list[dict], sides: list[str]) -> None:
    import csv
    with atomic_open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        cols = ["variant", "index", "seed", "winner", "unresolved", "exchanges"]
        counted = ("taken_out", "conceded", *B.COUNTED)
        side_cols = [f"{s}.{k}" for s in sides for k in (*counted, *B.SEVERITIES)]
        chars = list(records[0]["characters"]) if records else []
        char_cols = [f"{c}.{k}" for c in chars for k in (*counted, "consequences")]
        w.writerow(cols + side_cols + char_cols)
        for r in records:
            row = [r[k] for k in cols]
            for s in sides:
                d = r["sides"][s]
                row += [int(d[k]) for k in counted] + [d["consequences"][k] for k in B.SEVERITIES]
            for c in chars:  # a character a variant leaves out has empty cells
                d = r["characters"].get(c)
                row += [int(d[k]) for k in counted] + [len(d["consequences"])] if d else [""] * (len(counted) + 1)
            w.writerow(row)


def report(args: Any, p: Plan, records: list[dict], n: int, engine: str, why_not: str | None, compiling: Any) -> None:
    """What the terminal shows: the tuning, or the variants' table and the report; the engine line; the plot."""
    by_variant = _by_variant(p, records)
    baseline = B.baseline_index(p.base, p.grid)
    scene = p.scenes[0]
    if args.tune:
        print("\n".join(B.tune_lines(args.tune, p.grid, by_variant, p.focus, args.target_win, n)))
    else:
        if len(p.grid) > 1:
            print(f"{scene.title}: {n} episodes per variant, seed {args.seed}, the same dice for every variant")
            print("\n".join(B.summary_table(B.variant_summaries(scene, p.grid, by_variant, p.focus, baseline))))
            print()
        print("\n".join(B.report_lines(scene, p.grid, by_variant, p.focus, n, args.seed, baseline)))
    print(B.engine_line(records) + (f"; not the fast core: {why_not}" if engine == "reference" and why_not else ""))
    if compiling is not None and compiling.running():
        print("(the fast core is still compiling in the background; the next run will use it)", file=sys.stderr)
    if args.plot:
        try:
            B.plot(args.plot, p.grid, by_variant, p.focus, p.varies)
        except ImportError:
            raise Usage("--plot needs matplotlib: pip install -e '.[plot]'") from None
