"""One policy for several scenes: MaskablePPO on padded, shared spaces (issue 16's example).

    python scripts/train_multi_scene.py                        # smugglers on warehouse + warehouse_mobs
    python scripts/train_multi_scene.py --scenes warehouse,warehouse_mobs --side smugglers \
        --timesteps 50000 --out runs/multi_smugglers.zip --eval 100

Every scene is laid out under the same `Maxima` (the largest of each size over the scenes,
fate_env/environment/maxima.py), so the observation and action spaces are one; `MultiSceneEnv`
draws each episode's scene. The learner makes the side's turn decisions (compact actions; `basic`
makes the rest) and the other side is `basic`. The model's sidecar records the maxima, so
`--control smugglers=ppo:runs/multi_smugglers.zip` plays it on any of the scenes (or any other
scene that fits the maxima). At the end: its win rate on each scene against `basic`, beside
`basic` in the same seat on the same seeds. Needs the `train` extra.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", default="warehouse,warehouse_mobs")
    ap.add_argument("--side", default="smugglers")
    ap.add_argument("--timesteps", type=int, default=30_000)
    ap.add_argument("--out", default="runs/multi_scene.zip")
    ap.add_argument("--eval", type=int, default=100, help="fights per scene for the win rates (0: none)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    import torch
    from sb3_contrib import MaskablePPO

    from agents.base import REGISTRY, controllers_for, play
    from fate_env.environment.multi_scene import MultiSceneEnv
    from fate_env.content.policy_file import trust
    from fate_env.rules.engine import start
    from fate_env.content.scenes import load_scene
    from fate_env.evaluation.stats import wilson

    torch.set_num_threads(1)
    names = args.scenes.split(",")
    env = MultiSceneEnv(names, side=args.side, controllers=REGISTRY, learn=("turn",), actions="compact",
                        outcome="side", reward={"unresolved": -1.0, "shift_dealt": 0.1})
    print(f"{len(names)} scenes under one layout: observation {env.observation_space.shape[0]}, "
          f"{env.action_space.n} actions (turn decisions)")
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, n_steps=2048, batch_size=256, gamma=0.995,
                        ent_coef=0.01, policy_kwargs={"net_arch": [256, 256]}, device="cpu", verbose=0)
    t0 = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    minutes = (time.perf_counter() - t0) / 60
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    trust(out)  # written here: ppo: may load it (fate_env/content/policy_file.py: Trust)
    out.with_suffix(".json").write_text(json.dumps({
        "learn": ["turn"], "helper": "basic", "scene": args.scenes, "side": args.side, "actions": "compact",
        "fixed": env.fixed.to_json()}, indent=1))
    print(f"trained {args.timesteps} steps in {minutes:.1f} min; saved {out} (+ {out.with_suffix('.json').name})")
    if not args.eval:
        return 0
    print(f"\n{args.side}'s wins against basic, {args.eval} fights per scene (seeds 50000+):")
    print("| scene | learned | basic in the same seat |\n| --- | --- | --- |")
    for name in names:
        scene = load_scene(name)
        row = []
        for policy in (f"ppo:{out}", "basic"):
            wins = 0
            for seed in range(50_000, 50_000 + args.eval):
                ctl = controllers_for(scene, {args.side: policy}, seed=seed)
                wins += play(start(scene, seed), ctl).outcome.winner == args.side
            lo, hi = wilson(wins, args.eval)
            row.append(f"{100 * wins / args.eval:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]")
        print(f"| {name} | {row[0]} | {row[1]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
