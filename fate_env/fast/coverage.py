"""What the fast core plays: every rule-set dial, scene field, character field and stunt kind, listed.

The fast core mirrors a declared subset of the reference engine. The subset is written here as
tables, one entry per field of :class:`~fate_env.rules.ruleset.RuleSet`,
:class:`~fate_env.rules.scene.Scene` and :class:`~fate_env.rules.scene.CharacterSheet`: either
:data:`ANY` (the kernel plays every value, or the field is a label), a tuple of the values it
plays, or a check that returns why a value is not played. :func:`covered` refuses by default:
a field that is in none of the tables (a dial added to the rules and not yet to the kernel) is a
reason, so a new rule can never run on the kernel with a default nobody chose.
``tests/fast/test_coverage.py`` keeps the tables complete.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Callable

from fate_env.rules.aspects import possible_consequence_names
from fate_env.rules.kinds import SceneKind
from fate_env.rules.reach import track_attack_skills
from fate_env.rules.skills import ATTACK_SKILLS
from fate_env.rules.ruleset import STYLE_NAMES, RuleSet, fast_values
from fate_env.rules.scene import CharacterSheet, Scene

from .kernel import layout as k
from .kernel.layout import MAX_SLOTS

#: the kernel plays every value of this field (or the field is a label, not a rule)
ANY = None
ZMAX = 256          # zones (the move and sight tables are zones x zones)
MAX_ATTACK_SKILLS = 4
STYLES = {"condensed": k.STYLE_CONDENSED, "core": k.STYLE_CORE, "roll_up": k.STYLE_ROLLUP}
MAJOR_COSTS = {word: code for code, word in enumerate(k.MAJOR_COSTS)}
WHEN_TAGS = {None: k.W_NONE, "zone": k.W_ZONE, "same_zone": k.W_SAME, "other_zone": k.W_OTHER,
             "full_defense": k.W_FULLDEF, "target": k.W_TARGET, "aspect": k.W_ASPECT}
REACHES = {"melee": 0, "ranged": 1, "any": 2}
TARGET_KINDS = {"foe": k.TG_FOE, "self": k.TG_SELF, "ally": k.TG_ALLY, "zone": k.TG_ZONE, "scene": k.TG_SCENE}
CHARACTER_KINDS = ("pc", "major", "minor", "mob")

Check = Callable[[Any, Scene], list[str]]

#: every RuleSet field: ANY, or the values the kernel plays. The dials' entries come from their declarations
#: (``fast=``, rules/ruleset.py: the stress tracks and consequence slots come from the reference's own
#: builders, skill and gear names are mapped when the scene is read); the labels are written here
RULE_DIALS: dict[str, Any] = {
    "name": ANY, "title": ANY, "extra": ANY,
    **fast_values(),  # None (ANY) where the kernel plays every value
}
assert set(fast_values()["stress_style"] or STYLE_NAMES) <= set(STYLES), "a stress style the kernel has no code for"
assert set(fast_values()["major_cost"] or MAJOR_COSTS) <= set(MAJOR_COSTS), "a major cost the kernel has no code for"


def _zones(zones, scene: Scene) -> list[str]:
    why = []
    if len(zones) > ZMAX:
        why.append(f"{len(zones)} zones (its tables hold every pair of zones: up to {ZMAX})")
    ids = {z.id for z in zones}
    clash = sorted(ids & {c.id for c in scene.characters} | ids & {"scene"})
    if clash:  # an advantage's target is a character, a zone or the scene, told apart by name
        why.append(f"{', '.join(clash)}: a zone named like a character or the scene")
    if any(z.own_challenge is not None for z in zones):
        why.append("zone challenges")
    return why


def _advantages(templates, scene: Scene) -> list[str]:
    names = {a.name for a in scene.aspects}
    why = []
    for tpl in templates:
        if tpl.name in names:
            why.append(f"advantage template {tpl.name!r} named like a situation aspect")
        if tpl.target not in TARGET_KINDS:
            why.append(f"advantage target {tpl.target!r}")
        if len(tpl.skills) > 4 or len(tpl.defend) > 4:
            why.append(f"advantage template {tpl.name!r} with over 4 skills to roll or defend with")
    return why


def _aspects(aspects, scene: Scene) -> list[str]:
    low = [sa.name for sa in aspects if any(v <= 0 for v in sa.free_invokes.values())]
    why = [f"situation aspect {n!r} with a free invoke count under 1" for n in low]
    if any(sa.hidden for sa in aspects):
        why.append("hidden aspects")
    return why


def _none(what: str) -> Check:
    """A feature the kernel does not play: refused when the scene has one."""
    return lambda value, scene: [what] if value else []


def _blocks(borders, scene: Scene) -> list[str]:
    """The kernel tables the map for every set of blocks cleared, so up to MAX_BLOCKS blocks; a crossing's
    harm falls on the scene's track, so a block that harms only in a physical conflict."""
    blocks = [b.block for b in borders if b.block is not None]
    why = [f"{len(blocks)} blocks (the kernel keeps up to {k.MAX_BLOCKS})"] if len(blocks) > k.MAX_BLOCKS else []
    if scene.conflict != "physical" and any(b.weapon > 0 for b in blocks):
        why.append("a block that harms in a mental conflict")
    return why  # a block named like a situation aspect: the scene loader refuses it


