"""``fate-npc``: the command line.

    fate-npc validate SCENE
    fate-npc resolve SCENE [--seed N] [--rules NAME] [--control SIDE|CHARACTER=POLICY ...] [--json]
    fate-npc scenes

SCENE is a path to a YAML file or the name of a shipped scene (``warehouse``).
Errors print one line to stderr and exit 2; nothing is half-done.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .content.safe_text import OneLineError
from .content.scenes import SceneError, list_scenes, load_rules, load_scene


class UsageError(OneLineError):
    """A command-line value that does not fit."""


def _parse_controls(pairs: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for p in pairs:
        who, sep, policy = p.partition("=")
        if not sep or not who or not policy:
            raise UsageError(f"--control {p!r}: expected SIDE=POLICY or CHARACTER=POLICY (e.g. smugglers=random)")
        out[who] = policy
    return out


def _seed(text: str) -> int:
    """argparse type for --seed: a whole number from 0 to 2**32 - 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {text!r}") from None
    if not 0 <= value < 2 ** 32:
        raise argparse.ArgumentTypeError(f"expected a whole number from 0 to 4294967295, got {value}")
    return value


def _seeds(text: str) -> list[int]:
    """argparse type for --seeds: seeds separated by commas, each as --seed takes it, none twice."""
    seeds = [_seed(part.strip()) for part in text.split(",") if part.strip()]
    if not seeds:
        raise argparse.ArgumentTypeError(f"expected seeds separated by commas, e.g. 0,1,2, got {text!r}")
    if len(set(seeds)) < len(seeds):
        raise argparse.ArgumentTypeError(f"a seed is named twice in {text!r}")
    return seeds


def _count(text: str) -> int:
    """argparse type for episode counts: a whole number >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {value}")
    return value


def _workers(text: str) -> int:
    """argparse type for --workers and --envs: processes, from 1 to MAX_WORKERS."""
    from .evaluation.pools import MAX_WORKERS
    value = _count(text)
    if value > MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_WORKERS} processes, got {value}")
    return value


def _port(text: str) -> int:
    """argparse type for --port: 0 (any free port) to 65535."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number from 0 to 65535, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port number from 0 to 65535, got {value}")
    return value


def _mob_count(text: str) -> int:
    """argparse type for a mob's members: 2 to 100."""
    value = _count(text)
    if not 2 <= value <= 100:
        raise argparse.ArgumentTypeError(f"expected a mob of 2 to 100 members, got {value}")
    return value


def _rate(text: str) -> float:
    """argparse type for a win rate: a number from 0 to 1 (or a percentage such as 70%)."""
    try:
        value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a rate from 0 to 1 (e.g. 0.7), got {text!r}") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"expected a rate from 0 to 1 (e.g. 0.7 or 70%), got {text}")
    return value


def _positive(text: str) -> float:
    """argparse type for a step size or a temperature: a number above 0 and at most 100."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number above 0 (e.g. 0.5), got {text!r}") from None
    if not 0 < value <= 100:
        raise argparse.ArgumentTypeError(f"expected a number above 0 and at most 100, got {text}")
    return value


def fresh_seed() -> int:
    """A seed drawn from the OS when none is given; it is printed so the fight can be replayed."""
    import secrets
    return secrets.randbelow(2 ** 31)


def _show(result: dict, as_json: bool, lines) -> int:
    """A command's result: as JSON on stdout, or as the lines ``lines(result)`` gives."""
    if as_json:
        json.dump(result, sys.stdout, indent=1)
        print()
    else:
        print("\n".join(lines(result)))
    return 0


def _fail(message: str) -> int:
    from .content.safe_text import excerpt
    print(f"fate-npc: error: {excerpt(str(message), 600)}", file=sys.stderr)  # one line, whatever it quotes
    return 2


def _stdout_is(path: Path) -> bool:
    """Whether this process's standard output is the file at ``path`` (``... --json > path``)."""
    import os
    try:
        out, there = os.fstat(sys.stdout.fileno()), os.stat(path)
    except (OSError, ValueError, AttributeError):  # no such file, or stdout is not a real file
        return False
    return (out.st_dev, out.st_ino) == (there.st_dev, there.st_ino)


def cmd_validate(args: argparse.Namespace) -> int:
    from agents.base import UnknownController, controllers_for

    scene = load_scene(args.scene, rules=args.rules)
    try:
        controllers_for(scene)
    except UnknownController as exc:
        return _fail(f"{args.scene}: {exc}")
    from .content.safe_text import printable  # a title or a name from the file: its escape codes shown, not obeyed
    sides = {s: [c.id for c in scene.characters if c.side == s] for s in scene.sides}
    for r in scene.reserves:
        if r.side not in sides:  # said, so a new side is never a silent slip
            print(printable(f"{args.scene}: note: reserves.{r.id} brings a new side, {r.side!r} (no character starts "
                            f"on it: {', '.join(sides)}); /add makes it a party of its own"), file=sys.stderr)
    print(printable(f"{args.scene}: OK — {scene.title}: {scene.conflict} {scene.kind}, rules {scene.rules.name}, "
                    f"{len(scene.zones)} zone(s), " + "; ".join(f"{s}: {', '.join(m)}" for s, m in sides.items())))
    return 0


def cmd_resolve(args: argparse.Namespace) -> int:
    from agents.base import UnknownController, controllers_for, play

    from .content.narrate import Narrator, summary
    from .rules.engine import start

    scene = load_scene(args.scene, rules=args.rules)
    drawn = args.seed is None
    if drawn:
        args.seed = fresh_seed()
    try:
        controllers = controllers_for(scene, _parse_controls(args.control), seed=args.seed)
    except UnknownController as exc:
        return _fail(str(exc))
    conflict = play(start(scene, args.seed), controllers)
    if drawn:
        print(f"(seed {args.seed}: replay this fight with --seed {args.seed})", file=sys.stderr if args.json else sys.stdout)
    if args.json:
        from .content.scenes import read_scene_data
        scene_file, scene_data = read_scene_data(args.scene)  # kept, so `replay` never needs the file
        json.dump({"scene": scene.name, "scene_file": scene_file, "scene_data": scene_data,
                   "rules": scene.rules.name, "seed": args.seed,
                   "outcome": conflict.outcome.to_json(), "choices": conflict.choices,
                   "reasons": conflict.reasons,
                   "events": conflict.log()}, sys.stdout, indent=1)
        print()
        return 0
    from .content.safe_text import printable
    narrator = Narrator(scene, show_reasons=not args.quiet)
    for line in narrator.lines(conflict.events):
        print(printable(line, keep="\n"))
    print()
    for line in summary(scene, conflict.outcome):
        print(printable(line, keep="\n"))
    return 0


