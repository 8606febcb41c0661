"""The GM's commands run: ``validate``, ``resolve``, ``replay`` and ``play`` (their arguments are declared
in ``cli_commands``), and the checks ``play`` and ``serve`` share before a session opens."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from agents.base import UnknownController, controllers_for, play

from ..content import command_line as cl
from ..content.narrate import Narrator, summary
from ..content.paths import OutputPathError, check_output, write_atomically
from ..content.safe_text import printable  # names from files: their escape codes shown, not obeyed
from ..content.scenes import load_scene, read_scene_data
from ..rules.engine import start
from . import autopilot as ap
from .report import ReplayError, markdown, narration, rebuild
from .session import SessionError, SessionLog, SessionSetup, run_session


def cmd_resolve(args: argparse.Namespace) -> int:
    scene = load_scene(args.scene, rules=args.rules)
    drawn = args.seed is None
    if drawn:
        args.seed = cl.fresh_seed()
    try:
        controllers = controllers_for(scene, cl.controls(args.control), seed=args.seed)
    except UnknownController as exc:
        return cl.fail(str(exc))
    conflict = play(start(scene, args.seed), controllers)
    if drawn:
        print(f"(seed {args.seed}: replay this fight with --seed {args.seed})", file=sys.stderr if args.json else sys.stdout)
    if args.json:
        scene_file, scene_data = read_scene_data(args.scene)  # kept, so `replay` never needs the file
        json.dump({"scene": scene.name, "scene_file": scene_file, "scene_data": scene_data,
                   "rules": scene.rules.name, "seed": args.seed,
                   "outcome": conflict.outcome.to_json(), "choices": conflict.choices,
                   "reasons": conflict.reasons,
                   "events": conflict.log()}, sys.stdout, indent=1)
        print()
        return 0
    narrator = Narrator(scene, show_reasons=not args.quiet)
    for line in narrator.lines(conflict.events):
        print(printable(line, keep="\n"))
    print()
    for line in summary(scene, conflict.outcome):
        print(printable(line, keep="\n"))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        if args.out:
            check_output(args.out, "--out", args.force, inputs=[args.log])
        engine = rebuild(args.log)
    except (ReplayError, OutputPathError) as exc:
        return cl.fail(str(exc))
    text = markdown(engine) if args.markdown else "\n".join(narration(engine, reasons=not args.quiet)) + "\n"
    text = printable(text, keep="\n")  # names from files: their escape codes shown, not obeyed
    if args.out:
        try:
            write_atomically(args.out, text)
        except OSError as exc:
            return cl.fail(f"--out {args.out}: {exc.strerror or exc}")
        print(f"wrote {args.out}")
    else:
        sys.stdout.write(text)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    controls = cl.controls(args.control)
    fresh = args.seed is None and not args.resume
    try:
        pilot = table_setup(args, controls)
    except TableRefused as exc:
        return cl.fail(str(exc))
    if fresh:
        print(f"(seed {args.seed}: replay this session with --seed {args.seed})")
    try:
        setup = SessionSetup(args.scene, args.seed, controls, args.dice or "auto", args.save, args.resume, args.rules,
                             force=args.force, autopilot=pilot)
        run_session(setup, sys.stdin, sys.stdout)
    except (UnknownController, SessionError, OutputPathError) as exc:
        return cl.fail(str(exc))
    except KeyboardInterrupt:
        return cl.fail("interrupted before the session started; nothing was saved")
    return 0


def _check_resume_flags(args: argparse.Namespace, log, controls: dict[str, str]) -> None:
    """A resumed session is the saved one: flags that say otherwise are refused, not ignored."""
    clashes = []
    if args.scene is not None and args.scene != log.scene:
        clashes.append(f"scene {args.scene!r} (the save is of {log.scene!r})")
    if args.seed is not None and args.seed != log.seed:
        clashes.append(f"--seed {args.seed} (the save has seed {log.seed})")
    if args.rules is not None and args.rules != log.rules:
        clashes.append(f"--rules {args.rules} (the save plays {log.rules or 'the scene' + chr(39) + 's own rules'})")
    if controls and controls != log.controls:
        clashes.append(f"--control {controls} (the save has {log.controls or 'the defaults'})")
    if args.dice is not None and args.dice != log.dice:
        clashes.append(f"--dice {args.dice} (the save has {log.dice})")
    if clashes:
        raise SessionError(f"--resume {args.resume}: " + "; ".join(clashes)
                           + ". Leave these out to resume the saved session as it was.")


class TableRefused(ValueError):
    """A live table refused before it opens (one line)."""


def table_setup(args: argparse.Namespace, controls: dict[str, str]) -> Any:
    """``play``'s and ``serve``'s checks before a session opens: the autopilot's settings, ``--save``
    (now, not after an evening's play), a resume's flags against its save, the controls against the
    scene, a fresh seed. Returns the autopilot."""
    if args.scene is None and not args.resume:
        raise TableRefused(f"{args.command}: expected a SCENE (or --resume FILE)")
    try:
        pilot = ap.with_flags(ap.load(args.autopilot), args.confirm, args.gates, args.ask_all, args.spare,
                              args.compels)
        if args.save:
            check_output(args.save, "--save", args.force, inputs=[args.resume] if args.resume else ())
        if args.resume:
            _check_resume_flags(args, SessionLog.load(args.resume), controls)
        else:
            controllers_for(load_scene(args.scene, rules=args.rules), {k: v for k, v in controls.items() if v != "human"})
            if args.seed is None:
                args.seed = cl.fresh_seed()
    except (ap.AutopilotError, UnknownController, SessionError, OutputPathError) as exc:
        raise TableRefused(str(exc)) from None
    return pilot


def cmd_validate(args: argparse.Namespace) -> int:
    scene = load_scene(args.scene, rules=args.rules)
    try:
        controllers_for(scene)
    except UnknownController as exc:
        return cl.fail(f"{args.scene}: {exc}")
    sides = {s: [c.id for c in scene.characters if c.side == s] for s in scene.sides}
    for r in scene.reserves:
        if r.side not in sides:  # said, so a new side is never a silent slip
            print(printable(f"{args.scene}: note: reserves.{r.id} brings a new side, {r.side!r} (no character starts "
                            f"on it: {', '.join(sides)}); /add makes it a party of its own"), file=sys.stderr)
    print(printable(f"{args.scene}: OK — {scene.title}: {scene.conflict} {scene.kind}, rules {scene.rules.name}, "
                    f"{len(scene.zones)} zone(s), " + "; ".join(f"{s}: {', '.join(m)}" for s, m in sides.items())))
    return 0