def _countdowns(countdowns, scene: Scene) -> list[str]:
    """The kernel keeps up to MAX_CD countdowns of up to MAX_TRIG triggers each (kernel/countdowns.py); their
    triggers, winners and aspects' holders are the scene loader's to check."""
    why = [f"{len(countdowns)} countdowns (the kernel keeps up to {k.MAX_CD})"] if len(countdowns) > k.MAX_CD else []
    return why + [f"countdown {cd.name!r} with {len(cd.triggers)} triggers (the kernel keeps up to {k.MAX_TRIG})"
                  for cd in countdowns if len(cd.triggers) > k.MAX_TRIG]


def _hazards(hazards, scene: Scene) -> list[str]:
    """The kernel keeps up to MAX_HAZARDS hazards that attack on the scene's own track, each acting while
    the one aspect of its name stands (kernel/hazards.py); one that creates an advantage is not played."""
    why = [f"{len(hazards)} hazards (the kernel keeps up to {k.MAX_HAZARDS})"] if len(hazards) > k.MAX_HAZARDS else []
    named = [b.block.name for b in scene.borders if b.block is not None] + \
        [cd.aspect.name for cd in scene.countdowns if cd.aspect is not None] + [hz.name for hz in hazards]
    for hz in hazards:
        if hz.creates is not None:
            why.append(f"hazard {hz.name!r}, which creates an advantage")
        if hz.track != scene.conflict:
            why.append(f"hazard {hz.name!r} on the {hz.track} track in a {scene.conflict} conflict")
        if named.count(hz.name) > 1:
            why.append(f"hazard {hz.name!r} named like a block, a countdown's aspect or another hazard")
    return why


def _challenge(spec, scene: Scene) -> list[str]:
    """What the kernel's challenge (kernel/challenge.py) does not play: more tasks than it keeps (their
    results live in its state)."""
    return [f"a challenge of {len(spec.tasks)} tasks (the kernel keeps up to {k.MAX_TASKS})"] \
        if len(spec.tasks) > k.MAX_TASKS else []


def _contest(spec, scene: Scene) -> list[str]:
    """What the kernel's contest (kernel/contest.py) does not play: a threat, more sides than it keeps, a side
    with more skills to roll than it keeps, contestants in different zones (a contest is no place on the
    map: the kernel reads where they stand as a conflict does), solo bonuses on a contest's invokes, names
    an advantage template shares with a twist or a character's aspect (the kernel tells them apart by name)."""
    why = ["a contest's threat"] if spec.threat is not None else []
    if len(scene.sides) > k.MAX_CSIDES:
        why.append(f"a contest of {len(scene.sides)} sides (the kernel keeps up to {k.MAX_CSIDES})")
    if len(scene.characters) > k.BLAST_BITS:
        why.append(f"a contest of over {k.BLAST_BITS} characters")
    if any(len(v) > k.CSK_MAX for v in spec.skills.values()):
        why.append(f"a contest side with over {k.CSK_MAX} skills to roll")
    if len({c.zone for c in scene.characters}) > 1:
        why.append("a contest whose contestants stand in different zones")
    if any(c.solo_bonus for c in scene.characters):
        why.append("solo bonuses in a contest")
    if scene.rules.hold_action:
        why.append("held actions in a scene with a contest")
    twists = {spec.twist(i) for i in range(scene.rules.max_exchanges + 1)}
    own = {a for c in scene.characters for a in (c.high_concept, c.trouble, *c.aspects) if a}
    clash = sorted({t.name for t in scene.advantages} & (twists | own))
    if clash:
        why.append(f"advantage template {clash[0]!r} named like a contest twist or a character's aspect")
    return why


