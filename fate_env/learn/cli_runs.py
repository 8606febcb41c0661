"""The trainer's commands run: ``train``, ``export``, ``exploit`` and ``learn`` (their arguments are
declared in ``cli_commands``); what to install when the train extra is missing, said in one line. The
modules that need torch are imported once it is known to be there."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from agents.base import make_controller

from ..content import command_line as cl
from ..content.paths import OutputPathError, check_output
from ..content.policy_file import check_model_file, export
from ..content.scenes import load_scene
from ..evaluation.cluster import ClusterError, check_address
from ..evaluation.pools import WorkerDied
from .league import league_settings
from .cli_commands import default_train_config
from .train_run import TrainRun


#: what `train` and `exploit` need, said in one line when it is missing
TRAIN_EXTRA = ("pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu "
               "&& pip install -e '.[train]' (the CPU build of torch is all training needs)")


def _missing_train_extra(command: str) -> str | None:
    """One line saying what to install, if torch, Stable-Baselines3 or sb3-contrib is missing."""
    missing = cl.absent("torch", "stable_baselines3", "sb3_contrib")
    if not missing:
        return None
    return f"{command} needs the train extra ({', '.join(missing)} not installed): {TRAIN_EXTRA}"


def _needs_torch():
    """The training module, imported only once the train extra is known to be there (it needs torch)."""
    from . import training
    return training


def cmd_train(args: argparse.Namespace) -> int:
    if (missing := _missing_train_extra("train")) is not None:
        return cl.fail(missing)
    train = _needs_torch().train
    load_scene(args.scene, rules=args.rules)  # a bad scene fails here, before any training
    try:
        config = _train_config(args)
        _train_outputs(args)
    except _TrainRefused as exc:
        return cl.fail(str(exc))
    if args.ray:
        return _train_on_ray(args, config)
    try:
        with cl.progress_to_stderr(args.json):
            result = train(TrainRun(
                args.scene, args.side, args.opponent or "basic", args.timesteps, args.out, config, seed=args.seed,
                self_play=args.self_play, rules=args.rules, verbose=0 if args.quiet else 1, init=args.init,
                envs=args.envs, torch_threads=args.torch_threads, league=args.league,
                subprocess_envs=args.subprocess_envs))
    except ValueError as exc:
        return cl.fail(str(exc))
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
    load_config = _needs_torch().load_config
    if args.config is None:
        args.config = str(default_train_config().with_name("ray.yaml") if args.ray else default_train_config())
    try:
        config = load_config(args.config)
        if args.league and args.opponent is not None:
            raise ValueError("--league draws the opponents from the config's league population; drop --opponent")
        if args.league:
            opponents = league_settings(config.get("league"), f"{args.config}: league")["opponents"]
        else:
            opponents = (args.opponent or "basic").split(",")
        for name in opponents:
            make_controller(name.strip())
    except Exception as exc:  # noqa: BLE001 - reported as one line
        raise _TrainRefused(str(exc)) from None
    if args.timesteps < 1:
        raise cl.UsageError(f"--timesteps: expected a positive number, got {args.timesteps}")
    if args.init and not Path(args.init).exists():
        raise _TrainRefused(f"--init {args.init}: no such model file")
    return config


def _train_outputs(args: argparse.Namespace) -> None:
    """The model and its sidecar checked now, not after an hour of training."""
    card = Path(args.out).with_suffix(".json")
    if cl.stdout_is(card):  # the report printed at the end would overwrite the model's sidecar
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


def _train_on_ray(args: argparse.Namespace, config: dict) -> int:
    """``train --ray ADDRESS``: RLlib's multi-agent PPO (fate_env/learn/ray_training.py)."""
    unsupported = [flag for flag, on in (("--league", args.league), ("--self-play", args.self_play),
                                         ("--init", args.init)) if on]
    unsupported += [f"{key} in the config" for key in ("imitate", "learn", "league", "self_play") if config.get(key)]
    if unsupported:
        return cl.fail(f"--ray trains every decision of the side against scripted opponents; it does not take "
                     f"{', '.join(unsupported)} (SB3's path does)")
    try:
        check_address(args.ray)  # seconds, not the minutes ray.init would retry for
    except ClusterError as exc:
        return cl.fail(str(exc))
    try:
        from .ray_training import train_ray
    except ImportError as exc:
        return cl.fail(f"--ray needs the cluster extra (pip install -e '.[cluster,train]'): {exc}")
    try:
        result = train_ray(TrainRun(args.scene, args.side, args.opponent or "basic", args.timesteps, args.out,
                                    config, seed=args.seed, rules=args.rules, envs=args.envs,
                                    verbose=0 if args.quiet else 1), args.ray)
    except ValueError as exc:
        return cl.fail(str(exc))
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


