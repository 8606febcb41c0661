"""``fate-npc train --ray ADDRESS``: multi-agent PPO on Ray RLlib, for training that outgrows one machine.

SB3 (fate_env/learn/training.py) stays the default on one machine. RLlib spreads the fights over a
cluster's env runners. Its env is :class:`FateRayEnv`, a ``MultiAgentEnv`` over the same
PettingZoo AEC environment: every character of the learning side is an agent (they share one
policy, named for the side), the other sides are played inside the env by scripted controllers
(``--opponent``: one of them per fight) as in the single-agent view, and the rewards that land
on a character between its decisions reach it with its next observation. Observations are
``{"observations", "action_mask"}`` and the RL module masks them (``ray_module.MaskedPPOModule``), so
an illegal action gets no probability at all: the mask is honoured, as MaskablePPO honours it.

``ADDRESS`` is a running cluster's (``auto``, ``ray://head:10001``) or ``local``: a Ray
instance started in this process's machine for the run (what the test uses).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from .train_run import TrainRun

#: the training config keys the Ray path reads (the rest of a config is SB3's)
RAY_KEYS = ("net_arch", "learning_rate", "gamma", "ent_coef", "reward", "n_steps", "batch_size", "n_epochs")


class FateRayEnv(MultiAgentEnv):
    """The learning side's characters as RLlib agents; the other sides scripted inside."""

    def __init__(self, config: dict[str, Any] | None = None):
        super().__init__()
        from agents.base import REGISTRY

        from ..environment.aec import raw_env
        config = dict(config or {})
        self.aec = raw_env(scene=config.get("scene", "duel"), reward=config.get("reward") or None,
                           rules=config.get("rules"), core="reference")
        scene = self.aec.scene
        side = config.get("side") or next((c.side for c in scene.characters if c.is_npc), scene.sides[-1])
        if side not in scene.sides:
            raise ValueError(f"side {side!r}: expected one of {', '.join(scene.sides)}")
        self.side = side
        self.learners = [c.id for c in scene.characters if c.side == side]
        self.agents = self.possible_agents = list(self.learners)
        names = [n.strip() for n in str(config.get("opponent", "basic")).split(",")]
        seed = int(config.get("seed", 0))
        self.mixture = [REGISTRY.controllers_for(scene, {sd: n for sd in scene.sides if sd != side}, seed)
                        for n in names]
        self.controllers = self.mixture[0]
        n, size = self.aec.layout.n, self.aec.encoder.size
        space = spaces.Dict({"observations": spaces.Box(-10.0, 10.0, (size,), np.float32),
                             "action_mask": spaces.Box(0.0, 1.0, (n,), np.float32)})
        self.observation_spaces = {a: space for a in self.learners}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.learners}
        self.rng = np.random.default_rng(seed)

    # -- helpers ------------------------------------------------------------------------------
    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        o = self.aec.observe(agent)
        return {"observations": o["observation"].astype(np.float32),
                "action_mask": o["action_mask"].astype(np.float32)}

    def _collect(self) -> None:
        for a in self.learners:
            self.pending[a] += float(self.aec.rewards.get(a, 0.0))

    def _advance(self) -> None:
        """Play every decision that is not the learning side's, dead steps included."""
        aec = self.aec
        while not aec.conflict.over:
            agent = aec.agent_selection
            if aec.terminations[agent] or aec.truncations[agent]:
                aec.step(None)
            elif agent in self.learners:
                return
            else:
                index, _ = self.controllers[agent].choose(aec.conflict, aec.conflict.pending)
                aec.step_option(index)
            self._collect()

    def _report(self) -> tuple[dict, dict, dict, dict, dict]:
        """What RLlib sees after the learning side's decision: the next actor's observation (with
        the rewards it gathered), characters that left the fight, or everyone's end."""
        obs, rew, term, trunc = {}, {}, {"__all__": False}, {"__all__": False}
        c = self.aec.conflict
        if c.over:
            unresolved = c.outcome.unresolved
            for a in self.seen - self.done:
                obs[a], rew[a] = self._observe(a), self.pending[a]
                term[a], trunc[a] = not unresolved, unresolved
                self.pending[a] = 0.0
            self.done |= self.seen
            term["__all__"], trunc["__all__"] = not unresolved, unresolved
            return obs, rew, term, trunc, {}
        for a in sorted(self.seen - self.done):
            if self.aec.terminations.get(a, True) or self.aec.truncations.get(a, False):
                obs[a], rew[a], term[a], trunc[a] = self._observe(a), self.pending[a], True, False
                self.pending[a] = 0.0
                self.done.add(a)
        actor = self.aec.agent_selection
        obs[actor], rew[actor] = self._observe(actor), self.pending[actor]
        self.pending[actor] = 0.0
        self.seen.add(actor)
        return obs, rew, term, trunc, {}

    # -- the MultiAgentEnv API ----------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.controllers = self.mixture[int(self.rng.integers(len(self.mixture)))]
        # options={"fight": N}: that fight's dice (as FateSingleAgentEnv.reset(seed=N) plays it)
        fight = (options or {}).get("fight")
        self.aec.reset(seed=int(fight) if fight is not None else int(self.rng.integers(2**31 - 1)))
        self.pending = {a: 0.0 for a in self.learners}
        self.seen: set[str] = set()
        self.done: set[str] = set()
        self._advance()
        while self.aec.conflict.over:  # a fight over before the learning side decides teaches nothing
            self.aec.reset(seed=int(self.rng.integers(2**31 - 1)))
            self.pending = {a: 0.0 for a in self.learners}
            self._advance()
        obs, _, _, _, infos = self._report()
        return obs, infos

    def step(self, action_dict: dict[str, int]):
        actor = self.aec.agent_selection
        if actor not in action_dict:
            raise ValueError(f"FateRayEnv: {actor} is to decide; got actions for {sorted(action_dict)}")
        self.aec.step(int(action_dict[actor]))  # IllegalAction (with the reason) for a masked-off action
        self._collect()
        self._advance()
        return self._report()


