"""An advantage on someone's body needs a skill that reaches them (003:1325-1328, 003:1343-1348).

Anything outside your zone is beyond your reach unless something extends it (a gun): Fight and
Athletics act on a foe in your own zone; Shoot and Notice act on one within shooting range; a
mental advantage needs no line on the map. Pinned with forced dice on the reference; the fast core
plays it identically (tests/fast/test_differential.py, stunts that swap the skill).
"""

from __future__ import annotations

from conftest import Driver, make_scene

from fate_env.content.scenes import load_scene
from fate_env.rules.conflict import Conflict
from fate_env.rules.options import CreateAdvantage, Defend

APART = {  # the hero on the floor, the brute one zone away: in shooting range, out of arm's reach
    "hero": {"kind": "pc", "side": "pcs", "zone": "floor", "skills": {"Fight": 4, "Notice": 1, "Shoot": 0},
             "high_concept": "Brave Hero", "fate_points": 3},
    "brute": {"kind": "major", "side": "npcs", "zone": "gallery", "skills": {"Fight": 3, "Athletics": 1},
              "high_concept": "Hulking Brute"},
}


def _conflict(characters: dict = APART, forced=()) -> Conflict:
    scene = make_scene(characters, zones=("floor", "gallery"), borders=[{"between": ["floor", "gallery"]}],
                       first="hero")
    return Conflict(scene, seed=0, forced=list(forced))


def _advantages(c: Conflict) -> set[tuple[str, str]]:
    return {(o.template, o.target) for o in c.pending.options if type(o) is CreateAdvantage}


def _rolled(c: Conflict) -> list[tuple[str, str]]:
    return [(e.actor, e.skill) for e in c.events if type(e).__name__ == "Rolled"]


def test_a_melee_advantage_is_not_offered_on_a_foe_in_another_zone():
    """Off Balance lists Fight and Athletics: neither reaches the gallery (003:1325-1328)."""
    offered = _advantages(_conflict())
    assert ("Off Balance", "brute") not in offered
    assert ("In My Sights", "brute") in offered  # Shoot and Notice reach within range (003:1343-1344)
    assert ("Distracted", "brute") in offered    # a mental advantage needs no line on the map


def test_the_same_advantage_is_offered_once_they_share_a_zone():
    together = {**APART, "brute": {**APART["brute"], "zone": "floor"}}
    assert ("Off Balance", "brute") in _advantages(_conflict(together))


def test_an_advantage_at_range_rolls_a_skill_that_reaches_not_a_stunts_melee_skill():
    """The hero's stunt lets Fight (4) create advantages: on the floor it would beat Notice (1),
    but at range only Notice or Shoot reach, so the hero rolls Notice 1 and ties the brute's
    Athletics 1: a boost, not the aspect."""
    stunt = [{"kind": "use_skill", "skill": "Fight", "action": "create_advantage"}]
    chars = {**APART, "hero": {**APART["hero"], "stunts": stunt}}
    c = _conflict(chars, forced=[(0, 0, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "hero", CreateAdvantage("In My Sights", "brute"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    assert _rolled(c)[:2] == [("hero", "Notice"), ("brute", "Athletics")]


def test_in_its_own_zone_the_stunt_lends_its_skill():
    stunt = [{"kind": "use_skill", "skill": "Fight", "action": "create_advantage"}]
    chars = {"hero": {**APART["hero"], "stunts": stunt}, "brute": {**APART["brute"], "zone": "floor"}}
    c = _conflict(chars, forced=[(0, 0, 0, 0), (0, 0, 0, 0)])
    d = Driver(c)
    d.do("turn", "hero", CreateAdvantage("In My Sights", "brute"))
    d.do("respond", "brute", Defend())
    d.skip_invokes()
    assert _rolled(c)[0] == ("hero", "Fight")


def test_no_pc_on_the_warehouse_floor_is_offered_hemming_in_someone_up_in_the_gallery():
    """The shipped warehouse's own template, Hemmed In (Fight, Athletics), as a PC's menu showed it."""
    scene = load_scene("warehouse")
    c = Conflict(scene, seed=0)
    gallery = {ch.id for ch in scene.characters if c.f[ch.id].zone == "gallery"}
    assert gallery, "the warehouse has someone in the gallery"
    while c.pending is not None and c.pending.kind != "turn":
        c.step(c.pending.options[0])
    actor = c.f[c.pending.actor]
    hemmed = {t for name, t in _advantages(c) if name == "Hemmed In"}
    assert hemmed <= {x for x in c.t.foes_of(actor.id) if c.f[x].zone == actor.zone}