def _progress_to_stderr(as_json: bool):
    """With ``--json`` the report alone goes to stdout (so it parses); training's progress table
    (SB3's logger, the league's lines) goes to stderr instead."""
    return contextlib.redirect_stdout(sys.stderr) if as_json else contextlib.nullcontext()


def _dials(given: list[str] | None) -> dict | None:
    """``--dial KEY=VALUE`` (repeatable): single dials over the rule set (the scene file's
    ``rules.dials`` does the same); the value is read as YAML (``foe_in_zone``, ``3``, ``true``)."""
    import yaml

    from .content.yaml_input import load
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


def cmd_eval(args: argparse.Namespace) -> int:
    from agents.base import UnknownController, make_controller
    from fate_env.evaluation.crossplay import crossplay, format_table
    from fate_env.evaluation.pools import WorkerDied

    scene = load_scene(args.scene, rules=args.rules, dials=_dials(args.dial))
    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    if not policies:
        raise UsageError("--policies: expected a comma-separated list, e.g. basic,brute,random")
    columns = [p.strip() for p in args.vs.split(",") if p.strip()] if args.vs is not None else policies
    if not columns:
        raise UsageError("--vs: expected a comma-separated list, e.g. basic,ppo:models/x.zip")
    if args.n < 1:
        raise UsageError(f"-n: expected at least 1 episode per cell, got {args.n}")
    try:
        for p in dict.fromkeys(policies + columns):
            make_controller(p)
        result = crossplay(scene, policies, args.n, args.seed, columns=columns, workers=args.workers)
    except (UnknownController, ValueError, WorkerDied) as exc:
        return _fail(str(exc))
    return _show(result, args.json, format_table)


#: what `train` and `exploit` need, said in one line when it is missing
TRAIN_EXTRA = ("pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu "
               "&& pip install -e '.[train]' (the CPU build of torch is all training needs)")


def _missing_train_extra(command: str) -> str | None:
    """One line saying what to install, if torch, Stable-Baselines3 or sb3-contrib is missing."""
    import importlib.util

    def absent(module: str) -> bool:
        try:
            return importlib.util.find_spec(module) is None
        except (ImportError, ValueError):  # a module set to None in sys.modules, or a broken install
            return True
    missing = [m for m in ("torch", "stable_baselines3", "sb3_contrib") if absent(m)]
    if not missing:
        return None
    return f"{command} needs the train extra ({', '.join(missing)} not installed): {TRAIN_EXTRA}"


def cmd_train(args: argparse.Namespace) -> int:
    if (missing := _missing_train_extra("train")) is not None:
        return _fail(missing)
    from .learn.training import train

    load_scene(args.scene, rules=args.rules)  # a bad scene fails here, before any training
    try:
        config = _train_config(args)
        _train_outputs(args)
    except _TrainRefused as exc:
        return _fail(str(exc))
    if args.ray:
        return _train_on_ray(args, config)
    try:
        with _progress_to_stderr(args.json):
            result = train(args.scene, args.side, args.opponent or "basic", args.timesteps, args.out, config,
                           seed=args.seed, self_play=args.self_play, rules=args.rules,
                           verbose=0 if args.quiet else 1, init=args.init, envs=args.envs,
                           torch_threads=args.torch_threads, league=args.league,
                           subprocess_envs=args.subprocess_envs)
    except ValueError as exc:
        return _fail(str(exc))
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
    else:
        print("\n".join(_train_lines(result)))
    return 0


class _TrainRefused(ValueError):
    """A training run refused before it starts (one line)."""


def _train_config(args: argparse.Namespace) -> dict:
    """The training config (the SB3 path's defaults teach fighting, default.yaml; Ray's own are ray.yaml)
    and its opponents checked; ``--timesteps`` and ``--init`` too."""
    from agents.base import make_controller

    from .learn.training import load_config
    if args.config is None:
        args.config = str(_default_train_config().with_name("ray.yaml") if args.ray else _default_train_config())
    try:
        config = load_config(args.config)
        if args.league and args.opponent is not None:
            raise ValueError("--league draws the opponents from the config's league population; drop --opponent")
        if args.league:
            from .learn.league import league_settings
            opponents = league_settings(config.get("league"), f"{args.config}: league")["opponents"]
        else:
            opponents = (args.opponent or "basic").split(",")
        for name in opponents:
            make_controller(name.strip())
    except Exception as exc:  # noqa: BLE001 - reported as one line
        raise _TrainRefused(str(exc)) from None
    if args.timesteps < 1:
        raise UsageError(f"--timesteps: expected a positive number, got {args.timesteps}")
    if args.init and not Path(args.init).exists():
        raise _TrainRefused(f"--init {args.init}: no such model file")
    return config


def _train_outputs(args: argparse.Namespace) -> None:
    """The model and its sidecar checked now, not after an hour of training."""
    from .content.paths import OutputPathError, check_output
    card = Path(args.out).with_suffix(".json")
    if _stdout_is(card):  # the report printed at the end would overwrite the model's sidecar
        raise _TrainRefused(f"standard output is {card}, the sidecar that --out {args.out} writes beside the model; "
                            f"send the report elsewhere (e.g. > {card.with_name(card.stem + '_report.json')})")
    try:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        check_output(args.out, "--out", args.force, inputs=[args.init] if args.init else ())
        check_output(card, "the sidecar of --out", args.force)
    except (OutputPathError, OSError) as exc:
        raise _TrainRefused(str(exc)) from None


