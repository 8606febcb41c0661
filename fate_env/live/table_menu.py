"""Live play's menus: a decision's options in plain words, grouped, with their odds.

A turn can offer fifty options and an invoke decision eighty; a player wants the handful worth
taking. :func:`build` words every option, puts it in a group (attack, create an advantage,
move, ...) and works out the exact odds of each rolled one (4dF against 4dF or a passive
difficulty, 003:542-545) by playing the option on a what-if copy of the scene up to its roll.
:func:`short` keeps the sensible few (the NPC's or the helper's proposal, the best attack on each
foe, the best advantages, a move, full defense); the full list is one word (``more``) away.
Every option keeps one number in both lists, its place in the decision (1 = the first).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..rules import options as op
from ..rules.actions import BY_OPTION
from ..rules.kinds import DecisionKind
from ..rules.dice import show_faces
from ..rules.ladder import describe, signed
from ..rules.odds import band_odds
from ..rules.stress import Absorb, TakenOut
from ..content.narrate import boxes_words, exploit_words

#: the option types whose odds come from their roll
ROLLED = (op.Attack, op.CreateAdvantage, op.Exploit, op.OvercomeMove, op.RemoveAspect, op.ZoneAttack,
          op.SplitAttack, op.SplitAdvantage, op.ShoveInto)
#: rolled options whose words name no skill: the engine rolls the actor's best one for them
SKILL_CHOSEN = (op.CreateAdvantage, op.SplitAdvantage, op.Exploit, op.OvercomeMove, op.RemoveAspect)
GROUPS = ("Attack", "Create an advantage", "Move", "Defend", "Invoke", "Take the hit", "Other")
#: how many options of each group the short list keeps (the proposal always stays)
SHORT_PER_GROUP = {"Attack": 3, "Create an advantage": 1, "Move": 1, "Defend": 1, "Invoke": 3, "Take the hit": 99,
                   "Other": 1}
#: decisions with this many options or fewer are shown whole
SMALL = 8
CHOICE_WORDS = {"full_hit": "take the full hit", "boost": "take a boost instead", "act_now": "take the held turn now",
                "keep_holding": "keep holding", "accept": "accept", "refuse": "refuse",
                "keep_hidden": "keep what they searched for hidden",
                "stand_aside": "let it go by", "stand_in": "step in: defend for them and take the hit",
                "reveal": "reveal it, and take a free invoke on it"}


@dataclass
class Item:
    """One option as the menu shows it."""

    number: int           # 1-based place in the decision's options (what the player types)
    group: str
    text: str
    odds: dict[str, float] | None = None   # fail / tie / success / success_with_style
    rating: tuple[int, int] | None = None  # (effort before dice, opposition before dice)
    proposed: bool = False

    @property
    def success(self) -> float:
        return (self.odds or {}).get("success", 0.0) + (self.odds or {}).get("success_with_style", 0.0)

    def line(self) -> str:
        """The option's menu line; the proposal's mark comes right after its number, so that a line wrapped
        to the window's width never splits it off (or in two)."""
        mark = "(proposed) " if self.proposed else ""
        return f"{self.number:>3}. {mark}{self.text}{odds_text(self.odds, self.rating)}"


def odds_text(odds: dict[str, float] | None, rating: tuple[int, int] | None) -> str:
    """A menu line's odds: the ratings by number (a line that fits a terminal's row), then the chances."""
    if odds is None:
        return ""
    win = odds["success"] + odds["success_with_style"]
    at = f"{signed(rating[0])} against {signed(rating[1])}: " if rating else ""
    return f"   ({at}{_pct(win)} success, {_pct(odds['success_with_style'])} style, {_pct(odds['tie'])} tie)"


def _pct(p: float) -> str:
    return f"{100 * p:.0f}%" if p >= 0.005 or p == 0 else "<1%"


