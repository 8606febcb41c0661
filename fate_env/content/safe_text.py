"""Text from files and players made safe to print: control characters shown, not obeyed, and long
values cut to an excerpt.

A name in a scene file or a typed aspect may hold an escape sequence (``\\x1b[2J`` clears the GM's
screen; a bidi override reverses what follows) or a newline that forges a line of narration; an
error message that quotes a 1.6 MB value is one line nobody can read. Every line the tool prints
from such text goes through :func:`printable`, every quoted value in an error through
:func:`excerpt`.
"""

from __future__ import annotations

import unicodedata

#: Unicode format characters that reorder or hide text (bidi overrides and isolates)
_BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, keep: str = "") -> str:
    """``text`` with every control character (and bidi override) written as an escape, except
    those in ``keep`` (``"\\n"`` for a block of lines)."""
    if text.isprintable() and not (_BIDI & set(text)):
        return text
    return "".join(ch if ch in keep or (unicodedata.category(ch) not in ("Cc", "Cs") and ch not in _BIDI)
                   else _escape(ch) for ch in text)


def excerpt(text: str, limit: int = 400) -> str:
    """``text`` on one line, at most about ``limit`` characters: a long middle becomes ``…``
    (the start says what failed, the end usually how to fix it)."""
    text = printable(text)
    if len(text) <= limit:
        return text
    head = limit * 2 // 3
    tail = max(0, limit - head - 45)  # the marker takes the rest
    return f"{text[:head]} … ({len(text) - head - tail:,} characters left out) … {text[len(text) - tail:]}"


class OneLineError(ValueError):
    """An error a user reads: its message is one line of bounded length, whatever it quotes."""

    def __init__(self, message: object = ""):
        super().__init__(excerpt(str(message), 600))
