"""The entity view: a decision seen as sets of characters, zones, aspects and options, whatever the
scene's size (issue 53: one network for every scene).

The fixed-shape observation (``observation.py``) sizes its vector and its action space from one
scene, so a model trained on it plays that scene's shape only. Here each thing in play is a row of
its own features, relative to the one deciding (the ego), and the decision's options are rows too,
each pointing at the character, zone and aspect it names. A network that embeds rows, pools sets and
scores options (``fate_env.learn.entity_net``) reads any scene within :data:`LIMITS`.

What an option says is read from its own fields (``rules/options.py``), by the field's meaning: a
character, a zone, an aspect, a skill, a template, a flag, a count. A new option class needs no
entry here; it is appended to :data:`OPTION_TYPES` by defining it.
"""

from __future__ import annotations

import dataclasses
import zlib
from itertools import accumulate
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..content.generate import LIMITS as GENERATED
from ..rules import options as option_module
from ..rules.conflict import Conflict
from ..rules.kinds import DecisionKind
from ..rules.skills import DEFAULT_SKILLS, TARGET_KINDS
from ..rules.state import ACTIVE, ADVANTAGE, BOOST, CHARACTER, CONCEDED, CONSEQUENCE, SITUATION


@dataclass(frozen=True)
class Limits:
    """The largest scene the view encodes (the generator's sizes, with room for the shipped scenes)."""

    characters: int = 24
    zones: int = 12
    aspects: int = 160
    options: int = 4096


LIMITS = Limits(characters=max(24, GENERATED.characters[1]), zones=max(12, GENERATED.zones[1]))

#: every option class, in the order ``rules/options.py`` defines them (new ones go last)
OPTION_TYPES: tuple[type, ...] = tuple(v for v in vars(option_module).values()
                                      if isinstance(v, type) and dataclasses.is_dataclass(v)
                                      and v.__module__ == option_module.__name__)
DECISIONS = tuple(DecisionKind)
KINDS = ("pc", "major", "minor", "mob")
ASPECT_KINDS = (CHARACTER, SITUATION, ADVANTAGE, CONSEQUENCE, BOOST)
#: buckets a word an option carries (a ``Choose``'s outcome, an invoke's effect) is hashed into
WORD_BUCKETS = 16

GLOBAL = len(DECISIONS) + 12
CHARACTER_FEATURES = 3 + len(KINDS) + 3 + 3 + 4 + 2 + 1 + 1 + 1 + 1 + 1 + 2 + len(DEFAULT_SKILLS) + 1
ZONE_FEATURES = 8
ASPECT_FEATURES = len(ASPECT_KINDS) + 4 + 1 + 3 + 1
#: an option row's columns, block by block: its type (one-hot), its skill (the defaults, then any
#: other), its template's target kind, two flags (free, any other), counts (an absorb's boxes and
#: slots, a number), a word's bucket, whether it points at a character, a zone, an aspect, and two
#: hints: whether it is the move a script suggests (``encode``'s ``suggested``), and an attack's
#: margin (its rating against the target's defense, before the dice)
_BLOCKS = (("type", len(OPTION_TYPES)), ("skill", len(DEFAULT_SKILLS) + 1), ("template", len(TARGET_KINDS)),
           ("flag", 2), ("count", 3), ("word", WORD_BUCKETS), ("points", 3), ("hint", 2))
#: where each block starts
O_AT: dict[str, int] = dict(zip((n for n, _ in _BLOCKS), accumulate((w for _, w in _BLOCKS), initial=0)))
OPTION_FEATURES = sum(w for _, w in _BLOCKS)


class TooLarge(ValueError):
    """A scene past the view's limits: one line, naming what is past which limit."""


@dataclass
class Entities:
    """One decision as sets. Pointers are row indices into ``characters``, ``zones`` and
    ``aspects`` (-1: none)."""

    glob: np.ndarray          # (GLOBAL,)
    characters: np.ndarray    # (C, CHARACTER_FEATURES); row 0 is the ego
    char_zone: np.ndarray     # (C,) the zone each stands in
    zones: np.ndarray         # (Z, ZONE_FEATURES)
    aspects: np.ndarray       # (A, ASPECT_FEATURES): the aspects the ego can see
    aspect_owner: np.ndarray  # (A,) the character it is on
    aspect_zone: np.ndarray   # (A,) the zone it is on
    options: np.ndarray       # (O, OPTION_FEATURES): the pending decision's options, in its order
    option_char: np.ndarray   # (O,) the character an option names
    option_zone: np.ndarray   # (O,)
    option_aspect: np.ndarray  # (O,)


def check(scene: Any, limits: Limits = LIMITS) -> None:
    """Refuse, in one line, a scene past the limits the view (and a network over it) is built for."""
    n, z = len(scene.characters), len(scene.zones)
    if n > limits.characters or z > limits.zones:
        raise TooLarge(f"scene {scene.name!r}: {n} characters and {z} zones; the entity view takes at most "
                       f"{limits.characters} characters and {limits.zones} zones")


def _word(text: str) -> int:
    return zlib.crc32(text.encode()) % WORD_BUCKETS


