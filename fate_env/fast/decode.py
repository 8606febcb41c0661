"""The kernel's integer event rows spelled back as the reference engine's event objects.

Only logs need this (the differential test, ``scripts/diff_cores.py``, a narrated fight);
benchmarks read the final state instead. The strings here are the reference's own: the event
fields, the option keys, and the ``basic`` policy's one-line reasons.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from fate_env.content.reasons import REASONS, reason
from fate_env.rules import events as ev
from fate_env.rules.end import Outcome
from fate_env.rules.kinds import AspectKind, DecisionKind
from fate_env.rules.options import (
    Attack, Choose, Concede, CreateAdvantage, Defend, DoneInvoking, ForgoDefense, FullDefense, Exploit, Invoke, Move, Next,
    Hold, OfferConcession, OvercomeMove, Pass, Protect, RemoveAspect, ShoveInto, SpendSpin, Stay, Support, ZoneAttack,
    BlockAction, NoAdvantage, NoSupport, RollFor, TakeTask, TurnToConflict, TurnToContest,
)
from fate_env.rules.rolls import band
from fate_env.rules.stress import Absorb, TakenOut

from .kernel import layout as k
from .tables import SEVERITIES, TRACKS, Tables

# the kernel's codes spelled with the words its layout declares them by
KINDS = tuple(DecisionKind(word) for word in k.DECISIONS)
ACTIONS = k.ACTIONS
ASPECT_KINDS = tuple(AspectKind(word) for word in k.ASPECT_KINDS)
MAJOR_COSTS = k.MAJOR_COSTS
#: the options that carry no field, by code
BARE = {k.O_CONCEDE: Concede, k.O_FULLDEF: FullDefense, k.O_PASS: Pass, k.O_DEFEND: Defend, k.O_DONE: DoneInvoking,
        k.O_TAKENOUT: TakenOut, k.O_STAY: Stay, k.O_FORGO: ForgoDefense, k.O_OFFER: OfferConcession, k.O_HOLD: Hold,
        k.O_NO_SUPPORT: NoSupport, k.O_NO_ADVANTAGE: NoAdvantage, k.O_TO_CONFLICT: TurnToConflict,
        k.O_TO_CONTEST: TurnToContest}
CHOICES = {k.O_FULLHIT: "full_hit", k.O_NO_ASPECT: "no_aspect", k.O_MINOR_COST: "minor_cost", k.O_FAIL: "fail",
           k.O_MAJOR_COST: "major_cost", k.O_BOOST_HIT: "boost", k.O_FOR_ENEMY: "aspect_for_enemy", k.O_FAIL_BOOST: "fail_with_boost",
           k.O_STAND_ASIDE: "stand_aside", k.O_STAND_IN: "stand_in", k.O_ACCEPT: "accept", k.O_REFUSE: "refuse",
           k.O_ACT_NOW: "act_now", k.O_KEEP_HOLDING: "keep_holding", k.O_TAKE_ASPECT: "take_aspect",
           k.O_AVOID_ASPECT: "avoid_aspect", k.O_FORFEIT: "forfeit", k.O_PAY: "pay"}


def _target(tb: Tables, code: int) -> str | None:
    """A target code (kernel.TGT_*) as the reference names it: a character, a zone, the scene."""
    if code < 0:
        return None
    if code >= k.TGT_ZONE:
        return tb.zones[code - k.TGT_ZONE]
    if code == k.TGT_SCENE:
        return "scene"
    return tb.ids[code]


def _mask(m: int) -> tuple[int, ...]:
    return tuple(i for i in range(63) if m >> i & 1)


#: the kernel's reason codes (kernel.R_*) -> the shared reasons (content/reasons.py)
REASON_KEYS = {
    k.R_T_CONCEDE: "concede", k.R_T_ATTACK: "attack", k.R_T_SMASH: "smash", k.R_T_STEP: "step",
    k.R_T_FULLDEF: "full_defense", k.R_T_NOTHING: "nothing", k.R_R_CONCEDE: "concede_first", k.R_R_DEFEND: "defend",
    k.R_I_ENOUGH: "enough", k.R_I_HOLDS: "holds", k.R_I_CANNOT: "cannot_pay", k.R_I_NOOWN: "no_own",
    k.R_S_FULL: "full_hit", k.R_A_LEAST: "least_cost", k.R_A_NOTHING: "nothing_left", k.R_N_ALLY: "hand_over",
    k.R_N_WEAKEST: "let_weakest", k.R_M_STAYS: "stay", k.R_M_CLOSES: "close_in", k.R_M_HOLDS: "hold_position",
    k.R_T_BACKS: "back_off", k.R_T_SHOOTS: "shoot", k.R_M_FALLS: "fall_back", k.R_T_SETS_UP: "set_up",
    k.R_C_NOTHING: "give_nothing", k.R_T_GUARDS: "guard", k.R_T_CASHES: "cash_in", k.R_T_SETS_UP_ON: "set_up_on",
    k.R_T_FOCUSES: "focus", k.R_T_SETS_UP_FOR: "set_up_for", k.R_RANDOM: "random", k.R_AGENT: "agent",
    k.R_T_FORCES: "force_way", k.R_C_MINOR: "minor_cost", k.R_C_MAJOR: "major_cost", k.R_C_HURT: "too_hurt",
    k.R_N_HOLDER: "hand_to_holder", k.R_I_CASHES: "cash_invoke", k.R_I_STACKS: "stacked_invoke",
    k.R_A_OFFER: "offer_concession", k.R_CN_ACCEPT: "accept_concession", k.R_H_ACT: "act_now", k.R_C_TAKES: "take_aspect", k.R_I_SPIN: "spend_spin", k.R_T_MINOR_STEP: "minor_step", k.R_T_PROTECT: "protect", k.R_T_BLOCKS: "block_attacks",
    k.R_CT_ROLL: "contest_roll", k.R_CT_HELPS: "contest_help", k.R_CT_NORANK: "contest_no_rank",
    k.R_CT_ALLIN: "contest_all_in", k.R_CT_KEEP: "contest_keep", k.R_CT_TASK: "task_odds", k.R_CT_DONE: "task_done",
    k.R_T_TASK: "work_on_task", k.R_T_RETREAT: "retreat", k.R_T_SPREAD: "spread",
    k.R_T_STACKS: "stack", k.R_T_BLAST: "blast", k.R_T_OUTMATCHED: "outmatched", k.R_T_BACKS_UP: "back_up", k.R_T_CLOSES: "close_in_better", k.R_C_ONLY: "only_way",
    **{base + bear: f"{word}_invoke_{how}" for base, word in ((k.R_I_FREE, "free"), (k.R_I_PAID, "paid"))
       for bear, how in enumerate(k.BEARINGS)},
}
#: the option fields a reason may name
OPTION_FIELDS = ("target", "skill", "zone", "character", "template", "ally", "holder")


def decode_option(tb: Tables, row: np.ndarray) -> Any:
    o = int(row[5])
    x1, x2, x3 = int(row[6]), int(row[7]), int(row[8])
    if o in BARE:
        return BARE[o]()
    if o == k.O_ATTACK:
        return Attack(tb.ids[x1], tb.skills[x2])
    if o == k.O_MOVE:
        return Move(tb.zones[x1])
    if o == k.O_INVOKE:
        return Invoke(x1, tb.ids[x2], bool(x3), "reroll" if int(row[10]) else "bonus")
    if o == k.O_ABSORB:
        return Absorb(_mask(x1), _mask(x2))
    if o == k.O_NEXT:
        return Next(tb.ids[x1])
    if o == k.O_ADVANTAGE:
        return CreateAdvantage(tb.scene.advantages[x1].name, _target(tb, x2))
    if o in CHOICES:
        return Choose(CHOICES[o])
    if o == k.O_OVERCOME:
        return OvercomeMove(tb.zones[x1])
    if o == k.O_EXPLOIT:
        return Exploit(x1)
    if o == k.O_REMOVE:
        return RemoveAspect(x1)
    if o == k.O_SUPPORT:
        return Support(tb.ids[x1])
    if o == k.O_ZONEATTACK:
        return ZoneAttack(tb.zones[x1], tb.skills[x2])
    if o == k.O_SPIN:
        return SpendSpin(tb.ids[x1])
    if o == k.O_PROTECT:
        return Protect(tb.ids[x1])
    if o == k.O_BLOCKACT:
        return BlockAction(tb.ids[x1], k.BLOCK_KINDS[x2])
    if o == k.O_SHOVE:
        return ShoveInto(tb.ids[x1], tb.skills[x2], tb.blocks[x3])
    if o == k.O_ROLLFOR:
        return RollFor(tb.ids[x1], tb.skills[x2])
    if o == k.O_TASK:
        return TakeTask(x1, tb.ids[x2])
    raise ValueError(f"unknown option code {o}")


def events(tb: Tables, EV: np.ndarray, n: int, CH: np.ndarray) -> list[ev.Event]:
    """The events of one episode: ``ConflictStarted`` from the scene, then the kernel's rows (each
    read by its code's reader in :data:`READERS`, or, for a contest's running tally and the end's
    payouts, here)."""
    scene = tb.scene
    sides: dict[str, list[str]] = {}
    for c in scene.characters:
        sides.setdefault(c.side, []).append(c.id)
    out: list[ev.Event] = [_started(tb, sides)]
    victories = {s: 0 for s in sides}
    scores: dict[str, int] = {}
    for row in EV[:n]:
        code = int(row[0])
        a = [int(x) for x in row[1:]]
        read = READERS.get(code)
        if read is not None:
            out.append(read(tb, a))
        elif code == k.E_DECISION:
            option = decode_option(tb, row)
            out.append(ev.DecisionMade(KINDS[a[0]], tb.ids[a[1]], option, a[2], _reason_with_names(tb, a, option)))
        elif code == k.E_CSCORE:
            scores[tb.sides[a[0]]] = a[1]
        elif code == k.E_CRESULT:
            winner = None if a[1] < 0 else tb.sides[a[1]]
            if winner is not None:
                victories[winner] += a[2]
            out.append(ev.ExchangeResult(a[0], scores, winner, a[2], None if a[3] < 0 else tb.names[a[3]],
                                         dict(victories)))
            scores = {}
        elif code == k.E_CONSTARTED:
            out.append(ev.ContestStarted(scene.name, scene.rules.name, sides, scene.contest.victories, scene.contest.mode))
            victories = {s: 0 for s in sides}
        elif code == k.E_CSTARTED:
            out.append(ev.ConflictStarted(scene.name, scene.rules.name, scene.conflict, sides, a[0]))
        elif code == k.E_ENDED:
            out.append(ev.ConflictEnded(None if a[0] < 0 else tb.sides[a[0]], a[1], bool(a[2]), payouts(tb, CH)))
        else:
            raise ValueError(f"unknown event code {code}")
    return out


def _who(tb: Tables, x: int) -> str | None:
    return None if x < 0 else tb.ids[x]


def _roller(tb: Tables, x: int) -> str:
    """A roll's roller: a character, or a hazard (its code below HZ_ROLLER: layout)."""
    return tb.scene.hazards[k.HZ_ROLLER - x].name if x <= k.HZ_ROLLER else tb.ids[x]


