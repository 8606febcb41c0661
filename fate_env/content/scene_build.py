"""A checked scene mapping built into a frozen :class:`Scene`: characters and their stunts, gear and
older skill names, the map, hazards, countdowns, contests and challenges, and the checks that need the
whole scene (sides that can meet, leaders, true forms, stunts whose circumstances can hold)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ..rules.not_modelled import BY_PLACE
from ..rules.ruleset import RuleSet, RuleSetError
from ..rules.scene import (
    COUNTDOWN_TRIGGERS, SCALES, Block, Border, ChallengeSpec, CharacterSheet, ContestSpec, Countdown, Distraction, Hazard, Scene, SceneAspect,
    Stunt, Task, Threat, Zone, ZoneChallenge, parse_when,
)
from ..rules.skills import ATTACK_SKILLS, DEFAULT_ADVANTAGES, DEFAULT_SKILLS, AdvantageTemplate
from .suggest import did_you_mean
from .rule_sets import load_rules
from .scene_files import SceneError


@dataclass
class _Reading:
    """What the parts of a build share: the file (for errors), the rule set it plays and the one whose
    words it is written in, the zones by id and the skills the scene knows."""

    file: str
    ruleset: RuleSet
    vocab: RuleSet
    zone_ids: list[str] = field(default_factory=list)
    skills: set[str] = field(default_factory=set)
    known: str = ""

    def fail(self, where: str, message: str) -> None:
        raise SceneError(self.file, where, message)

    def check_zone(self, where: str, zid: str) -> None:
        if zid not in self.zone_ids:
            self.fail(where, f"no zone {zid!r}{did_you_mean(zid, self.zone_ids)}; expected one of {', '.join(self.zone_ids)}")

    def check_skill(self, where: str, skill: str, what: str = "unknown skill") -> None:
        if skill not in self.skills:
            self.fail(where, f"{what}{did_you_mean(skill, sorted(self.skills))}; expected {self.known}")


@dataclass(frozen=True)
class _Ground:
    """What a scene's cast stands on: its zones (with their challenges), aspects, borders and the
    advantages it offers."""

    zones: tuple
    aspects: list[SceneAspect]
    borders: list[Border]
    advantages: list[AdvantageTemplate]


def build(data: dict, file: str, rules_override: str | None, dials: dict[str, Any]) -> Scene:
    """The frozen scene ``data`` (checked against the schema) describes, in parts: its rule set, then
    the ground (zones, aspects, borders, skills and advantages), then its cast (characters, its mode:
    a contest, a challenge, and the checks that need the whole scene), then its reserves."""
    r, data = _rule_set(data, file, rules_override, dials)
    ground = _ground(data, r)
    chars = [_character(cid, c, r) for cid, c in data["characters"].items()]
    scene = _cast(data, ground, chars, r)
    if data.get("reserves"):
        scene = dataclasses.replace(scene, reserves=_reserves(data, ground, chars, r))
    return scene


def _ground(data: dict, r: _Reading) -> _Ground:
    zones = _zones(data, r)
    aspects = _aspects(data, r)
    borders, pairs = _borders(data, {a.name for a in aspects}, r)
    _skills(data, r)
    advantages = _advantages(data, r)
    zones = _zone_challenges(data["zones"], zones, pairs, r.skills, r.known, r.fail)
    return _Ground(zones, aspects, borders, advantages)


def _cast(data: dict, ground: _Ground, chars: list[CharacterSheet], r: _Reading) -> Scene:
    """The scene with ``chars`` on ``ground``: its sides and mode, and the checks across characters
    and over the whole scene."""
    aspects = ground.aspects
    kind = data.get("kind", "conflict")
    sides = list(dict.fromkeys(c.side for c in chars))
    if kind != "challenge" and len(sides) < 2:
        r.fail("characters", f"a {kind} needs at least two sides; expected characters with different side values")
    contest, challenge = _mode(data, kind, sides, [c.id for c in chars], r)
    chars = _check_cast(data, kind, sides, chars, aspects, challenge, r)
    ids = [c.id for c in chars]
    distractions = _distractions(data, kind, aspects, r)
    hazards = _hazards(data.get("hazards", []), kind, contest, challenge, sides, aspects, r.check_zone, r.fail)
    countdowns = _countdowns(data.get("countdowns", []), kind, contest, challenge, sides, ids, r.check_zone, r.fail)
    if "first" in data and data["first"] not in ids:
        r.fail("first", f"no character {data['first']!r}{did_you_mean(data['first'], ids)}; expected one of {', '.join(ids)}")
    scene = Scene(
        name=data["name"], title=data.get("title", data["name"]), rules=r.ruleset, characters=tuple(chars),
        zones=ground.zones, borders=tuple(ground.borders), aspects=tuple(aspects), conflict=data.get("conflict", "physical"),
        shoot_range=data.get("shoot_range", 1), first=data.get("first"), gm_fate_points=data.get("gm_fate_points"),
        foes_block_movement=data.get("foes_block_movement", True), advantages=tuple(ground.advantages),
        description=data.get("description", ""), source=data.get("source"),
        rewards={k: float(v) for k, v in data.get("rewards", {}).items()},
        kind=kind, contest=contest, challenge=challenge, countdowns=countdowns, hazards=hazards,
        distractions=distractions,
        consequence_names={k: tuple(v) for k, v in data.get("consequence_names", {}).items()},
    )
    _check_stunt_circumstances(scene, r.fail)
    if kind == "conflict":
        _check_sides_can_meet(scene, r.fail)
    return scene


def _reserves(data: dict, ground: _Ground, chars: list[CharacterSheet], r: _Reading) -> tuple[CharacterSheet, ...]:
    """The reserves (characters the GM may bring in later), each read as a character is and the cast
    checked again with them in it, as if they were in the scene; a refusal names the reserve's field."""
    held = data["reserves"]
    sides = list(dict.fromkeys(c.side for c in chars))
    for rid, c in held.items():
        if rid in data["characters"]:
            r.fail(f"reserves.{rid}", "already a character's id; expected a new id")
        slip = isinstance(c, dict) and isinstance(c.get("side"), str) and c["side"] not in sides
        guess = did_you_mean(c["side"], sorted(sides)) if slip else ""
        if guess:  # a slip, not a new party arriving (validate says so)
            r.fail(f"reserves.{rid}.side", f"no character is on side {c['side']!r}{guess}; a reserve joins a side of "
                   f"the fight ({', '.join(sorted(sides))}) or brings a new one with a name unlike theirs")
    try:
        extra = [_character(rid, c, r) for rid, c in held.items()]
        whole = _cast({**data, "characters": {**data["characters"], **held}}, ground, chars + extra, r)
    except SceneError as exc:
        field = exc.field
        for rid in held:
            if field == f"characters.{rid}" or field.startswith(f"characters.{rid}."):
                field = "reserves" + field[len("characters"):]
        raise SceneError(r.file, field, exc.message) from None
    return tuple(c for c in whole.characters if c.id in held)


