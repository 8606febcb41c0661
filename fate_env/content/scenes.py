"""Loading scene files: YAML, checked against a JSON Schema, then against the map.

Every refusal is one :class:`SceneError` naming the file, the field (a dotted
path such as ``characters.og.skills.Fight``) and what was expected. Unknown
keys are refused, never ignored.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
import typing
from typing import Any

import jsonschema
import yaml

from ..rules.not_modelled import BY_PLACE, scene_refusals
from ..rules.ruleset import RuleSet, RuleSetError
from ..rules.ruleset import from_dict as ruleset_from_dict
from ..rules.scene import (
    COUNTDOWN_TRIGGERS, SCALES, Block, Border, ChallengeSpec, CharacterSheet, ContestSpec, Countdown, Distraction, Hazard, Scene, SceneAspect,
    Stunt, Task, Threat, Zone, parse_when,
)
from ..rules.skills import ATTACK_SKILLS, DEFAULT_ADVANTAGES, DEFAULT_SKILLS, AdvantageTemplate
from .suggest import did_you_mean
from .yaml_input import BoundedLoader, InputTooLarge, read_bounded
from .yaml_input import explain as explain_yaml
from .yaml_input import load_file as load_yaml_file

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


#: how many rule sets one ``inherits:`` chain may hold (condensed <- core is two)
MAX_RULE_INHERITS = 8
_RULE_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*")


def _rule_file(name: Any, file: str, field: str) -> Path:
    folder = config_dir() / "rules"
    path = folder / f"{name}.yaml"
    if not _RULE_NAME.fullmatch(str(name)) or not path.exists():
        known = ", ".join(sorted(p.stem for p in folder.glob("*.yaml")))
        what = "no rule set named" if re.fullmatch(r"[A-Za-z0-9_.-]+", str(name)) else "not a rule-set name (a name, never a path):"
        raise SceneError(file, field, f"{what} {str(name)[:40]!r}; expected one of {known}")
    return path


def _over(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    """A child rule set's dials over its parent's: a dial it states replaces the parent's whole
    (a table is one value), except ``stress``, whose own dials are taken one by one."""
    merged = {**parent, **child}
    if isinstance(parent.get("stress"), dict) and isinstance(child.get("stress"), dict):
        base = dict(parent["stress"])
        if "one_box_per_hit" in child["stress"] and "style" not in child["stress"]:
            base.pop("style", None)  # the style follows the box rule unless named (as RuleSet.with_dials)
        merged["stress"] = {**base, **child["stress"]}
    return merged


def rule_set_chain(name: str, file: str = "<rules>", field: str = "rules") -> list[tuple[Path, dict[str, Any]]]:
    """The files of a rule set and of those it ``inherits:``, itself first, each with its own mapping.

    A rule set states only where it differs from the one it inherits (Fate Core from Fate
    Condensed); the chain is at most :data:`MAX_RULE_INHERITS` long and never loops."""
    chain: list[tuple[Path, dict[str, Any]]] = []
    while True:
        path = _rule_file(name, file, field)
        if any(p == path for p, _ in chain):
            raise SceneError(str(chain[-1][0]), "inherits", f"{name} inherits back from {chain[-1][0].stem}; "
                             "expected a chain that ends in a rule set that inherits nothing (condensed)")
        if len(chain) >= MAX_RULE_INHERITS:
            raise SceneError(str(path), "inherits", f"a chain of over {MAX_RULE_INHERITS} rule sets")
        data = load_yaml_file(path, "rule-set file")
        if not isinstance(data, dict):
            raise SceneError(str(path), "(rule set)", "expected a mapping of dials")
        chain.append((path, data))
        if "inherits" not in data:
            return chain
        if "name" not in data:
            raise SceneError(str(path), "name", "a rule set that inherits states its own name "
                             f"(else it would be called {data['inherits']!r} too)")
        file, field, name = str(path), "inherits", data["inherits"]


def load_rules(name: str, file: str = "<rules>", field: str = "rules") -> RuleSet:
    """A shipped rule set by name, with what it inherits filled in."""
    chain = rule_set_chain(name, file, field)
    data: dict[str, Any] = {}
    for _, own in reversed(chain):
        data = _over(data, {k: v for k, v in own.items() if k != "inherits"})
    if len(chain) > 1 and "title" not in chain[0][1]:
        data["title"] = data["name"]  # a parent's title would name the wrong set
    try:
        return ruleset_from_dict(data)
    except (RuleSetError, ValueError) as exc:
        raise SceneError(str(chain[0][0]), "(rule set)", str(exc)) from None


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
    _check_schema(data, file)
    scene = _build(data, file, rules, dials or {})
    if data.get("reserves"):
        scene = replace(scene, reserves=_reserves(data, file, rules, dials or {}))
    return scene


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


def _reserves(data: dict, file: str, rules: str | None, dials: dict) -> tuple:
    """The reserves, checked as the scene's characters are (each as if it were in the scene)."""
    sides = sorted({c.get("side") for c in data["characters"].values() if isinstance(c, dict)} - {None})
    for rid, r in data["reserves"].items():
        if rid in data["characters"]:
            raise SceneError(file, f"reserves.{rid}", "already a character's id; expected a new id")
        slip = isinstance(r, dict) and isinstance(r.get("side"), str) and r["side"] not in sides
        guess = did_you_mean(r["side"], sides) if slip else ""
        if guess:  # a slip, not a new party arriving (validate says so)
            raise SceneError(file, f"reserves.{rid}.side", f"no character is on side {r['side']!r}{guess}; a reserve "
                             f"joins a side of the fight ({', '.join(sides)}) or brings a new one with a name unlike "
                             "theirs")
    merged = {k: v for k, v in data.items() if k != "reserves"}
    merged["characters"] = {**data["characters"], **data["reserves"]}
    try:
        whole = _build(merged, file, rules, dials)
    except SceneError as exc:
        field = exc.field
        for rid in data["reserves"]:
            if field == f"characters.{rid}" or field.startswith(f"characters.{rid}."):
                field = "reserves" + field[len("characters"):]
        raise SceneError(file, field, exc.message) from None
    return tuple(c for c in whole.characters if c.id in data["reserves"])


