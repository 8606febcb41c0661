"""The search: Optuna's multi-objective TPE over the knobs, each candidate judged on the fast core.

Four objectives, all minimised, because they trade: the distance of the PCs' win rate from the
target (the main one), how far a PC is left behind (judge.Figures.left_behind), the fight's
shortness (minus its mean exchanges) and the knobs moved from the scene as written. The scene as
written is the first trial. With the same seed and trial count the search is the same, trial for
trial (one process, a seeded sampler, the same dice for every candidate); ``budget`` only stops it
early (leaving time for RESERVED_REPLAYS finalists' replays, priced at the trials' own pace), and then
says how many trials it ran. Once a candidate is good enough (:func:`good`) the search
looks SETTLE trials further and stops, trials to spare.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable

from ..content.scenes import SceneError, scene_from_dict
from ..evaluation.bench import episode_seed
from . import space as S
from .defaults import DEFAULT_BUDGET, DEFAULT_TRIALS, TOLERANCE
from .judge import Figures, judge

#: fights a candidate plays at most during the search, in chunks (racing looks after each)
SEARCH_FIGHTS, CHUNK = 800, 200
#: fights each finalist replays (the same dice) before one is chosen
FINAL_FIGHTS = 3000
#: finalists replayed: the best-ranked this many inside the band, and the closest half as many
FINALISTS = 8
#: replays the budget keeps time for (priced at the trials' pace): the finalists are replayed best
#: first and stop at the first that holds on fresh dice, so most designs replay one or two
RESERVED_REPLAYS = 3
#: "a fight long enough to matter": every PC acts this many exchanges on average
MIN_EXCHANGES = 3.0
#: the share of fights a design may leave unresolved at the exchange cap: past it a stand-off (NPCs
#: placed where nobody reaches them) would buy the target, so the excess counts as distance from it
MAX_UNRESOLVED = 0.02
#: when the target cannot be met, a design must come this much closer to it than the scene as written
#: (on the same replayed dice) to be worth the settings it moves; else the scene comes back unchanged
MEASURABLY = 0.01
#: once a candidate is good enough (see :func:`good`), the search looks this many trials more for one
#: that moves fewer knobs, then stops: a GM waits for an answer, not for the whole trial count
SETTLE = 40
#: the line (see Line): the side toned to its strongest or weakest, then halved this many times towards
#: the target (space.toward), where no candidate of the first LINE_AFTER trials came within twice the tolerance
#: (its stand-offs counting as distance, as in the objectives: NPCs placed out of reach buy a low win rate
#: with fights that never end, and such a "near" candidate must not keep the line from starting)
LINE_STEPS, LINE_AFTER = 5, 40
#: a finalist is taken only this far inside the band on its replay (a fraction of the tolerance),
#: so that fresh dice (the independent bench) leave it inside too
INNER = 0.3


@dataclass
class Trial:
    number: int
    values: dict[str, int]
    figures: Figures | None
    objectives: tuple[float, float, float, float] | None
    moved: int
    problem: str = ""


@dataclass
class Result:
    knobs: list[S.Knob]
    trials: list[Trial]
    chosen: Trial
    met: bool
    stopped_early: bool
    seconds: float
    finals: dict[int, Figures] = field(default_factory=dict)
    settled: int | None = None  # the first good candidate's trial, where one was found


def stand_off(fig: Figures) -> float:
    """The share of ``fig``'s fights left unresolved past MAX_UNRESOLVED (0: few enough)."""
    return max(0.0, fig.unresolved / fig.fights - MAX_UNRESOLVED) if fig.fights else 0.0


def objectives(fig: Figures, target: float, moved: int) -> tuple[float, float, float, float]:
    return (abs(fig.win_rate - target) + stand_off(fig), fig.left_behind(), -fig.mean_exchanges, float(moved))


def near(fig: Figures, target: float, tolerance: float) -> bool:
    """Within twice the tolerance of the target, its stand-offs counting as distance: what keeps the line
    (Line) from starting. A candidate that buys the win rate with fights that never end is not near."""
    return abs(fig.win_rate - target) + stand_off(fig) <= 2 * tolerance