def _rule_set(data: dict, file: str, rules_override: str | None, dials: dict[str, Any]) -> tuple[_Reading, dict]:
    """The rule set the scene plays (its own, or ``--rules``, with the file's dials and then the
    command's), the one its words are written in, and ``data`` with older skill names made current."""
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
        raise SceneError(file, "rules.dials", str(exc)) from None
    # the scene's words (older skill names, gear by name) are its own rule set's, also when --rules
    # plays it under another: the override changes how the game plays, not what the file means
    vocab = ruleset if not rules_override or rules_override == rules_name else load_rules(rules_name, file, "rules")
    if vocab.skill_names:
        data = _older_skill_names(data, dict(vocab.skill_names))
    return _Reading(file, ruleset, vocab), data


def _zones(data: dict, r: _Reading) -> tuple:
    zones = tuple(Zone(z["id"], z.get("name", z["id"])) for z in data["zones"])
    r.zone_ids = [z.id for z in zones]
    if len(set(r.zone_ids)) != len(r.zone_ids):
        dup = next(z for z in r.zone_ids if r.zone_ids.count(z) > 1)
        r.fail("zones", f"zone id {dup!r} appears twice; expected unique ids")
    return zones


def _aspects(data: dict, r: _Reading) -> list[SceneAspect]:
    aspects = []
    for i, a in enumerate(data.get("aspects", [])):
        if "zone" in a:
            r.check_zone(f"aspects.{i}.zone", a["zone"])
        if a.get("hidden") and a.get("free_invokes"):
            r.fail(f"aspects.{i}.free_invokes", "a hidden aspect holds no free invokes until someone discovers it "
                   "(003:854-867); expected none, or hidden: false")
        aspects.append(SceneAspect(a["name"], a.get("zone"), dict(a.get("free_invokes", {})), bool(a.get("hidden"))))
    return aspects


