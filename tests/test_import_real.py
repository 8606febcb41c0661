"""fate-npc import on real layouts (issue 37): every character layout Fari has shipped, its own Fate
templates in every language it ships them, a community sheet, and Foundry's Fate Core Official
actors in the shapes its releases wrote. Each fixture names the repository file it follows
(tests/data/import/*/SOURCES.md). What is expected of each is written here, independently of the
importer's word lists: the English skill each sheet's rating went into, the aspects, the tracks."""

from __future__ import annotations

import json
import re
import time

import pytest
import yaml
from conftest import ROOT

from fate_env.cli import main
from fate_env.content.importers import ImportError_, read
from fate_env.content.importers.stunts import read_stunt
from fate_env.content.scenes import read_scene_data, scene_from_dict

FARI = ROOT / "tests" / "data" / "import" / "fari"
FOUNDRY = ROOT / "tests" / "data" / "import" / "foundry"
HC, TROUBLE = "Veteran of the Harbour Wars", "Owes the Wrong People"
BASE = {"Fight": 4, "Athletics": 3, "Will": 2, "Physique": 2}
#: fixture -> (its skills, as the engine names them; physical and mental boxes in the file)
TEMPLATES = {
    "core_en": ({**BASE, "Notice": 1}, (2, 2)),
    "core_de": ({**BASE, "Notice": 1}, (2, 2)),
    "core_es": ({**BASE, "Notice": 1}, (2, 2)),
    "core_fr": ({**BASE, "Notice": 1}, (2, 2)),
    "core_it": ({**BASE, "DISCREZIONE": 1}, (2, 2)),    # Burglary or Stealth in the Italian sheets: not guessed
    "core_pl": ({**BASE, "Notice": 1}, (2, 2)),
    "core_general": ({**BASE, "Notice": 3}, (2, 2)),     # skill-pyramid rows: "+3 Skills: Athletics, Notice"
    "condensed_en": ({**BASE, "Notice": 1}, (3, 3)),
    "condensed_de": ({**BASE, "Academics": 1}, (3, 3)),
    "condensed_es": ({**BASE, "Academics": 1}, (3, 3)),
    "condensed_it": ({**BASE, "Conoscenze": 1}, (3, 3)),  # Academics or Lore: not guessed
    "condensed_pl": ({**BASE, "Academics": 1}, (3, 3)),
    "condensed_ptbr": ({**BASE, "Academics": 1}, (2, 2)),
    "condensed_tr": ({**BASE, "Gözlem": 1}, (3, 3)),       # Notice or Investigate: not guessed
    "cthulhu": ({**BASE, "Notice": 1}, (3, 3)),
}
APPROACHES = {
    "accelerated_en": ["Careful", "Clever", "Forceful", "Flashy", "Quick"],
    "accelerated_de": ["FLINK", "KRAFTVOLL", "SCHARFSINNIG", "SORGFÄLTIG", "TOLLKÜHN"],
    "accelerated_es": ["cauto", "furtivo", "ingenioso", "llamativo", "rápido"],
    "accelerated_fr": ["astucieux", "flamboyant", "puissant", "rapide", "soigneux"],
    "accelerated_pl": ["Podstępna", "pomysłowa", "Siłowa", "szybka", "Uważna"],
    "accelerated_ptbr": ["Cuidadoso", "esperto", "forte", "estiloso", "ágil"],
}
STUNTS = [("Brawler", "bonus", "Fight", "attack"), ("Iron Will", "use_skill", "Will", "defend"),
          ("Tough as Nails", "extra_stress", None, None)]


def _import(capsys, *args) -> tuple[str, str]:
    assert main(["import", *args]) == 0, capsys.readouterr().err
    out = capsys.readouterr()
    return out.out, out.err


def _pasted(text: str):
    """The import pasted into the warehouse (its smugglers' side, a zone of its own) and loaded."""
    _, scene = read_scene_data("warehouse")
    got = yaml.safe_load(text)
    scene = {**scene, "characters": {**scene["characters"], **got["characters"]}}
    if got.get("skills"):
        scene["skills"] = got["skills"]
    return scene_from_dict(scene, "pasted.yaml")


