"""Typed events: everything the engine does, as JSON-serialisable records.

Each event is a small frozen dataclass; :func:`to_json` turns one into a dict
with its ``type``. The log of a conflict is the list of these, and the same
scene, seed and decisions always produce the same log.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .options import key


@dataclass(frozen=True, slots=True)
class Event:
    def to_json(self) -> dict[str, Any]:
        return {"type": type(self).__name__, **asdict(self)}


@dataclass(frozen=True, slots=True)
class ConflictStarted(Event):
    scene: str
    rules: str
    kind: str
    sides: dict[str, list[str]]
    gm_fate_points: int


@dataclass(frozen=True, slots=True)
class ExchangeStarted(Event):
    exchange: int


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    actor: str
    exchange: int


@dataclass(frozen=True, slots=True)
class DecisionMade(Event):
    """``choice`` is the option taken; in JSON it is its stable key (``attack:og:Fight``)."""

    kind: str
    actor: str
    choice: Any
    index: int
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"type": "DecisionMade", "kind": self.kind, "actor": self.actor, "choice": key(self.choice),
                "index": self.index, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Moved(Event):
    actor: str
    from_zone: str
    to_zone: str
    free: bool


@dataclass(frozen=True, slots=True)
class CountdownMarked(Event):
    """A box of a countdown marked (003:2180-2188)."""

    countdown: str
    marked: int
    boxes: int


@dataclass(frozen=True, slots=True)
class CountdownEnded(Event):
    """The last box marked: the outcome happens (003:2190-2191)."""

    countdown: str
    text: str
    winner: str | None
    aspect: str | None


@dataclass(frozen=True, slots=True)
class CountdownStopped(Event):
    """The character a countdown was tied to has left the fight: it runs no more."""

    countdown: str
    by: str


@dataclass(frozen=True, slots=True)
class Distraction(Event):
    """A distraction dealt with (``by``) or left when the scene ends (``by`` None), and the
    repercussion the scene gives for that (003:2361-2364)."""

    distraction: str
    by: str | None
    repercussion: str


@dataclass(frozen=True, slots=True)
class SplitEffort(Event):
    """A split roll's effort given out among its targets (003:2634-2646): characters by id, or the
    aspects a split overcome clears, by name."""

    actor: str
    effort: int
    given: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class ZoneAttacked(Event):
    """An attack on everyone in ``zone`` (003:2644-2650)."""

    actor: str
    zone: str
    skill: str
    targets: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TrueFormRevealed(Event):
    """A big bad taken out reveals its true form (003:2550-2566)."""

    fallen: str
    true_form: str
    zone: str
    carried: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ImmunityEnds(Event):
    """The scene's challenge is beaten: these big bads can be attacked now (003:2520-2525)."""

    characters: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MinionArmor(Event):
    """A big bad forces ``minion`` into the path of ``attacker``'s hit (003:2534-2549)."""

    big_bad: str
    minion: str
    attacker: str
    shifts: int


@dataclass(frozen=True, slots=True)
class Cover(Event):
    """A block between the zones mitigates an attack: ``armor`` off its shifts (003:2333-2337)."""

    target: str
    block: str
    armor: int


@dataclass(frozen=True, slots=True)
class HazardActs(Event):
    """A hazard's turn: it attacks ``target`` (003:2288-2293)."""

    hazard: str
    target: str


@dataclass(frozen=True, slots=True)
class SoloBonus(Event):
    """A big bad's solo bonus at work where no roll note shows it (003:2574-2602): ``amount`` shifts
    taken off a hit (reduce_stress), or an invoke worth ``amount`` instead of +2."""

    character: str
    bonus: str
    amount: int