# -- schema ---------------------------------------------------------------

def _field(path) -> str:
    parts = [str(p) for p in path]
    return ".".join(parts) if parts else "(top level)"


def _describe(err: jsonschema.ValidationError) -> tuple[str, str]:
    path = list(err.absolute_path)
    v, val = err.validator, err.validator_value
    inst = err.instance
    if v == "required":
        missing = [k for k in val if k not in inst]
        return _field(path + missing[:1]), "missing required field"
    if v == "additionalProperties":
        extra = sorted(set(inst) - set(err.schema.get("properties", {})))
        allowed = sorted(err.schema.get("properties", {}))
        guess = did_you_mean(extra[0], allowed) if extra else ""
        return _field(path + extra[:1]), f"unknown field{guess}; expected one of: {', '.join(allowed)}"
    if v == "propertyNames":
        return _field(path + [err.instance]), "expected a lower-case id (letters, digits, _ or -)"
    if v == "type":
        return _field(path), f"expected {_type_name(val)}, got {inst!r}"
    if v == "enum":
        guess = did_you_mean(inst, map(str, val)) if isinstance(inst, str) else ""
        return _field(path), f"expected one of {', '.join(map(str, val))}, got {inst!r}{guess}"
    if v == "minimum":
        return _field(path), f"expected a number >= {val}, got {inst!r}"
    if v == "maximum":
        return _field(path), f"expected a number <= {val}, got {inst!r}"
    if v == "pattern":
        return _field(path), f"expected an id of letters, digits, _ or -, got {inst!r}"
    if v in ("minItems", "maxItems"):
        return _field(path), f"expected {'at least' if v == 'minItems' else 'at most'} {val} item(s)"
    if v == "minProperties":
        return _field(path), f"expected at least {val} entries"
    if "when" in path[-2:]:  # a stunt's circumstance, or a key inside its mapping form
        path = path[:path.index("when", len(path) - 2) + 1]
        return _field(path), ("expected a circumstance the engine can check, as text ('aspect: NAME' in quotes, "
                              "'zone: ZONE', 'target: ID', same_zone, other_zone, full_defense) or a mapping "
                              "({aspect: NAME}, {zone: ZONE} or {target: ID})")
    if v == "oneOf" and path[:1] == ["rules"]:
        return "rules", "expected a rule-set name (condensed, core) or {name: ..., dials: {...}}"
    if v == "uniqueItems":
        return _field(path), "expected no repeated items"
    if v == "minLength":
        return _field(path), "expected a non-empty text"
    return _field(path), err.message


def _type_name(t: str | list) -> str:
    names = {"integer": "a whole number", "string": "a text", "object": "a mapping", "array": "a list",
             "boolean": "true or false", "number": "a number"}
    if isinstance(t, list):
        return " or ".join(names.get(x, x) for x in t)
    return names.get(t, t)


def _check_schema(data: dict, file: str) -> None:
    validator = jsonschema.Draft202012Validator(schema())
    err = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if err is not None:
        field, message = _describe(err)
        raise SceneError(file, field, message)


# -- build ----------------------------------------------------------------

