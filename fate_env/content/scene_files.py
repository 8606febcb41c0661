"""Where the shipped scenes, rule sets and configs live, the scene format's one error (:class:`SceneError`:
file, field, what was expected), the schema, and reading a scene file (UTF-8 YAML, bounded, refusing a
key written twice)."""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from .yaml_input import explain as explain_yaml
from .yaml_input import BoundedLoader, InputTooLarge, read_bounded


CONTENT_DIR = Path(__file__).resolve().parent
PACKAGE_DIR = CONTENT_DIR.parent
SCHEMA_PATH = CONTENT_DIR / "schema" / "scene.schema.json"


def config_dir() -> Path:
    """Where the shipped scenes, rule sets and configs are: ``$FATE_NPC_CONFIGS`` if set; else the
    copy an install carries inside the package (``fate_env/configs``, setup.py puts it there);
    else ``configs/`` beside the package (a checkout, or an editable install). Never the current
    folder: a command means the same from anywhere."""
    env = os.environ.get("FATE_NPC_CONFIGS")
    if env:
        return Path(env)
    installed = PACKAGE_DIR / "configs"
    return installed if installed.is_dir() else PACKAGE_DIR.parent / "configs"


class SceneError(ValueError):
    """A scene file that cannot be played, with where and why."""

    def __init__(self, file: str, field: str, message: str):
        from .safe_text import excerpt
        self.file, self.field, self.message = file, field, message
        # one line, whatever the file held: control characters escaped, long values cut short
        super().__init__(f"{excerpt(str(file), 200)}: {excerpt(str(field), 120)}: {excerpt(str(message), 400)}")


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text())


def scene_path(name_or_path: str | os.PathLike) -> Path:
    """A path as given, or a shipped scene by name (``warehouse``)."""
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml") or p.exists():
        return p
    return config_dir() / "scenes" / f"{name_or_path}.yaml"


def list_scenes() -> list[str]:
    return sorted(p.stem for p in (config_dir() / "scenes").glob("*.yaml"))


class _UniqueKeyLoader(BoundedLoader):
    """PyYAML's safe loader, refusing a key written twice in one mapping (by default the
    second silently replaces the first: a character would vanish)."""


def _mapping_without_duplicates(loader: _UniqueKeyLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":  # `<<: *anchor` merges are not duplicates
            continue
        key = loader.construct_object(key_node, deep=True)
        try:
            first = seen.setdefault(key, key_node.start_mark.line + 1)
        except TypeError:  # an unhashable key: the schema check names it later
            continue
        if first != key_node.start_mark.line + 1:
            raise yaml.constructor.ConstructorError(
                None, None, f"the key {key!r} is written twice (first on line {first})", key_node.start_mark)
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping_without_duplicates)


def read_scene_data(name_or_path: str | os.PathLike) -> tuple[str, Any]:
    """The file name and the raw mapping of a scene file: UTF-8 YAML, no key written twice."""
    path = scene_path(name_or_path)
    file = str(path)
    try:
        raw = read_bounded(path, what="YAML scene file")
    except InputTooLarge as exc:
        raise SceneError(file, "(file)", str(exc)) from None
    except OSError as exc:
        raise SceneError(file, "(file)", f"cannot read the scene file: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise SceneError(file, f"line {line}", f"byte 0x{raw[exc.start]:02x} is not UTF-8 text; "
                                               "expected a UTF-8 YAML file (save it as UTF-8)") from None
    if "\x00" in text:
        raise SceneError(file, "(file)", "a binary file (it holds NUL bytes); expected a UTF-8 YAML scene file")
    try:
        data = yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        problem = getattr(exc, "problem", None) or str(exc)
        if "written twice" in problem:
            mark = getattr(exc, "problem_mark", None)
            where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "(YAML)"
            raise SceneError(file, where, f"{problem}; expected each key once in a mapping") from None
        where, why = explain_yaml(exc, text)
        raise SceneError(file, where, why) from None
    return file, data