def cmd_export(args: argparse.Namespace) -> int:
    try:
        if check_model_file(args.model, require_trust=False) == "policy":
            return cl.fail(f"{args.model}: already a policy-only file; play it as ppo:{args.model} (nothing to export)")
        check_output(args.out, "--out", args.force, inputs=[args.model])
        card = Path(args.out).with_suffix(".json")
        if Path(args.model).with_suffix(".json").exists():
            check_output(card, "the sidecar of --out", args.force, inputs=[Path(args.model).with_suffix(".json")])
        info = export(args.model, args.out)
    except ImportError as exc:
        return cl.fail(f"export reads an SB3 model: it needs the train extra ({exc})")
    except (ValueError, OSError) as exc:
        return cl.fail(str(exc))
    print(f"{info['model']}: the policy of {args.model} only ({info['hidden_layers']} hidden layers, "
          f"{info['observations']} observations, {info['actions']} actions), {info['bytes'] / 1e6:.2f} MB")
    return 0


def cmd_exploit(args: argparse.Namespace) -> int:
    if (missing := _missing_train_extra("exploit")) is not None:
        return cl.fail(missing)

    from .exploit import ExploitRun, exploit, format_report, npc_spec  # torch: after the check above
    load_config = _needs_torch().load_config

    model = npc_spec(args.model)
    scene = args.scene
    if model.startswith("ppo:"):
        card = Path(model[4:]).with_suffix(".json")
        if not Path(model[4:]).exists():
            return cl.fail(f"{args.model}: no such model file")
        if scene is None and card.exists():
            scene = json.loads(card.read_text()).get("scene")
    if scene is None:
        raise cl.UsageError("--scene: needed for a scripted NPC (a model's .json sidecar names its scene)")
    if args.timesteps < 1:
        raise cl.UsageError(f"--timesteps: expected a positive number, got {args.timesteps}")
    if args.seeds and args.seed is not None:
        raise cl.UsageError("--seed and --seeds: give one (--seeds 0,1,2 trains a best response per seed)")
    baselines = [b.strip() for b in args.baseline.split(",") if b.strip()]
    try:
        load_scene(scene, rules=args.rules)
        config = load_config(args.config)
        for spec in [model, *baselines]:
            make_controller(npc_spec(spec))
        with cl.progress_to_stderr(args.json):
            report = exploit(ExploitRun(scene, model, args.side, args.timesteps, config, args.out_dir, baselines,
                                        seed=args.seed or 0, rules=args.rules, verbose=0 if args.quiet else 1,
                                        envs=args.envs, torch_threads=args.torch_threads, episodes=args.episodes,
                                        seeds=args.seeds))
    except ValueError as exc:
        return cl.fail(str(exc))
    return cl.show(report, args.json, format_report)


def cmd_learn(args: argparse.Namespace) -> int:
    if cl.absent("torch"):
        return cl.fail(f"learn needs the train extra (torch not installed): {TRAIN_EXTRA}")
    from . import general_command as G  # torch and the fast core: after the check above
    try:
        info = G.run(args, log=lambda line: print(line, file=sys.stderr if args.json else sys.stdout, flush=True))
    except (G.Refused, WorkerDied) as exc:
        return cl.fail(str(exc))
    if args.json:
        json.dump(info, sys.stdout, indent=1)
        print()
    return 0
