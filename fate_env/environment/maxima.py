"""Fixed-size spaces: one observation and action layout shared by several scenes.

By default a scene's spaces are sized to that scene (its characters, zones, attack skills,
advantage templates, aspects...), so a policy trained on the warehouse cannot play the ghoul.
:class:`Maxima` declares the sizes instead; every scene laid out under the same maxima has the
same spaces, padded where it has fewer of something (padded slots are never legal actions and
always zero in the observation). ``Maxima.of(scenes)`` takes the largest of each over a list of
scenes, which is what training one policy on many scenes needs.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Iterable


@dataclass(frozen=True)
class Maxima:
    """The sizes a layout pads to. Lists (attack skills, templates, blocks) are the union, in order."""

    characters: int
    zones: int
    aspects: int
    boosts: int
    attack_skills: tuple[str, ...]
    templates: tuple[str, ...]
    slots: int                    # consequence slots per character
    boxes: int                    # stress boxes per track
    contest_skills: tuple[str, ...] = ()
    tasks: int = 0
    countdowns: int = 0
    blocks: tuple[str, ...] = ()
    #: segments and observation entries that only some rule sets or scenes have, present in all
    features: frozenset[str] = frozenset()

    @classmethod
    def of(cls, scenes: Iterable[Any]) -> "Maxima":
        """The least maxima every one of ``scenes`` (loaded Scene objects) fits in."""
        from .actions import ActionLayout
        layouts = [ActionLayout(s) for s in scenes]
        if not layouts:
            raise ValueError("Maxima.of needs at least one scene")

        def union(attr: str) -> tuple[str, ...]:
            out: list[str] = []
            for lay in layouts:
                out += [x for x in getattr(lay, attr) if x not in out]
            return tuple(out)
        return cls(characters=max(lay.C for lay in layouts), zones=max(lay.Z for lay in layouts),
                   aspects=max(lay.A for lay in layouts), boosts=max(lay.B for lay in layouts),
                   attack_skills=union("skills"), templates=union("templates"),
                   slots=max(lay.S for lay in layouts), boxes=max(lay.X for lay in layouts),
                   contest_skills=union("contest_skills"), tasks=max(lay.tasks for lay in layouts),
                   countdowns=max(len(lay.scene.countdowns) for lay in layouts), blocks=union("blocks"),
                   features=frozenset().union(*(lay.features for lay in layouts)))

    def check(self, layout: Any) -> None:
        """Why a scene does not fit these maxima (ValueError naming what is too big)."""
        over = []
        for name, have, cap in (("characters", layout.scene_C, self.characters), ("zones", layout.scene_Z, self.zones),
                                ("aspects", layout.scene_A, self.aspects), ("slots", layout.scene_S, self.slots),
                                ("boxes", layout.scene_X, self.boxes), ("tasks", layout.scene_tasks, self.tasks),
                                ("countdowns", len(layout.scene.countdowns), self.countdowns)):
            if have > cap:
                over.append(f"{name} {have} > {cap}")
        for name, have, cap in (("attack skills", layout.scene_skills, self.attack_skills),
                                ("advantage templates", layout.scene_templates, self.templates),
                                ("contest skills", layout.scene_contest_skills, self.contest_skills),
                                ("blocks", layout.scene_blocks, self.blocks)):
            missing = [x for x in have if x not in cap]
            if missing:
                over.append(f"{name} {missing} not among the maxima's")
        extra = layout.scene_features - self.features
        if extra:
            over.append(f"features {sorted(extra)} not among the maxima's")
        if over:
            raise ValueError(f"scene {layout.scene.name!r} does not fit these maxima: {'; '.join(over)}")

    def to_json(self) -> dict[str, Any]:
        return {f.name: (sorted(v) if isinstance(v, frozenset) else list(v) if isinstance(v, tuple) else v)
                for f in fields(self) for v in [getattr(self, f.name)]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Maxima":
        kw = dict(data)
        for k in ("attack_skills", "templates", "contest_skills", "blocks"):
            kw[k] = tuple(kw.get(k, ()))
        kw["features"] = frozenset(kw.get("features", ()))
        return cls(**kw)
