"""A contest's flow: sides race to a number of victories (003:1489-1535; 000:79-149).

Each exchange, every side picks one character to roll (and the skill), its other members may
add a teamwork bonus, and anyone may first try to create an advantage. A failed attempt
forfeits: under condensed the side may instead keep its roll (or bonus) by giving the other side
a free invoke (003:1531-1535); under core the roll, or the helper's bonus, is forfeited
(000:133-137). The highest effort (passive contests: the most shifts over the side's
difficulty) marks a victory, two if it succeeds with style and no one else does; a tie for the
highest is an unexpected twist, a new situation aspect. First side to the scene's number of
victories wins. A threat may attack every side whose roll is below its own (003:1520-1523).

The flow resumes at an exchange's start (the engine's checkpoint); a conflict that turns into
its contest enters here too.
"""

from __future__ import annotations

from typing import Any

from .. import events as ev
from ..actions.advantage import create_advantage, give_failed
from ..actions.exploit import exploit
from ..aspects import exploitable, new_aspect
from ..decisions import Flow, ask
from ..end import finish
from ..harm import harm
from ..invokes import invoke_turns
from ..kinds import DecisionKind, SceneKind
from ..options import Choose, CreateAdvantage, Exploit, NoAdvantage, NoSupport, RollFor, Support, TurnToConflict
from ..reach import attack_skills, can_reach, template_targets
from ..rolls import FAIL, base
from ..state import BOOST, SITUATION, Fighter
from ..table import Roll
from .registry import FLOWS
from ..play import Play


def run(e: "Play") -> Flow:
    t = e.t
    spec = e.scene.contest
    if t.cursor is None:
        t.can_concede = False
        t.to_conflict = None  # an attack in an earlier contest of the scene opened its conflict, not this one's
        sides: dict[str, list[str]] = {}
        for c in e.scene.characters:
            sides.setdefault(c.side, []).append(c.id)
        t.victories = {s: 0 for s in sides}
        t.twists = 0
        e.emit(ev.ContestStarted(e.scene.name, e.rules.name, sides, spec.victories, spec.mode))
        t.cursor = "exchange"
    while True:
        e.checkpoint()
        t.exchange += 1
        if t.exchange > e.rules.max_exchanges:
            t.exchange -= 1
            finish(e, unresolved=True, victories=dict(t.victories))
            return
        e.emit(ev.ExchangeStarted(t.exchange))
        plans = yield from _plans(e)
        yield from _advantages(e, plans)
        if t.to_conflict is not None:
            yield from _become_conflict(e)
            return
        rolls = {side: _contest_roll(e, plan, _opposite(e, plans, side)) for side, plan in plans.items()
                 if not plan["forfeit"]}
        yield from _invokes(e, rolls)
        _score(e, rolls)
        if spec.threat is not None:
            yield from _threat(e, plans, rolls)
        if e.contest_immune is not None:
            yield from _big_bad_attacks(e, plans, rolls)
        winner = next((s for s, v in t.victories.items() if v >= spec.victories), None)
        left = live_sides(e)
        if winner is None and len(left) == 1:
            winner = left[0]  # the others were all taken out
        if winner is not None and e.contest_immune is not None and len(left) == 2 \
                and winner != t.f[e.contest_immune].sheet.side:
            yield from _immunity_broken(e)
            return
        if winner is not None or not left:
            if e.contest_immune is not None:
                e.emit(ev.ImmunityContest(e.contest_immune, False))
            finish(e, winner=winner, victories=dict(t.victories))
            return


def _big_bad_attacks(e: "Play", plans: dict[str, dict[str, Any]], rolls: dict[str, Roll]) -> Flow:
    """Contest immunity (003:2527-2532): "the big bad gets to attack them while they're trying".
    A ruling: its side's contest roll attacks as a threat's does (003:1520-1523), every member of
    each side whose roll is below it taking a hit of the difference, on the conflict's track, with
    the big bad as the attacker (its free invokes on the consequences)."""
    big_bad = e.contest_immune
    own = e.t.f[big_bad].sheet.side
    if not e.t.f[big_bad].active or own not in rolls:
        return
    value = rolls[own].effort
    for side in plans:
        if side == own:
            continue
        effort = rolls[side].effort if side in rolls else 0
        if effort < value:
            for m in members(e, side):
                yield from harm(e, e.t.f[m], value - effort, e.kind, big_bad, note="while they try")


def _immunity_broken(e: "Play") -> Flow:
    """The group won the contest: the big bad can be attacked; the conflict begins (003:2527-2532)."""
    e.emit(ev.ImmunityContest(e.contest_immune, True))
    e.t.immunity_broken = True
    yield from _conflict_from_here(e)


