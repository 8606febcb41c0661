"""Train an NPC side with MaskablePPO, then play it against every scripted policy (README, "Training").

    python scripts/train_npc.py duel          # the rival, against basic Cynere
    python scripts/train_npc.py warehouse     # the smugglers, against basic and random PCs

Each preset is the run the README reports: the scene, the side, the opponent it trains
against, the config in configs/train/ and the step count. Then `fate-npc eval` plays the
other side's scripted policies (rows) against the learned side's scripted policies and the
new model (columns) on the same paired seeds, so the model's column can be read against the
best scripted column. Needs the `train` extra.

    --timesteps N    override the preset's step count
    --out PATH       where to save the model (default runs/<preset>.zip)
    --eval-n N       paired seeds per cell of the table (default 100)
    --eval-only      skip training; evaluate the model already at --out
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fate_env.cli import main  # noqa: E402

SCRIPTED = "basic,brute,tactician,coward,minion,support,sniper,random"
PRESETS = {
    "duel": {"scene": "duel", "side": "rival", "opponent": "basic", "config": "configs/train/turns.yaml",
             "timesteps": 150_000},
    # mostly basic PCs, random PCs one fight in four (so it also finishes off weak opposition)
    "warehouse": {"scene": "warehouse", "side": "smugglers", "opponent": "basic,basic,basic,random",
                  "config": "configs/train/side_shaped.yaml", "timesteps": 300_000},
}


def run(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("preset", choices=sorted(PRESETS))
    ap.add_argument("--timesteps", type=int)
    ap.add_argument("--out")
    ap.add_argument("--eval-n", type=int, default=100)
    ap.add_argument("--eval-only", action="store_true")
    args = ap.parse_args(argv)
    p = PRESETS[args.preset]
    out = Path(args.out or f"runs/{args.preset}.zip")
    if not args.eval_only:
        code = main(["train", p["scene"], "--side", p["side"], "--opponent", p["opponent"],
                     "--config", str(ROOT / p["config"]), "--timesteps", str(args.timesteps or p["timesteps"]),
                     "--out", str(out)])
        if code:
            return code
    return main(["eval", p["scene"], "--policies", SCRIPTED, "--vs", f"{SCRIPTED},ppo:{out}",
                 "-n", str(args.eval_n), "--seed", "0"])


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