def _rolled(tb: Tables, a: list[int]) -> ev.Rolled:
    """A roll, with the notes its packed word carries (a[10]); a hazard rolls its rating, named as its skill."""
    if a[0] <= k.HZ_ROLLER:
        name = _roller(tb, a[0])
        return ev.Rolled(name, ACTIONS[a[1]], name, a[3], a[4], (a[5], a[6], a[7], a[8]), ())
    ids = tb.ids
    fd, tw, lead, gear, pen = a[10] & 0xFF, a[10] >> 8 & 0xFF, a[10] >> 16 & 0xFFFFFF, a[10] >> 40 & 0xFF, \
        a[10] >> 48 & 7
    solo, scale, minor = a[10] >> 51 & 31, a[10] >> 56 & 15, a[10] >> 60 & 7
    notes = ((f"stunt +{a[9]}",) if a[9] else ()) + \
        ((f"{ids[lead - 1]} leads the teamwork",) if lead else ()) + \
        ((f"teamwork +{tw}",) if tw else ()) + (("full defense +2",) if fd else ()) + \
        ((f"solo +{solo}",) if solo else ()) + ((f"minor actions -{minor}",) if minor else ()) + \
        ((f"consequences -{pen}",) if pen else ()) + \
        ((f"scale +{scale}",) if scale else ()) + \
        ((f"{'armor' if a[1] == k.ACT_DEFEND else 'weapon'} +{gear}",) if gear else ())
    return ev.Rolled(ids[a[0]], ACTIONS[a[1]], tb.skills[a[2]], a[3], a[4], (a[5], a[6], a[7], a[8]), notes)