def _borders(data: dict, aspect_names: set[str], r: _Reading) -> tuple[list[Border], set]:
    """The borders, and the pairs of zones they join (each pair once)."""
    borders = []
    seen_pairs: set = set()
    for i, b in enumerate(data.get("borders", [])):
        a_id, b_id = b["between"]
        r.check_zone(f"borders.{i}.between", a_id)
        r.check_zone(f"borders.{i}.between", b_id)
        if a_id == b_id or frozenset((a_id, b_id)) in seen_pairs:
            r.fail(f"borders.{i}.between", "expected two different zones joined by one border only")
        seen_pairs.add(frozenset((a_id, b_id)))
        if "aspect" in b and b["aspect"] not in aspect_names:
            r.fail(f"borders.{i}.aspect", f"no scene aspect {b['aspect']!r}; expected the name of an entry in aspects")
        block = None
        if "block" in b:
            k = b["block"]
            if k["name"] in aspect_names:
                r.fail(f"borders.{i}.block.name", f"{k['name']!r} is already a scene aspect; a block's name is its aspect")
            block = Block(k["name"], k["rating"], k.get("weapon", 0), k.get("remove"), k.get("cover", "none"))
        borders.append(Border(a_id, b_id, b.get("difficulty", 0), b.get("aspect"), b.get("blocks_ranged", False),
                              block))
    return borders, seen_pairs


def _skills(data: dict, r: _Reading) -> None:
    """The skills the scene knows (the defaults and its own list), and how an error names them."""
    r.skills = set(DEFAULT_SKILLS) | set(data.get("skills", []))
    r.known = "one of " + ", ".join(sorted(r.skills)) + (" (the default skills and the scene's skills list)"
                                                         if data.get("skills") else " (the default skills; a scene's "
                                                         "skills: list adds more)")
    if r.vocab.skill_names:
        r.known += f", or the {r.vocab.name} rule set's names ({', '.join(k for k, _ in r.vocab.skill_names)})"


def _advantages(data: dict, r: _Reading) -> list[AdvantageTemplate]:
    advantages = list(DEFAULT_ADVANTAGES)
    for i, t in enumerate(data.get("advantages", [])):
        for s in t["skills"] + t.get("defend", []):
            r.check_skill(f"advantages.{i}.skills", s, f"unknown skill {s!r}")
        advantages = [x for x in advantages if x.name != t["name"]]
        advantages.append(AdvantageTemplate(t["name"], tuple(t["skills"]), t["target"], t.get("track", "physical"),
                                            tuple(t.get("defend", ("Athletics",))), t.get("difficulty", 2)))
    return advantages


