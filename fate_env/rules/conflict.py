"""The conflict engine: a state machine over decision points.

The engine runs the flow of a Fate conflict (003:1536-1733, 000:152-537) and
stops wherever a person at the table would decide something. ``pending``
names that decision: whose it is, its kind, and its legal options. Any
controller answers with :meth:`Conflict.step`; an illegal answer raises
:class:`IllegalChoice` and changes nothing. Everything that happens is
recorded as typed events in ``events``; the same scene, seed and choices
give the same events.

Decision kinds (see ``ARCHITECTURE.md``):

* ``turn``     the acting character's action (or a free move first);
* ``move``     after acting, the free one-zone move if it was not used;
* ``respond``  a target, before any die is rolled: defend or concede;
* ``invoke``   after the dice, roller and opposer in turns until both stop;
* ``style``    an attack that succeeds with style: full hit, or one less and a boost;
* ``cost``     outcomes the rules leave to the roller (a failed advantage, a tied overcome);
* ``absorb``   the hit's target: a legal plan of boxes and consequences, or taken out;
* ``next``     popcorn order: the actor names who acts next.

The flow is a generator: ``yield`` hands a decision out, ``send`` brings
the choice back. A decision with a single legal option is taken without
asking (it is still a step of the rules, not a choice).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import events as ev
from .dice import Dice
from .harm import TakenOut, absorb_plans, mob_absorb
from .options import (
    Attack, Choose, Concede, CreateAdvantage, Defend, DoneInvoking, Exploit, FullDefense, Invoke,
    Move, Next, OvercomeMove, Pass, RemoveAspect, Stay, Support, TakeTask, TurnToContest, key,
)
from .scene import Scene
from .skills import (
    ATTACK_SKILLS, BLOCK_SKILLS, DEFEND_SKILLS, EXPLOIT_DIFFICULTY, EXPLOIT_SKILLS, MENTAL, MOVE_SKILL,
    ORDER_SKILLS, PHYSICAL, REMOVE_DIFFICULTY, AdvantageTemplate,
)
from .state import (
    ACTIVE, ADVANTAGE, BOOST, CHARACTER, CONCEDED, CONSEQUENCE, SITUATION, TAKEN_OUT, Aspect, Fighter,
    build_fighter,
)
from .zones import ZoneMap

FAIL, TIE, SUCCESS, STYLE = "fail", "tie", "success", "success_with_style"

#: decisions taken before any die is rolled for the action at hand: a character may concede then
PRE_DICE = frozenset({"turn", "move", "respond", "next"})
#: sent into the flow when someone conceded while a decision was pending: ask it again (or not at all)
RECONSIDER = object()

CONSEQUENCE_NAMES = {
    PHYSICAL: {"mild": "Bruised and Battered", "moderate": "Deep Cut", "severe": "Broken Bones", "extreme": "Maimed"},
    MENTAL: {"mild": "Flustered", "moderate": "Shaken to the Core", "severe": "Crippling Doubt", "extreme": "Broken Spirit"},
}
#: the names of the boosts and other aspects the engine itself puts into play (a bonus stunt's
#: ``when: aspect: NAME`` may name one of these, see fate_env.scenes)
ENGINE_ASPECTS = ("Prepared", "Upper Hand", "Opening", "Momentum", "Glancing Blow", "Second Wind", "Small Win",
                  "Clear Ground", "Flying Start", "Hard-Won Ground")
REMOVE_SKILLS = {PHYSICAL: ("Athletics", "Physique", "Crafts"), MENTAL: ("Will", "Rapport", "Empathy")}
EXPLOIT_DEFEND = {PHYSICAL: ("Athletics",), MENTAL: ("Will",)}


def band(margin: int) -> str:
    """The four outcomes by shifts (003:630-642)."""
    if margin < 0:
        return FAIL
    if margin == 0:
        return TIE
    return SUCCESS if margin < 3 else STYLE


class IllegalChoice(ValueError):
    """A choice that is not one of the pending decision's options."""


class ConflictOver(RuntimeError):
    """A step was asked of a conflict that has ended."""


@dataclass(slots=True)
class Decision:
    """A pending decision. ``options`` may be built on first use (``build``):
    invoke decisions are many and usually answered "done", which is always
    option 0 (``first``), so listing every invoke is left until someone looks."""

    kind: str
    actor: str
    _options: list[Any] | None
    context: dict[str, Any] = field(default_factory=dict)
    build: Callable[[], list[Any]] | None = None
    first: Any = None

    @property
    def options(self) -> list[Any]:
        if self._options is None:
            self._options = self.build()
        return self._options

    def keys(self) -> list[str]:
        return [key(o) for o in self.options]


@dataclass(slots=True)
class Roll:
    """An action roll and its opposition, as invokes change them."""

    action: str
    actor: str
    skill: str
    base: int
    faces: tuple[int, ...]
    opposer: str | None = None       # who rolls against it, or speaks for a passive difficulty
    active: bool = False             # True: the opposer rolled; False: passive difficulty
    opp_skill: str | None = None
    opp_base: int = 0
    opp_faces: tuple[int, ...] = (0, 0, 0, 0)
    bonus: int = 0
    opp_bonus: int = 0
    target: str | None = None
    zones: tuple[str, ...] = ()
    invoked: dict[str, set[int]] = field(default_factory=dict)

    @property
    def effort(self) -> int:
        return self.base + sum(self.faces) + self.bonus

    @property
    def opposition(self) -> int:
        return self.opp_base + sum(self.opp_faces) + self.opp_bonus

    @property
    def margin(self) -> int:
        return self.effort - self.opposition


@dataclass
class Outcome:
    """What a conflict came to, for the GM's book and for benchmarks."""

    winner: str | None
    exchanges: int
    unresolved: bool
    taken_out: dict[str, str | None]
    conceded: list[str]
    consequences: dict[str, list[dict[str, str]]]
    fate_points: dict[str, dict[str, int]]
    gm_pool: dict[str, int]
    payouts: dict[str, int]
    kind: str = "conflict"
    victories: dict[str, int] | None = None     # contests
    tasks: list[dict[str, Any]] | None = None   # challenges

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


Flow = Generator[Decision, Any, Any]