def _invoked(tb: Tables, a: list[int]) -> ev.Invoked:
    reroll = bool(a[6])
    return ev.Invoked(tb.ids[a[0]], tb.names[a[5]], a[1], tb.ids[a[2]], bool(a[3]), "reroll" if reroll else "bonus",
                      _who(tb, a[4]), (a[7], a[8], a[9], a[10]) if reroll else None)


def _countdown_ended(tb: Tables, a: list[int]) -> ev.CountdownEnded:
    cd = tb.scene.countdowns[a[0]]
    return ev.CountdownEnded(cd.name, cd.text, cd.winner, cd.aspect.name if cd.aspect else None)


def _removed(tb: Tables, a: list[int]) -> ev.AspectRemoved:
    why = {k.WHY_USED: "boost used", k.WHY_EXPIRED: "boost expired", k.WHY_FRAGILE: "fragile: tagged once",
           k.WHY_REPLACED: "replaced by an extreme consequence"}.get(a[2]) or f"cleared by {tb.ids[a[3]]}"
    return ev.AspectRemoved(tb.names[a[1]], a[0], why)


def _absorbed(tb: Tables, a: list[int]) -> ev.Absorbed:
    c = a[0]
    boxes, slots = _mask(a[3]), _mask(a[4])
    values = tuple(tb.box_values[c][b] for b in boxes)
    cons = tuple(f"{tb.slot_info[c][s][0]}: {tb.names[a[5 + j]]}" for j, s in enumerate(slots))
    return ev.Absorbed(tb.ids[c], a[1], TRACKS[a[2]], boxes, values, cons)


