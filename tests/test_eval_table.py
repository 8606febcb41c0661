"""scripts/eval_table.py: the docs' tables say "apart" only when the intervals are apart."""

from __future__ import annotations

import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
from eval_table import table, verdict  # noqa: E402


def cell(rate, lo, hi, a="x", b="y"):
    return {"policy_a": a, "policy_b": b, "b_win_rate": rate, "b_win_ci95": [lo, hi], "a_win_rate": 1 - rate,
            "a_win_ci95": [1 - hi, 1 - lo]}


def test_the_verdicts():
    assert verdict(cell(0.5, 0.4, 0.6), [cell(0.2, 0.1, 0.3), cell(0.3, 0.2, 0.35)], "b") == "apart"
    assert verdict(cell(0.2, 0.1, 0.3), [cell(0.5, 0.4, 0.6)], "b") == "below, apart"
    assert verdict(cell(0.3, 0.2, 0.4), [cell(0.25, 0.15, 0.35)], "b") == "overlap 15.0%"
    assert verdict(cell(0.25, 0.15, 0.35), [cell(0.3, 0.2, 0.4)], "b") == "below, overlap 25.0%"


def test_against_compares_with_the_named_columns_only_and_names_the_best():
    report = {"policies": ["basic"], "columns": ["s1", "s2", "search", "ppo"], "sides": ["pcs", "npcs"],
              "episodes_per_cell": 200, "seed": 0, "rules": "condensed",
              "cells": [cell(0.10, 0.06, 0.15, "basic", "s1"), cell(0.05, 0.02, 0.09, "basic", "s2"),
                        cell(0.60, 0.53, 0.67, "basic", "search"), cell(0.30, 0.24, 0.37, "basic", "ppo")]}
    lines = table(report, "b", "ppo", ["s1", "s2"]).splitlines()
    assert lines[2].endswith("| best of s1, s2 | `ppo` apart? |")
    assert lines[-1].endswith("| `s1` 10% | apart |")
    assert table(report, "b", "ppo").splitlines()[-1].endswith("| below, apart |")  # search beats it


def test_the_compact_table_names_the_best_scripted_column_and_keeps_the_verdict():
    from eval_table import compact
    report = {"policies": ["basic"], "columns": ["s1", "s2", "search", "ppo"], "sides": ["pcs", "npcs"],
              "episodes_per_cell": 200, "seed": 0, "rules": "condensed",
              "cells": [cell(0.10, 0.06, 0.15, "basic", "s1"), cell(0.05, 0.02, 0.09, "basic", "s2"),
                        cell(0.60, 0.53, 0.67, "basic", "search"), cell(0.30, 0.24, 0.37, "basic", "ppo")]}
    lines = compact(report, "ppo", ["s1", "s2"]).splitlines()
    assert lines[2] == "| pcs's policy | best scripted | `search` | `ppo` | apart? |"
    assert lines[-1] == "| `basic` | `s1` 10% [6%, 15%] | 60% [53%, 67%] | 30% [24%, 37%] | apart |"
