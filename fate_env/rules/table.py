"""The table: everything about a scene in play that changes, as one plain dataclass.

Characters (their tracks, slots, zones, fate points), the aspects in play and their free
invokes, the GM's pool and the fate-point book, the exchange and who has acted, the roll being
invoked on, which flow is running and where it stands (``cursor``), and the outcome once there
is one. What never changes in a scene (the scene, the rule set, the zone map) stays on the
engine. :meth:`Table.copy` is a cheap deep copy written from the fields' declarations (``kept``); the engine takes one at each
checkpoint and ``deepcopy``/``pickle`` of an engine go through it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .copies import copier, kept
from .kinds import SceneKind, Status
from .state import Aspect, Fighter


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
    invoked: dict[str, set[int]] = kept("dict_of_sets", default_factory=dict)
    opp_floor: int | None = None     # a blocker's strength the defense cannot fall below (002:46)
    #: the obstacles the roll is about (a block crossed or thrown into, one cleared, a hazard's own roll):
    #: only their aspects, of the obstacles' (``Aspect.obstacle``), may be invoked on it
    about: tuple[str, ...] = ()

    @property
    def effort(self) -> int:
        return self.base + sum(self.faces) + self.bonus

    @property
    def opposition(self) -> int:
        if self.opp_floor is None:
            return self.opp_base + sum(self.opp_faces) + self.opp_bonus
        return max(self.opp_base + sum(self.opp_faces), self.opp_floor) + self.opp_bonus

    @property
    def margin(self) -> int:
        return self.effort - self.opposition



@dataclass(slots=True)
class Table:
    """The state of one scene in play (see the module docstring)."""

    f: dict[str, Fighter] = kept("each")
    order: list[str] = kept("shared")
    aspects: dict[int, Aspect] = kept("each", default_factory=dict)
    aspect_seq: int = 0
    turn_seq: int = 0
    boost_turn: dict[int, int] = kept("dict", default_factory=dict)   # boost id -> the turn it was made in
    gm_pool: int = 0
    gm_pool_start: int = 0
    gm_spent: int = 0
    fp_start: dict[str, int] = kept("shared", default_factory=dict)
    fp_spent: dict[str, int] = kept("dict", default_factory=dict)
    exchange: int = 0
    acted: set[str] = kept("set", default_factory=set)
    set_back: set[str] = kept("set", default_factory=set)   # hit, or an advantage stuck on them, this exchange
    tasks_left: list[int] = kept("list", default_factory=list)
    #: zone -> the indices of its own challenge's tasks not yet done (zone_challenge.py)
    zone_tasks: dict[str, tuple[int, ...]] = kept("dict", default_factory=dict)
    task_results: list[dict[str, Any]] = kept("list_of_dicts", default_factory=list)
    to_contest: str | None = None
    to_conflict: str | None = None    # who attacked in a contest: the conflict starts with them (000:147-149)
    can_concede: bool = True          # a conflict's option (003:1693-1712), not a contest's
    mode: SceneKind = SceneKind.CONFLICT   # the flow running now
    cursor: Any = None                # where that flow resumes (None: not started)
    victories: dict[str, int] | None = kept("dict_or_none", default=None)
    twists: int = 0
    roll: Roll | None = kept("copy_or_none", default=None)  # the roll being invoked on
    outcome: Any = None
    outside: int = 0                  # GM powers and concessions outside a decision so far (Engine.reproducible)
    countdowns: list[int] = kept("list", default_factory=list)   # boxes marked per scene countdown (countdowns.py)
    running: list[bool] = kept("list", default_factory=list)     # whether each countdown still runs
    decided: str | None = None        # the side a countdown's outcome made the winner
    cleared: frozenset = frozenset()  # the borders whose block has been cleared (blocks.py)
    held: tuple = ()                  # holding their action now, in the order they held (001:82-84)
    held_once: frozenset = frozenset()  # held this exchange (a held turn is not held again)
    minor: tuple | None = None        # (actor, penalty): the minor actions of the turn in progress (002:28)
    spin: dict[str, int] = kept("dict", default_factory=dict)       # spin tokens held (002:95)
    protected: dict[str, tuple] = kept("dict", default_factory=dict)  # ally -> (blocker, strength) this exchange
    blocked: dict[tuple, tuple] = kept("dict", default_factory=dict)  # (foe, action) -> (blocker, strength) this exchange
    immunity_broken: bool = False     # the group has won the contest a big bad's immunity set (003:2527-2532)
    # derived, rebuilt on demand (never copied)
    active_cache: list[str] | None = kept("derived", default=None)
    foes_cache: dict[str, list[str]] = kept("derived", default_factory=dict)
    allies_cache: dict[str, list[str]] = kept("derived", default_factory=dict)

    # -- who is in the fight -------------------------------------------------------
    def active_ids(self) -> list[str]:
        """Characters still in the scene, in scene order (cached: it changes only when someone leaves)."""
        if self.active_cache is None:
            F = self.f
            self.active_cache = [c for c in self.order if F[c].status == Status.ACTIVE]
            self.foes_cache.clear()
            self.allies_cache.clear()
        return self.active_cache

    def foes_of(self, cid: str) -> list[str]:
        active = self.active_ids()
        got = self.foes_cache.get(cid)
        if got is None:
            side = self.f[cid].sheet.side
            got = self.foes_cache[cid] = [c for c in active if self.f[c].sheet.side != side]
        return got

    def allies_of(self, cid: str) -> list[str]:
        active = self.active_ids()
        got = self.allies_cache.get(cid)
        if got is None:
            side = self.f[cid].sheet.side
            got = self.allies_cache[cid] = [c for c in active if c != cid and self.f[c].sheet.side == side]
        return got

    def left_fight(self) -> None:
        self.active_cache = None

    def is_over(self) -> bool:
        """One side (or none) is left, or a countdown has decided the scene (003:2190-2191)."""
        return self.decided is not None or len({self.f[c].sheet.side for c in self.active_ids()}) <= 1

    def fate_points_of(self, cid: str) -> int:
        """Fate points ``cid`` may spend now: its own, or the GM pool for NPCs (003:2009-2028)."""
        return self.gm_pool if self.f[cid].sheet.is_npc else self.f[cid].fate_points

    def adjust_fp(self, cid: str, delta: int) -> None:
        if self.f[cid].sheet.is_npc:
            self.gm_pool += delta
        else:
            self.f[cid].fate_points += delta


Roll.copy = copier(Roll)  # type: ignore[method-assign]
Table.copy = copier(Table)  # type: ignore[attr-defined]
