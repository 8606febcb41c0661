"""``fate-npc design`` declared: its arguments, with the defaults the search uses (``defaults``), and
the run they name in ``cli_runs``."""

from __future__ import annotations

import argparse

from ..content import command_line as cl
from .defaults import DEFAULT_BUDGET, DEFAULT_TRIALS


def add_design(d: argparse.ArgumentParser) -> None:
    d.add_argument("scene")
    d.add_argument("--side", required=True, help="the side to design (the NPCs' side)")
    d.add_argument("--target-win", type=cl.rate, required=True, metavar="RATE",
                   help="the PCs' win rate to aim for, e.g. 0.7 or 70%%")
    d.add_argument("--out", metavar="FILE", help="the designed scene file (default: SCENE_designed.yaml here); "
                                                 "its report (.report.md) and plot (.png) go beside it")
    d.add_argument("--force", action="store_true", help="replace the outputs if they exist")
    d.add_argument("--budget", type=cl.seconds, default=DEFAULT_BUDGET, metavar="SECONDS",
                   help=f"stop the search after this long (default {DEFAULT_BUDGET:g}); it says how to repeat it exactly")
    d.add_argument("--trials", type=cl.count, default=DEFAULT_TRIALS, metavar="N",
                   help=f"candidates to judge (default {DEFAULT_TRIALS}): the same seed and trials give the same design")
    d.add_argument("--seed", type=cl.seed, default=0)
    d.add_argument("--rules")
    d.add_argument("--control", action="append", default=[], metavar="SIDE|CHARACTER=POLICY",
                   help="who plays whom in the judged fights (as bench)")
    d.set_defaults(run="fate_env.design.cli_runs:cmd_design")