#: what-if rolls (:func:`roll_before_dice`) worked out for one question: past it, the rolled options
#: after the first ones (the proposal always among them) show no odds. A scene of dozens of characters
#: offers hundreds of advantages, each a copy of the scene played forward: asked anew after each of
#: the GM's reinforcements, that was seconds per question.
MAX_WHAT_IF = 64


def build(engine, decision, narrator, helper=None, proposal: int | None = None) -> list[Item]:
    """Every option of ``decision`` as an :class:`Item` (odds worked out for the rolled ones, at most
    :data:`MAX_WHAT_IF` of them by a what-if roll)."""
    items = []
    what_ifs = 0
    for i, o in enumerate(decision.options):
        group, text = words(engine, decision, narrator, o)
        item = Item(i + 1, group, text, proposed=(i == proposal))
        if type(o) is op.Attack and decision.kind == DecisionKind.TURN:
            item.odds = engine.attack_odds(decision.actor, o.target, o.skill)
            item.rating = (engine.attack_rating(decision.actor, o.skill, o.target),
                           engine.defense_rating(o.target, decision.actor, o.skill))
        elif isinstance(o, ROLLED) and helper is not None and (what_ifs < MAX_WHAT_IF or i == proposal):
            what_ifs += 1
            got = roll_before_dice(engine, i, decision.actor, helper)
            if got is not None:
                item.rating = (got[0], got[1])
                item.odds = band_odds(got[0] - got[1], opposed=got[2])
                if type(o) in SKILL_CHOSEN:  # the engine picks the skill: say which, beside its odds
                    item.text += f", with {got[3]}"
        items.append(item)
    return items


def roll_before_dice(engine, index: int, actor: str, helper, steps: int = 6) -> tuple[int, int, bool, str] | None:
    """Play option ``index`` on a what-if copy (its own dice) until ``actor``'s roll is made:
    its effort and opposition before the dice, whether the opposition rolls, and the skill rolled."""
    f = engine.fork(np.random.default_rng(0))
    f.step(index)
    for _ in range(steps):
        r = f.t.roll
        if r is not None and r.actor == actor:
            return r.base + r.bonus, r.opp_base + r.opp_bonus, r.active, r.skill
        if f.pending is None or f.pending.kind in (DecisionKind.TURN, DecisionKind.NEXT):
            return None
        d = f.pending
        j, _ = helper.choose(f, d)
        if d.actor != actor and type(d.options[j]) in (op.Concede, op.OfferConcession):
            j = next(k for k, o in enumerate(d.options) if type(o) not in (op.Concede, op.OfferConcession))
        f.step(j)
    return None


#: options whose words never change: type -> (group, words)
FIXED_WORDS: dict[type, tuple[str, str]] = {
    op.Stay: ("Move", "stay where you are"),
    op.FullDefense: ("Defend", "full defense (+2 to every defense until your next turn)"),
    op.Defend: ("Defend", "defend"),
    op.ForgoDefense: ("Defend", "take the hit undefended (the attack is against Mediocre)"),
    op.DoneInvoking: ("Invoke", "no (more) invokes: let the roll stand"),
    TakenOut: ("Take the hit", "absorb none of it: be taken out"),  # legal at any hit (003:1568)
    op.OfferConcession: ("Take the hit", "offer to concede instead"),
    op.Concede: ("Other", "concede (leave the fight on your own terms)"),
    op.Pass: ("Other", "pass"),
    op.Hold: ("Other", "hold your action for later this exchange"),
}


def _target(decision, narrator, target: str) -> str:
    if target == "scene":
        return "the scene"
    if target in narrator.zones:
        return narrator.zones[target]
    return "yourself" if target == decision.actor else narrator.name(target)


