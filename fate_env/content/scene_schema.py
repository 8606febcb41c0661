"""A scene mapping checked against the JSON Schema (``content/schema/scene.schema.json``), each
violation said as one :class:`SceneError` in the scene format's own words."""

from __future__ import annotations

import jsonschema

from .suggest import did_you_mean
from .scene_files import SceneError, schema


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


def check_schema(data: dict, file: str) -> None:
    validator = jsonschema.Draft202012Validator(schema())
    err = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if err is not None:
        field, message = _describe(err)
        raise SceneError(file, field, message)
