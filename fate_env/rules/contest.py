"""Contests: sides race to a number of victories (003:1489-1535; 000:79-149).

Each exchange, every side picks one character to roll (and the skill), its
other members may add a teamwork bonus, and anyone may first try to create an
advantage. A failed attempt forfeits: under condensed the side may instead keep
its roll (or bonus) by giving the other side a free invoke (003:1531-1535);
under core the roll, or the helper's bonus, is forfeited (000:133-137). The
highest effort (passive contests: the most shifts over the side's difficulty)
marks a victory, two if it succeeds with style and no one else does; a tie for
the highest is an unexpected twist, a new situation aspect. First side to the
scene's number of victories wins. A threat may attack every side whose roll is
below its own (003:1520-1523); hits are absorbed as in a conflict.

The contest reuses the conflict's machinery (rolls, invoke options, absorbing
hits, boosts, the end-of-scene payouts); only the flow differs.
"""

from __future__ import annotations

from typing import Any

from . import events as ev
from .conflict import FAIL, Conflict, Flow, Roll
from .options import Choose, CreateAdvantage, Exploit, NoAdvantage, NoSupport, RollFor, Support
from .state import BOOST, SITUATION


class Contest(Conflict):
    """A contest in play; the same API as :class:`Conflict` (``pending``, ``step``, ``events``)."""

    def __init__(self, scene, seed=None, **kwargs):
        if scene.contest is None:
            raise ValueError(f"scene {scene.name!r} is not a contest (kind: {scene.kind})")
        super().__init__(scene, seed, **kwargs)

    # -- flow -------------------------------------------------------------------
    def _run(self) -> Flow:
        yield from self._contest()

    def _contest(self) -> Flow:
        """The contest's exchanges; also where a conflict that turns into a contest goes on."""
        spec = self.scene.contest
        self.can_concede = False
        self.advantage_failure_is_asked = False
        sides: dict[str, list[str]] = {}
        for c in self.scene.characters:
            sides.setdefault(c.side, []).append(c.id)
        self.victories = {s: 0 for s in sides}
        self._twists = 0
        self._emit(ev.ContestStarted(self.scene.name, self.rules.name, sides, spec.victories, spec.mode))
        while True:
            self.exchange += 1
            if self.exchange > self.rules.max_exchanges:
                self.exchange -= 1
                self._finish(unresolved=True, victories=dict(self.victories))
                return
            self._emit(ev.ExchangeStarted(self.exchange))
            plans = yield from self._plans()
            yield from self._advantages(plans)
            rolls = {side: self._contest_roll(plan) for side, plan in plans.items() if not plan["forfeit"]}
            yield from self._contest_invokes(rolls)
            self._score(rolls)
            if spec.threat is not None:
                yield from self._threat(plans, rolls)
            winner = next((s for s, v in self.victories.items() if v >= spec.victories), None)
            left = self._live_sides()
            if winner is None and len(left) == 1:
                winner = left[0]  # the others were all taken out
            if winner is not None or not left:
                self._finish(winner=winner, victories=dict(self.victories))
                return

    def _live_sides(self) -> list[str]:
        return list(dict.fromkeys(self.f[c].sheet.side for c in self.active_ids()))

    def _members(self, side: str) -> list[str]:
        return [c for c in self.active_ids() if self.f[c].sheet.side == side]

    def _plans(self) -> Flow:
        """Each side: who rolls with what skill (the side's first member decides), then who supports."""
        skills = self.scene.contest.skills
        plans: dict[str, dict[str, Any]] = {}
        for side in self._live_sides():
            members = self._members(side)
            options = [RollFor(m, s) for m in members for s in skills[side]]
            pick = yield from self._ask("contest_roll", members[0], options, side=side)
            plan = {"roller": pick.character, "skill": pick.skill, "supporters": [], "forfeit": False}
            for m in members:
                if m == pick.character:
                    continue
                help_ = yield from self._ask("support", m, [Support(pick.character), NoSupport()],
                                             skill=pick.skill, roller=pick.character)
                if type(help_) is Support:
                    plan["supporters"].append(m)
            plans[side] = plan
            self._emit(ev.ContestPlan(side, plan["roller"], plan["skill"], tuple(plan["supporters"])))
        return plans

    def _advantages(self, plans: dict[str, dict[str, Any]]) -> Flow:
        """Anyone may try to create an advantage before the rolls (003:1527-1535; 000:131-137)."""
        for side, plan in plans.items():
            for m in self._members(side):
                f = self.f[m]
                options = [NoAdvantage()] + self._advantage_options(f)
                choice = yield from self._ask("contest_advantage", m, options)
                if type(choice) is NoAdvantage:
                    continue
                self._failed_aspect = None
                if type(choice) is CreateAdvantage:
                    outcome, roll = yield from self._create_advantage(f, choice.template, choice.target)
                else:
                    outcome, roll = yield from self._exploit(f, self.aspects[choice.aspect])
                if outcome != FAIL:
                    continue
                what = "roll" if m == plan["roller"] else "support"
                if what == "support" and m not in plan["supporters"]:
                    continue  # nothing to forfeit but the attempt itself
                pay = False
                if self.rules.overcome_tie == "choice":  # condensed: forfeit, or keep it at a cost
                    pick = yield from self._ask("cost", m, [Choose("forfeit"), Choose("pay")], action="contest_advantage")
                    pay = pick.option == "pay"
                if pay:
                    enemy = roll.opposer if roll is not None and roll.active else self._other_lead(side)
                    if enemy is not None and self._failed_aspect is not None:
                        self._failed_aspect(enemy)
                    continue
                if what == "roll":
                    plan["forfeit"] = True
                else:
                    plan["supporters"].remove(m)
                self._emit(ev.Forfeited(side, m, what))

    def _advantage_options(self, f) -> list[Any]:
        foes = self.foes_of(f.id)
        opts: list[Any] = []
        named = {(a.name, a.owner or a.zone or "scene") for a in self.aspects.values() if a.kind != BOOST}
        for tpl in self.scene.advantages:
            if tpl.track != self.kind:
                continue
            targets = foes if tpl.target == "foe" else self._template_targets(f, tpl, foes)
            for target in targets:
                if (tpl.name, target) not in named:
                    opts.append(CreateAdvantage(tpl.name, target))
        opts.extend(Exploit(a.id) for a in self._exploitable(f))
        return opts

    def _other_lead(self, side: str) -> str | None:
        for s in self._live_sides():
            if s != side:
                return self._members(s)[0]
        return None

    # -- rolls and invokes --------------------------------------------------------
    def _contest_roll(self, plan: dict[str, Any]) -> Roll:
        f = self.f[plan["roller"]]
        f.supporters = list(plan["supporters"])
        notes: list[str] = []
        rating, base = self._base(f.id, plan["skill"], "overcome", None, notes)
        f.supporters = []
        faces = self.dice.roll(f.id, f"contest with {plan['skill']}")
        self._emit(ev.Rolled(f.id, "contest", plan["skill"], rating, base, faces, tuple(notes)))
        spec = self.scene.contest
        difficulty = spec.difficulty.get(f.sheet.side, 0) if spec.mode == "passive" else 0
        return Roll("contest", f.id, plan["skill"], base, faces, opp_base=difficulty, zones=(f.zone,))

    def _score_of(self, roll: Roll) -> int:
        return roll.effort - roll.opp_base if self.scene.contest.mode == "passive" else roll.effort

    def _contest_invokes(self, rolls: dict[str, Roll]) -> Flow:
        """The rollers in turn, until every one of them stops (003:606-613)."""
        def context(roll: Roll, who: str) -> dict[str, Any]:
            best_other = max((self._score_of(r) for r in rolls.values() if r is not roll), default=0)
            mine = self._score_of(roll)
            return {"action": "contest", "roller": who, "opposer": None, "effort": mine,
                    "opposition": best_other, "margin": mine - best_other, "as_roller": True}
        yield from self._invoke_turns([(r.actor, r) for r in rolls.values()], context)

    def _score(self, rolls: dict[str, Roll]) -> None:
        """Victories or a twist (003:1510-1518)."""
        scores = {side: self._score_of(r) for side, r in rolls.items()}
        winner, won, twist = None, 0, None
        if scores:
            top = max(scores.values())
            leaders = [s for s, v in scores.items() if v == top]
            if len(leaders) > 1:
                twist = self._twist()
            else:
                winner = leaders[0]
                others = [v for s, v in scores.items() if s != winner]
                if self.scene.contest.mode == "passive":
                    style = top >= 3 and not any(v >= 3 for v in others)
                else:  # a lone roller is measured against Mediocre (+0)
                    style = top - max(others, default=0) >= 3
                won = 2 if style else 1
                self.victories[winner] += won
        self._emit(ev.ExchangeResult(self.exchange, scores, winner, won, twist, dict(self.victories)))

    def _twist(self) -> str:
        names = self.scene.contest.twists
        name = names[self._twists] if self._twists < len(names) else f"Unexpected Twist {self._twists + 1}"
        self._twists += 1
        a = self._new_aspect(name, SITUATION)
        self._emit(ev.AspectCreated(a.name, a.id, a.kind, None, 0, None))
        return name

    def _threat(self, plans: dict[str, dict[str, Any]], rolls: dict[str, Roll]) -> Flow:
        """Every side whose roll is below the threat's takes a hit of the difference (003:1520-1523)."""
        t = self.scene.contest.threat
        if t.rating is not None:
            faces = self.dice.roll("", t.name)
            value = t.rating + sum(faces)
        else:
            faces, value = None, t.difficulty
        self._emit(ev.ThreatRolled(t.name, value, faces))
        for side in plans:
            effort = rolls[side].effort if side in rolls else 0  # a forfeited roll counts as Mediocre
            if effort < value:
                for m in self._members(side):
                    yield from self._harm(self.f[m], value - effort, t.track, None, note=t.name)
