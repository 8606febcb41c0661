"""The entity view (``entities.py``) from the fast core's arrays: one scene's fixed columns for
``fast/entity_rows.py``, a paused session's rows (:class:`FastEntities`), and fights whose learned
seats the network answers inside the kernel (:class:`FastLearned`, what ``bench`` plays the ``learned``
NPC with).
"""

from __future__ import annotations

import numpy as np

from ..fast.bundles import EntityView, Outcomes, Rows, Scorer
from ..fast.core import FastCore, Session
from ..fast.decode import KINDS, decode_option
from ..fast.entity_forward import memos
from ..fast.entity_rows import (C_KIND, EP_BLOCK_WORD, EP_BONUS_WORD, EP_CF, EP_COUNT, EP_FLAG, EP_HINT, EP_NDEC, EP_OF,
                                EP_KIND_WORD, EP_POINTS, EP_REROLL_WORD, EP_SCENE_WORD, EP_SKILL, EP_TEMPLATE, EP_TYPE, EP_WORD, EP_ZF,
                                EP_AF, NEP, PL_ASPECTS, PL_OK, PL_OPTIONS, play_learned, rows)
from ..fast.jit import bound
from ..fast.kernel import layout as k
from ..rules.skills import DEFAULT_SKILLS, TARGET_KINDS
from ..rules.stress import build_fighter
from ..rules.zones import ZoneMap
from . import entities as view


class FastEntities:
    """One scene's entity rows from its fast core: the fixed columns built once, then ``encode``
    per paused decision (a copy of the rows: the buffers are reused)."""

    def __init__(self, core: FastCore):
        tb = core.tables
        scene = tb.scene
        view.check(scene)
        self.core = core
        enc = view.EntityEncoder(scene)
        if list(enc.ids) != list(tb.ids) or list(enc.zone_ids) != list(tb.zones):
            raise RuntimeError("the fast core and the entity view disagree on the order of characters or zones")
        n, nz = len(tb.ids), len(tb.zones)
        self.n, self.nz = n, nz
        at = view.O_AT
        self.EP = np.zeros(NEP, np.int64)
        self.EP[[EP_NDEC, EP_CF, EP_ZF, EP_AF, EP_OF]] = (len(view.DECISIONS), view.CHARACTER_FEATURES,
                                                         view.ZONE_FEATURES, view.ASPECT_FEATURES, view.OPTION_FEATURES)
        for key, name in ((EP_TYPE, "type"), (EP_SKILL, "skill"), (EP_TEMPLATE, "template"), (EP_FLAG, "flag"),
                          (EP_COUNT, "count"), (EP_WORD, "word"), (EP_POINTS, "points"), (EP_HINT, "hint")):
            self.EP[key] = at[name]
        self.EP[EP_SCENE_WORD] = view._word("scene")
        self.EP[EP_BONUS_WORD], self.EP[EP_REROLL_WORD] = view._word("bonus"), view._word("reroll")
        for j, kind in enumerate(k.BLOCK_KINDS):  # a Fate 3.0 block's kind of action, a word (BlockAction.action)
            self.EP[EP_KIND_WORD + j] = view._word(kind)
        for i, name in enumerate(tb.blocks):
            self.EP[EP_BLOCK_WORD + i] = view._word(name)
        # the fixed columns of each character's row: its kind and its skills (the rest is play)
        self.CHS = np.zeros((n, view.CHARACTER_FEATURES), np.float64)
        for c, ch in enumerate(scene.characters):
            self.CHS[c, C_KIND + view.KINDS.index(ch.kind)] = 1.0
            tail = view.CHARACTER_FEATURES - len(DEFAULT_SKILLS) - 1
            self.CHS[c, tail:tail + len(DEFAULT_SKILLS)] = [ch.skills.get(s, 0) / 8 for s in DEFAULT_SKILLS]
            self.CHS[c, -1] = max((v for s, v in ch.skills.items() if s not in DEFAULT_SKILLS), default=0) / 8
        zmap = ZoneMap(scene)
        sealed = getattr(zmap, "sealed", ())
        self.ZS = np.array([[1.0 if any(z in pair for pair in sealed) else 0.0, len(zmap.neighbours[z]) / 6]
                            for z in tb.zones], np.float64).reshape(nz, 2)
        self.DK = np.array([view.DECISIONS.index(kind) for kind in KINDS], np.int64)
        self.OTYPE, self.OWORD = _option_columns(tb)
        self.SKW = np.array([DEFAULT_SKILLS.index(s) if s in DEFAULT_SKILLS else len(DEFAULT_SKILLS)
                             for s in tb.skills], np.int64)
        self.TPLK = np.array([TARGET_KINDS.index(t.target) for t in scene.advantages] or [0], np.int64)
        self.BOXES = np.array([[len(f.tracks["physical"].values), len(f.tracks["mental"].values)]
                               for f in _fighters(scene)], np.int64).reshape(n, 2)
        self.view = EntityView(self.EP, self.CHS, self.ZS, self.DK, self.OTYPE, self.OWORD, self.SKW, self.TPLK,
                               self.BOXES)
        amax = int(tb.P[k.P_AMAX])
        self._rows_of = np.zeros(amax, np.int64)
        self._bufs = (np.zeros(view.GLOBAL, np.float32), np.zeros((n, view.CHARACTER_FEATURES), np.float32),
                      np.zeros(n, np.int64), np.zeros((nz, view.ZONE_FEATURES), np.float32),
                      np.zeros((amax, view.ASPECT_FEATURES), np.float32), np.zeros(amax, np.int64),
                      np.zeros(amax, np.int64))
        self._rows = None  # rows, bound to the argument types on the first call (jit.bound)

    def encode(self, session: Session, ego: int, suggested: int | None = None) -> view.Entities:
        """The rows of the decision ``session`` paused at, seen by character index ``ego`` (the
        decision's own rows only when ``ego`` is its actor, as ``EntityEncoder.encode``)."""
        G = session.G
        paused = int(G[k.G_BAIL]) == k.BAIL_PAUSE and int(G[k.G_PACTOR]) == ego
        count = int(G[k.G_PCOUNT]) if paused else 0
        pkind = int(G[k.G_PKIND]) if paused else -1
        if count > view.LIMITS.options:
            raise view.TooLarge(f"{count} options; the entity view takes at most {view.LIMITS.options}")
        start = int(G[k.G_NEV])
        if start + count > len(session.EV):
            raise RuntimeError("the paused decision's options did not fit past the events (play it on the reference)")
        options = np.zeros((count, view.OPTION_FEATURES), np.float32)
        o_char, o_zone, o_asp = (np.zeros(count, np.int64) for _ in range(3))
        glob, chars, czone, zones, aspects, owner, azone = self._bufs
        R = Rows(glob, chars, czone, zones, aspects, owner, azone, options, o_char, o_zone, o_asp, self._rows_of)
        args = (ego, pkind, count, -1 if suggested is None else suggested, self.core.arrays, session.state,
                session.EV, start, self.view, R)
        if self._rows is None:
            self._rows = bound(rows, args)
        na = int(self._rows(*args))
        if na > view.LIMITS.aspects:
            raise view.TooLarge(f"{na} aspects in play; the entity view takes at most {view.LIMITS.aspects}")
        return view.Entities(glob.copy(), chars.copy(), czone.copy(), zones.copy(), aspects[:na].copy(),
                             owner[:na].copy(), azone[:na].copy(), options, o_char, o_zone, o_asp)