def _build(data: dict, file: str, rules_override: str | None, dials: dict[str, Any]) -> Scene:
    def fail(field: str, message: str) -> None:
        raise SceneError(file, field, message)

    rules_spec = data.get("rules", "condensed")
    rules_name = rules_spec if isinstance(rules_spec, str) else rules_spec["name"]
    scene_dials = {} if isinstance(rules_spec, str) else dict(rules_spec.get("dials", {}))
    ruleset = load_rules(rules_override or rules_name, file, "rules (as overridden by --rules)" if rules_override else "rules")
    try:
        if scene_dials:
            ruleset = ruleset.with_dials(scene_dials)
        if dials:
            ruleset = ruleset.with_dials(dials)
    except RuleSetError as exc:
        fail("rules.dials", str(exc))
    # the scene's words (older skill names, gear by name) are its own rule set's, also when --rules
    # plays it under another: the override changes how the game plays, not what the file means
    vocab = ruleset if not rules_override or rules_override == rules_name else load_rules(rules_name, file, "rules")
    if vocab.skill_names:
        data = _older_skill_names(data, dict(vocab.skill_names))

    zones = tuple(Zone(z["id"], z.get("name", z["id"])) for z in data["zones"])
    zone_ids = [z.id for z in zones]
    if len(set(zone_ids)) != len(zone_ids):
        dup = next(z for z in zone_ids if zone_ids.count(z) > 1)
        fail("zones", f"zone id {dup!r} appears twice; expected unique ids")

    known_zones = set(zone_ids)

    def check_zone(field: str, zid: str) -> None:
        if zid not in known_zones:
            fail(field, f"no zone {zid!r}{did_you_mean(zid, zone_ids)}; expected one of {', '.join(zone_ids)}")

    aspects = []
    for i, a in enumerate(data.get("aspects", [])):
        if "zone" in a:
            check_zone(f"aspects.{i}.zone", a["zone"])
        aspects.append(SceneAspect(a["name"], a.get("zone"), dict(a.get("free_invokes", {}))))
    aspect_names = {a.name for a in aspects}

    borders = []
    seen_pairs = set()
    for i, b in enumerate(data.get("borders", [])):
        a_id, b_id = b["between"]
        check_zone(f"borders.{i}.between", a_id)
        check_zone(f"borders.{i}.between", b_id)
        if a_id == b_id or frozenset((a_id, b_id)) in seen_pairs:
            fail(f"borders.{i}.between", "expected two different zones joined by one border only")
        seen_pairs.add(frozenset((a_id, b_id)))
        if "aspect" in b and b["aspect"] not in aspect_names:
            fail(f"borders.{i}.aspect", f"no scene aspect {b['aspect']!r}; expected the name of an entry in aspects")
        block = None
        if "block" in b:
            k = b["block"]
            if k["name"] in aspect_names:
                fail(f"borders.{i}.block.name", f"{k['name']!r} is already a scene aspect; a block's name is its aspect")
            block = Block(k["name"], k["rating"], k.get("weapon", 0), k.get("remove"), k.get("cover", "none"))
        borders.append(Border(a_id, b_id, b.get("difficulty", 0), b.get("aspect"), b.get("blocks_ranged", False),
                              block))

    skills = set(DEFAULT_SKILLS) | set(data.get("skills", []))
    known = "one of " + ", ".join(sorted(skills)) + (" (the default skills and the scene's skills list)"
                                                      if data.get("skills") else " (the default skills; a scene's "
                                                      "skills: list adds more)")
    if vocab.skill_names:
        known += f", or the {vocab.name} rule set's names ({', '.join(k for k, _ in vocab.skill_names)})"
    known_skills = sorted(skills)
    advantages = list(DEFAULT_ADVANTAGES)
    for i, t in enumerate(data.get("advantages", [])):
        for j, s in enumerate(t["skills"] + t.get("defend", [])):
            if s not in skills:
                fail(f"advantages.{i}.skills", f"unknown skill {s!r}{did_you_mean(s, known_skills)}; expected {known}")
        advantages = [x for x in advantages if x.name != t["name"]]
        advantages.append(AdvantageTemplate(t["name"], tuple(t["skills"]), t["target"], t.get("track", "physical"),
                                            tuple(t.get("defend", ("Athletics",))), t.get("difficulty", 2)))

    chars = []
    for cid, c in data["characters"].items():
        base = f"characters.{cid}"
        check_zone(f"{base}.zone", c["zone"])
        for s in c["skills"]:
            if s not in skills:
                fail(f"{base}.skills.{s}", f"unknown skill{did_you_mean(s, known_skills)}; expected {known}")
        kind = c["kind"]
        if kind in ("pc", "major") and "stress" in c:
            fail(f"{base}.stress", f"a {kind}'s stress boxes come from Physique and Will; "
                 "expected no stress field (use an extra_stress stunt)")
        if kind != "mob" and "count" in c:
            fail(f"{base}.count", "expected count only on a mob")
        if kind == "mob" and c.get("count", 1) < 2:
            fail(f"{base}.count", "expected a mob of at least 2 members")
        stunts = []
        for j, st in enumerate(c.get("stunts", [])):
            sfield = f"{base}.stunts.{j}"
            stunts.append(_stunt(st, sfield, skills, known, fail))
        for j, st in enumerate(stunts):
            if st.kind == "zone_attack" and st.skill not in ATTACK_SKILLS and not any(
                    o.kind == "use_skill" and o.action == "attack" and o.skill == st.skill for o in stunts):
                fail(f"{base}.stunts.{j}.skill", f"{st.skill!r} cannot attack; expected Fight, Shoot, Provoke or a "
                     "skill a use_skill stunt lets this character attack with")
        if "extreme_replaces" in c:
            others = [x for x in [c.get("trouble")] + list(c.get("aspects", [])) if x]
            if kind in ("minor", "mob"):
                fail(f"{base}.extreme_replaces", "minor NPCs and mobs take no consequences; expected no extreme_replaces")
            if c["extreme_replaces"] not in others:
                fail(f"{base}.extreme_replaces", "expected the trouble or one of the aspects (never the high "
                     f"concept, 003:2209-2211): one of {others}")
        scale = c.get("scale", 0)
        if isinstance(scale, str):
            if scale not in SCALES:
                fail(f"{base}.scale", f"expected a level 0-4 or one of {', '.join(SCALES)}, got {scale!r}")
            scale = SCALES.index(scale)
        solo = tuple(c.get("solo_bonus", ()))
        if solo and kind != "major":
            fail(f"{base}.solo_bonus", f"a solo bonus is a big bad's (003:2574-2602); expected it on a major NPC, not a {kind}")
        if c.get("minion_armor") and kind != "major":
            fail(f"{base}.minion_armor", f"expendable minion armor is a big bad's (003:2534-2549); expected it on "
                 f"a major NPC, not a {kind}")
        if {"reduce_stress", "reduce_stress_min_1"} <= set(solo):
            fail(f"{base}.solo_bonus", "reduce_stress and reduce_stress_min_1 are two readings of one bonus; expected one")
        if ruleset.consequence_rule == "ordered" and any(s.kind == "extra_mild" for s in stunts):
            fail(f"{base}.stunts", "under consequence_rule: ordered a character carries three consequences at most "
                 "(001:123); expected no extra_mild stunt")
        if kind in ("minor", "mob") and any(s.kind == "extra_mild" for s in stunts):
            fail(f"{base}.stunts", "minor NPCs and mobs have no consequence slots; expected no extra_mild stunt")
        chars.append(CharacterSheet(
            id=cid, name=c.get("name", cid.capitalize()), kind=kind, side=c["side"], zone=c["zone"],
            skills=dict(c["skills"]), high_concept=c.get("high_concept"), trouble=c.get("trouble"),
            aspects=tuple(c.get("aspects", [])), stunts=tuple(stunts), refresh=c.get("refresh", 3),
            fate_points=c.get("fate_points", c.get("refresh", 3) if kind == "pc" else 0),
            stress=c.get("stress", 1 if kind == "mob" else (2 if kind == "minor" else None)),
            count=c.get("count", 1), weapon=_gear(c, "weapon", vocab, base, fail),
            armor=_gear(c, "armor", vocab, base, fail) + _shield(c, vocab, base, fail),
            controller=c.get("controller", "basic"), extreme_replaces=c.get("extreme_replaces"), scale=scale,
            solo_bonus=solo, minion_armor=bool(c.get("minion_armor", False)),
            challenge_immunity=c.get("challenge_immunity"), true_form=c.get("true_form"),
            carry_consequences=bool(c.get("carry_consequences", False)), protected_by=tuple(c.get("protected_by", ())),
            leads=c.get("leads"), contest_immunity=bool(c.get("contest_immunity", False)),
            immobile=bool(c.get("immobile", False)),
        ))
    ids = [c.id for c in chars]
    kind = data.get("kind", "conflict")
    sides = list(dict.fromkeys(c.side for c in chars))
    if kind != "challenge" and len(sides) < 2:
        fail("characters", f"a {kind} needs at least two sides; expected characters with different side values")
    contest = challenge = None
    # a conflict may carry a challenge ("other actions", 000:501-521) and the contest it may
    # turn into (000:539-547); a contest carries no challenge, a challenge no contest
    if kind == "contest" or (kind == "conflict" and "contest" in data):
        contest = _contest(data.get("contest", {}), sides, skills, known, fail)
    elif "contest" in data:
        fail("contest", f"expected no contest section in a {kind}")
    if kind == "challenge" and "challenge" not in data:
        fail("challenge", "missing required field for kind: challenge")
    if kind in ("challenge", "conflict") and "challenge" in data:
        challenge = _challenge(data["challenge"], sides, ids, skills, known, fail)
    elif "challenge" in data:
        fail("challenge", f"expected no challenge section in a {kind}")
    for i, a in enumerate(aspects):
        for holder in a.free_invokes:
            if holder not in ids:
                fail(f"aspects.{i}.free_invokes.{holder}", f"no character {holder!r}{did_you_mean(holder, ids)}; expected one of {', '.join(ids)}")
    for c in chars:
        if c.challenge_immunity and (kind != "conflict" or challenge is None):
            fail(f"characters.{c.id}.challenge_immunity", "challenge immunity lasts until the group beats a "
                 "challenge (003:2520-2525); expected a conflict with a challenge section")
        if c.challenge_immunity and c.kind != "major":
            fail(f"characters.{c.id}.challenge_immunity", f"challenge immunity is a big bad's; expected it on a major "
                 f"NPC, not a {c.kind}")
    immune = [c for c in chars if c.contest_immunity]
    for c in immune:
        field = f"characters.{c.id}.contest_immunity"
        if c.kind != "major":
            fail(field, f"contest immunity is a big bad's (003:2527-2532); expected it on a major NPC, not a {c.kind}")
        if kind != "conflict" or data.get("contest") is None:
            fail(field, "the group must win a contest before attacking it (003:2527-2532); expected a conflict "
                 "with a contest section")
        if len(sides) != 2:
            fail(field, f"a contest between the group and the big bad; expected two sides, got {len(sides)}")
    if len(immune) > 1:
        fail(f"characters.{immune[1].id}.contest_immunity", f"{immune[0].id} already has it; expected one big bad")
    _check_true_forms(chars, data.get("first"), fail)
    chars = _check_leaders(chars, data, ruleset, fail)
    sides_of = {c.id: c.side for c in chars}
    for c in chars:
        for p in c.protected_by:
            if sides_of.get(p) != c.side or p == c.id:
                fail(f"characters.{c.id}.protected_by", f"{p!r}: expected another character of side {c.side!r} "
                     "(a part of the hive, 003:2620-2628)")
    distractions = []
    taken = {a.name for a in aspects}
    for i, dz in enumerate(data.get("distractions", [])):
        if kind != "conflict":
            fail("distractions", f"expected distractions only in a conflict, not a {kind}")
        if dz["name"] in taken:
            fail(f"distractions.{i}.name", f"{dz['name']!r} is already an aspect of the scene")
        taken.add(dz["name"])
        rep = dz.get("repercussions", {})
        distractions.append(Distraction(dz["name"], dz.get("choice", ""), dz.get("opposition", 0),
                                        rep.get("leave", ""), rep.get("deal", "")))
    hazards = _hazards(data.get("hazards", []), kind, contest, challenge, sides, aspects, check_zone, fail)
    countdowns = _countdowns(data.get("countdowns", []), kind, contest, challenge, sides, ids, check_zone, fail)
    if "first" in data and data["first"] not in ids:
        fail("first", f"no character {data['first']!r}{did_you_mean(data['first'], ids)}; expected one of {', '.join(ids)}")
    scene = Scene(
        name=data["name"], title=data.get("title", data["name"]), rules=ruleset, characters=tuple(chars),
        zones=zones, borders=tuple(borders), aspects=tuple(aspects), conflict=data.get("conflict", "physical"),
        shoot_range=data.get("shoot_range", 1), first=data.get("first"), gm_fate_points=data.get("gm_fate_points"),
        foes_block_movement=data.get("foes_block_movement", True), advantages=tuple(advantages),
        description=data.get("description", ""), source=data.get("source"),
        rewards={k: float(v) for k, v in data.get("rewards", {}).items()},
        kind=kind, contest=contest, challenge=challenge, countdowns=countdowns, hazards=hazards,
        distractions=tuple(distractions),
        consequence_names={k: tuple(v) for k, v in data.get("consequence_names", {}).items()},
    )
    _check_stunt_circumstances(scene, fail)
    if kind == "conflict":
        _check_sides_can_meet(scene, fail)
    return scene


