"""The GM's hand on a scene in play: what happens at real tables that no roll decides.

Reinforcements arrive, someone leaves, the GM moves a character, changes a rating, hands out a
boost, or names a consequence. Each function here changes the table and emits the event; the
engine's ``gm_*`` methods check the scene is still running, record the power (so copies of the
engine replay it) and ask the pending decision again. Every check comes before any change: a
power that is refused changes nothing.
"""

from __future__ import annotations

from dataclasses import replace

from . import events as ev
from .aspects import boost, new_aspect
from .kinds import SceneKind, Status
from .reach import skill_order
from .scene import CharacterSheet
from .skills import DEFAULT_SKILLS
from .state import ADVANTAGE, BOOST, CHARACTER, CONSEQUENCE
from .stress import build_fighter
from .play import Play


#: sheet features worked out once when a scene starts: a character that has one must be in the
#: scene file from the start, not brought in by the GM
_SCENE_START_ONLY = ("true_form", "contest_immunity", "protected_by", "leads", "challenge_immunity")


def check_new_character(e: "Play", sheet: CharacterSheet) -> None:
    """Why ``sheet`` cannot join the scene now, raised as ValueError (nothing changed)."""
    if e.t.mode != SceneKind.CONFLICT:
        raise ValueError(f"characters join a conflict; this scene is a {e.t.mode} now")
    if sheet.id in e.t.f:
        raise ValueError(f"there is already a character {sheet.id!r} in the scene")
    if sheet.zone not in e.map.neighbours:
        raise ValueError(f"no zone {sheet.zone!r}; zones: {', '.join(e.map.ids)}")
    for name in _SCENE_START_ONLY:
        if getattr(sheet, name):
            raise ValueError(f"{sheet.name} has {name.replace('_', ' ')}, which is set up when the scene starts; "
                             "put the character in the scene file instead")


def add_character(e: "Play", sheet: CharacterSheet) -> None:
    """``sheet`` joins the fight: a fighter on the table, its aspects in play, its fate points
    (an NPC's into the GM pool). Under a fixed turn order it takes its place in the order (if its
    place in this exchange is already past, it acts from the next); under popcorn it may be
    picked at once."""
    t = e.t
    acting = _current_in_order(e)
    if sheet.id not in e.order:  # a copy replaying the power already shares the grown scene
        e.scene = replace(e.scene, characters=(*e.scene.characters, sheet))
        e.facts_from_characters()
    fighter = build_fighter(sheet, e.rules)
    t.f = {**t.f, sheet.id: fighter}
    t.order = [*t.order, sheet.id]  # a new list: checkpoints share the old one
    t.fp_start = {**t.fp_start, sheet.id: fighter.fate_points}
    t.fp_spent = {**t.fp_spent, sheet.id: 0}
    if sheet.is_npc:
        t.gm_pool += sheet.fate_points
    for role, name in (("high_concept", sheet.high_concept), ("trouble", sheet.trouble)):
        if name:
            new_aspect(e, name, CHARACTER, owner=sheet.id, role=role)
    for name in sheet.aspects:
        new_aspect(e, name, CHARACTER, owner=sheet.id, role="other")
    t.left_fight()  # the cached lists of who is in the fight are stale
    _keep_turn(e, acting)
    e.emit(ev.GmAction("add_character", sheet.id, sheet.name, sheet.count, sheet.zone))


def remove_character(e: "Play", cid: str) -> None:
    """``cid`` leaves the scene: neither taken out nor conceded, no payout (the GM's call)."""
    f = _fighter(e, cid)
    if not f.active:
        raise ValueError(f"{cid} is no longer in the fight ({f.status.replace('_', ' ')})")
    f.status = Status.REMOVED
    e.t.left_fight()
    e.emit(ev.GmAction("remove_character", cid, None, 0, f.zone))