#: the others: type -> (group, words from (engine, decision, narrator, option))
WORDS: dict[type, tuple[str, Any]] = {
    op.Attack: ("Attack", lambda e, d, n, o: f"attack {n.name(o.target)} with {o.skill}"),
    op.ZoneAttack: ("Attack", lambda e, d, n, o: f"attack everyone in {n.zones.get(o.zone, o.zone)} with {o.skill}"),
    op.SplitAttack: ("Attack", lambda e, d, n, o: f"split a {o.skill} attack among the foes in "
                                                  f"{n.zones.get(o.zone, o.zone)}"),
    op.ShoveInto: ("Attack", lambda e, d, n, o: f"shove {n.name(o.target)} into {o.block} with {o.skill}"),
    op.CreateAdvantage: ("Create an advantage", lambda e, d, n, o: f"create an advantage: {o.template} on "
                                                                  f"{_target(d, n, o.target)}"),
    op.SplitAdvantage: ("Create an advantage", lambda e, d, n, o: f"{o.template} on every foe in "
                                                                 f"{n.zones.get(o.zone, o.zone)} (split)"),
    op.Exploit: ("Create an advantage", lambda e, d, n, o: exploit_words(e.aspect(o.aspect))),
    op.RemoveAspect: ("Move", lambda e, d, n, o: f"overcome {e.aspects[o.aspect].name} (clear it)"),
    op.OvercomeMove: ("Move", lambda e, d, n, o: f"move to {n.zones.get(o.zone, o.zone)} (overcome the way)"),
    op.TurnToConflict: ("Attack", lambda e, d, n, o: "attack: the contest is over, it becomes a conflict"),
    op.ZoneTask: ("Move", lambda e, d, n, o: _zone_task_words(e, o)),
    op.SplitRemove: ("Move", lambda e, d, n, o: "overcome the aspects in the way here with one roll, split among them"),
    op.Share: ("Other", lambda e, d, n, o: f"put {o.effort} of the {d.context.get('left')} left into clearing "
                                           f"{e.aspect(o.aspect).name}"),
    op.Move: ("Move", lambda e, d, n, o: f"move to {n.zones.get(o.zone, o.zone)}"),
    op.Protect: ("Defend", lambda e, d, n, o: f"block for {n.name(o.ally)}"),
    op.Guard: ("Defend", lambda e, d, n, o: f"full defense guarding {n.name(o.ally)}: you meet their attackers at +2"),
    op.BlockAction: ("Defend", lambda e, d, n, o: f"block {n.name(o.target)}'s {o.action}"),
    op.SpendSpin: ("Defend", lambda e, d, n, o: f"spend {n.name(o.holder)}'s spin token (+1)"),
    op.ShieldWith: ("Defend", lambda e, d, n, o: f"shove {n.name(o.minion)} into the blow"),
    op.Invoke: ("Invoke", lambda e, d, n, o: _invoke_words(e, d, n, o)),
    Absorb: ("Take the hit", lambda e, d, n, o: _absorb_words(e, d, o)),
    op.Support: ("Other", lambda e, d, n, o: f"help {n.name(o.ally)} (+1 teamwork on their next roll)"),
    op.Next: ("Other", lambda e, d, n, o: f"hand the turn to {n.name(o.character)}"),
    op.Choose: ("Other", lambda e, d, n, o: _choice_words(d, o)),
}


def _zone_task_words(engine, o) -> str:
    spec = next(z.own_challenge for z in engine.scene.zones if z.id == o.zone)
    t = spec.tasks[o.task]
    return f"{spec.name}: {t.name} ({t.skill} against {describe(t.difficulty)})"


def _choice_words(decision, o) -> str:
    """A choice the rules leave open, in words; a hit with style is the attacker's to deal, one shift
    less for a boost (003:911-913)."""
    shifts = decision.context.get("shifts") if decision.kind == DecisionKind.STYLE else None
    if shifts is not None and o.option in ("full_hit", "boost"):
        return (f"deal the full hit ({shifts} shifts)" if o.option == "full_hit"
                else f"deal {shifts - 1} shifts and take a boost")
    return CHOICE_WORDS.get(o.option, o.option.replace("_", " "))


