"""The action layout: every option of every decision kind as one ``Discrete(N)`` index.

The layout is fixed per scene (sized from its maxima) and ego-relative: character
slots count from the acting agent (slot 0 is itself, then the others in scene
order), so one policy can sit in any seat. Zones are in scene order; aspects live
in the aspect table (see :class:`AspectSlots`), boosts are indexed by their order
among the boosts usable by the invoker.

The segments, their sizes, the decision kinds whose options fall in each, their meanings and
their encoders are declared once, in :mod:`.segments` (``SEGMENTS``); ``docs/spaces.md`` lists
them with the warehouse's indices.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..rules.conflict import Conflict
from ..rules.options import Invoke
from ..rules.scene import Scene
from ..rules.reach import sheet_attack_skills, track_attack_skills
from ..rules.state import BOOST
from ..rules.stress import build_fighter
from .segments import (MAX_SHARE, SEGMENT_MEANINGS, SEGMENTS, SEGMENTS_BY_KIND, LayoutOverflow, encoders, fixed_options,
                       scene_features)

__all__ = ["ActionLayout", "AspectSlots", "LayoutOverflow", "Segment", "attack_skills", "usable_boosts", "MAX_SHARE",
           "SEGMENTS_BY_KIND", "SEGMENT_MEANINGS"]


def attack_skills(scene: Scene) -> list[str]:
    """Every character's attack skills in this scene (reach.sheet_attack_skills), in order."""
    tracks = scene.rules.tracks_in_play(scene.conflict)
    skills = [s for s, _ in track_attack_skills(tracks)]
    for c in scene.characters:
        skills += [s for s, _ in sheet_attack_skills(tracks, c) if s not in skills]
    return skills


class AspectSlots:
    """Live non-boost aspects in fixed slots: a new aspect takes the lowest free slot."""

    def __init__(self, size: int):
        self.size = size
        self.slot_of: dict[int, int] = {}
        self.aspect_at: list[int | None] = [None] * size
        self._seen: tuple = ()

    def sync(self, conflict: Conflict) -> None:
        # every aspect in play, a hidden one too: searching for it is an option with a slot (what
        # is there is not in the observation until it is found, ObservationEncoder)
        live = conflict.t.aspects
        # every new aspect takes the next number (rules/aspects.py new_aspect) and a removal shortens
        # the table: the same table, size and last number mean the same aspects (most steps)
        seen = (live, len(live), conflict.t.aspect_seq)
        if self._seen and self._seen[0] is live and self._seen[1:] == seen[1:]:
            return
        for aid, slot in list(self.slot_of.items()):
            if aid not in live:
                del self.slot_of[aid]
                self.aspect_at[slot] = None
        for aid, a in live.items():  # dicts keep creation order: slots are deterministic
            if a.kind != BOOST and aid not in self.slot_of:
                try:
                    slot = self.aspect_at.index(None)
                except ValueError:
                    raise LayoutOverflow(f"more than {self.size} aspects in play; raise max_aspects") from None
                self.slot_of[aid] = slot
                self.aspect_at[slot] = aid
        self._seen = seen


def usable_boosts(conflict: Conflict, options: Sequence[Any]) -> list[int]:
    """The boosts a decision's invoke options use, in order: the ``boost`` segment's indices."""
    out: list[int] = []
    for o in options:
        if type(o) is Invoke and conflict.aspect(o.aspect).kind == BOOST and o.aspect not in out:
            out.append(o.aspect)
    return out


@dataclass
class Segment:
    name: str
    start: int
    size: int