def move_character(e: "Play", cid: str, zone: str) -> None:
    """Put ``cid`` in ``zone`` (no roll, no move spent: the fiction put it there)."""
    f = _fighter(e, cid)
    if zone not in e.map.neighbours:
        raise ValueError(f"no zone {zone!r}; zones: {', '.join(e.map.ids)}")
    if e.t.f[cid].sheet.immobile:
        raise ValueError(f"{cid} is immobile: it never leaves {f.zone}")
    if zone == f.zone:
        raise ValueError(f"{cid} is already in {zone}")
    e.emit(ev.GmAction("move", cid, None, 0, zone))
    f.zone = zone


def set_rating(e: "Play", cid: str, skill: str, rating: int) -> None:
    """Change one skill's rating for the rest of the scene. The stress track and consequence
    slots stay as the scene built them (a changed Physique or Will adds no boxes mid-fight)."""
    f = _fighter(e, cid)
    if not -4 <= rating <= 12:
        raise ValueError(f"a rating from -4 to 12, got {rating}")
    known = set(DEFAULT_SKILLS) | {k for c in e.scene.characters for k in c.skills}
    if skill not in known:
        raise ValueError(f"no skill {skill!r} in this scene; skills: {', '.join(sorted(known))}")
    acting = _current_in_order(e)
    skills = {**f.sheet.skills, skill: rating}
    if rating == 0:
        skills.pop(skill)
    f.sheet = replace(f.sheet, skills=skills)
    e.fixed_order = None  # a turn order by skills reads the new rating
    _keep_turn(e, acting)
    e.emit(ev.GmAction("rating", cid, skill, rating, None))


def give_boost(e: "Play", cid: str, name: str) -> int:
    """A boost for ``cid``: one free invoke, gone at the end of its next turn if unused (003:1059-1066)."""
    f = _fighter(e, cid)
    if not f.active:
        raise ValueError(f"{cid} is no longer in the fight")
    if not name.strip():
        raise ValueError("a boost needs a name")
    e.emit(ev.GmAction("boost", cid, name.strip(), 1, None))
    boost(e, cid, name.strip())
    return e.t.aspect_seq


def name_consequence(e: "Play", aid: int, name: str) -> None:
    """Give a consequence in play its name (the one who takes it, or the GM, names it: 003:1631-1634)."""
    a = e.t.aspects.get(aid)
    if a is None or a.kind != CONSEQUENCE:
        raise ValueError(f"aspect {aid} is not a consequence in play")
    if not name.strip():
        raise ValueError("a consequence needs a name")
    old, a.name = a.name, name.strip()
    e.emit(ev.ConsequenceNamed(a.owner, aid, old, a.name))


def name_aspect(e: "Play", aid: int, name: str) -> None:
    """Give an aspect created in the fight its name: a consequence (its taker's or the GM's words,
    003:1631-1634), or an advantage or a boost (its creator introduces it, 003:817-822). A character's
    own aspects and the scene's are written in the scene, not named in play."""
    a = e.t.aspects.get(aid)
    if a is None:
        raise ValueError(f"no aspect #{aid} in play")
    if a.kind == CONSEQUENCE:
        name_consequence(e, aid, name)
        return
    if a.kind not in (ADVANTAGE, BOOST):
        raise ValueError(f"#{aid} {a.name} is written in the scene; only a consequence or an aspect created in "
                         "the fight is named in play")
    if not name.strip():
        raise ValueError("an aspect needs a name")
    old, a.name = a.name, name.strip()
    e.emit(ev.AspectNamed(a.creator, aid, old, a.name))


def _fighter(e: "Play", cid: str):
    f = e.t.f.get(cid)
    if f is None:
        raise ValueError(f"no character {cid!r}; characters: {', '.join(e.t.order)}")
    return f


def _current_in_order(e: "Play") -> str | None:
    """Whose turn a fixed order (by skills or initiative) is at, if the scene runs one."""
    if e.facts.popcorn or not isinstance(e.t.cursor, int):
        return None
    return skill_order(e)[e.t.cursor]


def _keep_turn(e: "Play", acting: str | None) -> None:
    """After the order changed: the cursor points at the same character as before."""
    e.fixed_order = None
    if acting is not None:
        e.t.cursor = skill_order(e).index(acting)