def good(fig: Figures, target: float, tolerance: float) -> bool:
    """A candidate the search need look little further past: in the band's inner half on the search's dice,
    no PC left behind, a fight that ends and lasts. Raced-out runs never are."""
    return (not fig.raced_out and abs(fig.win_rate - target) <= tolerance / 2 and stand_off(fig) == 0
            and fig.left_behind() == 0 and fig.mean_exchanges >= MIN_EXCHANGES)


def rank(t: Trial, target: float, fig: Figures | None = None) -> tuple:
    """The order a designer prefers among designs on target: fights that end (no more than
    MAX_UNRESOLVED at the cap), the PCs left least behind (in steps of 0.05), then a fight long enough,
    then the fewest knobs moved, then the distance from the target."""
    f = fig or t.figures
    return (stand_off(f) > 0, round(f.left_behind() / 0.05), max(0.0, MIN_EXCHANGES - f.mean_exchanges), t.moved,
            abs(f.win_rate - target))


def preference(t: Trial, replay: Figures, target: float, tolerance: float) -> tuple:
    """The order among finalists, on their replays: fights that end; every PC in, to the letter (rank's
    steps of 0.05 would let a PC a little short of half an equal share pass, and the check would find it
    behind); the PCs left least behind; one well inside the band (fresh dice keep it in); then as rank."""
    first, behind, *rest = rank(t, target, replay)
    off = abs(replay.win_rate - target) + stand_off(replay)
    return (first, replay.left_behind() > 0, behind, off > INNER * tolerance, *rest)


def holds(replay: Figures, target: float, tolerance: float) -> bool:
    """A finalist no later one can better: on its replay fights that end, every PC in, well inside the band."""
    return (stand_off(replay) == 0 and replay.left_behind() == 0
            and abs(replay.win_rate - target) <= INNER * tolerance)


def distinct(trials) -> list[Trial]:
    """``trials`` (best first) with each design's fights once: the first of those whose figures on the
    search's dice are the same. TPE suggests a design it likes again, or one that differs only where it
    cannot matter (where an NPC left out would stand), and the same fights replayed give the same
    figures: a second replay of one would spend a finalist's place and seconds on nothing (in four of
    six left-behind designs diagnosed on the study's scenes, the first two to four finalists were one)."""
    seen: set[str] = set()
    out = []
    for t in trials:
        key = repr(t.figures)  # every field of the figures (its dicts filled in the PCs' order)
        if key not in seen:
            seen.add(key)
            out.append(t)
    return out


class Line:
    """The whole side toned up or down together (space.toward) and bisected on how far, until the PCs'
    win rate is near the target or LINE_STEPS halvings are spent: what a GM does when fiddling with
    single settings gets nowhere. The search starts it only then (no candidate near the target after
    LINE_AFTER trials: a big side, few of its settings near the target); its trials are told to the
    search like any other. Started elsewhere, its candidates (placed and aimed as written) would crowd
    the search's model of where good designs lie, away from the placements that bring a PC in. The
    PCs win less as the side grows stronger, so a fraction whose win rate is above the target and
    one whose rate is below bracket it."""

    def __init__(self, knobs: list[S.Knob], target: float, tolerance: float):
        self.knobs, self.target, self.tolerance = knobs, target, tolerance
        self.base = S.written(knobs)
        self.above: float | None = None   # a fraction whose PCs' win rate is above the target
        self.below: float | None = None   # ... and one whose rate is below it
        self.steps = LINE_STEPS
        self.trying: float | None = None  # the fraction of the trial in flight (None: not under way)

    def start(self, written: Figures) -> None:
        """Begin from the scene as written (the fraction 0) towards the end the target lies on."""
        self.learn_at(0.0, written.win_rate)

    def next(self) -> dict[str, int] | None:
        """The next trial's settings, or None when the line is not under way."""
        return None if self.trying is None else S.toward(self.knobs, self.base, self.trying)

    def learn(self, fig: Figures) -> None:
        """What the trial in flight showed; sets the next fraction to try (or ends the line)."""
        if self.trying is not None:
            self.learn_at(self.trying, fig.win_rate)

    def stop(self) -> None:
        """End the line: the search takes it from here (a toned side the loader refused)."""
        self.trying = None

    def learn_at(self, a: float, rate: float) -> None:
        if abs(rate - self.target) <= self.tolerance / 2:
            self.trying = None  # near enough: the search takes it from here
            return
        if rate > self.target:
            self.above = a
        else:
            self.below = a
        if self.above is None or self.below is None:  # from the scene as written, the end on the target's
            self.trying = (1.0 if rate > self.target else -1.0) if a == 0.0 else None  # side; an end still off: out of reach
            return
        if self.steps == 0:
            self.trying = None
            return
        self.steps -= 1
        self.trying = (self.above + self.below) / 2


