"""No plinking at Mediocre (issue 51): every skill a sheet leaves out is Mediocre (+0, 003:178), so
shooting is legal for a mob with Fight 1 and no Shoot; a GM plays the sheet as written and closes
in. ``mediocre_attacks: true`` is the behaviour before, one setting away; the fast core plays both
(tests/fast/test_differential.py)."""

from __future__ import annotations

import pytest
from conftest import make_scene

from agents.basic import BasicController
from fate_env.rules.conflict import Conflict
from fate_env.rules.options import Attack, Move, OvercomeMove

THUGS = {
    "thugs": {"kind": "mob", "side": "npcs", "zone": "yard", "count": 3, "skills": {"Fight": 1}},
    "hero": {"kind": "pc", "side": "pcs", "zone": "roof", "skills": {"Fight": 2, "Athletics": 2},
             "high_concept": "Brave Hero"},
}


def _thugs_turn(characters=THUGS, **params):
    """Yard - stairs - roof, open borders, shooting range two zones: the thugs' first turn."""
    scene = make_scene(characters, zones=("yard", "stairs", "roof"), shoot_range=2, first="thugs",
                       borders=[{"between": ["yard", "stairs"]}, {"between": ["stairs", "roof"]}])
    c = Conflict(scene, seed=0)
    assert (c.pending.kind, c.pending.actor) == ("turn", "thugs")
    i, why = BasicController(0, **params).choose(c, c.pending)
    return c.pending.options[i], why


def test_a_mob_with_fight_and_no_shoot_closes_in_rather_than_shoot_at_mediocre():
    o, why = _thugs_turn()
    assert type(o) in (Move, OvercomeMove) and o.zone in ("stairs", "roof"), (o, why)


def test_the_old_behaviour_is_one_setting_away():
    o, why = _thugs_turn(mediocre_attacks=True)
    assert o == Attack("hero", "Shoot"), (o, why)


@pytest.mark.parametrize("skills", [{}, {"Shoot": 0, "Fight": 0}])
def test_with_no_skill_above_mediocre_it_attacks_with_what_it_has(skills):
    """Nothing on the sheet beats Mediocre: nothing to close in with, so the shot is its best."""
    chars = {**THUGS, "thugs": {**THUGS["thugs"], "skills": skills}}
    o, why = _thugs_turn(chars)
    assert o == Attack("hero", "Shoot"), (o, why)


def test_a_shooter_still_shoots():
    chars = {**THUGS, "thugs": {**THUGS["thugs"], "skills": {"Fight": 1, "Shoot": 1}}}
    o, why = _thugs_turn(chars)
    assert o == Attack("hero", "Shoot"), (o, why)
