"""Ego-centric observation vectors: what a player at the table can see.

Layout (float32; C characters, Z zones, A aspect slots; skills are the 19 defaults):

* global (17): exchange / cap; the pending decision's kind (8, one-hot, only for
  the agent who must decide); its context: effort, opposition, margin (all /10),
  shifts to absorb /10, "I am the roller"; the GM pool /10; the agent's own
  spendable fate points /10.
* characters (C blocks of 45, slot 0 = self, then the others in scene order):
  present, is self, is ally, kind (pc, major, minor, mob), status (active,
  conceded, taken out), zone (Z one-hot), free physical and mental stress boxes
  /10, marked physical and mental boxes /10, consequence slots used and free /5,
  the biggest hit it can absorb /20, fate points /10 (PCs), acted this exchange,
  on full defense, mob members standing / members, the 19 default skills /8.
* aspects (A blocks of 14): present; kind (character, situation, advantage,
  consequence); on no one, me, an ally, a foe; in my zone; free invokes held by
  me, my allies, my foes (/3); already invoked by my side on this roll.
* boosts (3): boosts held by me, my allies, my foes (/3).
* countdowns (2 each, only in scenes that have them, 003:2171-2195): the share of its boxes
  marked, and whether it still runs.
* later decision kinds (1 each, only under rule sets that ask them: FATE 2.0's concession
  offers and held actions, 001:82-84, 001:150): set when the agent's pending decision is one.
* spin tokens (C, only under ``defense_overflow: spin``, 002:95): each character's, /3, in the
  ego's order.
"""

from __future__ import annotations

import numpy as np

from ..rules.conflict import Conflict
from ..rules.countdowns import marks as countdown_marks
from ..rules.skills import DEFAULT_SKILLS
from ..rules.stress import absorber_for
from ..rules.state import ACTIVE, ADVANTAGE, BOOST, CHARACTER, CONCEDED, CONSEQUENCE, SITUATION
from .actions import ActionLayout, AspectSlots

DECISION_KINDS = ("turn", "move", "respond", "invoke", "style", "cost", "absorb", "next",
                  "contest_roll", "support", "contest_advantage", "task")
KINDS = ("pc", "major", "minor", "mob")
ASPECT_KINDS = (CHARACTER, SITUATION, ADVANTAGE, CONSEQUENCE)
GLOBAL = 23
CHAR_FIXED = 3 + 4 + 3 + 4 + 2 + 1 + 1 + 1 + 1 + 1 + 1 + len(DEFAULT_SKILLS)  # without the zone one-hot
ASPECT = 14