def _blast(tb: Tables, a: list[int]) -> ev.ZoneAttacked:
    caught = tuple(tb.ids[w * k.BLAST_BITS + b] for w in range(8) for b in range(k.BLAST_BITS) if a[3 + w] >> b & 1)
    return ev.ZoneAttacked(tb.ids[a[0]], tb.zones[a[1]], tb.skills[a[2]], caught)


#: the kernel's event codes that read alone (no running tally): code -> its event, from the row's fields
READERS: dict[int, Callable[[Tables, list[int]], ev.Event]] = {
    k.E_EXCHANGE: lambda tb, a: ev.ExchangeStarted(a[0]),
    k.E_TURN: lambda tb, a: ev.TurnStarted(tb.ids[a[0]], a[1]),
    k.E_ROLLED: _rolled,
    k.E_INVOKED: _invoked,
    k.E_RESOLVED: lambda tb, a: ev.Resolved(_roller(tb, a[0]), ACTIONS[a[1]], a[2], a[3], a[4], band(a[4]),
                                            _target(tb, a[5])),
    k.E_CDMARKED: lambda tb, a: ev.CountdownMarked(tb.scene.countdowns[a[0]].name, a[1], a[2]),
    k.E_CDENDED: _countdown_ended,
    k.E_CDSTOPPED: lambda tb, a: ev.CountdownStopped(tb.scene.countdowns[a[0]].name, tb.ids[a[1]]),
    k.E_OFFERED: lambda tb, a: ev.ConcessionOffered(tb.ids[a[0]], tb.ids[a[1]]),
    k.E_ANSWERED: lambda tb, a: ev.ConcessionAnswered(tb.ids[a[0]], tb.ids[a[1]], bool(a[2]), a[3]),
    k.E_FORFEIT: lambda tb, a: ev.TurnForfeited(tb.ids[a[0]], "full defense" if a[1] == k.FORFEIT_FULLDEF
                                                else "held to the end of the exchange"),
    k.E_SOLO: lambda tb, a: ev.SoloBonus(tb.ids[a[0]], k.SOLO_BONUSES[a[1]], a[2]),
    k.E_COVER: lambda tb, a: ev.Cover(tb.ids[a[0]], tb.blocks[a[1]], a[2]),
    k.E_HAZARD: lambda tb, a: ev.HazardActs(tb.scene.hazards[a[0]].name, tb.ids[a[1]]),
    k.E_PROTECTING: lambda tb, a: ev.Protecting(tb.ids[a[0]], tb.ids[a[1]], a[2]),
    k.E_BLOCKING: lambda tb, a: ev.Blocking(tb.ids[a[0]], tb.ids[a[1]], k.BLOCK_KINDS[a[2]], a[3]),
    k.E_BLOCKTESTED: lambda tb, a: ev.BlockTested(tb.ids[a[0]], tb.ids[a[1]], k.BLOCK_KINDS[a[2]], bool(a[3])),
    k.E_BLOCKHELD: lambda tb, a: ev.BlockHeld(tb.ids[a[0]], tb.ids[a[1]], a[2]),
    k.E_SPRINTED: lambda tb, a: ev.Sprinted(tb.ids[a[0]], a[1], tb.zones[a[2]], a[3]),
    k.E_MINOR: lambda tb, a: ev.MinorAction(tb.ids[a[0]], "move", a[1]),
    k.E_SPIN: lambda tb, a: ev.Spin(tb.ids[a[0]], a[1], _who(tb, a[2])),
    k.E_AVOIDED: lambda tb, a: ev.ManeuverAvoided(tb.ids[a[0]], tb.names[a[1]]),
    k.E_HELD: lambda tb, a: ev.ActionHeld(tb.ids[a[0]]),
    k.E_STOODIN: lambda tb, a: ev.StoodIn(tb.ids[a[0]], tb.ids[a[1]], tb.ids[a[2]]),
    k.E_PASSIVE: lambda tb, a: ev.PassiveOpposition(_roller(tb, a[0]), ACTIONS[a[1]], a[2], _passive_why(tb, a)),
    k.E_MAJOR: lambda tb, a: ev.MajorCost(tb.ids[a[0]], MAJOR_COSTS[a[1]], tb.names[a[3]], a[2]),
    k.E_CREATED: lambda tb, a: ev.AspectCreated(tb.names[a[0]], a[1], ASPECT_KINDS[a[2]],
                                                None if a[3] == k.TGT_SCENE else _target(tb, a[3]), a[4],
                                                _who(tb, a[5])),
    k.E_BOOST: lambda tb, a: ev.AspectCreated(tb.names[a[0]], a[1], AspectKind.BOOST, None, 1, tb.ids[a[2]]),
    k.E_REMOVED: _removed,
    k.E_NEXT: lambda tb, a: ev.NextActor(tb.ids[a[0]], tb.ids[a[1]], bool(a[2])),
    k.E_HIT: lambda tb, a: ev.Hit(tb.ids[a[0]], _who(tb, a[1]), a[2], TRACKS[a[3]], _hit_note(tb, a)),
    k.E_ABSORBED: _absorbed,
    k.E_MOBHIT: lambda tb, a: ev.MobHit(tb.ids[a[0]], a[1], a[2], a[3]),
    k.E_TAKENOUT: lambda tb, a: ev.TakenOutEvent(tb.ids[a[0]], _who(tb, a[1])),
    k.E_CONCEDED: lambda tb, a: ev.Conceded(tb.ids[a[0]], a[1]),
    k.E_MOVED: lambda tb, a: ev.Moved(tb.ids[a[0]], tb.zones[a[1]], tb.zones[a[2]], bool(a[3])),
    k.E_FULLDEF: lambda tb, a: ev.FullDefenseDeclared(tb.ids[a[0]]),
    k.E_GAINED: lambda tb, a: ev.FreeInvokeGained(tb.ids[a[0]], tb.names[a[2]], a[1], a[3]),
    k.E_SUPPORT: lambda tb, a: ev.SupportPledged(tb.ids[a[0]], tb.ids[a[1]]),
    k.E_PASSED: lambda tb, a: ev.Passed(tb.ids[a[0]]),
    k.E_CPLAN: lambda tb, a: ev.ContestPlan(tb.sides[a[0]], tb.ids[a[1]], tb.skills[a[2]], _members(tb, a[3])),
    k.E_FORFEITED: lambda tb, a: ev.Forfeited(tb.sides[a[0]], tb.ids[a[1]], "support" if a[2] else "roll"),
    k.E_BECAME: lambda tb, a: ev.BecameConflict(tb.ids[a[0]], a[1]),
    k.E_TASKRES: lambda tb, a: ev.TaskResult(**_task(tb, a)),
    k.E_BECAMECON: lambda tb, a: ev.BecameContest(tb.ids[a[0]], a[1]),
    k.E_BLAST: _blast,
}