@pytest.mark.parametrize("fixture", sorted(TEMPLATES))
def test_every_fari_template_of_every_language_imports_by_meaning(capsys, fixture):
    skills, (physical, mental) = TEMPLATES[fixture]
    path = FARI / f"{fixture}.json"
    (c,) = read(str(path))
    assert c.skills == skills
    assert (c.high_concept, c.trouble) == (HC, TROUBLE) and len(c.aspects) == 3
    assert c.stress == {"physical": physical, "mental": mental}
    assert set(c.consequences) == {"mild", "moderate", "severe"}
    assert (c.fate_points, c.refresh) == (3, 3)
    assert [(s["name"], s["kind"], s.get("skill"), s.get("action")) for s in c.stunts] == STUNTS
    assert c.stunts[1]["against"] == "Provoke" and c.stunts[2] == {"name": "Tough as Nails", "kind": "extra_stress",
                                                                    "track": "physical", "count": 2}
    text, err = _import(capsys, str(path), "--side", "smugglers", "--zone", "dock")
    sheet = _pasted(text).character("magda_orsted_kowalczyk")  # Ørsted: transliterated, not dropped
    assert sheet.skills == skills and sheet.high_concept == HC
    for odd in set(skills) - set(BASE) - {"Notice", "Academics"}:  # kept under its own name, and said
        assert odd in err


@pytest.mark.parametrize("fixture", sorted(APPROACHES))
def test_fate_accelerated_sheets_keep_their_approaches_and_say_so(capsys, fixture):
    (c,) = read(str(FARI / f"{fixture}.json"))
    assert sorted(c.skills.values()) == [1, 1, 2, 2, 3] and set(c.skills) <= set(APPROACHES[fixture])
    assert c.stress == {}  # one stress track, neither physical nor mental
    assert any("not physical or mental" in n for n in c.notes)
    text, err = _import(capsys, str(FARI / f"{fixture}.json"), "--side", "smugglers", "--zone", "dock")
    assert "not in the default list" in err and _pasted(text)


def test_the_2020_top_level_layouts_version_1_and_2():
    (v1,) = read(str(FARI / "v1_top_level.json"))
    assert v1.skills == {"Fight": 3, "Athletics": 2, "Deceive": 2, "Will": 1}
    assert v1.stress == {"physical": 3, "mental": 2} and (v1.fate_points, v1.refresh) == (2, 3)
    assert v1.consequences["mild"] == "Bruised Ribs"
    assert [s["kind"] for s in v1.stunts] == ["bonus", "extra_stress"]
    (warden,) = read(str(FARI / "v2_warden.json"))
    assert warden.skills["Provoke"] == 4 and warden.stress == {"physical": 4, "mental": 6}
    assert warden.high_concept.startswith("Survivant") and warden.trouble.startswith("Mon apparence")
    # "use Provoke to defend against Fight attacks, but only until the first time you're dealt stress": a limit
    assert warden.stunts == []
    assert any("'Armor of Fear': kept as text" in n and "but only" in n for n in warden.kept_stunts())
    assert any("'Corruption'" in n for n in warden.notes)


def test_an_accented_name_keeps_its_letters_in_the_id(capsys):
    text, _ = _import(capsys, str(FARI / "v2_warden.json"), "--side", "smugglers", "--zone", "dock")
    assert "warden_le_magane:" in text
    text, _ = _import(capsys, str(FARI / "v1_top_level.json"), "--side", "smugglers", "--zone", "dock")
    assert "teodor_lecki:" in text


@pytest.mark.parametrize("fixture, name, skills, fate", [
    ("fco_4.6_foundry_12.json", "Og the Smuggler's Lieutenant", {"Fight": 4, "Physique": 3}, (2, 3)),
    ("fco_3.1_foundry_0.8.json", "Brother Kaspar", {"Fight": 4, "Will": 3}, (1, 2)),
    ("modularfate_0.7.json", "Sœur Agathe", {"Fight": 4, "Will": 3}, (2, 3)),
])
def test_foundry_actors_of_every_shape_the_system_wrote(capsys, fixture, name, skills, fate):
    (c,) = read(str(FOUNDRY / fixture))
    assert c.name == name and skills.items() <= c.skills.items()
    assert (c.fate_points, c.refresh) == fate
    assert set(c.consequences) == {"mild", "moderate", "severe"} and c.stress["physical"] >= 3
    text, _ = _import(capsys, str(FOUNDRY / fixture), "--side", "smugglers", "--zone", "dock")
    assert _pasted(text)


def test_the_older_actors_stunts_are_read_from_their_words():
    (c,) = read(str(FOUNDRY / "modularfate_0.7.json"))
    assert {"name": "Iron Faith", "kind": "use_skill", "skill": "Will", "action": "defend", "against": "Provoke"} in c.stunts
    assert {"name": "Quarterstaff Drills", "kind": "bonus", "skill": "Fight", "action": "defend", "bonus": 2} in c.stunts


