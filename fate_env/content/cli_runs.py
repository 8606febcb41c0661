"""The scene author's commands run: ``scenes``, ``new``, ``rules`` and ``import`` (their arguments are
declared in ``cli_commands``)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys

from . import command_line as cl
from .dials import catalogue, format_catalogue
from .importers import ImportError_, read, scene_fragment
from .paths import OutputPathError, check_output, write_atomically
from .scene_template import write
from .scenes import SceneError, list_scenes, load_rules, load_scene


def cmd_scenes(args: argparse.Namespace) -> int:
    for name in list_scenes():
        s = load_scene(name)
        print(f"{name:18} {s.title}")
    return 0


def cmd_new(args: argparse.Namespace) -> int:
    load_rules(args.rules, "fate-npc new", "--rules")  # refused before anything is written
    try:
        path = write(args.scene, rules=args.rules, force=args.force)
    except OutputPathError as exc:
        return cl.fail(str(exc))
    except OSError as exc:
        return cl.fail(f"new {args.scene}: {exc.strerror or exc}")
    print(f"wrote {path}: a commented scene to edit; check it with `fate-npc validate {shlex.quote(str(path))}`")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    cat = catalogue()
    if args.json:
        json.dump(cat, sys.stdout, indent=1)
        print()
        return 0
    for line in format_catalogue(cat):
        print(line)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    try:
        if args.out:
            check_output(args.out, "--out", args.force, inputs=args.files)
        chars = [c for path in args.files for c in read(path)]
        frag = scene_fragment(chars, args.kind, args.side, args.zone, rules=args.rules, count=args.count)
    except (ImportError_, OutputPathError) as exc:
        return cl.fail(str(exc))
    except SceneError as exc:
        return cl.fail(f"the imported characters do not make a valid scene: {exc}")
    if args.strict and frag.unmapped:
        for n in frag.unmapped:
            print(f"# not imported: {n}", file=sys.stderr)
        return cl.fail(f"--strict: {len(frag.unmapped)} thing(s) in {', '.join(args.files)} could not be mapped "
                     "(listed above); nothing written")
    if args.out:
        try:
            write_atomically(args.out, frag.text)
        except OSError as exc:
            return cl.fail(f"--out {args.out}: {exc.strerror or exc}")
        print(f"# wrote {args.out}: {len(chars)} character(s)")
    else:
        sys.stdout.write(frag.text)
    sys.stdout.flush()
    # said again on stderr, as YAML comments: the terminal's whole output pastes as valid YAML
    for n in frag.unmapped:
        print(f"# not imported: {n}", file=sys.stderr)
    for n in frag.remarks:
        print(f"# note: {n}", file=sys.stderr)
    return 0