@dataclass(frozen=True, slots=True)
class ScaleBenefit(Event):
    """A higher scale's benefit taken after the roll (003:2430-2439, dial scale_benefit: after_roll):
    ``shifts`` more on a successful attack, or ``free_invokes`` more on a successful advantage."""

    actor: str
    against: str
    levels: int
    shifts: int = 0
    free_invokes: int = 0


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """One side of a roll: ``base`` is skill plus stunts and teamwork."""

    actor: str
    action: str
    skill: str
    rating: int
    base: int
    faces: tuple[int, ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PassiveOpposition(Event):
    actor: str
    action: str
    difficulty: int
    why: str


@dataclass(frozen=True, slots=True)
class Invoked(Event):
    invoker: str
    aspect: str
    aspect_id: int
    paid_by: str
    free: bool
    effect: str
    hostile_to: str | None = None
    new_faces: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class Resolved(Event):
    """The dice settled: effort vs opposition and the outcome band."""

    actor: str
    action: str
    effort: int
    opposition: int
    shifts: int
    outcome: str
    target: str | None = None


@dataclass(frozen=True, slots=True)
class AspectCreated(Event):
    aspect: str
    aspect_id: int
    kind: str
    on: str | None
    free_invokes: int
    holder: str | None


@dataclass(frozen=True, slots=True)
class FreeInvokeGained(Event):
    holder: str
    aspect: str
    aspect_id: int
    count: int


@dataclass(frozen=True, slots=True)
class AspectRemoved(Event):
    aspect: str
    aspect_id: int
    why: str


@dataclass(frozen=True, slots=True)
class Hit(Event):
    target: str
    source: str | None
    shifts: int
    track: str
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Absorbed(Event):
    target: str
    shifts: int
    track: str
    boxes: tuple[int, ...]
    box_values: tuple[int, ...]
    consequences: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MobHit(Event):
    target: str
    shifts: int
    members_lost: int
    members_left: int


@dataclass(frozen=True, slots=True)
class TakenOutEvent(Event):
    target: str
    by: str | None


@dataclass(frozen=True, slots=True)
class Conceded(Event):
    actor: str
    payout: int


@dataclass(frozen=True, slots=True)
class ConcessionOffered(Event):
    """``actor``, taking a consequence from ``to``, offers to concede instead (001:150)."""

    actor: str
    to: str


@dataclass(frozen=True, slots=True)
class ConcessionAnswered(Event):
    """``by`` accepts or refuses ``actor``'s offer. Refused: ``actor`` is owed a fate point and
    ``by`` loses one if it has one (``lost``; an NPC's comes from the GM's pool) (001:150)."""

    actor: str
    by: str
    accepted: bool
    lost: int


@dataclass(frozen=True, slots=True)
class TurnForfeited(Event):
    """``actor``'s turn this exchange goes: a full defense declared when first attacked (001:80),
    or a held action never taken before the exchange ended (001:84)."""

    actor: str
    why: str


@dataclass(frozen=True, slots=True)
class ActionHeld(Event):
    """``actor`` holds its action, to take its turn later in the exchange (001:82-84)."""

    actor: str


@dataclass(frozen=True, slots=True)
class MinorAction(Event):
    """A minor action (002:28): ``penalty`` off the turn's main action in all so far."""

    actor: str
    what: str
    penalty: int


@dataclass(frozen=True, slots=True)
class Protecting(Event):
    """``actor`` blocks for ``ally`` this exchange at ``strength`` (002:46)."""

    actor: str
    ally: str
    strength: int


@dataclass(frozen=True, slots=True)
class Blocking(Event):
    """``actor`` blocks ``target``'s ``action`` (attack, advantage, move) this exchange at ``strength`` (002:47)."""

    actor: str
    target: str
    action: str
    strength: int


@dataclass(frozen=True, slots=True)
class BlockTested(Event):
    """``actor`` tried the blocked ``action``: its roll against the block strength; ``past``: at
    least one shift, so the action goes ahead (002:47); else the action is spent."""

    actor: str
    blocker: str
    action: str
    past: bool


@dataclass(frozen=True, slots=True)
class BlockHeld(Event):
    """A protected character's defense roll fell short of its blocker's strength: that is used (002:46)."""

    target: str
    blocker: str
    strength: int


@dataclass(frozen=True, slots=True)
class Spin(Event):
    """``actor`` won a defense by three or more and holds a spin token (002:94-95); ``spent_for``:
    a token spent for +1 on that ally's defense instead."""

    actor: str
    tokens: int
    spent_for: str | None = None


@dataclass(frozen=True, slots=True)
class Sprinted(Event):
    """A sprint's shifts (002:50): ``zones`` moved of the way to ``to``."""

    actor: str
    shifts: int
    to: str
    zones: int


@dataclass(frozen=True, slots=True)
class ManeuverAvoided(Event):
    """``actor`` pays a fate point not to take the maneuver's aspect ``aspect`` (002:79)."""

    actor: str
    aspect: str


@dataclass(frozen=True, slots=True)
class MajorCost(Event):
    """A failed overcome taken as success at a major cost: ``cost`` is consequence or enemy_aspect.
    Under ``shared_costs`` each supporter of the roll has one too, after the roller's."""

    actor: str
    cost: str
    aspect: str
    aspect_id: int


@dataclass(frozen=True, slots=True)
class FullDefenseDeclared(Event):
    actor: str


@dataclass(frozen=True, slots=True)
class ZoneChallengeBeaten(Event):
    """Every task of a zone's challenge done: the way deeper is open (003:2606-2609)."""

    zone: str
    name: str
    deeper: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AspectRevealed(Event):
    """A hidden aspect discovered: known from now on (003:854-867)."""

    name: str
    aspect_id: int
    by: str


@dataclass(frozen=True, slots=True)
class Guarding(Event):
    """Full defense with an ally as its focus (003:2236-2240)."""

    actor: str
    ally: str


@dataclass(frozen=True, slots=True)
class StoodIn(Event):
    """A guard steps between an attack and its ward: the guard defends and takes the hit (000:270)."""

    actor: str
    ward: str
    attacker: str


@dataclass(frozen=True, slots=True)
class SupportPledged(Event):
    actor: str
    ally: str


@dataclass(frozen=True, slots=True)
class Passed(Event):
    actor: str


@dataclass(frozen=True, slots=True)
class NextActor(Event):
    chooser: str
    actor: str
    opens_exchange: bool


@dataclass(frozen=True, slots=True)
class ConflictEnded(Event):
    winner: str | None
    exchanges: int
    unresolved: bool
    payouts: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ContestStarted(Event):
    scene: str
    rules: str
    sides: dict[str, list[str]]
    victories_needed: int
    mode: str


@dataclass(frozen=True, slots=True)
class ContestPlan(Event):
    """A side's plan for the exchange: who rolls, with what, who helps."""

    side: str
    roller: str
    skill: str
    supporters: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Forfeited(Event):
    side: str
    who: str
    what: str  # "roll" (the side's roll) or "support"


@dataclass(frozen=True, slots=True)
class ExchangeResult(Event):
    """Efforts (or shifts, in a passive contest) by side, and what they earned."""

    exchange: int
    scores: dict[str, int]
    winner: str | None
    victories_won: int
    twist: str | None
    victories: dict[str, int]


@dataclass(frozen=True, slots=True)
class ThreatRolled(Event):
    threat: str
    effort: int
    faces: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class BecameConflict(Event):
    """Someone attacked in a contest: it is a conflict from here (000:147-149); victories are dropped,
    stress, consequences, aspects and fate points carry over."""

    by: str
    exchange: int


@dataclass(frozen=True, slots=True)
class BecameContest(Event):
    """The conflict turned into a contest; its payouts wait for the contest's end (000:539-547)."""

    by: str
    exchange: int


@dataclass(frozen=True, slots=True)
class ImmunityContest(Event):
    """The contest a big bad's immunity sets is over (003:2527-2532): ``broken``, the group won
    and the conflict begins; else the big bad pulls off its scheme and gets away."""

    big_bad: str
    broken: bool


@dataclass(frozen=True, slots=True)
class ChallengeStarted(Event):
    scene: str
    rules: str
    side: str
    tasks: list[str]


@dataclass(frozen=True, slots=True)
class TaskResult(Event):
    task: str
    character: str
    effort: int
    difficulty: int
    outcome: str
    result: str  # success / success_with_style / minor_cost / major_cost / fail / fail_with_boost


@dataclass(frozen=True, slots=True)
class GmAction(Event):
    """A GM power used between decisions: add_aspect, remove_aspect, compel, fate_points, end,
    add_character (``aspect``: its name, ``amount``: members), remove_character, move (``zone``),
    rating (``aspect``: the skill, ``amount``: the new rating), boost (``aspect``: its name)."""

    power: str
    character: str | None
    aspect: str | None
    amount: int
    zone: str | None


@dataclass(frozen=True, slots=True)
class ConsequenceNamed(Event):
    """A consequence given its name after it was taken (by its taker or the GM, 003:1631-1634)."""

    character: str | None
    aspect_id: int
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class AspectNamed(Event):
    """An aspect created in the fight given its creator's words (an advantage's player names what they
    introduce, 003:817-822; or the GM renames it)."""

    character: str | None
    aspect_id: int
    old: str
    new: str
