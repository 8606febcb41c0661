"""One line typed at the table, parsed once, and who typed it.

The session acts on lines and the web table decides who may send which: both must read a line the
same way, or a line one of them takes for an answer the other runs as a command. (A player's
``" /fp cynere +5"`` once passed the web's check, which looked at the raw text, and the session,
which strips a line before it reads it, ran it as the GM's command.) So there is one parser,
:func:`parse`, and permissions are decided on what it returns, never on the text.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Said:
    """A line as the session reads it: ``text`` stripped of every Unicode whitespace at both ends
    (``str.strip``: spaces, tabs, U+00A0, U+2028, U+3000, ...); ``command`` the GM command it is
    (its name, as typed: ``/FP`` is the command ``FP``, which the session calls unknown) or None
    for an answer; ``args`` the command's words."""

    text: str
    command: str | None = None
    args: tuple[str, ...] = ()

    @property
    def is_command(self) -> bool:
        return self.command is not None


def parse(raw: str) -> Said:
    """The one reading of a typed line: a command is a line that starts with ``/`` once stripped
    (``/`` alone is ``/help``)."""
    text = raw.strip()
    if not text.startswith("/"):
        return Said(text)
    words = text[1:].split()
    return Said(text, words[0] if words else "help", tuple(words[1:]))


#: the seats a line can come from: the GM's keyboard (the terminal's only one) or a player's page
GM = "gm"
PLAYER = "player"
