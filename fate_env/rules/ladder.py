"""The adjective ladder (Fate Condensed, 003:184-208).

Efforts and skill ratings are integers; the ladder only names them. Values
beyond the printed ladder (above Legendary +8 or below Horrifying -4) have no
adjective in the rules texts, so they are shown as plain signed numbers.
"""

from __future__ import annotations

LADDER: dict[int, str] = {
    8: "Legendary",
    7: "Epic",
    6: "Fantastic",
    5: "Superb",
    4: "Great",
    3: "Good",
    2: "Fair",
    1: "Average",
    0: "Mediocre",
    -1: "Poor",
    -2: "Terrible",
    -3: "Catastrophic",
    -4: "Horrifying",
}


def signed(value: int) -> str:
    """``+3`` / ``0`` / ``-2``: how the rules texts write a rating."""
    return f"+{value}" if value > 0 else str(value)


def ladder_name(value: int) -> str:
    """The adjective for ``value``, or the plain number off the ladder."""
    return LADDER.get(value, signed(value))


def describe(value: int) -> str:
    """``Great (+4)``, the texts' own form; ``+9`` off the ladder."""
    name = LADDER.get(value)
    return f"{name} ({signed(value)})" if name else signed(value)
