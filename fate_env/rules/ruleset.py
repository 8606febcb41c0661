"""Rule sets as data: the dial settings that differ between Fate editions.

A rule set is loaded from ``configs/rules/<name>.yaml`` (see
``fate_env.content.scenes``) and a scene may override single dials. The skill tables
that both editions share (which skills attack and defend, the advantage
templates) live in :mod:`fate_env.rules.skills`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from typing import Any

from .kinds import StressStyleName
from .facts import Facts, facts_of
from .not_modelled import dial_refusal

#: the stress styles' names (each a class in rules/stress.py's STYLES, which checks it has them all)
STYLE_NAMES = tuple(s.value for s in StressStyleName)

# popcorn (003:1408-1413); skills, Notice/Athletics/Physique (000:246-258); initiative, Fate 3.0's
# Alertness (Notice), Empathy in a social conflict, ties by Resolve (Will), then PCs first (002:22)
TURN_ORDERS = ("popcorn", "skills", "initiative")
# full defense: condensed, +2 to defends with a declared focus and a boost if unused (003:2230-2248);
# core, +2 to all defends until the next turn, instead of acting (000:272-278); exchange, +2 to all
# defenses for the rest of the exchange, declared on one's turn or, by one who has not acted yet,
# when first attacked, giving up that exchange's turn (001:78-80)
FULL_DEFENSE = ("condensed", "core", "exchange")
TEAMWORK_CAPS = ("leader_skill", "none")
OVERCOME_TIES = ("choice", "minor_cost")
# who opposes taking advantage of an aspect that is not a foe's: a difficulty, or an active foe
# in the roller's zone ("someone can interfere", 003:834-838, 000:133)
EXPLOIT_OPPOSITION = ("difficulty", "foe_in_zone")
# a failed overcome (moving, clearing an aspect) may be taken as success at a major cost
# (003:786-789); the cost the engine makes concrete is one the texts list (003:3291-3294):
# off (a failure is a failure), consequence (the roller takes its smallest free mild or
# moderate consequence), enemy_aspect (the opposition gets a situation aspect with two free invokes)
MAJOR_COSTS = ("off", "consequence", "enemy_aspect")
# who may take the optional extreme consequence: Condensed gives it to "a character" (003:2204-2217),
# so major NPCs too; Core to "every PC" (000:400)
EXTREME_FOR = ("characters", "pcs")
# what a higher scale gives on a roll against a lesser (003:2430-2439 lists three benefits and
# says "one of"): effort, +1 per level to the effort before the roll, on every rolled action
# against the lesser (defence included); after_roll, +2 shifts per level on a successful attack
# and one more free invoke per level on a successful advantage, +1 per level before the roll on
# the rolls that have no such success (defend, overcome)
SCALE_BENEFITS = ("effort", "after_roll")
# conditions instead of consequences (003:2062-2087): off; together, Condensed's six conditions,
# any of which a hit of either kind may mark; apart, "moving conditions further apart"
# (003:2089-2101): physical hits mark the physical ones, mental the mental, each with twice the
# boxes, and a row (a severity) takes no more once two of its boxes are marked
CONDITIONS = ("off", "together", "apart")
# how consequences take a hit: shifts, each absorbs its 2/4/6 shifts beside boxes (003:1600-1620,
# 000:329-334); ordered, one consequence takes a whole hit in place of a box, the first mild, the
# second moderate, the third severe, each a -1/-2/-3 to its holder's rolls (001:117-123)
CONSEQUENCE_RULES = ("shifts", "ordered")
# the one-zone move: free (003:1322-1327, 001:76); minor, a minor action at -1 to the turn's main
# action, the border's value more, taken before it (002:28, 002:50-51)
MOVE_COSTS = ("free", "minor")
# moving farther: overcome, Athletics against the path's difficulty (000:459-465); shifts, Fate
# 3.0's sprint: Athletics against Mediocre, one zone per shift, each border's value taking more (002:50-51)
SPRINTS = ("overcome", "shifts")
# a defense won by three or more: boost, the defender gets a boost (003:919-921); spin, a spin
# token, spent for +1 to any ally's defense (002:94-95)
DEFENSE_OVERFLOW = ("boost", "spin")
# conceding: anytime, before a roll, for a payout of fate points (003:1693-1712, 000:420-437);
# offered, only while taking a consequence, as an offer the one who hit may accept or refuse, a
# refused offer paying the offerer one fate point and costing the refuser one (001:150-152)
CONCESSIONS = ("anytime", "offered")
# what the weapons dial's ratings do: shifts, added to a hit and taken off it (003:2675-2693);
# roll, a modifier to the attack roll and to the defense roll (001:86-101's "combat modifiers")
WEAPON_EFFECTS = ("shifts", "roll")
# what an attempt at an advantage (a new aspect, or one already in play) gives at each outcome:
# create, Fate Condensed's and Core's table (003:800-870, 000:205-240): a tie gives a boost (or a
# free invoke on an aspect in play), a failure may become success at a cost, the enemy holding the
# free invoke; maneuver, Fate 3.0's (002:79): success needs at least one shift and merits one free
# tag, with style or not, and a tie or a failure places nothing and gives nothing (Fate 3.0 has no boosts)
ADVANTAGE_RULES = ("create", "maneuver")


class RuleSetError(ValueError):
    """A rule-set file or dial override that does not fit."""


#: ``fast=EVERY``: the fast core plays every value of the dial
EVERY = "every"


def _dial(kind: str, default: Any, fast: tuple | str | None, group: str | None, key: str | None,
          **more: Any) -> dict[str, Any]:
    """A dial's declaration: its kind, where a file writes it (``group.key``: ``stress.style``), the
    values the fast core plays. Everything that reads, writes, lists or checks a dial derives from it."""
    return {"dial": kind, "group": group, "key": key, "fast": (default,) if fast is None else fast, "follows": None,
            **more}


def _flag(default: bool = False, *, fast: tuple | str | None = None, group: str | None = None) -> Any:
    """A dial that is on or off: declared once here, read, written and checked from the declaration.
    ``fast``: the values the fast core plays (``EVERY``, or a tuple); left out, only the default, so a
    new dial's new value is refused by the kernel by name until its kernel mirror says otherwise.
    ``group``: the mapping a file writes it in (``stress:``), else the rule set's top level."""
    return field(default=default, metadata=_dial("flag", default, fast, group, None))


