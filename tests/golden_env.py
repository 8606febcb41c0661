"""Golden environment streams: what an agent sees must not change under a speed-up.

Every shipped scene under both rule sets is played through the AEC environment by a masked
random policy (a seeded generator), and through the single-agent view with the shipped
turn-only learner setting; every observation vector, action mask, reward, termination and
truncation the agents receive is hashed, per scene and rule set. ``golden/env.json`` keeps the
hashes. A change to the observation or action layout is a change the shipped models see: it
must be deliberate, said in the commit, and the file rewritten:

    python tests/golden_env.py --write
"""

from __future__ import annotations

import hashlib
import json
import sys
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from agents.base import REGISTRY  # noqa: E402
from fate_env.environment.aec import raw_env  # noqa: E402
from fate_env.environment.single_agent import FateSingleAgentEnv  # noqa: E402

HERE = Path(__file__).resolve().parent / "golden"
SCENES = ["warehouse", "warehouse_mobs", "ghoul", "interrogation", "duel", "race", "chase", "ritual", "debate", "vault",
          "summoning", "wyrm", "burning_mill", "horde", "highwaymen", "crossing", "leviathan"]
RULES = ["condensed", "core"]
AEC_SEEDS = 25
SINGLE_SEEDS = 10


def _update(h, *arrays) -> None:
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())


def aec_digest(scene: str, rules: str, seeds: int = AEC_SEEDS, core: str = "auto") -> str:
    """Masked random play of every seat; the hash of everything ``last()`` and ``observe()`` give
    (``core``: the engine behind the environment; both must give the same stream)."""
    h = hashlib.sha256()
    env = raw_env(scene=scene, rules=rules, core=core)
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            other = env.agents[(env.agents.index(agent) + 1) % len(env.agents)]
            _update(h, obs["observation"], obs["action_mask"], env.observe(other)["observation"])
            h.update(repr((agent, reward, term, trunc)).encode())
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
        h.update(repr(sorted(env._cumulative_rewards.items())).encode())
    return h.hexdigest()


def single_digest(scene: str, rules: str, seeds: int = SINGLE_SEEDS, core: str = "auto") -> str:
    """The single-agent view (turn decisions learned, ``basic`` elsewhere): observations, masks, rewards."""
    h = hashlib.sha256()
    env = FateSingleAgentEnv(scene=scene, rules=rules, learn=("turn",), controllers=REGISTRY, core=core,
                             reward={}, outcome="characters")  # the PettingZoo env's rewards, per character
    for seed in range(seeds):
        rng = np.random.default_rng(1000 + seed)
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            mask = env.action_masks()
            _update(h, obs, mask)
            obs, reward, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
            h.update(repr((reward, term, trunc)).encode())
            done = term or trunc
        _update(h, obs)
    return h.hexdigest()


def compute() -> dict[str, str]:
    warnings.filterwarnings("ignore")
    out = {}
    for scene in SCENES:
        for rules in RULES:
            out[f"aec/{scene}/{rules}"] = aec_digest(scene, rules, core="reference")
            out[f"single/{scene}/{rules}"] = single_digest(scene, rules, core="reference")
    return out


if __name__ == "__main__":
    if "--write" in sys.argv:
        (HERE / "env.json").write_text(json.dumps(compute(), indent=1, sort_keys=True) + "\n")
        print(f"wrote {HERE / 'env.json'}")
    else:
        print(json.dumps(compute(), indent=1, sort_keys=True))
