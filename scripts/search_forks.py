"""What `search`'s `forks` budget costs and saves on a scene the fast core does not play: the same
fights (seeds) with the budget and without it, seconds a fight and the searching side's wins.

    python scripts/search_forks.py [--scene burning_mill] [--side kesslers] [--fights 12] [--forks 96]
"""

from __future__ import annotations

import argparse
import time

from agents.base import controllers_for, play
from agents.search import SearchController
from fate_env.content.scenes import load_scene
from fate_env.evaluation.stats import wilson
from fate_env.rules.engine import start


def run(scene, side: str, fights: int, forks: int | None) -> tuple[float, int]:
    wins = 0
    start_at = time.monotonic()
    for seed in range(fights):
        ctr = controllers_for(scene, seed=seed)
        look = SearchController(seed, forks=forks)
        for c in scene.characters:
            if c.side == side:
                ctr[c.id] = look
        wins += play(start(scene, seed), ctr).outcome.winner == side
    return (time.monotonic() - start_at) / fights, wins


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scene", default="burning_mill")
    ap.add_argument("--side", default="kesslers")
    ap.add_argument("--fights", type=int, default=12)
    ap.add_argument("--forks", type=int, default=96)
    args = ap.parse_args()
    scene = load_scene(args.scene)
    for label, forks in ((f"forks {args.forks}", args.forks), ("no budget", None)):
        per, wins = run(scene, args.side, args.fights, forks)
        lo, hi = wilson(wins, args.fights)
        print(f"{args.scene}, {args.side} played by search, {label:>10}: {per:5.1f} s a fight; "
              f"{args.side} win {wins}/{args.fights} [{lo:.0%}, {hi:.0%}]")


if __name__ == "__main__":
    main()
