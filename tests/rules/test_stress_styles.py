"""Stress styles are strategies: the rule set names one, and a new one plugs in without touching
the others (issue 12). The shipped styles themselves are pinned by the worked examples and the
golden logs; here a third style is registered for the length of a test."""

from __future__ import annotations

import pytest

from agents.base import controllers_for, play
from fate_env.rules.engine import start
from fate_env.rules.events import Absorbed
from fate_env.rules.ruleset import RuleSetError
from fate_env.rules.state import Track
from fate_env.rules.stress import STYLES, Condensed, Core, StressStyle, style_of
from fate_env.content.scenes import SceneError, load_scene


class RollUp(StressStyle):
    """A hit marks the smallest free box at least its size (a track that rolls up)."""

    name = "roll_up"

    def default_boxes(self, count):
        return tuple(range(1, count + 1))

    def stunt_box(self, values):
        return max(values, default=0) + 1

    def box_options(self, track, rem):
        fits = [i for i in track.free() if track.values[i] >= rem]
        best = min(fits, key=lambda i: track.values[i], default=None)
        return [] if best is None else [((best,), track.values[best])]

    def minimal(self, box_value, cons_total, cons_values, shifts):
        return True

    def capacity(self, track):
        return max((track.values[i] for i in track.free()), default=0)

    def absorb_whole(self, track, shifts):
        options = self.box_options(track, shifts)
        if options:
            track.marked[options[0][0][0]] = True
        return bool(options)


@pytest.fixture
def roll_up(monkeypatch):
    monkeypatch.setitem(STYLES, "roll_up", RollUp())
    return STYLES["roll_up"]


def test_the_rule_sets_choose_their_styles():
    assert isinstance(style_of(load_scene("duel").rules), Condensed)
    assert isinstance(style_of(load_scene("duel", rules="core").rules), Core)


def test_a_third_style_plugs_in(roll_up):
    scene = load_scene("duel", dials={"stress": {"style": "roll_up"}})
    assert scene.rules.stress_style == "roll_up" and style_of(scene.rules) is roll_up
    # a 2-shift hit on a track with 1- and 3-point boxes free takes the 3
    assert roll_up.box_options(Track.of([1, 3]), 2) == [((1,), 3)]
    absorbed = []
    for seed in range(10):
        e = play(start(scene, seed), controllers_for(scene, seed=seed))
        assert e.outcome is not None
        absorbed += [x for x in e.events if isinstance(x, Absorbed) and x.boxes]
    assert absorbed, "no hit was absorbed with boxes in ten duels"
    for x in absorbed:  # one box per hit, big enough for what the consequences left
        assert len(x.boxes) == 1 and (x.consequences or x.box_values[0] >= x.shifts)


def test_an_unknown_style_is_refused_by_name():
    with pytest.raises((RuleSetError, SceneError), match="stress.style"):
        load_scene("duel", dials={"stress": {"style": "bogus"}})
