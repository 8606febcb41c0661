"""The GM's commands declared: ``validate``, ``resolve`` (a fight played to its end and told),
``replay`` (a saved fight told again) and ``play`` (a live session in the terminal), each its arguments
and the run they name in ``cli_runs``; the help lines ``serve`` shares."""

from __future__ import annotations

import argparse

from ..content import command_line as cl


COMPELS_HELP = ("the NPCs' side proposes compels of the PCs' troubles and consequences, each a GM gate: the GM "
                "offers it or not, the player accepts or refuses (default: configs/autopilot.yaml)")


SPARE_HELP = ("PC ids (comma-separated) whose players let the autopilot take a hit the cheapest way when it "
              "marks stress only; the others choose how to take every hit (default: configs/autopilot.yaml)")


def add_resolve(r: argparse.ArgumentParser) -> None:
    """``fate-npc resolve``'s arguments."""
    r.add_argument("scene")
    r.add_argument("--seed", type=cl.seed, help="the dice's seed (default: a fresh one, printed)")
    r.add_argument("--rules", help="rule set: condensed (default) or core")
    r.add_argument("--control", action="append", default=[], metavar="SIDE|CHARACTER=POLICY",
                   help="who plays whom: random, basic (repeatable)")
    r.add_argument("--json", action="store_true", help="print the outcome record and the event log as JSON")
    r.add_argument("--quiet", action="store_true", help="leave out the controllers' reasons")
    r.set_defaults(run="fate_env.live.cli_runs:cmd_resolve")


def add_replay(rp: argparse.ArgumentParser) -> None:
    """``fate-npc replay``'s arguments."""
    rp.add_argument("log", help="a session save or the JSON of fate-npc resolve --json")
    rp.add_argument("--markdown", action="store_true", help="a fight report in Markdown (campaign logs, VTT chat)")
    rp.add_argument("--out", metavar="FILE", help="write it to FILE instead of printing it")
    rp.add_argument("--quiet", action="store_true", help="leave out the controllers' reasons")
    rp.add_argument("--force", action="store_true", help="replace the --out FILE if it exists")
    rp.set_defaults(run="fate_env.live.cli_runs:cmd_replay")


def add_play(pl: argparse.ArgumentParser) -> None:
    """``fate-npc play``'s arguments."""
    pl.add_argument("scene", nargs="?", default=None)
    pl.add_argument("--dice", choices=["physical", "auto"], default=None,
                    help="physical: the players enter their own dice for their PCs' rolls")
    pl.add_argument("--control", action="append", default=[], metavar="SIDE|CHARACTER=POLICY",
                    help="who plays whom (human, basic, tactician, ...); PCs are human by default")
    pl.add_argument("--save", metavar="FILE", help="save the session here at the end (and to FILE.autosave "
                                                    "after every step)")
    pl.add_argument("--resume", metavar="FILE", help="rebuild a saved session and go on (FILE itself is never "
                                                      "written: the session goes on in a new autosave)")
    pl.add_argument("--force", action="store_true", help="replace the --save FILE if it exists")
    pl.add_argument("--seed", type=cl.seed, help="the dice's seed (default: a fresh one, printed)")
    pl.add_argument("--rules")
    pl.add_argument("--confirm", action="store_true",
                    help="every NPC decision waits for Enter (no autopilot: the GM confirms each move)")
    pl.add_argument("--gates", metavar="LIST",
                    help="the NPC moves that stop for the GM: none, or some of fate_points[=N], concession, "
                         "major_consequence (default: configs/autopilot.yaml)")
    pl.add_argument("--ask-all", action="store_true",
                    help="ask the players every decision, even one with a single sensible answer")
    pl.add_argument("--spare", metavar="PCS", help=SPARE_HELP)
    pl.add_argument("--compels", action="store_true", help=COMPELS_HELP)
    pl.add_argument("--autopilot", metavar="FILE", help="the autopilot's settings (default: configs/autopilot.yaml)")
    pl.set_defaults(run="fate_env.live.cli_runs:cmd_play")


def add_validate(v: argparse.ArgumentParser) -> None:
    """``fate-npc validate``'s arguments."""
    v.add_argument("scene")
    v.add_argument("--rules", help="rule set to check it under (condensed, core)")
    v.set_defaults(run="fate_env.live.cli_runs:cmd_validate")
