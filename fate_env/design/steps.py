"""`fate-npc design` as steps: the plan (outputs checked, the scene read, the side's knobs), the
search, the designed file, the independent bench of that file on fresh seeds, the report and the
plot. ``cli_runs.cmd_design`` calls :func:`run`.
"""

from __future__ import annotations

import datetime
import shlex
import sys
from pathlib import Path
from typing import Any, Callable

from ..content.paths import OutputPathError, atomic_open, check_output
from ..content.scenes import SceneError, read_scene_data, scene_from_dict
from ..content.scene_files import scene_path
from ..evaluation import bench as B
from ..evaluation.bench_report import worst_off_counts
from . import output as O
from . import search as Q
from . import space as S
from .defaults import CHECK_FIGHTS, TOLERANCE
from .judge import Figures


class Usage(ValueError):
    """A design that cannot start as asked: one line, nothing written."""


def outputs(args: Any) -> tuple[Path, Path, Path]:
    out = Path(args.out) if args.out else Path(f"{Path(scene_path(args.scene)).stem}_designed.yaml")
    return out, out.with_suffix(".report.md"), out.with_suffix(".png")


def run(args: Any, controls: dict[str, str], say: Callable[[str], None] = print) -> int:
    out, report_path, plot_path = outputs(args)
    try:
        for what, path in (("--out", out), ("the report", report_path), ("the plot", plot_path)):
            check_output(path, what, args.force, inputs=[scene_path(args.scene)])
    except OutputPathError as exc:
        raise Usage(str(exc)) from None
    file, raw = read_scene_data(args.scene)
    text = Path(file).read_text(encoding="utf-8")
    written = scene_from_dict(raw, file, rules=args.rules)  # the scene as written must load
    if written.kind == "challenge":
        raise Usage("a challenge has no opposition and no side that wins it (the GM reads its tasks' results, "
                    "003:1470-1485): there is no win rate to aim its NPCs at; design a conflict or a contest "
                    "(a contest's target is the PCs' side winning the contest)")
    data = expanded(raw, file)
    gear = bool(written.rules.weapons)
    try:
        S.knobs(data, args.side, gear, frozenset(controls))
        from agents.base import controllers_for
        controllers_for(written, controls)
    except (S.DesignError, ValueError) as exc:
        raise Usage(str(exc)) from None
    from .. import fast
    if not fast.available():
        raise Usage(f"the designer judges designs on the fast core: {fast.NOTICE}")
    try:  # the file it will write, checked before the search: a layout it cannot splice is said now
        check_designed(O.designed_text(text, data, args.side, S.written(S.knobs(data, args.side, gear, frozenset(controls))), [],
                                       args.rules), text, raw, file, args)
    except (S.DesignError, SceneError) as exc:
        raise Usage(str(exc)) from None
    trials = args.trials
    bar = _Bar(trials) if sys.stderr.isatty() else None
    try:
        res = Q.run(Q.Ask(data, file, args.side, args.target_win, controls, args.rules, args.seed, trials,
                          args.budget, TOLERANCE, gear), bar.update if bar else None)
    except S.DesignError as exc:
        raise Usage(str(exc)) from None
    finally:
        if bar:
            bar.close()
    command = " ".join(shlex.quote(a) for a in ["fate-npc", "design", *sys.argv[2:]]) if sys.argv[1:2] == ["design"] \
        else f"fate-npc design {args.scene} --side {args.side} --target-win {args.target_win} --seed {args.seed}"
    header = _header(args, res, command)
    designed = O.designed_text(text, data, args.side, res.chosen.values, header, args.rules)
    check_designed(designed, text, raw, file, args)
    with atomic_open(out, encoding="utf-8") as fh:
        fh.write(designed)
    fig = bench_file(str(out), controls, args.seed)  # as the file says: its rule set is written in it
    lines = report(args, res, fig, out, command)
    with atomic_open(report_path, encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    O.plot(str(plot_path), res.trials, res.chosen.number, args.target_win)
    for line in lines:
        say(line)
    say(f"\nwrote {out}, {report_path} and {plot_path}")
    return 0


def expanded(raw: dict[str, Any], file: str) -> dict[str, Any]:
    """The scene's mapping with one-line NPC specs read into mappings (as the loader reads them)."""
    from ..content.npc_spec import expand

    def fail(field: str, message: str) -> None:
        raise SceneError(file, field, message)
    zones = [z.get("id") for z in raw.get("zones", []) if isinstance(z, dict)]
    return {**raw, "characters": expand(raw["characters"], zones, fail)}


def check_designed(text: str, source: str, raw: dict[str, Any], file: str, args: Any) -> None:
    """The designed file (``text``, spliced from ``source``, the file as written) loads, and every
    character not on the designed side is as written."""
    import yaml
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:  # an alias whose anchor was on a designed entry
        mark = getattr(exc, "problem_mark", None)
        line = text.splitlines()[mark.line] if mark is not None else ""
        lines = source.splitlines()
        _, spans, _ = O.entries(source)
        who = next((cid for cid, a, b in spans if raw["characters"][cid].get("side") != args.side
                    and line.strip() and line in lines[a:b]), "an entry")
        raise S.DesignError(f"{who}: written from an anchor on the {args.side} side ({line.strip() or 'an alias'}); "
                            "write it out in full in the scene and design again") from None
    scene_from_dict(data, file)  # the file as designed, its rule set as it names it
    for cid, c in raw["characters"].items():
        if isinstance(c, dict) and c.get("side") != args.side and data["characters"].get(cid) != c:
            raise S.DesignError(f"{cid}: its entry would change in the designed file (an anchor on the designed "
                                "side?); write it out in full in the scene and design again")


def bench_file(path: str, controls: dict[str, str], seed: int) -> Figures:
    """The designed file benched as `fate-npc bench FILE` benches it (no flag: the file names its rule
    set), on seeds the search never saw."""
    file, base = read_scene_data(path)
    fresh = seed + 1_000_003
    jobs = [(base, file, {}, None, controls, fresh, 0, i) for i in range(CHECK_FIGHTS)]
    records = B.run_jobs(jobs, engine="fast")
    scene = scene_from_dict(base, file)
    pcs = tuple(c.id for c in scene.characters if c.kind == "pc")
    fig = Figures(pcs)
    pc_side = next(c.side for c in scene.characters if c.kind == "pc")
    for r in records:
        fig.fights += 1
        fig.wins += r["winner"] == pc_side
        fig.exchanges += r["exchanges"]
        fig.unresolved += r["unresolved"]
        for p in pcs:
            fig.dealt[p] = fig.dealt.get(p, 0) + r["characters"][p]["shifts_dealt"]
            fig.assists[p] = fig.assists.get(p, 0) + r["characters"][p]["assists"]
    fig.worst = worst_off_counts(records, list(pcs))
    return fig


def _header(args: Any, res: Q.Result, command: str) -> list[str]:
    today = datetime.date.today().isoformat()
    return [f"Designed by `{command}` on {today}:",
            f"the {args.side} side was designed for a PCs' win rate of {args.target_win:.0%} "
            f"({len(res.trials)} candidates, {res.seconds / 60:.1f} min); the figures are in the report beside this file.",
            "Every line but the designed side's entries is as written; each designed NPC says what changed.", ""]


def report(args: Any, res: Q.Result, fig: Figures, out: Path, command: str) -> list[str]:
    lo, hi = fig.interval
    hit = abs(fig.win_rate - args.target_win) <= TOLERANCE
    moved = [k for k in res.knobs if res.chosen.values[k.name] != k.written]
    first = next(t for t in res.trials if t.figures)
    lines = [f"# fate-npc design: {args.scene}, side {args.side}", "",
             f"command: `{command}`", "",
             f"target: the PCs win {args.target_win:.0%} (within {TOLERANCE:.2f})",
             f"search: {len(res.trials)} candidates in {res.seconds / 60:.1f} min, the same dice for each "
             f"(at most {Q.SEARCH_FIGHTS} fights, raced; the finalists {Q.FINAL_FIGHTS} more on dice the search never saw)"
             + (f"; stopped by --budget: --trials {len(res.trials)} repeats it exactly" if res.stopped_early else "")
             + (f"; settled: #{res.settled} was good enough (in the band, no PC left behind, a fight that ends "
                f"and lasts), and {Q.SETTLE} more looked for fewer knobs moved" if res.settled is not None
                and len(res.trials) < args.trials else ""),
             f"the scene as written: the PCs won {first.figures.win_rate:.1%} of {first.figures.fights} search fights"
             + (" (raced out: far from the target)" if first.figures.raced_out else ""),
             f"the design (#{res.chosen.number}): the PCs won {res.finals[res.chosen.number].win_rate:.1%} of "
             f"{res.finals[res.chosen.number].fights:,} fights on dice the search never saw",
             "",
             f"independent bench of {out} ({fig.fights:,} fights on fresh seeds, the fast core):",
             f"  the PCs win {fig.win_rate:.1%} [95% {lo:.1%}, {hi:.1%}]"
             + ("" if hit else f" -- OFF the target by {abs(fig.win_rate - args.target_win):.1%}"),
             f"  {fig.mean_exchanges:.1f} exchanges a fight; {fig.unresolved} unresolved",
             "  who carried the fight:", *O.pc_lines(fig),
             "  no PC left behind" if not fig.behind() else "  left behind: " + "; ".join(fig.behind()),
             ""]
    if not res.met and res.chosen.number == 0:
        written = res.finals[0].win_rate
        lines.append(f"The target could not be met within the guidelines, and no design came measurably closer "
                     f"(by {Q.MEASURABLY:.0%} or more) than the scene as written (the PCs win {written:.1%}): the "
                     "scene is returned unchanged.")
    elif not res.met:
        lines.append(f"The target could not be met within the guidelines; this is the closest design found, "
                     f"{abs(res.finals[0].win_rate - args.target_win) - abs(res.finals[res.chosen.number].win_rate - args.target_win):.1%} "
                     "closer to it than the scene as written on the same dice.")
    elif not hit:
        lines.append("The search's replays put this design inside the band, fresh dice did not: run again with "
                     "more --trials or another --seed.")
    lines.append(f"knobs moved ({res.chosen.moved} of {len(res.knobs)}):")
    gone = S.absent(res.knobs, res.chosen.values)
    lines += [f"  {k.name}: {k.show(k.written)} -> {k.show(res.chosen.values[k.name])} ({k.what})" for k in moved
              if S.counted(k) or k.name.rsplit(".", 1)[0] not in gone] or ["  none"]
    lines += ["", "trade-offs the search saw (candidates judged to the end, best of each kind):"]
    whole = [t for t in res.trials if t.figures and not t.figures.raced_out]
    for label, key in (("closest to the target", lambda t: abs(t.figures.win_rate - args.target_win)),
                       ("longest fights", lambda t: -t.figures.mean_exchanges),
                       ("fewest PCs left behind", lambda t: (t.figures.left_behind(), abs(t.figures.win_rate - args.target_win)))):
        if whole:
            t = min(whole, key=key)
            lines.append(f"  {label}: #{t.number} wins {t.figures.win_rate:.1%}, {t.figures.mean_exchanges:.1f} "
                         f"exchanges ({t.figures.unresolved / t.figures.fights:.0%} at the cap), left behind "
                         f"{t.figures.left_behind():.2f}, {t.moved} knobs moved" + _why_not(t, res))
    balanced = sorted(t.figures.win_rate for t in whole if t.figures.left_behind() == 0)
    if balanced:
        lines.append(f"  no PC left behind: {len(balanced)} of the {len(whole)} candidates judged to the end, at PCs' "
                     f"win rates of {', '.join(f'{x:.0%}' for x in _spread(balanced))}")
    else:
        lines.append(f"  none of the {len(whole)} candidates judged to the end left no PC behind")
    bailed = sum(t.figures.bailed for t in res.trials if t.figures) + sum(f.bailed for f in res.finals.values())
    if bailed:
        lines.append(f"  fights the fast core could not finish, left out of the search's figures: {bailed}")
    raced = sum(1 for t in res.trials if t.figures and t.figures.raced_out)
    refused = sum(1 for t in res.trials if t.figures is None)
    lines.append(f"  raced out early: {raced}; refused by the loader: {refused}")
    return lines


def _why_not(t: Q.Trial, res: Q.Result) -> str:
    """Why a candidate the report names is not the design: it was no finalist (its search fights only),
    or its replay on unseen dice said so (off the band, or too many fights at the exchange cap)."""
    if t.number == res.chosen.number:
        return " (the design)"
    fig = res.finals.get(t.number)
    if fig is None:
        return (" (not replayed: not among the closest or the best-ranked in the band, or ranked below a "
                "finalist that held on fresh dice)")
    if Q.stand_off(fig) > 0:
        return f" (its replay: {fig.unresolved / fig.fights:.0%} of fights at the exchange cap)"
    return f" (its replay: the PCs won {fig.win_rate:.1%}, left behind {fig.left_behind():.2f})"


def _spread(xs: list[float], most: int = 6) -> list[float]:
    """A few of the sorted ``xs``, first and last included (a range in a line)."""
    if len(xs) <= most:
        return xs
    return [xs[round(i * (len(xs) - 1) / (most - 1))] for i in range(most)]


class _Bar:
    """A one-line progress bar on the terminal (rich's, when it is installed)."""

    def __init__(self, total: int) -> None:
        try:
            from rich.progress import Progress
        except ImportError:
            self.p = None
            return
        self.p = Progress(transient=True)
        self.p.start()
        self.task = self.p.add_task("designing", total=total)

    def update(self, done: int, total: int, note: str) -> None:
        if self.p is not None:
            self.p.update(self.task, completed=done, description=f"designing ({note})")

    def close(self) -> None:
        if self.p is not None:
            self.p.stop()
