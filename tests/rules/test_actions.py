"""Actions are handlers (issue 12): a new one is a module's worth of code and one registration.
Here a test action is registered for the length of a test and played through the engine."""

from __future__ import annotations

from dataclasses import dataclass

from fate_env.rules import actions, events as ev
from fate_env.rules.actions.base import Action
from fate_env.rules.engine import start
from fate_env.rules.options import key
from fate_env.content.scenes import load_scene


@dataclass(frozen=True, slots=True)
class Taunt:
    target: str


def _offer(e, f, ctx):
    return [Taunt(t) for t in ctx.foes]


def _run(e, f, choice):
    e.emit(ev.Passed(f.id))  # a stand-in effect: the point is the seam, not the rule
    yield from ()


def test_a_new_action_is_one_module_and_one_registration(monkeypatch):
    taunt = Action(Taunt, _offer, _run)
    at = next(i for i, a in enumerate(actions.ACTIONS) if a.option.__name__ == "Pass")  # just before pass
    monkeypatch.setattr(actions, "ACTIONS", actions.ACTIONS[:at] + (taunt,) + actions.ACTIONS[at:])
    monkeypatch.setitem(actions.BY_OPTION, Taunt, taunt)
    e = start(load_scene("duel"), 1)
    d = e.pending
    keys = d.keys()
    assert keys[-2:] == ["taunt:blade" if d.actor == "cynere" else "taunt:cynere", "pass"]  # offered where registered
    actor = d.actor
    e.step(len(keys) - 2)
    made = next(i for i, x in enumerate(e.events) if isinstance(x, ev.DecisionMade) and type(x.choice) is Taunt)
    assert e.events[made + 1] == ev.Passed(actor)  # its run played, then the turn went on
    assert e.pending is not None and key(Taunt("x")) == "taunt:x"


def test_registered_actions_offer_what_they_answer():
    e = start(load_scene("warehouse"), 0)
    kinds = {type(o) for o in e.pending.options}
    assert kinds <= set(actions.BY_OPTION)
