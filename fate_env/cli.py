"""``fate-npc``: the command line.

    fate-npc validate SCENE
    fate-npc resolve SCENE [--seed N] [--rules NAME] [--control SIDE|CHARACTER=POLICY ...] [--json]
    fate-npc scenes

SCENE is a path to a YAML file or the name of a shipped scene (``warehouse``).
Errors print one line to stderr and exit 2; nothing is half-done.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .scenes import SceneError, list_scenes, load_scene


class UsageError(ValueError):
    """A command-line value that does not fit."""


def _parse_controls(pairs: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for p in pairs:
        who, sep, policy = p.partition("=")
        if not sep or not who or not policy:
            raise UsageError(f"--control {p!r}: expected SIDE=POLICY or CHARACTER=POLICY (e.g. smugglers=random)")
        out[who] = policy
    return out


def _fail(message: str) -> int:
    print(f"fate-npc: error: {message}", file=sys.stderr)
    return 2


def cmd_validate(args: argparse.Namespace) -> int:
    from agents.base import UnknownController, controllers_for

    scene = load_scene(args.scene, rules=args.rules)
    try:
        controllers_for(scene)
    except UnknownController as exc:
        return _fail(f"{args.scene}: {exc}")
    sides = {s: [c.id for c in scene.characters if c.side == s] for s in scene.sides}
    print(f"{args.scene}: OK — {scene.title}: {scene.conflict} {scene.kind}, rules {scene.rules.name}, "
          f"{len(scene.zones)} zone(s), " + "; ".join(f"{s}: {', '.join(m)}" for s, m in sides.items()))
    return 0


def cmd_resolve(args: argparse.Namespace) -> int:
    from agents.base import UnknownController, controllers_for, play

    from .narrate import Narrator, summary
    from .rules.engine import start

    scene = load_scene(args.scene, rules=args.rules)
    try:
        controllers = controllers_for(scene, _parse_controls(args.control), seed=args.seed)
    except UnknownController as exc:
        return _fail(str(exc))
    conflict = play(start(scene, args.seed), controllers)
    if args.json:
        json.dump({"scene": scene.name, "rules": scene.rules.name, "seed": args.seed,
                   "outcome": conflict.outcome.to_json(), "choices": conflict.choices,
                   "reasons": conflict.reasons,
                   "events": conflict.log()}, sys.stdout, indent=1)
        print()
        return 0
    narrator = Narrator(scene, show_reasons=not args.quiet)
    for line in narrator.lines(conflict.events):
        print(line)
    print()
    for line in summary(scene, conflict.outcome):
        print(line)
    return 0


def cmd_scenes(args: argparse.Namespace) -> int:
    for name in list_scenes():
        s = load_scene(name)
        print(f"{name:18} {s.title}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="fate-npc", description="Plays the NPCs of a Fate conflict.")
    sub = p.add_subparsers(dest="command", required=True)
    v = sub.add_parser("validate", help="check a scene file")
    v.add_argument("scene")
    v.add_argument("--rules", help="rule set to check it under (condensed, core)")
    v.set_defaults(func=cmd_validate)
    r = sub.add_parser("resolve", help="play a conflict, contest or challenge to its end and narrate it")
    r.add_argument("scene")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--rules", help="rule set: condensed (default) or core")
    r.add_argument("--control", action="append", default=[], metavar="SIDE|CHARACTER=POLICY",
                   help="who plays whom: random, basic (repeatable)")
    r.add_argument("--json", action="store_true", help="print the outcome record and the event log as JSON")
    r.add_argument("--quiet", action="store_true", help="leave out the controllers' reasons")
    r.set_defaults(func=cmd_resolve)
    s = sub.add_parser("scenes", help="list the shipped scenes")
    s.set_defaults(func=cmd_scenes)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (SceneError, UsageError) as exc:
        return _fail(str(exc))


if __name__ == "__main__":
    sys.exit(main())
