"""Train an NPC side with MaskablePPO over the single-agent view, then evaluate it.

    python scripts/train_maskable_ppo.py --scene duel --side rival --opponents basic \\
        --timesteps 200000 --out runs/duel_rival.zip

Needs the ``train`` extra. Prints the win rate of the trained side against the
opponents, and of ``random`` in its seat, over the same seeds.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402


def evaluate(env, act, episodes: int, seed: int) -> float:
    wins = 0
    for i in range(episodes):
        obs, info = env.reset(seed=seed + i)
        done = env.aec.conflict.over
        while not done:
            obs, r, term, trunc, info = env.step(act(obs, env.action_masks()))
            done = term or trunc
        wins += env.aec.conflict.outcome.winner == env.side
    return wins / episodes


def main() -> None:
    warnings.filterwarnings("ignore")
    ap = argparse.ArgumentParser()
    ap.add_argument("--scene", default="duel")
    ap.add_argument("--side", default=None)
    ap.add_argument("--opponents", default="basic")
    ap.add_argument("--timesteps", type=int, default=100_000)
    ap.add_argument("--eval-episodes", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="runs/model.zip")
    args = ap.parse_args()

    from sb3_contrib import MaskablePPO

    from fate_env.environment.single_agent import FateSingleAgentEnv

    env = FateSingleAgentEnv(scene=args.scene, side=args.side, opponents=args.opponents)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=1, n_steps=2048, batch_size=256)
    start = time.perf_counter()
    model.learn(args.timesteps, progress_bar=False)
    minutes = (time.perf_counter() - start) / 60
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    model.save(args.out)

    test_env = FateSingleAgentEnv(scene=args.scene, side=args.side, opponents=args.opponents, opponent_seed=99)
    rng = np.random.default_rng(0)
    trained = evaluate(test_env, lambda o, m: int(model.predict(o, action_masks=m, deterministic=True)[0]),
                       args.eval_episodes, 10_000)
    rand = evaluate(test_env, lambda o, m: int(rng.choice(np.flatnonzero(m))), args.eval_episodes, 10_000)
    print(f"{args.scene}, side {env.side} vs {args.opponents}: {args.timesteps} steps in {minutes:.1f} min")
    print(f"win rate over {args.eval_episodes} seeds: trained {trained:.1%}, random in the same seat {rand:.1%}")
    print(f"saved {args.out}")


if __name__ == "__main__":
    main()