def words(engine, decision, narrator, o) -> tuple[str, str]:
    """(group, plain words) for one option."""
    kind = type(o)
    if kind in FIXED_WORDS:
        return FIXED_WORDS[kind]
    group_say = WORDS.get(kind) or getattr(BY_OPTION.get(kind), "menu", None)  # a new action's own words
    if group_say is not None:
        group, say = group_say
        return group, say(engine, decision, narrator, o)
    return "Other", op.key(o)


def _invoke_words(engine, decision, narrator, o) -> str:
    a = engine.aspects[o.aspect]
    pay = "a free invoke" if o.free else "a fate point"
    if not o.free and o.payer != decision.actor:
        pay += f" from {narrator.name(o.payer)}"
    if o.effect == "reroll":
        return f"invoke {a.name} with {pay}: reroll the dice"
    change = invoke_change(engine, decision, o)
    return f"invoke {a.name} with {pay}: +2" + (f", {change}" if change else "")


def invoke_change(engine, decision, o) -> str:
    """What a +2 invoke does to the roll it is about ("a tie becomes a success"); "" when there is
    no roll to measure (or the invoke rerolls)."""
    margin = _margin_for(engine, decision)
    if margin is None or o.effect != "bonus":
        return ""
    before, after = band_word(margin), band_word(margin + engine.invoke_bonus(decision.actor, o.free))
    return f"still {before}" if before == after else f"{before} becomes {after}"


def _absorb_words(engine, decision, o: Absorb) -> str:
    f = engine.t.f[decision.actor]
    track = decision.context.get("track", engine.kind)
    parts = []
    if o.boxes:
        tr = f.tracks[track]
        clear = len(tr.free())
        parts.append(f"mark {boxes_words(tr.values[b] for b in o.boxes)} ({clear} of {len(tr.values)} still clear)")
    for s in o.slots:
        slot = f.slots[s]
        parts.append(f"take a {slot.severity} consequence ({slot.value})" if slot.name is None
                     else f"mark {slot.name} ({slot.value})")
    return " and ".join(parts) or "no stress needed"


def _margin_for(engine, decision) -> int | None:
    """The roll being invoked on, as the deciding side sees it: the decision's own margin (a contest's
    is the roller's score against the best other side's, 003:1490-1518, not its effort against
    Mediocre), else the table's roll, effort minus opposition or the reverse."""
    ctx = decision.context or {}
    if "margin" in ctx:
        return ctx["margin"]
    r = engine.t.roll
    if r is None:
        return None
    actor = decision.actor
    mine = r.actor == actor or (r.actor in engine.t.f and actor in engine.t.f
                                and engine.t.f[r.actor].sheet.side == engine.t.f[actor].sheet.side)
    return r.margin if mine else -r.margin


def band_word(margin: int) -> str:
    return ("a failure" if margin < 0 else "a tie" if margin == 0 else "a success" if margin < 3
            else "a success with style")


def standing(engine, decision) -> str | None:
    """The running total an invoke decision is about: 'you are at Good (+3) against Great (+4): a failure by 1'
    (in a contest, against the best other side's score)."""
    ctx = decision.context or {}
    m = _margin_for(engine, decision)
    if m is None:
        return None
    if "effort" in ctx and "opposition" in ctx:
        us, them = ((ctx["effort"], ctx["opposition"]) if ctx.get("as_roller", True)
                    else (ctx["opposition"], ctx["effort"]))
    else:
        r = engine.t.roll
        us, them = (r.effort, r.opposition) if m == r.margin else (r.opposition, r.effort)
    by = f" by {abs(m)}" if m else ""
    return f"you are at {describe(us)} against {describe(them)}: {band_word(m)}{by}"


#: an action's roll in a sentence ("Sethra the Blade's attack on Cynere")
ROLL_WORDS = {"attack": "attack", "create_advantage": "advantage", "overcome": "overcome", "contest": "contest roll",
              "overcome_move": "move past an obstacle", "remove": "clearing of an aspect", "task": "task"}


