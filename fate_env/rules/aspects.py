"""Aspects in play: making them, who can see them, boosts and free invokes.

Boosts (003:1059-1066), advantages and situation aspects (003:1374-1380), and the names of the
aspects the engine itself puts into play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import events as ev
from .kinds import SceneKind
from .skills import MENTAL, PHYSICAL
from .blocks import standing_block
from .state import ACTIVE, ADVANTAGE, BOOST, CHARACTER, CONSEQUENCE, SITUATION, Aspect, Fighter
from .play import Play

if TYPE_CHECKING:
    from .scene import Hazard, Scene

CONSEQUENCE_NAMES = {
    PHYSICAL: {"mild": "Bruised and Battered", "moderate": "Deep Cut", "severe": "Broken Bones", "extreme": "Maimed"},
    MENTAL: {"mild": "Flustered", "moderate": "Shaken to the Core", "severe": "Crippling Doubt",
             "extreme": "Broken Spirit"},
}
#: skill -> severity -> names for the consequences a blow with that skill leaves (the default
#: skills that attack; any other skill's blows take the track's names)
HIT_NAMES: dict[str, dict[str, tuple[str, ...]]] = {
    "Fight": {"mild": ("Bruised Ribs", "Split Lip", "Black Eye"), "moderate": ("Deep Gash", "Cracked Ribs", "Twisted Knee"),
              "severe": ("Broken Arm", "Run Through", "Shattered Jaw"), "extreme": ("Lost an Eye", "Maimed Hand")},
    "Shoot": {"mild": ("Grazed", "Nicked Ear", "Shrapnel Scratches"),
              "moderate": ("Arrow in the Shoulder", "Shot in the Leg", "Bleeding Side"),
              "severe": ("Shot Through the Gut", "Bolt in the Lung"), "extreme": ("Crippled Leg", "Half-Blind")},
    "Physique": {"mild": ("Winded", "Bruised All Over"), "moderate": ("Wrenched Back", "Crushed Fingers"),
                 "severe": ("Broken Ribs", "Cracked Skull"), "extreme": ("Crushed Spine",)},
    "Provoke": {"mild": ("Unnerved", "Lost My Nerve"), "moderate": ("Haunted by the Threat", "Jumping at Shadows"),
                "severe": ("Terrified", "Can't Stop Shaking"), "extreme": ("Nerve Gone for Good",)},
    "Deceive": {"mild": ("Second-Guessing", "Off My Game"), "moderate": ("Played for a Fool", "Doubting My Friends"),
                "severe": ("Can't Trust Anyone",), "extreme": ("Lost My Grip on the Truth",)},
    "Rapport": {"mild": ("Charmed",), "moderate": ("Divided Loyalties",), "severe": ("Turned",),
                "extreme": ("Wholly Won Over",)},
}
#: a track's plainer names, after its default
FALLBACK_NAMES = {
    PHYSICAL: {"mild": ("Scraped and Sore",), "moderate": ("Nasty Wound",), "severe": ("Grievous Injury",),
               "extreme": ("Scarred for Life",)},
    MENTAL: {"mild": ("Unsettled",), "moderate": ("Badly Shaken",), "severe": ("Deeply Scarred",),
             "extreme": ("Changed Forever",)},
}
#: the names of the boosts and other aspects the engine itself puts into play (a bonus stunt's
#: ``when: aspect: NAME`` may name one of these, see fate_env.content.scenes)
ENGINE_ASPECTS = ("Prepared", "Upper Hand", "Opening", "Momentum", "Glancing Blow", "Second Wind", "Small Win",
                  "Clear Ground", "Flying Start", "Hard-Won Ground", "Close Look")


def new_aspect(e: "Play", name: str, kind: str, *, owner: str | None = None, zone: str | None = None,
               creator: str | None = None, role: str | None = None, skill: str | None = None,
               obstacle: bool = False, hidden: bool = False) -> Aspect:
    t = e.t
    t.aspect_seq += 1
    a = Aspect(t.aspect_seq, name, kind, owner, zone, creator, {}, role, skill, obstacle, hidden)
    t.aspects[a.id] = a
    return a


def setup_aspects(e: "Play") -> None:
    """Every character's aspects, then the scene's situation aspects with their free invokes."""
    for c in e.scene.characters:
        for role, name in (("high_concept", c.high_concept), ("trouble", c.trouble)):
            if name:
                new_aspect(e, name, CHARACTER, owner=c.id, role=role)
        for name in c.aspects:
            new_aspect(e, name, CHARACTER, owner=c.id, role="other")
    for sa in e.scene.aspects:
        a = new_aspect(e, sa.name, SITUATION, zone=sa.zone, hidden=sa.hidden)
        a.free.update(sa.free_invokes)
    # an obstacle's name is an aspect, which matters only where the obstacle does: a block's to crossing
    # it, clearing it or being thrown into it (003:2306-2313); a distraction's to dealing with it
    # (003:2355-2357). A hazard's "can be invoked or compelled like any aspect" (003:2276-2278): an
    # aspect of its zone, or of the whole scene when it has none
    for b in e.scene.borders:
        if b.block is not None:
            new_aspect(e, b.block.name, SITUATION, obstacle=True)
    for dz in e.scene.distractions:
        new_aspect(e, dz.name, SITUATION, obstacle=True)
    for hz in e.scene.hazards:
        new_aspect(e, hz.name, SITUATION, zone=hz.zone)


def visible(e: "Play", a: Aspect, zones: tuple[str, ...] | None = None) -> bool:
    """In play for someone in ``zones``: not on a character who has left, not on another zone."""
    if a.owner is not None and e.t.f[a.owner].status != ACTIVE:
        return False
    if a.zone is not None and zones is not None and a.zone not in zones:
        return False
    return True


def exploitable(e: "Play", f: Fighter) -> list[Aspect]:
    """Aspects ``f`` could take advantage of from where it stands (any but boosts, visible here).
    A hidden one is among them: taking advantage of it is how it is discovered (003:854-867); the
    table knows there is something to find there, not what it is. An aspect on a foe's body in
    another zone needs a skill that reaches there, within the shooting range, as placing a new one
    would (003:1325-1328, 003:1343-1348; reach.advantage_skills): Limping on a foe two rooms off is
    taken advantage of with Shoot or Notice, never with Fight."""
    F, zone = e.t.f, f.zone
    return [a for a in e.t.aspects.values() if a.kind != BOOST and (a.owner is None or F[a.owner].status == ACTIVE)
            and (a.zone is None or a.zone == zone)
            and (not far_aspect(e, f, a) or e.map.in_range(zone, F[a.owner].zone, e.scene.shoot_range))]


def far_aspect(e: "Play", f: Fighter, a: Aspect) -> bool:
    """Whether taking advantage of ``a`` acts on a foe's body outside ``f``'s zone (reach.far_advantage's
    test, for an aspect already there): then only the skills that reach there may roll it."""
    owner = a.owner
    if owner is None:
        return False
    o = e.t.f[owner]  # the cheap tests first: this runs for every aspect at every turn (exploitable)
    return o.zone != f.zone and o.sheet.side != f.sheet.side and e.kind == PHYSICAL and e.t.mode is SceneKind.CONFLICT


def hazard_of(e: "Play", a: Aspect) -> "Hazard | None":
    """The hazard whose name the scene aspect ``a`` is, if any (its aspect stands while it does)."""
    if a.kind != SITUATION or a.creator is not None:
        return None
    return next((hz for hz in e.scene.hazards if hz.name == a.name), None)


def removable(e: "Play", f: Fighter) -> list[Aspect]:
    """Advantages and situation aspects someone could plausibly clear from here."""
    F = e.t.f
    out = []
    obstacles = e.scene_has_blocks or e.scene.hazards or e.scene.distractions
    for a in e.t.aspects.values():
        if a.hidden:
            continue  # nobody clears what nobody knows is there
        if obstacles and a.kind == SITUATION and a.creator is None:
            b = standing_block(e, a)  # a block is cleared from either side of it (003:2344-2345)
            if b is not None and f.zone in (b.a, b.b):
                out.append(a)
            hz = hazard_of(e, a)  # a hazard is overcome from where it strikes (003:2295-2297)
            if hz is not None and hz.zone in (None, f.zone):
                out.append(a)
            if any(dz.name == a.name for dz in e.scene.distractions):  # dealt with from anywhere
                out.append(a)
            continue
        if a.kind == ADVANTAGE or (a.kind == SITUATION and a.creator is not None):
            if a.owner is not None:
                if F[a.owner].status == ACTIVE and F[a.owner].sheet.side == f.sheet.side:
                    out.append(a)
            elif a.zone is None or a.zone == f.zone:
                out.append(a)
    return out


def consequence_candidates(scene: "Scene", track: str, severity: str, skill: str | None) -> tuple[str, ...]:
    """The names a new consequence may take, best first: the scene's own list for the severity,
    then words for the skill that dealt the hit (a blade leaves a gash, a taunt leaves doubt), the
    track's default, then its plainer fallback. Fate leaves the name to the table (003:1631-1634);
    these are the engine's proposal, and live play still asks. Both engines read this list (the
    fast core lays it out per skill in its tables)."""
    out = (*scene.consequence_names.get(severity, ()), *HIT_NAMES.get(skill or "", {}).get(severity, ()),
           CONSEQUENCE_NAMES[track][severity], *FALLBACK_NAMES[track][severity])
    return tuple(dict.fromkeys(out))


def own_consequence_name(track: str, severity: str, name: str) -> str:
    """The default name made its taker's own, once every candidate is on someone in the scene."""
    return f"{CONSEQUENCE_NAMES[track][severity]} ({name})"