def _started(tb: Tables, sides: dict[str, list[str]]) -> ev.Event:
    """The scene's first event: its flow starts (rules/flows: a conflict's, a contest's or a challenge's)."""
    scene = tb.scene
    if scene.kind == "contest":
        return ev.ContestStarted(scene.name, scene.rules.name, sides, scene.contest.victories, scene.contest.mode)
    if scene.kind == "challenge":
        return ev.ChallengeStarted(scene.name, scene.rules.name, scene.challenge.side,
                                   [task.name for task in scene.challenge.tasks])
    return ev.ConflictStarted(scene.name, scene.rules.name, scene.conflict, sides, int(tb.P[k.P_GMPOOL]))


def _task(tb: Tables, row: list[int]) -> dict[str, Any]:
    """A task's result (G_TASKRES's or E_TASKRES's row), as the reference records it (task.attempt_task)."""
    return {"task": tb.scene.challenge.tasks[row[0]].name, "character": tb.ids[row[1]], "effort": row[2],
            "difficulty": row[3], "outcome": band(row[4]), "result": k.TASK_RESULTS[row[5]]}


def _members(tb: Tables, mask: int) -> tuple[str, ...]:
    """The characters a bit mask names, in the scene's order (a contest plan's supporters)."""
    return tuple(cid for i, cid in enumerate(tb.ids) if mask >> i & 1)