def _train_lines(result: dict) -> list[str]:
    """A training run's report: the model and logs, the win rates with their intervals, the league."""
    lines = [f"trained {result['side']} in {result['scene']} for {result['timesteps']} steps "
             f"({result['minutes']:.1f} min, engine: {result['engine']}); model {result['model']}, logs {result['logs']}"]
    for key, r in result.items():
        if key.startswith("vs_") or key.startswith("random_seat"):
            who = "random in its seat" if key.startswith("random_seat") else "trained"
            lo, hi = r["ci95"]
            lines.append(f"  {who:>18} {key.split('vs_')[1]:>10}: {r['win_rate']:.1%} [{lo:.1%}, {hi:.1%}] "
                         f"over {r['episodes']} seeds")
    if "league" in result:
        lines.append("league at the end (the learner's wins over all its fights against each; its share of the next):")
        for m in result["league"]["members"]:
            rate = "—" if m["win_rate"] is None else f"{m['win_rate']:.1%}"
            lines.append(f"  {m['name']:>18} ({m['kind']}{', retired' if m['retired'] else ''}): {m['fights']} fights, "
                         f"won {rate}; share {m['share']:.1%}")
    return lines


def cmd_rules(args: argparse.Namespace) -> int:
    from .content.dials import catalogue, format_catalogue
    cat = catalogue()
    if args.json:
        json.dump(cat, sys.stdout, indent=1)
        print()
        return 0
    for line in format_catalogue(cat):
        print(line)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from .content.paths import check_output
    from .content.policy_file import check_model_file, export

    try:
        if check_model_file(args.model, require_trust=False) == "policy":
            return _fail(f"{args.model}: already a policy-only file; play it as ppo:{args.model} (nothing to export)")
        check_output(args.out, "--out", args.force, inputs=[args.model])
        card = Path(args.out).with_suffix(".json")
        if Path(args.model).with_suffix(".json").exists():
            check_output(card, "the sidecar of --out", args.force, inputs=[Path(args.model).with_suffix(".json")])
        info = export(args.model, args.out)
    except ImportError as exc:
        return _fail(f"export reads an SB3 model: it needs the train extra ({exc})")
    except (ValueError, OSError) as exc:
        return _fail(str(exc))
    print(f"{info['model']}: the policy of {args.model} only ({info['hidden_layers']} hidden layers, "
          f"{info['observations']} observations, {info['actions']} actions), {info['bytes'] / 1e6:.2f} MB")
    return 0


def _train_on_ray(args: argparse.Namespace, config: dict) -> int:
    """``train --ray ADDRESS``: RLlib's multi-agent PPO (fate_env/learn/ray_training.py)."""
    unsupported = [flag for flag, on in (("--league", args.league), ("--self-play", args.self_play),
                                         ("--init", args.init)) if on]
    unsupported += [f"{key} in the config" for key in ("imitate", "learn", "league", "self_play") if config.get(key)]
    if unsupported:
        return _fail(f"--ray trains every decision of the side against scripted opponents; it does not take "
                     f"{', '.join(unsupported)} (SB3's path does)")
    from .evaluation.cluster import ClusterError, check_address
    try:
        check_address(args.ray)  # seconds, not the minutes ray.init would retry for
    except ClusterError as exc:
        return _fail(str(exc))
    try:
        from .learn.ray_training import train_ray
    except ImportError as exc:
        return _fail(f"--ray needs the cluster extra (pip install -e '.[cluster,train]'): {exc}")
    try:
        result = train_ray(args.scene, args.side, args.opponent or "basic", args.timesteps, args.out, config,
                           args.ray, seed=args.seed, rules=args.rules, envs=args.envs,
                           verbose=0 if args.quiet else 1)
    except ValueError as exc:
        return _fail(str(exc))
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
        return 0
    print(f"trained {result['side']} in {result['scene']} on Ray ({result['address']}) for {result['timesteps']} "
          f"steps ({result['minutes']:.1f} min); checkpoint {result['checkpoint']}")
    r = result.get(f"vs_{result['opponent']}")
    if r:
        print(f"  vs {result['opponent']}: {r['win_rate']:.1%} [{r['ci95'][0]:.1%}, {r['ci95'][1]:.1%}] "
              f"over {r['episodes']} seeds")
    return 0


def cmd_exploit(args: argparse.Namespace) -> int:
    if (missing := _missing_train_extra("exploit")) is not None:
        return _fail(missing)
    from agents.base import make_controller

    from .learn.exploit import exploit, format_report, npc_spec
    from .learn.training import load_config

    model = npc_spec(args.model)
    scene = args.scene
    if model.startswith("ppo:"):
        card = Path(model[4:]).with_suffix(".json")
        if not Path(model[4:]).exists():
            return _fail(f"{args.model}: no such model file")
        if scene is None and card.exists():
            scene = json.loads(card.read_text()).get("scene")
    if scene is None:
        raise UsageError("--scene: needed for a scripted NPC (a model's .json sidecar names its scene)")
    if args.timesteps < 1:
        raise UsageError(f"--timesteps: expected a positive number, got {args.timesteps}")
    if args.seeds and args.seed is not None:
        raise UsageError("--seed and --seeds: give one (--seeds 0,1,2 trains a best response per seed)")
    baselines = [b.strip() for b in args.baseline.split(",") if b.strip()]
    try:
        load_scene(scene, rules=args.rules)
        config = load_config(args.config)
        for spec in [model, *baselines]:
            make_controller(npc_spec(spec))
        with _progress_to_stderr(args.json):
            report = exploit(scene, model, args.side, args.timesteps, config, args.out_dir, baselines,
                             seed=args.seed or 0, rules=args.rules, verbose=0 if args.quiet else 1, envs=args.envs,
                             torch_threads=args.torch_threads, episodes=args.episodes, seeds=args.seeds)
    except ValueError as exc:
        return _fail(str(exc))
    return _show(report, args.json, format_report)


