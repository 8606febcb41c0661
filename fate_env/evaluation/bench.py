"""``fate-npc bench``: how hard is this encounter? Many seeded episodes, honest statistics.

Every episode's seed comes from (seed, episode index) alone, so a run is the
same with one worker, K workers or Ray, and every variant of a ``--vary`` grid
faces the same dice (common random numbers): two identical variants give
identical records, and differences between variants are the variants', not the
dice's. Records are plain JSON; the report splits every
average by win and by loss, keeps unresolved fights apart, and counts rare
disasters rather than hiding them in a rate.
"""

from __future__ import annotations

import copy
import itertools
import math
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from fate_env.rules import events as ev
from fate_env.rules.engine import start
from fate_env.content.safe_text import OneLineError
from fate_env.content.scenes import SceneError, scene_from_dict
from fate_env.evaluation.stats import Z95, wilson

from agents.base import controllers_for, play

SEVERITIES = ("mild", "moderate", "severe", "extreme")


# -- variants -------------------------------------------------------------------

def parse_values(text: str) -> list[Any]:
    """``2..5`` (inclusive), ``2,4,6``, ``on,off``."""
    if ".." in text and "," not in text:
        lo, hi = text.split("..", 1)
        try:
            a, b = int(lo), int(hi)
        except ValueError:
            raise ValueError(f"{text!r}: a range is two whole numbers, LOW..HIGH (e.g. 2..5); "
                             "for words list them with commas (a,b)") from None
        if b < a:
            raise ValueError(f"{text!r}: expected LOW..HIGH with LOW <= HIGH")
        return list(range(a, b + 1))
    out: list[Any] = []
    for v in text.split(","):
        v = v.strip()
        if v in ("on", "true", "yes"):
            out.append(True)
        elif v in ("off", "false", "no"):
            out.append(False)
        else:
            try:
                out.append(int(v))
            except ValueError:
                out.append(v)
    return out


def parse_vary(spec: str) -> tuple[str, list[Any]]:
    path, sep, values = spec.partition("=")
    if not sep or not path or not values:
        raise ValueError(f"--vary {spec!r}: expected PATH=VALUES, e.g. characters.og.skills.Fight=2..5")
    try:
        return path, parse_values(values)
    except ValueError as exc:
        raise ValueError(f"--vary {spec!r}: {exc}") from None


def set_path(data: dict, path: str, value: Any) -> None:
    """Set ``a.b.c`` in a scene mapping; ``rules.X`` sets the rule-set dial X."""
    parts = path.split(".")
    if parts[0] == "rules" and len(parts) == 2:
        rules = data.get("rules", "condensed")
        if isinstance(rules, str):
            rules = {"name": rules}
        rules.setdefault("dials", {})[parts[1]] = value
        data["rules"] = rules
        return
    node = data
    for p in parts[:-1]:
        if _has(node, p):
            node = node[int(p)] if isinstance(node, list) else node[p]
            continue
        raise ValueError(f"--vary {path}: no field {p!r} on the way; expected a path into the scene file "
                         "(a list's items by number: countdowns.0.boxes)")
    if not isinstance(node, dict):
        raise ValueError(f"--vary {path}: {parts[-2]!r} is not a mapping")
    node[parts[-1]] = value


def variants(base: dict, varies: Sequence[tuple[str, list[Any]]]) -> list[dict[str, Any]]:
    """The grid: one dict of path -> value per variant, the first being the first value of each."""
    if not varies:
        return [{}]
    paths = [p for p, _ in varies]
    return [dict(zip(paths, combo)) for combo in itertools.product(*(v for _, v in varies))]


def get_path(data: dict, path: str) -> Any:
    parts = path.split(".")
    if parts[0] == "rules" and len(parts) == 2:
        rules = data.get("rules", "condensed")
        return rules.get("dials", {}).get(parts[1]) if isinstance(rules, dict) else None
    node: Any = data
    for p in parts:
        if not _has(node, p):
            return None
        node = node[int(p)] if isinstance(node, list) else node[p]
    return node


