"""A conflict's flow: exchanges of turns until one side is left (003:1536-1733; 000:152-537).

Reads in the order a table plays: exchange → turn (free move, action, free move) → next actor
(popcorn, 003:1542-1557) or the next by skills (Core, 000:248-252) → … The flow resumes from
``table.cursor`` (the actor about to take a turn and, in popcorn order, the exchange's opener),
so the engine can rebuild it from a checkpoint at any turn's start. A conflict that turns into
the scene's contest goes on in the contest's flow (``yield from``).
"""

from __future__ import annotations


from .. import countdowns, hazards
from .. import events as ev
from ..actions import BY_OPTION, turn_options
from ..actions.block import get_past
from ..aspects import boost, expire_boosts
from ..decisions import RECONSIDER, Flow, ask
from ..end import finish
from ..kinds import DecisionKind, SceneKind
from ..options import Choose, Hold, Move, Next, Stay
from ..reach import free_moves, skill_order
from ..steps import move_to
from .registry import FLOWS
from ..play import Play


def run(e: "Play") -> Flow:
    t = e.t
    popcorn = e.facts.popcorn
    if t.cursor is None and e.contest_immune is not None and not t.immunity_broken:
        t.mode = SceneKind.CONTEST  # the group must win this contest first (003:2527-2532)
        yield from FLOWS["contest"](e)
        return
    if t.cursor is None:
        sides: dict[str, list[str]] = {}
        for cid in t.order:  # the table's, not the scene's: a character the GM adds later is not here yet
            sides.setdefault(t.f[cid].sheet.side, []).append(cid)
        e.emit(ev.ConflictStarted(e.scene.name, e.rules.name, e.kind, sides, t.gm_pool))
        opener = t.to_conflict or e.scene.first or skill_order(e)[0]
        if not begin_exchange(e):
            return
        if popcorn:
            t.cursor = _opening(e, opener)
        else:
            t.cursor = yield from _advance(e, -1)
            if t.cursor is None:  # the hazards ended it before anyone's turn
                finish(e)
                return
    while True:
        e.checkpoint()
        if popcorn:
            actor, opener = t.cursor
        else:
            actor = skill_order(e)[t.cursor]
        yield from turn(e, actor)
        if actor not in t.held:
            t.acted.add(actor)
            if e.scene.countdowns:
                countdowns.trigger(e, "turn", actor)
        if t.to_contest is not None:
            yield from become_contest(e)
            return
        if not popcorn:
            if t.held and not t.is_over():
                yield from held_turns(e, actor)
                if t.to_contest is not None:
                    yield from become_contest(e)
                    return
            if t.is_over():
                finish(e)
                return
            i = yield from _advance(e, t.cursor)
            if i is None and not t.is_over():
                for c in t.held:  # held past the exchange's end: the turn is lost (001:84)
                    e.emit(ev.TurnForfeited(c, "held to the end of the exchange"))
                t.held = ()
                if not begin_exchange(e):
                    return
                i = yield from _advance(e, -1)
            if t.is_over():
                finish(e)
                return
            t.cursor = i
            continue
        if e.scene.hazards and not t.is_over() and all(c in t.acted for c in t.active_ids()):
            yield from hazards.act(e)  # the hazards' turns close the exchange (rules/hazards.py)
        pick = RECONSIDER
        while pick is RECONSIDER:  # asked again if someone concedes meanwhile
            if t.is_over():
                finish(e)
                return
            remaining = [c for c in t.active_ids() if c not in t.acted]
            chooser = actor if t.f[actor].active else stand_in(e, actor)
            pool = remaining or t.active_ids()
            pick = yield from ask(e, DecisionKind.NEXT, chooser, [Next(c) for c in pool],
                                  opens_exchange=None if remaining else t.exchange + 1)
        e.emit(ev.NextActor(chooser, pick.character, not remaining))
        if remaining:
            t.cursor = (pick.character, opener)
        else:
            if not begin_exchange(e):
                return
            t.cursor = _opening(e, pick.character)


def held_turns(e: "Play", after: str) -> Flow:
    """Between turns, each character holding its action may take its turn now (001:82-84): asked
    in the order they held, again after each held turn taken, until all hold on."""
    t = e.t
    asked = True
    while asked and not t.is_over() and t.to_contest is None:
        asked = False
        for c in t.held:
            if c == after or not t.f[c].active:
                continue
            pick = yield from ask(e, DecisionKind.HOLD, c, [Choose("act_now"), Choose("keep_holding")])
            if pick is RECONSIDER:
                asked = True
                break
            if pick.option == "act_now":
                t.held = tuple(x for x in t.held if x != c)
                yield from turn(e, c)
                t.acted.add(c)
                if e.scene.countdowns:
                    countdowns.trigger(e, "turn", c)
                after, asked = c, True
                break
    t.held = tuple(c for c in t.held if t.f[c].active)


