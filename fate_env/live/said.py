"""One line typed at the terminal, parsed once: an answer, or a GM command with its words.

Only the terminal reads typed lines now; the web sends typed answers and commands (live/table.py,
live/commands.py). (A player's ``" /fp cynere +5"`` once passed the web's check, which looked at the
raw text, while the session, which strips a line before it reads it, ran it as the GM's command: the
cause, lines fed to the table from the pages, is gone.)
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