def _has(node: Any, key: str) -> bool:
    """Whether a scene mapping has ``key``, or a list has item number ``key``."""
    if isinstance(node, list):
        return key.isascii() and key.isdigit() and int(key) < len(node)
    return isinstance(node, dict) and key in node


def baseline_index(base: dict, grid: list[dict[str, Any]]) -> int:
    """The variant that is the scene as written (every varied field at its written value), else the first."""
    for i, params in enumerate(grid):
        if all(get_path(base, k) == v for k, v in params.items()):
            return i
    return 0


def build_variant(base: dict, file: str, params: dict[str, Any], rules: str | None = None):
    data = copy.deepcopy(base)
    for path, value in params.items():
        set_path(data, path, value)
    try:
        return scene_from_dict(data, file, rules=rules)
    except SceneError as exc:
        where = ", ".join(f"{k}={v}" for k, v in params.items())
        raise SceneError(exc.file, exc.field, f"{exc.message} (in the variant {where})") from None


# -- episodes -------------------------------------------------------------------

class BenchError(OneLineError):
    """A run that cannot start (a Ray cluster that is not there, ...): one line, nothing written."""


def episode_seed(seed: int, index: int) -> int:
    """The seed of episode ``index``: the same for every variant (common random numbers)."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1)[0])


def record(scene, seed_value: int, variant: int, index: int, controls: dict[str, str]) -> dict[str, Any]:
    """One episode on the reference engine, reduced to what the report needs (plain JSON)."""
    c = play(start(scene, seed_value), controllers_for(scene, controls, seed=seed_value))
    side_of = {ch.id: ch.side for ch in scene.characters}
    counts = {s: {"fate_points": 0, "invokes": 0, "advantages": 0} for s in scene.sides}
    for e in c.events:
        if isinstance(e, ev.Invoked):
            counts[side_of[e.invoker]]["invokes"] += 1
            if not e.free:
                counts[side_of[e.paid_by]]["fate_points"] += 1
        elif isinstance(e, ev.Resolved) and e.action == "create_advantage" and e.outcome in ("success", "success_with_style"):
            counts[side_of[e.actor]]["advantages"] += 1
    return summarise(scene, c.outcome, counts, seed_value, variant, index)


def summarise(scene, out, counts: dict[str, dict[str, int]], seed_value: int, variant: int,
              index: int) -> dict[str, Any]:
    """An episode's record from its outcome and each side's invokes, fate points and advantages
    (the same record whichever engine played it)."""
    side_of = {ch.id: ch.side for ch in scene.characters}
    sides: dict[str, dict[str, Any]] = {
        s: {"consequences": {k: 0 for k in SEVERITIES}, "taken_out": 0, "conceded": 0, **counts[s]}
        for s in scene.sides}
    for cid, cons in out.consequences.items():
        for x in cons:
            sides[side_of[cid]]["consequences"][x["severity"]] += 1
    for cid in out.taken_out:
        sides[side_of[cid]]["taken_out"] += 1
    for cid in out.conceded:
        sides[side_of[cid]]["conceded"] += 1
    pcs = [ch.id for ch in scene.characters if ch.kind == "pc"]
    weight = {"mild": 1, "moderate": 2, "severe": 3, "extreme": 4}

    def harm(cid: str) -> int:
        return 10 * (cid in out.taken_out) + sum(weight[x["severity"]] for x in out.consequences.get(cid, []))
    worst = max(pcs, key=harm) if pcs else None
    return {
        "variant": variant, "index": index, "seed": seed_value, "winner": out.winner, "unresolved": out.unresolved,
        "exchanges": out.exchanges, "sides": sides,
        "worst_pc": None if worst is None else {"id": worst, "taken_out": worst in out.taken_out,
                                                "consequences": [x["severity"] for x in out.consequences.get(worst, [])]},
        "pc_taken_out": sum(1 for p in pcs if p in out.taken_out),
        "pc_severe": sum(1 for p in pcs for x in out.consequences.get(p, []) if x["severity"] in ("severe", "extreme")),
    }


def _work(job: tuple) -> dict[str, Any]:
    base, file, params, rules, controls, seed, variant, index = job
    scene = _scene_cache(base, file, params, rules)
    return {**record(scene, episode_seed(seed, index), variant, index, controls), "engine": "reference"}


def _work_batch(jobs: list[tuple]) -> list[dict[str, Any]]:
    return [_work(j) for j in jobs]


_CACHE: dict[str, Any] = {}


def _scene_cache(base: dict, file: str, params: dict, rules: str | None):
    key = repr((file, sorted(params.items()), rules))
    if key not in _CACHE:
        _CACHE[key] = build_variant(base, file, params, rules)
    return _CACHE[key]


# -- the fast core ------------------------------------------------------------------

def effective_controls(scene, controls: dict[str, str]) -> dict[str, str]:
    """Who plays each character: the override for it or its side, else the scene's choice."""
    return {c.id: controls.get(c.id) or controls.get(c.side) or c.controller for c in scene.characters}