def _character(cid: str, c: dict, r: _Reading) -> CharacterSheet:
    """One character's sheet, checked on its own (the checks across characters come after)."""
    base = f"characters.{cid}"
    r.check_zone(f"{base}.zone", c["zone"])
    for s in c["skills"]:
        r.check_skill(f"{base}.skills.{s}", s)
    kind = c["kind"]
    _check_counts(c, kind, base, r)
    stunts = _character_stunts(c, base, r)
    _check_extreme(c, kind, base, r)
    scale = _scale(c, base, r)
    _check_big_bad(c, kind, base, r)
    if r.ruleset.facts.ordered and any(s.kind == "extra_mild" for s in stunts):
        r.fail(f"{base}.stunts", "under consequence_rule: ordered a character carries three consequences at most "
               "(001:123); expected no extra_mild stunt")
    if kind in ("minor", "mob") and any(s.kind == "extra_mild" for s in stunts):
        r.fail(f"{base}.stunts", "minor NPCs and mobs have no consequence slots; expected no extra_mild stunt")
    return CharacterSheet(
        id=cid, name=c.get("name", cid.capitalize()), kind=kind, side=c["side"], zone=c["zone"],
        skills=dict(c["skills"]), high_concept=c.get("high_concept"), trouble=c.get("trouble"),
        aspects=tuple(c.get("aspects", [])), stunts=tuple(stunts), refresh=c.get("refresh", 3),
        fate_points=c.get("fate_points", c.get("refresh", 3) if kind == "pc" else 0),
        stress=c.get("stress", 1 if kind == "mob" else (2 if kind == "minor" else None)),
        count=c.get("count", 1), weapon=_gear(c, "weapon", r.vocab, base, r.fail),
        armor=_gear(c, "armor", r.vocab, base, r.fail) + _shield(c, r.vocab, base, r.fail),
        controller=c.get("controller", "basic"), extreme_replaces=c.get("extreme_replaces"), scale=scale,
        solo_bonus=tuple(c.get("solo_bonus", ())), minion_armor=bool(c.get("minion_armor", False)),
        challenge_immunity=c.get("challenge_immunity"), true_form=c.get("true_form"),
        carry_consequences=bool(c.get("carry_consequences", False)), protected_by=tuple(c.get("protected_by", ())),
        leads=c.get("leads"), contest_immunity=bool(c.get("contest_immunity", False)),
        immobile=bool(c.get("immobile", False)),
    )


def _check_counts(c: dict, kind: str, base: str, r: _Reading) -> None:
    """Stress boxes written only on nameless NPCs, a count only on a mob (of two or more)."""
    if kind in ("pc", "major") and "stress" in c:
        r.fail(f"{base}.stress", f"a {kind}'s stress boxes come from Physique and Will; "
               "expected no stress field (use an extra_stress stunt)")
    if kind != "mob" and "count" in c:
        r.fail(f"{base}.count", "expected count only on a mob")
    if kind == "mob" and c.get("count", 1) < 2:
        r.fail(f"{base}.count", "expected a mob of at least 2 members")


def _character_stunts(c: dict, base: str, r: _Reading) -> list[Stunt]:
    stunts = [_stunt(st, f"{base}.stunts.{j}", r.skills, r.known, r.fail) for j, st in enumerate(c.get("stunts", []))]
    for j, st in enumerate(stunts):
        if st.kind == "zone_attack" and st.skill not in ATTACK_SKILLS and not any(
                o.kind == "use_skill" and o.action == "attack" and o.skill == st.skill for o in stunts):
            r.fail(f"{base}.stunts.{j}.skill", f"{st.skill!r} cannot attack; expected Fight, Shoot, Provoke or a "
                   "skill a use_skill stunt lets this character attack with")
    return stunts


def _check_extreme(c: dict, kind: str, base: str, r: _Reading) -> None:
    if "extreme_replaces" in c:
        others = [x for x in [c.get("trouble")] + list(c.get("aspects", [])) if x]
        if kind in ("minor", "mob"):
            r.fail(f"{base}.extreme_replaces", "minor NPCs and mobs take no consequences; expected no extreme_replaces")
        if c["extreme_replaces"] not in others:
            r.fail(f"{base}.extreme_replaces", "expected the trouble or one of the aspects (never the high "
                   f"concept, 003:2209-2211): one of {others}")


