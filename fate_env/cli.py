"""``fate-npc``: the command line, a dispatch table.

Each command is one row: the module that declares it (its audience's package, ``cli_commands``) and
its one line of help. That module's ``add_NAME(parser)`` declares the command's arguments, with the
defaults its run uses, and names the run (``parser.set_defaults(run="module:function")``, in the
package's ``cli_runs``). Only the declaring module of the command named is imported to parse, and its
run's module only once the arguments parse, so ``fate-npc --help`` and ``COMMAND --help`` stay quick.

    fate-npc validate SCENE
    fate-npc resolve SCENE [--seed N] [--rules NAME] [--control SIDE|CHARACTER=POLICY ...] [--json]
    fate-npc scenes

SCENE is a path to a YAML file or the name of a shipped scene (``warehouse``).
Errors print one line to stderr and exit 2; nothing is half-done.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Callable, Sequence

from .content.command_line import Parser, UsageError, fail

#: every command: the module that declares and runs it, and its one line of help
COMMANDS: dict[str, tuple[str, str]] = {
    "validate": ("fate_env.live.cli_commands",
             "check a scene file"),
    "resolve": ("fate_env.live.cli_commands",
             "play a conflict, contest or challenge to its end and narrate it"),
    "eval": ("fate_env.evaluation.cli_commands",
             "cross-play policies on a two-sided scene: win rates with intervals, ratings"),
    "train": ("fate_env.learn.cli_commands",
             "train one side with MaskablePPO (needs the train extra)"),
    "export": ("fate_env.learn.cli_commands",
             "write a trained model's policy only (no value net, no optimizer): what an NPC needs to play, loadable as ppo:PATH without torch"),
    "exploit": ("fate_env.learn.cli_commands",
             "train a best response against an NPC (and baselines): what it concedes"),
    "bench": ("fate_env.evaluation.cli_commands",
             "run a scene many times: win rates with intervals, sweeps, tuning"),
    "learn": ("fate_env.learn.cli_commands",
             "make the general learned NPC: search's turns on generated scenes, cloned, then improved by self-play (needs the train extra)"),
    "design": ("fate_env.design.cli_commands",
             "design a side's NPCs for a target win rate, no PC left behind (needs the design extra)"),
    "play": ("fate_env.live.cli_commands",
             "a live session: the players decide for their PCs, the tool plays the NPCs"),
    "serve": ("fate_env.web.cli_commands",
             "the live table in a browser: the GM's page and a page per player"),
    "replay": ("fate_env.live.cli_commands",
             "tell a saved fight again (a play --save session or a resolve --json log)"),
    "import": ("fate_env.content.cli_commands",
             "characters from Foundry VTT (Fate Core Official) or Fari files, as a scene's characters: block"),
    "rules": ("fate_env.content.cli_commands",
             "list the rule sets and every dial: values, choices, where the texts set it"),
    "scenes": ("fate_env.content.cli_commands",
             "list the shipped scenes"),
    "new": ("fate_env.content.cli_commands",
             "write a commented scene file to start from"),
}

TRUST_HELP = ("let ppo:FILE load full Stable-Baselines3 saves not written by training here: loading one unpickles it, "
              "which runs any code its author put in it")


def _command_named(argv: Sequence[str]) -> str | None:
    """The command in ``argv``: its first word that is not a flag."""
    return next((a for a in argv if not a.startswith("-")), None)


def declare(sub: argparse._SubParsersAction, name: str) -> argparse.ArgumentParser:
    """``name``'s parser, filled by the module that owns the command (imported now)."""
    module, text = COMMANDS[name]
    p = sub.add_parser(name, help=text)
    getattr(importlib.import_module(module), f"add_{name}")(p)
    # every command: full SB3 saves load (and run their code) from anywhere
    p.add_argument("--trust-models", action="store_true", help=TRUST_HELP)
    return p


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser: every command's line of help, and the arguments of ``only`` (of every command when
    ``only`` is None, as the docs' checks read them; of none when it names no command)."""
    p = Parser(prog="fate-npc", description="Plays the NPCs of a Fate conflict.")
    sub = p.add_subparsers(dest="command", required=True)
    for name, (_, text) in COMMANDS.items():
        if only is None or name == only:
            declare(sub, name)
        else:
            sub.add_parser(name, help=text)
    return p


def run_of(target: str) -> Callable[[argparse.Namespace], int]:
    """The function a command's ``run`` names (``module:function``), its module imported now."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    named = _command_named(argv)
    args = build_parser(named if named in COMMANDS else "").parse_args(argv)
    if getattr(args, "trust_models", False):
        from .content.policy_file import TRUST_ENV
        os.environ[TRUST_ENV] = "1"  # workers started from here inherit it
    from .content.policies import PolicyFileError  # the engine's modules, once the arguments parse
    from .content.scenes import SceneError
    try:
        return run_of(args.run)(args)
    except (SceneError, UsageError, PolicyFileError) as exc:
        return fail(str(exc))
    except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:  # standard output full or gone (> /dev/full), or a file that vanished mid-run
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to flush at exit
        if exc.filename:
            return fail(f"{args.command}: {exc.filename}: {exc.strerror or exc}")
        return fail(f"{args.command}: cannot write to standard output ({exc.strerror or exc})")
    except KeyboardInterrupt:  # outputs are written whole or not at all (paths.atomic_open)
        print(f"\nfate-npc: interrupted; {args.command} stopped, and no file was left half-written",
              file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