def _fighters(scene):
    return [build_fighter(c, scene.rules) for c in scene.characters]


def _option_columns(tb) -> tuple[np.ndarray, np.ndarray]:
    """Each kernel option code's class among the view's option types, and the word bucket its
    decoded option carries (a ``Choose``'s outcome; -1 for none): read off the decoder itself, so
    a new code needs no entry here."""
    otype = np.full(k.NO, -1, np.int64)
    oword = np.full(k.NO, -1, np.int64)
    for code in range(k.NO):
        row = np.zeros(k.EW, np.int64)
        row[5] = code
        try:
            o = decode_option(tb, row)
        except (ValueError, IndexError):
            continue
        otype[code] = view.OPTION_TYPES.index(type(o))
        word = getattr(o, "option", None)
        if isinstance(word, str):
            oword[code] = view._word(word)
    return otype, oword


class FastLearned:
    """Fights whose asking seats the learned network answers, all inside the kernel
    (:func:`play_learned`): ``core`` asks those seats the kinds their file learned; ``policy`` is the
    file (``entity_policy.EntityPolicy``), ``keep_within`` its margin over the helper's move."""

    def __init__(self, core: FastCore, policy, keep_within: float):
        self.core = core
        self.entities = FastEntities(core)
        self.net = policy.net
        self.scorer = Scorer(self.net, memos(self.net))  # its own memos: this call runs without the GIL
        self.keep_within = float(keep_within)
        t = core.tables
        # the fight, its turn's start, and script_pick's copy (answers past NG: room for a long fight's)
        self.W, self.K, self.W2 = core.fight(k.NG + 16384, 2), core.fight(k.NG, 2), core.fight(k.NG + 16384, 3)
        self.EV = np.zeros((t.emax, k.EW), np.int64)
        self.EV2 = np.zeros_like(self.EV)
        self._play = None

    def run(self, seeds) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Play every seed: the final (CH, SLOTA, G) arrays, one row per seed (``FastCore.run``'s)."""
        from ..fast.core import seed_array
        core = self.core
        SEEDS = seed_array(seeds)
        CH, SLOTA, G = core._state(len(SEEDS))
        where = np.zeros(2, np.int64)
        limits = np.array([self.keep_within, view.LIMITS.aspects, view.LIMITS.options], np.float64)
        args = (core.arrays, SEEDS, core._policy_rngs(seeds), self.EV, self.EV2, self.W, self.K, self.W2, self.scorer,
                self.entities.view, limits, Outcomes(CH, SLOTA, G, where))
        if self._play is None:
            self._play = bound(play_learned, args)
        with np.errstate(over="ignore"):
            why = int(self._play(*args))
        if why == PL_ASPECTS:
            raise view.TooLarge(f"{where[1]} aspects in play; the entity view takes at most {view.LIMITS.aspects}")
        if why == PL_OPTIONS:
            raise view.TooLarge(f"{where[1]} options; the entity view takes at most {view.LIMITS.options}")
        if why != PL_OK:
            raise RuntimeError(f"the fast core's copy of {core.tables.scene.name!r} (seed {int(SEEDS[where[0]])}) made "
                               "no decision where the fight paused: a bug (play it with --engine reference)")
        return CH, SLOTA, G


__all__ = ["FastEntities", "FastLearned"]
