"""The options a pending decision offers. Each is a small named tuple.

``key(option)`` gives a stable, readable string (``attack:og:Fight``) used
in logs, on the command line and by the live session.
"""

from __future__ import annotations

from typing import NamedTuple

from .harm import Absorb, TakenOut


class Move(NamedTuple):            # the free one-zone move
    zone: str


class Stay(NamedTuple):            # decline the free move after acting
    pass


class Attack(NamedTuple):
    target: str
    skill: str


class CreateAdvantage(NamedTuple):  # a new aspect from a template
    template: str
    target: str                     # a character id, a zone id or "scene"


class Exploit(NamedTuple):          # create an advantage on an existing aspect
    aspect: int


class OvercomeMove(NamedTuple):
    zone: str


class RemoveAspect(NamedTuple):
    aspect: int


class FullDefense(NamedTuple):
    pass


class Support(NamedTuple):          # teamwork: +1 to an ally's next roll
    ally: str


class Concede(NamedTuple):
    pass


class Pass(NamedTuple):
    pass


class Defend(NamedTuple):
    pass


class Invoke(NamedTuple):
    aspect: int
    payer: str                       # who spends the free invoke or the fate point
    free: bool
    effect: str                      # "bonus" (+2) or "reroll"


class DoneInvoking(NamedTuple):
    pass


class Choose(NamedTuple):           # a choice between outcomes the rules leave open
    option: str


class Next(NamedTuple):
    character: str


def key(option: tuple) -> str:
    """A stable string for an option: its kind, then its fields."""
    name = _NAMES.get(type(option), type(option).__name__.lower())
    parts = [name] + [_fmt(v) for v in option]
    return ":".join(parts)


def _fmt(v: object) -> str:
    if isinstance(v, bool):
        return "free" if v else "fp"
    if isinstance(v, tuple):
        return ",".join(str(x) for x in v) or "-"
    return str(v)


_NAMES = {
    Move: "move", Stay: "stay", Attack: "attack", CreateAdvantage: "advantage", Exploit: "exploit",
    OvercomeMove: "overcome_move", RemoveAspect: "remove", FullDefense: "full_defense",
    Support: "support", Concede: "concede", Pass: "pass", Defend: "defend", Invoke: "invoke",
    DoneInvoking: "done", Choose: "choose", Next: "next", Absorb: "absorb", TakenOut: "taken_out",
}

__all__ = [n.__name__ for n in _NAMES] + ["key"]
