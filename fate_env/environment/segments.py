"""The action layout's segments, declared once.

Every option of every decision kind has an action index in one ``Discrete(N)`` space. The space
is cut into segments, in the order of :data:`SEGMENTS`; each entry says everything the rest of the
package reads about a segment:

- its **size** for a layout (``C`` characters, ``Z`` zones, ``K`` attack skills, ``T`` advantage
  templates, ``A`` aspect slots, ``B`` boost slots, ``S`` consequence slots, ``X`` stress boxes,
  ``Kc`` contest skills, the scene's tasks and blocks and the features its rule set turns on); a
  segment a scene cannot use has size 0, so other scenes' layouts keep their indices;
- the **decision kinds** whose options fall in it (a learner making only some kinds needs only
  their segments: ``ActionLayout.indices_for``, the compact action space);
- its **meaning**, for the generated ``docs/spaces.md``;
- the **option types** it encodes and how (``encode``: the action of one option; none: the
  segment's one index), or the ``Choose`` option that lands in it;
- the fast core's **layout number** for its start (``fast/observe.py``'s ``L_*``), where the
  kernel encodes options of that segment itself.

``ActionLayout`` (``actions.py``), the compact space, ``docs/spaces.md`` and the fast core's
numbers (``fast_table.layout_numbers``) are all derived from this table; a new action adds one
entry here. ``tests/environment/test_segments.py`` compares what it derives with the layouts it
replaced.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..rules.actions import BY_OPTION, FEATURES as ACTION_FEATURES
from ..rules.harm import Absorb, TakenOut
from ..rules.options import (
    Assign, Attack, BlockAction, Concede, CreateAdvantage, Defend, DoneInvoking, Exploit, ForgoDefense, FullDefense,
    Guard, Hold, Share, SplitRemove, TurnToConflict, ZoneTask, Invoke,
    Move, Next, NoAdvantage, NoSupport, OfferConcession, OvercomeMove, Pass, Protect, RemoveAspect, RollFor,
    ShieldWith, ShoveInto, SpendSpin, SplitAdvantage, SplitAttack, Stay, Support, TakeTask, TurnToContest,
    ZoneAttack,
)
from ..rules.state import BOOST

#: the largest share of a split attack's effort the layout names (a share past it: LayoutOverflow)
#: (a roll past it takes some fourteen +2 invokes: random play in the env fuzz reached 17)
MAX_SHARE = 40

class LayoutOverflow(RuntimeError):
    """An option the fixed layout cannot name (a bound was too small): refused loudly, never dropped."""


#: an encoder: (layout, conflict, ego, option, aspect slots, usable boosts) -> the action index
Encoder = Callable[[Any, Any, str, Any, Any, Any], int]


@dataclass(frozen=True)
class SegmentSpec:
    name: str
    #: the segment's size for a layout (ActionLayout: C, Z, K, T, A, B, S, X, Kc, tasks, blocks, features)
    size: Callable[[Any], int]
    #: the size as the docs write it
    size_doc: str
    #: the decision kinds whose options fall in this segment
    kinds: tuple[str, ...]
    #: what an index of this segment means (docs/spaces.md)
    meaning: str
    #: the option types encoded here
    options: tuple[type, ...] = ()
    #: how an option of those types is encoded (None: the segment's one index)
    encode: Encoder | None = None
    #: the ``Choose`` option that lands here (its ``option`` field)
    choice: str | None = None
    #: the fast core's layout number for the segment's start (fast/observe.py L_*)
    kernel: str | None = None


def _one(layout: Any) -> int:
    return 1


#: the features only some scenes or rule sets have, each with what turns it on: a segment gated on one
#: (``_if``) is empty in a layout without it. The actions' features come from their declarations
#: (``Action.feature``, rules/actions); the others are the rules' own. A segment gated on a feature not
#: declared here is refused when this module loads
FEATURES: dict[str, Callable[[Any], bool]] = {
    **ACTION_FEATURES,
    "armored": lambda scene: any(c.minion_armor for c in scene.characters),
    "offered": lambda scene: scene.rules.facts.concession_offered,
    "spin": lambda scene: scene.rules.facts.spin,
    "avoid": lambda scene: scene.rules.maneuver_avoid,
    "forgo": lambda scene: scene.rules.forgo_defense,
    "hidden": lambda scene: any(a.hidden for a in scene.aspects),
    "contest": lambda scene: scene.contest is not None,
    "stand_in": lambda scene: scene.rules.stand_in,
}


def scene_features(scene: Any) -> frozenset[str]:
    """The features ``scene`` has (FEATURES)."""
    return frozenset(name for name, on in FEATURES.items() if on(scene))


def _if(feature: str, size: Callable[[Any], int]) -> Callable[[Any], int]:
    """A segment of a feature only some scenes or rule sets have: empty without it."""
    if feature not in FEATURES:
        raise KeyError(f"segment gated on feature {feature!r}, which FEATURES does not declare (what turns it on)")
    gated = lambda L: size(L) if feature in L.features else 0  # noqa: E731
    gated.feature = feature  # type: ignore[attr-defined]
    return gated


def _action_gated(spec: "SegmentSpec") -> "SegmentSpec":
    """A segment encoding a gated action's option is gated on that action's feature, derived here
    from the action's declaration: declared nowhere else, so it cannot be left out (a segment left
    full costs nothing; one left empty while the action is offered would overflow the layout)."""
    features = {BY_OPTION[t].feature for t in spec.options if t in BY_OPTION} - {None}
    if not features:
        return spec
    if len(features) > 1:
        raise ValueError(f"segment {spec.name!r} encodes actions of different features: {sorted(features)}")
    feature = features.pop()
    own = getattr(spec.size, "feature", None)
    if own is not None and own != feature:
        raise ValueError(f"segment {spec.name!r} is gated on {own!r}, its action on {feature!r}")
    return spec if own == feature else replace(spec, size=_if(feature, spec.size))


# -- encoders ---------------------------------------------------------------------------------
def _move(L, c, ego, o, slots, boosts):
    return L.at("move", L._zone_index[o.zone])


def _attack(L, c, ego, o, slots, boosts):
    return L.at("attack", L.slot(ego, o.target) * L.K + L._skill_index[o.skill])


def _advantage(L, c, ego, o, slots, boosts):
    target = o.target
    if target in c.f:
        ti = L.slot(ego, target)
    elif target in L._zone_index:
        ti = L.C + L._zone_index[target]
    else:
        ti = L.C + L.Z
    return L.at("advantage", L._template_index[o.template] * (L.C + L.Z + 1) + ti)


def _invoke(L, c, ego, o, slots, boosts):
    effect = 0 if o.effect == "bonus" else 1
    if c.aspects[o.aspect].kind == BOOST:
        return L.at("boost", boosts.index(o.aspect) * 2 + effect)
    mode = effect if o.free else 2 + 2 * L._slots[ego][o.payer] + effect
    return L._invoke_start + slots.slot_of[o.aspect] * L._per_aspect + mode  # both always in range


def _choose(L, c, ego, o, slots, boosts):
    return L.at(CHOICES.get(o.option, o.option))


def _absorb(L, c, ego, o, slots, boosts):
    mask = 0
    for s in o.slots:
        mask |= 1 << s
    box = 1 + o.boxes[0] if L.scene.rules.one_box_per_hit and o.boxes else 0
    return L.at("absorb", mask * (L.X + 1) + box)


def _shove(L, c, ego, o, slots, boosts):
    nb = len(L.blocks)
    return L.at("shove", (L.slot(ego, o.target) * L.K + L._skill_index[o.skill]) * nb + L.blocks.index(o.block))


def _assign(L, c, ego, o, slots, boosts):
    if not 1 <= o.effort <= MAX_SHARE:
        raise LayoutOverflow(f"a share of {o.effort} is outside the layout's 1..{MAX_SHARE}")
    return L.at("assign", L.slot(ego, o.target) * MAX_SHARE + o.effort - 1)


def _share(L, c, ego, o, slots, boosts):
    if not 1 <= o.effort <= MAX_SHARE:
        raise LayoutOverflow(f"a share of {o.effort} is outside the layout's 1..{MAX_SHARE}")
    return L.at("share", slots.slot_of[o.aspect] * MAX_SHARE + o.effort - 1)


def _character(segment: str, field: str) -> Encoder:
    """An option naming one character: its slot from the ego."""
    return lambda L, c, ego, o, slots, boosts: L.at(segment, L.slot(ego, getattr(o, field)))


def _zone(segment: str) -> Encoder:
    return lambda L, c, ego, o, slots, boosts: L.at(segment, L._zone_index[o.zone])


def _aspect(segment: str) -> Encoder:
    return lambda L, c, ego, o, slots, boosts: L.at(segment, slots.slot_of[o.aspect])


def _zone_skill(segment: str) -> Encoder:
    return lambda L, c, ego, o, slots, boosts: L.at(segment, L._zone_index[o.zone] * L.K + L._skill_index[o.skill])


def _roll_for(L, c, ego, o, slots, boosts):
    return L.at("roll_for", L.slot(ego, o.character) * L.Kc + L._contest_skill_index[o.skill])


def _task(L, c, ego, o, slots, boosts):
    return L.at("task", o.task * L.C + L.slot(ego, o.character))


def _split_advantage(L, c, ego, o, slots, boosts):
    return L.at("split_advantage", L._template_index[o.template] * L.Z + L._zone_index[o.zone])


def _block_action(L, c, ego, o, slots, boosts):
    return L.at("block_action", L.slot(ego, o.target) * 3 + ("attack", "advantage", "move").index(o.action))


S = SegmentSpec
#: the segments, in layout order (the order is the layout: appending keeps every earlier index)
SEGMENTS: tuple[SegmentSpec, ...] = (
    S("stay", _one, "1", ("move",), "decline the free move after acting", (Stay,), kernel="L_STAY"),
    S("move", lambda L: L.Z, "Z", ("turn", "move"), "the free one-zone move: zone", (Move,), _move, kernel="L_MOVE"),
    S("attack", lambda L: L.C * L.K, "C x K", ("turn",), "attack: target (C) x attack skill (K)", (Attack,), _attack,
      kernel="L_ATTACK"),
    S("advantage", lambda L: L.T * (L.C + L.Z + 1), "T x (C + Z + 1)", ("turn", "contest_advantage"),
      "create an advantage: template (T) x target (C characters, Z zones, the scene)", (CreateAdvantage,), _advantage,
      kernel="L_ADVANTAGE"),
    S("exploit", lambda L: L.A, "A", ("turn", "contest_advantage"),
      "create an advantage on an aspect in play: aspect slot (A)", (Exploit,), _aspect("exploit"), kernel="L_EXPLOIT"),
    S("overcome_move", lambda L: L.Z, "Z", ("turn",), "overcome to move: zone", (OvercomeMove,), _zone("overcome_move"),
      kernel="L_OVERCOME"),
    S("remove", lambda L: L.A, "A", ("turn",), "overcome to clear an aspect: aspect slot (A)", (RemoveAspect,),
      _aspect("remove"), kernel="L_REMOVE"),
    S("full_defense", _one, "1", ("turn", "respond"), "full defense", (FullDefense,), kernel="L_FULLDEF"),
    S("support", lambda L: L.C, "C", ("turn", "support"), "teamwork: ally (C)", (Support,), _character("support", "ally"),
      kernel="L_SUPPORT"),
    S("concede", _one, "1", ("turn", "respond"), "concede", (Concede,), kernel="L_CONCEDE"),
    S("pass", _one, "1", ("turn",), "pass", (Pass,), kernel="L_PASS"),
    S("defend", _one, "1", ("respond",), "defend normally", (Defend,), kernel="L_DEFEND"),
    S("done", _one, "1", ("invoke",), "no (more) invokes", (DoneInvoking,), kernel="L_DONE"),
    S("invoke", lambda L: L.A * (2 + 2 * L.C), "A x (2 + 2C)", ("invoke",),
      "invoke: aspect slot (A) x (free +2, free reroll, then a fate point from each character (C): +2, reroll)",
      (Invoke,), _invoke, kernel="L_INVOKE"),
    S("boost", lambda L: L.B * 2, "B x 2", ("invoke",), "use a boost: boost (B) x (+2, reroll)", kernel="L_BOOST"),
    S("full_hit", _one, "1", ("style",), "take the full hit (style)", choice="full_hit", kernel="L_FULLHIT"),
    S("boost_hit", _one, "1", ("style",), "a boost instead of a shift (style)", choice="boost", kernel="L_BOOSTHIT"),
    S("no_aspect", _one, "1", ("cost",), "a failed advantage: no aspect", choice="no_aspect", kernel="L_NOASPECT"),
    S("aspect_for_enemy", _one, "1", ("cost",), "a failed advantage: the aspect, its free invoke for the foe",
      choice="aspect_for_enemy", kernel="L_FORENEMY"),
    S("minor_cost", _one, "1", ("cost",), "a tied overcome: succeed at a minor cost", choice="minor_cost",
      kernel="L_MINOR"),
    S("fail_with_boost", _one, "1", ("cost",), "a failed overcome with a boost", choice="fail_with_boost",
      kernel="L_FAILBOOST"),
    S("absorb", lambda L: (1 << L.S) * (L.X + 1), "2^S x (X + 1)", ("absorb",),
      "take a hit: consequence slots used (2^S) x stress box (none, or one of X)", (Absorb,), _absorb,
      kernel="L_ABSORB"),
    S("taken_out", _one, "1", ("absorb",), "be taken out", (TakenOut,), kernel="L_TAKENOUT"),
    S("next", lambda L: L.C, "C", ("next",), "popcorn: who acts next (C)", (Next,), _character("next", "character"),
      kernel="L_NEXT"),
    # contests and challenges
    S("roll_for", lambda L: L.C * L.Kc, "C x Kc", ("contest_roll",), "contests: who rolls (C) x contest skill",
      (RollFor,), _roll_for, kernel="L_ROLLFOR"),
    S("no_support", _one, "1", ("support",), "contests: no teamwork", (NoSupport,), kernel="L_NOSUPPORT"),
    S("no_advantage", _one, "1", ("contest_advantage",), "contests: no advantage attempt", (NoAdvantage,),
      kernel="L_NOADVANTAGE"),
    S("forfeit", _one, "1", ("cost",), "contests: forfeit", choice="forfeit", kernel="L_FORFEIT"),
    S("pay", _one, "1", ("cost",), "contests: pay the cost", choice="pay", kernel="L_PAY"),
    S("task", lambda L: L.tasks * L.C, "tasks x C", ("turn", "task"), "challenges: task x character (C)", (TakeTask,),
      _task, kernel="L_TASK"),
    S("fail", _one, "1", ("cost",), "challenges: fail", choice="fail", kernel="L_FAIL"),
    S("major_cost", _one, "1", ("cost",), "succeed at a major cost", choice="major_cost", kernel="L_MAJOR"),
    S("to_contest", _one, "1", ("turn",), "turn the conflict into its contest", (TurnToContest,), kernel="L_TOCONTEST"),
    # a big bad's expendable minion armor: empty in scenes without it, so their layouts stay
    S("take_hit", _if("armored", _one), "1, or 0", ("cost",), "minion armor: take the blow yourself",
      choice="take_hit"),
    S("shield", _if("armored", lambda L: L.C), "C, or 0", ("cost",), "minion armor: force this minion (C) into the blow",
      (ShieldWith,), _character("shield", "minion")),
    # zone attacks (a zone_attack stunt's): empty in scenes without one
    S("zone_attack", lambda L: L.Z * L.K, "Z x K, or 0", ("turn",), "attack a whole zone: zone x skill",
      (ZoneAttack,), _zone_skill("zone_attack"), kernel="L_ZONEATTACK"),
    # split attacks (the split_effort dial): the zone and skill, then each target's share
    S("split_attack", lambda L: L.Z * L.K, "Z x K, or 0", ("turn",), "split an attack: zone x skill",
      (SplitAttack,), _zone_skill("split_attack")),
    S("assign", _if("split", lambda L: L.C * MAX_SHARE), f"C x {MAX_SHARE}, or 0", ("cost",),
      "a split's share: target (C) x effort (1..40)", (Assign,), _assign),
    # forcing a foe into a block: target, skill, block (only in scenes with blocks)
    S("shove", lambda L: L.C * L.K * len(L.blocks), "C x K x blocks", ("turn",),
      "force a foe into a block: target (C) x skill x block", (ShoveInto,), _shove, kernel="L_SHOVE"),
    # FATE 2.0's concessions offered and answered, and held actions (empty under other rules)
    S("offer_concession", _if("offered", _one), "1, or 0", ("absorb",), "offer to concede (FATE 2.0)",
      (OfferConcession,), kernel="L_OFFER"),
    S("accept", _if("offered", _one), "1, or 0", ("concession",), "accept the concession offered", choice="accept",
      kernel="L_ACCEPT"),
    S("refuse", _if("offered", _one), "1, or 0", ("concession",), "refuse it", choice="refuse", kernel="L_REFUSE"),
    S("hold", _one, "1, or 0", ("turn",), "hold the action (FATE 2.0)", (Hold,), kernel="L_HOLD"),
    S("act_now", _if("held", _one), "1, or 0", ("hold",), "take the held turn now", choice="act_now",
      kernel="L_ACTNOW"),
    S("keep_holding", _if("held", _one), "1, or 0", ("hold",), "keep holding", choice="keep_holding",
      kernel="L_KEEPHOLD"),
    # Fate 3.0's block for an ally, spin tokens spent, a maneuver's aspect taken or avoided
    S("protect", lambda L: L.C, "C, or 0", ("turn",), "block for an ally (C) (Fate 3.0)", (Protect,),
      _character("protect", "ally"), kernel="L_PROTECT"),
    S("spin", _if("spin", lambda L: L.C), "C, or 0", ("invoke",), "spend a spin token of this character (C)",
      (SpendSpin,), _character("spin", "holder"), kernel="L_SPIN"),
    S("take_aspect", _if("avoid", _one), "1, or 0", ("cost",), "take the maneuver's aspect", choice="take_aspect",
      kernel="L_TAKEASPECT"),
    S("avoid_aspect", _if("avoid", _one), "1, or 0", ("cost",), "pay a fate point to avoid it", choice="avoid_aspect",
      kernel="L_AVOIDASPECT"),
    S("block_action", lambda L: L.C * 3, "C x 3, or 0", ("turn",),
      "block a foe (C) x its attack/advantage/move", (BlockAction,), _block_action, kernel="L_BLOCKACT"),
    # a split advantage (the split_effort dial): template and zone; its shares are `assign`
    S("split_advantage", lambda L: L.T * L.Z, "T x Z, or 0", ("turn",),
      "split an advantage: template (T) x zone", (SplitAdvantage,), _split_advantage),
    # the forgo_defense dial: take an attack undefended (empty without it)
    S("forgo_defense", _if("forgo", _one), "1, or 0", ("respond",), "forgo the defense: the attack is against Mediocre",
      (ForgoDefense,), kernel="L_FORGO"),
    # the full_defense_focus dial: full defense guarding an ally (empty without it)
    S("guard", lambda L: L.C, "C, or 0", ("turn",), "full defense guarding an ally (C)", (Guard,),
      _character("guard", "ally")),
    # a split overcome (the split_effort dial): its zone, then each aspect's share
    S("split_remove", lambda L: L.Z, "Z, or 0", ("turn",), "split an overcome among the aspects to clear here: zone",
      (SplitRemove,), _zone("split_remove")),
    S("share", _if("split", lambda L: L.A * MAX_SHARE), f"A x {MAX_SHARE}, or 0", ("cost",),
      "a split overcome's share: aspect slot (A) x effort (1..40)", (Share,), _share),
    # an attack in a contest: the contest becomes a conflict (000:147-149)
    S("to_conflict", _if("contest", _one), "1, or 0", ("contest_advantage",),
      "attack: the contest becomes a conflict", (TurnToConflict,), kernel="L_TOCONFLICT"),
    # a zone's own challenge (zones[].challenge): a task of the zone one stands in
    S("zone_task", lambda L: max((len(z.own_challenge.tasks) for z in L.scene.zones if z.own_challenge), default=0),
      "the most tasks of a zone's challenge, or 0", ("turn",), "a task of the zone's own challenge", (ZoneTask,),
      lambda L, c, ego, o, slots, boosts: L.at("zone_task", o.task)),
    # the stand_in dial: an ally beside an attack's target steps in or not
    S("stand_aside", _if("stand_in", _one), "1, or 0", ("cost",), "let the attack on an ally go by", choice="stand_aside",
      kernel="L_STANDASIDE"),
    S("stand_in", _if("stand_in", _one), "1, or 0", ("cost",), "step in: defend for the ally and take the hit",
      choice="stand_in", kernel="L_STANDIN"),
    # hidden aspects (aspects[].hidden): a failed search's opposition keeps the aspect hidden or reveals it
    S("keep_hidden", _if("hidden", _one), "1, or 0", ("cost",), "a failed search: keep the aspect hidden",
      choice="keep_hidden"),
    S("reveal", _if("hidden", _one), "1, or 0", ("cost",), "a failed search: reveal it for a free invoke",
      choice="reveal"),
)
SEGMENTS = tuple(_action_gated(spec) for spec in SEGMENTS)
del S

#: ``Choose(option)`` -> the segment it lands in
CHOICES: dict[str, str] = {s.choice: s.name for s in SEGMENTS if s.choice}

#: the decision kinds, in the order the observation names them, and the segments of each
KIND_ORDER = ("turn", "move", "respond", "invoke", "style", "cost", "absorb", "next", "contest_roll", "support",
              "contest_advantage", "task", "concession", "hold")
SEGMENTS_BY_KIND: dict[str, tuple[str, ...]] = {
    kind: tuple(s.name for s in SEGMENTS if kind in s.kinds) for kind in KIND_ORDER}

#: what an index of each segment means (the generated docs/spaces.md reads these)
SEGMENT_MEANINGS: dict[str, str] = {s.name: s.meaning for s in SEGMENTS}


def fixed_options() -> dict[type, str]:
    """Option types encoded at their segment's one index."""
    return {t: s.name for s in SEGMENTS if s.encode is None for t in s.options}


def encoders() -> dict[type, Encoder]:
    """Option types with an encoder (the ``Choose`` options through the choices' table)."""
    from ..rules.options import Choose
    out: dict[type, Encoder] = {t: s.encode for s in SEGMENTS if s.encode is not None for t in s.options}
    out[Choose] = _choose
    return out