class Conflict:
    """One conflict in play. Create it, then answer ``pending`` until it is ``None``."""

    def __init__(self, scene: Scene, seed: int | None = None, *, rng: np.random.Generator | None = None,
                 dice: Dice | None = None, forced: Iterable[Sequence[int]] = (), autostep_single: bool = True):
        self.scene = scene
        self.rules = scene.rules
        self.kind = scene.conflict
        # the tracks attacks may harm: the conflict's own, or both under the mixed_conflicts dial
        self.tracks_in_play = self.rules.tracks_in_play(self.kind)
        self.seed = seed
        self.dice = dice if dice is not None else Dice(rng if rng is not None else np.random.default_rng(seed), forced)
        self.map = ZoneMap(scene)
        self.order = [c.id for c in scene.characters]
        self.f: dict[str, Fighter] = {c.id: build_fighter(c, self.rules) for c in scene.characters}
        self.aspects: dict[int, Aspect] = {}
        self._aspect_seq = 0
        self._turn_seq = 0
        self._boost_turn: dict[int, int] = {}
        extra_pool = sum(c.fate_points for c in scene.characters if c.is_npc)
        self.gm_pool = (scene.gm_fate_points if scene.gm_fate_points is not None else len(scene.pcs)) + extra_pool
        self.gm_pool_start = self.gm_pool
        self.fp_start = {cid: fi.fate_points for cid, fi in self.f.items()}
        self.fp_spent = {cid: 0 for cid in self.f}
        self.gm_spent = 0
        self.exchange = 0
        self._active: list[str] | None = None
        self._foes: dict[str, list[str]] = {}
        self._allies: dict[str, list[str]] = {}
        self._bonus_stunts = {cid: [st for st in fi.sheet.stunts if st.kind == "bonus"] for cid, fi in self.f.items()}
        self.acted: set[str] = set()
        self.events: list[ev.Event] = []
        self.choices: list[int] = []
        self.reasons: list[str] = []
        self.outcome: Outcome | None = None
        self.autostep_single = autostep_single
        self.can_concede = True  # conceding is a conflict's option (003:1693-1712), not a contest's
        self.advantage_failure_is_asked = True  # contests replace it with forfeit-or-pay
        self.task_results: list[dict[str, Any]] = []
        self._tasks_left = list(range(len(scene.challenge.tasks))) if scene.challenge else []
        self._set_back: set[str] = set()  # hit, or an advantage stuck on them, this exchange
        self._to_contest: str | None = None
        self.pending: Decision | None = None
        self.roll: Roll | None = None  # the roll being invoked on, during invoke rounds
        self._setup_aspects()
        self._flow = self._run()
        self._advance(None)

    # ------------------------------------------------------------------ API
    @property
    def over(self) -> bool:
        return self.pending is None

    def step(self, choice: Any, reason: str = "") -> None:
        """Answer the pending decision with an option or its index."""
        d = self.pending
        if d is None:
            raise ConflictOver("the conflict has ended; there is no decision to take")
        if isinstance(choice, (int, np.integer)) and not isinstance(choice, bool):
            index = int(choice)
            if index == 0 and d.first is not None:
                option = d.first
                self.choices.append(0)
                self.reasons.append(reason)
                self._emit(ev.DecisionMade(d.kind, d.actor, option, 0, reason))
                self._advance(option)
                return
            if not 0 <= index < len(d.options):
                raise IllegalChoice(f"{d.actor}'s {d.kind} decision has options 0..{len(d.options) - 1}, got {index}")
        else:
            try:
                index = d.options.index(choice)
            except ValueError:
                raise IllegalChoice(
                    f"{key(choice) if hasattr(choice, '__dataclass_fields__') else repr(choice)} is not a legal {d.kind} option "
                    f"for {d.actor}; legal: {', '.join(d.keys())}") from None
        option = d.options[index]
        self.choices.append(index)
        self.reasons.append(reason)
        self._emit(ev.DecisionMade(d.kind, d.actor, option, index, reason))
        self._advance(option)

    def log(self) -> list[dict[str, Any]]:
        return [e.to_json() for e in self.events]

    def fighter(self, cid: str) -> Fighter:
        return self.f[cid]

    def side_of(self, cid: str) -> str:
        return self.f[cid].sheet.side

    def active_ids(self) -> list[str]:
        """Characters still in the fight, in scene order (cached: it changes only when someone leaves)."""
        if self._active is None:
            self._active = [c for c in self.order if self.f[c].status == ACTIVE]
            self._foes.clear()
            self._allies.clear()
        return self._active

    def foes_of(self, cid: str) -> list[str]:
        active = self.active_ids()
        got = self._foes.get(cid)
        if got is None:
            side = self.f[cid].sheet.side
            got = self._foes[cid] = [c for c in active if self.f[c].sheet.side != side]
        return got

    def allies_of(self, cid: str) -> list[str]:
        active = self.active_ids()
        got = self._allies.get(cid)
        if got is None:
            side = self.f[cid].sheet.side
            got = self._allies[cid] = [c for c in active if c != cid and self.f[c].sheet.side == side]
        return got

    def _left_fight(self) -> None:
        self._active = None

    def fate_points_of(self, cid: str) -> int:
        """Fate points ``cid`` may spend now: its own, or the GM pool for NPCs (003:2009-2028)."""
        return self.gm_pool if self.f[cid].sheet.is_npc else self.f[cid].fate_points

    def aspect(self, aid: int) -> Aspect:
        return self.aspects[aid]

    # ------------------------------------------------- read-only view for controllers
    def can_attack(self, actor: str, target: str, skill: str) -> bool:
        return self._can_reach(self.f[actor], target, skill)

    def attack_rating(self, actor: str, skill: str, target: str | None = None) -> int:
        """Skill + stunts + teamwork an attack with ``skill`` would roll with."""
        return self._base(actor, skill, "attack", target, [], peek=True)[1]

    def defense_rating(self, target: str, attacker: str, skill: str) -> int:
        """What ``target`` would defend an attack with ``skill`` at (best legal skill, stunts, full defense)."""
        reach = self._reach_of(self.f[attacker], skill)
        d = self._best_skill(target, DEFEND_SKILLS[reach], "defend", attacker=attacker)
        return self._base(target, d, "defend", attacker, [], peek=True)[1]

    def attack_track(self, skill: str) -> str:
        """The stress track an attack with ``skill`` harms (a stunt's attack skill: the scene's)."""
        return ATTACK_SKILLS[skill][0] if skill in ATTACK_SKILLS else self.kind

    def capacity(self, cid: str, track: str | None = None) -> int:
        """The biggest hit ``cid`` could absorb now without being taken out."""
        f = self.f[cid]
        track = track or self.kind
        t = f.tracks[track]
        free = [t.values[i] for i in t.free()]
        boxes = (max(free) if free else 0) if self.rules.one_box_per_hit else len(free)
        if f.sheet.kind == "mob":
            return boxes + (f.members - 1) * (len(t.values) + 1)
        return boxes + sum(s.value for s in f.slots if s.free and (s.track in (None, track)))

    def invoke_budget(self, who: str) -> tuple[int, int, int]:
        """For the roll being invoked on: (free invokes ``who`` and its allies hold on aspects
        in play here, fate points ``who`` can spend, distinct aspects it could pay to invoke).
        One pass over the aspects, without listing the options."""
        roll = self.roll
        if roll is None:
            return 0, 0, 0
        F = self.f
        side = F[who].sheet.side
        allies = set([who] + self.allies_of(who))
        invoked = roll.invoked.get(side, ())
        fp = self.fate_points_of(who)
        free = payable = 0
        for a in self.aspects.values():
            owner = a.owner
            if owner is not None and F[owner].status != ACTIVE:
                continue
            if a.zone is not None and a.zone not in roll.zones:
                continue
            for h, n in a.free.items():
                if h in allies:
                    free += n
            if fp and a.kind != BOOST and a.id not in invoked:
                if not (a.kind in (CHARACTER, CONSEQUENCE) and owner is not None) or owner == who \
                        or F[owner].sheet.side != side:
                    payable += 1
        return free, fp, payable

    def distance(self, a: str, b: str) -> int | None:
        return self.map.hops[self.f[a].zone].get(self.f[b].zone)

    # ----------------------------------------------------------- GM powers
    # Between decisions the GM may change the scene. Each power is an event in the log and is
    # replayed by the live session; none may be used once the scene has ended.
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
        a = self._new_aspect(name.strip(), SITUATION, zone=zone)
        self._emit(ev.GmAction("add_aspect", None, a.name, 0, zone))
        self._refresh_pending()
        return a.id

    def gm_remove_aspect(self, aid: int) -> None:
        self._gm_check()
        a = self.aspects.get(aid)
        if a is None or a.kind in (CHARACTER, CONSEQUENCE):
            raise ValueError(f"aspect {aid} is not a situation aspect, advantage or boost in play")
        d = self.pending
        if d.kind not in PRE_DICE and d.build is None and any(getattr(o, "aspect", None) == aid for o in d.options):
            raise ValueError(f"{a.name} is one of {d.actor}'s options in the {d.kind} decision now; "
                             "remove it once that decision is taken")
        del self.aspects[aid]
        self._emit(ev.GmAction("remove_aspect", None, a.name, 0, None))
        self._refresh_pending()

    def gm_compel(self, cid: str, aid: int, accepted: bool = True) -> None:
        """Offer a fate point for a complication (003:1123-1129): accepted, the character takes it now;
        refused, the character pays one (and cannot refuse without one)."""
        self._gm_check()
        f = self.f.get(cid)
        if f is None or self.aspects.get(aid) is None:
            raise ValueError(f"no character {cid!r} or aspect {aid}")
        if not accepted and self.fate_points_of(cid) < 1:
            raise ValueError(f"{cid} has no fate point to refuse the compel with")
        self._adjust_fp(cid, 1 if accepted else -1)
        self._emit(ev.GmAction("compel", cid, self.aspects[aid].name, 1 if accepted else -1, None))
        self._refresh_pending()

    def gm_fate_points(self, cid: str, delta: int) -> None:
        """Award (or take back) fate points: a PC's own, or the GM pool for an NPC."""
        self._gm_check()
        if cid not in self.f:
            raise ValueError(f"no character {cid!r}")
        if self.fate_points_of(cid) + delta < 0:
            raise ValueError(f"{cid} has only {self.fate_points_of(cid)} fate point(s)")
        self._adjust_fp(cid, delta)
        self._emit(ev.GmAction("fate_points", cid, None, delta, None))
        self._refresh_pending()

    def _refresh_pending(self) -> None:
        """A GM power changed what the pending decision was built from (the aspects in play, who
        can pay a fate point): a decision before the dice is asked again, and an invoke decision
        lists its options anew, so no option names an aspect that is gone."""
        d = self.pending
        if d.kind in PRE_DICE:
            self._advance(RECONSIDER)
        elif d.build is not None:
            d._options = None

    def _adjust_fp(self, cid: str, delta: int) -> None:
        if self.f[cid].sheet.is_npc:
            self.gm_pool += delta
        else:
            self.f[cid].fate_points += delta

    def concede(self, cid: str, reason: str = "") -> None:
        """``cid`` gives in now. Any character still in a conflict may concede at any decision that
        comes before the dice (003:1693-1712: "interrupt any action ... as long as the dice haven't
        hit the table"; 000:408), not only on its turn or as a target. The pending decision is then
        asked again with the conceder gone, or dropped if it no longer stands (the conceder's own
        action, a fight that is over). Refused, changing nothing, once the dice are down."""
        self._gm_check()
        f = self.f.get(cid)
        if f is None:
            raise IllegalChoice(f"no character {cid!r}; characters: {', '.join(self.order)}")
        if not f.active:
            raise IllegalChoice(f"{cid} is no longer in the fight ({f.status.replace('_', ' ')})")
        if not self.can_concede:
            raise IllegalChoice("only a conflict can be conceded; a contest or challenge is lost by the roll")
        d = self.pending
        if d.kind not in PRE_DICE:
            raise IllegalChoice(f"too late to concede: the dice are on the table ({d.actor}'s {d.kind} decision); "
                                "concede before the next roll")
        if d.actor == cid and Concede() in d.options:
            self.step(Concede(), reason)  # the option itself: the turn's or the target's
            return
        self._concede(f)
        self._advance(RECONSIDER)

    def gm_end(self) -> None:
        """The GM ends the scene now: no winner, payouts as at any end."""
        self._gm_check()
        self._emit(ev.GmAction("end", None, None, 0, None))
        self._finish(unresolved=True)
        self.pending = None

    # ------------------------------------------------------------ plumbing
    def _advance(self, choice: Any) -> None:
        try:
            self.pending = self._flow.send(choice)
        except StopIteration:
            self.pending = None

    def _emit(self, event: ev.Event) -> None:
        self.events.append(event)

    def _ask(self, kind: str, actor: str, options: list[Any], **context: Any) -> Flow:
        if len(options) == 1 and self.autostep_single:
            return options[0]
        choice = yield Decision(kind, actor, options, context)
        return choice

    # ---------------------------------------------------------------- setup
    def _new_aspect(self, name: str, kind: str, *, owner: str | None = None, zone: str | None = None,
                    creator: str | None = None, role: str | None = None, skill: str | None = None) -> Aspect:
        self._aspect_seq += 1
        a = Aspect(self._aspect_seq, name, kind, owner, zone, creator, {}, role, skill)
        self.aspects[a.id] = a
        return a

    def _setup_aspects(self) -> None:
        for c in self.scene.characters:
            for role, name in (("high_concept", c.high_concept), ("trouble", c.trouble)):
                if name:
                    self._new_aspect(name, CHARACTER, owner=c.id, role=role)
            for name in c.aspects:
                self._new_aspect(name, CHARACTER, owner=c.id, role="other")
        for sa in self.scene.aspects:
            a = self._new_aspect(sa.name, SITUATION, zone=sa.zone)
            a.free.update(sa.free_invokes)

    # ----------------------------------------------------------------- flow
    def _run(self) -> Flow:
        sides: dict[str, list[str]] = {}
        for c in self.scene.characters:
            sides.setdefault(c.side, []).append(c.id)
        self._emit(ev.ConflictStarted(self.scene.name, self.rules.name, self.kind, sides, self.gm_pool))
        opener = self.scene.first or self._skill_order()[0]
        while True:
            self.exchange += 1
            if self.exchange > self.rules.max_exchanges:
                self.exchange -= 1
                self._finish(unresolved=True)
                return
            self._emit(ev.ExchangeStarted(self.exchange))
            self.acted = set()
            self._set_back = set()
            if self.rules.turn_order == "popcorn":
                actor = opener if self.f[opener].active else self.active_ids()[0]
                while True:
                    yield from self._turn(actor)
                    self.acted.add(actor)
                    if self._to_contest is not None:
                        yield from self._become_contest()
                        return
                    pick = RECONSIDER
                    while pick is RECONSIDER:  # asked again if someone concedes meanwhile
                        if self._is_over():
                            self._finish()
                            return
                        remaining = [c for c in self.active_ids() if c not in self.acted]
                        chooser = actor if self.f[actor].active else self._stand_in(actor)
                        pool = remaining or self.active_ids()
                        pick = yield from self._ask("next", chooser, [Next(c) for c in pool],
                                                    opens_exchange=None if remaining else self.exchange + 1)
                    self._emit(ev.NextActor(chooser, pick.character, not remaining))
                    if not remaining:
                        opener = pick.character
                        break
                    actor = pick.character
            else:
                for actor in self._skill_order():
                    if not self.f[actor].active:
                        continue
                    yield from self._turn(actor)
                    self.acted.add(actor)
                    if self._to_contest is not None:
                        yield from self._become_contest()
                        return
                    if self._is_over():
                        self._finish()
                        return

    def _become_contest(self) -> Flow:
        """The sides stop trying to harm each other: the scene's contest goes on from here,
        and the conflict's payouts wait for its end (000:539-547). The state (stress,
        consequences, aspects, owed fate points) carries over; the engine becomes a Contest."""
        from .contest import Contest
        self._emit(ev.BecameContest(self._to_contest, self.exchange))
        self.exchange = 0
        self.__class__ = Contest  # same state, the contest's flow from here on
        yield from self._contest()

    def _stand_in(self, cid: str) -> str:
        """Who names the next actor when the last one has left the fight: an ally, else anyone left."""
        allies = self.allies_of(cid)
        return allies[0] if allies else self.active_ids()[0]

    def _skill_order(self) -> list[str]:
        """Core's turn order by skills (000:248-252); PCs before NPCs on a full tie, then scene order."""
        skills = ORDER_SKILLS[self.kind]
        def rank(cid: str) -> tuple:
            s = self.f[cid].sheet
            return tuple(-s.skill(k) for k in skills) + (0 if s.kind == "pc" else 1, self.order.index(cid))
        order = sorted(self.order, key=rank)
        if self.rules.npcs_at_best_slot and self.rules.turn_order == "skills":
            npcs = [c for c in order if self.f[c].sheet.is_npc]
            if npcs:
                slot = order.index(npcs[0])
                pcs = [c for c in order if not self.f[c].sheet.is_npc]
                order = pcs[:slot] + npcs + pcs[slot:]
        return order

    def _is_over(self) -> bool:
        return len({self.f[c].sheet.side for c in self.active_ids()}) <= 1

    # ----------------------------------------------------------------- turn
    def _turn(self, actor: str) -> Flow:
        f = self.f[actor]
        self._turn_seq += 1
        self._emit(ev.TurnStarted(actor, self.exchange))
        if f.full_defense:
            if self.rules.full_defense == "condensed" and not f.defended_on_full:
                self._boost(actor, "Prepared")  # 003:2245-2248
            f.full_defense = False
        free_move = True
        while True:
            choice = yield from self._ask("turn", actor, self._turn_options(f, free_move))
            if choice is RECONSIDER and self._is_over():
                return  # the other side gave in before this turn's action
            if choice is RECONSIDER:
                continue
            if type(choice) is Move:
                self._move(f, choice.zone, free=True)
                free_move = False
                continue
            break
        yield from self._act(f, choice)
        f.supporters.clear()
        while f.active and free_move and not self._is_over():
            moves = self._free_moves(f)
            if not moves:
                break
            after = yield from self._ask("move", actor, [Stay()] + [Move(z) for z in moves])
            if after is not RECONSIDER:
                if type(after) is Move:
                    self._move(f, after.zone, free=True)
                break
        self._expire_boosts(actor)

    def _free_moves(self, f: Fighter) -> list[str]:
        if self.scene.foes_block_movement and self._blocker(f) is not None:
            return []
        return self.map.free_moves(f.zone)

    def _blocker(self, f: Fighter) -> str | None:
        """The foe in the mover's zone best placed to stand in the way (000:461-471)."""
        best, best_skill = None, -99
        for c in self.foes_of(f.id):
            if self.f[c].zone == f.zone:
                s = max(self._effective(c, k, "defend") for k in BLOCK_SKILLS)
                if s > best_skill:
                    best, best_skill = c, s
        return best

    def _turn_options(self, f: Fighter, free_move: bool) -> list[Any]:
        cid = f.id
        opts: list[Any] = []
        free_now = self._free_moves(f) if free_move else []
        opts.extend(Move(z) for z in free_now)
        foes = self.foes_of(cid)
        for skill in self._attack_skills(f):
            for t in foes:
                if self._can_reach(f, t, skill):
                    opts.append(Attack(t, skill))
        named = {(a.name, a.owner or a.zone or "scene") for a in self.aspects.values()
                 if a.kind in (ADVANTAGE, SITUATION)}
        for tpl in self.scene.advantages:  # of either kind: DISTRACTED in a physical fight (003:1414-1419)
            for target in self._template_targets(f, tpl, foes):
                if (tpl.name, target) not in named:  # already there: take advantage of it instead
                    opts.append(CreateAdvantage(tpl.name, target))
        opts.extend(Exploit(a.id) for a in self._exploitable(f))
        # moving farther, across an impeded border, or past a foe takes the action (000:459-463)
        opts.extend(OvercomeMove(z) for z in self.map.reachable(f.zone) if z not in free_now)
        opts.extend(RemoveAspect(a.id) for a in self._removable(f))
        if self._tasks_left and cid not in self._set_back:  # other actions: a modified challenge (000:501-505)
            tasks = self.scene.challenge.tasks
            if f.sheet.side == self.scene.challenge.side:
                opts.extend(TakeTask(i, cid) for i in self._tasks_left if tasks[i].by in (None, cid))
        if self.scene.contest is not None and not self._tasks_left:
            opts.append(TurnToContest())
        opts.append(FullDefense())
        opts.extend(Support(a) for a in self.allies_of(cid))  # even one who has acted (003:1558-1561)
        opts.append(Concede())
        opts.append(Pass())
        return opts

    def _attack_skills(self, f: Fighter) -> list[str]:
        skills = [s for s, (track, _) in ATTACK_SKILLS.items() if track in self.tracks_in_play]
        for st in f.sheet.stunts:
            if st.kind == "use_skill" and st.action == "attack" and st.skill not in skills:
                skills.append(st.skill)
        return skills

    def _reach_of(self, f: Fighter, skill: str) -> str:
        if skill in ATTACK_SKILLS:
            return ATTACK_SKILLS[skill][1]
        for st in f.sheet.stunts:
            if st.kind == "use_skill" and st.skill == skill and st.action == "attack":
                return st.reach
        return "melee"

    def _can_reach(self, f: Fighter, target: str, skill: str) -> bool:
        reach = self._reach_of(f, skill)
        tz = self.f[target].zone
        if reach == "any":
            return True
        if reach == "melee":
            return tz == f.zone
        return self.map.in_range(f.zone, tz, self.scene.shoot_range)

    def _template_targets(self, f: Fighter, tpl: AdvantageTemplate, foes: list[str]) -> list[str]:
        if tpl.target == "foe":
            if tpl.track == MENTAL:
                return foes
            return [t for t in foes if self.map.in_range(f.zone, self.f[t].zone, self.scene.shoot_range)]
        if tpl.target == "self":
            return [f.id]
        if tpl.target == "ally":
            return self.allies_of(f.id)
        if tpl.target == "zone":
            return [f.zone]
        return ["scene"]

    def _visible(self, a: Aspect, zones: tuple[str, ...] | None = None) -> bool:
        if a.owner is not None and self.f[a.owner].status != ACTIVE:
            return False
        if a.zone is not None and zones is not None and a.zone not in zones:
            return False
        return True

    def _exploitable(self, f: Fighter) -> list[Aspect]:
        zones = (f.zone,)
        return [a for a in self.aspects.values() if a.kind != BOOST and self._visible(a, zones)]

    def _removable(self, f: Fighter) -> list[Aspect]:
        """Advantages and situation aspects someone could plausibly clear from here."""
        out = []
        for a in self.aspects.values():
            if a.kind == ADVANTAGE or (a.kind == SITUATION and a.creator is not None):
                if a.owner is not None:
                    if self.f[a.owner].status == ACTIVE and self.side_of(a.owner) == f.sheet.side:
                        out.append(a)
                elif a.zone is None or a.zone == f.zone:
                    out.append(a)
        return out

    # -------------------------------------------------------------- actions
    def _act(self, f: Fighter, choice: Any) -> Flow:
        kind = type(choice)
        if kind is Attack:
            yield from self._attack(f, choice.target, choice.skill)
        elif kind is CreateAdvantage:
            yield from self._create_advantage(f, choice.template, choice.target)
        elif kind is Exploit:
            yield from self._exploit(f, self.aspects[choice.aspect])
        elif kind is OvercomeMove:
            yield from self._overcome_move(f, choice.zone)
        elif kind is RemoveAspect:
            yield from self._remove(f, self.aspects[choice.aspect])
        elif kind is FullDefense:
            f.full_defense = True
            f.defended_on_full = False
            self._emit(ev.FullDefenseDeclared(f.id))
        elif kind is Support:
            self.f[choice.ally].supporters.append(f.id)
            self._emit(ev.SupportPledged(f.id, choice.ally))
        elif kind is Concede:
            self._concede(f)
        elif kind is TakeTask:
            yield from self._attempt_task(f, choice.task)
        elif kind is TurnToContest:
            self._to_contest = f.id
        else:
            self._emit(ev.Passed(f.id))

    def _respond(self, target: str, attacker: str, action: str) -> Flow:
        """The target may concede before the dice hit the table (003:1695-1712)."""
        options = [Defend(), Concede()] if self.can_concede else [Defend()]
        choice = RECONSIDER
        while choice is RECONSIDER:
            if not self.f[attacker].active or self._is_over():
                return False  # the actor gave in (or the fight ended) before the dice: no roll
            choice = yield from self._ask("respond", target, options, attacker=attacker, action=action)
        if type(choice) is Concede:
            self._concede(self.f[target])
            return False
        return True

    def _attack(self, f: Fighter, target: str, skill: str) -> Flow:
        t = self.f[target]
        if not (yield from self._respond(target, f.id, "attack")):
            return
        reach = self._reach_of(f, skill)
        track = self.attack_track(skill)
        defend = self._best_skill(target, DEFEND_SKILLS[reach], "defend", attacker=f.id)
        roll = self._roll("attack", f, skill, target=target, opposer=target, opp_skill=defend)
        yield from self._invoke_rounds(roll)
        m = roll.margin
        self._resolved(roll)
        weapons = self.rules.weapons and track == PHYSICAL
        if m < 0:
            return
        if m == 0:
            # a weapon hits on a tie instead of the boost; armor that cancels it leaves the boost (003:2682-2689)
            if weapons and f.sheet.weapon > 0 and f.sheet.weapon - t.sheet.armor > 0:
                yield from self._harm(t, f.sheet.weapon - t.sheet.armor, track, f.id, note="weapon on a tie")
            else:
                self._boost(f.id, "Opening")
            return
        hit = m
        self._set_back.add(target)  # successfully attacked: no challenge task this exchange
        if m >= 3:
            pick = yield from self._ask("style", f.id, [Choose("full_hit"), Choose("boost")], shifts=m)
            if pick.option == "boost":
                hit -= 1
                self._boost(f.id, "Momentum")
        notes = ()
        if weapons:
            hit += f.sheet.weapon - t.sheet.armor
            notes = (f"weapon {f.sheet.weapon}, armor {t.sheet.armor}",)
            if hit <= 0:
                self._boost(f.id, "Glancing Blow")  # 003:2686-2689
                return
        yield from self._harm(t, hit, track, f.id, note=notes[0] if notes else None)

    def _create_advantage(self, f: Fighter, template: str, target: str) -> Flow:
        tpl = next(t for t in self.scene.advantages if t.name == template)
        skill = self._best_skill(f.id, tpl.skills, "create_advantage")
        if tpl.target == "foe":
            if not (yield from self._respond(target, f.id, "create_advantage")):
                return None, None
            defend = self._best_skill(target, tpl.defend, "defend", attacker=f.id)
            roll = self._roll("create_advantage", f, skill, target=target, opposer=target, opp_skill=defend)
        else:
            roll = self._roll("create_advantage", f, skill, target=target, difficulty=tpl.difficulty,
                              why=f"create {template}")
        yield from self._invoke_rounds(roll)
        self._resolved(roll)
        outcome = band(roll.margin)
        owner = target if target in self.f else None
        zone = target if target in self.map.neighbours else None

        def place(holder: str | None, count: int) -> None:
            if owner is not None and self.side_of(owner) != f.sheet.side:
                self._set_back.add(owner)  # an advantage stuck on them (000:505)
            a = self._new_aspect(template, ADVANTAGE if owner else SITUATION, owner=owner, zone=zone,
                                 creator=f.id, skill=skill)
            if holder and count:
                a.free[holder] = count
            self._emit(ev.AspectCreated(a.name, a.id, a.kind, owner or zone, count, holder))

        if outcome == FAIL:
            self._failed_aspect = (lambda holder: place(holder, 1))
            if self.advantage_failure_is_asked:
                enemy = roll.opposer
                if enemy is not None:
                    pick = yield from self._ask("cost", f.id, [Choose("no_aspect"), Choose("aspect_for_enemy")],
                                                action="create_advantage")
                    if pick.option == "aspect_for_enemy":  # success at a cost (003:842-845)
                        place(enemy, 1)
        elif outcome == TIE:
            self._boost(f.id, template)
        else:
            place(f.id, 2 if outcome == STYLE else 1)
        return outcome, roll

    def _exploit(self, f: Fighter, a: Aspect) -> Flow:
        skill = self._best_skill(f.id, EXPLOIT_SKILLS, "create_advantage")
        owner = a.owner
        hostile = owner is not None and self.f[owner].active and self.side_of(owner) != f.sheet.side
        if hostile and not (yield from self._respond(owner, f.id, "create_advantage")):
            return None, None
        opposer = owner if hostile else self._interferer(f)
        if opposer is not None:
            defend = self._best_skill(opposer, EXPLOIT_DEFEND[self.kind], "defend", attacker=f.id)
            roll = self._roll("create_advantage", f, skill, target=owner, opposer=opposer, opp_skill=defend)
        else:
            roll = self._roll("create_advantage", f, skill, target=owner, difficulty=EXPLOIT_DIFFICULTY,
                              why=f"take advantage of {a.name}")
        yield from self._invoke_rounds(roll)
        self._resolved(roll)
        outcome = band(roll.margin)
        if a.id not in self.aspects:
            return outcome, roll
        if outcome == FAIL:
            if roll.opposer is not None:  # a known aspect: the enemy gets the free invoke (003:856)
                self._gain_free(a, roll.opposer, 1)
            self._failed_aspect = (lambda holder: self._gain_free(a, holder, 1))
        else:
            self._gain_free(a, f.id, {TIE: 1, SUCCESS: 1, STYLE: 2}[outcome])
        return outcome, roll

    def _interferer(self, f: Fighter) -> str | None:
        """Under the ``exploit_opposition: foe_in_zone`` dial, the foe in ``f``'s zone best placed to
        interfere with taking advantage of an aspect (003:834-838, 000:133); else nobody (a difficulty)."""
        if self.rules.exploit_opposition != "foe_in_zone":
            return None
        skill = EXPLOIT_DEFEND[self.kind][0]
        here = [c for c in self.foes_of(f.id) if self.f[c].zone == f.zone]
        return max(here, key=lambda c: self.f[c].skill(skill), default=None)

    def _overcome_move(self, f: Fighter, zone: str) -> Flow:
        blocker = self._blocker(f) if self.scene.foes_block_movement else None
        if blocker is not None:
            skill = self._best_skill(blocker, BLOCK_SKILLS, "defend", attacker=f.id)
            roll = self._roll("overcome", f, MOVE_SKILL, target=zone, opposer=blocker, opp_skill=skill)
        else:
            roll = self._roll("overcome", f, MOVE_SKILL, target=zone,
                              difficulty=self.map.move_difficulty(f.zone, zone), why=f"move to {zone}")
        yield from self._invoke_rounds(roll)
        self._resolved(roll)
        outcome = yield from self._overcome_outcome(f, roll)
        if outcome in (SUCCESS, STYLE, "cost"):
            self._move(f, zone, free=False)
        if outcome == STYLE:
            self._boost(f.id, "Momentum")

    def _remove(self, f: Fighter, a: Aspect) -> Flow:
        skill = self._best_skill(f.id, REMOVE_SKILLS[self.kind], "overcome")
        creator = a.creator
        if creator is not None and self.f[creator].active and self.side_of(creator) != f.sheet.side:
            opp_skill = a.skill or self._best_skill(creator, BLOCK_SKILLS, "defend")
            roll = self._roll("overcome", f, skill, target=creator, opposer=creator, opp_skill=opp_skill)
        else:
            roll = self._roll("overcome", f, skill, difficulty=REMOVE_DIFFICULTY, why=f"clear {a.name}")
        yield from self._invoke_rounds(roll)
        self._resolved(roll)
        outcome = yield from self._overcome_outcome(f, roll)
        if outcome in (SUCCESS, STYLE, "cost") and a.id in self.aspects:
            del self.aspects[a.id]
            self._emit(ev.AspectRemoved(a.name, a.id, f"cleared by {f.id}"))
        if outcome == STYLE:
            self._boost(f.id, "Clear Ground")

    def _overcome_outcome(self, f: Fighter, roll: Roll, action: str = "overcome") -> Flow:
        """Overcome outcomes (003:786-798; 000:465): a tie is success at a
        minor cost (the opposition gets a boost), or under condensed the roller
        may instead fail and take a boost (then FAIL is returned, else "cost").
        A failure may be taken as success at a major cost ("cost"), as the
        ``major_cost`` dial makes it concrete."""
        outcome = band(roll.margin)
        if outcome == FAIL and action == "overcome" and self.rules.major_cost != "off":
            options = [Choose("fail")]
            if self._major_cost_payable(f, roll):
                options.append(Choose("major_cost"))
            pick = yield from self._ask("cost", f.id, options, action=action)
            if pick.option == "major_cost":
                self._pay_major_cost(f, roll)
                return "cost"
            return FAIL
        if outcome != TIE:
            return outcome
        options = [Choose("minor_cost")]
        if self.rules.overcome_tie == "choice":
            options.append(Choose("fail_with_boost"))
        pick = yield from self._ask("cost", f.id, options, action=action)
        if pick.option == "fail_with_boost":
            self._boost(f.id, "Second Wind")
            return FAIL
        if roll.opposer is not None:
            self._boost(roll.opposer, "Small Win")
        return "cost"

    def _major_cost_slot(self, f: Fighter) -> int | None:
        """The smallest free mild or moderate consequence slot ``f`` could take as a cost."""
        free = [i for i, sl in enumerate(f.slots) if sl.free and sl.severity in ("mild", "moderate")
                and sl.track in (None, self.kind)]
        return min(free, key=lambda i: f.slots[i].value, default=None)

    def _major_cost_payable(self, f: Fighter, roll: Roll) -> bool:
        if self.rules.major_cost == "consequence":
            return self._major_cost_slot(f) is not None
        return roll.opposer is not None

    def _pay_major_cost(self, f: Fighter, roll: Roll) -> None:
        """Success at a major cost, made concrete by the dial (003:3291-3294): a mild or moderate
        consequence on the roller (its opposition holds the first free invoke, as for a hit,
        003:1631-1634), or a new situation aspect where the roller ends up, with two free invokes
        for the opposition."""
        enemy = roll.opposer
        if self.rules.major_cost == "consequence":
            slot = f.slots[self._major_cost_slot(f)]
            a = self._new_aspect(CONSEQUENCE_NAMES[self.kind][slot.severity], CONSEQUENCE, owner=f.id,
                                 creator=enemy, role=slot.severity)
            if enemy is not None:
                a.free[enemy] = 1
            slot.aspect = a.id
            f.consequences_taken += 1
            self._emit(ev.MajorCost(f.id, "consequence", a.name, a.id))
            self._emit(ev.AspectCreated(a.name, a.id, CONSEQUENCE, f.id, 1 if enemy else 0, enemy))
        else:
            zone = roll.target if roll.target in self.map.neighbours else f.zone  # where the mover ends up
            a = self._new_aspect("Hard-Won Ground", SITUATION, zone=zone, creator=enemy)
            a.free[enemy] = 2
            self._emit(ev.MajorCost(f.id, "enemy_aspect", a.name, a.id))
            self._emit(ev.AspectCreated(a.name, a.id, SITUATION, zone, 2, enemy))

    def _attempt_task(self, f: Fighter, index: int) -> Flow:
        """One challenge task: an overcome against its difficulty (003:1473-1476; 000:42-62).
        A failure may be taken as success at a major cost (003:673-679); a tie is success at a
        minor cost (the opposition gets a boost) or, under condensed, a failure with a boost."""
        task = self.scene.challenge.tasks[index]
        roll = self._roll("overcome", f, task.skill, difficulty=task.difficulty, why=task.name)
        yield from self._invoke_rounds(roll)
        self._resolved(roll)
        outcome = band(roll.margin)
        if outcome == FAIL:
            choice = yield from self._ask("cost", f.id, [Choose("fail"), Choose("major_cost")], action="task")
            result = choice.option
        elif outcome == TIE:
            tied = yield from self._overcome_outcome(f, roll, action="task")
            result = "minor_cost" if tied == "cost" else "fail_with_boost"
        else:
            result = "success" if outcome == SUCCESS else "success_with_style"
            if outcome == STYLE:
                self._boost(f.id, "Flying Start")
        if result != "fail" and result != "fail_with_boost" or self.scene.kind == "challenge":
            self._tasks_left.remove(index)
        self._emit(ev.TaskResult(task.name, f.id, roll.effort, roll.opposition, outcome, result))
        self.task_results.append({"task": task.name, "character": f.id, "effort": roll.effort,
                                  "difficulty": roll.opposition, "outcome": outcome, "result": result})

    def _move(self, f: Fighter, zone: str, free: bool) -> None:
        self._emit(ev.Moved(f.id, f.zone, zone, free))
        f.zone = zone

    def _concede(self, f: Fighter) -> None:
        f.status = CONCEDED
        self._left_fight()
        self._emit(ev.Conceded(f.id, 1 + f.consequences_taken))

    # ----------------------------------------------------------------- rolls
    def _stunt_bonus(self, cid: str, skill: str, action: str, target: str | None) -> int:
        stunts = self._bonus_stunts[cid]
        if not stunts:
            return 0
        total = 0
        for st in stunts:
            if st.skill == skill and st.action == action and self._when(cid, st.when, target):
                total += st.bonus
        return total

    def _when(self, cid: str, when: str | None, target: str | None) -> bool:
        """Circumstance tags a bonus stunt may name (see the scene format)."""
        if not when:
            return True
        f = self.f[cid]
        tag, _, arg = when.partition(":")
        arg = arg.strip()
        if tag == "aspect":
            zones = (f.zone,) + ((self.f[target].zone,) if target in self.f else ())
            return any(a.name == arg and self._visible(a, zones) and a.owner in (None, cid, target)
                       for a in self.aspects.values())
        if tag == "zone":
            return f.zone == arg
        if tag == "same_zone":
            return target in self.f and self.f[target].zone == f.zone
        if tag == "other_zone":
            return target in self.f and self.f[target].zone != f.zone
        if tag == "full_defense":
            return f.full_defense
        if tag == "target":
            return target == arg
        return False

    def _effective(self, cid: str, skill: str, action: str, target: str | None = None) -> int:
        rating = self.f[cid].sheet.skills.get(skill, 0)
        return rating + self._stunt_bonus(cid, skill, action, target) if self._bonus_stunts[cid] else rating

    def _best_skill(self, cid: str, skills: Sequence[str], action: str, attacker: str | None = None) -> str:
        """The skill a sensible player rolls: the highest rating plus stunts."""
        pool = list(skills)
        for st in self.f[cid].sheet.stunts:
            if st.kind == "use_skill" and st.action == action and st.skill not in pool:
                pool.append(st.skill)
        return max(pool, key=lambda s: (self._effective(cid, s, action, attacker), -pool.index(s)))

    def _base(self, cid: str, skill: str, action: str, target: str | None, notes: list[str],
              peek: bool = False) -> tuple[int, int]:
        """Skill + stunts + teamwork (mob members, pledged supporters) + full defense.

        Combining skills, the participant with the highest rating rolls and every other one
        with at least Average adds +1 (003:1449-1455, 000:552): when a supporter outranks
        the actor, the roll is at the supporter's rating (and stunts) and the actor helps."""
        f = self.f[cid]
        own = f.skill(skill)
        team = [s for s in f.supporters if self.f[s].active] if action != "defend" else []
        leader = max(team, key=lambda s: self.f[s].skill(skill), default=cid)
        if self.f[leader].skill(skill) <= own:
            leader = cid
        rating = self.f[leader].skill(skill)
        total = rating
        stunt = self._stunt_bonus(leader, skill, action, target)
        if stunt:
            total += stunt
            notes.append(f"stunt +{stunt}")
        if leader != cid:
            notes.append(f"{leader} leads the teamwork")
        helpers = 0
        if f.members > 1 and own >= 1:
            helpers += f.members - 1
        helpers += sum(1 for s in [cid] + team if s != leader and self.f[s].skill(skill) >= 1)
        if helpers:
            tw = self.rules.teamwork_bonus(rating, helpers)
            if tw:
                total += tw
                notes.append(f"teamwork +{tw}")
        if action == "defend" and f.full_defense:
            total += 2
            if not peek:
                f.defended_on_full = True
            notes.append("full defense +2")
        return rating, total

    def _roll(self, action: str, f: Fighter, skill: str, *, target: str | None = None, opposer: str | None = None,
              opp_skill: str | None = None, difficulty: int | None = None, why: str = "") -> Roll:
        notes: list[str] = []
        rating, base = self._base(f.id, skill, action, target, notes)
        faces = self.dice.roll(f.id, f"{action.replace('_', ' ')} with {skill}")
        self._emit(ev.Rolled(f.id, action, skill, rating, base, faces, tuple(notes)))
        zones = (f.zone,) + ((self.f[target].zone,) if target in self.f else ())
        roll = Roll(action, f.id, skill, base, faces, target=target, zones=zones)
        if opposer is not None and difficulty is None:
            notes = []
            o_rating, o_base = self._base(opposer, opp_skill, "defend", f.id, notes)
            o_faces = self.dice.roll(opposer, f"defend with {opp_skill}")
            self._emit(ev.Rolled(opposer, "defend", opp_skill, o_rating, o_base, o_faces, tuple(notes)))
            roll.opposer, roll.active, roll.opp_skill, roll.opp_base, roll.opp_faces = opposer, True, opp_skill, o_base, o_faces
        else:
            roll.opp_base = difficulty or 0
            roll.opposer = self._voice(f)
            self._emit(ev.PassiveOpposition(f.id, action, roll.opp_base, why))
        return roll

    def _voice(self, f: Fighter) -> str | None:
        """Who speaks for the opposition to a passive roll: a foe in the zone, else the first foe."""
        foes = self.foes_of(f.id)
        for c in foes:
            if self.f[c].zone == f.zone:
                return c
        return foes[0] if foes else None

    def _resolved(self, roll: Roll) -> None:
        """The outcome band of a roll; a defender who rolled and won by three or more gets a
        boost, whatever the action (the generic defend outcomes, 003:919-921, 003:942-944)."""
        self._emit(ev.Resolved(roll.actor, roll.action, roll.effort, roll.opposition, roll.margin,
                               band(roll.margin), roll.target))
        if roll.active and roll.margin <= -3 and self.f[roll.opposer].active:
            self._boost(roll.opposer, "Upper Hand")

    # --------------------------------------------------------------- invokes
    def _invoke_rounds(self, roll: Roll) -> Flow:
        """Roller, then opposer, in turns until both stop (003:606-613)."""
        seats = [(roll.actor, roll)] + ([(roll.opposer, roll)] if roll.opposer is not None else [])
        yield from self._invoke_turns(seats, self._roll_context)

    def _invoke_turns(self, seats: list[tuple[str, Roll]], context: Callable[[Roll, str], dict[str, Any]]) -> Flow:
        """Each seat (who, the roll it invokes on) in turn until every one stops in a row.
        A seat with nothing it could invoke stops without being asked."""
        passes, i = 0, 0
        while seats and passes < len(seats):
            who, roll = seats[i % len(seats)]
            i += 1
            self.roll = roll
            if not self._invoke_options(who, roll, any_only=True):
                passes += 1
                continue
            choice = yield Decision("invoke", who, None, context(roll, who),
                                    build=lambda who=who, roll=roll: [DoneInvoking()] + self._invoke_options(who, roll),
                                    first=DoneInvoking())
            if type(choice) is DoneInvoking:
                passes += 1
            else:
                self._apply_invoke(who, roll, choice)
                passes = 0
        self.roll = None

    def _roll_context(self, roll: Roll, who: str) -> dict[str, Any]:
        mine = who == roll.actor
        return {"action": roll.action, "roller": roll.actor, "opposer": roll.opposer,
                "effort": roll.effort, "opposition": roll.opposition,
                "margin": roll.margin if mine else -roll.margin, "as_roller": mine}

    def _invoke_options(self, who: str, roll: Roll, any_only: bool = False) -> Any:
        """Every invoke ``who`` may make now (or, with ``any_only``, whether there is one).
        Hot path: one pass over the aspects."""
        F = self.f
        me = F[who]
        side = me.sheet.side
        allies = [who] + self.allies_of(who)
        if me.sheet.is_npc:
            payers = [who] if self.gm_pool > 0 else []
        else:  # invoking on an ally's behalf (003:1457-1460)
            payers = [p for p in allies if not F[p].sheet.is_npc and F[p].fate_points > 0]
            if who in payers and payers[0] != who:
                payers.remove(who)
                payers.insert(0, who)
        effects = ("bonus", "reroll") if (who == roll.actor or roll.active) else ("bonus",)
        invoked = roll.invoked.get(side, ())
        zones = roll.zones
        out: list[Invoke] = []
        for a in self.aspects.values():
            owner = a.owner
            if owner is not None and F[owner].status != ACTIVE:
                continue
            if a.zone is not None and a.zone not in zones:
                continue
            if a.free:
                for h in allies:
                    if a.free.get(h, 0) > 0:
                        if any_only:
                            return True
                        for e in effects:
                            out.append(Invoke(a.id, h, True, e))
                        break
            if payers and a.kind != BOOST and a.id not in invoked:
                personal = a.kind in (CHARACTER, CONSEQUENCE) and owner is not None
                for p in payers:
                    # a fate point buys your own aspect, a situation aspect, or a hostile
                    # invoke of an opponent's aspect, never a friend's (003:611-613)
                    if not personal or owner == p or F[owner].sheet.side != side:
                        if any_only:
                            return True
                        for e in effects:
                            out.append(Invoke(a.id, p, False, e))
        return False if any_only else out

    def _apply_invoke(self, who: str, roll: Roll, inv: Invoke) -> None:
        a = self.aspects[inv.aspect]
        hostile = None
        if inv.free:
            a.free[inv.payer] -= 1
            if a.free[inv.payer] == 0:
                del a.free[inv.payer]
        else:
            payer = self.f[inv.payer]
            if payer.sheet.is_npc:
                self.gm_pool -= 1
                self.gm_spent += 1
            else:
                payer.fate_points -= 1
                self.fp_spent[inv.payer] += 1
            if a.kind in (CHARACTER, CONSEQUENCE) and a.owner is not None and self.side_of(a.owner) != self.side_of(who):
                hostile = a.owner  # paid to the target after the scene (003:1104-1114)
                self.f[a.owner].owed += 1
        if not inv.free:  # free invokes are the stated exception to "once per roll" (003:608-610)
            roll.invoked.setdefault(self.side_of(who), set()).add(a.id)
        new_faces = None
        if inv.effect == "reroll":
            new_faces = self.dice.roll(who, f"reroll (invoking {a.name})")
            if who == roll.actor:
                roll.faces = new_faces
            else:
                roll.opp_faces = new_faces
        elif who == roll.actor:
            roll.bonus += 2
        else:
            roll.opp_bonus += 2
        self._emit(ev.Invoked(who, a.name, a.id, inv.payer, inv.free, inv.effect, hostile, new_faces))
        if a.kind == BOOST and not a.free:
            del self.aspects[a.id]
            self._emit(ev.AspectRemoved(a.name, a.id, "boost used"))

    # ------------------------------------------------------------------ harm
    def _harm(self, t: Fighter, shifts: int, track: str, source: str | None, note: str | None = None) -> Flow:
        if shifts <= 0:
            return
        self._emit(ev.Hit(t.id, source, shifts, track, (note,) if note else ()))
        if t.sheet.kind == "mob":
            lost, _ = mob_absorb(t, shifts, track, self.rules)
            self._emit(ev.MobHit(t.id, shifts, lost, t.members))
            if t.members == 0:
                self._taken_out(t, source)
            return
        options: list[Any] = list(absorb_plans(t, shifts, track, self.rules))
        options.append(TakenOut())
        choice = yield from self._ask("absorb", t.id, options, shifts=shifts, track=track, source=source)
        if type(choice) is TakenOut:
            self._taken_out(t, source)
            return
        tr = t.tracks[track]
        names = []
        for b in choice.boxes:
            tr.marked[b] = True
        for s in choice.slots:
            slot = t.slots[s]
            name = CONSEQUENCE_NAMES[track][slot.severity]
            a = self._new_aspect(name, CONSEQUENCE, owner=t.id, creator=source, role=slot.severity)
            if source is not None:
                a.free[source] = 1  # the attacker's free invoke (003:1631-1634)
            slot.aspect = a.id
            t.consequences_taken += 1
            names.append(f"{slot.severity}: {name}")
        self._emit(ev.Absorbed(t.id, shifts, track, choice.boxes, tuple(tr.values[b] for b in choice.boxes), tuple(names)))

    def _taken_out(self, t: Fighter, source: str | None) -> None:
        t.status = TAKEN_OUT
        self._left_fight()
        t.taken_out_by = source
        self._emit(ev.TakenOutEvent(t.id, source))

    # ---------------------------------------------------------------- boosts
    def _boost(self, holder: str, name: str) -> None:
        a = self._new_aspect(name, BOOST, creator=holder)
        a.free[holder] = 1
        self._boost_turn[a.id] = self._turn_seq
        self._emit(ev.AspectCreated(name, a.id, BOOST, None, 1, holder))

    def _gain_free(self, a: Aspect, holder: str, count: int) -> None:
        a.free[holder] = a.free.get(holder, 0) + count
        self._emit(ev.FreeInvokeGained(holder, a.name, a.id, count))

    def _expire_boosts(self, actor: str) -> None:
        """An unused boost lasts until the end of its holder's next turn
        (it never outlives the moment it stands for, 003:1059-1066)."""
        for aid in [aid for aid, a in self.aspects.items() if a.kind == BOOST and actor in a.free]:
            if self._boost_turn.get(aid, 0) < self._turn_seq:
                name = self.aspects[aid].name
                del self.aspects[aid]
                self._emit(ev.AspectRemoved(name, aid, "boost expired"))

    # ----------------------------------------------------------------- end
    def _finish(self, unresolved: bool = False, winner: str | None = None, **extra: Any) -> None:
        sides = {self.f[c].sheet.side for c in self.active_ids()}
        if winner is None and not unresolved and len(sides) == 1 and self.scene.kind != "challenge":
            winner = next(iter(sides))
        payouts: dict[str, int] = {}
        for cid, fi in self.f.items():
            pay = fi.owed + (1 + fi.consequences_taken if fi.status == CONCEDED else 0)
            if pay:
                payouts[cid] = pay
                if not fi.sheet.is_npc:
                    fi.fate_points += pay
            for tr in fi.tracks.values():
                tr.clear()
        self._emit(ev.ConflictEnded(winner, self.exchange, unresolved, payouts))
        self.outcome = Outcome(
            winner=winner,
            exchanges=self.exchange,
            unresolved=unresolved,
            taken_out={c: fi.taken_out_by for c, fi in self.f.items() if fi.status == TAKEN_OUT},
            conceded=[c for c, fi in self.f.items() if fi.status == CONCEDED],
            consequences={c: [{"severity": s.severity, "aspect": self.aspects[s.aspect].name}
                              for s in fi.slots if s.aspect is not None]
                          for c, fi in self.f.items() if any(s.aspect is not None for s in fi.slots)},
            fate_points={c: {"start": self.fp_start[c], "spent": self.fp_spent[c], "payout": payouts.get(c, 0),
                             "end": fi.fate_points}
                         for c, fi in self.f.items()},
            gm_pool={"start": self.gm_pool_start, "spent": self.gm_spent, "end": self.gm_pool},
            payouts=payouts,
            kind=self.scene.kind,
            **{"tasks": list(self.task_results), **extra} if self.task_results else extra,
        )


def replay(scene: Scene, seed: int | None, choices: Iterable[int], forced: Iterable[Sequence[int]] = (),
           reasons: Iterable[str] | None = None) -> Conflict:
    """Rebuild any scene's play from its seed and recorded choices (see :mod:`fate_env.rules.engine`)."""
    from .engine import replay as _replay
    return _replay(scene, seed, choices, forced, reasons)
