"""The benchmarker's commands run: ``eval`` (policies cross-played) and ``bench`` (its steps are in
``bench_command``); their arguments are declared in ``cli_commands``."""

from __future__ import annotations

import argparse

from agents.base import UnknownController, make_controller

from ..content import command_line as cl
from ..content.scenes import load_scene
from . import bench_command as C
from .crossplay import crossplay, format_table
from .pools import WorkerDied


def cmd_eval(args: argparse.Namespace) -> int:
    scene = load_scene(args.scene, rules=args.rules, dials=cl.dials(args.dial))
    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    if not policies:
        raise cl.UsageError("--policies: expected a comma-separated list, e.g. basic,brute,random")
    columns = [p.strip() for p in args.vs.split(",") if p.strip()] if args.vs is not None else policies
    if not columns:
        raise cl.UsageError("--vs: expected a comma-separated list, e.g. basic,ppo:models/x.zip")
    if args.n < 1:
        raise cl.UsageError(f"-n: expected at least 1 episode per cell, got {args.n}")
    try:
        for p in dict.fromkeys(policies + columns):
            make_controller(p)
        result = crossplay(scene, policies, args.n, args.seed, columns=columns, workers=args.workers)
    except (UnknownController, ValueError, WorkerDied) as exc:
        return cl.fail(str(exc))
    return cl.show(result, args.json, format_table)


def cmd_bench(args: argparse.Namespace) -> int:
    try:
        return C.run(args, cl.controls(args.control), cl.progress)
    except C.Usage as exc:
        raise cl.UsageError(str(exc)) from None
    except C.Failed as exc:
        return cl.fail(str(exc))
