"""Train an NPC side the way the shipped models were trained, export it, and print its proof tables.

    python scripts/train_npc.py duel          # the rival (models/duel_rival.zip)
    python scripts/train_npc.py warehouse     # the smugglers (models/warehouse_smugglers.zip)

Each preset is the run docs/npcs.md reports ("League training"): the scene, the side, league
training with its config (every scripted PC policy and the search NPC, snapshots of the learner
and exploiters, prioritised sampling; the duel's rival with configs/train/league_stacker.yaml:
cloned from the stacker script, which also makes its invokes; the smugglers with
configs/train/league_smugglers.yaml: cloned from the search NPC, their invokes made by the stacker
script), seed 1 and the step count; the duel's rival then a second stage from those weights
(configs/train/league_stacker_stage2.yaml, seed 2: the stacking best response in the league, and
exploiters that may stack; the model is then `<out>` with `_stage2` added). Then `fate-npc export`
writes the policy-only file beside the model (`_policy` added; both get `"concede": "helper"` in
their sidecars, as the shipped ones), and scripts/proof_tables.py plays every scripted PC policy and the search PCs against every
scripted NPC policy, the search NPC and the model, under the default rules, the
`exploit_opposition: foe_in_zone` dial and Core. Needs the `train` extra.

    --timesteps N    override the preset's step count (the first stage's)
    --out PATH       where to save the model (default runs/<preset>.zip)
    --eval-n N       paired seeds per cell of the default rules' table (default 200; 100 for the others)
    --eval-only      skip training; evaluate the model already at --out (a full or a policy-only file)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fate_env.cli import main  # noqa: E402

PRESETS = {
    "duel": {"scene": "duel", "side": "rival", "timesteps": 200_000, "search_column": "all",
             "config": "configs/train/league_stacker.yaml", "concede": "helper",
             # stage two: on from stage one's weights, with the stacking best response in the league
             "then": {"config": "configs/train/league_stacker_stage2.yaml", "timesteps": 120_000, "seed": 2}},
    "warehouse": {"scene": "warehouse", "side": "smugglers", "timesteps": 250_000, "search_column": "condensed",
                  "config": "configs/train/league_smugglers.yaml", "concede": "helper"},
}


def run(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("preset", choices=sorted(PRESETS))
    ap.add_argument("--timesteps", type=int)
    ap.add_argument("--out")
    ap.add_argument("--eval-n", type=int, default=200)
    ap.add_argument("--eval-only", action="store_true")
    args = ap.parse_args(argv)
    p = PRESETS[args.preset]
    out = Path(args.out or f"runs/{args.preset}.zip")
    policy = out
    if not args.eval_only:
        code = main(["train", p["scene"], "--side", p["side"], "--league", "--seed", "1",
                     "--config", str(ROOT / p["config"]),
                     "--timesteps", str(args.timesteps or p["timesteps"]), "--out", str(out)])
        if code:
            return code
        if "then" in p:  # the second stage goes on from the first one's weights
            stage_one, out = out, out.with_name(out.stem + "_stage2.zip")
            t = p["then"]
            code = main(["train", p["scene"], "--side", p["side"], "--league", "--seed", str(t["seed"]),
                         "--config", str(ROOT / t["config"]), "--init", str(stage_one),
                         "--timesteps", str(t["timesteps"]), "--out", str(out)])
            if code:
                return code
        policy = out.with_name(out.stem + "_policy.zip")
        code = main(["export", str(out), str(policy)])
        if code:
            return code
        if p.get("concede"):  # the shipped NPCs concede only where their helper script would
            card = policy.with_suffix(".json")
            card.write_text(json.dumps({**json.loads(card.read_text()), "concede": p["concede"]}))
    return subprocess.call([sys.executable, str(ROOT / "scripts" / "proof_tables.py"), p["scene"],
                            "--model", str(policy), "-n", str(args.eval_n), "--seed", "20000",
                            "--search-column", p["search_column"], "--out", str(out.with_suffix(".proof"))])

if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