def _progress(done: int, total: int) -> None:
    if not sys.stderr.isatty() or total < 200:
        return
    if done % max(1, total // 100) and done != total:
        return
    filled = int(30 * done / total)
    sys.stderr.write(f"\r[{'#' * filled}{' ' * (30 - filled)}] {done}/{total}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def cmd_bench(args: argparse.Namespace) -> int:
    from .evaluation import bench_command as C
    try:
        return C.run(args, _parse_controls(args.control), _progress)
    except C.Usage as exc:
        raise UsageError(str(exc)) from None
    except C.Failed as exc:
        return _fail(str(exc))


def cmd_learn(args: argparse.Namespace) -> int:
    import importlib.util
    if importlib.util.find_spec("torch") is None:
        return _fail(f"learn needs the train extra (torch not installed): {TRAIN_EXTRA}")
    from .evaluation.pools import WorkerDied
    from .learn import general_command as G
    try:
        info = G.run(args, log=lambda line: print(line, file=sys.stderr if args.json else sys.stdout, flush=True))
    except (G.Refused, WorkerDied) as exc:
        return _fail(str(exc))
    if args.json:
        json.dump(info, sys.stdout, indent=1)
        print()
    return 0


def cmd_design(args: argparse.Namespace) -> int:
    try:
        import optuna  # noqa: F401
    except ImportError:
        return _fail('design needs the design extra: pip install -e ".[design]" (Optuna and matplotlib)')
    from .design import command as C
    try:
        return C.run(args, _parse_controls(args.control))
    except C.Usage as exc:
        raise UsageError(str(exc)) from None


def cmd_play(args: argparse.Namespace) -> int:
    from agents.base import UnknownController

    from .content.paths import OutputPathError
    from .live.session import SessionError, run_session

    controls = _parse_controls(args.control)
    fresh = args.seed is None and not args.resume
    try:
        pilot = _table_setup(args, controls)
    except _TableRefused as exc:
        return _fail(str(exc))
    if fresh:
        print(f"(seed {args.seed}: replay this session with --seed {args.seed})")
    try:
        run_session(args.scene, args.seed, controls, args.dice or "auto", args.save, args.resume, sys.stdin,
                    sys.stdout, rules=args.rules, force=args.force, autopilot=pilot)
    except (UnknownController, SessionError, OutputPathError) as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        return _fail("interrupted before the session started; nothing was saved")
    return 0


def _check_resume_flags(args: argparse.Namespace, log, controls: dict[str, str]) -> None:
    """A resumed session is the saved one: flags that say otherwise are refused, not ignored."""
    from .live.session import SessionError
    clashes = []
    if args.scene is not None and args.scene != log.scene:
        clashes.append(f"scene {args.scene!r} (the save is of {log.scene!r})")
    if args.seed is not None and args.seed != log.seed:
        clashes.append(f"--seed {args.seed} (the save has seed {log.seed})")
    if args.rules is not None and args.rules != log.rules:
        clashes.append(f"--rules {args.rules} (the save plays {log.rules or 'the scene' + chr(39) + 's own rules'})")
    if controls and controls != log.controls:
        clashes.append(f"--control {controls} (the save has {log.controls or 'the defaults'})")
    if args.dice is not None and args.dice != log.dice:
        clashes.append(f"--dice {args.dice} (the save has {log.dice})")
    if clashes:
        raise SessionError(f"--resume {args.resume}: " + "; ".join(clashes)
                           + ". Leave these out to resume the saved session as it was.")


def cmd_serve(args: argparse.Namespace) -> int:
    """The live table in a browser: ``play``'s model, behind a local web server."""
    import importlib.util
    if importlib.util.find_spec("starlette") is None or importlib.util.find_spec("uvicorn") is None:
        return _fail("serve needs the web extra (Starlette and uvicorn): pip install -e '.[web]'")
    from .content.paths import OutputPathError
    from .live.session import SessionError, open_session
    from .web.host import TableHost
    from .web.server import Links, listen, serve

    controls = _parse_controls(args.control)
    try:
        pilot = _table_setup(args, controls)
    except _TableRefused as exc:
        return _fail(str(exc))
    try:  # the port first: a serve that cannot listen has opened no session and written no file
        where = listen(args.host, args.port)
    except OSError as exc:
        return _fail(f"--host {args.host} --port {args.port}: cannot listen there ({exc.strerror or exc})")
    try:
        host = TableHost(lambda inp, out: open_session(args.scene, args.seed, controls, args.dice or "auto", args.save,
                                                       args.resume, inp, out, rules=args.rules, force=args.force,
                                                       autopilot=pilot))
    except (SessionError, OutputPathError) as exc:
        return _fail(str(exc))
    s = host.session
    links = Links([cid for cid in s.play.f if s.table.pc_of(cid)])
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"(listening on {args.host}: anyone on that network who has a link can open it"
              + ("" if args.gm_anywhere else "; the GM's link opens on this machine only (--gm-anywhere: anywhere)")
              + ")")
    _start_telling(host)
    try:
        serve(host, links, where, on_ready=lambda port: _announce(args, s, links, port), allow_hosts=args.allow_host,
              gm_anywhere=args.gm_anywhere)
    except OSError as exc:
        return _fail(f"--host {args.host} --port {args.port}: {exc.strerror or exc}")
    finally:
        _close_table(host, args.save)
    if s.autosave_path is not None:
        print(f"(the session is in {s.autosave_path}: fate-npc serve --resume {s.autosave_path} goes on)")
    return 0


def _start_telling(host) -> None:
    """Play up to the table's first question before the links are printed; where that waits (a learned
    side rehearsing the scene, when the NPCs act first), the GM's terminal is told why meanwhile."""
    publish = host.table.on_wait

    def told() -> None:
        print(host.table.feed[-1].text.strip(), flush=True)
        publish()
    host.table.on_wait = told
    try:
        host.start()
    finally:
        host.table.on_wait = publish


class _TableRefused(ValueError):
    """A live table refused before it opens (one line)."""


def _table_setup(args: argparse.Namespace, controls: dict[str, str]) -> Any:
    """``play``'s and ``serve``'s checks before a session opens: the autopilot's settings, ``--save``
    (now, not after an evening's play), a resume's flags against its save, the controls against the
    scene, a fresh seed. Returns the autopilot."""
    from agents.base import UnknownController, controllers_for

    from .content.paths import OutputPathError, check_output
    from .live import autopilot as ap
    from .live.session import SessionError, SessionLog
    try:
        pilot = ap.with_flags(ap.load(args.autopilot), args.confirm, args.gates, args.ask_all, args.spare,
                              args.compels)
        if args.save:
            check_output(args.save, "--save", args.force, inputs=[args.resume] if args.resume else ())
        if args.resume:
            _check_resume_flags(args, SessionLog.load(args.resume), controls)
        else:
            controllers_for(load_scene(args.scene, rules=args.rules), {k: v for k, v in controls.items() if v != "human"})
            if args.seed is None:
                args.seed = fresh_seed()
    except (ap.AutopilotError, UnknownController, SessionError, OutputPathError) as exc:
        raise _TableRefused(str(exc)) from None
    return pilot


def _announce(args: argparse.Namespace, s: Any, links: Any, port: int) -> None:
    """The GM's terminal once the server listens: the table and every link (a wildcard bind: this
    machine's network address, which a phone can open)."""
    from .content.safe_text import printable
    from .web.server import links_text, reachable
    at = reachable(args.host)
    base = f"http://{f'[{at}]' if ':' in at else at}:{port}"
    print(printable(f"{s.scene.title} (seed {s.log.seed}) at the table; Ctrl-C stops the server (the session is saved)"))
    print("\n".join(links_text(links, base, {cid: s.narrator.name(cid) for cid in links.pcs})), flush=True)


def _close_table(host: Any, save: str | None) -> None:
    """The server stopped: no change is taken after this, ``--save`` is written (said in the terminal),
    the session's files are released."""
    from .live.session import finish_session
    host.stop()
    s = host.session
    s.out = sys.stdout  # what the session says from here on (its save) is the GM's to read, not the pages'
    try:
        finish_session(s, save, sys.stdout)
    finally:
        s.release()


def cmd_replay(args: argparse.Namespace) -> int:
    from .content.paths import OutputPathError, check_output, write_atomically
    from .live.report import ReplayError, markdown, narration, rebuild
    try:
        if args.out:
            check_output(args.out, "--out", args.force, inputs=[args.log])
        engine = rebuild(args.log)
    except (ReplayError, OutputPathError) as exc:
        return _fail(str(exc))
    from .content.safe_text import printable
    text = markdown(engine) if args.markdown else "\n".join(narration(engine, reasons=not args.quiet)) + "\n"
    text = printable(text, keep="\n")  # names from files: their escape codes shown, not obeyed
    if args.out:
        try:
            write_atomically(args.out, text)
        except OSError as exc:
            return _fail(f"--out {args.out}: {exc.strerror or exc}")
        print(f"wrote {args.out}")
    else:
        sys.stdout.write(text)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from .content.importers import ImportError_, read, scene_fragment
    from .content.paths import OutputPathError, check_output, write_atomically
    try:
        if args.out:
            check_output(args.out, "--out", args.force, inputs=args.files)
        chars = [c for path in args.files for c in read(path)]
        frag = scene_fragment(chars, args.kind, args.side, args.zone, rules=args.rules, count=args.count)
    except (ImportError_, OutputPathError) as exc:
        return _fail(str(exc))
    except SceneError as exc:
        return _fail(f"the imported characters do not make a valid scene: {exc}")
    if args.strict and frag.unmapped:
        for n in frag.unmapped:
            print(f"# not imported: {n}", file=sys.stderr)
        return _fail(f"--strict: {len(frag.unmapped)} thing(s) in {', '.join(args.files)} could not be mapped "
                     "(listed above); nothing written")
    if args.out:
        try:
            write_atomically(args.out, frag.text)
        except OSError as exc:
            return _fail(f"--out {args.out}: {exc.strerror or exc}")
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


def cmd_new(args: argparse.Namespace) -> int:
    from .content.scene_template import write
    load_rules(args.rules, "fate-npc new", "--rules")  # refused before anything is written
    from .content.paths import OutputPathError
    try:
        path = write(args.scene, rules=args.rules, force=args.force)
    except OutputPathError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"new {args.scene}: {exc.strerror or exc}")
    import shlex
    print(f"wrote {path}: a commented scene to edit; check it with `fate-npc validate {shlex.quote(str(path))}`")
    return 0


