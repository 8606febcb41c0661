"""'Did you mean …': the nearest of the names a field accepts, for an error message.

A case slip (``shoot`` for Shoot) is found first; then a typo (``Figth`` for Fight) by
similarity (difflib, the standard library's). No guess is offered when nothing is close.
"""

from __future__ import annotations

import difflib
from typing import Iterable


def nearest(word: object, choices: Iterable[str]) -> str | None:
    """The choice ``word`` most likely meant, or None."""
    names = [str(c) for c in choices]
    text = str(word)
    same_case = [c for c in names if c.lower() == text.lower()]
    if same_case:
        return same_case[0]
    close = difflib.get_close_matches(text, names, n=1, cutoff=0.6) or \
        difflib.get_close_matches(text.lower(), [c.lower() for c in names], n=1, cutoff=0.6)
    if not close:
        return None
    return next((c for c in names if c.lower() == close[0].lower()), close[0])


def did_you_mean(word: object, choices: Iterable[str]) -> str:
    """``" (did you mean 'Shoot'?)"`` or ``""``."""
    guess = nearest(word, choices)
    return f" (did you mean {guess!r}?)" if guess is not None and guess != str(word) else ""
