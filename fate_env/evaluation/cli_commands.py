"""The benchmarker's commands declared: ``eval`` and ``bench``, each its arguments and the run they name
in ``cli_runs``; the type of ``--workers`` (and ``--envs``), which training's commands share."""

from __future__ import annotations

import argparse

from ..content import command_line as cl


def workers(text: str) -> int:
    """argparse type for --workers and --envs: processes, from 1 to MAX_WORKERS."""
    from .pools import MAX_WORKERS  # multiprocessing's cost, paid only when the flag is given
    value = cl.count(text)
    if value > MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_WORKERS} processes, got {value}")
    return value


def add_eval(e: argparse.ArgumentParser) -> None:
    """``fate-npc eval``'s arguments."""
    e.add_argument("scene")
    e.add_argument("--policies", required=True, help="comma-separated, e.g. basic,brute,tactician,random")
    e.add_argument("--vs", help="the second side's policies (the columns), when they differ from --policies, "
                                "e.g. a model that only plays one side")
    e.add_argument("-n", type=cl.count, default=100, help="episodes per cell (paired seeds)")
    e.add_argument("--workers", type=workers, default=1,
                   help="processes sharing the episodes (the table is the same for any count)")
    e.add_argument("--seed", type=cl.seed, default=0)
    e.add_argument("--rules")
    e.add_argument("--dial", action="append", metavar="KEY=VALUE",
                   help="a rule dial over the rule set, e.g. exploit_opposition=foe_in_zone (repeatable)")
    e.add_argument("--json", action="store_true")
    e.set_defaults(run="fate_env.evaluation.cli_runs:cmd_eval")


def add_bench(b: argparse.ArgumentParser) -> None:
    """``fate-npc bench``'s arguments."""
    b.add_argument("scene")
    b.add_argument("-n", type=cl.count, default=1000, help="episodes per variant")
    b.add_argument("--ci-width", type=float, help="run until every variant's win-rate interval is narrower")
    b.add_argument("--seed", type=cl.seed, default=0)
    b.add_argument("--rules")
    b.add_argument("--control", action="append", default=[], metavar="SIDE|CHARACTER=POLICY")
    b.add_argument("--vary", action="append", default=[], metavar="PATH=VALUES",
                   help="e.g. characters.og.skills.Fight=2..5, characters.thugs.count=2,4,6, rules.weapons=on,off")
    b.add_argument("--tune", metavar="PATH", help="the integer field to tune (with --target-win)")
    b.add_argument("--target-win", type=cl.rate, metavar="RATE", help="the PCs' win rate to aim for, e.g. 0.7")
    b.add_argument("--json", metavar="FILE", help="write the raw per-episode records")
    b.add_argument("--csv", metavar="FILE")
    b.add_argument("--plot", metavar="FILE.png")
    b.add_argument("--force", action="store_true", help="replace --json, --csv or --plot files that exist")
    b.add_argument("--workers", type=workers, default=1)
    b.add_argument("--ray", metavar="ADDRESS|auto", help="run the episodes as Ray tasks (the cluster extra)")
    b.add_argument("--engine", choices=["auto", "fast", "reference"], default="auto",
                   help="auto: the fast core when it covers the scene and controllers (the fast extra), "
                        "else the reference engine")
    b.set_defaults(run="fate_env.evaluation.cli_runs:cmd_bench")
