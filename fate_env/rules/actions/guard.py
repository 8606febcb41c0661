"""Full defense with a focus: guarding an ally (003:2236-2240, under the ``full_defense_focus`` dial).

Fate Condensed lets a full defense name its focus; protecting someone is one. What the guard does
for its ward is Fate Core's defending on another's behalf (000:270, 000:489-491): it must be
reasonable to step between the attack and its target (a ruling: guard and ward share a zone, when
the guard is declared and when the attack comes), and the guard suffers the effects of the failed
defense. So until its next turn an attack on the ward meets the guard instead: the guard answers
it (defends, or concedes), defends at +2 as a full defense does for its focus, and takes the hit.
The guard's defenses of itself are outside the focus and get no +2 (003:2240-2244). An attempt to
create an advantage on the ward is not covered (a ruling: the aspect would still be the ward's).
As a full defense it gives up the turn, and gives a boost when nothing came of it (003:2244-2248).

Fate Core also lets anyone beside the target step in without a full defense (000:270): under the
``stand_in`` dial each ally in the target's zone is asked, before the target answers, whether it
steps between; the first who does defends (at its plain rating) and takes the hit.
"""

from __future__ import annotations

from typing import Any

from .. import events as ev
from ..decisions import Flow, ask
from ..kinds import DecisionKind
from ..options import Choose, Guard
from ..state import Fighter
from .base import Action, TurnContext
from ..play import Play


def offer(e: "Play", f: Fighter, ctx: TurnContext) -> list[Any]:
    if e.facts.minor_moves and not ctx.free_move:
        return []  # as full defense: it gives up the turn's minor actions too (002:41)
    F = e.t.f
    return [Guard(a) for a in e.t.allies_of(f.id) if F[a].zone == f.zone]


def run(e: "Play", f: Fighter, choice: Guard) -> Flow:
    f.full_defense = True
    f.defended_on_full = False
    f.ward = choice.ally
    e.emit(ev.Guarding(f.id, choice.ally))
    yield from ()


def guard_of(e: "Play", target: str, attacker: str) -> str | None:
    """Who steps in for ``target`` against ``attacker``: the first character, in the scene's
    order, on full defense guarding it, still in the fight and in its zone."""
    F = e.t.f
    zone = F[target].zone
    for g in F.values():
        if g.ward == target and g.full_defense and g.active and g.zone == zone and g.id != attacker:
            return g.id
    return None


def stand_in(e: "Play", target: str, attacker: str) -> Flow:
    """The character the attack on ``target`` lands on: its guard, if one steps in (the
    ``full_defense_focus`` dial); under the ``stand_in`` dial, the first ally beside it who chooses
    to step in, each asked in turn (Core's defending on another's behalf, 000:270); else itself."""
    if e.rules.full_defense_focus:
        g = guard_of(e, target, attacker)
        if g is not None:
            e.emit(ev.StoodIn(g, target, attacker))
            return g
    if e.rules.stand_in:
        F = e.t.f
        for a in e.t.allies_of(target):
            if a == attacker or not F[a].active or F[a].zone != F[target].zone:
                continue
            pick = yield from ask(e, DecisionKind.COST, a, [Choose("stand_aside"), Choose("stand_in")],
                                  action="stand_in", ward=target, attacker=attacker)
            if pick.option == "stand_in":
                e.emit(ev.StoodIn(a, target, attacker))
                return a
    return target


ACTION = Action(Guard, offer, run, gate=lambda scene: scene.rules.full_defense_focus, feature="guard")
