"""The contributor's trial, replayed (issue 50): in a copy of the project, declare a throwaway dial and a
throwaway action exactly as docs/contributing.md says, then check that everything derived from them
follows with the dial off and on, and that the suite's derived checks pass with no fixture edited.

A second throwaway dial changes a rule two places read (issue 73): a concession pays two fate points
plus one per consequence. Its fact in ``fate_env/rules/facts.py`` is the one place it is worked out, so
the event that tells the table and the fate points paid at the end follow it alike (they once had a
copy each, and a changed payout reached one and not the other).

The trial is the one a new contributor tried: a dial (``taunts``), and a small action behind it (a
taunt: Provoke against the target's Will; on a success the taunter gains a boost). The edits below are
the recipe's, file for file; :data:`DIAL_FILES` and :data:`ACTION_FILES` are the counts
docs/contributing.md states, and a test here holds the page to them. If a derived list ever needs a
hand edit again (a fixture, a feature list, a snapshot), the copy's tests fail and say which.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import ROOT

#: recipe 1: a dial is its declaration, its value in Condensed's file (an edition that differs adds its own) and,
#: for a choice the rules read, its fact
DIAL_FILES = ("fate_env/rules/ruleset.py", "configs/rules/condensed.yaml", "fate_env/rules/facts.py")
#: recipe 2: an action is its option type, its module, its place in ACTIONS and its segment
ACTION_FILES = ("fate_env/rules/options.py", "fate_env/rules/actions/taunt.py", "fate_env/rules/actions/__init__.py",
                "fate_env/environment/segments.py")

TAUNT = '''\
"""A taunt (a throwaway action of the contributor's trial): Provoke against the target's Will; on a
success the taunter gains a boost. Offered only under the ``taunts`` dial."""

from __future__ import annotations

from ..aspects import boost
from ..decisions import Flow
from ..options import Taunt
from ..rolls import Defender, resolved, roll
from .base import Action


def offer(e, f, ctx):
    return [Taunt(t) for t in ctx.foes if e.t.f[t].zone == f.zone]


def run(e, f, choice: Taunt) -> Flow:
    r = roll(e, "create_advantage", f, "Provoke", Defender(choice.target, "Will"), target=choice.target)
    resolved(e, r)
    if r.margin > 0:
        boost(e, f.id, "Rattled " + choice.target)
    yield from ()


ACTION = Action(Taunt, offer, run, gate=lambda scene: scene.rules.taunts, feature="taunts",
                menu=("Attack", lambda e, d, n, o: f"taunt {n.name(o.target)}"))
'''

#: the checks only the trial can make (the rest are the suite's own tests, run in the copy)
CHECKS = '''\
import fate_env
from pettingzoo.test import api_test

from fate_env.content.dials import catalogue
from fate_env.content.scenes import load_scene, scene_digest
from fate_env.environment.actions import ActionLayout
from fate_env.fast import covered
from fate_env.live.table_menu import words
from fate_env.content.narrate import Narrator
from fate_env.rules.actions import actions_for
from fate_env.rules.engine import start
from fate_env.rules.options import Taunt
from fate_env.rules.ruleset import from_dict, to_dict


def test_the_package_under_test_is_the_copy():
    assert fate_env.__file__.startswith(COPY), fate_env.__file__


def test_the_dial_is_read_written_listed_and_digested_from_its_declaration():
    plain, on = load_scene("warehouse"), load_scene("warehouse", dials={"taunts": True})
    assert plain.rules.taunts is False and on.rules.taunts is True
    assert from_dict(to_dict(on.rules)) == on.rules
    assert "taunts" in {d["dial"] for d in catalogue()["dials"]}
    assert scene_digest(plain) == ORIGINAL_DIGEST  # at its default, the digest (and shipped models) stay
    assert scene_digest(on) != scene_digest(plain)


def test_the_fast_core_refuses_the_new_value_by_name_and_plays_the_old():
    assert covered(load_scene("warehouse")) == []
    assert "taunts: true" in covered(load_scene("warehouse", dials={"taunts": True}))


def test_the_action_is_offered_only_with_its_dial_and_plays():
    plain, on = load_scene("duel"), load_scene("duel", dials={"taunts": True})
    assert Taunt not in {a.option for a in actions_for(plain)}
    e = start(on, 3)
    taunts = [i for i, o in enumerate(e.pending.options) if type(o) is Taunt]
    assert taunts, e.pending.keys()
    assert words(e, e.pending, Narrator(on), e.pending.options[taunts[0]])[1].startswith("taunt ")
    e.step(taunts[0])
    assert any(type(x).__name__ == "Rolled" and x.skill == "Provoke" for x in e.events)


def test_the_layout_is_unchanged_without_the_dial_and_names_every_taunt_with_it():
    plain = ActionLayout(load_scene("warehouse"))
    assert [s.size for s in plain.segments.values()] == ORIGINAL_SIZES + [0]
    on = ActionLayout(load_scene("warehouse", dials={"taunts": True}))
    assert on.segments["taunt"].size == on.C


def test_a_dial_read_by_two_rules_changes_both_through_its_fact():
    for dials, base in (({}, 1), ({"concession_pay": "two"}, 2)):
        e = start(load_scene("duel", dials=dials), 1)
        before = e.t.f["cynere"].fate_points
        e.concede("cynere", "the trial")
        told = next(x for x in e.events if type(x).__name__ == "Conceded")
        ended = next(x for x in e.events if type(x).__name__ == "ConflictEnded")
        assert told.payout == base == ended.payouts["cynere"] == e.t.f["cynere"].fate_points - before
    assert "concession_pay: two" in covered(load_scene("duel", dials={"concession_pay": "two"}))


def test_pettingzoos_api_test_passes_with_the_dial_on():
    api_test(fate_env.env(scene="warehouse", taunts=True), num_cycles=300)
'''


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert text.count(old) == 1, f"{path}: the recipe's anchor {old!r} is not there once"
    path.write_text(text.replace(old, new))


def _declare(copy: Path) -> set[str]:
    """The recipe's edits; returns the files touched."""
    _edit(copy / DIAL_FILES[0], "    advantage_rule: str = _pick(",
          "    taunts: bool = _flag()   # the trial's throwaway dial\n    advantage_rule: str = _pick(")
    _edit(copy / DIAL_FILES[1], "\nmax_exchanges:", "\ntaunts: false   # the trial's throwaway dial (no text)\n"
                                                   "max_exchanges:")
    # the payout dial: a choice, its value, and its fact (what a concession pays), read by two rules
    _edit(copy / DIAL_FILES[0], "    advantage_rule: str = _pick(",
          "    concession_pay: str = _pick((\"one\", \"two\"), \"one\")   # the trial's payout dial\n"
          "    advantage_rule: str = _pick(")
    _edit(copy / DIAL_FILES[1], "\nmax_exchanges:", "\nconcession_pay: one   # the trial's payout dial (no text)\n"
                                                   "max_exchanges:")
    _edit(copy / DIAL_FILES[2], "    concession_offered: bool\n",
          "    concession_offered: bool\n    concession_base: int  # the trial's payout dial\n")
    _edit(copy / DIAL_FILES[2], "        return 1 + consequences_taken if self.concede_anytime else 0",
          "        return self.concession_base + consequences_taken if self.concede_anytime else 0")
    _edit(copy / DIAL_FILES[2], "        concession_offered=rules.concession == \"offered\",\n",
          "        concession_offered=rules.concession == \"offered\",\n"
          "        concession_base=2 if rules.concession_pay == \"two\" else 1,\n")
    _edit(copy / ACTION_FILES[0], "\n\ndef key(", "\n\n@dataclass(frozen=True, slots=True)\nclass Taunt:\n"
                                                 "    target: str\n\n\ndef key(")
    (copy / ACTION_FILES[1]).write_text(TAUNT)
    _edit(copy / ACTION_FILES[2], "    split_advantage,\n    move,", "    split_advantage,\n    taunt,\n    move,")
    _edit(copy / ACTION_FILES[2], "    zone_challenge.ACTION,   # offered only in a zone with its own challenge\n)",
          "    zone_challenge.ACTION,   # offered only in a zone with its own challenge\n    taunt.ACTION,\n)")
    _edit(copy / ACTION_FILES[3], "    ZoneAttack,\n)", "    ZoneAttack, Taunt,\n)")
    _edit(copy / ACTION_FILES[3], "\n)\nSEGMENTS = tuple(",
          "\n"
          "    S(\"taunt\", lambda L: L.C, \"C, or 0\", (\"turn\",), \"taunt a foe (C)\", (Taunt,),"
          " _character(\"taunt\", \"target\")),\n)\nSEGMENTS = tuple(")
    return set(DIAL_FILES) | set(ACTION_FILES)


def _copy_project(dest: Path) -> Path:
    skip = shutil.ignore_patterns(".git", ".venv*", "build", "__pycache__", "*.egg-info", ".pytest_cache", "models",
                                  "node_modules", "*.nbi", "*.nbc", "runs")
    copy = dest / "project"
    shutil.copytree(ROOT, copy, ignore=skip)
    return copy


def _changed(copy: Path) -> set[str]:
    """Files of the copy that differ from the project (new ones included), as relative paths."""
    out = set()
    for p in copy.rglob("*"):
        if p.is_file() and "__pycache__" not in p.parts and ".pytest_cache" not in p.parts:
            rel = p.relative_to(copy)
            orig = ROOT / rel
            if not orig.exists() or orig.read_bytes() != p.read_bytes():
                out.add(str(rel))
    return out


@pytest.fixture(scope="module")
def trial(tmp_path_factory):
    from fate_env.content.scenes import load_scene, scene_digest
    from fate_env.environment.actions import ActionLayout
    copy = _copy_project(tmp_path_factory.mktemp("trial"))
    touched = _declare(copy)
    sizes = [s.size for s in ActionLayout(load_scene("warehouse")).segments.values()]
    docs = subprocess.run([sys.executable, "scripts/make_docs.py"], cwd=copy, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}, timeout=300)
    assert docs.returncode == 0, docs.stderr  # the recipe's one command: the generated reference pages
    checks = copy / "tests" / "test_trial_checks.py"
    checks.write_text(f"COPY = {str(copy)!r}\nORIGINAL_DIGEST = {scene_digest(load_scene('warehouse'))!r}\n"
                      f"ORIGINAL_SIZES = {sizes!r}\n" + CHECKS)
    return copy, touched


