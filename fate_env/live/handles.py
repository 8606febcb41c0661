"""Handles: how a GM names things in live play's commands.

A character by its id (``og``) or the start of its name (``Cyn``); an aspect by the handle the
state panel shows (``#7``, or plain ``7``) or the start of its name; a zone by its id or the
start of its name. Case does not matter; a prefix that fits several is refused with the
candidates, so a command never lands on the wrong one.
"""

from __future__ import annotations

import re


def _pick(text: str, candidates: dict[str, str], what: str) -> str:
    """``candidates``: key -> words it may be called by (id and name, lower case)."""
    t = text.strip().lower()
    if not t:
        raise ValueError(f"expected a {what}")
    if t in candidates:  # an id typed in full is that one, whatever else is named like it
        return t
    exact = [k for k, words in candidates.items() if t in words]
    if len(exact) == 1:
        return exact[0]
    hits = exact or [k for k, words in candidates.items() if any(w.startswith(t) for w in words)]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise ValueError(f"no {what} {text!r}; expected one of: {', '.join(candidates)}")
    raise ValueError(f"{text!r} could be any of {', '.join(hits)}; type more of it")


def character(engine, narrator, text: str) -> str:
    """A character's id from its id or the start of its name."""
    return _pick(text, {cid: {cid.lower(), narrator.name(cid).lower()} for cid in engine.t.f}, "character")


def zone(narrator, text: str) -> str:
    """A zone's id from its id or the start of its name."""
    return _pick(text, {zid: {zid.lower(), name.lower()} for zid, name in narrator.zones.items()}, "zone")


def aspect(engine, text: str) -> int:
    """An aspect's id from ``#7``, ``7`` or the start of its name (only aspects in play)."""
    t = text.strip()
    if re.fullmatch(r"#?\d+", t):
        return int(t.lstrip("#"))
    pool = {str(a.id): {a.name.lower()} for a in engine.t.aspects.values()}
    return int(_pick(t, pool, "aspect"))
