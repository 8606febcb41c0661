"""``fate-npc train``: MaskablePPO for one side of a scene, with logs and a closing evaluation.

The opponents are any controller (``basic``, ``tactician``, ...); with
``self_play`` they become a frozen snapshot of the learner, refreshed every
``snapshot_every`` steps. Logs go to ``<out>.log/`` as CSV (and TensorBoard when it
is installed); SB3's progress table is printed as it trains.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import REGISTRY, make_controller

from ..content.paths import atomic_open, write_atomically
from ..content.policy_file import ModelFileError, check_model_file, trust
from ..content.safe_text import excerpt
from ..content.scenes import rule_dials, scene_digest
from ..content.yaml_input import load_file
from ..environment.single_agent import FateSingleAgentEnv
from ..evaluation.pools import interrupts_held
from ..evaluation.stats import wilson
from .imitation import clone, record
from .league import league_settings, shown
from .train_run import TrainRun

TRAIN_KEYS = {"policy", "net_arch", "n_steps", "batch_size", "n_epochs", "learning_rate", "gamma", "ent_coef",
              "reward", "self_play", "eval_episodes", "learn", "helper", "outcome", "imitate", "actions",
              "league"}
IMITATE_KEYS = {"policy", "episodes", "epochs"}


#: the first seed of the closing evaluation (seeds no training episode used); exploit.py
#: measures the scripted policies on the same ones
EVAL_SEED = 100_000


#: how many configs one ``inherits:`` chain may hold
MAX_INHERITS = 8


def read_config(path: str | Path, chain: tuple[Path, ...] = ()) -> dict[str, Any]:
    """A config's keys over those of the config it ``inherits:`` (a file beside it, itself read
    this way): a key it states replaces the inherited one whole (a ``reward`` mapping included)."""
    data = load_file(path, "training config") or {}
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping of training keys, got {type(data).__name__}")
    parent = data.pop("inherits", None)
    if parent is None:
        return data
    if not isinstance(parent, str) or not parent or "/" in parent or "\\" in parent:
        raise ValueError(f"{path}: inherits: expected the file name of a config beside it (e.g. ppo.yaml), "
                         f"got {str(parent)[:60]!r}")
    here = Path(path).resolve()
    base = here.parent / parent
    if base.resolve() in (*chain, here):
        raise ValueError(f"{path}: inherits: {str(parent)[:60]!r} inherits back from {Path(path).name}; expected a chain "
                         "that ends")
    if len(chain) >= MAX_INHERITS:
        raise ValueError(f"{path}: inherits: a chain of over {MAX_INHERITS} configs")
    try:
        found = base.is_file()
    except OSError as exc:  # a name the file system refuses (too long, ...): not a config beside it
        raise ValueError(f"{path}: inherits: {str(parent)[:60]!r} is not a file name ({exc.strerror})") from None
    if not found:
        raise ValueError(f"{path}: inherits: no config {str(parent)[:60]!r} beside it")
    return {**read_config(base, (*chain, here)), **data}


def load_config(path: str | Path) -> dict[str, Any]:
    """A training config, resolved (``inherits:``) and checked: keys, values, the league's and
    the imitation's settings."""
    data = read_config(path)
    unknown = sorted(set(data) - TRAIN_KEYS)
    if unknown:
        names = ", ".join(excerpt(repr(k) if not str(k).isprintable() else str(k), 40) for k in unknown)
        raise ValueError(f"{path}: unknown training key(s) {names}; expected some of "
                         f"{', '.join(sorted(TRAIN_KEYS))}")
    for key, value in data.items():
        problem = _bad_value(key, value)
        if problem:
            raise ValueError(f"{path}: {key}: {problem}, got {excerpt(repr(value), 60)}")
    imitate = data.get("imitate")
    if imitate is not None:
        if not isinstance(imitate, dict) or "policy" not in imitate or set(imitate) - IMITATE_KEYS:
            raise ValueError(f"{path}: imitate: expected a mapping with 'policy' (a scripted controller) and "
                             f"optionally 'episodes' and 'epochs', got {shown(imitate)}")
    if "league" in data:
        exploiters = league_settings(data["league"], f"{path}: league")["exploiter_config"]
        if "league" in load_config(exploiters):  # the exploiters' own config is checked now, not mid-run
            raise ValueError(f"{path}: league.exploiter_config: {exploiters} trains a league itself; an "
                             f"exploiter is one best response (e.g. exploit.yaml, exploit_stacker.yaml)")
    actions = data.get("actions", "full")
    if actions not in ("full", "compact") or (actions == "compact" and not data.get("learn")):
        raise ValueError(f"{path}: actions: expected 'full' or 'compact' (with 'learn': the decision kinds the "
                         f"learner makes), got {shown(actions)}")
    return data


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == value


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _layers(value: Any) -> bool:
    return isinstance(value, list) and 1 <= len(value) <= 16 and all(_whole(v, 1, 65_536) for v in value)


