"""Scene digests (a model's sidecar names the scene it was trained on): the fields added since the
first models shipped are left out while at their defaults, now derived from the dataclasses rather
than listed by hand (content/scenes.py: DIGEST_FIELDS)."""

from __future__ import annotations

import dataclasses

from fate_env.content.scenes import DIGEST_FIELDS, LATER_DEFAULTS, scene_dataclasses, load_scene, scene_digest

#: the hand-kept list this replaced (issue 34), value for value
BEFORE = {
    "extreme_for": "characters", "scale_benefit": "effort", "faster_contests": False, "conditions": "off",
    "split_effort": False, "consequence_rule": "shifts", "concession": "anytime", "weapon_effect": "shifts",
    "hold_action": False, "skill_names": [], "weapon_table": [], "armor_table": [], "leads": None, "move_cost": "free",
    "sprint": "overcome", "defense_overflow": "boost", "protect": False, "block_actions": False,
    "maneuver_avoid": False, "fragile_aspects": False, "advantage_rule": "create", "extreme_replaces": None,
    "scale": 0, "solo_bonus": [], "countdowns": [], "hazards": [], "distractions": [], "block": None,
    "minion_armor": False, "challenge_immunity": None, "true_form": None, "carry_consequences": False,
    "contest_immunity": False, "immobile": False, "protected_by": [], "reserves": [], "consequence_names": {},
}


def test_the_derived_list_keeps_every_field_kept_by_hand_at_its_value():
    """Fields added since join the derived list by themselves (left out at their default like the
    rest, so the shipped models' digests stay); the ones listed by hand keep their values."""
    assert {k: LATER_DEFAULTS[k] for k in BEFORE} == BEFORE
    assert LATER_DEFAULTS["against"] is None  # one added since (issue 37): derived, not listed


def test_every_field_is_either_always_digested_or_left_out_at_its_default():
    names = {f.name for cls in scene_dataclasses() for f in dataclasses.fields(cls)}
    assert names == DIGEST_FIELDS | set(LATER_DEFAULTS)
    assert not DIGEST_FIELDS & set(LATER_DEFAULTS)


def test_a_dial_at_its_default_leaves_the_digest_and_one_in_use_changes_it():
    plain = load_scene("warehouse")
    assert scene_digest(load_scene("warehouse", dials={"protect": False})) == scene_digest(plain)
    assert scene_digest(load_scene("warehouse", dials={"protect": True})) != scene_digest(plain)