def _become_conflict(e: "Play") -> Flow:
    """An attack in a contest: it ceases to be one and the conflict is set up at once (000:147-149; a
    contest is where the parties do not harm one another, 003:1288-1289), the attacker opening it (a
    ruling: under popcorn order it acts first; Core's order by skills stays). The contest's victories
    are dropped; stress, consequences, aspects carry over."""
    t = e.t
    e.emit(ev.BecameConflict(t.to_conflict, t.exchange))
    t.to_contest = None  # a conflict that had turned into this contest starts anew
    yield from _conflict_from_here(e)


def _conflict_from_here(e: "Play") -> Flow:
    """The scene is a conflict from here: its flow starts afresh (exchange 1, concessions as the rule
    set allows them), the contest's victories gone."""
    t = e.t
    t.mode = SceneKind.CONFLICT
    t.cursor = None
    t.exchange = 0
    t.victories = None
    t.can_concede = e.facts.concede_anytime
    yield from FLOWS["conflict"](e)


def attackers(e: "Play", f: Fighter) -> bool:
    """Whether ``f`` could attack a foe from where it stands, turning the contest into a conflict."""
    return any(can_reach(e, f, c, skill) for skill in attack_skills(e, f) for c in e.t.foes_of(f.id)
               if e.t.f[c].active)


def live_sides(e: "Play") -> list[str]:
    F = e.t.f
    return list(dict.fromkeys(F[c].sheet.side for c in e.t.active_ids()))


def members(e: "Play", side: str) -> list[str]:
    F = e.t.f
    return [c for c in e.t.active_ids() if F[c].sheet.side == side]


def _plans(e: "Play") -> Flow:
    """Each side: who rolls with what skill (the side's first member decides), then who supports."""
    skills = e.scene.contest.skills
    plans: dict[str, dict[str, Any]] = {}
    for side in live_sides(e):
        ms = members(e, side)
        options = [RollFor(m, s) for m in ms for s in skills[side]]
        pick = yield from ask(e, DecisionKind.CONTEST_ROLL, ms[0], options, side=side)
        plan = {"roller": pick.character, "skill": pick.skill, "supporters": [], "forfeit": False}
        for m in ms:
            if m == pick.character:
                continue
            help_ = yield from ask(e, DecisionKind.SUPPORT, m, [Support(pick.character), NoSupport()],
                                   skill=pick.skill, roller=pick.character)
            if type(help_) is Support:
                plan["supporters"].append(m)
        plans[side] = plan
        e.emit(ev.ContestPlan(side, plan["roller"], plan["skill"], tuple(plan["supporters"])))
    return plans


def _advantages(e: "Play", plans: dict[str, dict[str, Any]]) -> Flow:
    """Anyone may try to create an advantage before the rolls (003:1527-1535; 000:131-137).

    Under the ``faster_contests`` dial each contestant does one of three things an exchange
    (003:2219-2230): the side's roll, an advantage (no teamwork on it), or teamwork for the roll;
    so the roller and the supporters try no advantage, and a failed one costs the side its roll
    (or the other side a free invoke): the text's "your side forfeits its overcome roll"
    (003:1531-1534), the contestant having no roll or bonus of its own to lose."""
    t = e.t
    faster = e.rules.faster_contests
    for side, plan in plans.items():
        for m in members(e, side):
            if faster and (m == plan["roller"] or m in plan["supporters"]):
                continue
            f = t.f[m]
            options = [NoAdvantage()] + advantage_options(e, f)
            if e.contest_immune is None and attackers(e, f):  # an attack ends the contest (000:147-149)
                options.append(TurnToConflict())
            choice = yield from ask(e, DecisionKind.CONTEST_ADVANTAGE, m, options)
            if type(choice) is NoAdvantage:
                continue
            if type(choice) is TurnToConflict:
                t.to_conflict = m
                return
            if type(choice) is CreateAdvantage:
                attempt = yield from create_advantage(e, f, choice.template, choice.target, ask_cost=False)
            else:
                attempt = yield from exploit(e, f, t.aspects[choice.aspect])
            if attempt.outcome != FAIL:
                continue
            what = "roll" if m == plan["roller"] or faster else "support"
            if what == "support" and m not in plan["supporters"] or what == "roll" and plan["forfeit"]:
                continue  # nothing to forfeit but the attempt itself
            pay = False
            if e.facts.tie_choice:  # condensed: forfeit, or keep it at a cost
                pick = yield from ask(e, DecisionKind.COST, m, [Choose("forfeit"), Choose("pay")],
                                      action="contest_advantage")
                pay = pick.option == "pay"
            if pay:
                r = attempt.roll
                enemy = r.opposer if r is not None and r.active else _other_lead(e, side)
                if enemy is not None:
                    give_failed(e, f, attempt, enemy)
                continue
            if what == "roll":
                plan["forfeit"] = True
            else:
                plan["supporters"].remove(m)
            e.emit(ev.Forfeited(side, m, what))


