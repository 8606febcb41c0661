"""Scene files: every shipped scene validates; bad ones give one clear message and exit non-zero."""

from __future__ import annotations

import textwrap

import pytest
from conftest import SHIPPED

from fate_env.cli import main
from fate_env.content.scenes import SceneError, list_scenes, load_scene, scene_path

GOOD = textwrap.dedent("""\
    name: tiny
    rules: condensed
    zones:
      - {id: room}
      - {id: hall}
    borders:
      - {between: [room, hall]}
    characters:
      hero:
        kind: pc
        side: pcs
        zone: room
        skills: {Fight: 3, Athletics: 2}
        stunts:
          - {name: Brawler, kind: bonus, skill: Fight, action: attack}
      thug:
        kind: minor
        side: npcs
        zone: room
        skills: {Fight: 2}
        stress: 1
    """)


def write(tmp_path, text, name="scene.yaml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_shipped_scenes_are_all_listed():
    assert set(SHIPPED) <= set(list_scenes())


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("rules", ["condensed", "core"])
def test_shipped_scenes_validate(name, rules, capsys):
    assert main(["validate", name, "--rules", rules]) == 0
    assert "OK" in capsys.readouterr().out


def test_the_good_example_loads(tmp_path):
    s = load_scene(write(tmp_path, GOOD))
    assert [c.id for c in s.characters] == ["hero", "thug"]


BAD = [
    ("missing field", GOOD.replace("    side: pcs\n", ""), "characters.hero.side", "missing required field"),
    ("unknown skill in a stunt", GOOD.replace("skill: Fight, action: attack}", "skill: Fightt, action: attack}"),
     "characters.hero.stunts.0.skill", "unknown skill 'Fightt'"),
    ("zone that does not exist", GOOD.replace("    zone: room\n    skills: {Fight: 2}", "    zone: cellar\n    skills: {Fight: 2}"),
     "characters.thug.zone", "no zone 'cellar'"),
    ("negative stress", GOOD.replace("stress: 1", "stress: -1"), "characters.thug.stress", "expected a number >= 0"),
    ("malformed YAML", GOOD.replace("zones:\n", "zones: [\n"), "line", "is not closed with"),
    ("unknown key", GOOD.replace("rules: condensed\n", "rules: condensed\nrulez: core\n"), "rulez", "unknown field"),
    ("unknown skill on a sheet", GOOD.replace("{Fight: 3, Athletics: 2}", "{Fight: 3, Swordplay: 2}"),
     "characters.hero.skills.Swordplay", "unknown skill"),
    ("wrong type", GOOD.replace("{Fight: 3, Athletics: 2}", "{Fight: three, Athletics: 2}"),
     "characters.hero.skills.Fight", "expected a whole number"),
    ("border to nowhere", GOOD.replace("[room, hall]", "[room, attic]"), "borders.0.between", "no zone 'attic'"),
    ("unknown rule set", GOOD.replace("rules: condensed", "rules: fate4"), "rules", "no rule set named 'fate4'"),
    ("unknown dial", GOOD.replace("rules: condensed", "rules: {name: core, dials: {turn_ordr: popcorn}}"),
     "rules.dials", "unknown dial"),
    ("bad dial value", GOOD.replace("rules: condensed", "rules: {name: core, dials: {turn_order: alertness}}"),
     "rules.dials", "expected one of popcorn, skills"),
    ("one side only", GOOD.replace("side: npcs", "side: pcs"), "characters", "at least two sides"),
    ("stress on a pc", GOOD.replace("skills: {Fight: 3, Athletics: 2}", "skills: {Fight: 3, Athletics: 2}\n    stress: 2"),
     "characters.hero.stress", "come from Physique and Will"),
    ("unchecked circumstance", GOOD.replace("action: attack}", "action: attack, when: it is raining}"),
     "characters.hero.stunts.0.when", "expected a circumstance"),
]


@pytest.mark.parametrize("label,text,field,expected", BAD, ids=[b[0] for b in BAD])
def test_bad_scene_files_get_one_clear_message(tmp_path, capsys, label, text, field, expected):
    path = write(tmp_path, text)
    with pytest.raises(SceneError) as info:
        load_scene(path)
    err = info.value
    assert err.file == str(path)
    assert err.field.startswith(field), err
    assert expected in err.message, err
    # the CLI prints exactly that one line and exits non-zero
    assert main(["validate", str(path)]) == 2
    out = capsys.readouterr()
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and field in lines[0]
    assert out.out == ""


def test_missing_file(tmp_path, capsys):
    assert main(["resolve", str(tmp_path / "nope.yaml")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_shipped_names_resolve_to_configs():
    assert scene_path("warehouse").name == "warehouse.yaml"


# -- issue 11: inputs that used to be accepted silently, or crashed ---------------------------------

def _refused(tmp_path, content, capsys, *needles, raw: bytes | None = None):
    p = tmp_path / "bad.yaml"
    if raw is not None:
        p.write_bytes(raw)
    else:
        p.write_text(content)
    assert main(["validate", str(p)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(p) in err, err
    for n in needles:
        assert n in err, err


def test_a_latin1_or_binary_scene_file_is_one_line(tmp_path, capsys):
    _refused(tmp_path, None, capsys, "line 1", "not UTF-8", raw=GOOD.replace("tiny", "caf\xe9").encode("latin-1"))
    _refused(tmp_path, None, capsys, "not UTF-8", raw=bytes(range(256)))
    _refused(tmp_path, None, capsys, "binary", raw=b"name: x\x00\x01")


def test_a_key_written_twice_is_refused_not_a_vanished_character(tmp_path, capsys):
    doubled = GOOD.replace("  thug:\n", "  hero:\n", 1)
    _refused(tmp_path, doubled, capsys, "'hero' is written twice", "first on line")


def test_yaml_merge_keys_are_not_duplicates(tmp_path):
    """`<<: *anchor` then a key the anchor also has is an override, not a key written twice."""
    merged = GOOD.replace("  thug:\n    kind: minor\n", "  thug: &thug\n    kind: minor\n") + (
        "  thug2:\n    <<: *thug\n    stress: 2\n")
    s = load_scene(write(tmp_path, merged))
    assert [c.id for c in s.characters] == ["hero", "thug", "thug2"] and s.character("thug2").stress == 2


def test_negative_skill_ratings_are_refused(tmp_path, capsys):
    _refused(tmp_path, GOOD.replace("Fight: 3", "Fight: -1"), capsys, "characters.hero.skills.Fight", ">= 0")


@pytest.mark.parametrize("when,needle", [("zone: cellar", "no zone 'cellar'"), ("target: nobody", "no character"),
                                         ("aspect: Nowhere To Be Seen", "no aspect 'Nowhere To Be Seen'")])
def test_a_stunt_whose_circumstance_can_never_hold_is_refused(tmp_path, capsys, when, needle):
    bad = GOOD.replace("kind: bonus, skill: Fight, action: attack}", f"kind: bonus, skill: Fight, action: attack, when: '{when}'}}")
    _refused(tmp_path, bad, capsys, "characters.hero.stunts.0.when", needle)


def test_other_zone_in_a_one_zone_scene_is_refused(tmp_path, capsys):
    bad = (GOOD.replace("  - {id: hall}\n", "").replace("borders:\n  - {between: [room, hall]}\n", "")
           .replace("kind: bonus, skill: Fight, action: attack}", "kind: bonus, skill: Fight, action: attack, when: other_zone}"))
    _refused(tmp_path, bad, capsys, "other_zone")


def test_sides_that_can_never_reach_each_other_are_refused(tmp_path, capsys):
    apart = GOOD.replace("borders:\n  - {between: [room, hall]}\n", "")
    apart = apart.replace("zone: room\n    skills: {Fight: 3", "zone: hall\n    skills: {Fight: 3")
    assert "zone: hall" in apart
    _refused(tmp_path, apart, capsys, "borders", "can ever reach")
    # a mental conflict has no such problem: Provoke reaches anyone in the scene
    p = tmp_path / "mind.yaml"
    p.write_text(apart.replace("rules: condensed", "rules: condensed\nconflict: mental"))
    assert load_scene(p).conflict == "mental"


ONE_LINE = """\
name: alley
zones: [{id: alley}, {id: roof}]
borders: [{between: [alley, roof], difficulty: 1}]
characters:
  ada: {kind: pc, side: pcs, zone: alley, skills: {Fight: 3}, high_concept: Thief-Taker}
  og: "Og: major, Fight 4, Physique 3, aspects: [Big and Mean, Hates Wizards]"
  thugs: "Thug x4: mob, Fight 2, Athletics 1"
  sniper: {kind: minor, side: gang, zone: roof, skills: {Shoot: 2}}
"""


def test_one_line_npc_specs_read_as_characters(tmp_path):
    """Issue 16: "Thug x4: mob, Fight 2, Athletics 1" and "Og: major, Fight 4, ..., aspects: [...]"
    in a scene's characters; side from the scene's other NPCs, zone its first."""
    scene = load_scene(write(tmp_path, ONE_LINE))
    og, thugs = scene.character("og"), scene.character("thugs")
    assert (og.kind, og.side, og.zone, og.skills, og.aspects) == (
        "major", "gang", "alley", {"Fight": 4, "Physique": 3}, ("Big and Mean", "Hates Wizards"))
    assert (thugs.kind, thugs.count, thugs.name, thugs.skills) == ("mob", 4, "Thug", {"Fight": 2, "Athletics": 1})


@pytest.mark.parametrize("spec,expected", [
    ('"Og major Fight 4"', "expected 'Name: kind, Skill rating"),
    ('"Og: boss, Fight 4"', "'boss': expected a kind"),
    ('"Og x3: major, Fight 4"', "only a mob has members"),
    ('"Og: major, Fight 4, colour: red"', "'colour': expected one of side, zone"),
    ('"Og: major, Fight 4, aspects: Big"', "aspects: expected a bracketed list"),
])
def test_a_bad_one_line_spec_names_the_character_and_the_part(tmp_path, spec, expected):
    text = ONE_LINE.replace('"Og: major, Fight 4, Physique 3, aspects: [Big and Mean, Hates Wizards]"', spec)
    with pytest.raises(SceneError) as info:
        load_scene(write(tmp_path, text))
    assert info.value.field == "characters.og" and expected in info.value.message


def test_a_spec_needs_a_side_when_the_npcs_are_on_several(tmp_path):
    text = ONE_LINE + "  watch: {kind: minor, side: watch, zone: roof, skills: {Notice: 2}}\n"
    with pytest.raises(SceneError, match=r"characters\.og: expected 'side: NAME'"):
        load_scene(write(tmp_path, text))


def _warehouse_with(**fields):
    from fate_env.content.scenes import read_scene_data, scene_from_dict
    _, data = read_scene_data("warehouse")
    return scene_from_dict({**data, **fields}, "ambush.yaml")


def test_reserves_are_checked_like_characters_and_named_as_reserves():
    scene = _warehouse_with(reserves={"watch": "Harbor Watch x2: mob, Fight 2, side: watch, zone: dock",
                                      "spy": {"kind": "minor", "side": "smugglers", "zone": "gallery",
                                              "skills": {"Stealth": 3}}})
    assert [(r.id, r.kind, r.count, r.side, r.zone) for r in scene.reserves] == \
        [("watch", "mob", 2, "watch", "dock"), ("spy", "minor", 1, "smugglers", "gallery")]
    assert "watch" not in {c.id for c in scene.characters}
    for reserves, field, needle in [
        ({"spy": "Spy: minor, Juggling 3"}, "reserves.spy.skills.Juggling", "unknown skill"),
        ({"spy": "Spy: minor, Stealth 2, zone: attic"}, "reserves.spy.zone", "attic"),
        ({"og": "Og Again: minor, Fight 2"}, "reserves.og", "already a character's id"),
        ({"spy": "Spy minor Stealth 2"}, "reserves.spy", "expected 'Name: kind"),
    ]:
        with pytest.raises(SceneError) as err:
            _warehouse_with(reserves=reserves)
        assert err.value.field == field and needle in err.value.message


def test_consequence_names_are_used_in_order_and_never_twice():
    from fate_env.rules.engine import start
    names = ["Bloody Nose", "Wrenched Ankle"]
    scene = _warehouse_with(consequence_names={"mild": names})
    taken = []
    for seed in range(30):
        e = start(scene, seed)
        while e.pending is not None:
            e.step(0)
        mild = [a.name for a in e.aspects.values() if a.kind == "consequence" and a.role == "mild"]
        assert len(set(mild)) == len(mild)
        assert mild[:2] == names[:len(mild[:2])]  # the list first, in order; then the default
        taken += mild
    assert set(names) <= set(taken)
    with pytest.raises(SceneError) as err:
        _warehouse_with(consequence_names={"gentle": ["x"]})
    assert err.value.field == "consequence_names.gentle"


def test_a_stunt_needs_no_name_and_its_when_may_be_a_mapping():
    from fate_env.content.scenes import read_scene_data, scene_from_dict
    _, data = read_scene_data("warehouse")
    og = dict(data["characters"]["og"])
    og["stunts"] = [{"kind": "bonus", "skill": "Fight", "action": "attack", "when": {"aspect": "Giant Spiked Club"}},
                    {"kind": "extra_stress", "track": "physical", "count": 2}]
    scene = scene_from_dict({**data, "characters": {**data["characters"], "og": og}}, "og.yaml")
    club, tough = scene.character("og").stunts
    assert (club.name, club.when, club.cond.tag, club.cond.arg) == ("+2 Fight to attack", "aspect: Giant Spiked Club",
                                                                   "aspect", "Giant Spiked Club")
    assert tough.name == "+2 physical stress"
    og["stunts"] = [{"kind": "bonus", "skill": "Fight", "action": "attack", "when": {"aspect": "x", "zone": "y"}}]
    with pytest.raises(SceneError) as err:
        scene_from_dict({**data, "characters": {**data["characters"], "og": og}}, "og.yaml")
    assert err.value.field == "characters.og.stunts.0.when" and "{aspect: NAME}" in err.value.message
