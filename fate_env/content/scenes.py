"""Loading scene files: YAML, checked against a JSON Schema, then against the map.

Every refusal is one :class:`SceneError` naming the file, the field (a dotted
path such as ``characters.og.skills.Fight``) and what was expected. Unknown
keys are refused, never ignored. This module reads a scene end to end; its steps
are modules of their own, whose names it re-exports where callers have always
found them: ``scene_files`` (paths, the error, reading YAML), ``rule_sets``,
``scene_schema``, ``scene_build`` and ``digests``.
"""

from __future__ import annotations

import os
import re
from typing import Any

from ..rules.not_modelled import scene_refusals
from ..rules.scene import Scene
from .suggest import did_you_mean
from .digests import (  # noqa: F401  (re-exported)
    DIGEST_FIELDS, LATER_DEFAULTS, scene_dataclasses, rule_dials, scene_digest,
)
from .rule_sets import MAX_RULE_INHERITS, load_rules, rule_set_chain  # noqa: F401  (re-exported)
from .scene_build import build
from .scene_files import (  # noqa: F401  (re-exported)
    CONTENT_DIR, PACKAGE_DIR, SCHEMA_PATH, SceneError, config_dir, list_scenes, read_scene_data, schema, scene_path,
)
from .scene_schema import check_schema


def load_scene(name_or_path: str | os.PathLike, rules: str | None = None, dials: dict[str, Any] | None = None) -> Scene:
    """Read, validate and build a scene. ``rules`` replaces the scene's rule set by name."""
    file, data = read_scene_data(name_or_path)
    return scene_from_dict(data, file, rules=rules, dials=dials)


#: the most entries a scene may hold in each list (the largest shipped scene has 9 zones, 11
#: characters); each check of a scene is linear in them, so these bound its time and memory
SIZE_LIMITS = {"zones": 10_000, "borders": 50_000, "aspects": 2_000, "characters": 500, "reserves": 500,
               "hazards": 100, "countdowns": 100}


def scene_from_dict(data: Any, file: str = "<scene>", rules: str | None = None,
                    dials: dict[str, Any] | None = None) -> Scene:
    if not isinstance(data, dict):
        raise SceneError(file, "(top level)", f"expected a mapping of scene fields, got {type(data).__name__}")
    for key, most in SIZE_LIMITS.items():  # before anything walks them (the schema check included)
        value = data.get(key)
        if isinstance(value, (list, dict)) and len(value) > most:
            raise SceneError(file, key, f"{len(value):,} entries; a scene holds at most {most:,} (docs/safety.md)")
    for field, message in scene_refusals(data):  # a rule the texts hold that the engine does not play
        raise SceneError(file, field, message)
    if isinstance(data.get("characters"), dict):  # one-line specs ("Thug x4: mob, Fight 2") read first
        from .npc_spec import expand

        def fail(field: str, message: str) -> None:
            raise SceneError(file, field, message)
        zones = [z.get("id") for z in data["zones"] if isinstance(z, dict)] if isinstance(data.get("zones"), list) else []
        data = {**data, "characters": expand(data["characters"], zones, fail)}
        if isinstance(data.get("reserves"), dict):
            data["reserves"] = expand(data["reserves"], zones, lambda f, m: fail("reserves" + f[10:], m),
                                      npcs=data["characters"])
    data = _ladder_ratings(data, file)
    check_schema(data, file)
    return build(data, file, rules, dials or {})


def _ladder_ratings(data: dict, file: str) -> dict:
    """Skill ratings written as the ladder's words (``Shoot: Great``, ``"Great (+4)"``, ``"+4"``) read as
    their numbers on the ladder (003:184-208); a word and a number that disagree are refused."""
    from ..rules.ladder import LADDER
    named = {v.lower(): k for k, v in LADDER.items()}

    def number(field: str, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        m = re.fullmatch(r"\s*([A-Za-z]+)?\s*\(?\s*([+-]?\d+)?\s*\)?\s*", value)
        if not m or not (m.group(1) or m.group(2)):
            return value
        word, digits = m.group(1), m.group(2)
        if word is None:
            return int(digits)
        if word.lower() not in named:
            guess = did_you_mean(word, LADDER.values())
            if guess:
                raise SceneError(file, field, f"expected a whole number or a word of the ladder, got {value!r}{guess}; "
                                              "the ladder: " + ", ".join(f"{n} {k:+d}" for k, n in LADDER.items()))
            return value  # not a ladder word: the schema check says what a rating is
        rating = named[word.lower()]
        if digits is not None and int(digits) != rating:
            raise SceneError(file, field, f"{value!r}: {word} is {rating:+d} on the ladder, not {int(digits):+d}")
        return rating

    out = dict(data)
    for group in ("characters", "reserves"):
        if not isinstance(data.get(group), dict):
            continue
        chars = {}
        for cid, c in data[group].items():
            if isinstance(c, dict) and isinstance(c.get("skills"), dict):
                c = {**c, "skills": {k: number(f"{group}.{cid}.skills.{k}", v) for k, v in c["skills"].items()}}
            chars[cid] = c
        out[group] = chars
    return out
