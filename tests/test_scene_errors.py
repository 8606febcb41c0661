"""Scene errors that say how to fix them (issue 37): a misspelled or lower-case name gets "did you
mean" and the list; a rating written as the ladder's word is read; a YAML syntax error names the
line and column, shows the line and says what is wrong in plain words; a one-line spec names the
part that is wrong; a reserve on a side nobody is on is refused. Every case loads a real file made
from `fate-npc new`'s template with one slip in it."""

from __future__ import annotations

import re

import pytest

from fate_env.cli import main
from fate_env.content.scene_template import write
from fate_env.content.scenes import SceneError, load_scene

PARSER_WORDS = ("block end", "block mapping", "simple key", "stream", "scalar", "token", "<")


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> str:
    path = write(str(tmp_path_factory.mktemp("new") / "base"), rules="condensed", force=False)
    return open(path, encoding="utf-8").read()


def _load(tmp_path, text: str) -> SceneError:
    path = tmp_path / "slip.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SceneError) as info:
        load_scene(str(path))
    return info.value


def _slip(template: str, old: str, new: str) -> str:
    assert template.count(old) >= 1, old
    return template.replace(old, new, 1)


HERO_SKILLS = "skills: {Fight: 3, Athletics: 2, Notice: 2"


@pytest.mark.parametrize("wrong, right", [("shoot", "Shoot"), ("Figth", "Fight"), ("athletics", "Athletics")])
def test_a_misspelled_or_lower_case_skill_gets_did_you_mean_and_the_list(tmp_path, template, wrong, right):
    err = _load(tmp_path, _slip(template, HERO_SKILLS, HERO_SKILLS.replace("Fight", wrong)))
    assert err.field == f"characters.hero.skills.{wrong}"
    assert f"did you mean {right!r}" in err.message
    assert "Academics, Athletics, Burglary" in err.message and "Will" in err.message


@pytest.mark.parametrize("old, new, field, guess", [
    ("    fate_points: 3", "    fate_pionts: 3", "characters.hero.fate_pionts", "fate_points"),
    ("    zone: street", "    zone: stret", "characters.hero.zone", "street"),
    ("    kind: pc ", "    kind: PC ", "characters.hero.kind", "pc"),
    ("first: hero", "first: heor", "first", "hero"),
])
def test_a_misspelled_field_zone_or_kind_gets_did_you_mean(tmp_path, template, old, new, field, guess):
    err = _load(tmp_path, _slip(template, old, new))
    assert err.field == field and f"did you mean {guess!r}" in err.message


