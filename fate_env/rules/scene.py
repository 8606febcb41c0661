"""The immutable description of a scene: zones, aspects, characters, rules.

Scenes are built from YAML by :mod:`fate_env.content.scenes` (which validates them);
the engine only reads these frozen dataclasses, so one scene object can seed
any number of conflicts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from .ruleset import RuleSet
from .skills import DEFAULT_ADVANTAGES, AdvantageTemplate

KINDS = ("pc", "major", "minor", "mob")
#: the levels of scale Fate Condensed gives as an example (003:2410-2427), by number
SCALES = ("mundane", "supernatural", "otherworldly", "legendary", "godlike")
STUNT_KINDS = ("bonus", "extra_stress", "extra_mild", "use_skill", "zone_attack")
ACTIONS = ("overcome", "create_advantage", "attack", "defend")


@dataclass(frozen=True, slots=True)
class When:
    """A bonus stunt's circumstance, parsed once when the scene is loaded: ``tag`` is one of
    aspect, zone, target (with ``arg``), same_zone, other_zone, full_defense."""

    tag: str
    arg: str = ""


def parse_when(text: str | None) -> When | None:
    if not text:
        return None
    tag, _, arg = text.partition(":")
    return When(tag, arg.strip())


@dataclass(frozen=True)
class Stunt:
    """A stunt the engine can apply.

    * ``bonus``: +``bonus`` (2 by default) to ``skill`` for ``action``, only
      when the circumstance ``when`` holds (003:402-415);
    * ``extra_stress``: ``count`` more boxes on ``track`` (003:437-440);
    * ``extra_mild``: one more mild consequence slot (for ``track`` if given);
    * ``use_skill``: ``skill`` may be used for ``action`` (003:425-427),
      e.g. Stealth to attack; attacks made so are melee unless ``reach`` says; a defense so
      may be limited to attacks made with one skill (``against``: "Provoke to defend against
      Fight attacks": not an advantage, an exploit or a move made with it);
    * ``zone_attack``: ``skill`` may attack everyone in a zone at once (003:2644-2650).
    """

    name: str
    kind: str
    skill: str | None = None
    action: str | None = None
    bonus: int = 2
    when: str | None = None
    track: str | None = None
    count: int = 1
    reach: str = "melee"
    #: ``use_skill`` to defend: only against rolls made with this skill (None: against any)
    against: str | None = None
    #: ``when`` parsed (filled in at construction; not a field to set)
    cond: When | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cond", parse_when(self.when))


@dataclass(frozen=True)
class CharacterSheet:
    id: str
    name: str
    kind: str
    side: str
    zone: str
    skills: dict[str, int]
    high_concept: str | None = None
    trouble: str | None = None
    aspects: tuple[str, ...] = ()
    stunts: tuple[Stunt, ...] = ()
    refresh: int = 3
    fate_points: int = 0
    stress: int | None = None          # minor NPCs / mob members: number of boxes (0-3)
    count: int = 1                     # mob members
    weapon: int = 0
    armor: int = 0
    controller: str = "basic"
    #: the aspect an extreme consequence replaces (None: the engine's ruling, see :meth:`extreme_loses`)
    extreme_replaces: str | None = None
    #: the optional scale (003:2400-2439): 0 mundane, 1 supernatural, 2 otherworldly, 3 legendary, 4 godlike
    scale: int = 0
    #: a big bad's solo bonuses (fate_env.rules.solo, 003:2574-2602)
    solo_bonus: tuple[str, ...] = ()
    #: a big bad's expendable minion armor (003:2534-2549; actions/attack.py)
    minion_armor: bool = False
    #: a big bad's challenge immunity (003:2520-2525): "physical", "mental" or "both"; None: none
    challenge_immunity: str | None = None
    #: the character this big bad's true form is, revealed when it is taken out (003:2550-2566)
    true_form: str | None = None
    #: carry its consequences into the true form, gentled (003:2562-2566)
    carry_consequences: bool = False
    #: a hive's heart (003:2601-2628): the parts that must be out of the fight before it can be struck
    protected_by: tuple[str, ...] = ()
    #: the minion group (a mob of its side) this character is attached to, leading it: the group
    #: acts at this character's initiative, right after it (002:23, 002:26)
    leads: str | None = None
    #: a big bad's contest immunity (003:2527-2532): the group must win the scene's contest before
    #: it can be attacked; it attacks them meanwhile, and wins outright if it wins the contest
    contest_immunity: bool = False
    #: a character that never leaves its zone: a part of a threat that is a map (003:2601-2615:
    #: "each zone may take an action as a separate character against PCs occupying that zone"),
    #: a turret, a rooted thing
    immobile: bool = False

    def shielded(self, in_fight: set[str] | list[str]) -> bool:
        """Whether a part of the hive protecting it is still in the fight (003:2620-2628)."""
        return any(p in in_fight for p in self.protected_by)

    def immune(self, track: str, challenge_open: bool) -> bool:
        """Whether attacks and advantages on ``track`` cannot touch it now: it has challenge
        immunity there and the scene's challenge is not yet beaten (tasks left)."""
        return challenge_open and self.challenge_immunity in (track, "both")

    @property
    def is_npc(self) -> bool:
        return self.kind != "pc"

    def extreme_loses(self) -> str | None:
        """The aspect an extreme consequence replaces: any but the high concept (003:2209-2211,
        000:402), the taker's choice. The sheet's ``extreme_replaces`` names it; without one the
        engine's ruling takes the last of the other aspects, else the trouble (the aspects a
        character lists last are the ones it leans on least). None: nothing can be replaced, so
        the extreme consequence cannot be taken ("you must replace one")."""
        if self.extreme_replaces is not None:
            return self.extreme_replaces
        if self.aspects:
            return self.aspects[-1]
        return self.trouble

    def skill(self, name: str) -> int:
        return self.skills.get(name, 0)


@dataclass(frozen=True)
class Block:
    """A block on a border (Fate Condensed's obstacles, 003:2300-2345; fate_env.rules.blocks): its
    ``name`` is an aspect; crossing is an overcome against its ``rating``; with a ``weapon`` a
    failed crossing hurts by the shifts missed; clearing it is an overcome against ``remove``
    (default: the rating plus two); ``cover``: whether it mitigates (armor of half its rating, at
    least 1) or negates (no shot across) attacks from one of its zones to the other."""

    name: str
    rating: int
    weapon: int = 0
    remove: int | None = None
    cover: str = "none"

    @property
    def remove_difficulty(self) -> int:
        return self.rating + 2 if self.remove is None else self.remove

    @property
    def armor(self) -> int:
        return max(1, self.rating // 2) if self.cover == "mitigates" else 0

    @property
    def shove_weapon(self) -> int:
        """The weapon rating a foe forced into it takes: half its own, rounded down, at least 1 (003:2324-2326)."""
        return max(1, self.weapon // 2)


@dataclass(frozen=True)
class Border:
    """Two zones that touch. ``difficulty`` > 0 or an ``aspect`` impedes the
    free move across it (003:1330-1336); ``blocks_ranged`` stops shots."""

    a: str
    b: str
    difficulty: int = 0
    aspect: str | None = None
    blocks_ranged: bool = False
    block: Block | None = None

    @property
    def impeded(self) -> bool:
        return self.difficulty > 0 or self.aspect is not None

    def standing(self) -> "Border":
        """This border while its block stands: crossing it is against the block's rating, and a
        block that negates cover stops shots (003:2328-2337)."""
        if self.block is None:
            return self
        return Border(self.a, self.b, self.block.rating, self.block.name,
                      self.blocks_ranged or self.block.cover == "negates", self.block)

    def cleared(self) -> "Border":
        """This border once its block is cleared."""
        return Border(self.a, self.b, self.difficulty, self.aspect, self.blocks_ranged)


@dataclass(frozen=True)
class Zone:
    id: str
    name: str
    #: a challenge to overcome before going deeper from this zone (003:2606-2609; the file's
    #: ``zones[].challenge``: named apart from the scene's ``challenge`` so scene digests keep)
    own_challenge: "ZoneChallenge | None" = None


@dataclass(frozen=True)
class ZoneChallenge:
    """A zone's own challenge (the threat as a map, 003:2606-2609): its tasks, each an overcome
    against a difficulty taken in the zone; until all are done no one moves from the zone into the
    ``deeper`` zones (going back out is never barred)."""

    name: str
    tasks: tuple["Task", ...]
    deeper: tuple[str, ...] = ()


@dataclass(frozen=True)
class SceneAspect:
    """A situation aspect on the scene, or on one zone (003:1392-1396)."""

    name: str
    zone: str | None = None
    free_invokes: dict[str, int] = field(default_factory=dict)
    #: not known until someone discovers it by creating an advantage on it (003:820-824, 003:854-867)
    hidden: bool = False


@dataclass(frozen=True)
class Threat:
    """Something in a contest that attacks the contestants (003:1499-1500, 003:1520-1523):
    a ``rating`` rolled each exchange, or a static ``difficulty``."""

    name: str
    rating: int | None = None
    difficulty: int | None = None
    track: str = "physical"


@dataclass(frozen=True)
class ContestSpec:
    """A contest (003:1491-1535; 000:79-149): first side to ``victories`` wins.

    ``mode`` is ``opposed`` (efforts compared) or ``passive`` (each side against
    its own ``difficulty``, compared by shifts). ``skills`` maps a side to the
    skills it may roll; ``twists`` names the situation aspects ties create."""

    victories: int = 3
    mode: str = "opposed"
    difficulty: dict[str, int] = field(default_factory=dict)
    skills: dict[str, tuple[str, ...]] = field(default_factory=dict)
    twists: tuple[str, ...] = ()
    threat: Threat | None = None

    def twist(self, n: int) -> str:
        """The name of the ``n``-th tie's situation aspect (from 0): the scene's own twists in order, then
        "Unexpected Twist N" (the one place both engines and the fast core's coverage read it)."""
        return self.twists[n] if n < len(self.twists) else f"Unexpected Twist {n + 1}"


@dataclass(frozen=True)
class Task:
    name: str
    skill: str
    difficulty: int
    by: str | None = None


@dataclass(frozen=True)
class ChallengeSpec:
    """A challenge (003:1462-1488; 000:16-76): overcome tasks against passive difficulties."""

    tasks: tuple[Task, ...]
    side: str | None = None


#: what marks a countdown's box (003:2186-2188): an exchange ending, or a character's turn ending,
#: consequence taken, or being taken out
COUNTDOWN_TRIGGERS = ("exchange", "turn", "consequence", "taken_out")


@dataclass(frozen=True)
class Countdown:
    """A countdown (003:2171-2195): a row of ``boxes`` marked left to right, one per ``trigger``
    (``When`` tags: exchange, or turn/consequence/taken_out with a character's id); marking the
    last one brings the outcome: ``text`` for the table and, if given, the scene won by the side
    ``winner`` or the situation ``aspect`` put into play. ``stops_when_out``: the character whose
    leaving the fight (taken out or conceding) stops it, the engine's reading of "deal with it now"."""

    name: str
    boxes: int
    triggers: tuple[When, ...]
    text: str = ""
    winner: str | None = None
    aspect: SceneAspect | None = None
    stops_when_out: str | None = None


@dataclass(frozen=True)
class Hazard:
    """An obstacle that attacks (003:2270-2297; fate_env.rules.hazards): its ``name`` is an aspect
    and what it rolls at ``rating``; a hit adds ``weapon`` (1-4). It attacks characters of the
    sides in ``attacks`` (all when empty) in ``zone`` (anywhere when None), on ``track``."""

    name: str
    rating: int
    weapon: int
    zone: str | None = None
    attacks: tuple[str, ...] = ()
    track: str = "physical"
    #: an advantage it creates on its target, while some target lacks it, instead of attacking
    #: ("hazards can attack or create advantages", 003:2292-2293)
    creates: str | None = None


@dataclass(frozen=True)
class Distraction:
    """A distraction (003:2346-2375): a ``name`` (an aspect in play), the ``choice`` it puts to the
    PCs, the passive ``opposition`` to dealing with it, and the ``repercussions`` of leaving it
    (``leave``) and of dealing with it (``deal``), told to the table when they happen."""

    name: str
    choice: str = ""
    opposition: int = 0
    leave: str = ""
    deal: str = ""


@dataclass(frozen=True)
class Scene:
    name: str
    title: str
    rules: RuleSet
    characters: tuple[CharacterSheet, ...]
    zones: tuple[Zone, ...]
    borders: tuple[Border, ...] = ()
    aspects: tuple[SceneAspect, ...] = ()
    conflict: str = "physical"
    shoot_range: int = 1
    first: str | None = None
    gm_fate_points: int | None = None
    foes_block_movement: bool = True
    advantages: tuple[AdvantageTemplate, ...] = DEFAULT_ADVANTAGES
    description: str = ""
    source: str | None = None
    rewards: dict[str, float] = field(default_factory=dict)  # the env's reward rule, if the scene sets one
    kind: str = "conflict"
    contest: ContestSpec | None = None
    challenge: ChallengeSpec | None = None
    countdowns: tuple[Countdown, ...] = ()
    hazards: tuple[Hazard, ...] = ()
    distractions: tuple[Distraction, ...] = ()
    #: characters not in play at the start, for the GM to bring in (live play's /add)
    reserves: tuple[CharacterSheet, ...] = ()
    #: names for the consequences taken in this scene, by severity, used in order (a name already
    #: in play is skipped), before the struck skill's (rules.aspects.consequence_candidates)
    consequence_names: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @cached_property
    def display_names(self) -> dict[str, str]:
        """Id -> the name a table reads, for every character (reserves too) and zone: what the
        reasons, the narration and the pages say instead of an id."""
        return {**{z.id: z.name for z in self.zones}, **{c.id: c.name for c in (*self.reserves, *self.characters)}}

    def character(self, cid: str) -> CharacterSheet:
        for c in self.characters:
            if c.id == cid:
                return c
        raise KeyError(cid)

    @property
    def sides(self) -> tuple[str, ...]:
        seen: list[str] = []
        for c in self.characters:
            if c.side not in seen:
                seen.append(c.side)
        return tuple(seen)

    @property
    def pcs(self) -> tuple[CharacterSheet, ...]:
        return tuple(c for c in self.characters if c.kind == "pc")