class ActionLayout:
    """Encode engine options as action indices for an ego, and back."""

    def __init__(self, scene: Scene, max_aspects: int | None = None, max_boosts: int | None = None,
                 fixed: Any = None):
        """``fixed``: a :class:`~fate_env.environment.maxima.Maxima` to pad every size to (one
        layout shared by several scenes); None sizes the layout to this scene."""
        self.scene = scene
        self.fixed = fixed
        self.ids = [c.id for c in scene.characters]
        self.zones = [z.id for z in scene.zones]
        self.scene_C, self.scene_Z = len(self.ids), len(self.zones)
        self.scene_skills = attack_skills(scene)
        self.scene_templates = [t.name for t in scene.advantages]  # advantages of either kind (003:1414-1419)
        fighters = [build_fighter(c, scene.rules) for c in scene.characters]
        self.scene_S = max((len(f.slots) for f in fighters), default=0)
        self.scene_X = max((len(t.values) for f in fighters for t in f.tracks.values()), default=0)
        initial = sum(bool(c.high_concept) + bool(c.trouble) + len(c.aspects) for c in scene.characters)
        initial += len(scene.aspects)
        contest = scene.contest
        self.scene_contest_skills = sorted({k for ks in contest.skills.values() for k in ks}) if contest else []
        self.scene_tasks = len(scene.challenge.tasks) if scene.challenge else 0
        twists = (contest.twists and len(contest.twists)) or 0 if contest else 0
        self.scene_T = len(self.scene_templates)
        self.scene_A = max_aspects or (initial + sum(len(f.slots) for f in fighters)
                                       + self.scene_T * (self.scene_C + self.scene_Z + 1)
                                       + (scene.rules.max_exchanges if contest else 0) + twists)
        self.scene_blocks = [b.block.name for b in scene.borders if b.block is not None]
        self.scene_features = scene_features(scene)
        if fixed is None:
            self.C, self.Z = self.scene_C, self.scene_Z
            self.skills, self.templates = self.scene_skills, self.scene_templates
            self.S, self.X, self.A = self.scene_S, self.scene_X, self.scene_A
            self.contest_skills, self.tasks, self.blocks = self.scene_contest_skills, self.scene_tasks, self.scene_blocks
            self.B = max_boosts or (2 * self.C + 4)
            self.features = self.scene_features
        else:
            fixed.check(self)
            self.C, self.Z, self.S, self.X, self.A = fixed.characters, fixed.zones, fixed.slots, fixed.boxes, fixed.aspects
            self.skills, self.templates = list(fixed.attack_skills), list(fixed.templates)
            self.contest_skills, self.tasks, self.blocks = list(fixed.contest_skills), fixed.tasks, list(fixed.blocks)
            self.B = fixed.boosts
            self.features = fixed.features
        self.K, self.T, self.Kc = len(self.skills), len(self.templates), len(self.contest_skills)
        sizes = [(spec.name, spec.size(self)) for spec in SEGMENTS]
        self.segments: dict[str, Segment] = {}
        pos = 0
        for name, size in sizes:
            self.segments[name] = Segment(name, pos, size)
            pos += size
        self.n = pos
        self._zone_index = {z: i for i, z in enumerate(self.zones)}
        self._skill_index = {s: i for i, s in enumerate(self.skills)}
        self._template_index = {t: i for i, t in enumerate(self.templates)}
        self._slots = {ego: {cid: i for i, cid in enumerate(self.order(ego))} for ego in self.ids}
        self._contest_skill_index = {s: i for i, s in enumerate(self.contest_skills)}
        self._invoke_start = self.segments["invoke"].start
        self._per_aspect = 2 + 2 * self.C
        self._fixed = fixed_options()
        self._encoders = encoders()

    # -- ego ordering ---------------------------------------------------------
    def order(self, ego: str) -> list[str]:
        """Character slots for ``ego``: itself first, then the others in scene order."""
        return [ego] + [c for c in self.ids if c != ego]

    def slot(self, ego: str, cid: str) -> int:
        return self._slots[ego][cid]

    def at(self, name: str, offset: int = 0) -> int:
        seg = self.segments[name]
        if not 0 <= offset < seg.size:
            raise LayoutOverflow(f"{name} offset {offset} is outside its {seg.size} slots")
        return seg.start + offset

    # -- encoding ---------------------------------------------------------------
    def encode(self, conflict: Conflict, ego: str, option: Any, slots: AspectSlots,
               boosts: Sequence[int] = ()) -> int:
        """The action index of one option of ``ego``'s pending decision."""
        t = type(option)
        fixed = self._fixed.get(t)
        if fixed is not None:
            return self.segments[fixed].start
        how = self._encoders.get(t)
        if how is None:
            raise LayoutOverflow(f"no action for option {option!r}")
        return how(self, conflict, ego, option, slots, boosts)

    def indices_for(self, kinds: Sequence[str]) -> list[int]:
        """The action indices the options of these decision kinds can take, in layout order: the
        compact action space of a learner that makes only these decisions (a turn-only learner
        on the warehouse needs a seventh of the layout; the invoke segment is most of it)."""
        unknown = [k for k in kinds if k not in SEGMENTS_BY_KIND]
        if unknown:
            raise ValueError(f"decision kind(s) {', '.join(unknown)}: expected some of {', '.join(SEGMENTS_BY_KIND)}")
        names = {n for k in kinds for n in SEGMENTS_BY_KIND[k]}
        return [i for seg in self.segments.values() if seg.name in names for i in range(seg.start, seg.start + seg.size)]

    def describe_segment(self, name: str) -> str:
        return SEGMENT_MEANINGS.get(name, name)

    def segment_of(self, action: int) -> tuple[str, int]:
        """(segment name, offset) of an action index: for docs, tests and debugging."""
        for seg in self.segments.values():
            if seg.start <= action < seg.start + seg.size:
                return seg.name, action - seg.start
        raise ValueError(f"action {action} is outside 0..{self.n - 1}")