def _check_big_bad(c: dict, kind: str, base: str, r: _Reading) -> None:
    """The big bad's rule breaks only on a major NPC, and one reading of the stress bonus."""
    solo = tuple(c.get("solo_bonus", ()))
    if solo and kind != "major":
        r.fail(f"{base}.solo_bonus", f"a solo bonus is a big bad's (003:2574-2602); expected it on a major NPC, not a {kind}")
    if c.get("minion_armor") and kind != "major":
        r.fail(f"{base}.minion_armor", f"expendable minion armor is a big bad's (003:2534-2549); expected it on "
               f"a major NPC, not a {kind}")
    if {"reduce_stress", "reduce_stress_min_1"} <= set(solo):
        r.fail(f"{base}.solo_bonus", "reduce_stress and reduce_stress_min_1 are two readings of one bonus; expected one")


def _scale(c: dict, base: str, r: _Reading) -> int:
    scale = c.get("scale", 0)
    if isinstance(scale, str):
        if scale not in SCALES:
            r.fail(f"{base}.scale", f"expected a level 0-4 or one of {', '.join(SCALES)}, got {scale!r}")
        scale = SCALES.index(scale)
    return scale


def _mode(data: dict, kind: str, sides: list[str], ids: list[str], r: _Reading) -> tuple:
    """The contest and the challenge the scene carries. A conflict may carry a challenge ("other
    actions", 000:501-521) and the contest it may turn into (000:539-547); a contest carries no
    challenge, a challenge no contest."""
    contest = challenge = None
    if kind == "contest" or (kind == "conflict" and "contest" in data):
        contest = _contest(data.get("contest", {}), sides, r.skills, r.known, r.fail)
    elif "contest" in data:
        r.fail("contest", f"expected no contest section in a {kind}")
    if kind == "challenge" and "challenge" not in data:
        r.fail("challenge", "missing required field for kind: challenge")
    if kind in ("challenge", "conflict") and "challenge" in data:
        challenge = _challenge(data["challenge"], sides, ids, r.skills, r.known, r.fail)
    elif "challenge" in data:
        r.fail("challenge", f"expected no challenge section in a {kind}")
    return contest, challenge


def _check_cast(data: dict, kind: str, sides: list[str], chars: list[CharacterSheet], aspects: list[SceneAspect],
                challenge: Any, r: _Reading) -> list[CharacterSheet]:
    """The checks across characters: who holds an aspect's free invokes, the big bad's immunities,
    true forms, leaders (who may be made over as their mob), the hive's protectors."""
    ids = [c.id for c in chars]
    for i, a in enumerate(aspects):
        for holder in a.free_invokes:
            if holder not in ids:
                r.fail(f"aspects.{i}.free_invokes.{holder}", f"no character {holder!r}{did_you_mean(holder, ids)}; expected one of {', '.join(ids)}")
    for c in chars:
        if c.challenge_immunity and (kind != "conflict" or challenge is None):
            r.fail(f"characters.{c.id}.challenge_immunity", "challenge immunity lasts until the group beats a "
                   "challenge (003:2520-2525); expected a conflict with a challenge section")
        if c.challenge_immunity and c.kind != "major":
            r.fail(f"characters.{c.id}.challenge_immunity", f"challenge immunity is a big bad's; expected it on a major "
                   f"NPC, not a {c.kind}")
    _check_contest_immunity(data, kind, sides, chars, r)
    _check_true_forms(chars, data.get("first"), r.fail)
    chars = _check_leaders(chars, data, r.ruleset, r.fail)
    sides_of = {c.id: c.side for c in chars}
    for c in chars:
        for p in c.protected_by:
            if sides_of.get(p) != c.side or p == c.id:
                r.fail(f"characters.{c.id}.protected_by", f"{p!r}: expected another character of side {c.side!r} "
                       "(a part of the hive, 003:2620-2628)")
    return chars


