"""AEC steps per second with a masked random policy: the warehouse vs PettingZoo's connect_four_v3.

Both run under the same loop (agent_iter, last, a masked random action, step)
in the same process; the ratio is ours / connect four's. Needs the ``bench``
extra (``pip install -e ".[bench]"``) for connect four.

    python scripts/bench_env.py [--scene warehouse] [--steps 20000]
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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scene", default="warehouse")
    ap.add_argument("--steps", type=int, default=20_000)
    args = ap.parse_args()
    warnings.filterwarnings("ignore")
    import fate_env
    ours = steps_per_second(lambda: fate_env.env(scene=args.scene), args.steps)
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError as exc:
        print(f"fate_conflict ({args.scene}): {ours:,.0f} AEC steps/s")
        print(f"connect_four_v3 unavailable ({exc}); install the bench extra: pip install -e '.[bench]'")
        return
    c4 = steps_per_second(lambda: connect_four_v3.env(), args.steps)
    print(f"fate_conflict ({args.scene}): {ours:10,.0f} AEC steps/s")
    print(f"connect_four_v3          : {c4:10,.0f} AEC steps/s")
    print(f"ratio (ours / connect four): {ours / c4:.2f}x   (aim: >= 2x)")


if __name__ == "__main__":
    main()