def cmd_scenes(args: argparse.Namespace) -> int:
    for name in list_scenes():
        s = load_scene(name)
        print(f"{name:18} {s.title}")
    return 0


def _default_train_config():
    from .content.scenes import config_dir
    return config_dir() / "train" / "default.yaml"


class _Parser(argparse.ArgumentParser):
    """One line on a bad flag, like every other error (``--help`` shows the usage)."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _add_validate(sub: Any) -> None:
    """``fate-npc validate``'s arguments."""
    v = sub.add_parser("validate", help="check a scene file")
    v.add_argument("scene")
    v.add_argument("--rules", help="rule set to check it under (condensed, core)")
    v.set_defaults(func=cmd_validate)


def _add_resolve(sub: Any) -> None:
    """``fate-npc resolve``'s arguments."""
    r = sub.add_parser("resolve", help="play a conflict, contest or challenge to its end and narrate it")
    r.add_argument("scene")
    r.add_argument("--seed", type=_seed, help="the dice's seed (default: a fresh one, printed)")
    r.add_argument("--rules", help="rule set: condensed (default) or core")
    r.add_argument("--control", action="append", default=[], metavar="SIDE|CHARACTER=POLICY",
                   help="who plays whom: random, basic (repeatable)")
    r.add_argument("--json", action="store_true", help="print the outcome record and the event log as JSON")
    r.add_argument("--quiet", action="store_true", help="leave out the controllers' reasons")
    r.set_defaults(func=cmd_resolve)


def _add_eval(sub: Any) -> None:
    """``fate-npc eval``'s arguments."""
    e = sub.add_parser("eval", help="cross-play policies on a two-sided scene: win rates with intervals, ratings")
    e.add_argument("scene")
    e.add_argument("--policies", required=True, help="comma-separated, e.g. basic,brute,tactician,random")
    e.add_argument("--vs", help="the second side's policies (the columns), when they differ from --policies, "
                                "e.g. a model that only plays one side")
    e.add_argument("-n", type=_count, default=100, help="episodes per cell (paired seeds)")
    e.add_argument("--workers", type=_workers, default=1,
                   help="processes sharing the episodes (the table is the same for any count)")
    e.add_argument("--seed", type=_seed, default=0)
    e.add_argument("--rules")
    e.add_argument("--dial", action="append", metavar="KEY=VALUE",
                   help="a rule dial over the rule set, e.g. exploit_opposition=foe_in_zone (repeatable)")
    e.add_argument("--json", action="store_true")
    e.set_defaults(func=cmd_eval)