def roll_about(engine, decision, name) -> str | None:
    """The roll a defense or an invoke question is about, in table words (``name``: a character's name): who
    attacks whom with what, and on an invoke round both sides' ratings, dice and totals so far. None for
    other questions (a hit to take says its own shifts and source)."""
    ctx = decision.context or {}
    if decision.kind == DecisionKind.RESPOND and "attacker" in ctx:
        weapon = f" (Weapon:{ctx['weapon']})" if ctx.get("weapon") else ""
        skill = f" with {ctx['skill']}" if ctx.get("skill") else ""
        return f"{name(ctx['attacker'])} attacks {name(decision.actor)}{skill}{weapon}; the dice come next"
    r = engine.t.roll
    if decision.kind != DecisionKind.INVOKE or r is None:
        return None
    what = ROLL_WORDS.get(r.action, r.action.replace("_", " "))
    on = f" on {name(r.target)}" if r.target and r.target in engine.f else ""
    bonus = f" {signed(r.bonus)} invoked" if r.bonus else ""
    mine = (f"{name(r.actor)}'s {what}{on} with {r.skill}: {describe(r.base)}, dice {show_faces(r.faces)}{bonus} = "
            f"{describe(r.effort)}")
    if r.opposer is None:
        return mine
    if r.active:
        obonus = f" {signed(r.opp_bonus)} invoked" if r.opp_bonus else ""
        theirs = (f"{name(r.opposer)} opposes with {r.opp_skill}: {describe(r.opp_base)}, dice "
                  f"{show_faces(r.opp_faces)}{obonus} = {describe(r.opposition)}")
    else:
        theirs = f"against a difficulty of {describe(r.opposition)}"
    return f"{mine}; {theirs}"


def short(items: list[Item], kind: str) -> list[Item]:
    """The sensible few: the proposal, then per group the best by chance of success (or the
    first listed where there are no odds). A small decision is shown whole."""
    if any(it.group == "Take the hit" and it.text != FIXED_WORDS[TakenOut][1] for it in items):
        # absorbing is on offer: being taken out all the same stays a tap away ("more"), not beside it
        items = [it for it in items if it.proposed or it.text != FIXED_WORDS[TakenOut][1]]
    if len(items) <= SMALL:
        return items
    keep: dict[int, Item] = {it.number: it for it in items if it.proposed}
    by_group: dict[str, list[Item]] = {}
    for it in items:
        by_group.setdefault(it.group, []).append(it)
    for group, members in by_group.items():
        if group == "Attack":  # the best attack on each foe, the foes in order of that chance
            best: dict[str, Item] = {}
            for it in members:
                target = it.text.split(" with ")[0]
                if target not in best or it.success > best[target].success:
                    best[target] = it
            members = list(best.values())
        if group == "Invoke":  # a +2 on each aspect, free invokes first; rerolls behind 'more'
            members = [it for it in members if "reroll" not in it.text]
            seen, firsts = set(), []
            for it in sorted(members, key=lambda it: ("free invoke" not in it.text and not it.text.startswith("no ")),):
                name = it.text.split(" with ")[0]
                if name not in seen:
                    seen.add(name)
                    firsts.append(it)
            members = firsts
        ranked = sorted(members, key=lambda it: -it.success) if any(it.odds for it in members) else members
        for it in ranked[:SHORT_PER_GROUP.get(group, 1)]:
            keep.setdefault(it.number, it)
    return sorted(keep.values(), key=lambda it: (GROUPS.index(it.group), it.number))


def render(items: list[Item], all_count: int) -> list[str]:
    """The items under their group headings, and how to see the rest."""
    out, group = [], None
    for it in sorted(items, key=lambda it: (GROUPS.index(it.group), it.number)):
        if it.group != group:
            group = it.group
            out.append(f"  {group}:")
        out.append("  " + it.line())
    if len(items) < all_count:
        out.append(f"  ... {all_count - len(items)} more: type 'more' to see all {all_count}")
    return out