def _pytest(copy: Path, *targets: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                           *targets], cwd=copy, env=env, capture_output=True, text=True, timeout=900)


#: what ``python scripts/make_docs.py`` rewrites (generated, never edited by hand)
GENERATED = {"docs/spaces.md", "docs/scene_format.md", "docs/not_modelled.md"}


def test_the_trial_touches_only_the_files_the_recipes_name(trial):
    copy, touched = trial
    changed = _changed(copy) - {"tests/test_trial_checks.py"}
    assert changed - GENERATED == touched
    assert "docs/spaces.md" in changed  # the new segment, written by the script


def test_what_the_dial_and_the_action_derive_follows_with_the_dial_off_and_on(trial):
    copy, _ = trial
    run = _pytest(copy, "tests/test_trial_checks.py")
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]


def test_the_suites_derived_checks_pass_with_no_fixture_edited(trial):
    """The tests that once pinned hand-kept lists (the action order, the layouts, the rule sets as they
    resolved, the digests' fields, the kernel's coverage, the rules listing, the docs' spaces page) and
    the environment under every value of every dial (the LayoutOverflow trap) pass in the copy."""
    copy, _ = trial
    run = _pytest(copy, "tests/test_layering.py", "tests/environment/test_segments.py",
                  "tests/test_rule_set_inheritance.py", "tests/test_scene_digests.py", "tests/fast/test_coverage.py",
                  "tests/test_rules_listing.py", "tests/rules/test_actions.py", "tests/test_docs.py",
                  "tests/environment/test_env.py::test_every_value_of_every_dial_plays_under_the_environment"
                  "[taunts-True]")
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]


def test_contributing_states_the_counts_the_trial_proves():
    text = (ROOT / "docs" / "contributing.md").read_text()
    dial = re.search(r"## 1\. Add a dial.*?\*\*(\d+) files\*\*", text, re.S)
    action = re.search(r"## 2\. Add an action.*?\*\*(\d+) files\*\*", text, re.S)
    assert dial and int(dial.group(1)) == len(DIAL_FILES), textwrap.shorten(text[:400], 200)
    assert action and int(action.group(1)) == len(ACTION_FILES)
