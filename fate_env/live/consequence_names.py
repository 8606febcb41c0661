"""Names for a consequence just taken, suggested from the hit that caused it.

Fate leaves a consequence's name to the table (the one taking it, or the GM for an NPC,
003:1631-1634); live play asks for one each time and offers these: the scene's own list
(``consequence_names``), words for the skill that struck, and the aspects invoked on the blow
("Reeling from Giant Spiked Club"), after the engine's own choice (rules.aspects). A name
already on someone in the scene is never offered again, so two characters do not carry the same
wound.
"""

from __future__ import annotations

from ..rules import events as ev
from ..rules.aspects import consequence_candidates, own_consequence_name
from ..rules.skills import MENTAL, PHYSICAL


def suggest(engine, aid: int, limit: int = 4) -> list[str]:
    """Up to ``limit`` names for the consequence aspect ``aid``, best first, none already in play:
    the name the engine gave it, the aspects invoked on the blow, then the rest of the engine's
    candidates for the skill that struck (rules.aspects.consequence_candidates)."""
    a = engine.t.aspects[aid]
    severity = a.role or "mild"
    taken = {x.name for x in engine.t.aspects.values() if x.kind == "consequence" and x.id != aid}
    track = MENTAL if engine.kind == MENTAL else PHYSICAL
    skill, invoked = _blow(engine, a.owner, a.creator)
    out = [a.name, *(f"Reeling from {name}" for name in invoked),
           *consequence_candidates(engine.scene, track, severity, skill)]
    seen = [name for name in dict.fromkeys(out) if name not in taken]
    if not seen:  # every name is taken: make the default the taker's own
        owner = engine.t.f.get(a.owner)
        seen.append(own_consequence_name(track, severity, owner.sheet.name) if owner else a.name)
    return seen[:limit]


def _blow(engine, target: str | None, by: str | None) -> tuple[str | None, list[str]]:
    """The skill of the last roll ``by`` made, and the aspects of its own it invoked on it."""
    invoked: list[str] = []
    own = {a.name for a in engine.t.aspects.values() if a.owner == by}
    for e in reversed(engine.events):
        if type(e) is ev.Invoked and e.invoker == by and e.effect == "bonus" and e.aspect in own \
                and e.aspect not in invoked:
            invoked.append(e.aspect)
        if type(e) is ev.Rolled and e.actor == by and e.action != "defend":
            return e.skill, invoked
    return None, invoked
