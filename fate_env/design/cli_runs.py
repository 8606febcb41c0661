"""``fate-npc design`` run (its arguments are declared in ``cli_commands``; the steps are in ``steps``,
and Optuna, the design extra, is looked for before they start)."""

from __future__ import annotations

import argparse

from ..content import command_line as cl
from . import steps as C


def cmd_design(args: argparse.Namespace) -> int:
    if cl.absent("optuna"):
        return cl.fail('design needs the design extra: pip install -e ".[design]" (Optuna and matplotlib)')
    try:
        return C.run(args, cl.controls(args.control))
    except C.Usage as exc:
        raise cl.UsageError(str(exc)) from None