def test_a_compendium_pack_gives_every_actor_in_it(capsys):
    chars = read(str(FOUNDRY / "pack_bandits.db"))
    assert [c.name for c in chars] == ["Bandit Chief", "Bandit Archer"]
    text, _ = _import(capsys, str(FOUNDRY / "pack_bandits.db"), "--kind", "minor", "--side", "smugglers", "--zone", "dock")
    scene = _pasted(text)
    assert scene.character("bandit_chief").skills["Fight"] == 3


def test_another_system_s_actor_is_refused_by_name(capsys):
    assert main(["import", str(FOUNDRY / "dnd5e_character.json")]) == 2
    err = capsys.readouterr().err
    assert "type 'character' from the 'dnd5e' system" in err and "Fate Core Official" in err
    with pytest.raises(ImportError_):
        read(str(FOUNDRY / "dnd5e_character.json"))


def test_every_fixture_names_the_file_it_follows():
    for folder in (FARI, FOUNDRY):
        listed = (folder / "SOURCES.md").read_text()
        for f in folder.iterdir():
            if f.suffix in (".json", ".db"):
                # its row names the repository file (or code) it follows, in backquotes
                assert re.search(rf"^\| {re.escape(f.name)} \|.*\|[^|]*`[^`]+`[^|]*\|$", listed, re.M), \
                    f"{f.name}: no row naming its source in {folder}/SOURCES.md"


@pytest.mark.parametrize("fixture", ["v2_warden.json", "core_general.json", "cthulhu.json"])
def test_the_whole_output_pastes_as_valid_yaml(capsys, fixture):
    """What the terminal shows (the YAML, then what was not imported and the remarks) is valid YAML
    as one paste: every note is a comment, and the characters are the YAML's own."""
    text, err = _import(capsys, str(FARI / fixture), "--side", "smugglers", "--zone", "dock")
    assert err.strip() and all(line.startswith("#") for line in err.splitlines())
    assert yaml.safe_load(text + err) == yaml.safe_load(err + text) == yaml.safe_load(text)


