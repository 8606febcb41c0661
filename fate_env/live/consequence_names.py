"""Names for a consequence just taken, suggested from the hit that caused it.

Fate leaves a consequence's name to the table (the one taking it, or the GM for an NPC,
003:1631-1634); live play asks for one each time and offers these: the scene's own list
(``consequence_names``), words for the skill that struck, and the aspects invoked on the blow
("Reeling from Giant Spiked Club"). A name already on someone in the scene is never offered
again, so two characters do not carry the same wound.
"""

from __future__ import annotations

from ..rules import events as ev
from ..rules.aspects import CONSEQUENCE_NAMES
from ..rules.skills import MENTAL, PHYSICAL

#: skill -> severity -> names, for the blows the default skills deal (a scene's own skills fall
#: back on the track's names)
BY_SKILL: dict[str, dict[str, tuple[str, ...]]] = {
    "Fight": {"mild": ("Bruised Ribs", "Split Lip", "Black Eye"), "moderate": ("Deep Gash", "Cracked Ribs", "Twisted Knee"),
              "severe": ("Broken Arm", "Run Through", "Shattered Jaw"), "extreme": ("Lost an Eye", "Maimed Hand")},
    "Shoot": {"mild": ("Grazed", "Nicked Ear", "Shrapnel Scratches"),
              "moderate": ("Arrow in the Shoulder", "Shot in the Leg", "Bleeding Side"),
              "severe": ("Shot Through the Gut", "Bolt in the Lung"), "extreme": ("Crippled Leg", "Half-Blind")},
    "Physique": {"mild": ("Winded", "Bruised All Over"), "moderate": ("Wrenched Back", "Crushed Fingers"),
                 "severe": ("Broken Ribs", "Cracked Skull"), "extreme": ("Crushed Spine",)},
    "Provoke": {"mild": ("Rattled", "Flustered", "Lost My Nerve"), "moderate": ("Shaken to the Core", "Haunted by the Threat"),
                "severe": ("Terrified", "Crippling Doubt"), "extreme": ("Broken Spirit",)},
    "Deceive": {"mild": ("Second-Guessing", "Off My Game"), "moderate": ("Played for a Fool", "Doubting My Friends"),
                "severe": ("Can't Trust Anyone",), "extreme": ("Lost My Grip on the Truth",)},
    "Rapport": {"mild": ("Charmed",), "moderate": ("Divided Loyalties",), "severe": ("Turned",),
                "extreme": ("Wholly Won Over",)},
}
FALLBACK = {PHYSICAL: {"mild": ("Scraped and Sore",), "moderate": ("Nasty Wound",), "severe": ("Grievous Injury",),
                       "extreme": ("Scarred for Life",)},
            MENTAL: {"mild": ("Unsettled",), "moderate": ("Badly Shaken",), "severe": ("Deeply Scarred",),
                     "extreme": ("Changed Forever",)}}


def suggest(engine, aid: int, limit: int = 4) -> list[str]:
    """Up to ``limit`` names for the consequence aspect ``aid``, best first, none already in play."""
    a = engine.t.aspects[aid]
    severity = a.role or "mild"
    taken = {x.name for x in engine.t.aspects.values() if x.kind == "consequence" and x.id != aid}
    track = MENTAL if engine.kind == MENTAL else PHYSICAL
    skill, invoked = _blow(engine, a.owner, a.creator)
    out: list[str] = []
    out += engine.scene.consequence_names.get(severity, ())
    if skill in BY_SKILL:
        out += BY_SKILL[skill].get(severity, ())
    out += [f"Reeling from {name}" for name in invoked]
    out += FALLBACK[track][severity]
    out.append(CONSEQUENCE_NAMES[track][severity])
    seen: list[str] = []
    for name in out:
        if name not in taken and name not in seen:
            seen.append(name)
    if not seen:  # every name is taken: make the default the taker's own
        seen.append(f"{CONSEQUENCE_NAMES[track][severity]} ({engine.scene.character(a.owner).name})"
                    if a.owner in {c.id for c in engine.scene.characters} else CONSEQUENCE_NAMES[track][severity])
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