def _characters(chars, scene: Scene) -> list[str]:
    why = [w for c in chars for w in character_reasons(c, scene)]
    for name, what in CHARACTER_FEATURES.items():
        if any(getattr(c, name) for c in chars):
            why.append(what)
    if len({c.scale for c in chars}) > 1 and not scene.rules.facts.scale_on_effort:
        why.append(f"scale's benefit {scene.rules.scale_benefit!r} between characters of different scale "
                   "(the fast core plays it on the effort)")
    return why


#: every Scene field: ANY or a check (the reasons it is not played; none: it is)
SCENE_FIELDS: dict[str, Any] = {
    "name": ANY, "title": ANY, "description": ANY, "source": ANY, "rewards": ANY,
    "rules": "RULE_DIALS",      # its dials, each listed there
    "kind": ANY,                # a conflict, a contest or a challenge (kernel/flow.py)
    "challenge": lambda v, s: _challenge(v, s) if v is not None else [],
    "contest": lambda v, s: _contest(v, s) if v is not None and s.kind != SceneKind.CHALLENGE else [],
    "characters": _characters, "zones": _zones, "aspects": _aspects, "advantages": _advantages,
    "borders": _blocks,
    "conflict": ANY, "shoot_range": ANY, "first": ANY, "gm_fate_points": ANY, "foes_block_movement": ANY,
    "reserves": ANY,            # off the table until live play's /add brings one in
    "countdowns": _countdowns, "hazards": _hazards, "distractions": _none("distractions"),
    "consequence_names": ANY,   # names only: kernel/aspects._cons_name picks them as aspects.consequence_name does
}

#: character fields the kernel does not play, each refused (once) when any character sets it
CHARACTER_FEATURES: dict[str, str] = {
    "protected_by": "a hive's protected heart", "true_form": "a true form", "contest_immunity": "contest immunity",
    "challenge_immunity": "challenge immunity", "minion_armor": "expendable minion armor",
}

#: every CharacterSheet field: ANY, a check of one sheet (the reasons it is not played), or
#: "scene" (checked across the sheets: CHARACTER_FEATURES, one scale for all)
CHARACTER_FIELDS: dict[str, Any] = {
    "id": ANY, "name": ANY, "side": ANY, "zone": ANY, "skills": ANY, "high_concept": ANY, "trouble": ANY,
    "aspects": ANY, "refresh": ANY, "fate_points": ANY, "stress": ANY, "count": ANY, "controller": ANY,
    "extreme_replaces": ANY,
    "weapon": ANY, "armor": ANY,        # read under the weapons dial (kernel S_WEAPON, S_ARMOR)
    "carry_consequences": ANY,          # read only with a true form (refused below)
    "immobile": ANY,                    # no free move, no overcome move (kernel S_IMMOBILE)
    "leads": ANY,                       # its group's place in an order by skills (reach.order_by_skills)
    "scale": "scene",                   # _characters: scale's benefit on the effort (kernel S_SCALE, solo._edge)
    # every solo bonus but no_stacking (kernel/solo.py: S_SOLO)
    "solo_bonus": lambda c, s: [f"{c.id}: the no_stacking solo bonus"] if "no_stacking" in c.solo_bonus else [],
    "kind": lambda c, s: [] if c.kind in CHARACTER_KINDS else [f"{c.id}: kind {c.kind}"],
    "stunts": lambda c, s: _stunt_reasons(c, s),
    **{name: "scene" for name in CHARACTER_FEATURES},
}


