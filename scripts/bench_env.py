"""AEC steps per second with a masked random policy: the warehouse vs PettingZoo's connect_four_v3.

Both run under the same loop (agent_iter, last, a masked random action, step)
in the same process; the ratio is ours / connect four's. Needs the ``bench``
extra (``pip install -e ".[bench]"``) for connect four.

    python scripts/bench_env.py [--scene warehouse] [--steps 20000] [--repeat 5] [--core auto|fast|reference] [--floor]
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402


def steps_per_second(make, steps: int, seed: int = 0) -> float:
    env = make()
    rng = np.random.default_rng(seed)
    done = 0
    episode = 0
    start = time.perf_counter()
    while done < steps:
        env.reset(seed=seed + episode)
        episode += 1
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(len(legal))])
            env.step(action)
            done += 1
            if done >= steps:
                break
    return done / (time.perf_counter() - start)


class Idle:
    """An AEC environment that does no work: the scene's agents, observation size and mask width,
    a fixed handful of legal actions, episodes of a fixed length. What the loop itself costs with
    spaces this wide (the floor under any environment of the same shapes)."""

    def __new__(cls, template, legal: int = 30, length: int = 150):
        from pettingzoo import AECEnv
        from pettingzoo.utils.agent_selector import AgentSelector

        class _Idle(AECEnv):
            metadata = {"name": "idle", "is_parallelizable": False}

            def __init__(self):
                super().__init__()
                self.possible_agents = list(template.possible_agents)
                self._obs_space = template.observation_space(self.possible_agents[0])
                self._act_space = template.action_space(self.possible_agents[0])
                size, n = self._obs_space["observation"].shape[0], self._act_space.n
                self._obs = np.zeros(size, np.float32)
                self._mask = np.zeros(n, np.int8)
                self._mask[np.linspace(0, n - 1, legal).astype(int)] = 1

            def observation_space(self, agent):
                return self._obs_space

            def action_space(self, agent):
                return self._act_space

            def observe(self, agent):
                return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}

            def reset(self, seed=None, options=None):
                self.agents = self.possible_agents[:]
                self.rewards = {a: 0.0 for a in self.agents}
                self._cumulative_rewards = {a: 0.0 for a in self.agents}
                self.terminations = {a: False for a in self.agents}
                self.truncations = {a: False for a in self.agents}
                self.infos = {a: {} for a in self.agents}
                self._selector = AgentSelector(self.agents)
                self.agent_selection = self._selector.next()
                self.t = 0

            def step(self, action):
                if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
                    self._was_dead_step(action)
                    return
                self._cumulative_rewards[self.agent_selection] = 0.0
                self.t += 1
                if self.t >= length:
                    self.terminations = {a: True for a in self.agents}
                self.agent_selection = self._selector.next()
                self._accumulate_rewards()

        return _Idle()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scene", default="warehouse")
    ap.add_argument("--steps", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=1,
                    help="alternate the measurements this many times; the ratio's median is the figure")
    ap.add_argument("--core", default="auto", choices=["auto", "fast", "reference"],
                    help="the engine behind the environment (default: the fast core when it covers the scene)")
    ap.add_argument("--floor", action="store_true",
                    help="also time an environment that does no work, with the same shapes, in the same loop")
    args = ap.parse_args()
    warnings.filterwarnings("ignore")
    import fate_env
    make = lambda: fate_env.env(scene=args.scene, core=args.core)  # noqa: E731
    steps_per_second(make, 1000)  # warm-up: the kernel loads from numba's cache
    engine = fate_env.raw_env(scene=args.scene, core=args.core).core
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError as exc:
        print(f"fate_conflict ({args.scene}, {engine} core): {steps_per_second(make, args.steps):,.0f} AEC steps/s")
        print(f"connect_four_v3 unavailable ({exc}); install the bench extra: pip install -e '.[bench]'")
        return
    ratios, floors = [], []
    for r in range(max(1, args.repeat)):
        ours = steps_per_second(make, args.steps)
        c4 = steps_per_second(lambda: connect_four_v3.env(), args.steps)
        ratios.append(ours / c4)
        line = (f"run {r + 1}: fate_conflict ({args.scene}, {engine} core) {ours:8,.0f} AEC steps/s, "
                f"connect_four_v3 {c4:8,.0f}: ratio {ours / c4:.2f}x")
        if args.floor:
            from pettingzoo.utils import wrappers
            template = fate_env.raw_env(scene=args.scene)
            idle = steps_per_second(lambda: wrappers.OrderEnforcingWrapper(Idle(template)), args.steps)
            floors.append(idle / c4)
            line += f"; an idle env of the same shapes {idle:8,.0f} ({idle / c4:.2f}x: the loop's own floor)"
        print(line)
    print(f"ratio (ours / connect four), median of {len(ratios)}: {float(np.median(ratios)):.2f}x   (aim: >= 2x)")
    if floors:
        print(f"the loop's floor (an idle env / connect four), median: {float(np.median(floors)):.2f}x")


if __name__ == "__main__":
    main()