def choose_engine(scenes: Sequence, controls: dict[str, str], wanted: str = "auto") -> tuple[str, str]:
    """("fast", "") when the fast core plays every variant, else ("reference", why not).
    ``wanted``: auto (the fast core when it can), fast (it must: else BenchError), reference."""
    if wanted == "reference":
        return "reference", ""
    from fate_env import fast
    why = [] if fast.available() else [fast.NOTICE]
    for sc in scenes:
        why += [w for w in fast.covered(sc, effective_controls(sc, controls)) if w not in why]
    if why and wanted == "fast":
        raise BenchError("--engine fast: " + "; ".join(why))
    return ("reference", "; ".join(why)) if why else ("fast", "")


_CORES: dict[str, Any] = {}


def _work_fast(jobs: list[tuple]) -> list[dict[str, Any]]:
    """A batch of one variant's episodes in one call into the fast core; an episode it does not
    cover to the end (it says why) is played again on the reference engine."""
    from fate_env.fast import FastCore
    from fate_env.fast.kernel import layout as k
    from fate_env.fast.decode import outcome
    base, file, params, rules, controls, seed, variant, _ = jobs[0]
    scene = _scene_cache(base, file, params, rules)
    key = repr((file, sorted(params.items()), rules))
    controllers = effective_controls(scene, controls)
    key += repr(sorted(controllers.items()))
    core = _CORES.get(key)
    if core is None:
        core = _CORES[key] = FastCore(scene, controllers)
    seeds = [episode_seed(j[5], j[7]) for j in jobs]
    CH, SLOTA, G = (a.tolist() for a in core.run(seeds))  # Python lists: one conversion per batch
    sides = core.tables.sides
    side_of = [sides[x] for x in core.tables.SC[:, k.S_SIDE].tolist()]
    out = []
    for i, j in enumerate(jobs):
        if G[i][k.G_BAIL]:
            r = record(scene, seeds[i], variant, j[7], controls)
            r["engine"] = "reference: " + k.BAIL_REASONS[G[i][k.G_BAIL]]
        else:
            counts = {s: {"fate_points": 0, "invokes": 0, "advantages": 0} for s in sides}
            for c, row in enumerate(CH[i]):
                got = counts[side_of[c]]
                got["fate_points"] += row[k.C_PAID]
                got["invokes"] += row[k.C_INVOKES]
            r = summarise(scene, outcome(core.tables, CH[i], SLOTA[i], G[i]), counts, seeds[i], variant, j[7])
            r["engine"] = "fast"
        out.append(r)
    return out


#: the most episodes one bench runs (every record is kept for the report: about 1 KB each)
MAX_EPISODES = 2_000_000


def _batches(jobs: Iterable[tuple], size: int) -> Iterator[list[tuple]]:
    """Consecutive jobs of one variant (a fast-core batch builds one variant's tables), at most
    ``size`` per batch, as the jobs come."""
    batch: list[tuple] = []
    for j in jobs:
        if batch and (len(batch) >= size or batch[0][6] != j[6]):
            yield batch
            batch = []
        batch.append(j)
    if batch:
        yield batch


