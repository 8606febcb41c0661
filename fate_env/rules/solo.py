"""Solo bonuses for big bads (Fate Condensed's optional rule breaks, 003:2574-2602).

A big bad facing the heroes alone may get one or more of the text's four bonuses, named on its
sheet (``solo_bonus``):

* ``skill``: +1 per opposing character beyond the first on its rolls (the group's largest
  teamwork bonus), never more than the skill it rolls, so never better than doubled (003:2581-2587);
* ``reduce_stress`` / ``reduce_stress_min_1``: the shifts of a successful attack on it drop by
  half the opposing characters, rounded up; the second reading keeps every hit at least 1
  (the text's "if you're worried this will make the fight run too long", 003:2588-2591);
* ``amplified_invokes``: each invoke it pays a fate point for is worth +1 per opposing
  character instead of +2 (never less: facing one, +2); free invokes stay +2 (003:2593-2595);
* ``suppress_invokes``: facing two or more, its opponents' invokes give +1 instead of +2 on rolls
  made against it or against which it rolls (rerolls are untouched) (003:2596-2600);
* ``no_stacking``: the text's further option (003:2598-2599): facing two or more, its opponents
  may use only one free invoke on a roll made against it or against which it rolls.

"Alone" is the engine's reading of "the only one facing the heroes": no other character of its
side is still in the fight. The opposing characters are those of the other sides still in it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import events as ev
from .play import Play

if TYPE_CHECKING:
    from .table import Roll

SOLO_BONUSES = ("skill", "reduce_stress", "reduce_stress_min_1", "amplified_invokes", "suppress_invokes",
                "no_stacking")
INVOKE_BONUS = 2  # 003:583-585


def _solo(e: "Play", cid: str, bonus: str) -> int:
    """How many characters ``cid`` faces alone if it has ``bonus``, else 0."""
    F = e.t.f
    f = F[cid]
    if bonus not in f.sheet.solo_bonus or not f.active or e.t.allies_of(cid):
        return 0
    return len(e.t.foes_of(cid))


def skill_bonus(e: "Play", cid: str, rating: int) -> int:
    """The solo skill bonus on a roll at ``rating`` (003:2581-2587)."""
    facing = _solo(e, cid, "skill")
    return max(0, min(facing - 1, rating)) if facing else 0


def reduce_hit(e: "Play", target: str, hit: int) -> int:
    """A successful attack's shifts on a big bad with a stress-reducing solo bonus (003:2588-2591)."""
    for bonus, floor in (("reduce_stress", 0), ("reduce_stress_min_1", 1)):
        facing = _solo(e, target, bonus)
        if facing:
            cut = -(-facing // 2)
            reduced = max(min(floor, hit), hit - cut)
            if reduced != hit:
                e.emit(ev.SoloBonus(target, bonus, hit - reduced))
            return reduced
    return hit


def free_stack_barred(e: "Play", who: str, r: "Roll") -> bool:
    """Whether ``who`` may use no more free invokes on ``r``: a big bad with ``no_stacking`` faces
    two or more and opposes this roll, and ``who``'s side has used one on it (003:2598-2599)."""
    side = e.t.f[who].sheet.side
    if not r.invoked.get(side + "#free"):
        return False
    return any(other in e.t.f and e.t.f[other].sheet.side != side and _solo(e, other, "no_stacking") >= 2
               for other in (r.actor, r.opposer, r.target))


def invoke_worth(e: "Play", who: str, r: "Roll", free: bool) -> tuple[int, str | None, str | None]:
    """What a +2 invoke by ``who`` on ``r`` is worth, the solo bonuses counted (003:2593-2600), with
    the bonus that changed it and whose it is: (worth, None, None) when none did. An amplified
    invoke is worth the number faced, never less than +2 (facing one, the text's +1 would be no
    amplification)."""
    if not e.solo:
        return INVOKE_BONUS, None, None
    if not free:
        facing = _solo(e, who, "amplified_invokes")
        if facing > INVOKE_BONUS:
            return facing, "amplified_invokes", who
    side = e.t.f[who].sheet.side
    for other in (r.actor, r.opposer, r.target):
        if other in e.t.f and e.t.f[other].sheet.side != side and _solo(e, other, "suppress_invokes") >= 2:
            return 1, "suppress_invokes", other
    return INVOKE_BONUS, None, None


def invoke_bonus(e: "Play", who: str, r: "Roll", free: bool) -> int:
    """What a +2 invoke by ``who`` on ``r`` is worth (see :func:`invoke_worth`)."""
    return invoke_worth(e, who, r, free)[0]
