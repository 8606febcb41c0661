"""``fate-npc serve`` declared: the live table in a browser, its arguments and the run they name in
``cli_runs``."""

from __future__ import annotations

import argparse

from ..content import command_line as cl
from ..live.cli_commands import COMPELS_HELP, SPARE_HELP


def add_serve(sv: argparse.ArgumentParser) -> None:
    """``fate-npc serve``'s arguments."""
    sv.add_argument("scene", nargs="?", default=None)
    sv.add_argument("--seed", type=cl.seed, help="the dice's seed (default: a fresh one, printed)")
    sv.add_argument("--port", type=cl.port, default=8765, help="the port (default 8765; 0: any free one)")
    sv.add_argument("--host", default="127.0.0.1",
                    help="the address to listen on (default: this machine only; 0.0.0.0 shares it on the network)")
    sv.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                    help="a host name the pages may be reached by besides this machine's own and any IP address "
                         "(other names are refused: DNS rebinding)")
    sv.add_argument("--gm-anywhere", action="store_true",
                    help="serve the GM's link to any address (default: to this machine only, so a link seen on the "
                         "network never carries the GM's powers)")
    sv.add_argument("--resume", metavar="FILE", help="a saved session (from play or serve) to go on with")
    sv.add_argument("--save", metavar="FILE", help="save the session here at the end (and FILE.autosave after every step)")
    sv.add_argument("--force", action="store_true", help="replace the --save FILE if it exists")
    sv.add_argument("--rules")
    sv.add_argument("--control", action="append", default=[], metavar="SIDE|CHARACTER=POLICY",
                    help="who plays whom (human, basic, tactician, ...); PCs are human by default")
    sv.add_argument("--confirm", action="store_true", help="every NPC decision waits for the GM")
    sv.add_argument("--gates", metavar="LIST", help="as play --gates")
    sv.add_argument("--ask-all", action="store_true", help="ask the players every decision")
    sv.add_argument("--spare", metavar="PCS", help=SPARE_HELP)
    sv.add_argument("--compels", action="store_true", help=COMPELS_HELP)
    sv.add_argument("--autopilot", metavar="FILE", help="the autopilot's settings (default: configs/autopilot.yaml)")
    sv.add_argument("--dice", choices=["physical", "auto"], default=None,
                    help="physical: each player enters their PC's dice on their own page (four faces or a total)")
    sv.set_defaults(run="fate_env.web.cli_runs:cmd_serve")
