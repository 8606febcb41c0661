"""The shipped models (models/*.zip, docs/npcs.md "League training"): policy-only exports under 5 MB
whose sidecars state the rule set, every dial and the digest of the scene they were trained on —
which must still be the shipped scene's, or the model plays a scene it never saw. The NPCs among them
beat the `basic` NPC in their seat on fixed seeds by a margin no script reaches; the two best
responses beside them are the tables they are tested against."""

from __future__ import annotations

import json

import pytest

from agents.base import controllers_for, make_controller, play
from conftest import ROOT
from fate_env.fast import FastCore
from fate_env.content.policy_file import PolicyOnly, is_policy_only
from fate_env.rules.engine import start
from fate_env.content.scenes import LATER_DEFAULTS, load_scene, rule_dials, scene_digest

SHIPPED = {"warehouse_smugglers": ("warehouse", "smugglers"), "duel_rival": ("duel", "rival"),
           # the best responses that beat NPCs shipped before (docs/npcs.md, "Exploitability of the shipped NPCs"):
           # tables, kept so the line they found stays in training (league opponents) and in these tests
           "warehouse_pcs_stacking": ("warehouse", "pcs"), "duel_cynere_stacking": ("duel", "cynere")}


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_a_shipped_model_is_a_small_policy_only_file_with_an_honest_sidecar(name):
    path = ROOT / "models" / f"{name}.zip"
    assert path.stat().st_size < 5_000_000
    assert is_policy_only(path)
    PolicyOnly(path)  # loads with numpy alone
    card = json.loads(path.with_suffix(".json").read_text())
    scene_name, side = SHIPPED[name]
    scene = load_scene(scene_name)
    assert (card["scene"], card["side"], card["rules"]) == (scene_name, side, scene.rules.name)
    now = rule_dials(scene.rules)
    later = {k: now[k] for k in set(now) - set(card["dials"])}  # dials that came after the model
    assert {k: now[k] for k in card["dials"]} == card["dials"]
    assert later == {k: LATER_DEFAULTS[k] for k in later}, "a dial added since is not at the value it was trained under"
    assert card["scene_digest"] == scene_digest(scene), "the scene changed since the model was trained"
    assert card["learn"] == ["turn"] and card["actions"] == "compact"


@pytest.mark.parametrize("name,opponent,margin", [("duel_rival", "cynere", 40), ("warehouse_smugglers", "pcs", 30)])
def test_a_shipped_model_beats_basic_in_its_seat_on_fixed_seeds(name, opponent, margin):
    """100 fixed seeds against `basic` on the other side, the model and the `basic` NPC in the
    same seat on the same dice (measured when shipped: the duel rival 100 against 28 (the `stacker`
    script 100 too), the smugglers 62 against 2 (retrained 2026-11-26; the ones before them 47, and 34
    under the NPCs' fate point budget and justified invokes))."""
    scene_name, side = SHIPPED[name]
    scene = load_scene(scene_name)
    model = make_controller(f"ppo:{ROOT / 'models' / f'{name}.zip'}")
    wins = {"model": 0, "basic": 0}
    for seed in range(100):
        for who, npc in (("model", model), ("basic", make_controller("basic", seed))):
            controllers = controllers_for(scene, {opponent: "basic"}, seed=seed)
            controllers.update({c.id: npc for c in scene.characters if c.side == side})
            wins[who] += play(start(scene, 20_000 + seed), controllers).outcome.winner == side
    assert wins["model"] >= wins["basic"] + margin, wins


