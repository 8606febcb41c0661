"""NPCs a GM would let play (issue 35), checked on every shipped scene under both rule sets.

Each scene is played by its own controllers and by the tactician against basic, and every scripted
decision is checked as it is taken:

* the fate point budget by kind of NPC: nameless NPCs (minor, mob) never pay a GM fate point for an
  invoke; a major NPC spends no more than its share (policies.pool_floor, from 003:2007-2030);
* a hostile invoke is one a GM would justify: the aspect is the invoker's own, the other party's
  to this roll, or a situation aspect where it happens (invokes.bears_on; 003:587-592);
* no attack at Mediocre when the turn's free move (003:1330-1335) brings a better skill to bear;
* no reason contradicts the option it explains, as the table reads them (table_menu.words).
"""

from __future__ import annotations

import re

import pytest
from conftest import SHIPPED

from agents.base import controllers_for, make_controller
from fate_env.content.narrate import Narrator
from fate_env.content.policies import pool_floor
from fate_env.content.scenes import SceneError, load_scene
from fate_env.live.table_menu import words
from fate_env.rules.engine import start
from fate_env.rules.options import Attack, DoneInvoking, Invoke, Move

SEEDS = range(12)
CASES = [(scene, rules) for scene in SHIPPED for rules in ("condensed", "core")]


def _scene(name: str, rules: str):
    try:
        return load_scene(name, rules=rules)
    except SceneError:
        pytest.skip(f"{name} does not load under {rules}")


def _plays(scene):
    """(conflict, decision, index, reason, controller) for every decision of a few fights."""
    for mix in (None, "tactician"):
        for seed in SEEDS:
            c = start(scene, seed)
            sides = list(scene.sides)
            controls = {sides[0]: mix, sides[-1]: "basic"} if mix and len(sides) > 1 else {}
            ctl = controllers_for(scene, controls, seed)
            while c.pending is not None:
                d = c.pending
                index, reason = ctl[d.actor].choose(c, d)
                yield c, d, index, reason, ctl[d.actor]
                c.step(index, reason)


@pytest.mark.parametrize("name,rules", CASES)
def test_scripted_npcs_spend_invoke_and_attack_as_a_gm_would_allow(name, rules):
    scene = _scene(name, rules)
    narrator = Narrator(scene)
    checked = {"invokes": 0, "paid by NPCs": 0}
    for c, d, index, reason, ctl in _plays(scene):
        o = d.options[index]
        sheet = c.f[d.actor].sheet
        if not hasattr(ctl, "params"):  # random: no scripted rule to hold it to
            continue
        _, label = words(c, d, narrator, o)
        if type(o) is Invoke and o.effect == "bonus" and reason and "invoke" in reason:
            checked["invokes"] += 1
            aspect = c.aspects[o.aspect]
            assert c.bears_on(d.actor, o.aspect), f"{sheet.name} invokes {aspect.name} (on {aspect.owner}): {reason}"
            assert aspect.name in reason and label.startswith(f"invoke {aspect.name} with")
            assert ("free invoke" in reason) == o.free == ("with a free invoke" in label)
            owner = aspect.owner
            r = c.t.roll
            if "toward turning the result" in reason:  # basic's invokes say how the aspect bears on the roll
                how = ("its own" in reason, "on the one it faces" in reason, "the situation" in reason)
                assert how == (owner == d.actor, owner is not None and owner != d.actor, owner is None), reason
            if owner not in (None, d.actor):
                assert owner == (r.opposer if d.actor == r.actor else r.actor)
            if not o.free and sheet.is_npc:
                checked["paid by NPCs"] += 1
                assert sheet.kind == "major", f"a nameless {sheet.name} paid the GM pool: {reason}"
                floor = pool_floor(ctl.params, sheet.kind, c.gm_pool_start)
                assert c.gm_pool - 1 >= floor, f"{sheet.name} spends past its share of the GM pool"
        if type(o) is DoneInvoking and reason in ("already enough", "the defense holds"):
            assert d.context["margin"] >= 0, reason
        if type(o) is Attack and d.kind == "turn":
            assert f"with {o.skill}" in label and narrator.name(o.target) in label
            if reason.startswith("attacks"):
                assert reason.startswith(f"attacks {narrator.name(o.target)} with {o.skill}")
            moves = [i for i, x in enumerate(d.options) if type(x) is Move]
            if c.f[d.actor].skill(o.skill) <= 0 and moves and not c.facts.minor_moves and type(ctl).__name__ in (
                    "BasicController", "MinionController", "CowardController"):
                assert ctl._close_in(c, d.actor, d.options, moves, o.skill) is None, \
                    f"{sheet.name} plinks with {o.skill} at Mediocre when a step brings a better skill to bear"
            if c.f[d.actor].skill(o.skill) <= 0 and type(ctl).__name__ in (
                    "BasicController", "MinionController", "CowardController"):
                assert all(c.f[d.actor].skill(x) <= 0 for x in c.attack_skills(d.actor)), \
                    f"{sheet.name} plinks with {o.skill} at Mediocre with a rated weapon to close in with"
        if reason.startswith("closes in to"):
            assert type(o) is Move and label == f"move to {narrator.zones.get(o.zone, o.zone)}"
            better = re.search(r"to use (.+) rather than", reason)  # else the free move after acting
            assert better is None or c.f[d.actor].skill(better.group(1)) > 0
    if checked["invokes"] == 0:
        pytest.skip(f"{name} ({rules}): no scripted invoke in {len(SEEDS)} x 2 fights")


def test_the_budget_and_the_any_aspect_table_preference_are_the_policy_s_parameters():
    """With the nameless given a share and 'any aspect in play' allowed, the thugs of the warehouse
    spend the GM pool and invoke bystanders' aspects (the behaviour before issue 35), so the rules above
    are the parameters' doing."""
    scene = load_scene("warehouse")
    loose = {"pool_share_minor": 1.0, "invoke_any": True}
    thug_paid = bystander = 0
    for seed in range(40):
        c = start(scene, seed)
        ctl = {ch.id: make_controller(ch.controller, seed) for ch in scene.characters}
        for ch in scene.characters:
            if ch.kind == "minor":
                ctl[ch.id] = type(ctl[ch.id])(seed, **loose)
        while c.pending is not None:
            d = c.pending
            index, reason = ctl[d.actor].choose(c, d)
            o = d.options[index]
            if type(o) is Invoke and not o.free and c.f[d.actor].sheet.kind == "minor":
                thug_paid += 1
                bystander += not c.bears_on(d.actor, o.aspect)
            c.step(index, reason)
    assert thug_paid > 0 and bystander > 0


def test_a_nameless_thug_no_longer_empties_the_gm_pool_on_its_first_defense():
    """The issue's case: `resolve warehouse --seed 7` had a thug spend the pool 3 -> 0 in exchange 1."""
    scene = load_scene("warehouse")
    c = start(scene, 7)
    ctl = controllers_for(scene, {}, 7)
    while c.pending is not None and c.t.exchange <= 1:
        d = c.pending
        c.step(*ctl[d.actor].choose(c, d))
    assert c.t.gm_spent == 0 and c.t.gm_pool == c.gm_pool_start
