"""fate-npc import (issue 16): characters from a Foundry VTT actor export (Fate Core Official)
and Fari character files (both layouts), round-tripped: imported, pasted into a scene, loaded,
and every value the engine holds compared with the file; what cannot be mapped is said."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from conftest import ROOT

from fate_env.cli import main
from fate_env.content.importers import ImportError_, read
from fate_env.rules.engine import start
from fate_env.content.scenes import read_scene_data, scene_from_dict

DATA = ROOT / "tests" / "data" / "import"


def _into_warehouse(fragment: str):
    """Paste an import into the warehouse scene (its side and zone) and load it."""
    _, scene = read_scene_data("warehouse")
    got = yaml.safe_load(fragment)
    scene = dict(scene)
    scene["characters"] = {**scene["characters"], **got["characters"]}
    if got.get("skills"):
        scene["skills"] = got["skills"]
    return scene_from_dict(scene, "pasted.yaml")


def _import(capsys, *args) -> tuple[str, str]:
    assert main(["import", *args]) == 0
    out = capsys.readouterr()
    return out.out, out.err


def test_a_foundry_actor_round_trips(capsys):
    raw = json.loads((DATA / "foundry" / "fco_4.6_foundry_12.json").read_text())["system"]
    text, notes = _import(capsys, str(DATA / "foundry" / "fco_4.6_foundry_12.json"), "--side", "smugglers", "--zone", "floor_west")
    scene = _into_warehouse(text)
    og = scene.character("og_the_smuggler_s_lieutenant")
    assert og.skills == {s["name"]: s["rank"] for s in raw["skills"].values() if s["rank"]}
    assert og.high_concept == "The Smuggler's Lieutenant" and og.trouble == "Can't Resist a Brawl"
    assert og.aspects == ("Giant Spiked Club",)
    assert (og.fate_points, og.refresh) == (2, 3)
    # "+2 to Fight when attacking with the club": a circumstance the engine cannot check, so it is kept as
    # text (stated once), as the same words written as a Fari stunt are; never played on every Fight attack
    assert og.stunts == ()
    club = [line for line in text.splitlines() if "'Club Swing'" in line]
    assert club and all("kept as text" in line and "played" not in line for line in club)
    fighter = start(scene, 1).t.f[og.id]
    assert len(fighter.tracks["physical"].values) == raw["tracks"]["UGh5c2ljYWwgU3RyZXNz"]["boxes"]
    for needle in ("track 'Wealth'", "mental stress: 3 box(es) in the file, 4", "carries mild 'Bruised Knuckles'"):
        assert needle in notes and needle in text  # said on the terminal and kept in the YAML
    for stunt in ("Shrug It Off", "Club Swing"):  # said on the terminal, and once in the YAML, with its words
        assert f"stunt '{stunt}': kept as text (" in notes
        assert sum(f"'{stunt}'" in line for line in text.splitlines()) == 1
        assert f"stunt '{stunt}', kept as text: " in text
    assert "Once per scene, ignore a mild consequence." in text  # the stunt's text, as a comment


def test_a_foundry_actor_of_the_system_s_older_type_names_reads_the_same(tmp_path):
    raw = json.loads((DATA / "foundry" / "fco_4.6_foundry_12.json").read_text())
    for kind in ("ModularFate", "FateCoreOfficial"):
        older = tmp_path / f"{kind}.json"
        older.write_text(json.dumps({**raw, "type": kind}))
        (a,), (b,) = read(str(older)), read(str(DATA / "foundry" / "fco_4.6_foundry_12.json"))
        assert (a.skills, a.aspects, a.stunts, a.stress) == (b.skills, b.aspects, b.stunts, b.stress)


def test_a_fari_character_round_trips_in_both_layouts(capsys):
    text, notes = _import(capsys, str(DATA / "fari_cynere_v3.json"), "--side", "smugglers", "--zone", "floor_west")
    cyn = _into_warehouse(text).character("cynere")
    blocks = [b for p in json.loads((DATA / "fari_cynere_v3.json").read_text())["pages"] for s in p["sections"]
              for b in s["blocks"]]
    assert cyn.skills == {b["label"]: int(b["value"]) for b in blocks if b["type"] == "Skill" and b["value"]}
    assert (cyn.high_concept, cyn.trouble, cyn.aspects) == ("Infamous Girl with Sword", "Tempted by Shiny Things",
                                                           ("I've Got Zird's Back",))
    # "+2 to Fight when you attack with a blade in hand": a circumstance the engine cannot check, so kept as text
    assert cyn.stunts == ()
    assert "stunt 'Swordmaster': kept as text (a +2 to Fight with a condition the engine cannot check ('with a blade in hand'))" in notes
    assert "'Sleight of Hand': kept as text" in notes
    text, notes = _import(capsys, str(DATA / "fari_dock_rat_v4.json"), "--kind", "minor", "--side", "smugglers",
                          "--zone", "dock")
    rat = _into_warehouse(text).character("dock_rat")
    assert rat.kind == "minor" and rat.stress == 2 and rat.zone == "dock"
    assert rat.skills == {"Fight": 2, "Knife Throwing": 2, "Notice": 1}
    assert [(s.skill, s.action, s.bonus) for s in rat.stunts] == [("Fight", "defend", 1)]
    assert "Knife Throwing" in notes


def test_several_files_make_one_block_and_it_plays(capsys, tmp_path):
    out = tmp_path / "imported.yaml"
    assert main(["import", str(DATA / "foundry" / "fco_4.6_foundry_12.json"), str(DATA / "fari_dock_rat_v4.json"),
                 "--side", "smugglers", "--zone", "floor_west", "--out", str(out)]) == 0
    scene = _into_warehouse(out.read_text())
    e = start(scene, 4)
    while e.pending is not None:
        e.step(0)
    assert e.outcome is not None


@pytest.mark.parametrize("content, needle", [
    ("{\"type\": \"character\", \"name\": \"x\"}", "not a character this tool reads"),
    ("not json", "not JSON"),
    ("{\"type\": \"Thing\", \"name\": \"Crate\", \"system\": {}}", "not a character"),
    ("{\"fariType\": \"character\", \"name\": \"Empty\", \"pages\": []}", "without sections"),
])
def test_a_file_that_is_not_a_character_is_refused_with_the_reason(tmp_path, capsys, content, needle):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    assert main(["import", str(bad)]) == 2
    assert needle in capsys.readouterr().err
    with pytest.raises(ImportError_):
        read(str(bad))


def test_the_data_files_are_what_their_formats_say():
    og = json.loads((DATA / "foundry" / "fco_4.6_foundry_12.json").read_text())
    assert og["type"] == "fate-core-official" and set(og["system"]) >= {"details", "aspects", "skills", "stunts", "tracks"}
    for name in ("fari_cynere_v3.json", "fari_dock_rat_v4.json"):
        assert json.loads((DATA / name).read_text())["fariType"] == "character"
    assert Path(DATA / "fari_dock_rat_v4.json").read_text().count("\"rows\"") == 1


@pytest.mark.parametrize("body, says", [
    ({"name": "Blank", "type": "fate-core-official", "system": []}, "its 'system' is list"),
    ({"name": "Blank", "type": "fate-core-official", "system": "x"}, "its 'system' is str"),
    ({"name": "Blank", "fariType": "character", "version": 6, "pages": "oops"}, "its 'pages' is str"),
])
def test_a_sheet_whose_body_has_the_wrong_shape_is_refused_not_imported_blank(tmp_path, capsys, body, says):
    """A Foundry actor whose ``system`` is no mapping, a Fari file whose ``pages`` is no list: once
    imported silently as a blank character (and --strict exited 0)."""
    import json as _json

    from fate_env.cli import main
    path = tmp_path / "odd.json"
    path.write_text(_json.dumps(body))
    for strict in ([], ["--strict"]):
        assert main(["import", str(path), *strict]) == 2
        captured = capsys.readouterr()
        assert says in captured.err and "Blank" not in captured.out and "Traceback" not in captured.err
