"""The public, read-only view of a scene in play: what controllers and the environment may ask.

Every question an NPC policy asks (who it can reach, with what, at what rating; what a defender
would roll; how much a target can still absorb; what a move would bring into reach; the odds of a
roll) is a method here. None of them changes anything; to look further ahead, take
``engine.clone()`` and play the copy on. The engine inherits this class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import odds
from .invokes import bears_on, fits, invoke_budget
from .reach import attack_skills, attack_track, can_reach, reach_of
from .rolls import base, best_skill, effective
from .skills import DEFEND_SKILLS
from .solo import INVOKE_BONUS, invoke_bonus
from .stress import absorber_for

if TYPE_CHECKING:
    from .end import Outcome
    from .state import Aspect, Fighter
    from .table import Roll, Table


class View:
    """Read-only questions over ``self.t`` (the table)."""

    t: "Table"
    #: the scene puts hidden aspects in play (aspects[].hidden): only then does ``aspects`` filter
    hides: bool = False

    # -- the table, read-only by convention --------------------------------------------
    @property
    def f(self) -> dict[str, "Fighter"]:
        return self.t.f

    @property
    def aspects(self) -> dict[int, "Aspect"]:
        """The aspects in play that are known: a hidden one is no one's to see until discovered
        (:meth:`aspect` still names it, for an option that searches for it)."""
        t = self.t
        if not self.hides or not any(a.hidden for a in t.aspects.values()):  # no scan on a scene without any
            return t.aspects
        return {k: a for k, a in t.aspects.items() if not a.hidden}

    @property
    def exchange(self) -> int:
        return self.t.exchange

    @property
    def acted(self) -> set[str]:
        return self.t.acted

    @property
    def gm_pool(self) -> int:
        return self.t.gm_pool

    @property
    def gm_spent(self) -> int:
        return self.t.gm_spent

    @property
    def fp_spent(self) -> dict[str, int]:
        return self.t.fp_spent

    @property
    def roll(self) -> "Roll | None":
        """The roll being invoked on (during invoke decisions), else None."""
        return self.t.roll

    @property
    def outcome(self) -> "Outcome | None":
        return self.t.outcome

    @property
    def task_results(self) -> list[dict[str, Any]]:
        return self.t.task_results

    @property
    def victories(self) -> dict[str, int] | None:
        return self.t.victories

    def contest_standing(self, side: str) -> tuple[float, float] | None:
        """While the scene is a contest (and at its end): ``side``'s victories and the best other side's, each
        as a share of the victories that win it (None outside a contest). What both observations show."""
        victories = self.t.victories
        if not victories:
            return None
        need = self.scene.contest.victories
        return (victories.get(side, 0) / need,
                max((v for s, v in victories.items() if s != side), default=0) / need)

    @property
    def can_concede(self) -> bool:
        return self.t.can_concede

    @property
    def over(self) -> bool:
        return self.pending is None

    # -- who and where ---------------------------------------------------------------
    def fighter(self, cid: str) -> "Fighter":
        return self.t.f[cid]

    def aspect(self, aid: int) -> "Aspect":
        return self.t.aspects[aid]

    def side_of(self, cid: str) -> str:
        return self.t.f[cid].sheet.side

    def active_ids(self) -> list[str]:
        return self.t.active_ids()

    def foes_of(self, cid: str) -> list[str]:
        return self.t.foes_of(cid)

    def allies_of(self, cid: str) -> list[str]:
        return self.t.allies_of(cid)

    def fate_points_of(self, cid: str) -> int:
        """Fate points ``cid`` may spend now: its own, or the GM pool for NPCs (003:2009-2028)."""
        return self.t.fate_points_of(cid)

    def distance(self, a: str, b: str) -> int | None:
        return self.map.hops[self.t.f[a].zone].get(self.t.f[b].zone)

    # -- attacks and ratings --------------------------------------------------------------
    def attack_skills(self, cid: str) -> list[str]:
        """The skills ``cid`` may attack with in this scene (its stunts' included)."""
        return attack_skills(self, self.t.f[cid])

    def can_attack(self, actor: str, target: str, skill: str) -> bool:
        return can_reach(self, self.t.f[actor], target, skill)

    def can_attack_from(self, actor: str, zone: str, target: str, skill: str) -> bool:
        """Whether ``actor`` would reach ``target`` with ``skill`` from ``zone`` (a move's look-ahead)."""
        return can_reach(self, self.t.f[actor], target, skill, zone)

    def reach_after_move(self, actor: str, zone: str) -> bool:
        """Whether any foe would be in reach of any attack skill once ``actor`` stands in ``zone``."""
        f = self.t.f[actor]
        skills = attack_skills(self, f)
        return any(can_reach(self, f, t, s, zone) for t in self.t.foes_of(actor) for s in skills)

    def effective(self, cid: str, skill: str, action: str, target: str | None = None) -> int:
        """``cid``'s rating in ``skill`` for ``action`` with the stunts that apply now."""
        return effective(self, cid, skill, action, target)

    def attack_rating(self, actor: str, skill: str, target: str | None = None) -> int:
        """Skill + stunts + teamwork an attack with ``skill`` would roll with."""
        return base(self, actor, skill, "attack", target, [], peek=True, against=target)[1]

    def defense_rating(self, target: str, attacker: str, skill: str) -> int:
        """What ``target`` would defend an attack with ``skill`` at (best legal skill, stunts, full defense)."""
        reach = reach_of(self.t.f[attacker], skill)
        d = best_skill(self, target, DEFEND_SKILLS[reach], "defend", attacker=attacker, versus=skill)
        return base(self, target, d, "defend", attacker, [], peek=True, against=attacker)[1]

    def attack_track(self, skill: str) -> str:
        """The stress track an attack with ``skill`` harms."""
        return attack_track(self, skill)

    def capacity(self, cid: str, track: str | None = None) -> int:
        """The biggest hit ``cid`` could absorb now without being taken out."""
        f = self.t.f[cid]
        return absorber_for(f.sheet).capacity(f, track or self.kind, self.rules)

    def attack_odds(self, actor: str, target: str, skill: str) -> dict[str, float]:
        """The exact chances (4dF against 4dF) that an attack now fails, ties, succeeds, or
        succeeds with style, before any invoke."""
        diff = self.attack_rating(actor, skill, target) - self.defense_rating(target, actor, skill)
        return odds.band_odds(diff, opposed=True)

    def invoke_bonus(self, who: str, free: bool) -> int:
        """What a +2 invoke by ``who`` on the roll being invoked on is worth (solo bonuses, 003:2593-2600)."""
        r = self.t.roll
        if not self.solo or r is None:
            return INVOKE_BONUS
        return invoke_bonus(self, who, r, free)

    def invoke_budget(self, who: str, bearing: bool = False, fitting: bool = False) -> tuple[int, int, int]:
        """For the roll being invoked on: (free invokes ``who`` and its allies hold here, fate
        points ``who`` can spend, distinct aspects it could pay to invoke); ``bearing``: only
        aspects that bear on ``who``'s part in the roll (invokes.bears_on); ``fitting``: only those
        a GM would let a script invoke (invokes.fits)."""
        return invoke_budget(self, who, bearing, fitting)

    def fits(self, who: str, aspect: int) -> bool:
        """Whether a script may invoke ``aspect`` on ``who``'s part in the roll being invoked on (invokes.fits)."""
        r = self.t.roll
        return r is not None and fits(r, who, self.t.aspects[aspect])

    def bears_on(self, who: str, aspect: int) -> bool:
        """Whether aspect ``aspect`` bears on ``who``'s part in the roll being invoked on (invokes.bears_on)."""
        r = self.t.roll
        return r is not None and bears_on(r, who, self.t.aspects[aspect].owner)

    @property
    def gm_pool_start(self) -> int:
        """The GM's fate points at the scene's start (003:2007-2030): the floor of an NPC's budget is set from it."""
        return self.t.gm_pool_start