def advantage_options(e: "Play", f: Fighter) -> list[Any]:
    """The advantages a contestant may try: the scene's templates for this kind of contest, and
    free invokes on aspects in reach."""
    foes = e.t.foes_of(f.id)
    opts: list[Any] = []
    named = {(a.name, a.owner or a.zone or "scene") for a in e.t.aspects.values() if a.kind != BOOST}
    for tpl in e.scene.advantages:
        if tpl.track != e.kind:
            continue
        targets = foes if tpl.target == "foe" else template_targets(e, f, tpl, foes)
        for target in targets:
            if (tpl.name, target) not in named:
                opts.append(CreateAdvantage(tpl.name, target))
    opts.extend(Exploit(a.id) for a in exploitable(e, f))
    return opts


def _other_lead(e: "Play", side: str) -> str | None:
    for s in live_sides(e):
        if s != side:
            return members(e, s)[0]
    return None


def _opposite(e: "Play", plans: dict[str, dict[str, Any]], side: str) -> str | None:
    """The roller a side's contest roll is against, for scale: the other side's, when two sides
    roll opposed; a passive contest's rolls are against difficulties, so scale plays no part."""
    if e.scene.contest.mode != "opposed" or len(plans) != 2:
        return None
    return next(p["roller"] for s, p in plans.items() if s != side)


def _contest_roll(e: "Play", plan: dict[str, Any], against: str | None = None) -> Roll:
    f = e.t.f[plan["roller"]]
    f.supporters = list(plan["supporters"])
    notes: list[str] = []
    rating, total = base(e, f.id, plan["skill"], "overcome", None, notes, against=against)
    f.supporters = []
    faces = e.dice.roll(f.id, f"contest with {plan['skill']}")
    e.emit(ev.Rolled(f.id, "contest", plan["skill"], rating, total, faces, tuple(notes)))
    spec = e.scene.contest
    difficulty = spec.difficulty.get(f.sheet.side, 0) if spec.mode == "passive" else 0
    return Roll("contest", f.id, plan["skill"], total, faces, opp_base=difficulty, zones=(f.zone,))


def score_of(e: "Play", r: Roll) -> int:
    return r.effort - r.opp_base if e.scene.contest.mode == "passive" else r.effort


def _invokes(e: "Play", rolls: dict[str, Roll]) -> Flow:
    """The rollers in turn, until every one of them stops (003:606-613)."""
    def context(r: Roll, who: str) -> dict[str, Any]:
        best_other = max((score_of(e, o) for o in rolls.values() if o is not r), default=0)
        mine = score_of(e, r)
        return {"action": "contest", "roller": who, "opposer": None, "effort": mine,
                "opposition": best_other, "margin": mine - best_other, "as_roller": True}
    yield from invoke_turns(e, [(r.actor, r) for r in rolls.values()], context)


def _score(e: "Play", rolls: dict[str, Roll]) -> None:
    """Victories or a twist (003:1510-1518)."""
    t = e.t
    scores = {side: score_of(e, r) for side, r in rolls.items()}
    winner, won, twist = None, 0, None
    if scores:
        top = max(scores.values())
        leaders = [s for s, v in scores.items() if v == top]
        if len(leaders) > 1:
            twist = _twist(e)
        else:
            winner = leaders[0]
            others = [v for s, v in scores.items() if s != winner]
            if e.scene.contest.mode == "passive":
                style = top >= 3 and not any(v >= 3 for v in others)
            else:  # a lone roller is measured against Mediocre (+0)
                style = top - max(others, default=0) >= 3
            won = 2 if style else 1
            t.victories[winner] += won
    e.emit(ev.ExchangeResult(t.exchange, scores, winner, won, twist, dict(t.victories)))


def _twist(e: "Play") -> str:
    t = e.t
    name = e.scene.contest.twist(t.twists)
    t.twists += 1
    a = new_aspect(e, name, SITUATION)
    e.emit(ev.AspectCreated(a.name, a.id, a.kind, None, 0, None))
    return name


def _threat(e: "Play", plans: dict[str, dict[str, Any]], rolls: dict[str, Roll]) -> Flow:
    """Every side whose roll is below the threat's takes a hit of the difference (003:1520-1523)."""
    th = e.scene.contest.threat
    if th.rating is not None:
        faces = e.dice.roll("", th.name)
        value = th.rating + sum(faces)
    else:
        faces, value = None, th.difficulty
    e.emit(ev.ThreatRolled(th.name, value, faces))
    for side in plans:
        effort = rolls[side].effort if side in rolls else 0  # a forfeited roll counts as Mediocre
        if effort < value:
            for m in members(e, side):
                yield from harm(e, e.t.f[m], value - effort, th.track, None, note=th.name)
