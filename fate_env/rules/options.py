"""The options a pending decision offers. Each is a small frozen dataclass
(options of different kinds never compare equal, even with equal fields).

``key(option)`` gives a stable, readable string (``attack:og:Fight``) used
in logs, on the command line and by the live session.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True, slots=True)
class Absorb:
    """Mark these box indices on the hit's track and fill these slot indices."""

    boxes: tuple[int, ...]
    slots: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TakenOut:
    """Take no stress: the character is taken out."""


@dataclass(frozen=True, slots=True)
class Move:            # the free one-zone move
    zone: str


@dataclass(frozen=True, slots=True)
class Stay:            # decline the free move after acting
    pass


@dataclass(frozen=True, slots=True)
class Attack:
    target: str
    skill: str


@dataclass(frozen=True, slots=True)
class CreateAdvantage:  # a new aspect from a template
    template: str
    target: str                     # a character id, a zone id or "scene"


@dataclass(frozen=True, slots=True)
class Exploit:          # create an advantage on an existing aspect
    aspect: int


@dataclass(frozen=True, slots=True)
class OvercomeMove:
    zone: str


@dataclass(frozen=True, slots=True)
class RemoveAspect:
    aspect: int


@dataclass(frozen=True, slots=True)
class FullDefense:
    pass


@dataclass(frozen=True, slots=True)
class Guard:            # full defense with an ally as its focus: defend for them, take their hits (003:2236-2240)
    ally: str


@dataclass(frozen=True, slots=True)
class Support:          # teamwork: +1 to an ally's next roll
    ally: str


@dataclass(frozen=True, slots=True)
class Concede:
    pass


@dataclass(frozen=True, slots=True)
class Pass:
    pass


@dataclass(frozen=True, slots=True)
class Defend:
    pass


@dataclass(frozen=True, slots=True)
class ForgoDefense:
    """Take the hit without defending: the attack rolls against Mediocre (000:292-294; the
    ``forgo_defense`` dial)."""


@dataclass(frozen=True, slots=True)
class Invoke:
    aspect: int
    payer: str                       # who spends the free invoke or the fate point
    free: bool
    effect: str                      # "bonus" (+2) or "reroll"


@dataclass(frozen=True, slots=True)
class DoneInvoking:
    pass


@dataclass(frozen=True, slots=True)
class Choose:           # a choice between outcomes the rules leave open
    option: str


@dataclass(frozen=True, slots=True)
class Next:
    character: str


@dataclass(frozen=True, slots=True)
class RollFor:                      # contests: who rolls for the side, with which skill
    character: str
    skill: str


@dataclass(frozen=True, slots=True)
class NoSupport:                    # contests: do not add a teamwork bonus this exchange
    pass


@dataclass(frozen=True, slots=True)
class NoAdvantage:                  # contests: no advantage attempt before the roll
    pass


@dataclass(frozen=True, slots=True)
class TakeTask:                     # challenges: this character takes on this task next
    task: int
    character: str


@dataclass(frozen=True, slots=True)
class ZoneAttack:                   # one roll against everyone in a zone (a zone_attack stunt's)
    zone: str
    skill: str


@dataclass(frozen=True, slots=True)
class SplitAttack:                  # one roll split among the foes in a zone (the split_effort dial)
    zone: str
    skill: str


@dataclass(frozen=True, slots=True)
class SplitAdvantage:               # one roll split among the foes in a zone, an aspect on each (003:2657-2659)
    template: str
    zone: str


@dataclass(frozen=True, slots=True)
class ZoneTask:                     # a task of the challenge of the zone one stands in (003:2606-2609)
    zone: str
    task: int


@dataclass(frozen=True, slots=True)
class SplitRemove:                  # one overcome split among the aspects to clear here (003:2664-2666)
    zone: str


@dataclass(frozen=True, slots=True)
class Share:                        # a split overcome: this much of the effort goes to clearing this aspect
    aspect: int
    effort: int


@dataclass(frozen=True, slots=True)
class Assign:                       # a split attack: this much of the effort goes to this target
    target: str
    effort: int


@dataclass(frozen=True, slots=True)
class ShoveInto:                    # an attack that forces a foe into a block beside it
    target: str
    skill: str
    block: str


@dataclass(frozen=True, slots=True)
class ShieldWith:                   # a big bad's expendable minion armor: this minion takes the hit
    minion: str


@dataclass(frozen=True, slots=True)
class TurnToConflict:               # an attack in a contest: it stops being one, the conflict begins (000:147-149)
    pass


@dataclass(frozen=True, slots=True)
class TurnToContest:                # a conflict becomes the scene's contest (an escape, a chase)
    pass


@dataclass(frozen=True, slots=True)
class OfferConcession:              # take the next consequence, offering to concede instead (001:150)
    pass


@dataclass(frozen=True, slots=True)
class Hold:                         # hold the action, to take the turn later in the exchange (001:82-84)
    pass


@dataclass(frozen=True, slots=True)
class Protect:                      # Fate 3.0's block: protect an ally this exchange (002:46)
    ally: str


@dataclass(frozen=True, slots=True)
class BlockAction:                  # Fate 3.0's block against a foe's kind of action this exchange (002:47)
    target: str
    action: str                     # attack, advantage or move


@dataclass(frozen=True, slots=True)
class SpendSpin:                    # spend a spin token for +1 to this defense (002:95)
    holder: str


_FIELDS: dict[type, tuple[str, ...]] = {}


def key(option: object) -> str:
    """A stable string for an option: its kind, then its fields."""
    cls = type(option)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(option))
    return ":".join([_NAMES.get(cls, cls.__name__.lower())] + [_fmt(getattr(option, n)) for n in names])


def as_dict(option: object) -> dict:
    """An option as JSON: its kind and fields."""
    return {"kind": _NAMES.get(type(option), type(option).__name__.lower()),
            **{f.name: getattr(option, f.name) for f in fields(option)}}


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
    RollFor: "roll_for", NoSupport: "no_support", NoAdvantage: "no_advantage", TakeTask: "task",
    TurnToContest: "to_contest", ShieldWith: "shield", ZoneAttack: "zone_attack",
    SplitAttack: "split_attack", Assign: "assign", ShoveInto: "shove", OfferConcession: "offer_concession",
    Hold: "hold", Protect: "protect", SpendSpin: "spin", BlockAction: "block", SplitAdvantage: "split_advantage",
    Guard: "guard", SplitRemove: "split_remove", Share: "share", ZoneTask: "zone_task",
    TurnToConflict: "to_conflict",
}

__all__ = [n.__name__ for n in _NAMES] + ["key", "as_dict"]
