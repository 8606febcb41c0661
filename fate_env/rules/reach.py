"""Where characters can act: attack skills and their reach, who blocks a move, turn order.

Reach by skill (melee Fight, ranged Shoot within the scene's ``shoot_range``, mental attacks
anywhere), a stunt's own attack skill and reach (003:425-427), advantage targets, the foe who
stands in a mover's way (000:461-471), and Core's order by skills (000:248-252).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .kinds import SceneKind
from .rolls import best_skill, effective
from .skills import (  # noqa: F401  (attack_track: callers read it here)
    ATTACK_SKILLS, BLOCK_SKILLS, INITIATIVE_SKILLS, MENTAL, ORDER_SKILLS, RANGED_SKILLS, AdvantageTemplate,
    attack_track,
)
from .state import Fighter
from .play import Play

if TYPE_CHECKING:
    from .scene import CharacterSheet


def track_attack_skills(tracks_in_play: tuple[str, ...]) -> list[tuple[str, str]]:
    """(skill, reach) of the skills that harm a track in play (no stunt needed)."""
    return [(s, reach) for s, (track, reach) in ATTACK_SKILLS.items() if track in tracks_in_play]


def sheet_attack_skills(tracks_in_play: tuple[str, ...], sheet: "CharacterSheet") -> list[tuple[str, str]]:
    """(skill, reach) of each skill ``sheet`` may attack with where ``tracks_in_play`` can be
    harmed: the skills that harm a track in play, then its stunts' attack skills (the first stunt
    naming a skill gives its reach). A fact of the scene and the sheet alone, so the environment's
    layout and the fast core's tables read it from here as the engine does."""
    out = track_attack_skills(tracks_in_play)
    for st in sheet.stunts:
        if st.kind == "use_skill" and st.action == "attack" and all(st.skill != s for s, _ in out):
            out.append((st.skill, st.reach))
    return out


def attack_skills(e: "Play", f: Fighter) -> list[str]:
    """The skills ``f`` may attack with in this scene: those harming a track in play, and its stunts'."""
    return [s for s, _ in sheet_attack_skills(e.tracks_in_play, f.sheet)]


def reach_of(f: Fighter, skill: str) -> str:
    if skill in ATTACK_SKILLS:
        return ATTACK_SKILLS[skill][1]
    for st in f.sheet.stunts:
        if st.kind == "use_skill" and st.skill == skill and st.action == "attack":
            return st.reach
    return "melee"


def can_reach(e: "Play", f: Fighter, target: str, skill: str, zone: str | None = None) -> bool:
    """Whether ``f`` (standing in ``zone``, by default where it is) reaches ``target`` with ``skill``."""
    reach = reach_of(f, skill)
    if reach == "any":
        return True
    here = f.zone if zone is None else zone
    tz = e.t.f[target].zone
    if reach == "melee":
        return tz == here
    return e.map.in_range(here, tz, e.scene.shoot_range)


def reaches_far(tpl: AdvantageTemplate) -> bool:
    """Whether any of the template's skills acts on a body beyond one's zone (RANGED_SKILLS)."""
    return any(s in RANGED_SKILLS for s in tpl.skills)


def far_advantage(e: "Play", f: Fighter, tpl: AdvantageTemplate, target: str) -> bool:
    """Whether placing ``tpl`` on ``target`` acts physically on someone outside ``f``'s zone, so
    only the template's skills that reach there may roll it (advantage_skills). A contest is no
    place on the map: its advantages go on any contestant (contest.advantage_options)."""
    return tpl.target == "foe" and tpl.track != MENTAL and e.t.mode is SceneKind.CONFLICT \
        and e.t.f[target].zone != f.zone


def advantage_skills(e: "Play", f: Fighter, tpl: AdvantageTemplate, target: str) -> tuple[str, ...]:
    """The template's skills ``f`` may roll to place it on ``target``: all of them in its own zone
    or on the mind; on a body in another zone only those that reach there (003:1325-1328,
    003:1343-1348): "In My Sights" with Shoot or Notice, no "Off Balance" with Fight."""
    if not far_advantage(e, f, tpl, target):
        return tpl.skills
    return tuple(s for s in tpl.skills if s in RANGED_SKILLS)


def advantage_skill(e: "Play", f: Fighter, tpl: AdvantageTemplate, target: str) -> str:
    """The skill ``f`` rolls to place ``tpl`` on ``target``: its best among those that reach."""
    return best_skill(e, f.id, advantage_skills(e, f, tpl, target), "create_advantage",
                      far=far_advantage(e, f, tpl, target))