def _check_stunt_circumstances(scene: Scene, fail) -> None:
    """A bonus stunt whose ``when`` can never hold in this scene is refused, not silently dead."""
    from ..rules.stress import CONDITION_ROWS
    from ..rules.conflict import CONSEQUENCE_NAMES, ENGINE_ASPECTS
    ids = [c.id for c in scene.characters]
    zones = [z.id for z in scene.zones]
    names = ({a.name for a in scene.aspects} | {t.name for t in scene.advantages} | set(ENGINE_ASPECTS)
             | {n for c in scene.characters for n in (c.high_concept, c.trouble, *c.aspects) if n}
             | {n for track in CONSEQUENCE_NAMES.values() for n in track.values()}
             | {n for names in scene.consequence_names.values() for n in names}
             | ({row[0] for row in CONDITION_ROWS} if scene.rules.conditions != "off" else set())
             | set((scene.contest.twists or ()) if scene.contest else ()))
    for c in scene.characters:
        for i, st in enumerate(c.stunts):
            if not st.when:
                continue
            field = f"characters.{c.id}.stunts.{i}.when"
            tag, _, arg = st.when.partition(":")
            arg = arg.strip()
            if tag == "zone" and arg not in zones:
                fail(field, f"no zone {arg!r}, so the stunt can never apply; expected one of {', '.join(zones)}")
            if tag == "target" and arg not in ids:
                fail(field, f"no character {arg!r}{did_you_mean(arg, ids)}, so the stunt can never apply; expected one of {', '.join(ids)}")
            if tag == "other_zone" and len(zones) < 2:
                fail(field, "the scene has one zone, so 'other_zone' can never hold; expected a circumstance "
                            "that can happen here")
            if tag == "aspect" and arg not in names:
                fail(field, f"no aspect {arg!r} can come into play here, so the stunt can never apply; expected "
                            "a scene or character aspect, an advantage template or a consequence (declare an "
                            "aspect the GM will add under the scene's aspects)")


