"""What every command of ``fate-npc`` shares: the argument types (a seed, a count, a rate ...), the
one-line error, the parser that says a bad flag in one line, and the small outputs (a result as JSON
or as lines, a progress bar). Light: the command line's ``--help`` imports it and nothing else."""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import yaml

from .safe_text import OneLineError, excerpt
from .yaml_input import load


class UsageError(OneLineError):
    """A command-line value that does not fit."""


def controls(pairs: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for p in pairs:
        who, sep, policy = p.partition("=")
        if not sep or not who or not policy:
            raise UsageError(f"--control {p!r}: expected SIDE=POLICY or CHARACTER=POLICY (e.g. smugglers=random)")
        out[who] = policy
    return out


def _checked(text: str, parse: Callable[[str], Any], ok: Callable[[Any], bool], unreadable: str, out_of_range: str):
    """``text`` read by ``parse`` and held to ``ok``; else argparse's one-line refusal, saying what was
    expected and what was given (a whole number as read, any other number as typed)."""
    try:
        value = parse(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{unreadable}, got {text!r}") from None
    if not ok(value):
        raise argparse.ArgumentTypeError(f"{out_of_range}, got {value if parse is int else text}")
    return value


def seed(text: str) -> int:
    """argparse type for --seed: a whole number from 0 to 2**32 - 1."""
    return _checked(text, int, lambda v: 0 <= v < 2 ** 32, "expected a whole number >= 0",
                    "expected a whole number from 0 to 4294967295")


def seeds(text: str) -> list[int]:
    """argparse type for --seeds: seeds separated by commas, each as --seed takes it, none twice."""
    seeds = [seed(part.strip()) for part in text.split(",") if part.strip()]
    if not seeds:
        raise argparse.ArgumentTypeError(f"expected seeds separated by commas, e.g. 0,1,2, got {text!r}")
    if len(set(seeds)) < len(seeds):
        raise argparse.ArgumentTypeError(f"a seed is named twice in {text!r}")
    return seeds


def count(text: str) -> int:
    """argparse type for episode counts: a whole number >= 1."""
    return _checked(text, int, lambda v: v >= 1, "expected a whole number >= 1", "expected a whole number >= 1")


def port(text: str) -> int:
    """argparse type for --port: 0 (any free port) to 65535."""
    return _checked(text, int, lambda v: 0 <= v <= 65535, "expected a port number from 0 to 65535",
                    "expected a port number from 0 to 65535")


def mob_count(text: str) -> int:
    """argparse type for a mob's members: 2 to 100."""
    value = count(text)
    if not 2 <= value <= 100:
        raise argparse.ArgumentTypeError(f"expected a mob of 2 to 100 members, got {value}")
    return value


def _fraction(text: str) -> float:
    return float(text[:-1]) / 100 if text.endswith("%") else float(text)


def rate(text: str) -> float:
    """argparse type for a win rate: a number from 0 to 1 (or a percentage such as 70%)."""
    return _checked(text, _fraction, lambda v: 0 <= v <= 1, "expected a rate from 0 to 1 (e.g. 0.7)",
                    "expected a rate from 0 to 1 (e.g. 0.7 or 70%)")


def positive(text: str) -> float:
    """argparse type for a step size or a temperature: a number above 0 and at most 100."""
    return _checked(text, float, lambda v: 0 < v <= 100, "expected a number above 0 (e.g. 0.5)",
                    "expected a number above 0 and at most 100")


def seconds(text: str) -> float:
    """argparse type for --budget: seconds, a number above 0."""
    return _checked(text, float, lambda v: v > 0, "expected a number of seconds, e.g. 300",
                    "expected a number of seconds above 0")


def absent(*modules: str) -> list[str]:
    """Which of ``modules`` (an extra's packages) cannot be imported: not installed, or set aside."""
    out = []
    for module in modules:
        try:
            if importlib.util.find_spec(module) is None:
                out.append(module)
        except (ImportError, ValueError):  # a module set to None in sys.modules, or a broken install
            out.append(module)
    return out


def fresh_seed() -> int:
    """A seed drawn from the OS when none is given; it is printed so the fight can be replayed."""
    import secrets
    return secrets.randbelow(2 ** 31)


def show(result: dict, as_json: bool, lines) -> int:
    """A command's result: as JSON on stdout, or as the lines ``lines(result)`` gives."""
    if as_json:
        json.dump(result, sys.stdout, indent=1)
        print()
    else:
        print("\n".join(lines(result)))
    return 0


def fail(message: str) -> int:
    print(f"fate-npc: error: {excerpt(str(message), 600)}", file=sys.stderr)  # one line, whatever it quotes
    return 2


def stdout_is(path: Path) -> bool:
    """Whether this process's standard output is the file at ``path`` (``... --json > path``)."""
    import os
    try:
        out, there = os.fstat(sys.stdout.fileno()), os.stat(path)
    except (OSError, ValueError, AttributeError):  # no such file, or stdout is not a real file
        return False
    return (out.st_dev, out.st_ino) == (there.st_dev, there.st_ino)


def progress_to_stderr(as_json: bool):
    """With ``--json`` the report alone goes to stdout (so it parses); training's progress table
    (SB3's logger, the league's lines) goes to stderr instead."""
    return contextlib.redirect_stdout(sys.stderr) if as_json else contextlib.nullcontext()


def dials(given: list[str] | None) -> dict | None:
    """``--dial KEY=VALUE`` (repeatable): single dials over the rule set (the scene file's
    ``rules.dials`` does the same); the value is read as YAML (``foe_in_zone``, ``3``, ``true``)."""
    if not given:
        return None
    out = {}
    for item in given:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise UsageError(f"--dial {item[:60]}: expected KEY=VALUE, e.g. exploit_opposition=foe_in_zone")
        try:
            out[key.strip()] = load(value)
        except yaml.YAMLError as exc:
            raise UsageError(f"--dial {key.strip()[:40]}: {getattr(exc, 'problem', None) or 'not a YAML value'}; "
                             "expected a value such as foe_in_zone, 3 or true") from None
    return out


def progress(done: int, total: int) -> None:
    if not sys.stderr.isatty() or total < 200:
        return
    if done % max(1, total // 100) and done != total:
        return
    filled = int(30 * done / total)
    sys.stderr.write(f"\r[{'#' * filled}{' ' * (30 - filled)}] {done}/{total}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


class Parser(argparse.ArgumentParser):
    """One line on a bad flag, like every other error (``--help`` shows the usage)."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")