def _pick(choices: tuple[str, ...], default: str, *, fast: tuple | str | None = None, group: str | None = None,
          key: str | None = None, follows: tuple[str, dict[Any, str]] | None = None) -> Any:
    """A dial that takes one of ``choices``: declared once here (``fate-npc rules`` lists the choices;
    ``fast`` and ``group`` as for :func:`_flag`; ``key``, its name in the group when not the field's).
    ``follows``: (another dial, its value -> this dial's default): a file that does not name this
    dial takes the default the other dial's value gives, and a change of the other alone moves it too."""
    if default not in choices or (isinstance(fast, tuple) and not set(fast) <= set(choices)):
        raise ValueError(f"a dial's default {default!r} and fast-core values {fast!r} must be among {choices}")
    return field(default=default, metadata=_dial("choice", default, fast, group, key, choices=choices,
                                                 follows=follows))


def _count(default: int, *, minimum: int | None, group: str | None = None) -> Any:
    """A dial that is a whole number (``minimum`` and up, when given); the fast core plays every value."""
    return field(default=default, metadata=_dial("count", default, EVERY, group, None, minimum=minimum))


def _boxes(*, group: str) -> Any:
    """The stress boxes a rating gives: written as a mapping rating -> box values, kept as sorted
    pairs; a rule set must state it (there is no edition-free default)."""
    return field(default=(), metadata=_dial("boxes", (), EVERY, group, None, required=True))


def _severities(default: tuple[tuple[str, int], ...]) -> Any:
    """The shifts each consequence absorbs, by severity: written as a mapping holding exactly the
    default's severities, kept as pairs in their order."""
    return field(default=default, metadata=_dial("severities", default, EVERY, None, None))


def _table_field() -> Any:
    """Names to values (written as a mapping, kept as pairs): a rule set's own tables."""
    return field(default=(), metadata=_dial("table", (), EVERY, None, None))


