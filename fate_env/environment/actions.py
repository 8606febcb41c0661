"""The action layout: every option of every decision kind as one ``Discrete(N)`` index.

The layout is fixed per scene (sized from its maxima) and ego-relative: character
slots count from the acting agent (slot 0 is itself, then the others in scene
order), so one policy can sit in any seat. Zones are in scene order; aspects live
in the aspect table (see :class:`AspectSlots`), boosts are indexed by their order
among the boosts usable by the invoker.

Segments, in order (sizes: C characters, Z zones, K attack skills, T advantage
templates, A aspect slots, B boost slots, S consequence slots, X stress boxes):

==================  =======================  ===========================================
segment             size                     decision kinds
==================  =======================  ===========================================
stay                1                        move
move                Z                        turn, move (the free one-zone move)
attack              C x K                    turn
advantage           T x (C + Z + 1)          turn (targets: characters, zones, the scene)
exploit             A                        turn
overcome_move       Z                        turn
remove              A                        turn
full_defense        1                        turn, respond (full_defense: exchange, when first attacked)
support             C                        turn
concede             1                        turn, respond
pass                1                        turn
defend              1                        respond
done                1                        invoke
invoke              A x (2 + 2C)             invoke (free bonus, free reroll, then a
                                             fate point paid by slot c: bonus, reroll)
boost               B x 2                    invoke (bonus, reroll)
full_hit, boost_hit 1 + 1                    style
no_aspect, aspect_for_enemy, minor_cost, fail_with_boost   1 each   cost
absorb              2^S x (X + 1)            absorb (slot bitmask; the box, core only)
taken_out           1                        absorb
next                C                        next
roll_for            C x Kc                   contest_roll (who rolls for the side, which skill)
no_support          1                        support (the ``support`` segment adds the bonus)
no_advantage        1                        contest_advantage (or advantage / exploit)
forfeit, pay        1 + 1                    cost (a contest's failed advantage)
task                tasks x C                task (challenges), turn (a conflict's other actions)
fail, major_cost    1 + 1                    cost (a challenge's failed task)
to_contest          1                        turn (the conflict becomes the scene's contest)
take_hit, shield    1 + C, or 0 + 0          cost (a big bad's expendable minion armor; empty in
                                             scenes without one, so their layouts stay)
zone_attack         Z x K, or 0              turn (a zone_attack stunt's; empty without one)
split_attack        Z x K, or 0              turn (the split_effort dial; empty without it)
assign              C x 40, or 0             cost (a split's shares: target, effort 1..40)
shove               C x K x blocks           turn (forcing a foe into a block; empty without blocks)
offer_concession    1, or 0                  absorb (take the ordered consequence, offering to concede:
                                             concession: offered; empty under other rules)
accept, refuse      1 + 1, or 0 + 0          concession (the one who hit answers the offer)
hold                1, or 0                  turn (the hold_action dial; empty without it)
act_now, keep_holding  1 + 1, or 0 + 0       hold (a held turn: take it now, or hold on)
protect             C, or 0                  turn (Fate 3.0's block for an ally: the protect dial)
spin                C, or 0                  invoke (a spin token of this holder spent on a defense)
take_aspect, avoid_aspect  1 + 1, or 0 + 0   cost (a maneuver's target: the maneuver_avoid dial)
block_action        C x 3, or 0              turn (Fate 3.0's block of a foe's attack, advantage or move)
split_advantage     T x Z, or 0              turn (an advantage split among foes in a zone: split_effort)
==================  =======================  ===========================================
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..rules.conflict import Conflict
from ..rules.harm import Absorb, TakenOut
from ..rules.options import (
    Attack, Choose, Concede, CreateAdvantage, Defend, DoneInvoking, Exploit, FullDefense, Invoke, Move, Next,
    NoAdvantage, NoSupport, OvercomeMove, Pass, RemoveAspect, RollFor, ShieldWith, Stay, Support, TakeTask,
    TurnToContest, ZoneAttack, SplitAttack, Assign, ShoveInto, OfferConcession, Hold, Protect, SpendSpin,
    BlockAction, SplitAdvantage,
)
from ..rules.scene import Scene
from ..rules.skills import ATTACK_SKILLS
from ..rules.state import BOOST, build_fighter


#: the segments each decision kind's options fall in (the table above); a learner that makes only
#: some kinds of decision needs only their segments (see :meth:`ActionLayout.indices_for`)
SEGMENTS_BY_KIND: dict[str, tuple[str, ...]] = {
    "turn": ("move", "attack", "advantage", "exploit", "overcome_move", "remove", "full_defense", "support",
             "concede", "pass", "task", "to_contest", "zone_attack", "split_attack", "shove", "hold", "protect",
             "block_action", "split_advantage"),
    "move": ("stay", "move"),
    "respond": ("concede", "defend", "full_defense"),
    "invoke": ("done", "invoke", "boost", "spin"),
    "style": ("full_hit", "boost_hit"),
    "cost": ("no_aspect", "aspect_for_enemy", "minor_cost", "fail_with_boost", "forfeit", "pay", "fail",
             "major_cost", "take_hit", "shield", "assign", "take_aspect", "avoid_aspect"),
    "absorb": ("absorb", "taken_out", "offer_concession"),
    "next": ("next",),
    "contest_roll": ("roll_for",),
    "support": ("no_support", "support"),
    "contest_advantage": ("no_advantage", "advantage", "exploit"),
    "task": ("task",),
    "concession": ("accept", "refuse"),
    "hold": ("act_now", "keep_holding"),
}


#: what an index of each segment means (the generated docs/spaces.md reads these; C characters in
#: the ego's order, Z zones, K attack skills, T advantage templates, A aspect slots, B boosts)
SEGMENT_MEANINGS: dict[str, str] = {
    "stay": "decline the free move after acting", "move": "the free one-zone move: zone",
    "attack": "attack: target (C) x attack skill (K)",
    "advantage": "create an advantage: template (T) x target (C characters, Z zones, the scene)",
    "exploit": "create an advantage on an aspect in play: aspect slot (A)",
    "overcome_move": "overcome to move: zone", "remove": "overcome to clear an aspect: aspect slot (A)",
    "full_defense": "full defense", "support": "teamwork: ally (C)", "concede": "concede", "pass": "pass",
    "defend": "defend normally", "done": "no (more) invokes",
    "invoke": "invoke: aspect slot (A) x (free +2, free reroll, then a fate point from each character (C): +2, reroll)",
    "boost": "use a boost: boost (B) x (+2, reroll)", "full_hit": "take the full hit (style)",
    "boost_hit": "a boost instead of a shift (style)", "no_aspect": "a failed advantage: no aspect",
    "aspect_for_enemy": "a failed advantage: the aspect, its free invoke for the foe",
    "minor_cost": "a tied overcome: succeed at a minor cost", "fail_with_boost": "a failed overcome with a boost",
    "absorb": "take a hit: consequence slots used (2^S) x stress box (none, or one of X)",
    "taken_out": "be taken out", "next": "popcorn: who acts next (C)",
    "roll_for": "contests: who rolls (C) x contest skill", "no_support": "contests: no teamwork",
    "no_advantage": "contests: no advantage attempt", "forfeit": "contests: forfeit", "pay": "contests: pay the cost",
    "task": "challenges: task x character (C)", "fail": "challenges: fail", "major_cost": "succeed at a major cost",
    "to_contest": "turn the conflict into its contest", "take_hit": "minion armor: take the blow yourself",
    "shield": "minion armor: force this minion (C) into the blow", "zone_attack": "attack a whole zone: zone x skill",
    "split_attack": "split an attack: zone x skill", "assign": "a split's share: target (C) x effort (1..40)",
    "shove": "force a foe into a block: target (C) x skill x block", "offer_concession": "offer to concede (FATE 2.0)",
    "accept": "accept the concession offered", "refuse": "refuse it", "hold": "hold the action (FATE 2.0)",
    "act_now": "take the held turn now", "keep_holding": "keep holding", "protect": "block for an ally (C) (Fate 3.0)",
    "spin": "spend a spin token of this character (C)", "take_aspect": "take the maneuver's aspect",
    "avoid_aspect": "pay a fate point to avoid it", "block_action": "block a foe (C) x its attack/advantage/move",
    "split_advantage": "split an advantage: template (T) x zone",
}


#: the largest share of a split attack's effort the layout names (a share past it: LayoutOverflow)
#: (a roll past it takes some fourteen +2 invokes: random play in the env fuzz reached 17)
MAX_SHARE = 40


class LayoutOverflow(RuntimeError):
    """An option the fixed layout cannot name (a bound was too small): refused loudly, never dropped."""


def attack_skills(scene: Scene) -> list[str]:
    tracks = scene.rules.tracks_in_play(scene.conflict)
    skills = [s for s, (track, _) in ATTACK_SKILLS.items() if track in tracks]
    for c in scene.characters:
        for st in c.stunts:
            if st.kind == "use_skill" and st.action == "attack" and st.skill not in skills:
                skills.append(st.skill)
    return skills


class AspectSlots:
    """Live non-boost aspects in fixed slots: a new aspect takes the lowest free slot."""

    def __init__(self, size: int):
        self.size = size
        self.slot_of: dict[int, int] = {}
        self.aspect_at: list[int | None] = [None] * size
        self._seen: tuple = ()

    def sync(self, conflict: Conflict) -> None:
        live = conflict.aspects
        # every new aspect takes the next number (rules/aspects.py new_aspect) and a removal shortens
        # the table: the same table, size and last number mean the same aspects (most steps)
        seen = (live, len(live), conflict.t.aspect_seq)
        if self._seen and self._seen[0] is live and self._seen[1:] == seen[1:]:
            return
        for aid, slot in list(self.slot_of.items()):
            if aid not in live:
                del self.slot_of[aid]
                self.aspect_at[slot] = None
        for aid, a in live.items():  # dicts keep creation order: slots are deterministic
            if a.kind != BOOST and aid not in self.slot_of:
                try:
                    slot = self.aspect_at.index(None)
                except ValueError:
                    raise LayoutOverflow(f"more than {self.size} aspects in play; raise max_aspects") from None
                self.slot_of[aid] = slot
                self.aspect_at[slot] = aid
        self._seen = seen


def usable_boosts(conflict: Conflict, options: Sequence[Any]) -> list[int]:
    """The boosts a decision's invoke options use, in order: the ``boost`` segment's indices."""
    out: list[int] = []
    for o in options:
        if type(o) is Invoke and conflict.aspects[o.aspect].kind == BOOST and o.aspect not in out:
            out.append(o.aspect)
    return out


@dataclass
class Segment:
    name: str
    start: int
    size: int


class ActionLayout:
    """Encode engine options as action indices for an ego, and back."""

    def __init__(self, scene: Scene, max_aspects: int | None = None, max_boosts: int | None = None,
                 fixed: Any = None):
        """``fixed``: a :class:`~fate_env.environment.maxima.Maxima` to pad every size to (one
        layout shared by several scenes); None sizes the layout to this scene."""
        self.scene = scene
        self.fixed = fixed
        self.ids = [c.id for c in scene.characters]
        self.zones = [z.id for z in scene.zones]
        self.scene_C, self.scene_Z = len(self.ids), len(self.zones)
        self.scene_skills = attack_skills(scene)
        self.scene_templates = [t.name for t in scene.advantages]  # advantages of either kind (003:1414-1419)
        fighters = [build_fighter(c, scene.rules) for c in scene.characters]
        self.scene_S = max((len(f.slots) for f in fighters), default=0)
        self.scene_X = max((len(t.values) for f in fighters for t in f.tracks.values()), default=0)
        initial = sum(bool(c.high_concept) + bool(c.trouble) + len(c.aspects) for c in scene.characters)
        initial += len(scene.aspects)
        contest = scene.contest
        self.scene_contest_skills = sorted({k for ks in contest.skills.values() for k in ks}) if contest else []
        self.scene_tasks = len(scene.challenge.tasks) if scene.challenge else 0
        twists = (contest.twists and len(contest.twists)) or 0 if contest else 0
        self.scene_T = len(self.scene_templates)
        self.scene_A = max_aspects or (initial + sum(len(f.slots) for f in fighters)
                                       + self.scene_T * (self.scene_C + self.scene_Z + 1)
                                       + (scene.rules.max_exchanges if contest else 0) + twists)
        self.scene_blocks = [b.block.name for b in scene.borders if b.block is not None]
        rules = scene.rules
        self.scene_features = frozenset(name for name, on in (
            ("armored", any(c.minion_armor for c in scene.characters)),
            ("blasts", any(st.kind == "zone_attack" for c in scene.characters for st in c.stunts)),
            ("split", rules.split_effort), ("offered", rules.concession == "offered"), ("held", rules.hold_action),
            ("protect", rules.protect), ("spin", rules.defense_overflow == "spin"), ("avoid", rules.maneuver_avoid),
            ("block_actions", rules.block_actions)) if on)
        if fixed is None:
            self.C, self.Z = self.scene_C, self.scene_Z
            self.skills, self.templates = self.scene_skills, self.scene_templates
            self.S, self.X, self.A = self.scene_S, self.scene_X, self.scene_A
            self.contest_skills, self.tasks, self.blocks = self.scene_contest_skills, self.scene_tasks, self.scene_blocks
            self.B = max_boosts or (2 * self.C + 4)
            self.features = self.scene_features
        else:
            fixed.check(self)
            self.C, self.Z, self.S, self.X, self.A = fixed.characters, fixed.zones, fixed.slots, fixed.boxes, fixed.aspects
            self.skills, self.templates = list(fixed.attack_skills), list(fixed.templates)
            self.contest_skills, self.tasks, self.blocks = list(fixed.contest_skills), fixed.tasks, list(fixed.blocks)
            self.B = fixed.boosts
            self.features = fixed.features
        self.K, self.T, self.Kc = len(self.skills), len(self.templates), len(self.contest_skills)
        feat = self.features
        armored, blasts, split = "armored" in feat, "blasts" in feat, "split" in feat
        offered, held, avoid = int("offered" in feat), int("held" in feat), int("avoid" in feat)
        sizes = [
            ("stay", 1), ("move", self.Z), ("attack", self.C * self.K),
            ("advantage", self.T * (self.C + self.Z + 1)), ("exploit", self.A), ("overcome_move", self.Z),
            ("remove", self.A), ("full_defense", 1), ("support", self.C), ("concede", 1), ("pass", 1),
            ("defend", 1), ("done", 1), ("invoke", self.A * (2 + 2 * self.C)), ("boost", self.B * 2),
            ("full_hit", 1), ("boost_hit", 1), ("no_aspect", 1), ("aspect_for_enemy", 1), ("minor_cost", 1),
            ("fail_with_boost", 1), ("absorb", (1 << self.S) * (self.X + 1)), ("taken_out", 1), ("next", self.C),
            # contests and challenges
            ("roll_for", self.C * self.Kc), ("no_support", 1), ("no_advantage", 1), ("forfeit", 1), ("pay", 1),
            ("task", self.tasks * self.C), ("fail", 1), ("major_cost", 1), ("to_contest", 1),
            # a big bad's expendable minion armor: empty in scenes without it, so their layouts stay
            ("take_hit", 1 if armored else 0), ("shield", self.C if armored else 0),
            # zone attacks (a zone_attack stunt's): empty in scenes without one
            ("zone_attack", self.Z * self.K if blasts else 0),
            # split attacks (the split_effort dial): the zone and skill, then each target's share
            ("split_attack", self.Z * self.K if split else 0), ("assign", self.C * MAX_SHARE if split else 0),
            # forcing a foe into a block: target, skill, block (only in scenes with blocks)
            ("shove", self.C * self.K * len(self.blocks)),
            # FATE 2.0's concessions offered and answered, and held actions (empty under other rules)
            ("offer_concession", offered), ("accept", offered), ("refuse", offered),
            ("hold", held), ("act_now", held), ("keep_holding", held),
            # Fate 3.0's block for an ally, spin tokens spent, a maneuver's aspect taken or avoided
            ("protect", self.C if "protect" in feat else 0), ("spin", self.C if "spin" in feat else 0),
            ("take_aspect", avoid), ("avoid_aspect", avoid),
            ("block_action", self.C * 3 if "block_actions" in feat else 0),
            # a split advantage (the split_effort dial): template and zone; its shares are `assign`
            ("split_advantage", self.T * self.Z if split else 0),
        ]
        self.segments: dict[str, Segment] = {}
        pos = 0
        for name, size in sizes:
            self.segments[name] = Segment(name, pos, size)
            pos += size
        self.n = pos
        self._zone_index = {z: i for i, z in enumerate(self.zones)}
        self._skill_index = {s: i for i, s in enumerate(self.skills)}
        self._template_index = {t: i for i, t in enumerate(self.templates)}
        self._slots = {ego: {cid: i for i, cid in enumerate(self.order(ego))} for ego in self.ids}
        self._fixed = {Stay: "stay", FullDefense: "full_defense", Concede: "concede", Pass: "pass",
                       Defend: "defend", DoneInvoking: "done", TakenOut: "taken_out", NoSupport: "no_support",
                       NoAdvantage: "no_advantage", TurnToContest: "to_contest",
                       OfferConcession: "offer_concession", Hold: "hold"}
        self._contest_skill_index = {s: i for i, s in enumerate(self.contest_skills)}
        self._encoders = self._encoder_table()

    # -- ego ordering ---------------------------------------------------------
    def order(self, ego: str) -> list[str]:
        """Character slots for ``ego``: itself first, then the others in scene order."""
        return [ego] + [c for c in self.ids if c != ego]

    def slot(self, ego: str, cid: str) -> int:
        return self._slots[ego][cid]

    def at(self, name: str, offset: int = 0) -> int:
        seg = self.segments[name]
        if not 0 <= offset < seg.size:
            raise LayoutOverflow(f"{name} offset {offset} is outside its {seg.size} slots")
        return seg.start + offset

    # -- encoding ---------------------------------------------------------------
    def encode(self, conflict: Conflict, ego: str, option: Any, slots: AspectSlots,
               boosts: Sequence[int] = ()) -> int:
        """The action index of one option of ``ego``'s pending decision."""
        t = type(option)
        fixed = self._fixed.get(t)
        if fixed is not None:
            return self.segments[fixed].start
        how = self._encoders.get(t)
        if how is None:
            raise LayoutOverflow(f"no action for option {option!r}")
        return how(conflict, ego, option, slots, boosts)

    def _encoder_table(self) -> dict[type, Any]:
        """One small encoder per option type (a dict lookup instead of a chain of type tests: the
        mask of an invoke decision encodes dozens of options)."""
        invoke_start = self.segments["invoke"].start
        per_aspect = 2 + 2 * self.C

        def move(c, ego, o, slots, boosts):
            return self.at("move", self._zone_index[o.zone])

        def attack(c, ego, o, slots, boosts):
            return self.at("attack", self.slot(ego, o.target) * self.K + self._skill_index[o.skill])

        def advantage(c, ego, o, slots, boosts):
            target = o.target
            if target in c.f:
                ti = self.slot(ego, target)
            elif target in self._zone_index:
                ti = self.C + self._zone_index[target]
            else:
                ti = self.C + self.Z
            return self.at("advantage", self._template_index[o.template] * (self.C + self.Z + 1) + ti)

        def invoke(c, ego, o, slots, boosts):
            effect = 0 if o.effect == "bonus" else 1
            if c.aspects[o.aspect].kind == BOOST:
                return self.at("boost", boosts.index(o.aspect) * 2 + effect)
            mode = effect if o.free else 2 + 2 * self._slots[ego][o.payer] + effect
            return invoke_start + slots.slot_of[o.aspect] * per_aspect + mode  # both always in range

        def choose(c, ego, o, slots, boosts):
            return self.at({"full_hit": "full_hit", "boost": "boost_hit"}.get(o.option, o.option))

        def shield(c, ego, o, slots, boosts):
            return self.at("shield", self.slot(ego, o.minion))

        def zone_attack(c, ego, o, slots, boosts):
            return self.at("zone_attack", self._zone_index[o.zone] * self.K + self._skill_index[o.skill])

        def split_attack(c, ego, o, slots, boosts):
            return self.at("split_attack", self._zone_index[o.zone] * self.K + self._skill_index[o.skill])

        def shove(c, ego, o, slots, boosts):
            nb = len(self.blocks)
            return self.at("shove", (self.slot(ego, o.target) * self.K + self._skill_index[o.skill]) * nb
                           + self.blocks.index(o.block))

        def assign(c, ego, o, slots, boosts):
            if not 1 <= o.effort <= MAX_SHARE:
                raise LayoutOverflow(f"a share of {o.effort} is outside the layout's 1..{MAX_SHARE}")
            return self.at("assign", self.slot(ego, o.target) * MAX_SHARE + o.effort - 1)

        def absorb(c, ego, o, slots, boosts):
            mask = 0
            for s in o.slots:
                mask |= 1 << s
            box = 1 + o.boxes[0] if self.scene.rules.one_box_per_hit and o.boxes else 0
            return self.at("absorb", mask * (self.X + 1) + box)

        return {
            Move: move, Attack: attack, CreateAdvantage: advantage, Invoke: invoke, Choose: choose, ShieldWith: shield, ZoneAttack: zone_attack,
            SplitAttack: split_attack, Assign: assign, ShoveInto: shove, Absorb: absorb,
            Exploit: lambda c, ego, o, slots, boosts: self.at("exploit", slots.slot_of[o.aspect]),
            OvercomeMove: lambda c, ego, o, slots, boosts: self.at("overcome_move", self._zone_index[o.zone]),
            RemoveAspect: lambda c, ego, o, slots, boosts: self.at("remove", slots.slot_of[o.aspect]),
            Support: lambda c, ego, o, slots, boosts: self.at("support", self.slot(ego, o.ally)),
            Next: lambda c, ego, o, slots, boosts: self.at("next", self.slot(ego, o.character)),
            RollFor: lambda c, ego, o, slots, boosts: self.at(
                "roll_for", self.slot(ego, o.character) * self.Kc + self._contest_skill_index[o.skill]),
            TakeTask: lambda c, ego, o, slots, boosts: self.at("task", o.task * self.C + self.slot(ego, o.character)),
            Protect: lambda c, ego, o, slots, boosts: self.at("protect", self.slot(ego, o.ally)),
            SpendSpin: lambda c, ego, o, slots, boosts: self.at("spin", self.slot(ego, o.holder)),
            SplitAdvantage: lambda c, ego, o, slots, boosts: self.at(
                "split_advantage", self._template_index[o.template] * self.Z + self._zone_index[o.zone]),
            BlockAction: lambda c, ego, o, slots, boosts: self.at(
                "block_action", self.slot(ego, o.target) * 3 + ("attack", "advantage", "move").index(o.action)),
        }

    def indices_for(self, kinds: Sequence[str]) -> list[int]:
        """The action indices the options of these decision kinds can take, in layout order: the
        compact action space of a learner that makes only these decisions (a turn-only learner
        on the warehouse needs a seventh of the layout; the invoke segment is most of it)."""
        unknown = [k for k in kinds if k not in SEGMENTS_BY_KIND]
        if unknown:
            raise ValueError(f"decision kind(s) {', '.join(unknown)}: expected some of {', '.join(SEGMENTS_BY_KIND)}")
        names = {n for k in kinds for n in SEGMENTS_BY_KIND[k]}
        return [i for seg in self.segments.values() if seg.name in names for i in range(seg.start, seg.start + seg.size)]

    def describe_segment(self, name: str) -> str:
        return SEGMENT_MEANINGS.get(name, name)

    def segment_of(self, action: int) -> tuple[str, int]:
        """(segment name, offset) of an action index: for docs, tests and debugging."""
        for seg in self.segments.values():
            if seg.start <= action < seg.start + seg.size:
                return seg.name, action - seg.start
        raise ValueError(f"action {action} is outside 0..{self.n - 1}")
