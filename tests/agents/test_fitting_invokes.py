"""The scripted policies' invoke defaults, what a GM would let an NPC do (issue 51): of the other
party's aspects only those that hamper it whatever their words (invokes.fits), and fate points only
where harm is decided; today's behaviour before them is one setting away."""

from __future__ import annotations

import pytest
from conftest import Driver, make_scene

from agents.basic import BasicController
from fate_env.rules.conflict import Conflict
from fate_env.rules.options import Attack, CreateAdvantage, Defend, DoneInvoking, Invoke

PAIR = {
    "hero": {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Fight": 3, "Athletics": 2, "Notice": 2},
             "high_concept": "Wizard for Hire", "trouble": "Can't Swim", "fate_points": 3},
    "brute": {"kind": "major", "side": "npcs", "zone": "room", "skills": {"Fight": 2, "Athletics": 1}},
}


def _brute_defends(action, **params):
    """The hero's roll beats the brute's defense by 2; the brute (no aspects of its own, a full GM
    pool) answers its invoke decision."""
    scene = make_scene(PAIR, first="hero", gm_fate_points=3)
    c = Conflict(scene, seed=0, forced=[(1, 0, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "hero", action)
    if c.pending.kind == "respond":
        d.do("respond", "brute", Defend())
    d.do("invoke", "hero", DoneInvoking())
    assert c.pending.kind == "invoke" and c.pending.actor == "brute"
    i, why = BasicController(0, **params).choose(c, c.pending)
    return c.pending.options[i], why, c


def test_a_defender_does_not_turn_the_attackers_high_concept_or_trouble_against_it():
    """The hero's Fight attack: "Wizard for Hire" and "Can't Swim" say nothing about dodging a blow,
    so the brute lets the hit land; before, it paid the GM's points for them."""
    o, why, c = _brute_defends(Attack("brute", "Fight"))
    assert o == DoneInvoking(), why
    o, why, c = _brute_defends(Attack("brute", "Fight"), fitting_invokes=False)
    assert type(o) is Invoke and c.aspect(o.aspect).owner == "hero" and not o.free


def test_no_fate_point_to_defend_against_an_advantage():
    """The hero tries an advantage on the brute: with every aspect fitting (the old setting's other
    half off) the brute still keeps the GM's point for where harm is decided."""
    tpl = "Off Balance"
    o, why, _ = _brute_defends(CreateAdvantage(tpl, "brute"), fitting_invokes=False)
    assert o == DoneInvoking(), why
    o, _, c = _brute_defends(CreateAdvantage(tpl, "brute"), fitting_invokes=False, fate_points_on_any_roll=True)
    assert type(o) is Invoke and not o.free


@pytest.mark.parametrize("kind", ["trouble", "consequence"])
def test_an_attacker_may_invoke_its_targets_trouble_and_consequences(kind):
    from fate_env.rules.invokes import fits
    from fate_env.rules.table import Roll
    c = Conflict(make_scene(PAIR, first="hero"), seed=0)
    a = next(x for x in c.t.aspects.values() if x.owner == "hero" and x.role == "trouble")
    if kind == "consequence":
        a.kind, a.role = "consequence", "mild"
    r = Roll("attack", "brute", "Fight", 2, (0, 0, 0, 0), target="hero")
    r.opposer = "hero"
    assert fits(r, "brute", a)  # acting against the hero
    r2 = Roll("attack", "hero", "Fight", 2, (0, 0, 0, 0), target="brute")
    r2.opposer = "brute"
    assert fits(r2, "brute", a) is (kind == "consequence")  # defending: a consequence hampers, a trouble not