#: what each scalar key of a training config takes: (check, what is expected). A value out of
#: range would train silently on nonsense (gamma 5) or fail an hour in (batch_size 0).
VALUE_CHECKS: dict[str, tuple[Any, str]] = {
    "policy": (lambda v: v == "MlpPolicy", "expected MlpPolicy"),
    "net_arch": (lambda v: _layers(v) or (isinstance(v, dict) and set(v) == {"pi", "vf"}
                                          and all(_layers(x) for x in v.values())),
                 "expected a list of layer widths, e.g. [256, 256] (or {pi: [...], vf: [...]})"),
    "n_steps": (lambda v: _whole(v, 2, 10_000_000), "expected a whole number of steps from 2 to 10,000,000"),
    "batch_size": (lambda v: _whole(v, 2, 10_000_000), "expected a whole number from 2 (SB3 normalises "
                   "advantages over a batch) to 10,000,000"),
    "n_epochs": (lambda v: _whole(v, 1, 1000), "expected a whole number from 1 to 1000"),
    "learning_rate": (lambda v: _number(v) and 0 < v <= 1, "expected a number above 0, at most 1 (e.g. 0.0003)"),
    "gamma": (lambda v: _number(v) and 0 < v <= 1, "expected a discount above 0, at most 1 (e.g. 0.99)"),
    "ent_coef": (lambda v: _number(v) and 0 <= v <= 1, "expected a number from 0 to 1 (e.g. 0.01)"),
    "eval_episodes": (lambda v: _whole(v, 0, 1_000_000), "expected a whole number from 0 to 1,000,000"),
    "reward": (lambda v: v is None or (isinstance(v, dict) and all(isinstance(k, str) and _number(x)
                                                                   for k, x in v.items())),
               "expected a mapping of reward names to numbers, e.g. {unresolved: -1.0}"),
    "self_play": (lambda v: isinstance(v, dict) and set(v) <= {"snapshot_every"}
                  and _whole(v.get("snapshot_every", 1), 1, 10**9),
                  "expected {snapshot_every: STEPS}, STEPS a whole number >= 1"),
    "learn": (lambda v: v is None or (isinstance(v, list) and all(isinstance(x, str) for x in v)),
              "expected a list of decision kinds, e.g. [turn, respond]"),
    "helper": (lambda v: isinstance(v, str) and bool(v), "expected a scripted policy's name, e.g. basic"),
    "outcome": (lambda v: v in ("characters", "side"), "expected characters or side"),
}


def _bad_value(key: str, value: Any) -> str | None:
    """What is wrong with ``value`` for ``key`` (None when it fits, or the key has no scalar check)."""
    check = VALUE_CHECKS.get(key)
    if check is None or check[0](value):
        return None
    return check[1]


def evaluate(env, act, episodes: int, seed: int) -> dict[str, Any]:
    """Win rate of the learning side with ``act`` choosing its actions, on seeds seed..seed+episodes-1."""
    wins = 0
    for i in range(episodes):
        obs, _ = env.reset(seed=seed + i)
        done = env.over
        while not done:
            obs, _, term, trunc, _ = env.step(act(obs, env.action_masks()))
            done = term or trunc
        wins += env.episode_outcome.winner == env.side
    lo, hi = wilson(wins, episodes)
    return {"episodes": episodes, "wins": wins, "win_rate": wins / episodes, "ci95": [lo, hi]}


def warm_start(model, env, spec: dict[str, Any], seed: int, gamma: float, verbose: int) -> dict[str, Any]:
    """Behaviour cloning before PPO (fate_env/learn/imitation.py): the teacher plays the learner's decisions."""
    start = time.perf_counter()
    teacher = make_controller(str(spec["policy"]), seed)
    demos = record(env, teacher, int(spec.get("episodes", 500)), seed=1_000_000 + seed, gamma=gamma)
    fit = clone(model, demos, int(spec.get("epochs", 10)), seed=seed)
    info = {"teacher": str(spec["policy"]), "episodes": demos.episodes, "teacher_wins": demos.wins, **fit,
            "minutes": (time.perf_counter() - start) / 60}
    if verbose:
        print(f"imitation: {info['teacher']} over {demos.episodes} fights ({demos.wins} won), "
              f"{fit['samples']} decisions, agreement {fit['accuracy']:.1%}, value mse {fit['value_mse']:.3f}")
    return info