def _check_sides_can_meet(scene: Scene, fail) -> None:
    """A conflict in which two sides could never harm each other would only run to the exchange cap."""
    from ..rules.zones import ZoneMap
    if scene.rules.tracks_in_play(scene.conflict) != ("physical",):
        return  # mental attacks reach anyone in the scene (000:195-199)
    if any(st.kind == "use_skill" and st.action == "attack" and st.reach == "any"
           for c in scene.characters for st in c.stunts):
        return
    zmap = ZoneMap(scene)
    by_side: dict[str, set[str]] = {}
    for c in scene.characters:
        by_side.setdefault(c.side, set()).add(c.zone)
    sides = list(by_side)
    for i, a in enumerate(sides):
        for b in sides[i + 1:]:
            if not any(zb in zmap.hops[za] or zb in zmap.sight[za] or za == zb
                       for za in by_side[a] for zb in by_side[b]):
                fail("borders", f"sides {a!r} and {b!r} stand in zones no border path joins, so neither can ever "
                                "reach the other; expected borders that connect them")


def _check_leaders(chars: list[CharacterSheet], data: dict, rules: RuleSet, fail: Any) -> list[CharacterSheet]:
    """A character attached to a minion group (``leads``, 002:23, 002:26): a PC or major NPC, a mob
    of its side, one leader per group. In a fixed turn order the group takes the leader's
    initiative (``reach.skill_order``); popcorn order has no initiative to take, and the group is
    picked like anyone. Either way the leader's controller plays it unless its sheet names one."""
    by_id = {c.id: c for c in chars}
    led: dict[str, str] = {}
    for c in chars:
        if c.leads is None:
            continue
        field = f"characters.{c.id}.leads"
        group = by_id.get(c.leads)
        if c.kind not in ("pc", "major"):
            fail(field, f"a {c.kind} cannot lead a minion group; expected it on a PC or a major NPC")
        if group is None or group.kind != "mob" or group.side != c.side:
            fail(field, f"expected the id of a mob of side {c.side!r}, got {c.leads!r}")
        if c.leads in led:
            fail(field, f"{c.leads!r} is already led by {led[c.leads]!r}; expected one leader per group")
        led[c.leads] = c.id
    out = []
    for c in chars:
        if c.id in led and "controller" not in data["characters"][c.id]:
            c = dataclasses.replace(c, controller=by_id[led[c.id]].controller)
        out.append(c)
    return out


def _check_true_forms(chars: list[CharacterSheet], first: str | None, fail: Any) -> None:
    """Each true form (003:2550-2566) is another major NPC of the big bad's side, the true form of
    one character only, and no chain of them comes back on itself."""
    by_id = {c.id: c for c in chars}
    seen: set[str] = set()
    for c in chars:
        if c.true_form is None:
            if c.carry_consequences:
                fail(f"characters.{c.id}.carry_consequences", "expected it only with a true_form")
            continue
        field = f"characters.{c.id}.true_form"
        nxt = by_id.get(c.true_form)
        if c.kind != "major" or nxt is None or nxt.kind != "major" or nxt.side != c.side or nxt is c:
            fail(field, f"{c.true_form!r}: expected another major NPC of side {c.side!r} (a big bad's true form), "
                 f"on a major NPC")
        if c.true_form in seen:
            fail(field, f"{c.true_form!r} is already another character's true form")
        seen.add(c.true_form)
        if first == c.true_form:
            fail("first", f"{first!r} is a true form, out of play until revealed")
        walk, at = {c.id}, nxt
        while at is not None and at.true_form is not None:
            if at.true_form in walk:
                fail(field, "true forms that come back on themselves; expected a chain that ends")
            walk.add(at.id)
            at = by_id.get(at.true_form)