class EntityEncoder:
    """Encodes decisions of one scene as :class:`Entities` (the ego first, then the others in the
    scene's order)."""

    def __init__(self, scene: Any, limits: Limits = LIMITS):
        check(scene, limits)
        self.scene = scene
        self.limits = limits
        self.ids = [c.id for c in scene.characters]
        self.zone_ids = [z.id for z in scene.zones]
        self.zone_at = {z: i for i, z in enumerate(self.zone_ids)}
        self.templates = {t.name: t for t in scene.advantages}

    def encode(self, c: Conflict, ego: str, suggested: int | None = None) -> Entities:
        """The decision pending for ``ego`` as rows; ``suggested``: the option a script would take
        (a policy that learned where to depart from its script reads it)."""
        order = [ego] + [x for x in self.ids if x != ego]
        at = {cid: i for i, cid in enumerate(order)}
        F = c.f
        me = F[ego]
        side = me.sheet.side
        chars = np.zeros((len(order), CHARACTER_FEATURES), np.float32)
        char_zone = np.array([self.zone_at[F[x].zone] for x in order], np.int64)
        for i, cid in enumerate(order):
            chars[i] = self._character(c, cid, ego, side)
        zones = np.zeros((len(self.zone_ids), ZONE_FEATURES), np.float32)
        for i, z in enumerate(self.zone_ids):
            zones[i] = self._zone(c, z, ego, side)
        seen = [a for a in c.aspects.values() if not getattr(a, "hidden", False)]
        if len(seen) > self.limits.aspects:
            raise TooLarge(f"{len(seen)} aspects in play; the entity view takes at most {self.limits.aspects}")
        aspects = np.zeros((len(seen), ASPECT_FEATURES), np.float32)
        owner = np.full(len(seen), -1, np.int64)
        azone = np.full(len(seen), -1, np.int64)
        aspect_at = {}
        roll = c.roll
        invoked = roll.invoked.get(side, ()) if roll is not None else ()
        for i, a in enumerate(seen):
            aspect_at[a.id] = i
            aspects[i] = self._aspect(c, a, ego, side, aid_invoked=a.id in invoked)
            if a.owner is not None:
                owner[i] = at[a.owner]
            if a.zone is not None:
                azone[i] = self.zone_at[a.zone]
        d = c.pending
        opts = list(d.options) if d is not None and d.actor == ego else []
        if len(opts) > self.limits.options:
            raise TooLarge(f"{len(opts)} options; the entity view takes at most {self.limits.options}")
        o_feat = np.zeros((len(opts), OPTION_FEATURES), np.float32)
        o_char = np.full(len(opts), -1, np.int64)
        o_zone = np.full(len(opts), -1, np.int64)
        o_asp = np.full(len(opts), -1, np.int64)
        for i, o in enumerate(opts):
            o_feat[i], o_char[i], o_zone[i], o_asp[i] = self._option(o, at, aspect_at)
            if type(o) is option_module.Attack and c.f[o.target].status == ACTIVE:
                margin = c.attack_rating(ego, o.skill, o.target) - c.defense_rating(o.target, ego, o.skill)
                o_feat[i, O_AT["hint"] + 1] = margin / 8
        if suggested is not None and 0 <= suggested < len(opts):
            o_feat[suggested, O_AT["hint"]] = 1.0
        return Entities(self._global(c, ego, side), chars, char_zone, zones, aspects, owner, azone,
                        o_feat, o_char, o_zone, o_asp)

    # -- rows ---------------------------------------------------------------------------------
    def _global(self, c: Conflict, ego: str, side: str) -> np.ndarray:
        g = np.zeros(GLOBAL, np.float32)
        d = c.pending
        k = len(DECISIONS)
        if d is not None and d.actor == ego:
            g[DECISIONS.index(DecisionKind(d.kind))] = 1.0
            ctx = d.context
            if "effort" in ctx:
                g[k] = ctx["effort"] / 10
                g[k + 1] = ctx["opposition"] / 10
                g[k + 2] = ctx["margin"] / 10
                g[k + 3] = 1.0 if ctx.get("as_roller") else 0.0
            if "shifts" in ctx:
                g[k + 4] = ctx["shifts"] / 10
        g[k + 5] = c.exchange / max(1, c.rules.max_exchanges)
        g[k + 6] = c.gm_pool / 10
        g[k + 7] = c.fate_points_of(ego) / 10
        standing = c.contest_standing(side)
        if standing is not None:
            g[k + 8], g[k + 9] = standing
        g[k + 10] = len(self.ids) / 16
        g[k + 11] = len(self.zone_ids) / 6
        return g

    def _character(self, c: Conflict, cid: str, ego: str, side: str) -> np.ndarray:
        f = c.f[cid]
        s = f.sheet
        row = [1.0 if cid == ego else 0.0, 1.0 if cid != ego and s.side == side else 0.0,
               1.0 if s.side != side else 0.0]
        row += [1.0 if s.kind == k else 0.0 for k in KINDS]
        row += [1.0 if f.status == ACTIVE else 0.0, 1.0 if f.status == CONCEDED else 0.0,
                1.0 if f.status not in (ACTIVE, CONCEDED) else 0.0]
        hops = c.distance(ego, cid)
        row += [1.0 if f.zone == c.f[ego].zone else 0.0, (hops if hops is not None else 0) / 6,
                1.0 if hops is None else 0.0]
        phys, ment = f.tracks["physical"], f.tracks["mental"]
        row += [(len(phys.values) - sum(phys.marked)) / 10, (len(ment.values) - sum(ment.marked)) / 10,
                sum(phys.marked) / 10, sum(ment.marked) / 10]
        used = sum(1 for sl in f.slots if sl.aspect is not None)
        row += [used / 5, (len(f.slots) - used) / 5]
        row.append(c.capacity(cid) / 20 if f.status == ACTIVE else 0.0)
        row.append(f.fate_points / 10)
        row.append(1.0 if cid in c.acted else 0.0)
        row.append(1.0 if f.full_defense else 0.0)
        row.append(f.members / s.count if s.kind == "mob" else 0.0)
        if f.status == ACTIVE and c.f[ego].status == ACTIVE and cid != ego:
            mine = any(c.can_attack(ego, cid, k) for k in c.attack_skills(ego)) if s.side != side else False
            theirs = any(c.can_attack(cid, ego, k) for k in c.attack_skills(cid)) if s.side != side else False
        else:
            mine = theirs = False
        row += [1.0 if mine else 0.0, 1.0 if theirs else 0.0]
        row += [s.skills.get(k, 0) / 8 for k in DEFAULT_SKILLS]
        row.append(max((v for k, v in s.skills.items() if k not in DEFAULT_SKILLS), default=0) / 8)
        return np.asarray(row, np.float32)

    def _zone(self, c: Conflict, z: str, ego: str, side: str) -> np.ndarray:
        here = c.f[ego].zone
        hops = c.map.hops[here].get(z) if hasattr(c.map, "hops") else None
        people = [c.f[x] for x in c.active_ids() if c.f[x].zone == z]
        allies = sum(1 for f in people if f.sheet.side == side)
        return np.asarray([1.0 if z == here else 0.0, (hops if hops is not None else 0) / 6,
                           1.0 if hops is None else 0.0, allies / 8, (len(people) - allies) / 8,
                           sum(1 for a in c.aspects.values() if a.zone == z and not getattr(a, "hidden", False)) / 4,
                           1.0 if any(z in pair for pair in getattr(c.map, "sealed", ())) else 0.0,
                           len(c.map.neighbours[z]) / 6], np.float32)

    def _aspect(self, c: Conflict, a: Any, ego: str, side: str, aid_invoked: bool) -> np.ndarray:
        row = [1.0 if a.kind == k else 0.0 for k in ASPECT_KINDS]
        owner = a.owner
        rel = 0 if owner is None else 1 if owner == ego else 2 if c.f[owner].sheet.side == side else 3
        row += [1.0 if rel == r else 0.0 for r in range(4)]
        here = c.f[ego].zone
        row.append(1.0 if a.zone == here or (owner is not None and c.f[owner].zone == here) else 0.0)
        held = [0.0, 0.0, 0.0]
        for h, n in a.free.items():
            held[0 if h == ego else 1 if c.f[h].sheet.side == side else 2] += n / 3
        row += held
        row.append(1.0 if aid_invoked else 0.0)
        return np.asarray(row, np.float32)

    def _option(self, o: Any, at: dict[str, int], aspect_at: dict[int, int]) -> tuple[np.ndarray, int, int, int]:
        """An option's row, from its type and its fields by what they hold."""
        row = np.zeros(OPTION_FEATURES, np.float32)
        row[O_AT["type"] + OPTION_TYPES.index(type(o))] = 1.0
        char = zone = aspect = -1
        for fld in dataclasses.fields(o):
            v = getattr(o, fld.name)
            name = fld.name
            if isinstance(v, bool):
                row[O_AT["flag"] + (0 if name == "free" else 1)] = 1.0 if v else 0.0
            elif isinstance(v, str) and v in at and char < 0:
                char = at[v]
            elif isinstance(v, str) and v in self.zone_at and zone < 0:
                zone = self.zone_at[v]
            elif name == "aspect" and isinstance(v, int):
                aspect = aspect_at.get(v, -1)
            elif name == "skill":
                row[O_AT["skill"] + (DEFAULT_SKILLS.index(v) if v in DEFAULT_SKILLS else len(DEFAULT_SKILLS))] = 1.0
            elif name == "template":
                t = self.templates.get(v)
                if t is not None:
                    row[O_AT["template"] + TARGET_KINDS.index(t.target)] = 1.0
            elif isinstance(v, tuple):  # an absorb plan's boxes and slots
                row[O_AT["count"] + (0 if name == "boxes" else 1)] = len(v) / 5
            elif isinstance(v, int):
                row[O_AT["count"] + 2] = v / 10
            elif isinstance(v, str):  # a word: a Choose's outcome, an invoke's effect, "scene"
                row[O_AT["word"] + _word(v)] = 1.0
        row[O_AT["points"]:O_AT["points"] + 3] = (char >= 0, zone >= 0, aspect >= 0)
        return row, char, zone, aspect