@dataclass(frozen=True)
class BenchEngine:
    """How one engine plays a bench's episodes: the same records either way, so the runner never
    asks which engine it drives (``choose_engine`` picks one)."""

    name: str
    #: plays a batch of one variant's jobs: their records, in order
    work: Callable[[list[tuple]], list[dict[str, Any]]]
    #: episodes per batch for ``workers`` workers and ``total`` episodes
    batch: Callable[[int, int], int]
    #: load the engine in this process before forking workers (the kernel compiled once)
    warm: bool = False
    #: the pool's start method (None: the platform's)
    method: str | None = None


ENGINES = {
    # a few batches per worker, so that the workers finish together; one big batch alone
    "fast": BenchEngine("fast", _work_fast,
                        lambda workers, total: max(1, min(2000 if workers <= 1 else 500,
                                                          -(-total // (max(1, workers) * 4)))), warm=True),
    # spawn, not fork: a forked child of a process whose torch threads are running (a ppo:
    # controller) can deadlock; each worker loads what it needs itself
    "reference": BenchEngine("reference", _work_batch,
                             lambda workers, total: 1 if workers <= 1 else max(1, min(50, total // (workers * 16))),
                             method="spawn"),
}


def run_jobs(jobs: Iterable[tuple], workers: int = 1, ray_address: str | None = None,
             progress=None, engine: str = "reference", total: int | None = None) -> list[dict[str, Any]]:
    """Run episodes with one process, a pool, or Ray; results in job order either way.
    ``jobs`` may be a generator (``total`` then says how many, for the progress bar): they are made
    as the workers take them. ``engine``: a name of ``ENGINES`` ("fast": batches of episodes go to
    the fast core; see ``choose_engine``). A worker that dies stops the run with
    :class:`~.pools.WorkerDied`."""
    if total is None:
        jobs = list(jobs)
        total = len(jobs)
    if total > MAX_EPISODES:
        raise BenchError(f"{total:,} episodes: over the limit of {MAX_EPISODES:,} per run (each is kept for "
                         "the report); run fewer, or in several runs with other --seed values")
    eng = ENGINES[engine]
    if ray_address:
        return _run_ray(list(jobs), ray_address, eng)
    return _collect(eng, _batches(jobs, eng.batch(workers, total)), workers, total, progress)


#: what a warm-up record says played it (engine_line counts it among the reference's)
WHILE_COMPILING = "reference: the fast core was compiling"
#: the child that compiles the kernel: the scene given, run once, writes numba's disk cache
_COMPILE_CHILD = ("import sys\nfrom fate_env.content.scenes import load_scene\nfrom fate_env.fast import FastCore, stamp\n"
                  "FastCore(load_scene(sys.argv[1], rules=sys.argv[2] or None)).run([1])\nstamp.mark()\n")


def _idle() -> None:
    """The compile child's priority: the run the user waits for comes first. Linux's idle class runs
    it only on a core nothing else wants (on this 2-core machine, the one the run does not use);
    elsewhere the lowest nice level."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        os.nice(19)


class Compiling:
    """The fast core's first compile, in a child process of its own, while this process plays the
    reference engine. Nothing waits for it: the run asks ``ready()`` between batches. It starts when
    ``start()`` is called (``run_while_compiling`` decides when); a child still compiling when the
    run ends goes on, so the next run finds the cache ready."""

    def __init__(self, scene: str, rules: str | None) -> None:
        self.scene, self.rules = scene, rules
        self.proc = None

    @property
    def started(self) -> bool:
        return self.proc is not None

    def start(self) -> None:
        if self.proc is None:
            # its own process group (Ctrl-C at the terminal does not reach it) but this run's session: a
            # new session would get a scheduler autogroup of its own, inside which SCHED_IDLE ranks it
            # against nothing, and it would take a core from the run like any task
            self.proc = subprocess.Popen([sys.executable, "-c", _COMPILE_CHILD, str(self.scene), self.rules or ""],
                                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL, process_group=0,
                                         preexec_fn=_idle if hasattr(os, "nice") else None)

    def ready(self) -> bool:
        """The child has finished and the kernel's cache is there to load."""
        from fate_env import fast
        return self.proc is not None and self.proc.poll() == 0 and fast.compiled()

    def failed(self) -> bool:
        return self.proc is not None and self.proc.poll() not in (None, 0)

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


#: what the kernel's first compile takes on the 2-core machine the figures come from (93 s of one core
#: on 2026-11-26, ``scripts/bench_compile.py``: docs/fast_core.md): a run whose reference time left is
#: shorter would not gain from handing over
COMPILE_SECONDS = 93.0
#: the episodes the reference plays before the run decides when to start the compile (it times them)
PROBE = 20


def run_while_compiling(jobs: Iterable[tuple], total: int, compiling: Compiling, progress=None,
                        ) -> list[dict[str, Any]]:
    """Every job's record, in order: on the reference engine in this process, a batch at a time,
    until the kernel's first compile (``compiling``) is done, then the rest on the fast core. The
    two engines give identical records (tests/fast/test_differential.py), so the switch changes
    nothing but the time; the records say which engine played them.

    The compile starts once the first ``PROBE`` episodes are timed, if the reference's time left
    is longer than a compile (``COMPILE_SECONDS``): the run then gains from the handover. A shorter
    run would only lose (the compile shares the machine), so it starts the compile as it ends,
    for the next run."""
    if total > MAX_EPISODES:
        raise BenchError(f"{total:,} episodes: over the limit of {MAX_EPISODES:,} per run")
    it = iter(jobs)
    out: list[dict[str, Any]] = []
    began = time.perf_counter()

    def here(job: tuple) -> None:  # one episode on the reference, in this process
        out.append({**_work(job), "engine": WHILE_COMPILING})
        if progress:
            progress(len(out), total)

    for job in it:
        here(job)
        done = len(out)
        if not compiling.started and done == min(PROBE, total):
            left = (time.perf_counter() - began) / done * (total - done)
            if left > COMPILE_SECONDS:
                compiling.start()
        if compiling.started and done % 10 == 0 and (compiling.ready() or compiling.failed()):
            break
    if compiling.started and compiling.ready():
        fast = ENGINES["fast"]
        rest = total - len(out)
        out += _collect(fast, _batches(it, fast.batch(1, max(rest, 1))), 1, total,
                        (lambda done, _: progress(len(out) + done, total)) if progress else None)
    else:  # the compile failed (the reference plays on, as the records say) or nothing is left
        for job in it:
            here(job)
    compiling.start()  # a short run: for the next one (nothing happens if it has started)
    return out


def _collect(eng: BenchEngine, batches: Iterator[list[tuple]], workers: int, total: int,
             progress) -> list[dict[str, Any]]:
    """Every batch's records, in order, from this process or a pool of ``workers``."""
    out: list[dict[str, Any]] = []
    if workers <= 1:
        results: Iterator[list[dict[str, Any]]] = map(eng.work, batches)
    else:
        from .pools import imap, start_method
        if eng.warm and (eng.method or start_method()) == "fork":
            batches = _warmed(eng, batches)  # the engine loaded here, once, for every forked child
        results = imap(eng.work, batches, workers, method=eng.method)
    for got in results:
        out += got
        if progress:
            progress(len(out), total)
    return out


def _warmed(eng: BenchEngine, batches: Iterator[list[tuple]]) -> Iterator[list[tuple]]:
    """The batches, after the first of them has loaded the engine and its tables in this process."""
    first = next(batches, None)
    if first is None:
        return
    eng.work(first[:1])
    yield first
    yield from batches


def engine_line(records: list[dict[str, Any]]) -> str:
    """Which engine played the episodes, for the report."""
    fast = sum(1 for r in records if r.get("engine") == "fast")
    ref = Counter(r["engine"].split(": ", 1)[1] for r in records if r["engine"].startswith("reference: "))
    if not fast and not ref:
        return "engine: reference (Python)"
    tail = "; ".join(f"{n} on the reference ({why})" for why, n in ref.items()) or "none on the reference"
    return f"engine: fast core (numba): {fast} episodes; {tail}"


def _run_ray(jobs: list[tuple], address: str, eng: BenchEngine) -> list[dict[str, Any]]:
    try:
        import ray
    except ImportError:
        raise RuntimeError("--ray needs the cluster extra: pip install -e '.[cluster]'") from None
    if not ray.is_initialized():
        from fate_env.evaluation.cluster import ClusterError, check_address
        try:
            check_address(address)  # seconds, not the minutes ray.init would retry for
        except ClusterError as exc:
            raise BenchError(str(exc)) from None
        try:
            if address == "auto" or address == "local":
                ray.init(address=None if address == "local" else "auto", include_dashboard=False,
                         ignore_reinit_error=True, log_to_driver=False)
            else:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            hint = "start one with `ray start --head`, or use --ray local" if address == "auto" else "check the address"
            raise BenchError(f"--ray {address}: no Ray cluster there ({str(exc).splitlines()[0]}); {hint}") from None
    remote = ray.remote(eng.work)
    size = max(1, len(jobs) // 64)
    batches = list(_batches(jobs, size))
    results = ray.get([remote.remote(b) for b in batches])
    return [r for batch in results for r in batch]


# -- report ---------------------------------------------------------------------

def _mean(xs: Iterable[float]) -> float | None:
    xs = list(xs)
    return sum(xs) / len(xs) if xs else None


def side_summary(records: list[dict[str, Any]], side: str) -> dict[str, Any]:
    n = len(records)
    wins = sum(1 for r in records if r["winner"] == side)
    lo, hi = wilson(wins, n)
    split = {}
    for label, subset in (("when_won", [r for r in records if r["winner"] == side]),
                          ("when_lost", [r for r in records if r["winner"] not in (side, None)])):
        split[label] = {
            "episodes": len(subset),
            "exchanges": _mean(r["exchanges"] for r in subset),
            "consequences": {k: _mean(r["sides"][side]["consequences"][k] for r in subset) for k in SEVERITIES},
            "taken_out": _mean(r["sides"][side]["taken_out"] for r in subset),
            "conceded": _mean(r["sides"][side]["conceded"] for r in subset),
            "fate_points_spent": _mean(r["sides"][side]["fate_points"] for r in subset),
            "invokes": _mean(r["sides"][side]["invokes"] for r in subset),
            "advantages": _mean(r["sides"][side]["advantages"] for r in subset),
        }
    return {"wins": wins, "episodes": n, "win_rate": wins / n if n else 0.0, "ci95": [lo, hi], **split}


def paired_difference(a: list[dict], b: list[dict], side: str) -> dict[str, float]:
    """Win-rate difference of variant a minus b on the same seeds, with a 95% interval."""
    d = [(ra["winner"] == side) - (rb["winner"] == side) for ra, rb in zip(a, b)]
    n = len(d)
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n) if n else 0.0
    return {"difference": mean, "ci95": [mean - half, mean + half]}


def coverage(scene) -> list[str]:
    """What the scene asks for that this run does not play, per side (an honest footnote)."""
    notes: dict[str, list[str]] = {}
    for ch in scene.characters:
        side = notes.setdefault(ch.side, [])
        if (ch.weapon or ch.armor) and not scene.rules.weapons:
            side.append(f"{ch.id}'s weapon/armor ratings (the weapons dial is off)")
        for st in ch.stunts:
            if st.kind == "bonus" and st.when and st.when.startswith("aspect:"):
                name = st.when.split(":", 1)[1].strip()
                templates = {t.name for t in scene.advantages}
                declared = {a.name for a in scene.aspects} | {a for c in scene.characters for a in c.aspects}
                if name not in templates | declared:
                    side.append(f"{ch.id}'s stunt {st.name!r}: no aspect {name!r} can come into play")
    return [f"{s}: " + ("; ".join(v) if v else "everything it uses is modelled") for s, v in notes.items()]


def histogram(records: list[dict[str, Any]]) -> dict[int, int]:
    return dict(sorted(Counter(r["exchanges"] for r in records).items()))


def variant_summaries(scene, grid: list[dict], by_variant: list[list[dict]], focus: str,
                      baseline: int) -> list[dict[str, Any]]:
    """Each variant in a few numbers (``--json``'s ``summary``): every side's win rate with its
    Wilson interval, the focus side's paired difference against the scene as written, the mean
    fight length, unresolved fights and the disaster counts."""
    out = []
    for vi, (params, recs) in enumerate(zip(grid, by_variant)):
        n = len(recs)
        sides = {side: {k: v for k, v in side_summary(recs, side).items() if k in ("wins", "episodes", "win_rate", "ci95")}
                 for side in scene.sides}
        diff = paired_difference(recs, by_variant[baseline], focus) if vi != baseline else None
        out.append({
            "variant": params, "baseline": vi == baseline, "sides": sides, "focus": focus,
            "difference_vs_baseline": diff,
            "exchanges": _mean(r["exchanges"] for r in recs),
            "unresolved": sum(r["unresolved"] for r in recs),
            "disasters": {"pc_taken_out": sum(1 for r in recs if r["pc_taken_out"]),
                          "pc_severe_or_extreme": sum(1 for r in recs if r["pc_severe"])},
            "episodes": n,
        })
    return out


def summary_table(summaries: list[dict[str, Any]]) -> list[str]:
    """The sweep at a glance: variant x focus win rate [CI] x difference [CI] x exchanges."""
    focus = summaries[0]["focus"]
    labels = [", ".join(f"{k}={v}" for k, v in s["variant"].items()) or "the scene as written" for s in summaries]
    width = max(len("variant"), *(len(x) for x in labels))
    out = [f"  {'variant':<{width}}  {focus + ' win rate [95%]':>24}  {'difference [95%, paired]':>28}  exchanges",
           f"  {'-' * width}  {'-' * 24}  {'-' * 28}  ---------"]
    for label, s in zip(labels, summaries):
        side = s["sides"][focus]
        lo, hi = side["ci95"]
        rate = f"{side['win_rate']:.1%} [{lo:.1%}, {hi:.1%}]"
        d = s["difference_vs_baseline"]
        diff = "(baseline)" if d is None else f"{d['difference']:+.1%} [{d['ci95'][0]:+.1%}, {d['ci95'][1]:+.1%}]"
        out.append(f"  {label:<{width}}  {rate:>24}  {diff:>28}  {s['exchanges']:9.1f}")
    return out


# -- the text report and the plot ------------------------------------------------

def report_lines(scene, grid: list[dict], by_variant: list[list[dict]], focus: str, n: int, seed: int,
                 baseline: int) -> list[str]:
    """The bench report: per variant and side, win rates with intervals, averages split by win
    and by loss, paired differences against the baseline, unresolved fights, disasters, and the
    histogram of fight lengths."""
    out = [f"{scene.title} ({scene.rules.name} rules): {n} episodes per variant, seed {seed}, "
           f"paired seeds across variants"]
    out += [f"  coverage: {line}" for line in coverage(scene)]
    for vi, (params, recs) in enumerate(zip(grid, by_variant)):
        label = ", ".join(f"{k}={v}" for k, v in params.items()) or "the scene as written"
        out.append(f"\n== {label} ==")
        for side in scene.sides:
            out += _side_lines(side_summary(recs, side), side, len(recs))
        if len(grid) > 1 and vi != baseline:
            d = paired_difference(recs, by_variant[baseline], focus)
            base_label = ", ".join(f"{k}={v}" for k, v in grid[baseline].items())
            out.append(f"  vs the baseline ({base_label}): {focus} win rate {d['difference']:+.1%} "
                       f"[95% {d['ci95'][0]:+.1%}, {d['ci95'][1]:+.1%}] (same seeds)")
        out.append(f"  unresolved (hit the exchange cap, kept apart): {sum(r['unresolved'] for r in recs)}")
        out.append(f"  disasters: a PC taken out in {sum(1 for r in recs if r['pc_taken_out'])} episode(s); "
                   f"a severe or extreme consequence on a PC in {sum(1 for r in recs if r['pc_severe'])}")
        worst = Counter(r["worst_pc"]["id"] for r in recs if r["worst_pc"] and
                        (r["worst_pc"]["taken_out"] or r["worst_pc"]["consequences"]))
        if worst:
            who, times = worst.most_common(1)[0]
            out.append(f"  worst-off PC most often: {who} ({times} of {len(recs)})")
        hist = histogram(recs)
        top = max(hist.values())
        out.append("  exchanges: " + "  ".join(f"{k}:{v}" for k, v in hist.items()))
        out += [f"    {k:>3} {'#' * max(1, round(40 * v / top))}" for k, v in hist.items()]
    return out


def tune_lines(path: str, grid: list[dict], by_variant: list[list[dict]], focus: str, target: float,
               n: int) -> list[str]:
    """``--tune``: each value's win rate for the focus side, the one closest to the target marked."""
    rows = []
    for g, recs in zip(grid, by_variant):
        wins = sum(r["winner"] == focus for r in recs)
        lo, hi = wilson(wins, len(recs))
        rows.append((abs(wins / len(recs) - target), g[path], wins / len(recs), lo, hi))
    best = min(rows, key=lambda r: (r[0], r[1]))
    out = [f"tuning {path} for a {focus} win rate of {target:.0%} ({n} paired seeds each):"]
    for _, v, rate, lo, hi in rows:
        mark = "  <- closest" if v == best[1] else ""
        out.append(f"  {path} = {v!s:>4}: {rate:6.1%} [{lo:.1%}, {hi:.1%}]{mark}")
    return out


def _side_lines(sm: dict[str, Any], side: str, n: int) -> list[str]:
    lo, hi = sm["ci95"]
    out = [f"  {side:>12} wins {sm['win_rate']:6.1%} [95% {lo:.1%}, {hi:.1%}]  ({sm['wins']}/{n})"]
    for label in ("when_won", "when_lost"):
        x = sm[label]
        if not x["episodes"]:
            continue
        cons = ", ".join(f"{k} {x['consequences'][k]:.2f}" for k in SEVERITIES if x["consequences"][k])
        out.append(f"      {label.replace('_', ' '):>9} ({x['episodes']}): {x['exchanges']:.1f} exchanges; "
                   f"taken out {x['taken_out']:.2f}, conceded {x['conceded']:.2f}; consequences {cons or 'none'}; "
                   f"fate points {x['fate_points_spent']:.2f}, invokes {x['invokes']:.2f}, "
                   f"advantages {x['advantages']:.2f}")
    return out


def plot(path: str, grid: list[dict], by_variant: list[list[dict]], focus: str, varies: list) -> None:
    """The sweep (win rate with its 95% band against the varied value) and the fight lengths."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2 if varies else 1, figsize=(11 if varies else 6, 4), squeeze=False)
    ax_hist = axes[0][-1]
    hist = histogram(by_variant[0])
    ax_hist.bar(list(hist), list(hist.values()), color="#4a7ab5")
    ax_hist.set_xlabel("exchanges")
    ax_hist.set_ylabel("episodes")
    ax_hist.set_title("length of the fight (first variant)")
    if varies:
        ax = axes[0][0]
        path0 = varies[0][0]
        xs = [g[path0] for g in grid]
        rates, los, his = [], [], []
        for recs in by_variant:
            wins = sum(r["winner"] == focus for r in recs)
            lo, hi = wilson(wins, len(recs))
            rates.append(wins / len(recs))
            los.append(lo)
            his.append(hi)
        if len(varies) == 1 and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in xs):
            ax.plot(xs, rates, marker="o", color="#b54a4a")
            ax.fill_between(xs, los, his, alpha=0.25, color="#b54a4a")
            ax.set_xlabel(path0)
        else:
            labels = [", ".join(f"{k.split('.')[-1]}={v}" for k, v in g.items()) for g in grid]
            pos = list(range(len(grid)))
            ax.errorbar(pos, rates, yerr=[[r - lo_ for r, lo_ in zip(rates, los)], [h - r for r, h in zip(rates, his)]],
                        fmt="o", color="#b54a4a")
            ax.set_xticks(pos, labels, rotation=30, ha="right")
        ax.set_ylim(0, 1)
        ax.set_ylabel(f"{focus} win rate (95% Wilson)")
        ax.set_title("win rate across the sweep")
    fig.tight_layout()
    from fate_env.content.paths import atomic_open
    try:
        with atomic_open(path, "wb") as fh:  # the whole image or none
            fig.savefig(fh, dpi=110, format=Path(path).suffix.lstrip(".").lower() or "png")
    finally:
        plt.close(fig)