def _passive_why(tb: Tables, a: list[int]) -> str:
    """A passive opposition's reason, from E_PASSIVE's why code (kernel.WHY_PASSIVE_*) and its argument."""
    why, arg, ids, names = a[4], a[3], tb.ids, tb.names
    if why == k.WHY_PASSIVE_TEMPLATE:
        return f"create {tb.scene.advantages[arg].name}" if a[1] == k.ACT_ADVANTAGE else f"move to {_target(tb, arg)}"
    return {k.WHY_PASSIVE_EXPLOIT: lambda: f"take advantage of {names[arg]}",
            k.WHY_PASSIVE_CLEAR: lambda: f"clear {names[arg]}",
            k.WHY_PASSIVE_FORGO: lambda: f"{ids[arg]} forgoes the defense",
            k.WHY_PASSIVE_HAZARD: lambda: f"take advantage of {names[arg]}, a hazard",
            k.WHY_PASSIVE_SPRINT: lambda: f"sprint to {_target(tb, arg)}",
            k.WHY_PASSIVE_PROTECT: lambda: f"block for {ids[arg]}",
            k.WHY_PASSIVE_BLOCK: lambda: f"block {ids[arg // 3]}'s {k.BLOCK_KINDS[arg % 3]}",
            k.WHY_PASSIVE_PAST: lambda: f"past {ids[arg]}'s block",
            k.WHY_PASSIVE_TASK: lambda: tb.scene.challenge.tasks[arg].name}[why]()


def _hit_note(tb: Tables, a: list[int]) -> tuple[str, ...]:
    """A Hit's notes, from E_HIT's note code and its two fields (kernel.HIT_*)."""
    note = a[4]
    if note == k.HIT_WEAPON_TIE:
        return ("weapon on a tie",)
    if note == k.HIT_WEAPON:
        return (f"weapon {a[5]}, armor {a[6]}",)
    if note == k.HIT_FORCED_TIE:
        return (f"forced into {tb.blocks[a[5]]}",)
    if note == k.HIT_FORCED:
        return (f"forced into {tb.blocks[a[5]]}, weapon {a[6]}",)
    if note == k.HIT_CROSSING:
        return (tb.blocks[a[5]],)
    if note == k.HIT_HAZARD:
        hz = tb.scene.hazards[a[5]]
        return (f"{hz.name}: weapon {hz.weapon}" + (f", armor {a[6]}" if a[6] else ""),)
    return ()


