"""Small steps every flow shares: a target's answer before the dice, moving, leaving the scene."""

from __future__ import annotations


from . import countdowns
from . import events as ev
from .decisions import RECONSIDER, Flow, ask
from .kinds import DecisionKind, SceneKind
from .options import Concede, Defend, ForgoDefense, FullDefense
from .state import CONCEDED, TAKEN_OUT, Fighter
from .true_form import reveal
from .play import Play


_DEFEND_OR_CONCEDE, _DEFEND = (Defend(), Concede()), (Defend(),)


def respond(e: "Play", target: str, attacker: str, action: str, skill: str | None = None,
            weapon: int = 0) -> Flow:
    """The target may concede before the dice hit the table (003:1695-1712). False: no roll; a
    :class:`ForgoDefense`: the target takes the attack undefended (``forgo_defense``, 000:292-294:
    the attack rolls against Mediocre); else True. An attack's ``skill`` and the rating of a block it
    forces the target into (``weapon``) are in the decision's context: what the player weighs before
    conceding (the live table asks when the hit could take their character out)."""
    t = e.t
    options = list(_DEFEND_OR_CONCEDE if t.can_concede else _DEFEND)
    if e.rules.forgo_defense and action == "attack" and skill is not None:
        options.append(ForgoDefense())
    if e.facts.exchange_defense and not t.f[target].full_defense and target not in t.acted \
            and e.t.mode == SceneKind.CONFLICT:
        options.append(FullDefense())  # declared when first attacked, by one yet to act (001:80)
    choice = RECONSIDER
    while choice is RECONSIDER:
        if not t.f[attacker].active or t.is_over():
            return False  # the actor gave in (or the fight ended) before the dice: no roll
        choice = yield from ask(e, DecisionKind.RESPOND, target, options, attacker=attacker, action=action,
                                **({"skill": skill, "weapon": weapon} if skill is not None else {}))
    if type(choice) is Concede:
        concede_fighter(e, t.f[target])
        return False
    if type(choice) is FullDefense:
        f = t.f[target]
        f.full_defense = True
        f.defended_on_full = False
        e.emit(ev.FullDefenseDeclared(target))
    if type(choice) is ForgoDefense:
        return choice
    return True


def move_to(e: "Play", f: Fighter, zone: str, free: bool) -> None:
    e.emit(ev.Moved(f.id, f.zone, zone, free))
    f.zone = zone


def concede_fighter(e: "Play", f: Fighter) -> None:
    f.status = CONCEDED
    e.t.left_fight()
    e.emit(ev.Conceded(f.id, e.facts.concession_payout(f.consequences_taken)))  # paid at the end (end.finish)
    if e.scene.countdowns:
        countdowns.left_fight(e, f.id)


def taken_out(e: "Play", f: Fighter, source: str | None) -> None:
    f.status = TAKEN_OUT
    e.t.left_fight()
    f.taken_out_by = source
    e.emit(ev.TakenOutEvent(f.id, source))
    if f.sheet.true_form is not None:
        reveal(e, f)
    if e.scene.countdowns:
        countdowns.trigger(e, "taken_out", f.id)
        countdowns.left_fight(e, f.id)
