"""Rule sets inherit (issue 34): Fate Core, FATE 2.0 and Fate 3.0 state only where they differ from
Fate Condensed, each difference with its citation, and resolve to exactly the RuleSet they did when
every file restated every dial (tests/data/rulesets_resolved.json, written from the files before
they inherited)."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest
import yaml
from conftest import ROOT

from fate_env.content.dials import _comments, catalogue
from fate_env.content.scenes import SceneError, load_rules, rule_set_chain
from fate_env.rules.ruleset import RuleSet

BEFORE = json.loads((ROOT / "tests" / "data" / "rulesets_resolved.json").read_text())
RULES = ROOT / "configs" / "rules"


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_a_shipped_rule_set_resolves_field_for_field_to_what_it_was(name):
    """Every field written down then keeps its value; a dial added since is at its declared default
    unless the rule set's own file states it (with its citation: the test below)."""
    rules = load_rules(name)
    now = json.loads(json.dumps({f.name: getattr(rules, f.name) for f in fields(RuleSet)}, default=list))
    assert set(BEFORE[name]) <= set(now)
    for key in BEFORE[name]:
        assert now[key] == BEFORE[name][key], f"{name}.{key}"
    stated = {k for _, own in rule_set_chain(name) for k in own}
    for f in fields(RuleSet):
        if f.name not in BEFORE[name] and f.name not in stated:
            assert getattr(rules, f.name) == f.default, f"{name}.{f.name}: a dial added since moved off its default"


@pytest.mark.parametrize("name", ["core", "fate2", "fate3"])
def test_an_inheriting_rule_set_states_only_its_differences_each_cited(name):
    chain = rule_set_chain(name)
    assert [p.stem for p, _ in chain] == [name, "condensed"]
    own, parent = chain[0][1], chain[1][1]
    for key, value in own.items():
        if key in ("inherits", "name", "title"):
            continue
        if key == "stress":
            same = [k for k, v in value.items() if parent["stress"].get(k) == v]
            assert not same, f"{name}: stress.{same} restate condensed's values"
        else:
            assert value != parent.get(key), f"{name}: {key} restates condensed's value"
    cites = _comments(chain[0][0])
    stated = [k for k in own if k not in ("inherits", "name", "title", "stress")] + list(own.get("stress", {}))
    assert [k for k in stated if not cites.get(k)] == []


def test_a_kept_line_cites_the_inheriting_text_and_the_rest_say_whose_citation_they_show():
    dials = {d["dial"]: d["cites"] for d in catalogue()["dials"]}
    assert dials["overcome_tie"]["core"] == "tie = success at a minor cost (000:465)"
    assert dials["move_cost"]["core"] == "one zone free, if nothing impedes it (000:457-459)"  # a kept line
    assert dials["weapons"]["core"].startswith("inherited from condensed: ")


def _sets(tmp_path, monkeypatch, files: dict[str, str]):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "condensed.yaml").write_text((RULES / "condensed.yaml").read_text())
    for name, text in files.items():
        (tmp_path / "rules" / f"{name}.yaml").write_text(text)
    monkeypatch.setenv("FATE_NPC_CONFIGS", str(tmp_path))


def test_a_stress_dial_is_taken_alone_and_a_table_whole(tmp_path, monkeypatch):
    _sets(tmp_path, monkeypatch, {"mine": "inherits: condensed\nname: mine\nstress: {one_box_per_hit: true}\n"
                                          "consequences: {mild: 1, moderate: 3, severe: 5}\n"})
    rules, base = load_rules("mine"), load_rules("condensed")
    assert rules.one_box_per_hit and rules.boxes_by_rating == base.boxes_by_rating
    assert rules.consequences == (("mild", 1), ("moderate", 3), ("severe", 5)) and rules.title == "mine"


@pytest.mark.parametrize("files, needle", [
    ({"a": "inherits: b\nname: a\n", "b": "inherits: a\nname: b\n"}, "inherits back"),
    ({"a": "inherits: a\nname: a\n"}, "inherits back"),
    ({"a": "inherits: nowhere\nname: a\n"}, "no rule set named 'nowhere'"),
    ({"a": "inherits: ../scenes/warehouse\nname: a\n"}, "never a path"),
    ({"a": "inherits: condensed\n"}, "states its own name"),
    ({"a": "inherits: condensed\nname: a\nturn_order: sideways\n"}, "turn_order"),
    ({"a": "- a list\n"}, "expected a mapping"),
    ({f"s{i}": f"inherits: s{i + 1}\nname: s{i}\n" for i in range(12)}, "a chain of over 8"),
])
def test_a_bad_inheritance_is_one_clear_error(tmp_path, monkeypatch, files, needle):
    _sets(tmp_path, monkeypatch, files)
    with pytest.raises(SceneError) as err:
        load_rules(next(iter(files)))
    assert needle in str(err.value) and "\n" not in str(err.value)


def test_the_shipped_files_are_yaml_a_reader_can_follow():
    for path in RULES.glob("*.yaml"):
        data = yaml.safe_load(path.read_text())
        assert data["name"] == path.stem
        assert "inherits" not in data or (RULES / f"{data['inherits']}.yaml").exists()


def test_a_rule_set_file_edited_between_loads_is_read_anew_and_a_load_changes_no_later_one(tmp_path, monkeypatch):
    """A rule-set file is parsed once per version (rule_sets._parsed: its time and size in the key): an edit
    is read at the next load, and what one load is handed is its own (changing it changes no later load)."""
    import os
    _sets(tmp_path, monkeypatch, {"mine": "inherits: condensed\nname: mine\nstress: {one_box_per_hit: true}\n"})
    assert load_rules("mine").one_box_per_hit
    path = tmp_path / "rules" / "mine.yaml"
    path.write_text("inherits: condensed\nname: mine\nstress: {one_box_per_hit: false}\n")
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # a second later, whatever the clock
    assert not load_rules("mine").one_box_per_hit
    chain = rule_set_chain("mine")
    chain[0][1]["stress"]["one_box_per_hit"] = True  # the caller's copy
    assert not load_rules("mine").one_box_per_hit