def test_a_misspelled_policy_gets_did_you_mean_with_the_field(tmp_path, template, capsys):
    path = tmp_path / "slip.yaml"
    path.write_text(_slip(template, "controller: tactician", "controller: tacticain"), encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "characters.boss.controller" in err and "did you mean 'tactician'" in err
    assert main(["resolve", "duel", "--control", "rivl=random"]) == 2
    assert "did you mean 'rival'" in capsys.readouterr().err


def test_a_misspelled_parameter_in_the_policies_file_is_refused(tmp_path, capsys, monkeypatch):
    import shutil

    from conftest import ROOT
    configs = tmp_path / "configs"
    shutil.copytree(ROOT / "configs", configs)
    policies = configs / "policies.yaml"
    policies.write_text(re.sub(r"^basic:( *)\{concede_margin", r"basic:\1{concede_margn", policies.read_text(), flags=re.M))
    monkeypatch.setenv("FATE_NPC_CONFIGS", str(configs))
    assert main(["resolve", "duel", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert "basic.concede_margn: unknown parameter (did you mean 'concede_margin'?)" in err


@pytest.mark.parametrize("value, says", [("abc", "basic.concede_margin: 'abc' is not a whole number"),
                                         ("[1]", "basic.concede_margin: [1] is not a whole number"),
                                         ("true", "basic.concede_margin: True is not a whole number")])
def test_a_parameter_of_the_wrong_kind_in_the_policies_file_is_one_line(tmp_path, capsys, monkeypatch, value, says):
    import shutil

    from conftest import ROOT
    configs = tmp_path / "configs"
    shutil.copytree(ROOT / "configs", configs)
    policies = configs / "policies.yaml"
    policies.write_text(re.sub(r"^basic:( *)\{concede_margin: 1", rf"basic:\1{{concede_margin: {value}",
                               policies.read_text(), flags=re.M))
    monkeypatch.setenv("FATE_NPC_CONFIGS", str(configs))
    assert main(["resolve", "duel", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_vary_range_of_words_names_vary(capsys):
    assert main(["bench", "duel", "-n", "2", "--vary", "characters.cynere.skills.Fight=a..b"]) == 2
    err = capsys.readouterr().err
    assert "--vary 'characters.cynere.skills.Fight=a..b'" in err and "LOW..HIGH" in err and "invalid literal" not in err


@pytest.mark.parametrize("written, rating", [('"Great"', 4), ("great", 4), ('"Great (+4)"', 4), ('"+4"', 4), ("Epic", 7)])
def test_a_rating_written_as_the_ladder_s_word_is_read_as_its_number(tmp_path, template, written, rating):
    path = tmp_path / "ladder.yaml"
    path.write_text(_slip(template, HERO_SKILLS, HERO_SKILLS.replace("Fight: 3", f"Fight: {written}")), encoding="utf-8")
    assert load_scene(str(path)).character("hero").skills["Fight"] == rating


def test_a_ladder_word_and_number_that_disagree_or_a_near_word_are_refused(tmp_path, template):
    err = _load(tmp_path, _slip(template, HERO_SKILLS, HERO_SKILLS.replace("Fight: 3", 'Fight: "Great (+3)"')))
    assert "Great is +4 on the ladder, not +3" in err.message
    err = _load(tmp_path, _slip(template, HERO_SKILLS, HERO_SKILLS.replace("Fight: 3", "Fight: Grate")))
    assert "did you mean 'Great'" in err.message and "Great +4" in err.message


@pytest.mark.parametrize("old, new, says, line", [
    ("    kind: pc ", "\tkind: pc ", "a tab; YAML indents with spaces only", "kind: pc"),
    ("    kind: pc ", "    kind pc ", "a missing colon: 'kind pc", None),
    ("    side: pcs ", "   side: pcs ", "the indentation is off", "side: pcs"),
    ("skills: {Fight: 3,", "skills: {Fight: 3", "is not closed with '}', or a ',' is missing", None),
    ("name: Wharf rats", 'name: "Wharf rats', "a quote opened on line", 'name: "Wharf rats'),
])
def test_a_yaml_syntax_error_in_plain_words_with_its_line(tmp_path, template, old, new, says, line):
    text = _slip(template, old, new)
    err = _load(tmp_path, text)
    assert re.fullmatch(r"line \d+(, column \d+)?", err.field), err.field
    number = int(err.field.split()[1].rstrip(","))
    assert says in err.message
    if line is not None:
        assert line in err.message and line in text.split("\n")[number - 1]
    assert not any(w in err.message.split(":")[0] for w in PARSER_WORDS), err.message


RESERVE = '  watch: "City Watch x3: mob, Fight 2, Notice 1, side: gang, zone: street"'


@pytest.mark.parametrize("spec, says", [
    ("City Watch x3 mob, Fight 2, Notice 1, side: gang, zone: street", "a colon is missing after the name"),
    ("City Watch x3: mob, Fight 2, Notice 1, side gang, zone: street", "a colon is missing after 'side'; write 'side: gang'"),
    ("City Watch x3: mob, Fight 2, Notice 1, sdie: gang, zone: street", "did you mean 'side'"),
    ("City Watch x3: mob, Fight 2, Notice 1, side: gnag, zone: street", "no character is on side 'gnag' (did you mean 'gang'?)"),
])
def test_a_one_line_spec_names_the_part_that_is_wrong_and_a_reserve_needs_a_side_in_the_fight(tmp_path, template, spec, says):
    err = _load(tmp_path, _slip(template, RESERVE, f'  watch: "{spec}"'))
    assert err.field.startswith("reserves.watch") and says in err.message


def test_a_reserve_bringing_a_new_side_is_said_by_validate(tmp_path, template, capsys):
    path = tmp_path / "third.yaml"
    path.write_text(_slip(template, RESERVE, '  watch: "City Watch x3: mob, Fight 2, side: watch, zone: street"'),
                    encoding="utf-8")
    assert main(["validate", str(path)]) == 0
    assert "reserves.watch brings a new side, 'watch'" in capsys.readouterr().err
