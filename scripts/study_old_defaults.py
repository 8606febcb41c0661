"""The study behind training's defaults (issue 37), kept as a scale run rather than a test: MaskablePPO
with its own defaults, 5,000 steps on the warehouse's smugglers, once with the old environment defaults
(every decision learned, each character scored with the PettingZoo env's rewards) and once with the
defaults now (turn decisions, the side scored once, FIGHT_REWARD); then 20 fights of each against
`basic` PCs on the reference engine, counting the fights in which a learner conceded in the first
exchange. The old defaults conceded in (nearly) every fight; the new ones fight.

    python scripts/study_old_defaults.py [--steps 5000] [--fights 20] [--check]

``--check`` exits 1 unless the old defaults concede early in at least 3/4 of the fights and the new in
at most a tenth (the thresholds the suite held before the study moved here). About three minutes of
CPU. The suite keeps the cheap half of the claim: tests/test_first_run.py checks the defaults' settings
and that a first run beats a random policy.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sb3_contrib import MaskablePPO  # noqa: E402

from agents.base import REGISTRY  # noqa: E402
from fate_env.environment.single_agent import FateSingleAgentEnv  # noqa: E402
from fate_env.rules import events as ev  # noqa: E402

CLASSIC = {"learn": None, "reward": {}, "outcome": "characters"}


def early_concessions(kw: dict, steps: int, fights: int) -> int:
    """Fights (of ``fights``) in which a learner conceded in the first exchange, after ``steps`` of PPO."""
    model = MaskablePPO("MlpPolicy", FateSingleAgentEnv("warehouse", "smugglers", controllers=REGISTRY, **kw), seed=1,
                        verbose=0, device="cpu").learn(steps)
    env = FateSingleAgentEnv("warehouse", "smugglers", controllers=REGISTRY, core="reference", opponent_seed=10_000,
                             **kw)
    count = 0
    for i in range(fights):
        obs, _ = env.reset(seed=5_000_000 + i)
        done = env.over
        while not done:
            action = int(model.predict(obs, action_masks=env.action_masks(), deterministic=True)[0])
            obs, _, term, trunc, _ = env.step(action)
            done = term or trunc
        events = env.conflict.events
        second = next((j for j, e in enumerate(events) if isinstance(e, ev.ExchangeStarted) and e.exchange == 2),
                      len(events))
        count += any(isinstance(e, ev.Conceded) and e.actor in env.learners for e in events[:second])
    return count


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--steps", type=int, default=5000)
    p.add_argument("--fights", type=int, default=20)
    p.add_argument("--check", action="store_true")
    args = p.parse_args(argv)
    early = {name: early_concessions(kw, args.steps, args.fights) for name, kw in (("old", CLASSIC), ("now", {}))}
    for name, count in early.items():
        print(f"{name} defaults: conceded in the first exchange in {count} of {args.fights} fights")
    ok = early["old"] >= 0.75 * args.fights and early["now"] <= 0.1 * args.fights
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