def _add_train(sub: Any) -> None:
    """``fate-npc train``'s arguments."""
    t = sub.add_parser("train", help="train one side with MaskablePPO (needs the train extra)")
    t.add_argument("scene")
    t.add_argument("--side", help="the side that learns (default: the first NPC side)")
    t.add_argument("--opponent",
                   help="who plays the other sides: a policy name or ppo:PATH; several, comma-separated, "
                        "for one of them per episode (default basic)")
    t.add_argument("--timesteps", type=_count, default=100_000)
    t.add_argument("--out", default="runs/model.zip", help="the model to write (and PATH.json, its sidecar)")
    t.add_argument("--force", action="store_true", help="replace the --out model and its sidecar if they exist")
    t.add_argument("--config", help="the training config (default: configs/train/default.yaml, which teaches a first "
                                    "run to fight; with --ray, configs/train/ray.yaml)")
    t.add_argument("--self-play", action="store_true", help="play against frozen snapshots of itself")
    t.add_argument("--league", action="store_true",
                   help="train against a league: the config's league population (every scripted policy and "
                        "search by default), snapshots of the learner and exploiters trained against it, "
                        "the ones it loses to drawn most")
    t.add_argument("--init", help="start from this saved model's weights (same scene maxima and net_arch)")
    t.add_argument("--ray", metavar="ADDRESS",
                   help="train on Ray RLlib's multi-agent PPO instead of SB3: a cluster's address (auto, "
                        "ray://head:10001) or local; --envs sets the env runners (needs the cluster extra)")
    t.add_argument("--envs", type=_workers, default=1,
                   help="environments stepping together in this process, one policy forward for all (default 1)")
    t.add_argument("--subprocess-envs", action="store_true",
                   help="step the --envs environments in processes of their own (SB3's SubprocVecEnv: for "
                        "machines with cores to spare; each process imports torch and the engine)")
    t.add_argument("--torch-threads", type=_count, default=1,
                   help="torch threads in the learner's process (default 1: fastest on a small shared machine)")
    t.add_argument("--seed", type=_seed, default=0)
    t.add_argument("--rules")
    t.add_argument("--json", action="store_true")
    t.add_argument("--quiet", action="store_true")
    t.set_defaults(func=cmd_train)


def _add_export(sub: Any) -> None:
    """``fate-npc export``'s arguments."""
    xp = sub.add_parser("export", help="write a trained model's policy only (no value net, no optimizer): "
                                      "what an NPC needs to play, loadable as ppo:PATH without torch")
    xp.add_argument("model", help="a model saved by fate-npc train (PATH.zip, with its .json sidecar)")
    xp.add_argument("out", help="the policy-only file to write (its sidecar is copied beside it)")
    xp.add_argument("--force", action="store_true", help="replace OUT (and its sidecar) if they exist")
    xp.set_defaults(func=cmd_export)


def _add_exploit(sub: Any) -> None:
    """``fate-npc exploit``'s arguments."""
    x = sub.add_parser("exploit", help="train a best response against an NPC (and baselines): what it concedes")
    x.add_argument("model", help="the NPC: ppo:PATH, a model's PATH.zip, or a scripted policy (then --scene)")
    x.add_argument("--side", required=True, help="the side the NPC plays; the best response plays the other")
    x.add_argument("--scene", help="the scene (default: the one in the model's .json sidecar)")
    x.add_argument("--baseline", default="basic",
                   help="NPC policies to measure the same way, comma-separated (default: basic)")
    x.add_argument("--timesteps", type=_count, default=100_000, help="each best response's training budget")
    x.add_argument("--config", default=str(_default_train_config().with_name("exploit.yaml")))
    x.add_argument("--episodes", type=_count, help="fresh seeds for each win rate (default: the config's)")
    x.add_argument("--out-dir", default="runs/exploit", help="where the best responses are saved")
    x.add_argument("--envs", type=_workers, default=1)
    x.add_argument("--torch-threads", type=_count, default=1)
    x.add_argument("--seed", type=_seed, help="the best responses' seed (default 0)")
    x.add_argument("--seeds", type=_seeds, help="several seeds, e.g. 0,1,2: a best response per seed for every NPC, "
                                                 "each run reported and pooled (a seed is one draw of the figure)")
    x.add_argument("--rules")
    x.add_argument("--json", action="store_true")
    x.add_argument("--quiet", action="store_true")
    x.set_defaults(func=cmd_exploit)


def _add_bench(sub: Any) -> None:
    """``fate-npc bench``'s arguments."""
    b = sub.add_parser("bench", help="run a scene many times: win rates with intervals, sweeps, tuning")
    b.add_argument("scene")
    b.add_argument("-n", type=_count, default=1000, help="episodes per variant")
    b.add_argument("--ci-width", type=float, help="run until every variant's win-rate interval is narrower")
    b.add_argument("--seed", type=_seed, default=0)
    b.add_argument("--rules")
    b.add_argument("--control", action="append", default=[], metavar="SIDE|CHARACTER=POLICY")
    b.add_argument("--vary", action="append", default=[], metavar="PATH=VALUES",
                   help="e.g. characters.og.skills.Fight=2..5, characters.thugs.count=2,4,6, rules.weapons=on,off")
    b.add_argument("--tune", metavar="PATH", help="the integer field to tune (with --target-win)")
    b.add_argument("--target-win", type=_rate, metavar="RATE", help="the PCs' win rate to aim for, e.g. 0.7")
    b.add_argument("--json", metavar="FILE", help="write the raw per-episode records")
    b.add_argument("--csv", metavar="FILE")
    b.add_argument("--plot", metavar="FILE.png")
    b.add_argument("--force", action="store_true", help="replace --json, --csv or --plot files that exist")
    b.add_argument("--workers", type=_workers, default=1)
    b.add_argument("--ray", metavar="ADDRESS|auto", help="run the episodes as Ray tasks (the cluster extra)")
    b.add_argument("--engine", choices=["auto", "fast", "reference"], default="auto",
                   help="auto: the fast core when it covers the scene and controllers (the fast extra), "
                        "else the reference engine")
    b.set_defaults(func=cmd_bench)


