"""Train an NPC side with MaskablePPO and evaluate it (a thin wrapper over ``fate-npc train``).

    python scripts/train_maskable_ppo.py --scene duel --side rival --opponent basic \\
        --timesteps 600000 --config configs/train/shaped.yaml --out runs/duel_rival.zip

Needs the ``train`` extra. Prints the trained side's win rates (95% Wilson) against
the opponent and against ``random``, and random's in the same seat, on the same seeds.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fate_env.cli import main  # noqa: E402

if __name__ == "__main__":
    args = sys.argv[1:]
    scene = "duel"
    if "--scene" in args:
        i = args.index("--scene")
        scene = args[i + 1]
        del args[i:i + 2]
    sys.exit(main(["train", scene, *args]))
