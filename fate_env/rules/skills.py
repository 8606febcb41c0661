"""What each skill may do in a conflict, and the advantage templates.

Both editions share the default skill list (003:214-320, 19 skills) and the
guidelines for which skills attack and defend (003:955-963). A scene may add
skills of its own (a minor NPC "Great at Biting People", 003:1986-1988) and
give them permission through stunts (``use_skill``).
"""

from __future__ import annotations

from dataclasses import dataclass
from .play import Play


DEFAULT_SKILLS: tuple[str, ...] = (
    "Academics", "Athletics", "Burglary", "Contacts", "Crafts", "Deceive", "Drive",
    "Empathy", "Fight", "Investigate", "Lore", "Notice", "Physique", "Provoke",
    "Rapport", "Resources", "Shoot", "Stealth", "Will",
)

PHYSICAL, MENTAL = "physical", "mental"

#: attack skill -> (track it harms, reach). Reach "melee" = same zone, "ranged" =
#: the scene's shoot range, "any" = anyone in the scene (mental attacks need
#: no line on the map, 000:195-199).
ATTACK_SKILLS: dict[str, tuple[str, str]] = {
    "Fight": (PHYSICAL, "melee"),
    "Shoot": (PHYSICAL, "ranged"),
    "Provoke": (MENTAL, "any"),
}

#: the skills that act physically on someone outside one's own zone, within the scene's shooting
#: range: a ranged attack's skill (003:1343-1348) and keeping someone in view (Notice). Every other
#: skill acts on what is in one's zone (003:1325-1328): no Fight advantage up to a gallery.
RANGED_SKILLS: frozenset[str] = frozenset(
    [s for s, (_, reach) in ATTACK_SKILLS.items() if reach == "ranged"] + ["Notice"])

#: attack kind -> skills that defend (003:959-963).
DEFEND_SKILLS: dict[str, tuple[str, ...]] = {
    "melee": ("Athletics", "Fight"),
    "ranged": ("Athletics",),
    "any": ("Will",),
}

#: turn order under the "skills" dial (000:248-250).
ORDER_SKILLS: dict[str, tuple[str, ...]] = {
    PHYSICAL: ("Notice", "Athletics", "Physique"),
    MENTAL: ("Empathy", "Rapport", "Will"),
}
#: Fate 3.0's initiative: Alertness (the engine's Notice), Empathy in a social conflict, ties by
#: Resolve (Will), then the PCs (002:22)
INITIATIVE_SKILLS: dict[str, tuple[str, ...]] = {PHYSICAL: ("Notice", "Will"), MENTAL: ("Empathy", "Will")}

MOVE_SKILL = "Athletics"             # moving is an Athletics overcome (000:461)
BLOCK_SKILLS = ("Fight", "Athletics")  # a foe in the way opposes physically (000:469-473)
REMOVE_SKILLS = ("Athletics", "Physique", "Will")  # shaking off an aspect on yourself
EXPLOIT_SKILLS = ("Notice", "Investigate", "Empathy", "Fight", "Shoot", "Athletics", "Deceive", "Provoke", "Lore")
EXPLOIT_DIFFICULTY = 2  # Fair: the default passive difficulty to use an existing aspect
REMOVE_DIFFICULTY = 2   # Fair: clearing a situation aspect nobody defends


@dataclass(frozen=True)
class AdvantageTemplate:
    """A kind of advantage a character may try to create in a conflict.

    ``target`` is ``foe`` (the foe defends with ``defend``), ``self``,
    ``ally``, ``zone`` or ``scene`` (passive ``difficulty``).
    """

    name: str
    skills: tuple[str, ...]
    target: str
    track: str = PHYSICAL
    defend: tuple[str, ...] = ("Athletics",)
    difficulty: int = 2


DEFAULT_ADVANTAGES: tuple[AdvantageTemplate, ...] = (
    AdvantageTemplate("Off Balance", ("Fight", "Athletics"), "foe", PHYSICAL, ("Athletics", "Fight")),
    AdvantageTemplate("In My Sights", ("Shoot", "Notice"), "foe", PHYSICAL, ("Athletics", "Stealth")),
    AdvantageTemplate("Distracted", ("Deceive", "Provoke"), "foe", MENTAL, ("Will", "Empathy")),
    AdvantageTemplate("Taking Cover", ("Athletics", "Stealth"), "self", PHYSICAL, (), 2),
    AdvantageTemplate("Flashy Distraction", ("Lore", "Deceive", "Crafts"), "zone", PHYSICAL, (), 2),
    AdvantageTemplate("Rattled", ("Provoke", "Deceive"), "foe", MENTAL, ("Will",)),
    AdvantageTemplate("Read Their Weakness", ("Empathy", "Investigate"), "foe", MENTAL, ("Deceive", "Will")),
)

TARGET_KINDS = ("foe", "self", "ally", "zone", "scene")


def attack_track(e: "Play", skill: str) -> str:
    """The stress track an attack with ``skill`` harms (a stunt's attack skill: the scene's)."""
    return ATTACK_SKILLS[skill][0] if skill in ATTACK_SKILLS else e.kind
