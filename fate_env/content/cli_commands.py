"""The scene author's commands declared: ``scenes``, ``new``, ``rules`` and ``import``, each its
arguments and the run they name in ``cli_runs`` (the command line's table, ``fate_env/cli.py``, lists
them)."""

from __future__ import annotations

import argparse

from . import command_line as cl


def add_scenes(s: argparse.ArgumentParser) -> None:
    """``fate-npc scenes``'s arguments."""
    s.set_defaults(run="fate_env.content.cli_runs:cmd_scenes")


def add_new(nw: argparse.ArgumentParser) -> None:
    """``fate-npc new``'s arguments."""
    nw.add_argument("scene", help="the file to write (.yaml added if it has no suffix)")
    nw.add_argument("--rules", default="condensed", help="the rule set it names (condensed, core, fate2, fate3)")
    nw.add_argument("--force", action="store_true", help="replace the file if it exists")
    nw.set_defaults(run="fate_env.content.cli_runs:cmd_new")


def add_rules(ru: argparse.ArgumentParser) -> None:
    """``fate-npc rules``'s arguments."""
    ru.add_argument("--json", action="store_true")
    ru.set_defaults(run="fate_env.content.cli_runs:cmd_rules")


def add_import(im: argparse.ArgumentParser) -> None:
    """``fate-npc import``'s arguments."""
    im.add_argument("files", nargs="+", metavar="FILE", help="a Foundry actor export (JSON) or a Fari character file")
    im.add_argument("--kind", choices=["pc", "major", "minor", "mob"], default="major",
                    help="what they are in the scene (default major)")
    im.add_argument("--count", type=cl.mob_count, help="with --kind mob: how many members (default 3)")
    im.add_argument("--side", default="npcs", help="their side (default npcs)")
    im.add_argument("--zone", default="here", help="the zone they start in (default here)")
    im.add_argument("--rules", help="the rule set to check them under (stress boxes, consequence slots)")
    im.add_argument("--out", metavar="FILE", help="write the YAML to FILE instead of printing it")
    im.add_argument("--force", action="store_true", help="replace the --out FILE if it exists")
    im.add_argument("--strict", action="store_true",
                    help="refuse the files (write nothing) if anything in them could not be mapped")
    im.set_defaults(run="fate_env.content.cli_runs:cmd_import")