def _seconds(text: str) -> float:
    """argparse type for --budget: seconds, a number above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, e.g. 300, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, got {text}")
    return value


def _add_design(sub: Any) -> None:
    ln = sub.add_parser("learn", help="make the general learned NPC: search's turns on generated scenes, cloned, "
                                      "then improved by self-play (needs the train extra)")
    ln.add_argument("--out", required=True, metavar="FILE",
                    help="the policy file to write (learned:FILE plays it); its sidecar (.json) goes beside it")
    ln.add_argument("--force", action="store_true", help="replace the file and its sidecar if they exist")
    ln.add_argument("--fights", type=_count, default=760,
                    help="generated fights the fast core plays (default 760); with --distill, the fights the file plays")
    ln.add_argument("--slow-fights", type=int, default=60,
                    help="generated fights only the Python engine plays, where the generator makes any (default 60)")
    ln.add_argument("--most", type=_count, default=20, help="turns recorded per slow fight (default 20)")
    ln.add_argument("--first-seed", type=_seed, default=10000, help="the first generated scene (default 10000)")
    ln.add_argument("--epochs", type=_count, default=15, help="passes over the recorded turns per cloning (default 15)")
    ln.add_argument("--width", type=_count, default=64, help="the network's width (default 64)")
    ln.add_argument("--seed", type=_seed, default=0, help="the network's first weights and the batches' order")
    ln.add_argument("--workers", type=_count, default=2, help="processes recording the teacher (default 2)")
    ln.add_argument("--torch-threads", type=_count, default=1,
                    help="torch's threads while cloning (default 1: the same file on every run)")
    ln.add_argument("--rounds", type=_count, default=2, help="rounds: the first records search playing, each "
                                                          "next one the network so far, search labelling (default 2)")
    ln.add_argument("--dagger-fights", type=_count, default=500,
                    help="generated fights each round after the first records (default 500)")
    ln.add_argument("--recording", metavar="DIR", help="each round's recording (round-N.npz): read when there, "
                                                       "else recorded and written there")
    ln.add_argument("--start", metavar="FILE", help="begin from this learned policy file's network instead of "
                                                   "imitating search (the recording rounds are skipped)")
    ln.add_argument("--distill", metavar="FILE", help="learn a learned policy file's own turns instead of search's: "
                                                     "it plays --fights fights of the self-play scenes, and a fresh "
                                                     "network of --width clones it (a narrower one is cheaper)")
    ln.add_argument("--helper", metavar="SCRIPT",
                    help="the scripted policy the written file plays beside its network: it answers the decisions "
                         "the network does not make, and its move is the one the network reads (default: the "
                         "--start or --distill file's, else basic; the shipped file's is spender)")
    ln.add_argument("--rehearse", metavar="SCRIPTS",
                    help="other helpers the written file may play beside, comma-separated (e.g. stacker): before its "
                         "first decision in a scene it plays the scene through with each against the scripted PC "
                         "policies and keeps the one that won most (default: the --start or --distill file's; none: "
                         "no other helper)")
    ln.add_argument("--outright", metavar="SCRIPTS",
                    help="scripts the written file's rehearsal may also pick to play its side outright, the network "
                         "playing no turn, comma-separated (e.g. counter); kept only on scenes where they won more "
                         "(default: the --start or --distill file's; none: no such line)")
    ln.add_argument("--rehearse-fights", type=_count, default=None, metavar="N",
                    help="a rehearsal's fights per line and PC policy (default: the --start or --distill file's, "
                         "else 8)")
    ln.add_argument("--self-play", type=_seed, default=500, metavar="N",
                    help="then N iterations of self-play against the scripts and past selves (default 500; 0: "
                         "imitation only)")
    ln.add_argument("--self-play-scenes", type=_count, default=16, help="close generated scenes per iteration (default 16)")
    ln.add_argument("--self-play-group", type=_count, default=8,
                    help="fights per scene, one opponent, each on its own dice (default 8; at least 2)")
    ln.add_argument("--temperature", type=_positive, default=0.5,
                    help="how widely self-play draws the NPCs' turns from the network (default 0.5)")
    ln.add_argument("--self-play-lr", type=_positive, default=3e-4, help="self-play's step size (default 0.0003)")
    ln.add_argument("--self-play-keep", metavar="DIR", help="also keep the network at each snapshot (every 10 "
                                                          "iterations) in DIR, to measure the run's course")
    ln.add_argument("--json", action="store_true", help="the sidecar on stdout, progress on stderr")
    ln.set_defaults(func=cmd_learn)

    d = sub.add_parser("design", help="design a side's NPCs for a target win rate, no PC left behind "
                                      "(needs the design extra)")
    d.add_argument("scene")
    d.add_argument("--side", required=True, help="the side to design (the NPCs' side)")
    d.add_argument("--target-win", type=_rate, required=True, metavar="RATE",
                   help="the PCs' win rate to aim for, e.g. 0.7 or 70%%")
    d.add_argument("--out", metavar="FILE", help="the designed scene file (default: SCENE_designed.yaml here); "
                                                 "its report (.report.md) and plot (.png) go beside it")
    d.add_argument("--force", action="store_true", help="replace the outputs if they exist")
    from .design.defaults import DEFAULT_BUDGET, DEFAULT_TRIALS
    d.add_argument("--budget", type=_seconds, default=DEFAULT_BUDGET, metavar="SECONDS",
                   help=f"stop the search after this long (default {DEFAULT_BUDGET:g}); it says how to repeat it exactly")
    d.add_argument("--trials", type=_count, default=DEFAULT_TRIALS, metavar="N",
                   help=f"candidates to judge (default {DEFAULT_TRIALS}): the same seed and trials give the same design")
    d.add_argument("--seed", type=_seed, default=0)
    d.add_argument("--rules")
    d.add_argument("--control", action="append", default=[], metavar="SIDE|CHARACTER=POLICY",
                   help="who plays whom in the judged fights (as bench)")
    d.set_defaults(func=cmd_design)


def _add_play(sub: Any) -> None:
    """``fate-npc play``'s arguments."""
    pl = sub.add_parser("play", help="a live session: the players decide for their PCs, the tool plays the NPCs")
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
    pl.add_argument("--seed", type=_seed, help="the dice's seed (default: a fresh one, printed)")
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
    pl.set_defaults(func=cmd_play)


