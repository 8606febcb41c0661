"""``fate-npc bench``: how hard is this encounter? Many seeded episodes, honest statistics.

Every episode's seed comes from (seed, episode index) alone, so a run is the
same with one worker, K workers or Ray, and every variant of a ``--vary`` grid
faces the same dice (common random numbers): two identical variants give
identical records, and differences between variants are the variants', not the
dice's. Records are plain JSON. This module runs the episodes (one process, a pool,
Ray; the reference or the fast core, handing over when a background compile ends);
``variants.py`` holds ``--vary``'s grammar and ``bench_report.py`` the report, which
splits every average by win and by loss, keeps unresolved fights apart, and counts
rare disasters rather than hiding them in a rate.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.base import controllers_for, play
from fate_env import fast
from fate_env.content.safe_text import OneLineError
from fate_env.evaluation.bench_report import (  # noqa: F401  (the report's names, where callers found them)
    SEVERITIES,
    coverage,
    histogram,
    paired_difference,
    plot,
    report_lines,
    side_summary,
    summary_table,
    tune_lines,
    variant_summaries,
)
from fate_env.evaluation.cluster import ClusterError, check_address
from fate_env.evaluation.seeds import episode_seed, episode_seeds
from fate_env.evaluation.variants import (  # noqa: F401  (the grammar's names, where callers found them)
    baseline_index,
    build_variant,
    get_path,
    parse_values,
    parse_vary,
    set_path,
    variants,
)
from fate_env.fast.kernel import layout as k
from fate_env.rules import events as ev
from fate_env.rules.engine import start

from .pools import imap, start_method

# -- episodes -------------------------------------------------------------------

class BenchError(OneLineError):
    """A run that cannot start (a Ray cluster that is not there, ...): one line, nothing written."""


def record(scene, seed_value: int, variant: int, index: int, controls: dict[str, str]) -> dict[str, Any]:
    """One episode on the reference engine, reduced to what the report needs (plain JSON)."""
    c = play(start(scene, seed_value), controllers_for(scene, controls, seed=seed_value))
    shape = RecordShape.of(scene)
    at = {cid: i for i, cid in enumerate(shape.ids)}
    counts = [[0] * len(COUNTED) for _ in shape.ids]
    for e in c.events:
        if isinstance(e, ev.Invoked):
            counts[at[e.invoker]][_INVOKES] += 1
            if not e.free:
                counts[at[e.paid_by]][_FATE_POINTS] += 1
            elif e.paid_by != e.invoker and c.f[e.paid_by].sheet.side == c.f[e.invoker].sheet.side:
                counts[at[e.paid_by]][_ASSISTS] += 1  # a free invoke it held, spent by an ally
        elif isinstance(e, ev.Resolved) and e.action == "create_advantage" and e.outcome in ("success", "success_with_style"):
            counts[at[e.actor]][_ADVANTAGES] += 1
        elif isinstance(e, ev.Hit):
            counts[at[e.target]][_TAKEN] += e.shifts
            if e.source is not None:
                counts[at[e.source]][_DEALT] += e.shifts
    return summarise(shape, End.of(shape, c.outcome), counts, seed_value, variant, index)


#: what each character's record counts from the fight's events (the fast core keeps them in CH)
COUNTED = ("fate_points", "invokes", "advantages", "shifts_dealt", "shifts_taken", "assists")
_FATE_POINTS, _INVOKES, _ADVANTAGES, _DEALT, _TAKEN, _ASSISTS = range(len(COUNTED))


@dataclass(frozen=True)
class RecordShape:
    """What a scene's records are built on, worked out once a scene (a fast batch's records are
    built in a few microseconds each): its characters in order, each one's side, its sides, its PCs."""
    ids: tuple[str, ...]
    side_of: tuple[str, ...]
    sides: tuple[str, ...]
    pcs: tuple[int, ...]

    @classmethod
    def of(cls, scene) -> "RecordShape":
        chars = scene.characters
        return cls(tuple(c.id for c in chars), tuple(c.side for c in chars), tuple(scene.sides),
                   tuple(i for i, c in enumerate(chars) if c.kind == "pc"))


@dataclass(frozen=True)
class End:
    """How a fight ended, as a record reads it, from either engine: by character position (the
    shape's order), whether it was taken out or conceded and its consequences' severities."""
    winner: str | None
    unresolved: bool
    exchanges: int
    taken_out: Sequence[bool]
    conceded: Sequence[bool]
    consequences: Sequence[list[str]]

    @classmethod
    def of(cls, shape: RecordShape, out) -> "End":
        """From the reference engine's ``Outcome``."""
        return cls(out.winner, out.unresolved, out.exchanges, [cid in out.taken_out for cid in shape.ids],
                   [cid in out.conceded for cid in shape.ids],
                   [[x["severity"] for x in out.consequences.get(cid, [])] for cid in shape.ids])


