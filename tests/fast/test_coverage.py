"""The fast core refuses what it does not list (issue 34): every RuleSet field, scene field and
character field is in ``fast/coverage.py``'s tables, a field left out of them is a refusal (not
the kernel's default), and every value of a dial outside the kernel's is refused by name."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from fate_env.content.dials import CHOICES
from fate_env.content.scenes import load_scene
from fate_env.fast import coverage, covered
from fate_env.rules.ruleset import RuleSet, RuleSetError, address
from fate_env.rules.scene import CharacterSheet, Scene


def test_every_field_of_a_rule_set_a_scene_and_a_sheet_is_listed():
    assert set(coverage.RULE_DIALS) == {f.name for f in fields(RuleSet)}
    assert set(coverage.SCENE_FIELDS) == {f.name for f in fields(Scene)}
    assert set(coverage.CHARACTER_FIELDS) == {f.name for f in fields(CharacterSheet)}
    across = {n for n, rule in coverage.CHARACTER_FIELDS.items() if rule == "scene"}
    assert across == set(coverage.CHARACTER_FEATURES) | {"scale"}


@pytest.mark.parametrize("table, name, needle", [
    ("RULE_DIALS", "protect", "the dial protect (not listed in fast/coverage.py)"),
    ("SCENE_FIELDS", "hazards", "the scene field hazards (not listed in fast/coverage.py)"),
    ("CHARACTER_FIELDS", "immobile", "the character field immobile (not listed in fast/coverage.py)"),
])
def test_a_field_nobody_listed_is_refused_not_played_with_its_default(monkeypatch, table, name, needle):
    scene = load_scene("warehouse")
    assert covered(scene) == []
    shorter = {k: v for k, v in getattr(coverage, table).items() if k != name}
    monkeypatch.setattr(coverage, table, shorter)
    assert any(needle in why for why in covered(scene))


def _dial_values():
    """Every value of every dial that can be set alone on the warehouse (a few need another dial
    with them, e.g. concession: offered needs consequence_rule: ordered: those are left out)."""
    pairs = [(d, v) for d, choices in CHOICES.items() for v in choices]
    pairs += [(d, True) for d, allowed in coverage.RULE_DIALS.items() if allowed == (False,)]
    rules = load_scene("warehouse").rules
    for dial, value in pairs:
        try:
            rules.with_dials({address(dial): value})
        except RuleSetError:
            continue
        yield dial, value


@pytest.mark.parametrize("dial, value", list(_dial_values()))
def test_each_value_of_a_dial_is_played_or_refused_by_name(dial, value):
    base = load_scene("warehouse")
    why = covered(replace(base, rules=base.rules.with_dials({address(dial): value})))
    allowed = coverage.RULE_DIALS[dial]
    shown = ("true" if value else "false") if isinstance(value, bool) else str(value)
    if allowed is coverage.ANY or value in allowed:
        assert not [w for w in why if w.startswith(f"{dial}:")]
    else:
        assert f"{dial}: {shown}" in why


def test_a_sheet_with_five_attack_skills_is_refused_before_the_tables_are_built():
    from fate_env.rules.scene import Stunt
    base = load_scene("warehouse")
    extra = tuple(Stunt(name=f"{s} strike", kind="use_skill", skill=s, action="attack", reach="melee")
                  for s in ("Athletics", "Physique", "Will"))
    hero = replace(base.characters[0], stunts=base.characters[0].stunts + extra)
    why = covered(replace(base, characters=(hero,) + base.characters[1:]))
    assert f"{hero.id} has over 4 attack skills" in why