class ObservationEncoder:
    """Builds observations. Static rows (who is who, skills) are made once per
    ego; dynamic rows (status, zone, stress, ...) once per engine state, then
    permuted into each ego's order: observing is the env's hottest path."""

    def __init__(self, layout: ActionLayout):
        self.layout = layout
        self.C, self.Z, self.A = layout.C, layout.Z, layout.A
        self.char_size = CHAR_FIXED + self.Z
        # the scene's countdowns, two numbers each, last: a scene without any keeps its old layout
        self.scene_countdowns = len(layout.scene.countdowns)
        self.countdowns = layout.fixed.countdowns if layout.fixed is not None else self.scene_countdowns
        feat = layout.features
        #: decision kinds only some rule sets ask (FATE 2.0's concession offers and held actions),
        #: flagged after the countdowns, so the layouts of the other rule sets stay as they were
        self.later_kinds = tuple(k for k, used in (("concession", "offered" in feat), ("hold", "held" in feat)) if used)
        #: spin tokens held, per character in the ego's order (Fate 3.0's defense_overflow: spin, 002:95)
        self.spin = self.C if "spin" in feat else 0
        self.size = (GLOBAL + self.C * self.char_size + self.A * ASPECT + 3 + 2 * self.countdowns
                     + len(self.later_kinds) + self.spin)
        self._zone_index = {z: i for i, z in enumerate(layout.zones)}
        scene = layout.scene
        self._index = {cid: i for i, cid in enumerate(layout.ids)}
        self._side = {c.id: c.side for c in scene.characters}
        self._static: dict[str, np.ndarray] = {}
        self._order: dict[str, np.ndarray] = {}
        for ego in layout.ids:
            rows = np.zeros((self.C, self.char_size), dtype=np.float32)
            for r, cid in enumerate(layout.order(ego)):
                sheet = scene.character(cid)
                rows[r, 0] = 1.0
                rows[r, 1] = 1.0 if cid == ego else 0.0
                rows[r, 2] = 1.0 if sheet.side == self._side[ego] else 0.0
                rows[r, 3 + KINDS.index(sheet.kind)] = 1.0
                rows[r, self.char_size - len(DEFAULT_SKILLS):] = [sheet.skill(k) / 8 for k in DEFAULT_SKILLS]
            self._static[ego] = rows
            self._order[ego] = np.array([self._index[c] for c in layout.order(ego)])
        self._dyn_key: tuple | None = None
        self._dyn: np.ndarray | None = None
        # dynamic columns: status (3), zone (Z), then 11 numbers
        self._dyn_width = 3 + self.Z + 11
        self._kind_index = {k: i for i, k in enumerate(ASPECT_KINDS)}

    def blocks(self) -> list[tuple[str, int, int, str]]:
        """(name, first index, size, what it holds) of each part of the vector, in order (docs)."""
        out, at = [], 0
        for name, size, what in (
                ("global", GLOBAL, "exchange / cap; the pending decision's kind (one-hot, the decider only); effort, "
                                   "opposition, margin, shifts to absorb (/10); I am the roller; GM pool, own fate "
                                   "points (/10); a decision is mine; contest victories, mine and the best foe's"),
                ("characters", self.C * self.char_size,
                 f"{self.C} blocks of {self.char_size}, self first then scene order: present, self, ally, kind (4), "
                 f"status (3), zone ({self.Z}), free and marked stress (/10), consequence slots used and free (/5), "
                 "biggest hit it can absorb (/20), fate points, acted, full defense, mob members, the 19 skills (/8)"),
                ("aspects", self.A * ASPECT, f"{self.A} slots of {ASPECT}: present, kind (4), on no one / me / an ally / "
                                             "a foe, in my zone, free invokes held by me / allies / foes (/3), "
                                             "invoked by my side on this roll"),
                ("boosts", 3, "boosts held by me, my allies, my foes (/3)"),
                ("countdowns", 2 * self.countdowns, "per countdown: share of its boxes marked, still running"),
                ("later_kinds", len(self.later_kinds), "FATE 2.0's concession and hold decisions: mine now"),
                ("spin", self.spin, "spin tokens per character, ego's order (/3)")):
            out.append((name, at, size, what))
            at += size
        return out

    def _dynamic(self, c: Conflict) -> np.ndarray:
        key = (c, len(c.events))  # the engine itself: a finished engine's id() may be reused
        if self._dyn_key is not None and key[0] is self._dyn_key[0] and key[1] == self._dyn_key[1]:
            return self._dyn
        rows = []
        width = self._dyn_width
        one_box = c.rules.one_box_per_hit
        track = c.kind
        acted = c.acted
        for cid in self.layout.ids:
            f = c.f[cid]
            row = [0.0] * width
            status = f.status
            row[0 if status == ACTIVE else 1 if status == CONCEDED else 2] = 1.0
            row[3 + self._zone_index[f.zone]] = 1.0
            phys, ment = f.tracks["physical"], f.tracks["mental"]
            pm, mm = sum(phys.marked), sum(ment.marked)
            used = 0
            free_slots = 0
            for sl in f.slots:
                if sl.aspect is not None:
                    used += 1
                elif sl.track is None or sl.track == track:
                    free_slots += sl.value
            cap = 0.0
            if status == ACTIVE:
                t = f.tracks[track]
                if one_box:
                    boxes = max((v for v, m in zip(t.values, t.marked) if not m), default=0)
                else:
                    boxes = len(t.values) - sum(t.marked)
                if f.sheet.kind == "mob":
                    boxes += (f.members - 1) * (len(t.values) + 1)
                cap = (boxes + free_slots) / 20
                if c.rules.facts.conditions_apart:  # rows with a cutoff (003:2092-2101): ask the absorber
                    cap = absorber_for(f.sheet).capacity(f, track, c.rules) / 20
            s = f.sheet
            row[3 + self.Z:] = (
                (len(phys.values) - pm) / 10, (len(ment.values) - mm) / 10, pm / 10, mm / 10,
                used / 5, (len(f.slots) - used) / 5, cap, f.fate_points / 10,
                1.0 if cid in acted else 0.0, 1.0 if f.full_defense else 0.0,
                f.members / s.count if s.kind == "mob" else 0.0,
            )
            rows.append(row)
        dyn = np.array(rows, dtype=np.float32)
        self._dyn_key, self._dyn = key, dyn
        return dyn

    def encode(self, c: Conflict, ego: str, slots: AspectSlots) -> np.ndarray:
        obs = np.zeros(self.size, dtype=np.float32)
        F = c.f
        me = F[ego]
        side = me.sheet.side
        head = [0.0] * GLOBAL
        head[0] = c.exchange / max(1, c.rules.max_exchanges)
        d = c.pending
        later = -1
        if d is not None and d.actor == ego:
            if d.kind in self.later_kinds:
                later = self.later_kinds.index(d.kind)
            else:
                head[1 + DECISION_KINDS.index(d.kind)] = 1.0
            ctx = d.context
            if "effort" in ctx:
                head[13] = ctx["effort"] / 10
                head[14] = ctx["opposition"] / 10
                head[15] = ctx["margin"] / 10
                head[17] = 1.0 if ctx["as_roller"] else 0.0
            if "shifts" in ctx:
                head[16] = ctx["shifts"] / 10
            head[20] = 1.0
        head[18] = c.gm_pool / 10
        head[19] = c.fate_points_of(ego) / 10
        standing = c.contest_standing(side)
        if standing is not None:
            head[21], head[22] = standing
        obs[:GLOBAL] = head
        # characters: static rows for this ego, dynamic rows in this ego's order
        rows = self._static[ego].copy()
        order = self._order[ego]
        rows[:len(order), 7:7 + self._dyn_width] = self._dynamic(c)[order]  # padded rows stay zero
        base = GLOBAL
        obs[base:base + self.C * self.char_size] = rows.ravel()
        base += self.C * self.char_size
        # aspects: collect the indices to set, write them once
        roll = c.roll
        invoked = roll.invoked.get(side, ()) if roll is not None else ()
        aspects = c.aspects
        sides = self._side
        boosts = [0.0, 0.0, 0.0]
        for a in aspects.values():
            if a.kind == BOOST:
                for h, n in a.free.items():
                    boosts[0 if h == ego else 1 if sides[h] == side else 2] += n / 3
        my_zone = me.zone
        ones: list[int] = []
        adds: dict[int, float] = {}
        kind_index = self._kind_index
        for aid, slot in slots.slot_of.items():
            a = aspects.get(aid)
            if a is None:
                continue  # hidden: nothing of it is seen until someone discovers it (003:854-867)
            o = base + slot * ASPECT
            owner = a.owner
            rel = 0 if owner is None else 1 if owner == ego else 2 if sides[owner] == side else 3
            ones.append(o)
            ones.append(o + 1 + kind_index[a.kind])
            ones.append(o + 5 + rel)
            if a.zone == my_zone or (owner is not None and F[owner].zone == my_zone):
                ones.append(o + 9)
            if aid in invoked:
                ones.append(o + 13)
            for h, n in a.free.items():
                k = o + (10 if h == ego else 11 if sides[h] == side else 12)
                adds[k] = adds.get(k, 0.0) + n / 3
        if ones:
            obs[ones] = 1.0
        for k, v in adds.items():
            obs[k] = v
        tail = base + self.A * ASPECT
        obs[tail:tail + 3] = boosts
        if self.scene_countdowns:
            obs[tail + 3:tail + 3 + 2 * self.scene_countdowns] = countdown_marks(c)
        end = tail + 3 + 2 * self.countdowns
        if later >= 0:
            obs[end + later] = 1.0
        if self.spin and c.t.spin:
            at = end + len(self.later_kinds)
            for i, cid in enumerate(self.layout.order(ego)):
                obs[at + i] = c.t.spin.get(cid, 0) / 3
        return obs