def summarise(shape: RecordShape, end: End, counts: Sequence[Sequence[int]], seed_value: int, variant: int,
              index: int) -> dict[str, Any]:
    """An episode's record from how it ended and each character's ``COUNTED`` figures (invokes, fate
    points paid, advantages, shifts dealt and taken; by position): the same record whichever engine
    played it. Each character's figures, and each side's, their sums (who came off worst is the report's:
    bench_report.worst_off_counts, the most harmed sharing a fight)."""
    # each side's sums, as lists first (COUNTED's figures, then taken out and conceded): a record is built in
    # microseconds, and the fast core makes tens of thousands a second
    sums = {s: [0] * (len(COUNTED) + 2) for s in shape.sides}
    severities = {s: dict.fromkeys(SEVERITIES, 0) for s in shape.sides}
    characters: dict[str, dict[str, Any]] = {}
    for i, cid in enumerate(shape.ids):
        fig, cons, out, conc = counts[i], end.consequences[i], bool(end.taken_out[i]), bool(end.conceded[i])
        characters[cid] = {**dict(zip(COUNTED, fig)), "consequences": cons, "taken_out": out, "conceded": conc}
        side = shape.side_of[i]
        total = sums[side]
        for j, n in enumerate(fig):
            total[j] += n
        total[-2] += out
        total[-1] += conc
        if cons:
            for sev in cons:
                severities[side][sev] += 1
    sides = {s: {"consequences": severities[s], "taken_out": t[-2], "conceded": t[-1], **dict(zip(COUNTED, t))}
             for s, t in sums.items()}
    return {
        "variant": variant, "index": index, "seed": seed_value, "winner": end.winner, "unresolved": end.unresolved,
        "exchanges": end.exchanges, "sides": sides, "characters": characters,
        "pc_taken_out": sum(1 for p in shape.pcs if end.taken_out[p]),
        "pc_severe": sum(1 for p in shape.pcs for x in end.consequences[p] if x in ("severe", "extreme")),
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
    why = [] if fast.available() else [fast.NOTICE]
    from .learned_fast import kernel_controls
    for sc in scenes:
        scripts, _, learned_why = kernel_controls(effective_controls(sc, controls))
        why += [w for w in learned_why + fast.covered(sc, scripts) if w not in why]
    if why and wanted == "fast":
        raise BenchError("--engine fast: " + "; ".join(why))
    return ("reference", "; ".join(why)) if why else ("fast", "")


_CORES: dict[str, Any] = {}


def _work_fast(jobs: list[tuple]) -> list[dict[str, Any]]:
    """A batch of one variant's episodes in one call into the fast core; an episode it does not
    cover to the end (it says why) is played again on the reference engine."""
    from fate_env.fast import FastCore

    from .learned_fast import LearnedFights, learned_seats
    base, file, params, rules, controls = jobs[0][:5]
    scene = _scene_cache(base, file, params, rules)
    key = repr((file, sorted(params.items()), rules))
    controllers = effective_controls(scene, controls)
    key += repr(sorted(controllers.items()))
    core = _CORES.get(key)
    if core is None:
        core = _CORES[key] = LearnedFights(scene, controllers) if learned_seats(controllers) else FastCore(scene, controllers)
    seeds = _seeds_of(jobs)
    CH, SLOTA, G = core.run(seeds)
    if isinstance(core, LearnedFights):  # learned seats: the network answers them inside the kernel
        core = core.core
    with _collector_paused():
        return _records(scene, core.tables, jobs, seeds, CH, SLOTA, G)


def _records(scene, tables, jobs: list[tuple], seeds: list[int], CH: np.ndarray, SLOTA: np.ndarray,
             G: np.ndarray) -> list[dict[str, Any]]:
    """A fast batch's records from the kernel's final arrays; a fight it handed back, from the reference."""
    controls, variant, shape = jobs[0][4], jobs[0][6], RecordShape.of(scene)
    out = []
    for i, (j, end, counts) in enumerate(zip(jobs, _ends(tables, shape, CH, SLOTA, G), _counts(CH))):
        if end is None:
            r = record(scene, seeds[i], variant, j[7], controls)
            r["engine"] = "reference: " + k.BAIL_REASONS[int(G[i, k.G_BAIL])]
        else:
            r = summarise(shape, end, counts, seeds[i], variant, j[7])
            r["engine"] = "fast"
        out.append(r)
    return out


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector off while a batch's records are built: they are plain dicts and lists, no
    cycle among them, yet every few hundred of them set off a collection that walks the whole heap (on
    the chase it more than doubled a record's cost)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _seeds_of(jobs: list[tuple]) -> list[int]:
    """The jobs' episode seeds, a run of one seed at once (a bench's batch is one)."""
    if all(j[5] == jobs[0][5] for j in jobs):
        return episode_seeds(jobs[0][5], [j[7] for j in jobs])
    return [episode_seed(j[5], j[7]) for j in jobs]


def _counts(CH: np.ndarray) -> list[list[list[int]]]:
    """Each episode's ``COUNTED`` figures by character, from the kernel's columns for them."""
    column = {"fate_points": k.C_PAID, "invokes": k.C_INVOKES, "advantages": k.C_ADV, "shifts_dealt": k.C_DEALT,
              "shifts_taken": k.C_TAKEN, "assists": k.C_ASSISTS}
    return CH[:, :, [column[name] for name in COUNTED]].tolist()


def _ends(tb, shape: RecordShape, CH: np.ndarray, SLOTA: np.ndarray, G: np.ndarray) -> list[End | None]:
    """How each of a batch's fights ended (None: the kernel handed it back), read from the kernel's final
    arrays a column at a time (a batch's lists made at once, not a fight's whole state each)."""
    status = CH[:, :, k.C_STATUS]
    taken_out, conceded = (status == k.TAKEN_OUT).tolist(), (status == k.CONCEDED).tolist()
    consequences: list[list[list[str]]] = [[[] for _ in shape.ids] for _ in range(len(G))]
    sev = [[s for s, _ in row] for row in tb.slot_info]
    for n, c, s in zip(*np.nonzero(SLOTA >= 0)):  # in order: fight, character, slot (the Outcome's order)
        if s < len(sev[c]):
            consequences[n][c].append(sev[c][s])
    winners = [None, *shape.sides]  # G_WINNER is -1 for none
    return [None if bail else End(winners[w + 1], bool(u), x, taken_out[n], conceded[n], consequences[n])
            for n, (w, x, u, bail) in enumerate(G[:, [k.G_WINNER, k.G_EXCHANGE, k.G_UNRESOLVED, k.G_BAIL]].tolist())]


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