COMPELS_HELP = ("the NPCs' side proposes compels of the PCs' troubles and consequences, each a GM gate: the GM "
                "offers it or not, the player accepts or refuses (default: configs/autopilot.yaml)")
SPARE_HELP = ("PC ids (comma-separated) whose players let the autopilot take a hit the cheapest way when it "
              "marks stress only; the others choose how to take every hit (default: configs/autopilot.yaml)")


def _add_serve(sub: Any) -> None:
    """``fate-npc serve``'s arguments."""
    sv = sub.add_parser("serve", help="the live table in a browser: the GM's page and a page per player")
    sv.add_argument("scene", nargs="?", default=None)
    sv.add_argument("--seed", type=_seed, help="the dice's seed (default: a fresh one, printed)")
    sv.add_argument("--port", type=_port, default=8765, help="the port (default 8765; 0: any free one)")
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
    sv.set_defaults(func=cmd_serve)


def _add_replay(sub: Any) -> None:
    """``fate-npc replay``'s arguments."""
    rp = sub.add_parser("replay", help="tell a saved fight again (a play --save session or a resolve --json log)")
    rp.add_argument("log", help="a session save or the JSON of fate-npc resolve --json")
    rp.add_argument("--markdown", action="store_true", help="a fight report in Markdown (campaign logs, VTT chat)")
    rp.add_argument("--out", metavar="FILE", help="write it to FILE instead of printing it")
    rp.add_argument("--quiet", action="store_true", help="leave out the controllers' reasons")
    rp.add_argument("--force", action="store_true", help="replace the --out FILE if it exists")
    rp.set_defaults(func=cmd_replay)


def _add_import(sub: Any) -> None:
    """``fate-npc import``'s arguments."""
    im = sub.add_parser("import", help="characters from Foundry VTT (Fate Core Official) or Fari files, as a "
                                        "scene's characters: block")
    im.add_argument("files", nargs="+", metavar="FILE", help="a Foundry actor export (JSON) or a Fari character file")
    im.add_argument("--kind", choices=["pc", "major", "minor", "mob"], default="major",
                    help="what they are in the scene (default major)")
    im.add_argument("--count", type=_mob_count, help="with --kind mob: how many members (default 3)")
    im.add_argument("--side", default="npcs", help="their side (default npcs)")
    im.add_argument("--zone", default="here", help="the zone they start in (default here)")
    im.add_argument("--rules", help="the rule set to check them under (stress boxes, consequence slots)")
    im.add_argument("--out", metavar="FILE", help="write the YAML to FILE instead of printing it")
    im.add_argument("--force", action="store_true", help="replace the --out FILE if it exists")
    im.add_argument("--strict", action="store_true",
                    help="refuse the files (write nothing) if anything in them could not be mapped")
    im.set_defaults(func=cmd_import)


def _add_rules(sub: Any) -> None:
    """``fate-npc rules``'s arguments."""
    ru = sub.add_parser("rules", help="list the rule sets and every dial: values, choices, where the texts set it")
    ru.add_argument("--json", action="store_true")
    ru.set_defaults(func=cmd_rules)


def _add_scenes(sub: Any) -> None:
    """``fate-npc scenes``'s arguments."""
    s = sub.add_parser("scenes", help="list the shipped scenes")
    s.set_defaults(func=cmd_scenes)


def _add_new(sub: Any) -> None:
    """``fate-npc new``'s arguments."""
    nw = sub.add_parser("new", help="write a commented scene file to start from")
    nw.add_argument("scene", help="the file to write (.yaml added if it has no suffix)")
    nw.add_argument("--rules", default="condensed", help="the rule set it names (condensed, core, fate2, fate3)")
    nw.add_argument("--force", action="store_true", help="replace the file if it exists")
    nw.set_defaults(func=cmd_new)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="fate-npc", description="Plays the NPCs of a Fate conflict.")
    sub = p.add_subparsers(dest="command", required=True)
    for add in (_add_validate, _add_resolve, _add_eval, _add_train, _add_export, _add_exploit, _add_bench, _add_design,
                _add_play,
                _add_serve, _add_replay, _add_import, _add_rules, _add_scenes, _add_new):
        add(sub)
    for command in sub.choices.values():  # every command: full SB3 saves load (and run their code) from anywhere
        command.add_argument("--trust-models", action="store_true",
                             help="let ppo:FILE load full Stable-Baselines3 saves not written by training here: "
                                  "loading one unpickles it, which runs any code its author put in it")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if getattr(args, "trust_models", False):
        import os

        from .content.policy_file import TRUST_ENV
        os.environ[TRUST_ENV] = "1"  # workers started from here inherit it
    if args.command in ("play", "serve") and args.scene is None and not args.resume:
        return _fail(f"{args.command}: expected a SCENE (or --resume FILE)")
    from .content.policies import PolicyFileError
    try:
        return args.func(args)
    except (SceneError, UsageError, PolicyFileError) as exc:
        return _fail(str(exc))
    except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:  # standard output full or gone (> /dev/full), or a file that vanished mid-run
        import os
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to flush at exit
        if exc.filename:
            return _fail(f"{args.command}: {exc.filename}: {exc.strerror or exc}")
        return _fail(f"{args.command}: cannot write to standard output ({exc.strerror or exc})")
    except KeyboardInterrupt:  # outputs are written whole or not at all (paths.atomic_open)
        print(f"\nfate-npc: interrupted; {args.command} stopped, and no file was left half-written",
              file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