#: the candidates TPE draws and weighs for each trial (Optuna's default is 24): its cost per trial grows
#: with them times the knobs times the trials so far, and on a side of 80 knobs at 24 it took more of a
#: design's time than the fights did
EI_CANDIDATES = 8


#: the searches the study compares at the same budget (scripts/design_study.py): the designer's TPE,
#: random search and a plain genetic algorithm (NSGA-II, the anchors' "No Player Left Behind" method)
SAMPLERS = ("tpe", "random", "ga")


def _sampler(name: str, seed: int, trials: int):
    import optuna
    if name == "random":
        return optuna.samplers.RandomSampler(seed=seed)
    if name == "ga":
        return optuna.samplers.NSGAIISampler(seed=seed, population_size=max(4, min(50, trials // 6)))
    return optuna.samplers.TPESampler(seed=seed, multivariate=True, n_startup_trials=min(16, max(4, trials // 5)),
                                        n_ei_candidates=EI_CANDIDATES)


@dataclass(frozen=True)
class Ask:
    """What a design search is asked: the scene's data (characters expanded) and the file it came from,
    the side to design, the PCs' win rate to aim for (within ``tolerance``), who plays whom, the rule
    set (None: the scene's), the seed, the trials and the budget in seconds, whether the rule set rates
    gear, and the sampler (one of SAMPLERS; the designer's is TPE, the others are the study's
    baselines, judged and chosen exactly alike)."""

    data: dict[str, Any]
    file: str
    side: str
    target: float
    controls: dict[str, str] = field(default_factory=dict)
    rules: str | None = None
    seed: int = 0
    trials: int = DEFAULT_TRIALS
    budget: float = DEFAULT_BUDGET
    tolerance: float = TOLERANCE
    gear: bool = False
    sampler: str = "tpe"


def run(ask: Ask, progress: Callable[[int, int, str], None] | None = None) -> Result:
    """The design search ``ask`` describes; ``progress(done, trials, words)`` after each trial."""
    data, file, side, target, controls, rules = ask.data, ask.file, ask.side, ask.target, ask.controls, ask.rules
    seed, trials, budget, tolerance, gear, sampler = ask.seed, ask.trials, ask.budget, ask.tolerance, ask.gear, ask.sampler
    import optuna
    from ..fast import FastCore, covered
    from ..evaluation.bench import effective_controls

    knobs = S.knobs(data, side, gear, frozenset(controls))
    pcs = tuple(cid for cid, c in data["characters"].items() if c.get("kind") == "pc")
    seeds = [episode_seed(seed, i) for i in range(SEARCH_FIGHTS)]
    # the finalists' replays: dice the search never saw, so that the choice is not fitted to its own dice
    fresh = [episode_seed(seed, i) for i in range(SEARCH_FIGHTS, SEARCH_FIGHTS + FINAL_FIGHTS)]
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        chosen_sampler = _sampler(sampler, seed, trials)
    study = optuna.create_study(directions=["minimize"] * 4, sampler=chosen_sampler)
    study.enqueue_trial(S.written(knobs))
    line = Line(knobs, target, tolerance)
    done: list[Trial] = []
    start = time.monotonic()
    stopped = False
    settled: int | None = None
    # fights the trials played and the seconds they took: what a replay costs. The first trial is left out
    # of the pace (and the budget first asked after the second): it pays for loading the compiled kernel
    fought, fighting = 0, 0.0
    reserve = RESERVED_REPLAYS * FINAL_FIGHTS

    def core_for(values: dict[str, int]):
        scene = scene_from_dict(S.apply(data, side, values), file, rules=rules)
        who = effective_controls(scene, controls)
        why = covered(scene, who)
        if why:
            raise S.DesignError("the designer judges designs on the fast core, which does not play this one: "
                                + "; ".join(why))
        return FastCore(scene, who)

    for n in range(trials):
        if n > 1 and time.monotonic() - start + reserve * fighting / max(fought, 1) > budget:
            stopped = True  # the finalists' replays still to come fit in what is left of the budget
            break
        if settled is not None and n - settled > SETTLE:
            break
        if n == LINE_AFTER and done[0].figures and not any(t.figures and near(t.figures, target, tolerance)
                                                            for t in done):
            line.start(done[0].figures)
        planned = line.next()
        if planned is not None:
            study.enqueue_trial(planned)
        trial = study.ask()
        values = {k.name: trial.suggest_int(k.name, k.low, k.high) for k in knobs}
        moved = S.moved(knobs, values)
        try:
            core = core_for(values)
        except SceneError as exc:  # a design the loader refuses is no design: the search learns it
            study.tell(trial, state=optuna.trial.TrialState.FAIL)
            done.append(Trial(n, values, None, None, moved, str(exc)))
            line.stop()
            continue
        began = time.monotonic()
        fig = judge(core, pcs, seeds, target, tolerance, CHUNK)
        if n == 1:  # the pace from the second trial on (see above)
            fought, fighting = 0, 0.0
        fought, fighting = fought + fig.fights, fighting + time.monotonic() - began
        obj = objectives(fig, target, moved)
        study.tell(trial, list(obj))
        line.learn(fig)
        done.append(Trial(n, values, fig, obj, moved))
        if settled is None and good(fig, target, tolerance):
            settled = n
        if progress:
            best = min((t for t in done if t.figures), key=lambda t: abs(t.figures.win_rate - target))
            progress(n + 1, trials, f"closest so far {best.figures.win_rate:.0%}")
    judged = [t for t in done if t.figures is not None]
    if not judged:
        raise S.DesignError("every candidate was refused by the scene loader: " + done[0].problem)
    # the finalists: whole runs within the band, best first, and the closest; replayed on unseen dice
    whole = [t for t in judged if not t.figures.raced_out]
    inside = distinct(sorted((t for t in whole if abs(t.figures.win_rate - target) <= tolerance),
                             key=lambda t: rank(t, target)))
    closest = distinct(sorted(whole or judged,
                              key=lambda t: (abs(t.figures.win_rate - target) + stand_off(t.figures), t.moved)))
    finals: dict[int, Figures] = {}

    def replay(t: Trial) -> Figures:
        if t.number not in finals:
            fig = judge(core_for(t.values), pcs, fresh, target, tolerance, FINAL_FIGHTS)  # built anew: cheap
            finals[t.number] = fig
        return finals[t.number]

    def off(t: Trial) -> float:
        return abs(finals[t.number].win_rate - target) + stand_off(finals[t.number])

    def choice(t: Trial) -> tuple:
        return preference(t, finals[t.number], target, tolerance)

    # best first; the first that holds on fresh dice (fights that end, no PC left behind, well inside the
    # band) cannot be bettered on those counts by a later one, which ranks no better on the search's dice
    def spent() -> bool:  # past the budget: no more finalists once one has been replayed
        return bool(finals) and time.monotonic() - start > budget

    for t in inside[:FINALISTS]:
        if spent():
            break
        replay(t)
        if holds(finals[t.number], target, tolerance):
            break
    else:
        for t in closest[:FINALISTS // 2]:
            if spent():
                break
            replay(t)
    replayed = [t for t in judged if t.number in finals]
    loose = [t for t in replayed if off(t) <= tolerance]
    met = bool(loose)
    if met:
        chosen = min(loose, key=choice)
    else:  # the closest it found, said as such; the scene as written unless another is measurably closer
        written = judged[0]
        if written.number == 0:
            replay(written)
            replayed = [t for t in judged if t.number in finals]
        chosen = min(replayed, key=lambda t: (off(t), finals[t.number].left_behind(), t.moved))
        if written.number == 0 and off(chosen) > off(written) - MEASURABLY:
            chosen = written
    return Result(knobs, done, chosen, met, stopped, time.monotonic() - start, finals, settled=settled)