def _stunt_reasons(c: CharacterSheet, scene: Scene) -> list[str]:
    why = []
    attack_skills = {skill for skill, _ in track_attack_skills(scene.rules.tracks_in_play(scene.conflict))}
    for st in c.stunts:
        if st.kind == "bonus":
            tag = st.cond.tag if st.cond is not None else None
            if tag not in WHEN_TAGS or tag == "aspect" and st.cond.arg in possible_consequence_names(scene) \
                    or tag == "target" and st.cond.arg not in {x.id for x in scene.characters}:
                why.append(f"{c.id}'s stunt {st.name!r} (when: {st.when})")
        elif st.kind == "use_skill" and st.action != "attack":
            pass  # a skill to defend (against any attack or one skill's), create an advantage or overcome with (kernel/rolls._use_skill)
        elif st.kind == "use_skill":
            if st.reach not in REACHES:
                why.append(f"{c.id}'s use_skill stunt {st.name!r} with reach {st.reach}")
            else:
                attack_skills = attack_skills | {st.skill}
        elif st.kind == "zone_attack":
            track = ATTACK_SKILLS[st.skill][0] if st.skill in ATTACK_SKILLS else scene.conflict
            if track != scene.conflict:  # the kernel harms the scene's own track
                why.append(f"{c.id}'s zone_attack stunt {st.name!r} (a {st.skill} attack harms the {track} track "
                           f"in a {scene.conflict} conflict)")
            if len(scene.characters) > 8 * k.BLAST_BITS:
                why.append(f"{c.id}'s zone_attack stunt {st.name!r} in a scene of over {8 * k.BLAST_BITS} characters")
        elif st.kind not in ("extra_stress", "extra_mild"):
            why.append(f"{c.id}'s {st.kind} stunt {st.name!r}")
    if len(attack_skills) > MAX_ATTACK_SKILLS:
        why.append(f"{c.id} has over {MAX_ATTACK_SKILLS} attack skills")
    return why


def character_reasons(c: CharacterSheet, scene: Scene) -> list[str]:
    """Why the kernel cannot play this one sheet (its own fields, not the scene-wide features)."""
    why = []
    mild_extra = sum(1 for st in c.stunts if st.kind == "extra_mild")
    if 5 + mild_extra > MAX_SLOTS:  # mild, moderate, severe, extreme, a second mild at Superb: kernel/layout.MAX_SLOTS
        why.append(f"{c.id}: more consequence slots than the kernel keeps ({MAX_SLOTS})")
    for name in (f.name for f in fields(CharacterSheet)):
        rule = CHARACTER_FIELDS.get(name, "unlisted")
        if rule == "unlisted":
            why.append(f"{c.id}: the character field {name} (not listed in fast/coverage.py)")
        elif callable(rule):
            why.extend(rule(c, scene))
    return why


def _show(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def rule_reasons(rules: RuleSet) -> list[str]:
    """The dials of a rule set the kernel does not play (an unlisted dial is one of them)."""
    why = []
    for f in fields(RuleSet):
        if f.name not in RULE_DIALS:
            why.append(f"the dial {f.name} (not listed in fast/coverage.py)")
            continue
        allowed = RULE_DIALS[f.name]
        value = getattr(rules, f.name)
        if allowed is not ANY and value not in allowed:
            why.append(f"{f.name}: {_show(value)}")
    return why


def scene_reasons(scene: Scene) -> list[str]:
    """The fields of a scene the kernel does not play, its rule set's dials included (what kind of
    scene it is said first: the rest matters only to a conflict)."""
    names = [f.name for f in fields(Scene)]
    why = []
    for name in ("kind", "contest") + ("rules",) + tuple(n for n in names if n not in ("kind", "contest")):
        if name == "rules":
            why.extend(rule_reasons(scene.rules))
        elif name not in SCENE_FIELDS:
            why.append(f"the scene field {name} (not listed in fast/coverage.py)")
        elif SCENE_FIELDS[name] is not ANY:
            why.extend(SCENE_FIELDS[name](getattr(scene, name), scene))
    return list(dict.fromkeys(why))
