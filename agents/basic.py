"""``basic``: a sensible, readable NPC policy.

Rules of thumb, one per decision kind, each with its reason:

* turn: concede if the next likely hit would take it out and it already
  carries consequences (the rules' advice: concede before the dice decide,
  003:1706-1712); else attack the reachable foe with the best odds; else
  step (or climb) into reach; else take cover.
* respond: defend, or concede by the same test.
* invoke: only when the invoke turns a miss into a hit (or a hit on it into
  a miss) and it can pay for enough invokes to get there; free invokes first.
* absorb: the plan that costs the least (stress before consequences, then
  the smallest consequence); taken out only when nothing absorbs the hit.
* style: the full hit. cost: never hand the enemy a free invoke; take the
  minor cost to get the goal. next: an ally who has not acted, else the
  least dangerous foe.
* a scene's challenge comes first when a task may be taken; once it is done,
  the side that worked on it turns the fight into the scene's contest (runs).
* contests: the member with the best skill rolls, everyone with a rank in it
  helps; no risky advantages. challenges: the task with the best odds next.
"""

from __future__ import annotations

import math

from fate_env.content.policies import pool_floor, scripted_params
from fate_env.content.reasons import reason
from fate_env.rules.conflict import Conflict, Decision
from fate_env.rules.harm import Absorb, TakenOut
from fate_env.rules.options import (
    Attack, BlockAction, Choose, Concede, CreateAdvantage, Defend, FullDefense, Invoke, Move, NoAdvantage,
    NoSupport, OfferConcession, OvercomeMove, Pass, Protect, SpendSpin, Stay, Support, TakeTask, TurnToContest,
    ZoneAttack,
)

from .registry import register



def by_kind(options: list) -> dict[type, list[int]]:
    """The options' indices by option type, in order: one scan answers every "is there a ...?"."""
    out: dict[type, list[int]] = {}
    for i, o in enumerate(options):
        t = type(o)
        if t in out:
            out[t].append(i)
        else:
            out[t] = [i]
    return out


