"""Every rule-set field is a declared dial (issue 73): the ``stress:`` group, ``consequences`` and
``max_exchanges`` are read, written, checked, listed and merged from their declarations like every
other dial, so no field of a rule set is parsed by hand."""

from __future__ import annotations

from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fate_env.content.rule_sets import load_rules
from fate_env.content.scene_files import SceneError
from fate_env.content.scenes import load_scene
from fate_env.rules.ruleset import (CHOICES, DIALS, FLAGS, GROUPS, RuleSet, RuleSetError, address, from_dict,
                                    to_dict)

RULE_SETS = ("condensed", "core", "fate2", "fate3")


def test_every_field_but_the_labels_is_a_declared_dial():
    assert {f.name for f in fields(RuleSet)} - set(DIALS) == {"name", "title", "extra"}
    assert GROUPS == {"stress": ("one_box_per_hit", "stress_style", "boxes_by_rating", "extra_mild_at")}


@pytest.mark.parametrize("name", RULE_SETS)
def test_a_rule_set_written_out_reads_back_the_same(name):
    rules = load_rules(name)
    assert from_dict(to_dict(rules)) == rules


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(RULE_SETS), st.data())
def test_any_dial_change_survives_writing_and_reading(name, data):
    """A rule set with one flag or choice moved, written as a file would and read back, is the same
    rule set: the writer and the reader derive from one declaration."""
    dial = data.draw(st.sampled_from([*FLAGS, *CHOICES]))
    value = data.draw(st.sampled_from((True, False) if dial in FLAGS else CHOICES[dial]))
    try:
        rules = load_rules(name).with_dials({address(dial): value})
    except RuleSetError:
        return  # a combination the rule sets refuse by name (tried in test_env's every-dial test)
    assert getattr(rules, dial) == value
    assert from_dict(to_dict(rules)) == rules


def test_a_grouped_dial_may_be_named_by_its_address_or_in_its_group():
    base = load_rules("condensed")
    dotted = base.with_dials({"stress.style": "roll_up", "stress.extra_mild_at": 3})
    nested = base.with_dials({"stress": {"style": "roll_up", "extra_mild_at": 3}})
    assert dotted == nested and dotted.stress_style == "roll_up" and dotted.extra_mild_at == 3
    assert dotted.boxes_by_rating == base.boxes_by_rating  # the group's other dials are kept


def test_the_style_follows_the_box_rule_unless_named():
    """One box per hit (000:297-307) makes Core's style the default; a file that names a style keeps it."""
    base = load_rules("condensed")
    assert base.with_dials({"stress.one_box_per_hit": True}).stress_style == "core"
    assert load_rules("core").with_dials({"stress": {"one_box_per_hit": False}}).stress_style == "condensed"
    kept = base.with_dials({"stress": {"one_box_per_hit": True, "style": "roll_up"}})
    assert (kept.one_box_per_hit, kept.stress_style) == (True, "roll_up")


@pytest.mark.parametrize("dials, says", [
    ({"stress.extra_mild_at": "five"}, "dial 'stress.extra_mild_at': expected a whole number, got 'five'"),
    ({"stress.one_box_per_hit": "yes"}, "dial 'stress.one_box_per_hit': expected true or false, got 'yes'"),
    ({"stress.style": "roll-up"}, "dial 'stress.style': expected one of condensed, core, roll_up, got 'roll-up'"),
    ({"stress.boxes_by_rating": [1, 2]}, "dial 'stress.boxes_by_rating': expected a mapping rating -> list"),
    ({"stress": {"boxes": {0: [1]}}}, "unknown stress dial(s) boxes; expected some of one_box_per_hit, style"),
    ({"max_exchanges": 0}, "dial 'max_exchanges': expected a whole number >= 1, got 0"),
    ({"consequences": {"mild": 2, "severe": 6}}, "dial 'consequences': expected exactly mild, moderate, severe"),
    ({"consequences": {"mild": 2, "moderate": "four", "severe": 6}}, "expected a whole number of shifts"),
])
def test_a_wrong_value_of_a_once_hand_parsed_dial_is_named(dials, says):
    with pytest.raises(SceneError) as err:
        load_scene("duel", dials=dials)
    assert "rules.dials" in str(err.value) and says in str(err.value)


def test_the_rules_listing_says_where_a_following_dial_comes_from():
    from fate_env.content.dials import catalogue
    row = next(d for d in catalogue()["dials"] if d["dial"] == "stress_style")
    assert row["choices"] == "condensed | core | roll_up"
    assert "stress.one_box_per_hit" in row["cites"]["condensed"] and "001:108-117" in row["cites"]["fate2"]