def possible_consequence_names(scene: "Scene") -> set[str]:
    """Every name a consequence can take in ``scene``: the candidates for any skill (or none) on
    either track, and each character's own defaults (what a stunt's ``when: aspect`` may name)."""
    return {n for t in CONSEQUENCE_NAMES for sev in CONSEQUENCE_NAMES[t] for skill in (None, *HIT_NAMES)
            for n in consequence_candidates(scene, t, sev, skill)} \
        | {own_consequence_name(t, sev, c.name) for t in CONSEQUENCE_NAMES for sev in CONSEQUENCE_NAMES[t]
           for c in scene.characters}


def consequence_name(e: "Play", track: str, severity: str, owner: str, skill: str | None = None) -> str:
    """A new consequence's name: the first of :func:`consequence_candidates` (for the hit's
    ``skill``; none for a hazard, a crossing or a cost) that no consequence in play carries, so no
    two characters carry the same one; once all are, the default made the taker's own."""
    taken = {a.name for a in e.t.aspects.values() if a.kind == CONSEQUENCE}
    for name in consequence_candidates(e.scene, track, severity, skill):
        if name not in taken:
            return name
    return own_consequence_name(track, severity, e.t.f[owner].sheet.name)


def boost(e: "Play", holder: str, name: str) -> None:
    a = new_aspect(e, name, BOOST, creator=holder)
    a.free[holder] = 1
    e.t.boost_turn[a.id] = e.t.turn_seq
    e.emit(ev.AspectCreated(name, a.id, BOOST, None, 1, holder))


def reveal(e: "Play", a: Aspect, by: str) -> None:
    """A hidden aspect becomes known: from now on it is like any other (003:854-867)."""
    a.hidden = False
    e.emit(ev.AspectRevealed(a.name, a.id, by))


def gain_free(e: "Play", a: Aspect, holder: str, count: int) -> None:
    a.free[holder] = a.free.get(holder, 0) + count
    e.emit(ev.FreeInvokeGained(holder, a.name, a.id, count))


def expire_boosts(e: "Play", actor: str) -> None:
    """An unused boost lasts until the end of its holder's next turn (it never outlives the
    moment it stands for, 003:1059-1066). Not in a challenge: there they stay for the scene (000:68)."""
    t = e.t
    for aid in [aid for aid, a in t.aspects.items() if a.kind == BOOST and actor in a.free]:
        if t.boost_turn.get(aid, 0) < t.turn_seq:
            name = t.aspects[aid].name
            del t.aspects[aid]
            e.emit(ev.AspectRemoved(name, aid, "boost expired"))