def template_targets(e: "Play", f: Fighter, tpl: AdvantageTemplate, foes: list[str]) -> list[str]:
    """Who or what an advantage template may be placed on from where ``f`` stands: a foe's body
    in its zone, or within shooting range by a skill that reaches (advantage_skills)."""
    if tpl.target == "foe":
        if tpl.track == MENTAL:
            return foes
        F = e.t.f
        here = f.zone
        far = reaches_far(tpl)
        return [t for t in foes if F[t].zone == here
                or far and e.map.in_range(here, F[t].zone, e.scene.shoot_range)]
    if tpl.target == "self":
        return [f.id]
    if tpl.target == "ally":
        return e.t.allies_of(f.id)
    if tpl.target == "zone":
        return [f.zone]
    return ["scene"]


def blocker(e: "Play", f: Fighter) -> str | None:
    """The foe in the mover's zone best placed to stand in the way (000:461-471)."""
    best, best_skill = None, -99
    F = e.t.f
    for c in e.t.foes_of(f.id):
        if F[c].zone == f.zone:
            s = max(effective(e, c, k, "defend") for k in BLOCK_SKILLS)
            if s > best_skill:
                best, best_skill = c, s
    return best


def free_moves(e: "Play", f: Fighter) -> list[str]:
    """The zones ``f`` may step into as its free move (none past a foe that blocks, 000:459-463).
    As a minor action (``move_cost: minor``) a border's value does not stop the move, it adds to
    the penalty (002:50-51); a standing block still does. An immobile character has none."""
    if f.sheet.immobile:
        return []
    if e.scene.foes_block_movement:
        F, zone = e.t.f, f.zone
        if any(F[c].zone == zone for c in e.t.foes_of(f.id)):  # someone would block (see blocker)
            return []
    if e.facts.minor_moves:
        return e.map.minor_moves(f.zone)
    return e.map.free_moves(f.zone)


def skill_order(e: "Play") -> list[str]:
    """Core's turn order by skills (000:248-252), or Fate 3.0's initiative (002:22); PCs before
    NPCs on a full tie, then scene order. Worked out once per scene: it reads only the sheets."""
    if e.fixed_order is not None:
        return e.fixed_order
    e.fixed_order = _skill_order(e)
    return e.fixed_order


def order_skills(e: "Play") -> tuple[str, ...]:
    """The skills an order by skills compares, first to last (000:248-252; 002:22)."""
    return skills_of_order(e.facts.initiative, e.kind)


def skills_of_order(initiative: bool, kind: str) -> tuple[str, ...]:
    """The skills an order by skills compares under a rule set: Fate 3.0's initiative's (002:22) or
    Core's (000:248-252), for a physical or mental conflict."""
    return (INITIATIVE_SKILLS if initiative else ORDER_SKILLS)[kind]


def _skill_order(e: "Play") -> list[str]:
    F = e.t.f
    return order_by_skills([F[c].sheet for c in e.t.order], order_skills(e), e.facts.npcs_at_best_slot)


def order_by_skills(sheets: "list[CharacterSheet]", skills: tuple[str, ...], npcs_at_best_slot: bool) -> list[str]:
    """The turn order by ``skills`` of these sheets (given in the table's order): best first, PCs before
    NPCs on a full tie, then the given order; a group a character ``leads`` right after its leader
    (002:23); with ``npcs_at_best_slot`` the NPCs all at the best NPC's place. The one computation
    the engine and the fast core's tables both read."""
    order_ = [s.id for s in sheets]
    by_id = {s.id: s for s in sheets}

    def rank(cid: str) -> tuple:
        s = by_id[cid]
        return tuple(-s.skill(k) for k in skills) + (0 if s.kind == "pc" else 1, order_.index(cid))
    order = sorted(order_, key=rank)
    leaders = [(s.leads, s.id) for s in sheets if s.leads is not None]
    for group, leader in leaders:  # a group attached to a character acts at its initiative (002:23)
        order.remove(group)
        order.insert(order.index(leader) + 1, group)
    if npcs_at_best_slot:
        npcs = [c for c in order if by_id[c].is_npc]
        if npcs:
            slot = order.index(npcs[0])
            pcs = [c for c in order if not by_id[c].is_npc]
            order = pcs[:slot] + npcs + pcs[slot:]
    return order