def ray_config(scene: str, side: str | None, opponent: str, config: dict[str, Any], rules: str | None,
               seed: int, envs: int):
    """The PPOConfig: one action-masking PPO module per learning side, ``envs`` env runners."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.tune.registry import register_env

    from .ray_module import MaskedPPOModule
    env_config = {"scene": scene, "side": side, "opponent": opponent, "rules": rules, "seed": seed,
                  "reward": config.get("reward")}
    probe = FateRayEnv(env_config)
    register_env("fate-npc", lambda cfg: FateRayEnv(cfg))
    policy = probe.side
    hidden = list(config.get("net_arch", [64, 64]))
    batch = int(config.get("n_steps", 2048))
    return (PPOConfig()
            # RLlib's pre-check steps random actions; this env refuses a masked-off one with the reason
            .environment("fate-npc", env_config={**env_config, "side": probe.side}, disable_env_checking=True)
            .api_stack(enable_rl_module_and_learner=True, enable_env_runner_and_connector_v2=True)
            .framework("torch")
            .env_runners(num_env_runners=max(0, envs - 1) if envs > 1 else 0, rollout_fragment_length="auto")
            .multi_agent(policies={policy}, policy_mapping_fn=lambda agent_id, *args, **kwargs: policy)
            .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={policy: RLModuleSpec(
                module_class=MaskedPPOModule,
                model_config=DefaultModelConfig(fcnet_hiddens=hidden, head_fcnet_hiddens=[]))}))
            .training(train_batch_size_per_learner=batch,
                      minibatch_size=min(batch, int(config.get("batch_size", 256))),
                      num_epochs=int(config.get("n_epochs", 10)), lr=float(config.get("learning_rate", 3e-4)),
                      gamma=float(config.get("gamma", 0.99)), entropy_coeff=float(config.get("ent_coef", 0.0)))
            .debugging(seed=seed)), policy


def evaluate_module(module: Any, env_config: dict[str, Any], episodes: int) -> dict[str, Any]:
    """The trained module's win rate (its best legal action each time) on fights 100000..."""
    import torch

    from ..evaluation.stats import wilson
    from .training import EVAL_SEED
    env = FateRayEnv(env_config)
    wins = 0
    for i in range(episodes):
        obs, _ = env.reset(options={"fight": EVAL_SEED + i})
        while True:
            agent = env.aec.agent_selection  # obs may also hold characters that just left the fight
            o = obs[agent]
            batch = {"obs": {k: torch.as_tensor(v)[None] for k, v in o.items()}}
            with torch.no_grad():
                logits = module.forward_inference(batch)["action_dist_inputs"][0].numpy()
            obs, _, term, trunc, _ = env.step({agent: int(np.argmax(logits))})
            if term["__all__"] or trunc["__all__"]:
                break
        wins += env.aec.conflict.outcome.winner == env.side
    lo, hi = wilson(wins, episodes)
    return {"episodes": episodes, "wins": wins, "win_rate": wins / episodes, "ci95": [lo, hi]}


def train_ray(run: TrainRun, address: str) -> dict[str, Any]:
    """Train on Ray at ``address`` until ``run.timesteps`` env steps are sampled; save an RLlib
    checkpoint beside ``run.out``. Of the run it reads the scene, side, opponents, config, seed, rule
    set, environments and verbosity (the command refuses the SB3 path's other flags with --ray)."""
    import ray

    scene, side, opponent, config = run.scene, run.side, run.opponent, run.config
    seed, rules, envs, verbose = run.seed, run.rules, run.envs, run.verbose

    if not ray.is_initialized():
        if address == "local":
            ray.init(num_cpus=max(1, envs), include_dashboard=False, log_to_driver=bool(verbose),
                     configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=bool(verbose), configure_logging=False)
    algo_config, policy = ray_config(scene, side, opponent, config, rules, seed, envs)
    algo = algo_config.build_algo()
    start = time.perf_counter()
    history = []
    sampled = 0
    while sampled < run.timesteps:
        result = algo.train()
        sampled = int(result["env_runners"]["num_env_steps_sampled_lifetime"])
        ret = result["env_runners"].get("episode_return_mean")
        history.append({"iteration": len(history) + 1, "env_steps": sampled,
                        "episode_return_mean": None if ret is None or np.isnan(ret) else float(ret)})
        if verbose:
            print(f"ray: iteration {len(history)}, {sampled} env steps, mean return {history[-1]['episode_return_mean']}")
    minutes = (time.perf_counter() - start) / 60
    episodes = int(config.get("eval_episodes", 0))
    evaluation = evaluate_module(algo.get_module(policy), algo_config.env_config, episodes) if episodes else None
    checkpoint = Path(run.out).with_suffix(".ray")
    algo.save_to_path(str(checkpoint.resolve()))
    algo.stop()
    result = {"scene": scene, "side": policy, "opponent": opponent, "timesteps": sampled, "minutes": minutes,
              "backend": "ray", "address": address, "env_runners": max(0, envs - 1), "iterations": history,
              "checkpoint": str(checkpoint), f"vs_{opponent}": evaluation}
    checkpoint.with_suffix(".ray.json").write_text(json.dumps(result, indent=1))
    return result
