"""What the live table asks (:class:`Question`) and what it says (:class:`Line`): plain data the front
ends show; the table (:mod:`.table`) makes them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import table_menu


@dataclass
class Question:
    """What the table waits for. ``kind``: ``decision`` (an option to choose: a player's, or the GM's
    for an NPC), ``gate`` (an NPC's move for the GM to accept or override), ``name`` (a consequence's
    name), ``dice`` (physical dice), ``offer`` (a compel the NPCs' side proposes, for the GM to offer
    or not), ``compel`` (a compel offered to a PC). ``owner``: the PC whose player may answer (None:
    the GM's alone)."""

    seq: int
    kind: str
    actor: str
    owner: str | None
    decision: str | None = None
    items: list[table_menu.Item] = field(default_factory=list)
    proposal: int | None = None      # the option proposed (0-based): the NPC's move, or the helper's
    move: str = ""                   # an NPC's move in words, and why it chose it
    reason: str = ""
    gate: str = ""                   # why the autopilot stopped ("" and paused: the GM paused it)
    paused: bool = False
    for_npc: bool = False            # a decision the GM makes for an NPC
    overriding: bool = False         # ... after overriding it at its gate
    names: list[str] = field(default_factory=list)   # name: the suggestions, the first the default
    aspect: int | None = None        # name: the consequence's id
    role: str = ""                   # name: its severity
    blow: str = ""                   # name: who dealt it
    roll: str = ""                   # dice: what is rolled
    standing: str | None = None      # an invoke decision: where the roll stands
    about: str | None = None         # a defense or an invoke: the roll it is about (table_menu.roll_about)
    hit: dict[str, Any] | None = None  # an absorb decision: the hit's shifts, its track, who dealt it


@dataclass
class Line:
    """One line the table says: ``event`` (narration of what happened), ``note`` (the table's own
    word: an autopilot move, a name given, a save), ``panel`` (who stands where, after an exchange),
    ``summary`` (the outcome). ``text`` is the GM's; ``public`` what every other seat reads (None:
    the GM's alone), which names no aspect still hidden (003:854-867)."""

    kind: str
    text: str
    terminal: str | None = None  # the terminal's wording, where it names a command to type
    public: str | None = ""      # "": the same as ``text``

    @property
    def for_table(self) -> str | None:
        """The line as the players and spectators read it, or None if it is the GM's alone."""
        return self.text if self.public == "" else self.public
