"""The engine: one scene in play, answered decision by decision, copyable at any point.

``start(scene, seed)`` gives an :class:`Engine` waiting on its first decision (``pending``); any
controller answers with :meth:`Engine.step`; an illegal answer raises :class:`IllegalChoice` and
changes nothing. Everything that happens is a typed event in ``events``; the same scene, seed
and choices give the same events.

The state is a plain :class:`~fate_env.rules.table.Table`; the rules are functions over it
(``rolls``, ``invokes``, ``harm``, ``overcome``, ``actions/``) and each kind of scene has one flow
(``flows/``), a generator that reads top to bottom as the table plays. A generator cannot be
copied, so the engine keeps a **checkpoint**: a copy of the table taken where the flow can
resume from the table alone (each turn's start; each contest exchange; each challenge task),
plus the inputs (choices, concessions, GM powers) and dice since then. :meth:`Engine.clone`,
``copy.deepcopy`` and ``pickle`` restore the checkpoint and replay those few inputs: a copy
plays on exactly as the original would, at the cost of a turn, not of the whole log.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from . import events as ev
from . import countdowns, gm, true_form
from .actions import actions_for
from .aspects import new_aspect, setup_aspects
from .decisions import RECONSIDER, ConflictOver, Decision, Flow, IllegalChoice
from .dice import Dice
from .end import finish
from .flows import FLOWS
from .kinds import PRE_DICE, SceneKind
from .options import Concede, key
from .scene import CharacterSheet, Scene
from .state import CHARACTER, CONSEQUENCE, SITUATION
from .stress import build_fighter
from .steps import concede_fighter
from .table import Table
from .view import View
from .zones import ZoneMap

#: turns between the table copies the hot path takes; a copy made between them replays at most
#: this many turns once, then adopts the newest turn's start as the checkpoint
CHECKPOINT_EVERY = 8


class Engine(View):
    """One scene in play (conflict, contest or challenge). Answer ``pending`` until it is ``None``."""

    def __init__(self, scene: Scene, seed: int | None = None, *, rng: np.random.Generator | None = None,
                 dice: Dice | None = None, forced: Iterable[Sequence[int]] = (), autostep_single: bool = True):
        if scene.kind == SceneKind.CONTEST and scene.contest is None or \
                scene.kind == SceneKind.CHALLENGE and scene.challenge is None:
            raise ValueError(f"scene {scene.name!r} is a {scene.kind} without its {scene.kind} section")
        self._static(scene, autostep_single)
        self.seed = seed
        self.dice = dice if dice is not None else Dice(rng if rng is not None else np.random.default_rng(seed), forced)
        self.t = _new_table(scene)
        self.events: list[ev.Event] = []
        self.choices: list[int] = []
        self.reasons: list[str] = []
        self._inputs: list[tuple] = []
        self._drawn: list = []
        self.dice.journal = self._drawn
        self._resuming = False
        self._eager = False
        self._deferred = False  # a copy replaying GM powers back to back: the pending decision is asked once, after the last
        setup_aspects(self)
        countdowns.setup(self)
        if any(c.true_form for c in scene.characters):
            true_form.setup(self)
        self._take_checkpoint()
        self._flow = FLOWS[self.t.mode](self)
        self.pending: Decision | None = None
        self._advance(None)

    def _static(self, scene: Scene, autostep_single: bool) -> None:
        """What never changes in a scene, shared by every copy: every attribute this method sets
        (``_static_names`` records them, so a copy shares exactly these and no list repeats them)."""
        had = set(vars(self))
        self.scene = scene
        self.rules = scene.rules
        self.kind = scene.conflict  # the track the scene is fought on: physical or mental
        self.tracks_in_play = self.rules.tracks_in_play(self.kind)
        self.map = ZoneMap(scene)
        #: the maps by the blocks cleared so far (fate_env.rules.blocks), shared by every copy
        self.maps: dict[frozenset, ZoneMap] = {frozenset(): self.map}
        self.scene_has_blocks = any(b.block is not None for b in scene.borders)
        self.zone_challenges = any(z.own_challenge is not None for z in scene.zones)
        self.hides = any(sa.hidden for sa in scene.aspects)
        self.facts_from_characters()
        #: what the rules read off the rule set's dials (fate_env.rules.facts)
        self.facts = self.rules.facts
        #: the big bad with contest immunity (003:2527-2532), if any: the scene opens with its contest
        self.contest_immune = next((c.id for c in scene.characters if c.contest_immunity), None)
        self.autostep_single = autostep_single
        self.interned: dict[tuple, Any] = {}  # option objects reused across turns (they are values)
        self._static_names = tuple(name for name in vars(self) if name not in had)

    def facts_from_characters(self) -> None:
        """What the engine reads off the scene's characters (again when the GM adds one)."""
        scene = self.scene
        self.order = [c.id for c in scene.characters]
        self.bonus_stunts = {c.id: [st for st in c.stunts if st.kind == "bonus"] for c in scene.characters}
        #: whether any two characters differ in scale (003:2400-2439), so rolls need to compare them
        self.scaled = len({c.scale for c in scene.characters}) > 1
        #: whether any character has a solo bonus (fate_env.rules.solo)
        self.solo = any(c.solo_bonus for c in scene.characters)
        #: whether any character has challenge immunity (actions/attack.py, actions/advantage.py)
        self.immunity = any(c.challenge_immunity for c in scene.characters)
        #: whether any character is a hive's heart (protected_by)
        self.hive = any(c.protected_by for c in scene.characters)
        #: the fixed turn order by skills or initiative, once worked out (reach.skill_order): it
        #: depends only on the sheets, the rule set and the kind of conflict
        self.fixed_order: list[str] | None = None
        self.actions = actions_for(scene)  # the turn actions this scene can offer, in ACTIONS order

    # ------------------------------------------------------------------ answers
    def step(self, choice: Any, reason: str = "") -> None:
        """Answer the pending decision with an option or its index."""
        d = self.pending
        if d is None:
            raise ConflictOver("the scene has ended; there is no decision to take")
        if type(choice) is int or (isinstance(choice, (int, np.integer)) and not isinstance(choice, bool)):
            index = int(choice)
            if index == 0 and d.first is not None:
                option = d.first
            elif not 0 <= index < len(d.options):
                raise IllegalChoice(f"{d.actor}'s {d.kind} decision has options 0..{len(d.options) - 1}, got {index}")
            else:
                option = d.options[index]
        else:
            try:
                index = d.options.index(choice)
            except ValueError:
                shown = key(choice) if hasattr(choice, "__dataclass_fields__") else repr(choice)
                raise IllegalChoice(f"{shown} is not a legal {d.kind} option for {d.actor}; "
                                    f"legal: {', '.join(d.keys())}") from None
            option = d.options[index]
        self._inputs.append(("step", index, reason))
        self.choices.append(index)
        self.reasons.append(reason)
        self.emit(ev.DecisionMade(d.kind, d.actor, option, index, reason))
        self._advance(option)

    def log(self) -> list[dict[str, Any]]:
        return [e.to_json() for e in self.events]

    def emit(self, event: ev.Event) -> None:
        self.events.append(event)

    def _advance(self, choice: Any) -> None:
        try:
            self.pending = self._flow.send(choice)
        except StopIteration:
            self.pending = None

    # ----------------------------------------------------------- concessions, GM powers
    # Between decisions the GM may change the scene. Each power is an event in the log and is
    # replayed by the live session; none may be used once the scene has ended.
    def concede(self, cid: str, reason: str = "") -> None:
        """``cid`` gives in now. Any character still in a conflict may concede at any decision that
        comes before the dice (003:1693-1712: "interrupt any action ... as long as the dice haven't
        hit the table"; 000:408), not only on its turn or as a target. The pending decision is then
        asked again with the conceder gone, or dropped if it no longer stands (the conceder's own
        action, a fight that is over). Refused, changing nothing, once the dice are down."""
        self._gm_check()
        f = self.t.f.get(cid)
        if f is None:
            raise IllegalChoice(f"no character {cid!r}; characters: {', '.join(self.order)}")
        if not f.active:
            raise IllegalChoice(f"{cid} is no longer in the fight ({f.status.replace('_', ' ')})")
        if self.facts.concession_offered:
            raise IllegalChoice("under this rule set a concession is offered while taking a consequence, to the "
                                "one who hit (001:150-152); it cannot be made between decisions")
        if not self.t.can_concede:
            raise IllegalChoice("only a conflict can be conceded; a contest or challenge is lost by the roll")
        d = self.pending
        if d.kind not in PRE_DICE:
            raise IllegalChoice(f"too late to concede: the dice are on the table ({d.actor}'s {d.kind} decision); "
                                "concede before the next roll")
        if d.actor == cid and Concede() in d.options:
            self.step(Concede(), reason)  # the option itself: the turn's or the target's
            return
        self._outside(("concede", cid, reason))
        concede_fighter(self, f)
        self._advance(RECONSIDER)

    def _outside(self, entry: tuple) -> None:
        """Note an input that is not an answer to a decision (for copies, and for ``reproducible``)."""
        self._inputs.append(entry)
        self.t.outside += 1

    @property
    def reproducible(self) -> bool:
        """Whether the scene so far follows from its seed and its answers alone (``replay``): no GM
        power, no concession outside a decision, no forced or physical dice. A look-ahead that
        replays the scene elsewhere (the fast core) may do so only then."""
        return self.seed is not None and self.t.outside == 0 and self.dice.outside == 0

    def _gm_check(self) -> None:
        if self.pending is None:
            raise ConflictOver("the scene has ended")

    def gm_add_aspect(self, name: str, zone: str | None = None) -> int:
        """A new situation aspect on the scene or one zone (003:1374-1380)."""
        self._gm_check()
        if not name.strip():
            raise ValueError("an aspect needs a name")
        if zone is not None and zone not in self.map.neighbours:
            raise ValueError(f"no zone {zone!r}; zones: {', '.join(self.map.ids)}")
        self._outside(("gm_add_aspect", name, zone))
        a = new_aspect(self, name.strip(), SITUATION, zone=zone)
        self.emit(ev.GmAction("add_aspect", None, a.name, 0, zone))
        self._refresh_pending()
        return a.id

    def gm_remove_aspect(self, aid: int) -> None:
        self._gm_check()
        a = self.t.aspects.get(aid)
        if a is None or a.kind in (CHARACTER, CONSEQUENCE):
            raise ValueError(f"aspect {aid} is not a situation aspect, advantage or boost in play")
        d = self.pending
        if d.kind not in PRE_DICE and d.build is None and any(getattr(o, "aspect", None) == aid for o in d.options):
            raise ValueError(f"{a.name} is one of {d.actor}'s options in the {d.kind} decision now; "
                             "remove it once that decision is taken")
        self._outside(("gm_remove_aspect", aid))
        del self.t.aspects[aid]
        self.emit(ev.GmAction("remove_aspect", None, a.name, 0, None))
        self._refresh_pending()

    def gm_compel(self, cid: str, aid: int, accepted: bool = True, by: str | None = None) -> None:
        """Offer a fate point for a complication (003:1123-1129): accepted, the character takes it now;
        refused, the character pays one (and cannot refuse without one). ``by``: the PC whose player
        proposes the compel; that player offers the fate point from their own supply (003:1124-1126),
        so pays it when the compel is accepted (None: the GM proposes it)."""
        self._gm_check()
        self.check_compel(cid, aid, accepted, by)
        t = self.t
        self._outside(("gm_compel", cid, aid, accepted, by))
        t.adjust_fp(cid, 1 if accepted else -1)
        self.emit(ev.GmAction("compel", cid, t.aspects[aid].name, 1 if accepted else -1, None))
        if by is not None and accepted:  # the proposer's fate point is the one the compelled character gains
            t.adjust_fp(by, -1)
            self.emit(ev.GmAction("fate_points", by, None, -1, None))
        self._refresh_pending()

    def check_compel(self, cid: str, aid: int, accepted: bool = True, by: str | None = None) -> None:
        """Why :meth:`gm_compel` would refuse this compel (a ValueError), checked without applying it: a
        table offering a compel to a player checks it before the player answers."""
        t = self.t
        if cid not in t.f or t.aspects.get(aid) is None:
            raise ValueError(f"no character {cid!r} or aspect {aid}")
        if t.aspects[aid].hidden:  # a compel tells the player which aspect complicates things (003:1123-1126)
            raise ValueError(f"aspect {aid} is hidden: unknown until discovered (003:854-867), so not compelled yet")
        if by is not None:
            if by not in t.f or t.f[by].sheet.is_npc or by == cid:
                raise ValueError(f"{by!r} cannot propose a compel on {cid}: the GM or another PC's player "
                                 "proposes one (003:1124-1126)")
            if accepted and t.f[by].fate_points < 1:
                raise ValueError(f"{by} has no fate point to offer for the compel")
        if not accepted and t.fate_points_of(cid) < 1:
            raise ValueError(f"{cid} has no fate point to refuse the compel with")

    def gm_fate_points(self, cid: str, delta: int) -> None:
        """Award (or take back) fate points: a PC's own, or the GM pool for an NPC."""
        self._gm_check()
        if cid not in self.t.f:
            raise ValueError(f"no character {cid!r}")
        if self.t.fate_points_of(cid) + delta < 0:
            raise ValueError(f"{cid} has only {self.t.fate_points_of(cid)} fate point(s)")
        self._outside(("gm_fate_points", cid, delta))
        self.t.adjust_fp(cid, delta)
        self.emit(ev.GmAction("fate_points", cid, None, delta, None))
        self._refresh_pending()

    def gm_end(self) -> None:
        """The GM ends the scene now: no winner, payouts as at any end."""
        self._gm_check()
        self._outside(("gm_end",))
        self.emit(ev.GmAction("end", None, None, 0, None))
        finish(self, unresolved=True)
        self.pending = None

    def gm_add_character(self, sheet: CharacterSheet) -> None:
        """Reinforcements: ``sheet`` joins the conflict now (fate_env.rules.gm.add_character)."""
        self._gm_check()
        gm.check_new_character(self, sheet)
        self._outside(("gm_add_character", sheet))
        gm.add_character(self, sheet)
        self._refresh_pending()

    def gm_remove_character(self, cid: str) -> None:
        """``cid`` leaves the scene by the GM's call: not taken out, not conceded, no payout."""
        self._gm_power("remove_character", cid)

    def gm_move(self, cid: str, zone: str) -> None:
        """Put ``cid`` in ``zone``: the fiction moved it (no roll, no move spent)."""
        self._gm_power("move_character", cid, zone)

    def gm_set_rating(self, cid: str, skill: str, rating: int) -> None:
        """Change ``cid``'s rating in ``skill`` for the rest of the scene."""
        self._gm_power("set_rating", cid, skill, rating)

    def gm_boost(self, cid: str, name: str) -> None:
        """Give ``cid`` a boost named ``name``."""
        self._gm_power("give_boost", cid, name)

    def gm_name_consequence(self, aid: int, name: str) -> None:
        """Name the consequence aspect ``aid`` (its taker's or the GM's words)."""
        self._gm_power("name_consequence", aid, name)

    def gm_name_aspect(self, aid: int, name: str) -> None:
        """Name ``aid``, a consequence or an aspect created in the fight (its creator's or the GM's words)."""
        self._gm_power("name_aspect", aid, name)

    def _gm_power(self, power: str, *args: Any) -> None:
        """Apply one of fate_env.rules.gm's powers (each checks before it changes anything, so a
        refusal changes nothing), record it for copies, then ask the pending decision again."""
        self._gm_check()
        d = self.pending
        if d.kind not in PRE_DICE and power in ("remove_character", "move_character", "set_rating"):
            raise ValueError(f"not while the dice are on the table ({d.actor}'s {d.kind} decision); "
                             "do it before the next roll")
        getattr(gm, power)(self, *args)  # each checks everything before it changes anything
        self._outside((f"gm_{_METHOD[power]}", *args))
        self._refresh_pending()

    def _refresh_pending(self) -> None:
        """A GM power changed what the pending decision was built from (the aspects in play, who
        can pay a fate point): a decision before the dice is asked again, and an invoke decision
        lists its options anew, so no option names an aspect that is gone. Either way ``pending`` is
        a new object: whoever holds the old one (a live table's proposal) knows to look again."""
        if self._deferred:
            return
        d = self.pending
        if d.kind in PRE_DICE:
            self._advance(RECONSIDER)
        elif d.build is not None:
            self.pending = replace(d, _options=None)

    # ------------------------------------------------------------------ copies
    def checkpoint(self) -> None:
        """Called by a flow where it can resume from the table alone (``table.cursor`` says where):
        every ``CHECKPOINT_EVERY``-th call copies the table (every call while a copy is rebuilt)."""
        if self._resuming:  # a copy resuming here: the checkpoint it was built from is this one
            self._resuming = False
            return
        self._since_ckpt += 1
        if self._eager or self._since_ckpt >= CHECKPOINT_EVERY:
            self._take_checkpoint()

    def _take_checkpoint(self) -> None:
        self._ckpt = (self.t.copy(), len(self.events), len(self.choices))
        self._inputs.clear()
        self._drawn.clear()
        self._since_ckpt = 0

    def clone(self) -> "Engine":
        """An independent copy that plays on exactly as this engine would (same choices, same dice).

        Restores the last checkpoint and replays the inputs since (a few turns at most); the copy's
        checkpoint is then this turn's start, which this engine adopts, so the next copy made
        before the next turn replays only this turn's inputs."""
        c = Engine.__new__(Engine)
        for name in self._static_names:
            setattr(c, name, getattr(self, name))
        c._static_names = self._static_names
        c.seed = self.seed
        c._rebuild(self._ckpt, self.events, self.choices, self.reasons, self.dice.copy(self._drawn), self._inputs)
        self._ckpt, self._since_ckpt = c._ckpt, 0
        self._inputs[:] = c._inputs
        self._drawn[:] = c._drawn
        return c

    def fork(self, rng: np.random.Generator) -> "Engine":
        """A what-if copy: the same table and pending decision, its dice from here on drawn from
        ``rng`` instead of this engine's (no forced rolls, no player's physical dice). What a
        look-ahead plays on, so that it never sees the dice this scene will really roll."""
        c = self.clone()
        c.dice = Dice(rng)
        c.dice.journal = c._drawn
        return c

    def map_for(self, cleared: frozenset) -> ZoneMap:
        """The zone map with the blocks on the ``cleared`` borders gone (built once per set)."""
        m = self.maps.get(cleared)
        if m is None:
            m = self.maps[cleared] = ZoneMap(self.scene, cleared)
        return m

    def _rebuild(self, ckpt: tuple, events: list, choices: list, reasons: list, dice: Dice, inputs: list) -> None:
        table, n_events, n_choices = ckpt
        self._ckpt = ckpt  # shared: a checkpoint is never changed, only replaced
        self.t = table.copy()
        if self.t.cleared:  # the map as it stood at the checkpoint (blocks cleared since the start)
            self.map = self.map_for(self.t.cleared)
        elif self.scene_has_blocks or self.zone_challenges:
            self.map = self.map_for(frozenset())
        self.events = events[:n_events]
        self.choices = choices[:n_choices]
        self.reasons = reasons[:n_choices]
        self._inputs = []
        self._drawn = []
        self._since_ckpt = 0
        self.dice = dice
        dice.journal = self._drawn
        self._resuming = self.t.cursor is not None
        if any(name.startswith("gm_") for name, *_ in inputs):
            self.fixed_order = None  # the order shared with the original may count a GM's change not yet replayed
        self._eager = True  # every turn start on the way is a checkpoint: the copy ends on the newest
        self._flow = FLOWS[self.t.mode](self)
        self.pending = None
        self._advance(None)
        _replay_inputs(self, list(inputs))
        self._eager = False

    def __deepcopy__(self, memo: dict) -> "Engine":
        return self.clone()

    def __copy__(self) -> "Engine":
        return self.clone()

    def __getstate__(self) -> dict[str, Any]:
        return {"scene": self.scene, "autostep_single": self.autostep_single, "seed": self.seed, "ckpt": self._ckpt,
                "events": self.events, "choices": self.choices, "reasons": self.reasons,
                "dice": self.dice.copy(self._drawn), "inputs": list(self._inputs)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._static(state["scene"], state["autostep_single"])
        self.seed = state["seed"]
        self._rebuild(state["ckpt"], state["events"], state["choices"], state["reasons"], state["dice"],
                      state["inputs"])


def _replay_inputs(e: Engine, inputs: list[tuple]) -> None:
    """A copy replays the inputs since its checkpoint. GM powers back to back (a GM's reinforcements,
    one by one): the pending decision was asked anew after each, and nothing between them read it but
    the next power's check of its kind, which asking again does not change; a copy asks it once, after
    the last of the run (each asking costs every option of a scene that grows with each power)."""
    for i, (name, *args) in enumerate(inputs):
        e._deferred = name in _DEFERRABLE and i + 1 < len(inputs) and inputs[i + 1][0] in _DEFERRABLE
        getattr(e, name)(*args)
    e._deferred = False


#: the GM's powers whose only effect on the pending decision is asking it again (``_refresh_pending``)
#: (none of them takes anyone out of the scene, so the decision asked again is the same actor's, of the same kind)
_DEFERRABLE = frozenset({"gm_add_character", "gm_add_aspect", "gm_fate_points", "gm_boost", "gm_name_aspect",
                         "gm_name_consequence", "gm_set_rating", "gm_move"})


def _new_table(scene: Scene) -> Table:
    rules = scene.rules
    f = {c.id: build_fighter(c, rules) for c in scene.characters}
    extra_pool = sum(c.fate_points for c in scene.characters if c.is_npc)
    pool = (scene.gm_fate_points if scene.gm_fate_points is not None else len(scene.pcs)) + extra_pool
    return Table(
        f, [c.id for c in scene.characters], gm_pool=pool, gm_pool_start=pool,
        fp_start={cid: fi.fate_points for cid, fi in f.items()}, fp_spent={cid: 0 for cid in f},
        tasks_left=list(range(len(scene.challenge.tasks))) if scene.challenge else [],
        zone_tasks={z.id: tuple(range(len(z.own_challenge.tasks))) for z in scene.zones if z.own_challenge is not None},
        can_concede=rules.facts.concede_anytime,  # offered: only while taking a consequence (001:150)
        mode=SceneKind.CHALLENGE if scene.kind == SceneKind.CHALLENGE else
        SceneKind.CONTEST if scene.kind == SceneKind.CONTEST else SceneKind.CONFLICT)


def start(scene: Scene, seed: int | None = None, **kwargs: Any) -> Engine:
    """The engine for ``scene``, started and waiting on its first decision."""
    return Engine(scene, seed, **kwargs)


def replay(scene: Scene, seed: int | None, choices: Iterable[int], forced: Iterable[Sequence[int]] = (),
           reasons: Iterable[str] | None = None) -> Engine:
    """Rebuild a scene's play from its seed and recorded choices (and reasons, for an identical log)."""
    play = start(scene, seed, forced=forced)
    choices = list(choices)
    why = list(reasons) if reasons is not None else [""] * len(choices)
    for index, reason in zip(choices, why, strict=True):
        play.step(index, reason)
    return play


#: fate_env.rules.gm's power -> the engine method that records it (what a copy replays)
_METHOD = {"remove_character": "remove_character", "move_character": "move", "set_rating": "set_rating",
           "give_boost": "boost", "name_consequence": "name_consequence", "name_aspect": "name_aspect"}

#: the engine under the names it has always had (one class plays every kind of scene)
Conflict = Contest = Challenge = Engine
ENGINES: dict[str, type[Engine]] = {"conflict": Engine, "contest": Engine, "challenge": Engine}

__all__ = ["Engine", "Conflict", "Flow", "start", "replay", "ENGINES"]