def test_strict_refuses_a_file_with_anything_unmapped_and_writes_nothing(capsys, tmp_path):
    out = tmp_path / "npcs.yaml"
    assert main(["import", str(FARI / "v2_warden.json"), "--strict", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--strict" in err and "Armor of Fear" in err and not out.exists()
    assert main(["import", str(FARI / "condensed_en.json"), "--strict", "--out", str(out)]) == 0
    assert out.exists()


@pytest.mark.parametrize("text, expected", [
    ("+2 to Fight when you attack.", {"kind": "bonus", "skill": "Fight", "action": "attack", "bonus": 2}),
    ("Because I am a trained duelist, I get a +2 when I use Fight to defend.",
     {"kind": "bonus", "skill": "Fight", "action": "defend", "bonus": 2}),
    ("Gain a +1 on Notice rolls to create an advantage in the same zone.",
     {"kind": "bonus", "skill": "Notice", "action": "create_advantage", "bonus": 1, "when": "same_zone"}),
    ("You can use Provoke to defend against Fight attacks.",
     {"kind": "use_skill", "skill": "Provoke", "action": "defend", "against": "Fight"}),
    ("Use Stealth instead of Fight to attack.", {"kind": "use_skill", "skill": "Stealth", "action": "attack", "reach": "melee"}),
    ("You get two additional mental stress boxes.", {"kind": "extra_stress", "track": "mental", "count": 2}),
    ("You have an additional mild consequence slot for physical harm.", {"kind": "extra_mild", "track": "physical"}),
])
def test_the_common_stunt_phrasings_the_engine_plays(text, expected):
    got = read_stunt("S", text, {"fight": "Fight", "provoke": "Provoke", "stealth": "Stealth", "notice": "Notice"}.get)
    assert got.stunt == {"name": "S", **expected}, got.why


@pytest.mark.parametrize("text, why", [
    ("+2 to Shoot when you attack a target In My Sights.", "cannot check"),
    ("Once per scene, you can use Fight to defend against Shoot attacks.", "once per"),
    ("Use Will instead of Notice (And +2)", "not a phrasing"),
    ("Use Fight instead of Athletics to defend.", "cannot limit"),
    ("You can use Stealth to attack from the shadows.", "from the shadows"),
])
def test_stunts_with_what_the_engine_cannot_check_stay_text_with_the_reason(text, why):
    got = read_stunt("S", text, {"fight": "Fight", "shoot": "Shoot", "will": "Will", "notice": "Notice",
                                 "stealth": "Stealth", "athletics": "Athletics"}.get)
    assert got.stunt is None and why in got.why


def test_the_fixtures_are_the_layouts_their_sources_say():
    versions = {f.stem: json.loads(f.read_text()).get("version") for f in FARI.glob("*.json")}
    assert {versions["v1_top_level"], versions["v2_warden"], versions["core_en"], versions["core_de"],
            versions["core_it"]} == {1, 2, 3, 4, 6}
    assert isinstance(json.loads((FARI / "core_de.json").read_text())["pages"][0]["sections"], dict)
    assert "fariType" not in json.loads((FARI / "condensed_ptbr.json").read_text())
    assert "data" in json.loads((FOUNDRY / "modularfate_0.7.json").read_text())


# -- issue 48: the next set of real files ------------------------------------------------------

def test_fari_s_stress_test_mock_imports_and_names_each_skill_off_the_ladder(capsys):
    """Two skills rated 999: the character comes in, those skills are named and left out (a scene's
    ratings are 0 to 12), and nothing else is lost."""
    assert main(["import", str(FARI / "mock_stress_test.json")]) == 0
    out = capsys.readouterr()
    (c,) = read(str(FARI / "mock_stress_test.json"))
    assert c.name == "Stress Test" and c.skills == {} and c.fate_points == 3
    off = [n for n in c.notes if "rated 999, off the ladder a scene takes (0 to 12)" in n]
    assert [n.split("'")[1] for n in off] == ["Filler Skill 6.0", "Filler Skill 6.1"]
    assert all(n in out.out for n in off) and "characters left out" not in out.err
    assert "'Filler words 0.0'" in out.out  # an unmapped text block keeps its words in the comment
    assert main(["import", str(FARI / "mock_stress_test.json"), "--strict"]) == 2


def test_a_ship_s_aspect_and_stunts_are_read_from_whatever_section_holds_them(capsys):
    """Tachyon Squadron keeps a ship's aspect and stunts in "standard features": a block labelled
    aspect or stunt is read wherever it sits, and a stunt the engine cannot play keeps its words."""
    (ship,) = read(str(FARI / "tachyon_ship.json"))
    assert ship.aspects == ["Patched Hull, Proud Crew"]
    assert [s["name"] for s in ship.stunts] == ["Twin Cannons"] and ship.stunts[0]["skill"] == "Shoot"
    assert main(["import", str(FARI / "tachyon_ship.json")]) == 0
    out = capsys.readouterr().out
    assert "stunt 'Ejection Seat', kept as text" in out and "the pilot walks away from a wreck" in out
    assert "standard features" not in out  # nothing of that section is left unread


def test_a_sheet_of_another_game_is_refused_by_name(capsys):
    assert main(["import", str(FARI / "dnd5e.json")]) == 2
    err = capsys.readouterr().err
    assert "a Dungeons & Dragons 5e sheet (armor class, hit points" in err and "Rapport" not in err


def test_a_pack_of_macros_says_it_holds_macros(capsys):
    assert main(["import", str(FOUNDRY / "pack_macros.db")]) == 2
    err = capsys.readouterr().err
    assert "a pack of 3 macros ('Roll Fight', 'Hand a Fate Point', 'Clear Boosts'), no actors" in err


def test_a_pack_over_the_yaml_limit_is_read_under_the_json_one_and_a_huge_one_is_refused_unread(tmp_path, capsys):
    actor = json.loads((FOUNDRY / "fco_4.6_foundry_12.json").read_text())
    portrait = "data:image/png;base64," + "A" * 60_000  # a pack of actors with portraits: 13 MB
    big = tmp_path / "big.db"
    big.write_text("".join(json.dumps({**actor, "img": portrait, "_id": f"a{i}", "name": f"Thug {i}"}) + "\n"
                           for i in range(220)))
    assert big.stat().st_size > 4 * 1024 * 1024
    assert main(["import", str(big)]) == 0
    assert capsys.readouterr().out.count("kind: major") == 220
    huge = tmp_path / "huge.db"
    small = {"type": "fate-core-official", "system": {"skills": {"a": {"name": "Fight", "rank": 2}}}}
    huge.write_text("".join(json.dumps({**small, "_id": f"a{i}", "name": f"T{i}"}) + "\n" for i in range(30_000)))
    start = time.process_time()
    assert main(["import", str(huge)]) == 2
    assert time.process_time() - start < 2.0  # refused before 30,000 documents are parsed (it took 27 s)
    assert "a compendium pack of 30,000 documents; a scene holds at most 500 characters" in capsys.readouterr().err
