"""A consequence is named for the one taking it and the blow that dealt it (issue 75): the scene's own
names first, then the struck skill's (a blade's gash, an arrow's graze), the track's default, a plainer
fallback, and never a name another consequence in play carries (Fate leaves the name to the table,
003:1631-1634; these are the engine's proposal, which live play offers first)."""

from __future__ import annotations

import pytest

from agents.base import controllers_for
from fate_env.content.scenes import load_scene
from fate_env.rules import events as ev
from fate_env.rules.aspects import (
    CONSEQUENCE_NAMES, ENGINE_ASPECTS, FALLBACK_NAMES, HIT_NAMES, consequence_candidates, possible_consequence_names,
)
from fate_env.rules.engine import start
from fate_env.rules.skills import DEFAULT_ADVANTAGES


def _fight(name: str, seed: int):
    scene = load_scene(name)
    play = start(scene, seed)
    controllers = controllers_for(scene, {}, seed)
    while play.pending is not None:
        d = play.pending
        play.step(*controllers[d.actor].choose(play, d))
    return scene, play


@pytest.mark.parametrize("name", ["warehouse", "burning_mill", "interrogation"])
def test_each_consequence_is_named_for_its_blow_and_no_two_in_play_share_a_name(name):
    taken = 0
    for seed in range(25):
        scene, play = _fight(name, seed)
        skill: dict[str | None, str] = {}   # each attacker's last attack roll's skill
        struck: str | None = None           # the skill of the hit being absorbed (None: a hazard's, a crossing's)
        for e in play.events:
            if type(e) is ev.Rolled and e.action not in ("defend", "overcome", "create_advantage"):
                skill[e.actor] = e.skill
            if type(e) is ev.Hit:
                struck = skill.get(e.source) if e.source in play.f else None
            if type(e) is ev.Absorbed:
                for text in e.consequences:
                    severity, _, given = text.partition(": ")
                    candidates = consequence_candidates(scene, e.track, severity, struck)
                    assert given in candidates or given.endswith(f"({scene.character(e.target).name})"), \
                        (seed, e.target, struck, given, candidates)
                    taken += 1
        carried = [a.name for a in play.t.aspects.values() if a.kind == "consequence"]
        assert len(carried) == len(set(carried)), (seed, carried)
    assert taken >= 10, taken


def test_a_fight_blow_and_a_shot_leave_different_wounds():
    scene = load_scene("warehouse")
    fight = consequence_candidates(scene, "physical", "mild", "Fight")
    shoot = consequence_candidates(scene, "physical", "mild", "Shoot")
    assert fight[0] != shoot[0] and fight[0] in HIT_NAMES["Fight"]["mild"] and shoot[0] in HIT_NAMES["Shoot"]["mild"]
    # a hazard's hit (no skill): the track's default first, then its fallback
    assert consequence_candidates(scene, "physical", "mild", None) == (CONSEQUENCE_NAMES["physical"]["mild"],
                                                                          *FALLBACK_NAMES["physical"]["mild"])


def test_no_consequence_name_is_also_an_advantage_s_or_a_boost_s():
    """A table reading "Rattled" should know whether it is a wound or an advantage: the names a
    consequence may take never repeat a default advantage template's or a boost's."""
    for name in ["warehouse", "interrogation"]:
        clash = possible_consequence_names(load_scene(name)) & ({t.name for t in DEFAULT_ADVANTAGES} | set(ENGINE_ASPECTS))
        assert not clash, clash
