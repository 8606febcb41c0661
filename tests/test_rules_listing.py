"""``fate-npc rules``: every rule set and every dial the engine plays, each set's value as loaded,
the choices, and a citation (or why there is none) for every dial of every shipped set."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import fields

from conftest import ROOT
from fate_env.content.dials import catalogue, format_catalogue
from fate_env.rules.ruleset import RuleSet
from fate_env.content.scenes import load_rules, rule_dials


def test_every_dial_of_every_rule_set_is_listed_with_its_value_and_a_citation():
    cat = catalogue()
    names = [s["name"] for s in cat["rule_sets"]]
    assert names[0] == "condensed" and "core" in names
    listed = {d["dial"] for d in cat["dials"]}
    assert listed == {f.name for f in fields(RuleSet)} - {"name", "title", "extra"}
    for d in cat["dials"]:
        for name in names:
            assert d["values"][name] == rule_dials(load_rules(name))[d["dial"]]
            assert d["cites"][name], f"{name}: dial {d['dial']} has no citation"
    turn = next(d for d in cat["dials"] if d["dial"] == "turn_order")
    assert turn["choices"] == "popcorn | skills | initiative" and "003:1408-1413" in turn["cites"]["condensed"]


def test_the_command_prints_the_listing_and_its_json():
    out = subprocess.run([sys.executable, "-m", "fate_env.cli", "rules"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out == format_catalogue(catalogue())
    data = json.loads(subprocess.run([sys.executable, "-m", "fate_env.cli", "rules", "--json"], cwd=ROOT,
                                     capture_output=True, text=True, check=True).stdout)
    assert data == json.loads(json.dumps(catalogue()))