@dataclass(frozen=True)
class RuleSet:
    name: str
    title: str
    #: the stress group (a file's ``stress:`` mapping): one box takes a whole hit (000:297-307) or
    #: boxes add up (003:1567-1583); how boxes absorb a hit, a name in fate_env.rules.stress.STYLES,
    #: "core" when one box takes a whole hit unless the file names one; the boxes each Physique or
    #: Will rating gives; the rating that gives an extra mild consequence
    one_box_per_hit: bool = _flag(fast=EVERY, group="stress")
    stress_style: str = _pick(STYLE_NAMES, "condensed", fast=EVERY, group="stress", key="style",
                              follows=("one_box_per_hit", {True: "core"}))
    boxes_by_rating: tuple[tuple[int, tuple[int, ...]], ...] = _boxes(group="stress")
    extra_mild_at: int = _count(5, minimum=None, group="stress")
    consequences: tuple[tuple[str, int], ...] = _severities((("mild", 2), ("moderate", 4), ("severe", 6)))
    extreme_consequences: bool = _flag(fast=EVERY)
    extreme_for: str = _pick(EXTREME_FOR, "characters", fast=EVERY)
    scale_benefit: str = _pick(SCALE_BENEFITS, "effort", fast=EVERY)  # fast: read only between scales, which it refuses
    turn_order: str = _pick(TURN_ORDERS, "popcorn", fast=EVERY)
    npcs_at_best_slot: bool = _flag(fast=EVERY)
    full_defense: str = _pick(FULL_DEFENSE, "condensed", fast=EVERY)
    teamwork_cap: str = _pick(TEAMWORK_CAPS, "leader_skill", fast=("leader_skill", "none"))
    overcome_tie: str = _pick(OVERCOME_TIES, "choice", fast=("choice", "minor_cost"))
    exploit_opposition: str = _pick(EXPLOIT_OPPOSITION, "difficulty", fast=EVERY)
    major_cost: str = _pick(MAJOR_COSTS, "consequence", fast=EVERY)
    mixed_conflicts: bool = _flag()
    weapons: bool = _flag(fast=EVERY)
    faster_contests: bool = _flag(fast=EVERY)  # fast: kernel/contest.py (P_FASTER)
    conditions: str = _pick(CONDITIONS, "off")
    split_effort: bool = _flag()
    consequence_rule: str = _pick(CONSEQUENCE_RULES, "shifts", fast=EVERY)
    concession: str = _pick(CONCESSIONS, "anytime", fast=EVERY)
    weapon_effect: str = _pick(WEAPON_EFFECTS, "shifts", fast=EVERY)  # fast: kernel/attack.py, rolls.py
    hold_action: bool = _flag(fast=EVERY)
    move_cost: str = _pick(MOVE_COSTS, "free", fast=EVERY)
    sprint: str = _pick(SPRINTS, "overcome", fast=EVERY)
    defense_overflow: str = _pick(DEFENSE_OVERFLOW, "boost", fast=EVERY)
    protect: bool = _flag(fast=EVERY)            # Fate 3.0's block protecting an ally (002:46)
    block_actions: bool = _flag(fast=EVERY)      # Fate 3.0's block against a foe's kind of action (002:47)
    maneuver_avoid: bool = _flag(fast=EVERY)     # a maneuver's target may pay a fate point not to take it (002:79)
    fragile_aspects: bool = _flag(fast=EVERY)    # a maneuver's aspect on a character goes at its first tag (002:83)
    advantage_rule: str = _pick(ADVANTAGE_RULES, "create", fast=EVERY)   # Fate 3.0's maneuver needs a shift (002:79): ADVANTAGE_RULES
    full_defense_focus: bool = _flag()  # full defense guarding an ally: defend for them at +2 (003:2236-2240; 000:270)
    stand_in: bool = _flag(fast=EVERY)  # an ally beside the target may step in and take the attack (000:270)
    shared_costs: bool = _flag(True, fast=EVERY)  # supporters pay a major cost of the roll they helped (003:1453-1454)
    forgo_defense: bool = _flag(fast=EVERY)  # a defender may forgo the defense and take the hit: the attack is against Mediocre (000:292-294)
    #: the rule set's older skill names, each to the engine's skill it maps to (FATE 2.0's Melee is
    #: Fight, 001:57-62); a scene under the rule set may use either name
    skill_names: tuple[tuple[str, str], ...] = _table_field()
    #: weapons and armor by name, to their ratings (FATE 2.0's table, 001:91-101); a sheet under
    #: the rule set may name them (``weapon: sword``); ``shield`` in the armor table is what a
    #: sheet's ``shield: true`` adds
    weapon_table: tuple[tuple[str, int], ...] = _table_field()
    armor_table: tuple[tuple[str, int], ...] = _table_field()
    #: the exchanges a conflict or contest may run before it ends undecided (a safeguard of this
    #: engine's, not a rule of the texts)
    max_exchanges: int = _count(30, minimum=1)
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    # -- derived tables -------------------------------------------------
    @cached_property
    def facts(self) -> Facts:
        """What the rules read off these dials (fate_env.rules.facts), worked out once."""
        return facts_of(self)

    def boxes_for(self, rating: int) -> tuple[int, ...]:
        """Stress box values for a Physique/Will ``rating``."""
        best: tuple[int, ...] = ()
        for threshold, boxes in self.boxes_by_rating:
            if rating >= threshold:
                best = boxes
        return best

    def tracks_in_play(self, kind: str) -> tuple[str, ...]:
        """The stress tracks attacks may harm in a ``kind`` conflict. A conflict is physical or mental
        by the harm at stake (000:154, 003:1550); the ``mixed_conflicts`` dial lets a table allow
        attacks on the other track too, each harming its own track (000:311)."""
        return ("physical", "mental") if self.mixed_conflicts else (kind,)

    def consequence_value(self, severity: str) -> int:
        if severity == "extreme":
            return 8
        return dict(self.consequences)[severity]

    def with_dials(self, overrides: dict[str, Any]) -> "RuleSet":
        """A copy with single dials replaced (a scene's ``rules.dials``, ``--dial``): a top-level dial by
        its name, a group's (``stress``) as a mapping of some of its dials or one by ``stress.style``."""
        for key in overrides:
            if key in _FIXED:
                raise RuleSetError(f"dial '{key}' belongs to the rule set, not a scene; expected a rule set file")
        base = merge_dials(to_dict(self), _nested(overrides))
        base["name"] = self.name
        return from_dict(base)


