"""Who sits at the table, and what each seat may do: decided here once, for the terminal, the model
and the web (which asks before it reads a request's body).

A seat is the GM, the player of one PC, or a spectator. The GM answers every question and alone uses
the GM's powers; a player answers their own PC's questions; a spectator watches.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Seat:
    """Who is at a front end: the GM, the player of one PC (``pc``), or a spectator."""

    role: str
    pc: str | None = None


GM = Seat("gm")


def may_command(seat: Seat) -> bool:
    """The GM's powers are the GM's alone."""
    return seat.role == "gm"


def answers_anything(seat: Seat) -> bool:
    """Whether the seat ever answers a question (a spectator never does)."""
    return seat.role in ("gm", "player")


def may_answer(seat: Seat, owner: str | None) -> bool:
    """Whether the seat answers a question whose owner (the PC whose player answers it; None: the GM's) is ``owner``."""
    return seat.role == "gm" or (seat.role == "player" and owner is not None and owner == seat.pc)


def sees_everything(seat: Seat) -> bool:
    """Whether the seat reads what the others do not: the aspects still hidden (003:854-867), the GM's
    own notes, every question's options, the other seats' links. The GM's alone."""
    return seat.role == "gm"


def why_not_command(seat: Seat) -> str:
    return "the GM's commands need the GM's link"


def why_not_answer(seat: Seat) -> str:
    return "a spectator's page answers nothing"
