"""Inputs are bounded (issue 33): a YAML file that is a device, too large, nested too deep or an
alias bomb is refused in one line, quickly, by every reader (fate_env/content/yaml_input.py)."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fate_env.content import yaml_input
from fate_env.cli import main
from fate_env.content.scenes import SceneError, load_scene


def _bomb(levels: int = 9) -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]")
    return "\n".join(lines) + "\n"


def _one_line_error(capsys, argv) -> str:
    start = time.perf_counter()
    assert main(argv) != 0
    assert time.perf_counter() - start < 20  # bounded: the bomb used to grow to gigabytes
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err and len(err) < 400
    return err


def test_an_alias_bomb_is_refused_by_validate(tmp_path, capsys):
    f = tmp_path / "bomb.yaml"
    f.write_text(_bomb())
    assert "aliases expand to over" in _one_line_error(capsys, ["validate", str(f)])


def test_deep_nesting_is_refused_with_its_place(tmp_path, capsys):
    f = tmp_path / "deep.yaml"
    f.write_text("name: deep\nzones: " + "[" * 3000 + "]" * 3000 + "\n")
    err = _one_line_error(capsys, ["validate", str(f)])
    assert "nested deeper than 64 levels" in err and "line 2" in err


def test_a_device_and_an_oversized_file_are_not_read(tmp_path, capsys, monkeypatch):
    assert "not a regular file" in _one_line_error(capsys, ["validate", "/dev/zero"])
    big = tmp_path / "big.yaml"
    big.write_text("name: big\n# " + "x" * 200 + "\n")
    monkeypatch.setattr(yaml_input, "MAX_BYTES", 100)
    assert "over 100 bytes" in _one_line_error(capsys, ["validate", str(big)])


def test_a_rule_set_is_named_not_a_path(capsys):
    err = _one_line_error(capsys, ["validate", "duel", "--rules", "../scenes/duel"])
    assert "not a rule-set name (a name, never a path)" in err


def test_a_deep_dial_value_is_one_line(capsys):
    err = _one_line_error(capsys, ["eval", "duel", "--policies", "basic", "-n", "1", "--dial", "x=" + "[" * 200 + "]" * 200])
    assert "--dial x" in err and "nested deeper" in err


@settings(max_examples=60, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers(-5, 20) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=30))
def test_any_yaml_value_as_a_scene_is_a_scene_or_one_scene_error(tmp_path_factory, value):
    """The scene surface's fuzz: whatever YAML value a file holds, loading it gives a scene or a
    SceneError naming the file, never another exception."""
    import yaml
    f = tmp_path_factory.mktemp("fuzz") / "s.yaml"
    f.write_text(yaml.safe_dump(value))
    try:
        load_scene(f)
    except SceneError as exc:
        assert str(f) in str(exc) and "\n" not in str(exc)