def _hazards(items: list, kind: str, contest: Any, challenge: Any, sides: list[str],
             aspects: list, check_zone: Any, fail: Any) -> tuple[Hazard, ...]:
    """The scene's hazards (003:2270-2297), checked; see fate_env.rules.hazards for the rulings."""
    if items and (kind != "conflict" or contest is not None or challenge is not None):
        fail("hazards", "hazards act in a conflict's exchanges; expected none in a contest (it has its threat), "
             "a challenge, or a conflict that holds either")
    taken = {a.name for a in aspects}
    out = []
    for i, h in enumerate(items):
        base = f"hazards.{i}"
        if h["name"] in taken:
            fail(f"{base}.name", f"{h['name']!r} is already an aspect of the scene; a hazard's name is its aspect")
        taken.add(h["name"])
        if "zone" in h:
            check_zone(f"{base}.zone", h["zone"])
        for s in h.get("attacks", []):
            if s not in sides:
                fail(f"{base}.attacks", f"no side {s!r}{did_you_mean(s, sides)}; expected some of {', '.join(sides)}")
        if h.get("creates") == h["name"]:
            fail(f"{base}.creates", "the aspect it creates is put on a character; expected a name other than its own")
        out.append(Hazard(h["name"], h["rating"], h["weapon"], h.get("zone"), tuple(h.get("attacks", ())),
                          h.get("track", "physical"), h.get("creates")))
    return tuple(out)


def _countdowns(items: list, kind: str, contest: Any, challenge: Any, sides: list[str], ids: list[str],
                check_zone: Any, fail: Any) -> tuple[Countdown, ...]:
    """The scene's countdowns (003:2171-2195), each trigger and outcome checked by name."""
    if items and (kind != "conflict" or contest is not None or challenge is not None):
        fail("countdowns", "countdowns run in a conflict's exchanges; expected none in a contest, a challenge, "
             "or a conflict that holds either")
    out = []
    for i, cd in enumerate(items):
        base = f"countdowns.{i}"
        triggers = []
        for j, text in enumerate(cd["triggers"]):
            when = parse_when(text.strip())
            if when is None:
                fail(f"{base}.triggers.{j}", "an empty trigger; expected exchange, turn: ID, consequence: ID "
                     "or taken_out: ID")
            if when.tag not in COUNTDOWN_TRIGGERS:
                fail(f"{base}.triggers.{j}", f"trigger {text!r}: {BY_PLACE['countdowns']['box_triggers'].refusal()}")
            if when.tag == "exchange" and when.arg or when.tag != "exchange" and when.arg not in ids:
                fail(f"{base}.triggers.{j}", f"{text!r}: expected exchange alone, or a character id after "
                     f"{when.tag}: (one of {', '.join(ids)})")
            triggers.append(when)
        if "winner" in cd and cd["winner"] not in sides:
            fail(f"{base}.winner", f"no side {cd['winner']!r}{did_you_mean(cd['winner'], sides)}; expected one of {', '.join(sides)}")
        aspect = None
        if "aspect" in cd:
            a = cd["aspect"]
            if "zone" in a:
                check_zone(f"{base}.aspect.zone", a["zone"])
            for holder in a.get("free_invokes", {}):
                if holder not in ids:
                    fail(f"{base}.aspect.free_invokes.{holder}", f"no character {holder!r}{did_you_mean(holder, ids)}; expected one of {', '.join(ids)}")
            aspect = SceneAspect(a["name"], a.get("zone"), dict(a.get("free_invokes", {})))
        if "stops_when_out" in cd and cd["stops_when_out"] not in ids:
            fail(f"{base}.stops_when_out", f"no character {cd['stops_when_out']!r}{did_you_mean(cd['stops_when_out'], ids)}; expected one of {', '.join(ids)}")
        out.append(Countdown(cd["name"], cd["boxes"], tuple(triggers), cd.get("text", ""), cd.get("winner"),
                             aspect, cd.get("stops_when_out")))
    return tuple(out)


def _gear(c: dict, key: str, rules: RuleSet, base: str, fail) -> int:
    """A sheet's weapon or armor: a rating, or a name from the rule set's table (001:91-101)."""
    value = c.get(key, 0)
    if isinstance(value, int):
        return value
    table = dict(rules.weapon_table if key == "weapon" else rules.armor_table)
    table.pop("shield", None)
    if not table:
        fail(f"{base}.{key}", f"the {rules.name} rule set names no {key}s; expected a rating 0-4")
    rating = table.get(value.lower())
    if rating is None:
        fail(f"{base}.{key}", f"unknown {key} {value!r}; expected a rating 0-4 or one of {', '.join(table)}")
    return rating


def _shield(c: dict, rules: RuleSet, base: str, fail) -> int:
    """What a sheet's ``shield: true`` adds to its armor: the armor table's ``shield`` (001:101)."""
    if not c.get("shield"):
        return 0
    bonus = dict(rules.armor_table).get("shield")
    if bonus is None:
        fail(f"{base}.shield", f"the {rules.name} rule set gives no rating for a shield; expected the armor as "
             "one rating instead")
    return bonus