#: every dial's declaration, by field name, in declaration order
DIALS: dict[str, dict[str, Any]] = {f.name: dict(f.metadata, default=f.default) for f in fields(RuleSet)
                                    if f.metadata.get("dial")}
#: the dials declared on the fields, by kind (everything that reads, writes or lists them derives from these)
FLAGS = tuple(n for n, d in DIALS.items() if d["dial"] == "flag")
CHOICES: dict[str, tuple[str, ...]] = {n: d["choices"] for n, d in DIALS.items() if d["dial"] == "choice"}
#: the groups a file writes as one mapping (``stress:``), each to its dials (field names) in order
GROUPS: dict[str, tuple[str, ...]] = {}
for _name, _d in DIALS.items():
    if _d["group"]:
        GROUPS[_d["group"]] = (*GROUPS.get(_d["group"], ()), _name)
#: dials a scene may not override: what the rule set's texts call their skills
_FIXED = {"skill_names", "weapon_table", "armor_table"}


def key_of(name: str) -> str:
    """A dial's name where a file writes it (``style`` for ``stress_style``)."""
    return DIALS[name]["key"] or name


def address(name: str) -> str:
    """A dial's full address as a scene or ``--dial`` writes it: ``turn_order``, ``stress.style``."""
    group = DIALS[name]["group"]
    return f"{group}.{key_of(name)}" if group else name


def fast_values() -> dict[str, tuple | None]:
    """Each dial's values the fast core plays (None: every value), from the declarations."""
    return {n: None if d["fast"] == EVERY else d["fast"] for n, d in DIALS.items()}


def dial_names() -> list[str]:
    """The dials a scene may override: the top-level ones and the groups (``stress``), by name."""
    return sorted({d["group"] or n for n, d in DIALS.items() if n not in _FIXED})


def _nested(overrides: dict[str, Any]) -> dict[str, Any]:
    """``stress.style: roll_up`` as ``stress: {style: roll_up}`` (the two spellings of a group's dial)."""
    out: dict[str, Any] = {}
    for key, value in overrides.items():
        group, dot, inner = str(key).partition(".")
        if dot and group in GROUPS:
            merged = out.get(group)
            out[group] = {**(merged if isinstance(merged, dict) else {}), inner: value}
        else:
            out[key] = value
    return out


