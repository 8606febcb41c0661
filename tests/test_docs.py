"""The generated reference pages (issue 16): the scene format from the JSON Schema and the
spaces from the layout code are what the code gives now, and every schema field is described."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

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


#: where a path a page names may be rooted: the repository, the package, its rules core, the fast core...
_BASES = ("", "fate_env", "fate_env/rules", "fate_env/fast", "docs", "configs", "tests")
#: the pages that describe the code as it is (docs/results/ are dated records of their day)
_PAGES = [ROOT / "README.md", ROOT / "ARCHITECTURE.md", *sorted((ROOT / "docs").glob("*.md"))]


def _source_words() -> set[str]:
    """Every word of the source, configs, scripts and tests: a name a page shows must be one of them."""
    words: set[str] = set()
    for folder in ("fate_env", "agents", "configs", "scripts", "tests"):
        for p in (ROOT / folder).rglob("*"):
            if p.is_file() and p.suffix in (".py", ".yaml", ".json", ".js", ".html", ".css") and "__pycache__" not in p.parts \
                    and p.name != "test_docs.py":  # this file names what is gone, to test the check
                words.update(re.findall(r"\w+", p.read_text(errors="ignore")))
    return words | set(re.findall(r"\w+", (ROOT / "pyproject.toml").read_text()))


def missing_names(pages: list[Path], words: set[str]) -> list[str]:
    """The code names the pages show in backticks that the code does not have: a file path that is
    not there, or a snake_case or dotted name (``_handover``, ``Table.change``) no source file
    spells. Placeholders in capitals (``configs/rules/NAME.yaml``) are left alone."""
    out = []
    for page in pages:
        text = page.read_text()
        for m in re.finditer(r"`([^`\n]+)`", text):
            tok, line = m.group(1).strip(), text.count("\n", 0, m.start()) + 1
            if tok.startswith("../"):
                continue  # outside the repository (the workplace's shared texts): not the code's to hold
            if re.fullmatch(r"[\w./-]+\.(py|yaml|md|json|js|png|csv)", tok) and "/" in tok:
                if not re.search(r"\b[A-Z]{3,}\b", tok) and not any((ROOT / b / tok).exists() for b in _BASES):
                    out.append(f"{page.name}:{line}: {tok} (no such file)")
            elif re.fullmatch(r"_?[A-Za-z]\w*(\.[A-Za-z_]\w*)*(\(\))?", tok) and ("_" in tok or "." in tok.rstrip("()")):
                gone = [part for part in tok.rstrip("()").split(".") if part not in words]
                if gone:
                    out.append(f"{page.name}:{line}: {tok} (no {gone[0]} in the code)")
    return out


def test_every_code_name_a_page_shows_exists():
    assert missing_names(_PAGES, _source_words()) == []


def test_the_names_check_can_fail(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("It calls `_check_bail` in `fate_env/content/importers.py`, then `Table.change`.\n")
    words = _source_words()
    assert missing_names([page], words) == ["page.md:1: _check_bail (no _check_bail in the code)",
                                            "page.md:1: fate_env/content/importers.py (no such file)"]


def test_every_registered_policy_has_its_row_in_the_npcs_page():
    from agents.registry import controller_names
    text = (ROOT / "docs" / "npcs.md").read_text()
    rows = set(re.findall(r"^\| `(\w+)(?::PATH)?` \|", text, re.M))
    assert set(controller_names()) - rows == set(), "docs/npcs.md has no row for these policies"