def _check_contest_immunity(data: dict, kind: str, sides: list[str], chars: list[CharacterSheet], r: _Reading) -> None:
    immune = [c for c in chars if c.contest_immunity]
    for c in immune:
        where = f"characters.{c.id}.contest_immunity"
        if c.kind != "major":
            r.fail(where, f"contest immunity is a big bad's (003:2527-2532); expected it on a major NPC, not a {c.kind}")
        if kind != "conflict" or data.get("contest") is None:
            r.fail(where, "the group must win a contest before attacking it (003:2527-2532); expected a conflict "
                   "with a contest section")
        if len(sides) != 2:
            r.fail(where, f"a contest between the group and the big bad; expected two sides, got {len(sides)}")
    if len(immune) > 1:
        r.fail(f"characters.{immune[1].id}.contest_immunity", f"{immune[0].id} already has it; expected one big bad")


def _distractions(data: dict, kind: str, aspects: list[SceneAspect], r: _Reading) -> tuple[Distraction, ...]:
    out = []
    taken = {a.name for a in aspects}
    for i, dz in enumerate(data.get("distractions", [])):
        if kind != "conflict":
            r.fail("distractions", f"expected distractions only in a conflict, not a {kind}")
        if dz["name"] in taken:
            r.fail(f"distractions.{i}.name", f"{dz['name']!r} is already an aspect of the scene")
        taken.add(dz["name"])
        rep = dz.get("repercussions", {})
        out.append(Distraction(dz["name"], dz.get("choice", ""), dz.get("opposition", 0),
                               rep.get("leave", ""), rep.get("deal", "")))
    return tuple(out)


def _check_stunt_circumstances(scene: Scene, fail) -> None:
    """A bonus stunt whose ``when`` can never hold in this scene is refused, not silently dead."""
    from ..rules.stress import CONDITION_ROWS
    from ..rules.aspects import ENGINE_ASPECTS, possible_consequence_names
    ids = [c.id for c in scene.characters]
    zones = [z.id for z in scene.zones]
    names = ({a.name for a in scene.aspects} | {t.name for t in scene.advantages} | set(ENGINE_ASPECTS)
             | {n for c in scene.characters for n in (c.high_concept, c.trouble, *c.aspects) if n}
             | possible_consequence_names(scene)
             | ({row[0] for row in CONDITION_ROWS} if scene.rules.facts.conditions else set())
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

    cast = [c for group in ("characters", "reserves") for c in (data.get(group) or {}).values()]
    for c in cast:
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


def _zone_challenges(written: list[dict], zones: tuple, borders: set, skills: set[str], known: str, fail) -> tuple:
    """The zones with their own challenges (003:2606-2609): each task's skill known, each deeper
    zone a neighbour across a border."""
    out = []
    for i, (z, spec) in enumerate(zip(zones, (w.get("challenge") for w in written))):
        if spec is None:
            out.append(z)
            continue
        base = f"zones.{i}.challenge"
        tasks = []
        for j, t in enumerate(spec["tasks"]):
            if t["skill"] not in skills:
                fail(f"{base}.tasks.{j}.skill",
                     f"unknown skill {t['skill']!r}{did_you_mean(t['skill'], sorted(skills))}; expected {known}")
            tasks.append(Task(t["name"], t["skill"], t["difficulty"]))
        near = sorted(b for pair in borders if z.id in pair for b in pair if b != z.id)
        for j, d in enumerate(spec["deeper"]):
            if d not in near:
                fail(f"{base}.deeper.{j}", f"{d!r} does not border {z.id!r}; expected one of {', '.join(near) or '(none)'}")
        out.append(dataclasses.replace(z, own_challenge=ZoneChallenge(spec.get("name", z.name), tuple(tasks), tuple(spec["deeper"]))))
    return tuple(out)


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
