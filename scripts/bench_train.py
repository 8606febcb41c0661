"""Learner steps per second: the shipped warehouse training config on the real environment, and the
same PPO on a dummy environment with identical spaces (so the difference is the environment's share
of training time), with 1 environment and with N (`train --envs N`: in this process, the default,
and in processes of their own, `--subprocess-envs`).

    python scripts/bench_train.py [--config configs/train/side_shaped.yaml] [--steps 4096] [--envs 2]
                                  [--torch-threads 1] [--actions full|compact]

Every figure is measured in this run; the aim (issue 13) is an environment share under 25% and
training that uses every core.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402


class DummyEnv(gymnasium.Env):
    """The real env's spaces, a fixed mask with as many legal actions as the real one usually has,
    episodes as long as the real ones; no work at all."""

    def __init__(self, obs_shape: tuple[int, ...], n: int, legal: int, length: int):
        self.observation_space = spaces.Box(-10.0, 10.0, shape=obs_shape, dtype=np.float32)
        self.action_space = spaces.Discrete(n)
        self._obs = np.zeros(obs_shape, dtype=np.float32)
        self._mask = np.zeros(n, dtype=bool)
        self._mask[np.linspace(0, n - 1, max(1, legal)).astype(int)] = True
        self.length = max(1, length)
        self.t = 0

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        self.t = 0
        return self._obs, {}

    def step(self, action):
        self.t += 1
        done = self.t >= self.length
        return self._obs, 0.0, done, False, {}

    def action_masks(self) -> np.ndarray:
        return self._mask


def env_rate(make, steps: int) -> tuple[float, int, int]:
    """(learner steps/s with masked-random actions, median legal actions, mean steps per episode)."""
    env = make()
    rng = np.random.default_rng(0)
    legal, lengths, t, ep = [], [], 0, 0
    env.reset(seed=0)
    start = time.perf_counter()
    for _ in range(steps):
        mask = env.action_masks()
        legal.append(int(mask.sum()))
        _, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        t += 1
        if term or trunc:
            lengths.append(t)
            t, ep = 0, ep + 1
            env.reset(seed=ep)
    rate = steps / (time.perf_counter() - start)
    return rate, int(np.median(legal)), int(round(np.mean(lengths))) if lengths else steps


def ppo_rate(venv, config: dict, steps: int, envs: int, seed: int = 0) -> float:
    from sb3_contrib import MaskablePPO
    model = MaskablePPO(config.get("policy", "MlpPolicy"), venv, seed=seed, verbose=0, device="cpu",
                        n_steps=max(1, int(config.get("n_steps", 2048)) // envs),
                        batch_size=int(config.get("batch_size", 256)), n_epochs=int(config.get("n_epochs", 10)),
                        learning_rate=float(config.get("learning_rate", 3e-4)), gamma=float(config.get("gamma", 0.99)),
                        ent_coef=float(config.get("ent_coef", 0.0)),
                        policy_kwargs={"net_arch": list(config.get("net_arch", [64, 64]))})
    start = time.perf_counter()
    model.learn(total_timesteps=steps)
    return steps / (time.perf_counter() - start)


def main() -> None:
    import torch
    from stable_baselines3.common.vec_env import DummyVecEnv

    from fate_env.learn.training import load_config, make_env_fn, vector_env

    root = Path(__file__).resolve().parents[1]
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default=str(root / "configs" / "train" / "side_shaped.yaml"))
    ap.add_argument("--scene", default="warehouse")
    ap.add_argument("--side", default="smugglers")
    ap.add_argument("--opponent", default="basic")
    ap.add_argument("--steps", type=int, default=4096)
    ap.add_argument("--envs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--torch-threads", type=int, default=1)
    ap.add_argument("--actions", choices=["full", "compact"], help="override the config's action space")
    args = ap.parse_args()
    torch.set_num_threads(args.torch_threads)
    config = load_config(args.config)
    if args.actions:
        config["actions"] = args.actions
    make = make_env_fn(args.scene, args.side, args.opponent, config, None, 0)
    probe = make()
    obs_shape, n = probe.observation_space.shape, int(probe.action_space.n)
    env_only, legal, length = env_rate(make, 1500)
    ref_only, _, _ = env_rate(make_env_fn(args.scene, args.side, args.opponent, config, None, 0, "reference"), 1500)
    print(f"{args.scene} / {args.side} vs {args.opponent}, {Path(args.config).name}: observation {obs_shape[0]} floats, "
          f"Discrete({n}) ({config.get('actions', 'full')} actions), median {legal} legal actions, {length} learner steps an episode; "
          f"torch threads {args.torch_threads}, {os.cpu_count()} cores")
    engine = "fast core" if probe._fast is not None else "reference engine"
    print(f"environment alone (masked random), reference engine: {ref_only:8.0f} learner steps/s")
    print(f"environment alone (masked random), {engine:16s}: {env_only:8.0f} learner steps/s "
          f"({env_only / ref_only:.1f}x)")
    real = ppo_rate(vector_env(args.scene, args.side, args.opponent, config, None, 0, 1), config, args.steps, 1)
    dummy_fns = [lambda: DummyEnv(obs_shape, n, legal, length)]
    dummy = ppo_rate(DummyVecEnv(dummy_fns), config, args.steps, 1)
    share = 1 - real / dummy  # (time on the real env - time on the dummy) / time on the real env
    print(f"PPO on the real env, 1 env      : {real:8.0f} learner steps/s")
    print(f"PPO on a dummy env, same spaces : {dummy:8.0f} learner steps/s")
    print(f"environment's share of training : {share:8.0%}  (aim < 25%: {'met' if share < 0.25 else 'NOT met'})")
    if config.get("actions") == "compact":  # what the compact head saves, on the dummy (PPO alone)
        n_full = probe.aec.layout.n
        wide = ppo_rate(DummyVecEnv([lambda: DummyEnv(obs_shape, n_full, legal, length)]), config, args.steps, 1)
        print(f"PPO on a dummy env, Discrete({n_full}) (full actions): {wide:8.0f} learner steps/s "
              f"(compact {dummy / wide:.2f}x)")
    if args.envs > 1:  # `train --envs N`: in this process (the default), and in processes of their own
        par = ppo_rate(vector_env(args.scene, args.side, args.opponent, config, None, 0, args.envs), config,
                       args.steps, args.envs)
        print(f"PPO on the real env, {args.envs} envs in this process   : {par:8.0f} learner steps/s "
              f"({par / real:.2f}x one env)")
        sub = ppo_rate(vector_env(args.scene, args.side, args.opponent, config, None, 0, args.envs, subprocess=True),
                       config, args.steps, args.envs)
        print(f"PPO on the real env, {args.envs} envs in {args.envs} processes : {sub:8.0f} learner steps/s "
              f"({sub / real:.2f}x one env; includes starting them)")
        dpar = ppo_rate(DummyVecEnv([lambda: DummyEnv(obs_shape, n, legal, length)] * args.envs), config,
                        args.steps, args.envs)
        print(f"PPO on a dummy env, {args.envs} envs in this process    : {dpar:8.0f} learner steps/s")

if __name__ == "__main__":
    main()