def _older_skill_names(data: dict, names: dict[str, str]) -> dict:
    """A scene under a rule set with older skill names (FATE 2.0's Melee, Endurance, Resolve…),
    written in the engine's: each older name becomes the skill the rule set maps it to. Two older
    names of one skill on a sheet (Melee and Brawling are both Fight) keep the higher rating: a
    character fights with the better of the two (001:57-62 lists them as alternatives)."""
    import copy
    data = copy.deepcopy(data)

    def one(name: Any) -> Any:
        return names.get(name, name) if isinstance(name, str) else name

    for cid, c in (data.get("characters") or {}).items():
        if not isinstance(c, dict):
            continue
        if isinstance(c.get("skills"), dict):
            merged: dict[str, Any] = {}
            for k, v in c["skills"].items():
                k2 = one(k)
                if k2 in merged and isinstance(v, int) and isinstance(merged[k2], int):
                    merged[k2] = max(merged[k2], v)
                else:
                    merged[k2] = v
            c["skills"] = merged
        for st in c.get("stunts") or []:
            if isinstance(st, dict) and "skill" in st:
                st["skill"] = one(st["skill"])
    for t in data.get("advantages") or []:
        if isinstance(t, dict):
            for key in ("skills", "defend"):
                if isinstance(t.get(key), list):
                    t[key] = [one(x) for x in t[key]]
    contest = data.get("contest")
    if isinstance(contest, dict):
        sk = contest.get("skills")
        if isinstance(sk, list):
            contest["skills"] = [one(x) for x in sk]
        elif isinstance(sk, dict):
            contest["skills"] = {k: [one(x) for x in v] if isinstance(v, list) else v for k, v in sk.items()}
    challenge = data.get("challenge")
    if isinstance(challenge, dict):
        for t in challenge.get("tasks") or []:
            if isinstance(t, dict) and "skill" in t:
                t["skill"] = one(t["skill"])
    return data


def _contest(spec: dict, sides: list[str], skills: set[str], known: str, fail) -> ContestSpec:
    raw_skills = spec.get("skills", ["Athletics"])
    if isinstance(raw_skills, list):
        by_side = {s: tuple(raw_skills) for s in sides}
    else:
        for s in raw_skills:
            if s not in sides:
                fail(f"contest.skills.{s}", f"no side {s!r}{did_you_mean(s, sides)}; expected one of {', '.join(sides)}")
        missing = [s for s in sides if s not in raw_skills]
        if missing:
            fail(f"contest.skills.{missing[0]}", "missing: every side needs the skills it may roll")
        by_side = {s: tuple(v) for s, v in raw_skills.items()}
    for s, names in by_side.items():
        for n in names:
            if n not in skills:
                fail("contest.skills", f"unknown skill {n!r}{did_you_mean(n, sorted(skills))}; expected {known}")
    mode = spec.get("mode", "opposed")
    diff = spec.get("difficulty", {})
    if mode == "passive":
        if isinstance(diff, int):
            diff = {s: diff for s in sides}
        missing = [s for s in sides if s not in diff]
        if missing:
            fail("contest.difficulty", f"a passive contest needs a difficulty for every side; missing {missing[0]!r}")
    elif diff:
        fail("contest.difficulty", "expected a difficulty only with mode: passive")
    threat = None
    if "threat" in spec:
        t = spec["threat"]
        if ("rating" in t) == ("difficulty" in t):
            fail("contest.threat", "expected exactly one of rating (it rolls) or difficulty (static)")
        threat = Threat(t["name"], t.get("rating"), t.get("difficulty"), t.get("track", "physical"))
    return ContestSpec(victories=spec.get("victories", 3), mode=mode, difficulty=dict(diff) if isinstance(diff, dict) else {},
                       skills=by_side, twists=tuple(spec.get("twists", ())), threat=threat)


def _challenge(spec: dict, sides: list[str], ids: list[str], skills: set[str], known: str, fail) -> ChallengeSpec:
    side = spec.get("side", sides[0])
    if side not in sides:
        fail("challenge.side", f"no side {side!r}{did_you_mean(side, sides)}; expected one of {', '.join(sides)}")
    tasks = []
    for i, t in enumerate(spec["tasks"]):
        if t["skill"] not in skills:
            fail(f"challenge.tasks.{i}.skill",
                 f"unknown skill {t['skill']!r}{did_you_mean(t['skill'], sorted(skills))}; expected {known}")
        if "by" in t and t["by"] not in ids:
            fail(f"challenge.tasks.{i}.by", f"no character {t['by']!r}{did_you_mean(t['by'], ids)}; expected one of {', '.join(ids)}")
        tasks.append(Task(t["name"], t["skill"], t["difficulty"], t.get("by")))
    return ChallengeSpec(tuple(tasks), side)


def _stunt_name(st: dict) -> str:
    """A name for a stunt written without one, from what it does ("+2 Fight to attack")."""
    kind = st["kind"]
    if kind == "bonus":
        return f"+{st.get('bonus', 2)} {st['skill']} to {st['action'].replace('_', ' ')}"
    if kind == "use_skill":
        return f"{st['skill']} to {st['action'].replace('_', ' ')}" + (f" against {st['against']}" if st.get("against") else "")
    if kind == "extra_stress":
        return f"+{st.get('count', 1)} {st['track']} stress"
    if kind == "zone_attack":
        return f"{st['skill']} on a whole zone"
    return "extra mild consequence"


WHEN_TAGS = ("aspect:", "zone:", "target:", "same_zone", "other_zone", "full_defense")