def make_env_fn(scene: str, side: str | None, opponent: str, config: dict[str, Any], rules: str | None,
                opponent_seed: int, core: str = "auto"):
    """A picklable factory of the training environment (for vectorised envs in other processes);
    ``core``: the engine behind it (``auto``: the fast core when it covers the scene and opponents)."""
    learn = tuple(config["learn"]) if config.get("learn") else None

    def make():
        # a config says what it trains with: no reward key is the PettingZoo env's own rewards, no
        # learn key every decision, no outcome key per character (the env's defaults are default.yaml's)
        return FateSingleAgentEnv(scene=scene, side=side, opponents=opponent, reward=dict(config.get("reward") or {}),
                                  rules=rules, opponent_seed=opponent_seed, learn=learn,
                                  helper=str(config.get("helper", "basic")),
                                  outcome=str(config.get("outcome", "characters")), controllers=REGISTRY,
                                  actions=str(config.get("actions", "full")), core=core)
    return make


def vector_env(scene: str, side: str | None, opponent: str, config: dict[str, Any], rules: str | None, seed: int,
               envs: int, subprocess: bool = False):
    """``envs`` copies of the training env (each seat's controllers seeded apart; the episodes' dice
    come from the vectorised env's seeds), stepped in this process one after another by default, so
    that one policy forward serves them all (issue 53: on two cores eight in one process trained at
    2.1-2.3x the learner steps per second of one, eight in processes at 0.34-0.51x: each worker
    imports torch, SB3 and numba); ``subprocess``: each in a process of its own (SB3's SubprocVecEnv),
    for machines with cores to spare."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    fns = [make_env_fn(scene, side, opponent, config, rules, seed + 7919 * i) for i in range(envs)]
    if envs <= 1 or not subprocess:
        return DummyVecEnv(fns)
    with interrupts_held():  # the env workers never see Ctrl-C: training stops them, in one line
        return SubprocVecEnv(fns, start_method="spawn")


def train(run: TrainRun) -> dict[str, Any]:
    """Train, save to ``run.out`` (+ ``.json`` sidecar), evaluate (see :class:`TrainRun`)."""
    import torch
    from stable_baselines3.common.vec_env import VecMonitor

    run.check()
    config = run.config
    settings = league_settings(config.get("league"), "league") if run.league else None
    opponent = ",".join(settings["opponents"]) if settings is not None else run.opponent
    torch.set_num_threads(max(1, int(run.torch_threads)))
    learn = tuple(config["learn"]) if config.get("learn") else None
    helper = str(config.get("helper", "basic"))
    env = make_env_fn(run.scene, run.side, opponent, config, run.rules, run.seed)()  # names, sidecar, imitation
    # episode returns and lengths into the log (rollout/ep_rew_mean, ep_len_mean): the learning curve
    venv = VecMonitor(vector_env(run.scene, run.side, opponent, config, run.rules, run.seed, run.envs,
                                 run.subprocess_envs))
    out_path = Path(run.out)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    log_dir = out_path.with_suffix(".log")
    model = _model(run, venv, log_dir)
    cloned = None
    if config.get("imitate"):
        cloned = warm_start(model, env, config["imitate"], run.seed, float(config.get("gamma", 0.99)), run.verbose)

    def sidecar(path: Path) -> None:
        write_sidecar(path, env, learn, helper)

    callback = league_cb = None
    if run.self_play:
        every = int(config.get("self_play", {}).get("snapshot_every", 20_000))
        callback = _snapshots(every, out_path, env, run.seed, sidecar)
    if settings is not None:
        from .league_training import LeagueCallback
        callback = league_cb = LeagueCallback(settings, env, out_path, sidecar, run.scene, run.rules, run.seed,
                                              run.verbose, train=train, load_config=load_config)
    start = time.perf_counter()
    model.learn(total_timesteps=run.timesteps, callback=callback)
    minutes = (time.perf_counter() - start) / 60
    venv.close()
    with atomic_open(out_path, "wb") as fh:  # an interrupt here leaves the earlier model, not half of one
        model.save(fh)
    trust(out_path)  # written here: ppo: may load it (policy_file: Trust)
    sidecar(out_path)

    results = {"scene": env.aec.scene.name, "side": env.side, "opponent": opponent, "timesteps": run.timesteps,
               "minutes": minutes, "envs": run.envs, "subprocess_envs": run.subprocess_envs,
               "self_play": run.self_play, "model": str(out_path), "logs": str(log_dir), "init": run.init,
               "engine": env.engine}
    if cloned is not None:
        results["imitation"] = cloned
    if league_cb is not None:
        results["league"] = league_cb.report()
        (log_dir / "league.json").write_text(json.dumps(results["league"], indent=1))
    episodes = int(config.get("eval_episodes", 300))
    if episodes > 0:
        results.update(_closing_evaluation(run, model, opponent, learn, helper, episodes))
    return results


def _model(run: TrainRun, venv: Any, log_dir: Path) -> Any:
    """The MaskablePPO learner of the run's config, logging to ``log_dir`` (CSV, the progress table
    when verbose, TensorBoard when installed), started from ``run.init``'s weights when given."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import configure

    config = run.config
    formats = ["stdout", "csv"] if run.verbose else ["csv"]
    try:
        import tensorboard  # noqa: F401  (only to know whether it is there)
        formats.append("tensorboard")
    except ImportError:
        pass
    model = MaskablePPO(
        config.get("policy", "MlpPolicy"), venv, seed=run.seed, verbose=run.verbose,
        n_steps=max(1, int(config.get("n_steps", 2048)) // run.envs), batch_size=int(config.get("batch_size", 256)),
        n_epochs=int(config.get("n_epochs", 10)), learning_rate=float(config.get("learning_rate", 3e-4)),
        gamma=float(config.get("gamma", 0.99)), ent_coef=float(config.get("ent_coef", 0.0)),
        policy_kwargs={"net_arch": list(config.get("net_arch", [64, 64]))}, device="cpu",
    )
    model.set_logger(configure(str(log_dir), formats))
    if run.init:
        _start_from(model, run.init)
    return model


def _start_from(model: Any, init: str) -> None:
    """``model`` takes the weights of the full save ``init`` (one ``fate-npc train`` wrote)."""
    try:
        if check_model_file(init) != "sb3":
            raise ValueError(f"--init {init}: a policy-only export holds no value network or optimizer; "
                             "expected the full save fate-npc train wrote")
    except ModelFileError as exc:
        raise ValueError(f"--init: {exc}") from None
    try:
        model.set_parameters(init, exact_match=True, device="cpu")
    except Exception as exc:  # noqa: BLE001 - SB3 raises several kinds for a model that does not fit
        raise ValueError(f"--init {init}: cannot start from this model ({exc}); it needs the same scene "
                         f"maxima and net_arch as the config") from exc


def write_sidecar(path: Path, env: Any, learn: tuple[str, ...] | None, helper: str) -> None:
    """Which decisions the model makes (the rest go to the helper) and its action space, for ppo:PATH."""
    scene = env.aec.scene
    write_atomically(path.with_suffix(".json"), json.dumps({"learn": list(learn) if learn else None, "helper": helper,
                                                     "scene": scene.name, "side": env.side,
                                                     "actions": env.actions, "rules": scene.rules.name,
                                                     "dials": rule_dials(scene.rules),
                                                     "scene_digest": scene_digest(scene)}))


def _snapshots(every: int, out_path: Path, env: Any, seed: int, sidecar: Any) -> Any:
    """Self-play's callback: every ``every`` steps the opponents become a frozen copy of the learner."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Snapshots(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.last = 0

        def _on_step(self) -> bool:
            if self.num_timesteps - self.last >= every:
                self.last = self.num_timesteps
                snap = out_path.with_name(out_path.stem + "_snapshot.zip")
                self.model.save(snap)
                trust(snap)  # written here: ppo: may load it (policy_file: Trust)
                sidecar(snap)  # the snapshot makes the learner's decisions only, with its action space
                others = {s: f"ppo:{snap}" for s in env.aec.scene.sides if s != env.side}
                self.training_env.env_method("set_opponents", others, seed)
            return True
    return Snapshots()


def _closing_evaluation(run: TrainRun, model: Any, opponent: str, learn: tuple[str, ...] | None, helper: str,
                        episodes: int) -> dict[str, Any]:
    """The trained seat against each opponent and ``random`` on seeds no training episode used, beside
    a seat that picks at random among the same legal actions."""
    rng = np.random.default_rng(run.seed)
    results = {}
    for name in dict.fromkeys([*(o.strip() for o in opponent.split(",")), "random"]):
        test_env = FateSingleAgentEnv(scene=run.scene, side=run.side, opponents=name, rules=run.rules,
                                      opponent_seed=10_000, learn=learn, helper=helper, controllers=REGISTRY,
                                      actions=str(run.config.get("actions", "full")))
        results[f"vs_{name}"] = evaluate(
            test_env, lambda o, m: int(model.predict(o, action_masks=m, deterministic=True)[0]), episodes, EVAL_SEED)
        results[f"random_seat_vs_{name}"] = evaluate(
            test_env, lambda o, m: int(rng.choice(np.flatnonzero(m))), episodes, EVAL_SEED)
    return results
