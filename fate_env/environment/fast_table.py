"""One conflict on the fast core, seen as the environment sees the reference engine.

:class:`FastTable` steps a :class:`fate_env.fast.core.Session` (the kernel pauses at each decision
of the seats it asks from outside; scripted seats play inside it) and writes the observation and
the action mask from the kernel's flat state (``fate_env/fast/observe.py``). What it hands out
is the reference environment's, number for number: the aspect slots follow every decision as
:class:`~fate_env.environment.actions.AspectSlots` does, and rewards read the same events.

``conflict`` rebuilds the reference engine at the same point (the seed and every decision taken,
from the kernel's log) for code that wants the engine's objects — a scripted controller, the
narrator, ``describe_action``; it costs the replay of the episode so far, once per decision asked.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..fast.kernel import layout as k
from ..fast.bundles import View
from ..fast.jit import bound
from ..fast import observe as ob
from ..fast.core import FastCore, Session
from ..fast.tables import AGENT
from ..fast.decode import KINDS, outcome
from ..rules.engine import replay
from ..rules.scene import Scene
from ..rules.stress import build_fighter
from .actions import ActionLayout, AspectSlots, LayoutOverflow
from .observation import DECISION_KINDS, ObservationEncoder
from .reference_table import ReferenceTable
from .segments import SEGMENTS


def layout_numbers(layout: ActionLayout, encoder: ObservationEncoder, core: FastCore) -> np.ndarray:
    """The layout's sizes and segment starts as observe.LP."""
    seg = layout.segments
    tb = core.tables
    if tuple(layout.zones) != tb.zones or tuple(layout.ids) != tb.ids:
        raise RuntimeError("the fast core and the layout disagree on the order of zones or characters")
    if [t.name for t in layout.scene.advantages] != layout.templates:
        raise RuntimeError("the fast core and the layout disagree on the order of advantage templates")
    LP = np.zeros(ob.NL, np.int64)
    LP[[ob.L_C, ob.L_Z, ob.L_A, ob.L_K]] = layout.C, layout.Z, layout.A, layout.K
    LP[ob.L_CHAR] = encoder.char_size
    LP[ob.L_MAXEX] = layout.scene.rules.max_exchanges
    LP[ob.L_X], LP[ob.L_B] = layout.X, layout.B
    LP[ob.L_KC] = layout.Kc
    LP[ob.L_ONEBOX] = 1 if layout.scene.rules.one_box_per_hit else 0
    LP[ob.L_TRACK] = 0 if layout.scene.conflict == "physical" else 1
    for spec in SEGMENTS:  # the segments the kernel encodes options of itself
        if spec.kernel is not None:
            LP[getattr(ob, spec.kernel)] = seg[spec.name].start
    LP[ob.L_ABSORB_SIZE] = seg["absorb"].size
    # the spin tokens sit after the boosts, the countdowns and the later decision kinds (ObservationEncoder.encode)
    LP[ob.L_SPINOBS] = 3 + 2 * encoder.countdowns + len(encoder.later_kinds) if encoder.spin else -1
    LP[ob.L_NBL] = len(layout.blocks)
    for i, name in enumerate(tb.blocks):
        LP[ob.L_BLKMAP + i] = layout.blocks.index(name) if name in layout.blocks else -1
    return LP


CORES = ("auto", "fast", "reference")
SCORED = {ob.SC_HIT: "hit", ob.SC_ABSORBED: "absorbed", ob.SC_CONCEDED: "conceded", ob.SC_TAKEN_OUT: "taken_out",
          ob.SC_DECISION: "decision"}


def fast_table_for(scene: Scene, layout: ActionLayout, encoder: ObservationEncoder, core: str = "auto",
                   controllers: dict[str, str] | None = None, asks: dict[str, Any] | None = None) -> "FastTable | None":
    """The fast core for an environment, or None for the reference engine. ``core``: "fast"
    insists (refusing an uncovered scene with the reason), "reference" declines, "auto" takes
    the fast core when numba is installed and the scene is covered. Every seat is asked every
    decision unless ``asks`` says otherwise."""
    from ..fast.core import Unsupported, available
    if core not in CORES:
        raise ValueError(f"core {core!r}: expected one of {', '.join(CORES)}")
    if core == "reference" or (core == "auto" and not available()):
        return None
    if asks is None:
        controllers = {c.id: AGENT for c in scene.characters}
    try:
        return FastTable(scene, layout, encoder, controllers, asks)
    except Unsupported:
        if core == "fast":
            raise
        return None


