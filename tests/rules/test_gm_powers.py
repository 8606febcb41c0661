"""The GM's powers on a scene in play (fate_env.rules.gm): reinforcements, removal, moves,
ratings, boosts and consequence names. Each is checked before it changes anything, and a copy
of the engine (clone, pickle) replays it and plays on exactly as the original."""

from __future__ import annotations

import pickle

import pytest

from fate_env.rules.engine import start
from fate_env.rules.kinds import PRE_DICE, Status
from fate_env.rules.scene import CharacterSheet
from fate_env.content.scenes import load_scene

RULES = ["condensed", "core", "fate2", "fate3"]


def _thug(scene, cid: str = "thug9", **kw) -> CharacterSheet:
    side = next(c.side for c in scene.characters if c.is_npc)
    args = dict(id=cid, name="Thug Nine", kind="minor", side=side, zone=scene.zones[0].id,
                skills={"Fight": 2, "Notice": 5}, stress=1)
    args.update(kw)
    return CharacterSheet(**args)


def _before_dice(e, steps: int):
    for _ in range(steps):
        e.step(0)
    while e.pending.kind not in PRE_DICE:
        e.step(0)
    return e


def _finish(e):
    while e.pending is not None:
        e.step(0)
    return e.log()


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("seed", [0, 3])
def test_reinforcements_act_and_copies_replay_every_power(rules, seed):
    scene = load_scene("warehouse", rules=rules)
    e = _before_dice(start(scene, seed), 6)
    e.gm_add_character(_thug(scene))
    e.gm_set_rating("cynere", "Notice", 1)
    e.gm_move("thug9", scene.zones[-1].id)
    e.gm_boost("zird", "Found a Gap")
    e.gm_remove_character("og")
    assert e.t.f["og"].status == Status.REMOVED and "og" not in e.t.active_ids()
    assert e.t.f["thug9"].zone == scene.zones[-1].id
    copies = [e.clone(), pickle.loads(pickle.dumps(e))]
    log = _finish(e)
    for c in copies:
        assert _finish(c) == log
    assert any(x.get("actor") == "thug9" and x["type"] == "TurnStarted" for x in log)
    assert e.t.outcome.taken_out.get("og") is None and "og" not in e.t.outcome.conceded


def test_an_added_npc_brings_its_fate_points_and_aspects():
    scene = load_scene("warehouse")
    e = _before_dice(start(scene, 1), 2)
    pool = e.t.gm_pool
    e.gm_add_character(_thug(scene, high_concept="Hired Muscle", aspects=("Owes Og",), fate_points=2))
    assert e.t.gm_pool == pool + 2
    owned = {a.name for a in e.t.aspects.values() if a.owner == "thug9"}
    assert owned == {"Hired Muscle", "Owes Og"}


@pytest.mark.parametrize("call, message", [
    (lambda e, s: e.gm_add_character(_thug(s, cid="og")), "already a character"),
    (lambda e, s: e.gm_add_character(_thug(s, zone="attic")), "no zone 'attic'"),
    (lambda e, s: e.gm_add_character(_thug(s, true_form="og")), "when the scene starts"),
    (lambda e, s: e.gm_move("og", "attic"), "no zone 'attic'"),
    (lambda e, s: e.gm_move("nobody", "dock"), "no character 'nobody'"),
    (lambda e, s: e.gm_set_rating("og", "Juggling", 3), "no skill 'Juggling'"),
    (lambda e, s: e.gm_set_rating("og", "Fight", 40), "from -4 to 12"),
    (lambda e, s: e.gm_boost("og", "  "), "needs a name"),
    (lambda e, s: e.gm_name_consequence(1, "Bad Day"), "not a consequence"),
])
def test_a_refused_power_names_the_reason_and_changes_nothing(call, message):
    scene = load_scene("warehouse")
    e = _before_dice(start(scene, 2), 3)
    before = (e.t.copy(), len(e.events), e.pending.kind, e.pending.actor, e.t.outside)
    with pytest.raises(ValueError, match=message):
        call(e, scene)
    t = e.t
    assert (len(e.events), e.pending.kind, e.pending.actor, t.outside) == before[1:]
    assert {k: (f.zone, f.status, dict(f.sheet.skills)) for k, f in t.f.items()} == \
        {k: (f.zone, f.status, dict(f.sheet.skills)) for k, f in before[0].f.items()}
    assert set(t.aspects) == set(before[0].aspects)


def test_no_move_or_removal_while_the_dice_are_down():
    scene = load_scene("warehouse")
    e = start(scene, 3)
    while e.pending.kind in PRE_DICE:
        e.step(0)
    with pytest.raises(ValueError, match="dice are on the table"):
        e.gm_remove_character(e.pending.actor)


def test_a_consequence_takes_the_name_it_is_given_and_the_narration_shows_it():
    from fate_env.content.narrate import Narrator
    scene = load_scene("duel")
    e = start(scene, 5)
    named = None
    while e.pending is not None and named is None:
        e.step(0)
        cons = [a for a in e.t.aspects.values() if a.kind == "consequence"]
        if cons:
            named = cons[0]
    assert named is not None, "seed 5 of the duel gives a consequence"
    old = named.name
    e.gm_name_consequence(named.id, "Cut Across the Sword Arm")
    assert e.t.aspects[named.id].name == "Cut Across the Sword Arm"
    text = "\n".join(Narrator(scene).lines(e.events))
    assert "Cut Across the Sword Arm" in text and f": {old}" not in text


def test_fixed_order_keeps_whose_turn_it_is_when_a_rating_reorders_it():
    scene = load_scene("warehouse", rules="core")
    e = _before_dice(start(scene, 4), 5)
    from fate_env.rules.reach import skill_order
    acting = skill_order(e)[e.t.cursor]
    last = skill_order(e)[-1]
    e.gm_set_rating(last, "Notice", 9)
    assert skill_order(e)[0] == last
    assert skill_order(e)[e.t.cursor] == acting