def begin_exchange(e: "Play") -> bool:
    """A new exchange, unless the scene has run out of them (then it ends unresolved)."""
    t = e.t
    if t.exchange and e.scene.countdowns:
        countdowns.trigger(e, "exchange")  # the exchange that just ended (003:2186-2187)
        if t.decided is not None:
            finish(e)
            return False
    t.exchange += 1
    if t.exchange > e.rules.max_exchanges:
        t.exchange -= 1
        finish(e, unresolved=True)
        return False
    e.emit(ev.ExchangeStarted(t.exchange))
    t.held, t.held_once = (), frozenset()
    if t.protected or t.blocked:
        t.protected, t.blocked = {}, {}  # a block lasts the exchange it is rolled in (002:46-47)
    if e.facts.exchange_defense:  # a full defense lasts the exchange it is declared in (001:80)
        for f in t.f.values():
            f.full_defense, f.ward = False, None
    t.acted = set()
    t.set_back = set()
    return True


def _opening(e: "Play", opener: str) -> tuple[str, str]:
    """Popcorn: the opener acts first, or the first one still in the fight."""
    t = e.t
    return (opener if t.f[opener].active else t.active_ids()[0], opener)


def _advance(e: "Play", after: int) -> Flow:
    """By skills: the next character still in the fight after position ``after`` (None at the
    exchange's end), once the hazards placed between the two have taken their turns."""
    while True:
        i = _next_in_order(e, after)
        if e.scene.hazards:
            upto = len(skill_order(e)) if i is None else i
            yield from hazards.act(e, [hz for hz, slot in hazards.slots(e) if after < slot <= upto])
            if e.t.is_over():
                return None
            if i is not None and not e.t.f[skill_order(e)[i]].active:
                after = i  # the hazard took the next one out: on to the one after
                continue
        return i


def _next_in_order(e: "Play", after: int) -> int | None:
    """By skills: the next character still in the fight after position ``after``."""
    order = skill_order(e)
    F = e.t.f
    return next((j for j in range(after + 1, len(order)) if F[order[j]].active), None)


def stand_in(e: "Play", cid: str) -> str:
    """Who names the next actor when the last one has left the fight: an ally, else anyone left."""
    allies = e.t.allies_of(cid)
    return allies[0] if allies else e.t.active_ids()[0]


def become_contest(e: "Play") -> Flow:
    """The sides stop trying to harm each other: the scene's contest goes on from here, and the
    conflict's payouts wait for its end (000:539-547). Stress, consequences, aspects and owed
    fate points carry over."""
    t = e.t
    e.emit(ev.BecameContest(t.to_contest, t.exchange))
    t.exchange = 0
    t.mode = SceneKind.CONTEST
    t.cursor = None
    yield from FLOWS["contest"](e)


def turn(e: "Play", actor: str) -> Flow:
    """One character's turn: a free move before or after, one action (003:1546-1561)."""
    t = e.t
    f = t.f[actor]
    t.turn_seq += 1
    e.emit(ev.TurnStarted(actor, t.exchange))
    t.minor = None
    if e.facts.exchange_defense:
        if f.full_defense:  # declared when first attacked, before this turn: the turn goes (001:80)
            e.emit(ev.TurnForfeited(actor, "full defense"))
            return
    elif f.full_defense:
        if e.facts.full_defense_boost and not f.defended_on_full:
            boost(e, actor, "Prepared")  # 003:2245-2248
        f.full_defense, f.ward = False, None
    free_move = True
    while True:
        choice = yield from ask(e, DecisionKind.TURN, actor, turn_options(e, f, free_move))
        if choice is RECONSIDER:
            if t.is_over():
                return  # the other side gave in before this turn's action
            continue
        action = BY_OPTION[type(choice)]
        if type(choice) is Hold:  # the whole turn is put off (001:82-84)
            yield from action.run(e, f, choice)
            return
        if t.blocked and not (yield from get_past(e, f, choice)):  # a block on it (002:47)
            if action.takes_action:
                choice = None
                break
            free_move = False  # the move is spent
            continue
        if action.takes_action:
            break
        from_zone = f.zone
        yield from action.run(e, f, choice)
        free_move = False
        if e.facts.minor_moves:  # a minor action: -1 on the main action, the border's value more (002:28, 002:50-51)
            b = e.map.border(from_zone, f.zone)
            t.minor = (actor, 1 + (b.difficulty if b is not None else 0))
            e.emit(ev.MinorAction(actor, "move", t.minor[1]))
    if choice is not None:
        yield from action.run(e, f, choice)
    t.minor = None
    f.supporters.clear()
    while f.active and free_move and not t.is_over() and not e.facts.minor_moves:
        moves = free_moves(e, f)
        if not moves:
            break
        after = yield from ask(e, DecisionKind.MOVE, actor, [Stay()] + [Move(z) for z in moves])
        if after is not RECONSIDER:
            if type(after) is Move:
                move_to(e, f, after.zone, free=True)
            break
    expire_boosts(e, actor)
