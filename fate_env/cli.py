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


def cmd_eval(args: argparse.Namespace) -> int:
    from agents.base import UnknownController, make_controller
    from agents.crossplay import crossplay, format_table

    scene = load_scene(args.scene, rules=args.rules)
    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    if not policies:
        raise UsageError("--policies: expected a comma-separated list, e.g. basic,brute,random")
    if args.n < 1:
        raise UsageError(f"-n: expected at least 1 episode per cell, got {args.n}")
    try:
        for p in policies:
            make_controller(p)
        result = crossplay(scene, policies, args.n, args.seed)
    except (UnknownController, ValueError) as exc:
        return _fail(str(exc))
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
    else:
        print("\n".join(format_table(result)))
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    from .training import load_config, train

    load_scene(args.scene, rules=args.rules)  # a bad scene fails here, before any training
    try:
        config = load_config(args.config)
        from agents.base import make_controller
        make_controller(args.opponent)
    except Exception as exc:  # noqa: BLE001 - reported as one line
        return _fail(str(exc))
    if args.timesteps < 1:
        raise UsageError(f"--timesteps: expected a positive number, got {args.timesteps}")
    result = train(args.scene, args.side, args.opponent, args.timesteps, args.out, config, seed=args.seed,
                   self_play=args.self_play, rules=args.rules, verbose=0 if args.quiet else 1)
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
        return 0
    print(f"trained {result['side']} in {result['scene']} for {result['timesteps']} steps "
          f"({result['minutes']:.1f} min); model {result['model']}, logs {result['logs']}")
    for key, r in result.items():
        if key.startswith("vs_") or key.startswith("random_seat"):
            who = "random in its seat" if key.startswith("random_seat") else "trained"
            lo, hi = r["ci95"]
            print(f"  {who:>18} {key.split('vs_')[1]:>10}: {r['win_rate']:.1%} [{lo:.1%}, {hi:.1%}] "
                  f"over {r['episodes']} seeds")
    return 0


def cmd_scenes(args: argparse.Namespace) -> int:
    for name in list_scenes():
        s = load_scene(name)
        print(f"{name:18} {s.title}")
    return 0


def _default_train_config():
    from .scenes import config_dir
    return config_dir() / "train" / "default.yaml"


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
    e = sub.add_parser("eval", help="cross-play policies on a two-sided scene: win rates with intervals, ratings")
    e.add_argument("scene")
    e.add_argument("--policies", required=True, help="comma-separated, e.g. basic,brute,tactician,random")
    e.add_argument("-n", type=int, default=100, help="episodes per cell (paired seeds)")
    e.add_argument("--seed", type=int, default=0)
    e.add_argument("--rules")
    e.add_argument("--json", action="store_true")
    e.set_defaults(func=cmd_eval)
    t = sub.add_parser("train", help="train one side with MaskablePPO (needs the train extra)")
    t.add_argument("scene")
    t.add_argument("--side", help="the side that learns (default: the first NPC side)")
    t.add_argument("--opponent", default="basic", help="who plays the other sides: a policy name or ppo:PATH")
    t.add_argument("--timesteps", type=int, default=100_000)
    t.add_argument("--out", default="runs/model.zip")
    t.add_argument("--config", default=str(_default_train_config()))
    t.add_argument("--self-play", action="store_true", help="play against frozen snapshots of itself")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--rules")
    t.add_argument("--json", action="store_true")
    t.add_argument("--quiet", action="store_true")
    t.set_defaults(func=cmd_train)
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