def merge_dials(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    """A child's dials over its parent's (a rule set over the one it inherits, a scene's dials over its
    rule set): a dial the child states replaces the parent's whole (a table is one value), except a
    group's, taken dial by dial; a dial that ``follows`` another goes back to following it when the
    child changes the other alone (``stress.one_box_per_hit`` moves ``stress.style`` with it)."""
    merged = {**parent, **child}
    for group, names in GROUPS.items():
        if not (isinstance(parent.get(group), dict) and isinstance(child.get(group), dict)):
            continue
        base = dict(parent[group])
        for name in names:
            follows = DIALS[name]["follows"]
            if follows and key_of(follows[0]) in child[group] and key_of(name) not in child[group]:
                base.pop(key_of(name), None)
        merged[group] = {**base, **child[group]}
    return merged


def _choice(data: dict, key: str, allowed: tuple[str, ...], default: str, label: str | None = None) -> str:
    value = data.get(key, default)
    if value not in allowed:
        raise RuleSetError(f"{label or f'dial {key!r}'}: expected one of {', '.join(allowed)}, got {value!r}")
    return value


def _conditions_with_others(data: dict[str, Any], value: str) -> None:
    if value != "off" and data.get("extreme_consequences"):
        raise RuleSetError("dials 'conditions' and 'extreme_consequences': conditions replace consequences "
                           "entirely (003:2064); expected one of the two")


def _consequence_rule_with_others(data: dict[str, Any], value: str) -> None:
    if value == "ordered":
        for key, off in (("conditions", "off"), ("extreme_consequences", False)):
            if data.get(key, off) != off:
                raise RuleSetError(f"dials 'consequence_rule: ordered' and '{key}': ordered consequences are "
                                   f"three at most, mild, moderate, severe (001:119-123); expected {key} off")
    if _choice(data, "concession", CONCESSIONS, "anytime") == "offered" and value != "ordered":
        raise RuleSetError("dial 'concession: offered': an offer is made while taking an ordered consequence "
                           "(001:150); expected consequence_rule: ordered with it")


#: the choice dials whose value is checked against other dials too
_WITH_OTHERS = {"conditions": _conditions_with_others, "consequence_rule": _consequence_rule_with_others}


def _skill_names(data: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    names = data.get("skill_names") or {}
    if not isinstance(names, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in names.items()):
        raise RuleSetError("skill_names: expected a mapping of the rule set's skill names to the engine's")
    return tuple(names.items())


def _table(data: dict[str, Any], key: str) -> tuple[tuple[str, int], ...]:
    table = data.get(key) or {}
    if not isinstance(table, dict) or not all(isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                                              and 0 <= v <= 4 for k, v in table.items()):
        raise RuleSetError(f"{key}: expected a mapping of names to ratings 0-4")
    return tuple((k.lower(), v) for k, v in table.items())


def _label(name: str) -> str:
    return f"dial '{address(name)}'"


def _read_flag(name: str, data: dict[str, Any], decl: dict[str, Any]) -> bool:
    value = data.get(key_of(name), decl["default"])
    if not isinstance(value, bool):
        raise RuleSetError(f"{_label(name)}: expected true or false, got {value!r}")
    return value


def _read_choice(name: str, data: dict[str, Any], decl: dict[str, Any], top: dict[str, Any]) -> str:
    default = decl["default"]
    if decl["follows"]:  # the default the other dial's value gives (read from the same mapping)
        other, by_value = decl["follows"]
        default = by_value.get(data.get(key_of(other), DIALS[other]["default"]), default)
    value = _choice(data, key_of(name), decl["choices"], default, _label(name))
    if name in _WITH_OTHERS:
        _WITH_OTHERS[name](top, value)
    return value


def _read_count(name: str, data: dict[str, Any], decl: dict[str, Any]) -> int:
    value = data.get(key_of(name), decl["default"])
    low = decl["minimum"]
    if not isinstance(value, int) or isinstance(value, bool) or (low is not None and value < low):
        more = f" >= {low}" if low is not None else ""
        raise RuleSetError(f"{_label(name)}: expected a whole number{more}, got {value!r}")
    return value


def _read_boxes(name: str, data: dict[str, Any], decl: dict[str, Any]) -> tuple:
    try:
        return tuple(sorted((int(k), tuple(int(x) for x in v)) for k, v in data[key_of(name)].items()))
    except (KeyError, AttributeError, TypeError, ValueError) as exc:
        raise RuleSetError(f"{_label(name)}: expected a mapping rating -> list of box values") from exc


def _read_severities(name: str, data: dict[str, Any], decl: dict[str, Any]) -> tuple:
    default = dict(decl["default"])
    value = data.get(key_of(name), default)
    if not isinstance(value, dict) or set(value) != set(default):
        raise RuleSetError(f"{_label(name)}: expected exactly {', '.join(default)}")
    try:
        return tuple((k, int(value[k])) for k in default)
    except (TypeError, ValueError) as exc:
        raise RuleSetError(f"{_label(name)}: expected a whole number of shifts for each") from exc


def _read(name: str, decl: dict[str, Any], data: dict[str, Any]) -> Any:
    """One dial's value from a rule set's mapping (its group's mapping for a grouped dial), checked."""
    own = data.get(decl["group"]) or {} if decl["group"] else data
    kind = decl["dial"]
    if kind == "flag":
        return _read_flag(name, own, decl)
    if kind == "choice":
        return _read_choice(name, own, decl, data)
    if kind == "count":
        return _read_count(name, own, decl)
    if kind == "boxes":
        return _read_boxes(name, own, decl)
    if kind == "severities":
        return _read_severities(name, own, decl)
    return _skill_names(data) if name == "skill_names" else _table(data, name)


def _write(name: str, rules: RuleSet) -> Any:
    """One dial's value as a file writes it (the inverse of :func:`_read`)."""
    value = getattr(rules, name)
    kind = DIALS[name]["dial"]
    if kind == "boxes":
        return {k: list(v) for k, v in value}
    if kind in ("severities", "table"):
        return dict(value)
    return value


def from_dict(data: dict[str, Any]) -> RuleSet:
    """Build a rule set from its YAML mapping, refusing unknown dials."""
    refused = dial_refusal(data)
    if refused:  # a rule the texts hold that the engine does not play: said, not approximated
        raise RuleSetError(refused)
    known = {"name", "title"} | {d["group"] or n for n, d in DIALS.items()}
    unknown = sorted(set(data) - known)
    if unknown:
        raise RuleSetError(f"unknown dial(s) {', '.join(unknown)}; expected some of {', '.join(sorted(known))}")
    for group, names in GROUPS.items():
        own = data.get(group) or {}
        if not isinstance(own, dict):
            raise RuleSetError(f"{group}: expected a mapping of {', '.join(key_of(n) for n in names)}")
        bad = sorted(set(own) - {key_of(n) for n in names})
        if bad:
            raise RuleSetError(f"unknown {group} dial(s) {', '.join(map(str, bad))}; expected some of "
                               f"{', '.join(key_of(n) for n in names)}")
    if data.get("hold_action") and data.get("turn_order", "popcorn") == "popcorn":
        raise RuleSetError("dial 'hold_action': a held turn needs a fixed order (001:82-84); expected "
                           "turn_order: skills or initiative with it (in popcorn order the one acting picks who "
                           "goes next)")
    # in declaration order, so the first wrong dial is the one named
    dials = {name: _read(name, decl, data) for name, decl in DIALS.items()}
    return RuleSet(name=str(data.get("name", "custom")), title=str(data.get("title", data.get("name", "custom"))),
                   **dials)


def to_dict(rules: RuleSet) -> dict[str, Any]:
    """The inverse of :func:`from_dict` (for logs and overrides): every dial in declaration order, a
    group's dials together in its mapping where its first dial is declared."""
    out: dict[str, Any] = {"name": rules.name, "title": rules.title}
    for name, decl in DIALS.items():
        if decl["group"]:
            out.setdefault(decl["group"], {})[key_of(name)] = _write(name, rules)
        else:
            out[name] = _write(name, rules)
    return out


__all__ = ["RuleSet", "RuleSetError", "EVERY", "fast_values", "from_dict", "to_dict", "dial_names", "replace", "FLAGS",
           "CHOICES", "DIALS", "GROUPS", "address", "key_of", "merge_dials"]