def _reason_with_names(tb: Tables, a: list[int], option: Any) -> str:
    """A decision row's reason: the option's fields, and for the reasons that name more, the
    aspect (field 8), the free invokes held (field 9) or the skill (field 6) the row carries."""
    key = REASON_KEYS.get(a[3])
    if key is None:
        raise ValueError(f"unknown reason code {a[3]}")
    fields = {f: getattr(option, f) for f in OPTION_FIELDS if hasattr(option, f)}
    if "{task}" in REASONS[key]:
        fields["task"] = tb.scene.challenge.tasks[option.task].name
    if "{aspect}" in REASONS[key]:
        fields["aspect"] = tb.names[a[8]]
    if key == "stack":
        fields["held"] = a[9]
    if key == "blast":
        fields["foes"] = a[9]
    if key == "offer_concession":
        fields["severity"] = SEVERITIES[a[9]]
    if key == "accept_concession":
        fields["offerer"] = tb.ids[a[9]]
    if key == "back_up":
        fields["skill"] = tb.skills[a[6]]
    if key == "close_in_better":
        fields["skill"], fields["mediocre"] = tb.skills[a[6]], tb.skills[a[7]]
    return reason(key, tb.scene.display_names, **fields)


def payouts(tb: Tables, CH) -> dict[str, int]:
    """Fate points owed at the end (end.finish): hostile invokes, and concessions."""
    CH = CH.tolist() if isinstance(CH, np.ndarray) else CH
    facts = tb.scene.rules.facts  # the rule set's payout, as end.finish reads it
    out = {}
    for i, cid in enumerate(tb.ids):
        row = CH[i]
        pay = row[k.C_OWED] + (facts.concession_payout(row[k.C_CTAKEN]) if row[k.C_STATUS] == k.CONCEDED else 0)
        if pay:
            out[cid] = pay
    return out


def outcome(tb: Tables, CH, SLOTA, G) -> Outcome:
    """The reference's ``Outcome`` record from the kernel's final state (arrays, or their
    ``tolist()``: a batch converts once, which is most of the cost of a record)."""
    CH = CH.tolist() if isinstance(CH, np.ndarray) else CH
    SLOTA = SLOTA.tolist() if isinstance(SLOTA, np.ndarray) else SLOTA
    G = G.tolist() if isinstance(G, np.ndarray) else G
    ids = tb.ids
    names = tb.names
    pays = payouts(tb, CH)
    consequences = {}
    for i, cid in enumerate(ids):
        got = [{"severity": sev, "aspect": names[CH[i][k.C_SLOTNAME + s]]} for s, (sev, _) in enumerate(tb.slot_info[i])
               if SLOTA[i][s] >= 0]
        if got:
            consequences[cid] = got
    fp_start = tb.fp_start
    return Outcome(
        winner=None if G[k.G_WINNER] < 0 else tb.sides[G[k.G_WINNER]],
        exchanges=G[k.G_EXCHANGE],
        unresolved=bool(G[k.G_UNRESOLVED]),
        taken_out={cid: (None if CH[i][k.C_TOOKBY] < 0 else ids[CH[i][k.C_TOOKBY]])
                   for i, cid in enumerate(ids) if CH[i][k.C_STATUS] == k.TAKEN_OUT},
        conceded=[cid for i, cid in enumerate(ids) if CH[i][k.C_STATUS] == k.CONCEDED],
        consequences=consequences,
        fate_points={cid: {"start": fp_start[i], "spent": CH[i][k.C_FPSPENT], "payout": pays.get(cid, 0),
                           "end": CH[i][k.C_FP]} for i, cid in enumerate(ids)},
        gm_pool={"start": tb.gm_start, "spent": G[k.G_GMSPENT], "end": G[k.G_GMPOOL]},
        payouts=pays,
        kind=tb.scene.kind,
        **_contest_extra(tb, G),
    )


def outcome_width(scene) -> int:
    """How much of a fight's G ``outcome`` reads: a conflict's globals, and a contest's and a challenge's state
    past them only where the scene holds one (a batch converts no more than that to lists)."""
    return k.NG if scene.contest is not None or scene.challenge is not None else k.G_CONTEST


def _contest_extra(tb: Tables, G) -> dict[str, Any]:
    """A contest's victories, while the scene ended as one (not the conflict it turned into); a challenge's
    tasks."""
    out: dict[str, Any] = {}
    if tb.scene.contest is None and tb.scene.challenge is None:
        return out
    if tb.scene.kind == "challenge" or G[k.G_NTASKRES]:  # the results, when a challenge ran (end.finish)
        out["tasks"] = [_task(tb, G[k.G_TASKRES + k.TRW * j:k.G_TASKRES + k.TRW * (j + 1)])
                        for j in range(G[k.G_NTASKRES])]
    if G[k.G_CONTEST]:
        out["victories"] = {side: G[k.G_VICT + i] for i, side in enumerate(tb.sides)}
    return out
