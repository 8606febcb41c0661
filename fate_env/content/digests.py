"""Scene digests (what a model's sidecar names the scene it was trained on) and a rule set's dials as
plain data: a field added since the list was frozen is left out of a digest while at its default."""

from __future__ import annotations

import dataclasses
import json
import typing
from typing import Any

from ..rules.ruleset import RuleSet
from ..rules.scene import Scene


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


def scene_dataclasses() -> list[type]:
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
    for cls in scene_dataclasses():
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
