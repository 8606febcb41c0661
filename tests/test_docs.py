"""The generated reference pages (issue 16): the scene format from the JSON Schema and the
spaces from the layout code are what the code gives now, and every schema field is described."""

from __future__ import annotations

import importlib.util

from conftest import ROOT

from fate_env.reference import scene_reference, spaces_reference, undescribed


def _make_docs():
    spec = importlib.util.spec_from_file_location("make_docs", ROOT / "scripts" / "make_docs.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_schema_field_has_a_meaning():
    assert undescribed() == []


def test_the_generated_pages_are_up_to_date():
    assert _make_docs().main(["--check"]) == 0, "run python scripts/make_docs.py"


def test_the_scene_reference_lists_every_character_field_and_the_when_examples():
    from fate_env.content.scenes import schema
    text = scene_reference()
    for field in schema()["$defs"]["character"]["properties"]:
        assert f"| `{field}` |" in text
    for tag in ("aspect: Giant Spiked Club", "{aspect: Giant Spiked Club}", "same_zone", "other_zone", "full_defense"):
        assert tag in text
    assert "`shoot_range: 0`" in text


def test_the_spaces_page_adds_up_to_the_layout():
    from fate_env.environment.actions import ActionLayout
    from fate_env.content.scenes import load_scene
    text = spaces_reference()
    lay = ActionLayout(load_scene("warehouse"))
    assert f"{lay.n} actions in all." in text
    for seg in lay.segments.values():
        assert f"`{seg.name}`" in text
