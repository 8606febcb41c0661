"""The closed sets the rules name, as string enums.

Each member *is* its string (``Band.FAIL == "fail"``), so event logs, saved sessions and the
environment's layouts read exactly as before; the enum only closes the set for the code.
"""

from __future__ import annotations

from enum import StrEnum


class Band(StrEnum):
    """The four outcomes of a roll by shifts (003:630-642)."""

    FAIL = "fail"
    TIE = "tie"
    SUCCESS = "success"
    STYLE = "success_with_style"


class DecisionKind(StrEnum):
    """What a pending decision asks (see ``ARCHITECTURE.md``)."""

    TURN = "turn"
    MOVE = "move"
    RESPOND = "respond"
    INVOKE = "invoke"
    STYLE = "style"
    COST = "cost"
    ABSORB = "absorb"
    NEXT = "next"
    CONTEST_ROLL = "contest_roll"
    SUPPORT = "support"
    CONTEST_ADVANTAGE = "contest_advantage"
    TASK = "task"
    CONCESSION = "concession"  # accept or refuse a concession offered (001:150-152)
    HOLD = "hold"              # a held action: take the turn now, or hold on (001:82-84)


class Status(StrEnum):
    """Where a character stands in the scene."""

    ACTIVE = "active"
    CONCEDED = "conceded"
    TAKEN_OUT = "taken_out"
    REMOVED = "removed"  # taken from the scene by the GM (fate_env.rules.gm)
    WAITING = "waiting"  # a big bad's true form, not yet revealed (fate_env.rules.true_form)


class AspectKind(StrEnum):
    CHARACTER = "character"
    SITUATION = "situation"
    ADVANTAGE = "advantage"
    CONSEQUENCE = "consequence"
    BOOST = "boost"


class SceneKind(StrEnum):
    """Which flow plays the scene (and, in a table, which flow is running now)."""

    CONFLICT = "conflict"
    CONTEST = "contest"
    CHALLENGE = "challenge"


class StressStyleName(StrEnum):
    """How stress boxes absorb a hit, chosen by the rule set (``stress.style``)."""

    CONDENSED = "condensed"   # any number of 1-point boxes (003:1589-1593)
    CORE = "core"             # one box per hit, escalating values (000:305-309)
    ROLL_UP = "roll_up"       # one box per hit, the hit's own box or the next free one above (001:108-117)


#: decisions taken before any die is rolled for the action at hand: a character may concede then
PRE_DICE = frozenset({DecisionKind.TURN, DecisionKind.MOVE, DecisionKind.RESPOND, DecisionKind.NEXT})


#: what a Fate 3.0 block may be against (002:47; rules/actions/block.py), in the order its options list them
BLOCK_KINDS = ("attack", "advantage", "move")
