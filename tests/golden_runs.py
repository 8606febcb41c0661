"""Golden event logs: the behaviour a refactor must not change.

Every shipped scene under both rule sets is played to its end by scripted controllers over a
few hundred seeds: the scene's own controllers, then mixes of every scripted policy per side,
then (from ``PERTURB_FROM``) the same mixes with the GM stepping in between decisions (a
concession out of turn, a new situation aspect, a fate point), and a few scenes again under the
optional dials. Each play's event log and choices are hashed; ``golden/logs.json`` keeps the
hashes and ``golden/full/`` a handful of whole logs to diff against when a hash moves.

    python tests/golden_runs.py --write     # after a rules fix, and say in the commit which moved and why
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from agents.base import controllers_for  # noqa: E402
from fate_env.rules.engine import start  # noqa: E402
from fate_env.content.scenes import load_scene  # noqa: E402

HERE = Path(__file__).resolve().parent / "golden"
SCENES = ["warehouse", "warehouse_mobs", "ghoul", "interrogation", "duel", "race", "chase", "ritual", "debate", "vault",
          "summoning", "wyrm", "burning_mill", "horde", "highwaymen", "crossing", "leviathan"]
RULES = ["condensed", "core"]
#: the older editions' rule sets, pinned on every sixth seed (40 a scene: plain, mixed and GM-perturbed plays)
OLDER = ["fate2", "fate3"]
OLDER_STEP = 6
POLICIES = ["basic", "brute", "sniper", "tactician", "coward", "minion", "support", "random"]
SEEDS = 240            # per scene and rule set
MIXED_FROM = 120       # seeds from here on mix the scripted policies per side
PERTURB_FROM = 180     # ... and from here on the GM steps in
DIALS = {"weapons": True, "mixed_conflicts": True, "exploit_opposition": "foe_in_zone", "major_cost": "enemy_aspect"}
DIAL_SCENES = ["warehouse", "duel", "ghoul", "chase"]
DIAL_SEEDS = 80
#: the runs kept whole, for diffing
FULL = [("warehouse", "condensed", 0), ("warehouse", "core", 130), ("race", "condensed", 190), ("chase", "core", 3),
        ("ghoul", "dials", 185)]


def runs() -> Iterator[tuple[str, str, int]]:
    """(scene, rule set or "dials", seed) for every golden play."""
    for scene in SCENES:
        for rules in RULES:
            for seed in range(SEEDS):
                yield scene, rules, seed
        for rules in OLDER:
            for seed in range(0, SEEDS, OLDER_STEP):
                yield scene, rules, seed
    for scene in DIAL_SCENES:
        for seed in range(DIAL_SEEDS):
            yield scene, "dials", seed + MIXED_FROM


def _scene(name: str, rules: str, cache: dict = {}):  # noqa: B006 - a deliberate per-process cache
    key = (name, rules)
    if key not in cache:
        cache[key] = load_scene(name, dials=DIALS) if rules == "dials" else load_scene(name, rules=rules)
    return cache[key]


def _controllers(scene, seed: int):
    if seed < MIXED_FROM:
        return controllers_for(scene, seed=seed)
    sides = list(scene.sides)
    picks = {side: POLICIES[(seed * (k + 3) + k) % len(POLICIES)] for k, side in enumerate(sides)}
    return controllers_for(scene, picks, seed=seed)


def _perturb(play, rng: np.random.Generator) -> None:
    """The GM steps in between decisions, now and then (what a live session may do)."""
    roll = rng.random()
    if roll > 0.06:
        return
    d = play.pending
    active = [c for c in play.order if play.f[c].active]
    if roll < 0.02 and d.kind in ("turn", "move", "respond", "next") and play.can_concede and len(active) > 2:
        play.concede(active[int(rng.integers(len(active)))], "the GM says so")
    elif roll < 0.04:
        zones = [None] + list(play.map.ids)
        play.gm_add_aspect(f"Sudden Smoke {len(play.events)}", zones[int(rng.integers(len(zones)))])
    else:
        who = active[int(rng.integers(len(active)))]
        play.gm_fate_points(who, 1)


def play_one(scene_name: str, rules: str, seed: int):
    """One golden play, run to its end; returns the engine."""
    scene = _scene(scene_name, rules)
    controllers = _controllers(scene, seed)
    play = start(scene, seed)
    gm = np.random.default_rng(10_000 + seed) if seed >= PERTURB_FROM else None
    while play.pending is not None:
        if gm is not None:
            _perturb(play, gm)
            if play.pending is None:
                break
        d = play.pending
        index, reason = controllers[d.actor].choose(play, d)
        play.step(index, reason)
    return play


def digest(play) -> str:
    text = json.dumps({"log": play.log(), "choices": play.choices}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def compute() -> dict[str, str]:
    out: dict[str, list[str]] = {}
    for scene, rules, seed in runs():
        out.setdefault(f"{scene}/{rules}", []).append(digest(play_one(scene, rules, seed)))
    return {k: " ".join(v) for k, v in out.items()}


def full_path(scene: str, rules: str, seed: int) -> Path:
    return HERE / "full" / f"{scene}-{rules}-{seed}.json.gz"


def write() -> None:
    (HERE / "full").mkdir(parents=True, exist_ok=True)
    (HERE / "logs.json").write_text(json.dumps(compute(), indent=0, sort_keys=True) + "\n")
    for scene, rules, seed in FULL:
        play = play_one(scene, rules, seed)
        with gzip.open(full_path(scene, rules, seed), "wt") as fh:
            json.dump({"log": play.log(), "choices": play.choices}, fh, indent=0, default=str)


if __name__ == "__main__":
    if "--write" in sys.argv:
        write()
        print(f"wrote {HERE / 'logs.json'} and {len(FULL)} full logs")
    else:
        print(__doc__)