def _stunt(st: dict, field: str, skills: set[str], known: str, fail) -> Stunt:
    kind = st["kind"]
    needs = {"bonus": ("skill", "action"), "use_skill": ("skill", "action"), "extra_stress": ("track",),
             "extra_mild": (), "zone_attack": ("skill",)}[kind]
    for key in needs:
        if key not in st:
            fail(f"{field}.{key}", f"missing required field for a {kind} stunt")
    if "skill" in st and st["skill"] not in skills:
        fail(f"{field}.skill", f"unknown skill {st['skill']!r}{did_you_mean(st['skill'], sorted(skills))}; expected {known}")
    when = st.get("when")
    if isinstance(when, dict):  # `when: {aspect: Giant Spiked Club}`: YAML needs no quotes this way
        (tag, arg), = when.items()
        when = f"{tag}: {arg}"
    if when is not None and not any(when == t or (t.endswith(":") and when.startswith(t)) for t in WHEN_TAGS):
        fail(f"{field}.when", "expected a circumstance the engine can check: "
             "'aspect: NAME', 'zone: ZONE', 'target: ID', 'same_zone', 'other_zone' or 'full_defense'")
    against = st.get("against")
    if against is not None:
        if kind != "use_skill" or st.get("action") != "defend":
            fail(f"{field}.against", "only a use_skill stunt to defend is limited to one skill's attacks")
        if against not in skills:
            fail(f"{field}.against", f"unknown skill {against!r}{did_you_mean(against, sorted(skills))}; expected {known}")
    name = st.get("name") or _stunt_name(st)
    return Stunt(name=name, kind=kind, skill=st.get("skill"), action=st.get("action"),
                 bonus=st.get("bonus", 2), when=when, track=st.get("track"), count=st.get("count", 1),
                 reach=st.get("reach", "melee"), against=against)


def rule_dials(rules: RuleSet) -> dict[str, Any]:
    """A rule set's dials as plain data (what a model's sidecar records it was trained under)."""
    return json.loads(json.dumps({f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)
                                  if f.name not in ("title", "extra")}))


#: the field names a scene digest includes whatever their value: every field of the scene's
#: dataclasses when the list was frozen, except those added with issue 15's optional rules and
#: after. A field not named here is left out of a digest while at its default (the value that
#: leaves play as it was), so that a model's sidecar still names the scene it was trained on, and
#: counts the moment it is used: adding a dial changes no digest and touches no list.
DIGEST_FIELDS = frozenset({
    "a", "action", "advantages", "arg", "armor", "aspect", "aspects", "attacks", "b", "blocks_ranged", "bonus",
    "borders", "boxes", "boxes_by_rating", "by", "challenge", "characters", "choice", "cond", "conflict",
    "consequences", "contest", "controller", "count", "cover", "creates", "deal", "defend", "description",
    "difficulty", "exploit_opposition", "extra", "extra_mild_at", "extreme_consequences", "fate_points", "first",
    "foes_block_movement", "free_invokes", "full_defense", "gm_fate_points", "high_concept", "id", "kind", "leave",
    "major_cost", "max_exchanges", "mixed_conflicts", "mode", "name", "npcs_at_best_slot", "one_box_per_hit",
    "opposition", "overcome_tie", "rating", "reach", "refresh", "remove", "rewards", "rules", "shoot_range", "side",
    "skill", "skills", "source", "stops_when_out", "stress", "stress_style", "stunts", "tag", "target", "tasks",
    "teamwork_cap", "text", "threat", "title", "track", "triggers", "trouble", "turn_order", "twists", "victories",
    "weapon", "weapons", "when", "winner", "zone", "zones",
})


def _scene_dataclasses() -> list[type]:
    """Scene and every dataclass its fields hold, in a fixed order."""
    found: list[type] = []

    def walk(cls: type) -> None:
        if cls in found:
            return
        found.append(cls)
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            t = hints[f.name]
            for arg in (t, *typing.get_args(t), *(a for x in typing.get_args(t) for a in typing.get_args(x))):
                if dataclasses.is_dataclass(arg):
                    walk(arg)
    walk(Scene)
    return found


def _later_defaults() -> dict[str, Any]:
    """Every field not in DIGEST_FIELDS, with its default as a digest sees it."""
    out: dict[str, Any] = {}
    for cls in _scene_dataclasses():
        for f in dataclasses.fields(cls):
            if f.name in DIGEST_FIELDS:
                continue
            if f.default is not dataclasses.MISSING:
                value = f.default
            elif f.default_factory is not dataclasses.MISSING:
                value = f.default_factory()
            else:
                raise TypeError(f"{cls.__name__}.{f.name} has no default: a field added to a scene needs one")
            value = _without_later_defaults(value, {})
            if out.get(f.name, value) != value:
                raise TypeError(f"{f.name} has two defaults ({out[f.name]!r}, {value!r}): digests need one")
            out[f.name] = value
    return out


def _without_later_defaults(node: Any, later: dict[str, Any] | None = None) -> Any:
    later = LATER_DEFAULTS if later is None else later
    if isinstance(node, dict):
        return {k: _without_later_defaults(v, later) for k, v in node.items()
                if not (k in later and _without_later_defaults(v, later) == later[k])}
    if isinstance(node, (list, tuple)):
        return [_without_later_defaults(v, later) for v in node]
    return node


#: the fields left out of a digest while at their default (every field not in DIGEST_FIELDS)
LATER_DEFAULTS: dict[str, Any] = _later_defaults()


def scene_digest(scene: Scene) -> str:
    """A fingerprint of everything a scene holds once loaded (its characters, zones, aspects, rule
    set and dials): the same scene file under the same rules gives the same digest, any change to
    what plays gives another. SHA-256 of the scene as canonical JSON (the fields of
    ``LATER_DEFAULTS`` left out while at their defaults)."""
    import hashlib
    data = json.dumps(_without_later_defaults(dataclasses.asdict(scene)), sort_keys=True, default=str,
                      separators=(",", ":"))
    return hashlib.sha256(data.encode()).hexdigest()