@pytest.mark.kernel
def test_the_shipped_smugglers_hold_level_with_the_best_script_against_support_pcs():
    """`support` PCs (back an ally up, set up advantages) were the table the league-trained
    smugglers shipped before lost to the scripts (25 of these 100 fights against `stacker`'s 71).
    The smugglers shipped now beat every script there when shipped (2026-11-26: 98 against
    `stacker`'s 86 and `basic`'s 51). Since the scripts invoke only the aspects a GM would let them
    (2026-11-27: `fitting_invokes`, the PCs' `support` included, so each roll has fewer aspects to
    buy +2s on) the `stacker` smugglers win all 100 and the model 99, `basic` 47: level with the
    best script, no longer ahead of it (retraining is issue 53's). With the old setting
    (`fitting_invokes: false` and `fate_points_on_any_roll: true`) the scripts win 86 and 51."""
    scene = load_scene("warehouse")
    seeds = [20_000 + seed for seed in range(100)]
    model = 0
    for seed in range(100):
        npc = make_controller(f"ppo:{ROOT / 'models' / 'warehouse_smugglers.zip'}", seed)
        controllers = controllers_for(scene, {"pcs": "support"}, seed=seed)
        controllers.update({c.id: npc for c in scene.characters if c.side == "smugglers"})
        model += play(start(scene, seeds[seed]), controllers).outcome.winner == "smugglers"
    wins = {}
    for spec in ("basic", "stacker"):  # the scripts on the fast core: the same fights (tests/fast/test_differential.py)
        core = FastCore(scene, {c.id: "support" if c.side == "pcs" else spec for c in scene.characters})
        wins[spec] = sum(o.winner == "smugglers" for o in core.outcomes(seeds))
    assert model >= wins["basic"] + 30 and model >= max(wins.values()) - 3, (model, wins)


def test_the_shipped_duel_rival_holds_the_stacking_line():
    """The line every best response found (`stacker`: stack free invokes on your own aspect, spend
    them in one blow) beats the `basic` rival in all 100 fixed fights; the shipped rival, trained
    against it and giving in only where its script would, holds it to a minority (measured when
    shipped: 17 of 100, most of the rest at the cap; the same policy conceding at will: 74)."""
    scene = load_scene("duel")
    cynere_wins = {}
    for who, spec in (("model", f"ppo:{ROOT / 'models' / 'duel_rival.zip'}"), ("basic", "basic")):
        rival = make_controller(spec)
        cynere_wins[who] = 0
        for seed in range(100):
            controllers = controllers_for(scene, {"cynere": "stacker"}, seed=seed)
            controllers["blade"] = rival
            cynere_wins[who] += play(start(scene, 20_000 + seed), controllers).outcome.winner == "cynere"
    assert cynere_wins["basic"] >= 90 and cynere_wins["model"] <= 40, cynere_wins


def test_the_shipped_duel_rival_holds_the_best_response_that_beat_the_rival_before_it():
    """models/duel_cynere_stacking.zip is the best response (100k steps, `stacker`'s invokes) that
    won 32.5% against the rival shipped before; the rival shipped now trained with it in its league
    (configs/train/league_stacker_stage2.yaml). On 100 fixed seeds it beats the `basic` rival nearly
    always and the shipped rival seldom (measured when shipped, 200 seeds: 6%; the rival before: 34%)."""
    scene = load_scene("duel")
    cynere = make_controller(f"ppo:{ROOT / 'models' / 'duel_cynere_stacking.zip'}")
    cynere_wins = {}
    for who, spec in (("model", f"ppo:{ROOT / 'models' / 'duel_rival.zip'}"), ("basic", "basic")):
        rival = make_controller(spec)
        cynere_wins[who] = 0
        for seed in range(100):
            controllers = {"cynere": cynere, "blade": rival}
            cynere_wins[who] += play(start(scene, 20_000 + seed), controllers).outcome.winner == "cynere"
    assert cynere_wins["basic"] >= 80 and cynere_wins["model"] <= 15, cynere_wins


def test_the_digest_leaves_out_later_fields_only_at_their_defaults():
    """A shipped model's sidecar names the scene it was trained on; turning on a rule added since
    (conditions, a hazard, ...) changes what plays, and so the digest."""
    duel = scene_digest(load_scene("duel"))
    assert scene_digest(load_scene("duel", dials={"conditions": "together"})) != duel
    assert scene_digest(load_scene("duel", dials={"conditions": "off"})) == duel