class FastTable:
    """The fast core behind an environment: one compiled scene, one session per episode.

    ``asks`` maps characters to the decision kinds the environment answers (every kind for every
    character in the AEC environment); ``controllers`` the scripted policy making the others."""

    def __init__(self, scene: Scene, layout: ActionLayout, encoder: ObservationEncoder,
                 controllers: dict[str, str] | None = None, asks: dict[str, Any] | None = None):
        self.scene = scene
        self.layout = layout
        self.encoder = encoder
        self.core = FastCore(scene, controllers, asks)
        tb = self.core.tables
        self.ids = tb.ids
        self.index = {cid: i for i, cid in enumerate(tb.ids)}
        self.LP = layout_numbers(layout, encoder, self.core)
        self.static = np.stack([encoder._static[cid] for cid in tb.ids]).astype(np.float64)
        fighters = [build_fighter(c, scene.rules) for c in scene.characters]
        self.boxes = np.array([[len(f.tracks["physical"].values), len(f.tracks["mental"].values)] for f in fighters],
                              np.int64)
        # where a pending decision's kind is flagged: its head slot, or (-1 - i) for FATE 2.0's later kinds
        self.dk2obs = np.array([DECISION_KINDS.index(str(x)) if str(x) in DECISION_KINDS else
                                -1 - encoder.later_kinds.index(str(x)) if str(x) in encoder.later_kinds else 0
                                for x in KINDS], np.int64)
        # each kernel skill's place among the layout's attack skills, and among its contest skills (observe.actions)
        self.skmap = np.array([[ks.index(s) if s in ks else -1 for s in tb.skills]
                               for ks in (layout.skills, layout.contest_skills)], np.int64)
        self.size = encoder.size
        self._buf = np.zeros(self.size, np.float64)
        self._boosts = np.zeros(int(tb.P[k.P_AMAX]), np.int64)
        self._scored = np.zeros((tb.emax, 3), np.int64)
        self._observe = None  # observe, bound to its arguments' types on the first call

    # -- episode ----------------------------------------------------------------------
    def reset(self, seed: int, policy_rng: np.ndarray | None = None) -> list[tuple[str, str | None, int]]:
        """A new episode on ``seed``, played to the first decision asked; returns what the
        rewards score of the events so far (see :meth:`answer`). ``policy_rng``: the random
        policy's generator to start from (else the seed's, as ``fate-npc resolve`` seeds it)."""
        self.seed = seed
        amax = int(self.core.tables.P[k.P_AMAX])
        self.slot_at = np.zeros(self.layout.A, np.int64)
        self.slot_of = np.full(amax, -1, np.int64)
        self._view = View(self.slot_at, self.LP, self.static, self.boxes, self.dk2obs)
        self._digest = np.zeros(ob.ND, np.int64)  # digest's state and report (observe.D_*)
        self._removed = np.zeros(amax, np.int64)
        self._seen = 0
        self._conflict = None
        self.session: Session = self.core.session(seed, policy_rng)
        return self._after_step()

    def answer(self, index: int) -> list[tuple[str, str | None, int]]:
        """Answer the pending decision with option ``index`` and play on to the next one asked.
        Returns what the rewards score of the new events: (what, who, shifts) with what one of
        "hit" (who: its source), "absorbed", "conceded", "taken_out", and "decision" (who
        decided: a step of the reference environment starts there)."""
        self.session.answer(index)
        return self._after_step()

    def _after_step(self) -> list[tuple[str, str | None, int]]:
        m = ob.digest(self.session.EV, self._seen, self.session.G, self.session.state.A, self.slot_at, self.slot_of,
                      self._digest, self._removed, self._scored)
        if m < 0:
            raise LayoutOverflow(f"more than {self.layout.A} aspects in play; raise max_aspects")
        self._seen, bail, pkind, pactor, count = self._digest[ob.D_NEV:].tolist()
        self._acts = None
        paused = bail == k.BAIL_PAUSE
        self.over = bail == k.BAIL_NONE
        if paused and count < 0:  # the kernel paused, but its options did not fit past the events
            self.bail = k.BAIL_REASONS[k.BAIL_EVENTS]
        else:
            self.bail = "" if paused or self.over else k.BAIL_REASONS[bail]
        if paused and count >= 0:
            self.pending, self.actor, self.pending_count = (pkind, pactor), self.ids[pactor], count
        else:
            self.pending, self.actor, self.pending_count = None, None, 0
        if not m:
            return []
        ids = self.ids
        return [(SCORED[what], ids[who] if who >= 0 else None, shifts) for what, who, shifts in self._scored[:m].tolist()]

    #: the pending decision: (kind code, actor index), its actor and option count; whether the
    #: scene has ended; why the kernel stopped short of its end ("" if it did not) (set by each step)
    pending: tuple[int, int] | None
    actor: str | None
    pending_count: int
    over: bool
    bail: str

    @property
    def rows_read(self) -> int:
        """The kernel's event rows read so far (each the reference's event after ConflictStarted)."""
        return self._seen

    def aspect_slots(self) -> AspectSlots:
        """The aspect slots as the reference environment keeps them (to go on on the reference)."""
        slots = AspectSlots(self.layout.A)
        for slot, aid in enumerate(self.slot_at.tolist()):
            if aid:
                slots.slot_of[aid] = slot
                slots.aspect_at[slot] = aid
        return slots

    @property
    def pending_kind(self) -> str | None:
        return str(KINDS[self.pending[0]]) if self.pending is not None else None

    @property
    def options(self) -> list:
        """The pending decision's options, as the reference's option objects."""
        return self.session.options

    @property
    def slots(self) -> AspectSlots:
        return self.aspect_slots()

    def handover(self) -> ReferenceTable:
        """The reference table that goes on from here (``bail``: the kernel cannot): the same
        conflict, the same aspect slots, the kernel's rows scored already (each the reference's
        event after ConflictStarted)."""
        table = ReferenceTable(self.scene, self.layout, self.encoder)
        table.resume(self.conflict, self.aspect_slots(), self.rows_read + 1)
        return table

    def actions(self) -> np.ndarray:
        """The action index of each option of the pending decision, in option order."""
        if self._acts is None:
            self.encode(np.zeros(self.layout.n, np.int8))
        return self._acts

    def encode(self, mask: np.ndarray) -> list[int]:
        """Mark the pending decision's actions in ``mask`` (zeros); returns them in option order."""
        G = self.session.G
        count = self.pending_count
        out = np.zeros(count, np.int64)
        bad = ob.actions(out, mask, self.session.EV, int(G[k.G_NEV]), count, self.pending[1], self.session.state.A,
                         self.slot_of, self.LP, self.skmap, self._boosts)
        if bad >= 0:
            raise LayoutOverflow(f"no action for option {self.session.options[bad]!r}")
        if bad < -1:
            raise RuntimeError(f"two options share an action: {self.session.options[-2 - bad]!r}")
        self._acts = out
        return out.tolist()

    def observe(self, ego: str) -> np.ndarray:
        out = np.zeros(self.size, np.float32)
        pending = self.pending
        pkind, pactor = pending if pending is not None else (-1, -1)
        tb = self.core.tables
        args = (out, self._buf, self.index[ego], pactor, pkind, tb.SC, tb.SLOTS, tb.P, self.session.state, self._view)
        if self._observe is None:
            self._observe = bound(ob.observe, args)
        self._observe(*args)
        return out

    # -- what happened ----------------------------------------------------------------------
    def outcome(self):
        st = self.session.state
        CH, SLOTA, G = st.CH, st.SLOTA, st.G
        return outcome(self.core.tables, CH, SLOTA, G[:k.NG])

    def events(self) -> list:
        ep = self.session.episode
        return ep.events()

    def side_of(self, cid: str) -> str:
        return self.scene.character(cid).side

    @property
    def conflict(self):
        """The reference engine at this point (see the module's docstring): built from the seed
        once, then stepped on by the decisions taken since it was last asked for."""
        if self._conflict is None or len(self._conflict.choices) != self._decisions():
            from ..rules import events as ev
            made = [e for e in self.events() if isinstance(e, ev.DecisionMade)]
            c = self._conflict
            if c is None or len(c.choices) > len(made):
                c = self._conflict = replay(self.scene, self.seed, [], reasons=[])
            for e in made[len(c.choices):]:
                c.step(e.index, e.reason)
        return self._conflict

    def _decisions(self) -> int:
        EV = self.session.EV
        return int(np.count_nonzero(EV[:self._seen, 0] == k.E_DECISION))