@register("basic")
class BasicController:
    name = "basic"

    def __init__(self, seed: int = 0, **params):
        self.seed = seed
        p = scripted_params(self.name, **params)
        self.concede_margin = int(p["concede_margin"])
        self.hurt_first = bool(p["hurt_first"])
        self.fp_reserve = int(p["fp_reserve"])
        self.likely_roll = int(p["likely_roll"])
        self.invoke_any = bool(p["invoke_any"])
        self.fitting = bool(p["fitting_invokes"])
        self.any_roll = bool(p["fate_points_on_any_roll"])
        self.mediocre_attacks = bool(p["mediocre_attacks"])
        self.params = p

    def choose(self, c: Conflict, d: Decision) -> tuple[int, str]:
        handler = getattr(self, f"_{d.kind}")
        return handler(c, d)

    # -- helpers -----------------------------------------------------------
    def _danger(self, c: Conflict, me: str) -> int | None:
        """How far the likely hit of the most dangerous foe that can reach me goes past what I
        can absorb on the track it harms (None: no foe can hurt me)."""
        worst = None
        for foe in c.foes_of(me):
            for skill in c.attack_skills(foe):
                if c.can_attack(foe, me, skill) or (c.distance(foe, me) or 9) <= 1:
                    hit = c.attack_rating(foe, skill, me) + self.likely_roll - c.defense_rating(me, foe, skill)
                    if hit > 0:
                        over = hit - c.capacity(me, c.attack_track(skill))
                        worst = over if worst is None else max(worst, over)
        return worst

    def _should_concede(self, c: Conflict, me: str) -> bool:
        if self.concede_margin <= -99:
            return False
        f = c.f[me]
        holds = f.consequences_taken > 0 or (f.sheet.kind == "mob" and f.members < f.sheet.count)
        if self.hurt_first and not holds:
            return False
        danger = self._danger(c, me)
        return danger is not None and danger >= self.concede_margin

    # -- decisions -----------------------------------------------------------
    def _turn(self, c: Conflict, d: Decision) -> tuple[int, str]:
        me = d.actor
        opts = d.options
        kinds = by_kind(opts)  # one scan of the options
        if self._should_concede(c, me) and Concede in kinds:
            return kinds[Concede][0], reason("concede")
        if TurnToContest in kinds and c.scene.challenge and c.side_of(me) == c.scene.challenge.side:
            return kinds[TurnToContest][0], reason("retreat")
        tasks = kinds.get(TakeTask)
        if tasks:  # the scene's goal comes first when it is safe to work on it
            i = max(tasks, key=lambda i: c.effective(me, c.scene.challenge.tasks[opts[i].task].skill, "overcome"))
            return i, reason("work_on_task", task=c.scene.challenge.tasks[opts[i].task].name)
        for i in kinds.get(ZoneAttack, ()):  # a blast that catches two foes or more and no friend
            caught = [x for x in c.active_ids() if x != me and c.f[x].zone == opts[i].zone]
            foes = [x for x in caught if c.side_of(x) != c.side_of(me)]
            if len(foes) >= 2 and len(foes) == len(caught):
                return i, reason("blast", c.scene.display_names, foes=len(foes), skill=opts[i].skill, zone=opts[i].zone)
        best, best_score = None, -99
        weapons = self._weapons(c, me)
        for i in kinds.get(Attack, ()):
            o = opts[i]
            if o.skill not in weapons:
                continue  # no plinking at Mediocre with a real weapon to close in with
            odds = c.attack_rating(me, o.skill, o.target) - c.defense_rating(o.target, me, o.skill)
            if odds * 2 + 3 <= best_score:
                continue  # cannot beat the best so far even if it finishes the target
            finish = 1 if odds + self.likely_roll > c.capacity(o.target, c.attack_track(o.skill)) else 0
            score = odds * 2 + finish * 3
            if score > best_score:
                best, best_score = i, score
        if c.facts.minor_moves and Move in kinds:  # Fate 3.0: a step first costs -1 (more across a border), 002:28
            i, score = self._minor_step(c, me, opts, kinds[Move])
            if i is not None and score > best_score + 1:
                return i, reason("minor_step", c.scene.display_names, zone=opts[i].zone)
        protect = kinds.get(Protect)
        if protect and (best is None or best_score < 0):  # Fate 3.0's block, when attacking is poor
            endangered = [(self._danger(c, opts[i].ally), i) for i in protect]
            endangered = [(dg, i) for dg, i in endangered if dg is not None and dg >= 0]
            if endangered:
                _, i = max(endangered)
                return i, reason("protect", c.scene.display_names, ally=opts[i].ally)
        blocks = [i for i in kinds.get(BlockAction, ()) if opts[i].action == "attack"]
        if blocks and (best is None or best_score < 0) and any(
                (self._danger(c, a) or -1) >= 0 for a in c.allies_of(me)):  # Fate 3.0: block the worst hitter
            i = max(blocks, key=lambda i: max(c.attack_rating(opts[i].target, s) for s in c.attack_skills(opts[i].target)))
            return i, reason("block_attacks", c.scene.display_names, target=opts[i].target)
        if best is not None:
            o = opts[best]
            if Move in kinds and not c.facts.minor_moves and c.f[me].skill(o.skill) <= 0:
                closer = self._close_in(c, me, opts, kinds[Move], o.skill)
                if closer is not None:
                    i, skill = closer
                    return i, reason("close_in_better", c.scene.display_names, zone=opts[i].zone, skill=skill, mediocre=o.skill)
            return best, reason("attack", c.scene.display_names, target=o.target, skill=o.skill)
        # not in reach: a free move that brings a foe into reach, else an overcome move
        for i in kinds.get(Move, ()):
            if self._reach_after(c, me, opts[i].zone):
                return i, reason("step", c.scene.display_names, zone=opts[i].zone)
        for i in kinds.get(OvercomeMove, ()):
            if self._reach_after(c, me, opts[i].zone):
                return i, reason("force_way", c.scene.display_names, zone=opts[i].zone)
        for i in kinds.get(CreateAdvantage, ()):
            if opts[i].target == me:
                return i, reason("set_up", template=opts[i].template)
        if FullDefense in kinds:
            return kinds[FullDefense][0], reason("full_defense")
        return kinds[Pass][0], reason("nothing")

    def _minor_step(self, c: Conflict, me: str, opts: list, moves: list[int]) -> tuple[int | None, int]:
        """The one-zone step (a minor action) after which the best attack scores highest, with its
        penalty counted: (option index, score), scored as the turn's attacks are."""
        here = c.f[me].zone
        best, best_score = None, -99
        for i in moves:
            zone = opts[i].zone
            border = c.map.border(here, zone)
            penalty = 1 + (border.difficulty if border is not None else 0)
            for foe in c.foes_of(me):
                for skill in self._weapons(c, me):
                    if not c.can_attack_from(me, zone, foe, skill):
                        continue
                    odds = c.attack_rating(me, skill, foe) - penalty - c.defense_rating(foe, me, skill)
                    finish = 1 if odds + self.likely_roll > c.capacity(foe, c.attack_track(skill)) else 0
                    if odds * 2 + finish * 3 > best_score:
                        best, best_score = i, odds * 2 + finish * 3
        return best, best_score

    def _close_in(self, c: Conflict, me: str, opts: list, moves: list[int], skill: str) -> tuple[int, str] | None:
        """The turn's free move (the first in order) from which a better-rated attack skill than
        ``skill`` reaches a foe, and that skill: nobody at a table plinks at Mediocre from range
        when a step brings their real weapon to bear (the step is free, 003:1330-1335)."""
        rating = c.f[me].skill(skill)
        better = [s for s in c.attack_skills(me) if c.f[me].skill(s) > rating]
        for i in moves:
            for s in better:
                if any(c.can_attack_from(me, opts[i].zone, foe, s) for foe in c.foes_of(me)):
                    return i, s
        return None

    def _weapons(self, c: Conflict, me: str) -> list[str]:
        """The attack skills ``me`` fights with: under ``mediocre_attacks: false``, those rated above
        Mediocre when it has any (a mob with Fight 1 and no Shoot closes in rather than shooting at
        +0 from across the room: every unlisted skill is Mediocre, 003:178, but a GM plays the sheet
        as written); else every attack skill in play."""
        skills = c.attack_skills(me)
        if self.mediocre_attacks:
            return skills
        rated = [s for s in skills if c.f[me].skill(s) > 0]
        return rated or skills

    def _reach_after(self, c: Conflict, me: str, zone: str) -> bool:
        """Whether a foe is in reach of one of ``me``'s weapons once it stands in ``zone``."""
        weapons = self._weapons(c, me)
        return any(c.can_attack_from(me, zone, t, s) for t in c.foes_of(me) for s in weapons)

    def _move(self, c: Conflict, d: Decision) -> tuple[int, str]:
        me = d.actor
        if any(c.can_attack(me, t, s) for t in c.foes_of(me) for s in self._weapons(c, me)):
            return d.options.index(Stay()), reason("stay")
        for i, o in enumerate(d.options):
            if type(o) is Move and self._reach_after(c, me, o.zone):
                return i, reason("close_in", c.scene.display_names, zone=o.zone)
        return d.options.index(Stay()), reason("hold_position")

    def _respond(self, c: Conflict, d: Decision) -> tuple[int, str]:
        if self._should_concede(c, d.actor) and Concede() in d.options:
            return d.options.index(Concede()), reason("concede_first")
        return d.options.index(Defend()), reason("defend")

    def _invoke(self, c: Conflict, d: Decision) -> tuple[int, str]:
        ctx = d.context
        margin = ctx["margin"]
        me = d.actor
        worth = min(c.invoke_bonus(me, True), c.invoke_bonus(me, False)) if c.solo else 2  # a solo bonus may say
        if ctx["as_roller"]:
            goal = 1 if ctx["action"] in ("attack", "contest") else 0  # a hit, an exchange won; else a tie
            if margin >= goal:
                return 0, reason("enough")
            need = math.ceil((goal - margin) / worth)
        else:
            if margin >= 0:
                return 0, reason("holds")
            need = math.ceil(-margin / worth)
        if c.facts.spin and not ctx["as_roller"] and c.t.spin:  # Fate 3.0: an ally's spin tokens (002:95)
            spins = [i for i, o in enumerate(d.options) if type(o) is SpendSpin]
            if spins and -margin <= sum(c.t.spin[d.options[i].holder] for i in spins):
                return spins[0], reason("spend_spin", c.scene.display_names, holder=d.options[spins[0]].holder)
        bearing = not self.invoke_any  # only aspects a GM would let bear on this roll
        fitting = bearing and self.fitting  # ... and, of the other party's, those whose kind fits the action
        free_count, fp, payable = c.invoke_budget(me, bearing, fitting)
        fp = max(0, min(fp - self.fp_reserve, self._pool_room(c, me)))  # thrift, and the NPC's share
        if not self.any_roll and ctx["action"] not in ("attack", "contest"):
            fp = 0  # fate points go where harm or the contest is decided, not on an advantage or a move
        if free_count + min(fp, payable) < need:
            return 0, reason("cannot_pay")
        bonus = [(i, o) for i, o in enumerate(d.options) if type(o) is Invoke and o.effect == "bonus"
                 and (c.fits(me, o.aspect) if fitting else not bearing or c.bears_on(me, o.aspect))]
        free = [(i, o) for i, o in bonus if o.free]
        if free:
            i, o = free[0]
            return i, reason(f"free_invoke_{self._bearing(c, me, o.aspect)}", aspect=c.aspects[o.aspect].name)
        paid = [(i, o) for i, o in bonus if not o.free and o.payer == me]
        if not paid or fp <= 0:
            return 0, reason("no_own")
        i, o = paid[0]
        return i, reason(f"paid_invoke_{self._bearing(c, me, o.aspect)}", aspect=c.aspects[o.aspect].name)

    def _pool_room(self, c: Conflict, me: str) -> int:
        """GM fate points this NPC may still spend: the pool down to its kind's floor (policies.pool_floor);
        a PC's own points are its own (as many as it has)."""
        sheet = c.f[me].sheet
        if not sheet.is_npc:
            return c.fate_points_of(me)
        return c.gm_pool - pool_floor(self.params, sheet.kind, c.gm_pool_start)

    @staticmethod
    def _bearing(c: Conflict, me: str, aspect: int) -> str:
        """How an invoked aspect bears on the roll, for the reason: own, foe, scene (invokes.bears_on), or any."""
        owner = c.aspects[aspect].owner
        r = c.t.roll
        if owner is None:
            return "scene"
        if owner == me:
            return "own"
        return "foe" if owner == (r.opposer if me == r.actor else r.actor) else "any"

    def _absorb(self, c: Conflict, d: Decision) -> tuple[int, str]:
        f = c.f[d.actor]
        best, best_key = None, None
        for i, o in enumerate(d.options):
            if type(o) is Absorb:
                cons = sum(f.slots[s].value for s in o.slots)
                k = (cons, len(o.slots), len(o.boxes))
                if best_key is None or k < best_key:
                    best, best_key = i, k
        if best is None:
            return d.options.index(TakenOut()), reason("nothing_left")
        if OfferConcession() in d.options and self.concede_margin > -99:
            o = d.options[best]
            if o.slots and (f.slots[o.slots[0]].severity == "severe" or self._should_concede(c, d.actor)):
                return d.options.index(OfferConcession()), reason("offer_concession",
                                                                  severity=f.slots[o.slots[0]].severity)
        return best, reason("least_cost")

    def _concession(self, c: Conflict, d: Decision) -> tuple[int, str]:
        offerer = d.context.get("offerer")
        return d.options.index(Choose("accept")), reason("accept_concession", c.scene.display_names, offerer=offerer)

    def _hold(self, c: Conflict, d: Decision) -> tuple[int, str]:
        return d.options.index(Choose("act_now")), reason("act_now")

    def _style(self, c: Conflict, d: Decision) -> tuple[int, str]:
        return d.options.index(Choose("full_hit")), reason("full_hit")

    def _cost(self, c: Conflict, d: Decision) -> tuple[int, str]:
        if d.context.get("action") == "split":  # the whole effort on the weakest defence among the foes
            whole = [i for i, o in enumerate(d.options) if o.effort == d.context["left"]]
            i = min(whole, key=lambda i: (c.defense_rating(d.options[i].target, d.actor, d.context["skill"]), i))
            return i, f"puts everything on {c.scene.display_names.get(d.options[i].target, d.options[i].target)}"
        if d.context.get("action") == "split_overcome":  # the whole effort on the first aspect, the surest clear
            i = next(i for i, o in enumerate(d.options) if o.effort == d.context["left"])
            return i, f"puts everything into clearing {c.aspect(d.options[i].aspect).name}"
        if d.context.get("action") == "minion_armor":  # minions are expendable: one takes the hit
            i = min(range(1, len(d.options)), key=lambda i: c.capacity(d.options[i].minion))
            return i, f"shoves {d.options[i].minion} into the blow"
        if d.context.get("action") == "overcome" and Choose("major_cost") in d.options:
            if c.f[d.actor].consequences_taken == 0:
                return d.options.index(Choose("major_cost")), reason("major_cost")
            return d.options.index(Choose("fail")), reason("too_hurt")
        if d.context.get("action") == "maneuver":
            return d.options.index(Choose("take_aspect")), reason("take_aspect")
        reasons = {"reveal": "shows what was hidden, for a free invoke on it",
                   "no_aspect": reason("give_nothing"), "minor_cost": reason("minor_cost"),
                   "pay": reason("contest_keep"), "major_cost": reason("task_done")}
        for pref in reasons:
            if Choose(pref) in d.options:
                return d.options.index(Choose(pref)), reasons[pref]
        return 0, reason("only_way")

    # -- contests and challenges ---------------------------------------------------
    def _contest_roll(self, c: Conflict, d: Decision) -> tuple[int, str]:
        best = max(range(len(d.options)),
                   key=lambda i: c.effective(d.options[i].character, d.options[i].skill, "overcome"))
        o = d.options[best]
        return best, reason("contest_roll", c.scene.display_names, character=o.character, skill=o.skill)

    def _support(self, c: Conflict, d: Decision) -> tuple[int, str]:
        if c.f[d.actor].skill(d.context["skill"]) >= 1:
            return d.options.index(Support(d.context["roller"])), reason("contest_help")
        return d.options.index(NoSupport()), reason("contest_no_rank")

    def _contest_advantage(self, c: Conflict, d: Decision) -> tuple[int, str]:
        return d.options.index(NoAdvantage()), reason("contest_all_in")

    def _task(self, c: Conflict, d: Decision) -> tuple[int, str]:
        def odds(i: int) -> int:
            o = d.options[i]
            task = c.scene.challenge.tasks[o.task]
            return c.effective(o.character, task.skill, "overcome") - task.difficulty
        best = max(range(len(d.options)), key=odds)
        o = d.options[best]
        return best, reason("task_odds", c.scene.display_names, character=o.character, task=c.scene.challenge.tasks[o.task].name)

    def _next(self, c: Conflict, d: Decision) -> tuple[int, str]:
        me = d.actor
        side = c.side_of(me)
        allies = [i for i, o in enumerate(d.options) if c.side_of(o.character) == side]
        if allies:
            i = allies[0]
            return i, reason("hand_over", c.scene.display_names, character=d.options[i].character)
        weakest = min(range(len(d.options)),
                      key=lambda i: max(c.attack_rating(d.options[i].character, s)
                                        for s in c.attack_skills(d.options[i].character)))
        return weakest, reason("let_weakest", c.scene.display_names, character=d.options[weakest].character)
