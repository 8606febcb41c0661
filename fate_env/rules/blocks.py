"""Blocks: obstacles that stand in the way (Fate Condensed's optional obstacles, 003:2300-2345).

A block sits on a border between two zones. Its name is an aspect; it takes no turn. While it
stands, crossing the border is an overcome against its rating (``Border.standing`` prices the
move); if it can harm (a weapon rating) a failed crossing takes a hit of the shifts missed
(003:2318-2322). Clearing it is an overcome against its rating plus two (003:2344-2345), after
which the border is as it was without it (the engine's map follows, ``Engine.map_for``). Used as
cover between its two zones it mitigates (the defender's armor: half its rating, at least 1) or
negates (no shot across) an attack, as the scene says (003:2328-2337).

Forcing someone into a block as an attack (003:2324-2326) is the ``shove`` action
(``actions/shove.py``); the cover's armor is taken off a hit where all armor is
(``actions/attack.armored``), so cover that takes a hit to 0 leaves the attacker a boost
(003:2686-2689).

Rulings: the crossing's harm comes only when the move was rolled against the map's difficulty
(a foe standing in the way opposes the move instead, and then the block did not stop it); one hit
however many harmful blocks the path crosses.
"""

from __future__ import annotations


from . import events as ev
from .scene import Border
from .state import Aspect
from .play import Play


def standing_block(e: "Play", a: Aspect) -> Border | None:
    """The border whose standing block ``a`` names, if any."""
    if not e.scene_has_blocks or a.owner is not None:
        return None
    for b in e.scene.borders:
        if b.block is not None and b.block.name == a.name and frozenset((b.a, b.b)) not in e.t.cleared:
            return b
    return None


def clear(e: "Play", border: Border) -> None:
    """The block on ``border`` is gone: the map is the one without it."""
    t = e.t
    t.cleared = t.cleared | {frozenset((border.a, border.b))}
    e.map = e.map_for(t.cleared)


def harmful_crossing(e: "Play", start: str, end: str) -> Border | None:
    """The first block that can harm on the cheapest path from ``start`` to ``end``, if any."""
    for b in e.map.path_borders(start, end):
        if b.block is not None and b.block.weapon > 0:
            return b
    return None


def cover(e: "Play", attacker_zone: str, target_zone: str, target: str) -> int:
    """The armor a standing block between the two zones gives the target (0: none); announced."""
    if attacker_zone == target_zone:
        return 0
    b = e.map.border(attacker_zone, target_zone)
    if b is None or b.block is None or not b.block.armor:
        return 0
    e.emit(ev.Cover(target, b.block.name, b.block.armor))
    return b.block.armor
