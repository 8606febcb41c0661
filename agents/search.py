"""``search``: an NPC that looks ahead before it acts.

For each of its turn decisions it tries every legal option on a copy of the scene
(``Engine.fork``: the same table, dice it draws itself, never the scene's real ones) and plays
each copy on for ``depth`` exchanges (0: to the end) with scripted play, ``simulations`` times:
``rollout`` (``basic``) for its own side, itself included, and ``foes`` (``basic``; several take
turns copy by copy) for the others. It looks for the option with the best average **outlook**
for its side:

* a copy that ended scores 1 if its side won, 0 if another side won, and ``draw`` (0 by default)
  if nobody did: an NPC that counts a stalemate as half a win learns to stall to the exchange
  cap against a stronger foe, which no table wants;
* a copy still running at the horizon scores 1/2 plus half the difference between the harm its
  foes and its own side have taken (each character's share of its stress boxes, consequence
  slots and mob members used up; out of the fight counts as all of it), so that a copy that is
  clearly winning scores near a win.

Every option is played on the same dice (the *j*-th copy of each option rolls the same stream,
"common random numbers"), so the options are compared on the same luck and a few simulations
separate them. The streams come from the controller's seed, the scene's seed and the decision's
place in the scene: the same scene and seed give the same choices (unless ``time_limit`` cuts a
search short, which trades that for a bounded wait at a live table; it is checked after each
round, one copy of every option, so a round always completes).

It takes that option only when it beats ``basic``'s own move by more than ``confidence``
standard errors of their difference copy by copy (on the same dice): where the copies cannot tell
the options apart, following the noise loses fights the script would win, so it keeps the
script's move and says so. The copies run in the fast core when they can
(``fate_env/fast/lookahead.py``), with the same numbers.

The other decisions (defend, invoke, absorb, who goes next) are ``basic``'s. Its reason names
what it expects: "attacks Zird with Fight: 62% to take Zird out within 2 exchanges (outlook 71%,
best of 9 options, 16 simulations each)".
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from fate_env.content.policies import policy_params
from fate_env.rules.conflict import Conflict, Decision
from fate_env.rules.kinds import Status
from fate_env.rules.options import (
    Attack, BlockAction, Concede, CreateAdvantage, Exploit, FullDefense, Guard, Hold, SplitRemove, ZoneTask, Move, OvercomeMove, Pass, Protect,
    RemoveAspect, ShoveInto, SplitAdvantage, SplitAttack, Support, TakeTask, TurnToContest, ZoneAttack,
)

from .registry import Controller, make_controller, register
from .basic import BasicController

_SEARCH_DEFAULTS = {"simulations": 16, "depth": 2, "rollout": "basic", "foes": ["basic"], "time_limit": None,
                    "draw": 0.0, "core": "auto", "confidence": 1.0, "forks": 96}
#: the fewest simulations a decision runs however many options it has (``forks``)
MIN_SIMULATIONS = 2
_NOT_ROLLOUT = ("search", "random")


def copy_seed(base: list[int], n: int) -> int:
    """The seed of the n-th copy's dice (below 2**63: the kernel and numpy read it alike)."""
    return int(np.random.SeedSequence(base + [n]).generate_state(1, np.uint64)[0] >> np.uint64(1))


def share(used: int, total: int, members: int, count: int, out: bool) -> float:
    """How much of a character's staying power is used up, from 0 (fresh) to 1 (out of the fight):
    the share of its stress boxes on the scene's track and of its consequence slots that are
    filled (``used`` of ``total``, by value), and for a mob of ``count`` the members gone."""
    if out:
        return 1.0
    part = used / total if total else 0.0
    if count > 1:
        part = 1.0 - (1.0 - part) * members / count
    return min(part, 1.0)


def score(winner: str | None, ended: bool, side: str, mine: list[float], theirs: list[float], draw: float) -> float:
    """The side's outlook: 1 won, 0 lost, ``draw`` ended with no winner; before the end, 1/2 plus
    half the difference between the mean harm (``share``) of its foes and of its own side."""
    if ended:
        return draw if winner is None else 1.0 if winner == side else 0.0
    if not mine or not theirs:
        return 0.5
    return 0.5 + 0.5 * (sum(theirs) / len(theirs) - sum(mine) / len(mine))


def scores(got, sides_of: list[str], side: str, side_names: list[str], draw: float) -> np.ndarray:
    """``score`` for every copy the kernel played (``fate_env.fast.lookahead.Copies``), with the
    same arithmetic in the same order as ``share`` and ``score`` (the two paths agree exactly)."""
    part = np.where(got.total > 0, got.used / np.maximum(got.total, 1), 0.0)
    mob = got.count > 1
    part[:, mob] = 1.0 - (1.0 - part[:, mob]) * got.members[:, mob] / got.count[mob]
    part = np.where(got.status != 0, 1.0, np.minimum(part, 1.0))
    mine = [q for q, sd in enumerate(sides_of) if sd == side]
    theirs = [q for q, sd in enumerate(sides_of) if sd != side]
    out = np.full(len(part), 0.5)
    if mine and theirs:
        a = np.zeros(len(part))
        b = np.zeros(len(part))
        for q in mine:
            a = a + part[:, q]
        for q in theirs:
            b = b + part[:, q]
        out = 0.5 + 0.5 * (b / len(theirs) - a / len(mine))
    won = np.array([name == side for name in side_names] + [False])[got.winner]  # winner -1: the False
    ended = ~got.running
    out[ended] = np.where(got.winner[ended] < 0, draw, np.where(won[ended], 1.0, 0.0))
    return out


def harm(c: Conflict, cid: str) -> float:
    """``share`` for a character of a scene in play."""
    f = c.f[cid]
    track = f.tracks.get(c.kind)
    total = used = 0
    if track is not None:
        total += sum(track.values)
        used += sum(v for v, m in zip(track.values, track.marked) if m)
    for s in f.slots:
        if s.track is None or s.track == c.kind:
            total += s.value
            used += s.value if s.aspect is not None else 0
    return share(used, total, f.members, f.sheet.count if f.sheet.kind == "mob" else 1, f.status != Status.ACTIVE)


def outlook(c: Conflict, side: str, draw: float = 0.0) -> float:
    """``score`` for a scene in play (a copy played on)."""
    ended = c.pending is None
    winner = c.outcome.winner if ended and c.outcome is not None else None
    mine = [harm(c, cid) for cid, f in c.f.items() if f.sheet.side == side]
    theirs = [harm(c, cid) for cid, f in c.f.items() if f.sheet.side != side]
    return score(winner, ended, side, mine, theirs, draw)


#: each kind of turn option in words (``describe``)
_WORDS = {
    Attack: lambda c, me, o: f"attacks {_n(c, o.target)} with {o.skill}",
    CreateAdvantage: lambda c, me, o: f"creates {o.template} on {'itself' if o.target == me else _n(c, o.target)}",
    Move: lambda c, me, o: f"moves to {_n(c, o.zone)}",
    OvercomeMove: lambda c, me, o: f"forces its way to {_n(c, o.zone)}",
    Support: lambda c, me, o: f"backs {_n(c, o.ally)} up",
    FullDefense: lambda c, me, o: "goes on full defense",
    Concede: lambda c, me, o: "concedes",
    Pass: lambda c, me, o: "waits",
    Exploit: lambda c, me, o: ("searches for what is hidden" if c.aspect(o.aspect).hidden
                               else f"takes advantage of {_aspect_name(c, o.aspect)}"),
    RemoveAspect: lambda c, me, o: f"clears {_aspect_name(c, o.aspect)}",
    TakeTask: lambda c, me, o: f"takes on {c.scene.challenge.tasks[o.task].name}",
    TurnToContest: lambda c, me, o: "turns the fight into the scene's contest",
    ZoneAttack: lambda c, me, o: f"attacks everyone in {_n(c, o.zone)} with {o.skill}",
    SplitAttack: lambda c, me, o: f"splits a {o.skill} attack among the foes in {_n(c, o.zone)}",
    ShoveInto: lambda c, me, o: f"forces {_n(c, o.target)} into {_n(c, o.block)}",
    Hold: lambda c, me, o: "holds its action for later in the exchange",
    Protect: lambda c, me, o: f"blocks for {_n(c, o.ally)}",
    Guard: lambda c, me, o: f"guards {_n(c, o.ally)}",
    SplitRemove: lambda c, me, o: "clears the aspects here with one split overcome",
    ZoneTask: lambda c, me, o: f"takes on task {o.task} of {_n(c, o.zone)}'s challenge",
    BlockAction: lambda c, me, o: f"blocks {_n(c, o.target)}'s {o.action}",
    SplitAdvantage: lambda c, me, o: f"creates {o.template} on each foe in {_n(c, o.zone)}, its effort split",
}


def describe(c: Conflict, me: str, option: Any) -> str:
    """An option in a few words, as the narration reads."""
    words = _WORDS.get(type(option))
    return words(c, me, option) if words is not None else type(option).__name__.lower()


def _n(c: Conflict, cid: str) -> str:
    """A character's or a zone's name, for the words a table reads (ids stay in the options)."""
    return c.scene.display_names.get(cid, cid)


def _aspect_name(c: Conflict, aid: int) -> str:
    a = c.aspects.get(aid)
    return a.name if a is not None else f"aspect {aid}"


@register("search")
class SearchController(BasicController):
    """Looks ahead on copies of the scene for its turns (see the module docstring); parameters
    ``simulations``, ``depth``, ``rollout`` and ``time_limit`` (seconds per decision, or none)
    come from ``configs/policies.yaml`` or the constructor."""

    name = "search"

    def __init__(self, seed: int = 0, **params):
        # the defaults, then configs/policies.yaml, then the constructor's: handing the defaults to
        # BasicController as constructor parameters let them override the file (its search entry
        # was read and then ignored)
        super().__init__(seed, **{**_SEARCH_DEFAULTS, **policy_params(self.name), **params})
        p = self.params
        self.simulations = int(p["simulations"])
        self.depth = int(p["depth"])
        self.time_limit = None if p["time_limit"] in (None, 0) else float(p["time_limit"])
        self.forks = None if p["forks"] in (None, 0) else int(p["forks"])
        self.rollout = str(p["rollout"])
        foes = p["foes"]
        self.foes = [f.strip() for f in foes.split(",")] if isinstance(foes, str) else [str(f) for f in foes]
        self.draw = float(p["draw"])
        self.confidence = float(p["confidence"])
        self.core = str(p["core"])
        if self.core not in ("auto", "fast", "reference"):
            raise ValueError(f"search: core is auto, fast or reference, got {self.core!r}")
        self._looks: dict[tuple, tuple] = {}  # (id(scene), side) -> (scene, {foe policy: the kernel's look-ahead} or None)
        if self.simulations < 1 or self.depth < 0:
            raise ValueError(f"search: simulations must be at least 1 and depth at least 0 (0: to the end), "
                             f"got simulations={self.simulations}, depth={self.depth}")
        for who in [self.rollout, *self.foes]:
            if who in _NOT_ROLLOUT or who.startswith("ppo"):
                raise ValueError(f"search: the rollout and foes policies must be scripted ones, got {who!r}")
        if not self.foes:
            raise ValueError("search: foes needs at least one policy")
        #: play the copies: its own side by ``rollout``, the other sides by ``foes[j % len(foes)]`` in
        #: the j-th copy (the scripted policies keep no state between calls)
        self.players: dict[str, Controller] = {name: make_controller(name, self.seed)
                                               for name in dict.fromkeys([self.rollout, *self.foes])}

    def _turn(self, c: Conflict, d: Decision) -> tuple[int, str]:
        from fate_env import fast as fast_tables  # light: no numba
        opts = d.options
        if len(opts) == 1:
            return 0, "its only option"
        me = d.actor
        side = c.side_of(me)
        look = self._lookahead(c, d)
        rows, outs_rows = [], []
        n = 0
        deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        base = [self.seed, int(c.seed or 0), len(c.choices)]
        wanted = self._simulations(look, len(opts))
        while n < wanted:
            rounds = wanted - n if deadline is None else 1
            seeds = [copy_seed(base, n + j) for j in range(rounds)]
            try:
                values, taken = self._copies(c, d, side, seeds, n, look)
            except fast_tables.TooLong:  # the fight outgrew the kernel's tables: fork, as on a scene it does not cover
                look = None
                wanted = self._simulations(look, len(opts))
                continue
            rows.extend(values)
            outs_rows.extend(taken)
            n += rounds
            if deadline is not None and time.monotonic() > deadline:
                break
        vals = np.array(rows)  # [copy, option]: the same numbers from the kernel or the forks
        totals = vals.sum(axis=0)
        outs = np.sum(outs_rows, axis=0)
        best = max(range(len(opts)), key=lambda i: (totals[i], -i))
        script, why = super()._turn(c, d)
        if best != script and not self._sure(vals[:, best] - vals[:, script]):
            return script, f"{why}; the look-ahead finds nothing surely better (outlook {totals[script] / n:.0%}, " \
                           f"{self._horizon()}, {n} simulation{'s' if n != 1 else ''} of {len(opts)} options)"
        return best, self._reason(c, me, opts[best], totals[best] / n, outs[best] / n, len(opts), n)

    def _simulations(self, look, options: int) -> int:
        """This decision's simulations: ``simulations``, but on the Python engine's forks no more
        than ``forks`` copies in all (options times simulations), and never fewer than
        MIN_SIMULATIONS. The budget is counted, not timed, so the choices stay the same on every
        machine; the kernel's copies (``look``) are cheap enough to run in full."""
        if look is not None or self.forks is None:
            return self.simulations
        return max(MIN_SIMULATIONS, min(self.simulations, self.forks // max(1, options)))

    def _sure(self, diff: np.ndarray) -> bool:
        """Whether the copies show an option better than the script's (``diff``: their outlooks'
        difference copy by copy, on the same dice): by more than ``confidence`` standard errors."""
        mean = float(np.mean(diff))
        if len(diff) < 2:
            return mean > 0
        return mean > 0 and mean > self.confidence * float(np.std(diff, ddof=1)) / math.sqrt(len(diff))

    # -- the copies: forks on the reference engine, or the kernel's batch --------------------------
    def _copies(self, c: Conflict, d: Decision, side: str, seeds: list[int], first: int,
                looks) -> tuple[np.ndarray, np.ndarray]:
        """[copy, option]: each option's outlook, and whether an attack's target is out; copy j
        (the ``first + j``-th of this decision) rolls ``seeds[j]`` against ``foes[(first + j) % k]``."""
        opts = d.options
        m = len(opts)
        foe = [self.foes[(first + j) % len(self.foes)] for j in range(len(seeds))]
        if looks is None:
            got = [[self._fork(c, i, o, seed, side, foe[j]) for i, o in enumerate(opts)] for j, seed in enumerate(seeds)]
            return np.array([[v for v, _ in row] for row in got]), np.array([[t for _, t in row] for row in got])
        values = np.zeros((len(seeds), m))
        taken = np.zeros((len(seeds), m), bool)
        attack = np.array([type(o) is Attack for o in opts])
        cols = np.array([c.order.index(o.target) if type(o) is Attack else 0 for o in opts])
        sides_of = [f.sheet.side for f in c.f.values()]
        for name in dict.fromkeys(foe):  # one kernel call per foes policy
            js = [j for j in range(len(seeds)) if foe[j] == name]
            look = looks[name]
            got = look.play(int(c.seed), c.choices, (d.kind, d.actor, m), [i for _ in js for i in range(m)],
                            [seeds[j] for j in js for _ in range(m)], c.exchange + self.depth if self.depth else 0)
            values[js] = scores(got, sides_of, side, look.sides, self.draw).reshape(len(js), m)
            rows = np.arange(len(got.winner))
            taken[js] = (got.status[rows, np.tile(cols, len(js))] != 0).reshape(len(js), m) & attack
            for r in np.flatnonzero(got.bailed):  # the kernel's tables were too small for this copy: fork it
                q, i = divmod(int(r), m)
                values[js[q], i], taken[js[q], i] = self._fork(c, i, opts[i], seeds[js[q]], side, name)
        return values, taken

    def _fork(self, c: Conflict, i: int, option: Any, seed: int, side: str, foe: str) -> tuple[float, bool]:
        """Option ``i`` tried on a fork of the scene with the dice of ``default_rng(seed)``, the
        other sides played by ``foe``."""
        copy = c.fork(np.random.default_rng(seed))
        copy.step(i, "")
        self._play_on(copy, c.exchange, side, foe)
        return outlook(copy, side, self.draw), type(option) is Attack and copy.f[option.target].status != Status.ACTIVE

    def _lookahead(self, c: Conflict, d: Decision):
        """The kernel's look-ahead for this scene, if it may be used here (``core``: ``auto`` when
        numba is installed, the scene covered and the scene replayable from its seed), else None."""
        if self.core == "reference" or not getattr(c, "reproducible", False):
            return None
        from fate_env.fast import core as fast
        if not fast.available() and self.core == "auto":
            return None
        side = c.side_of(d.actor)
        key = (id(c.scene), side)
        if key not in self._looks:
            from fate_env.fast.lookahead import Lookahead
            try:
                self._looks[key] = (c.scene, {foe: Lookahead(c.scene, self.rollout, side, foe)
                                              for foe in dict.fromkeys(self.foes)})
            except fast.Unsupported:
                if self.core == "fast":
                    raise
                self._looks[key] = (c.scene, None)
        return self._looks[key][1]

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_looks"] = {}  # compiled tables are rebuilt where the copy plays
        return state

    def _play_on(self, copy: Conflict, exchange: int, side: str, foe: str) -> None:
        """Play a copy on (its side by ``rollout``, the others by ``foe``) until it ends or ``depth``
        exchanges have begun."""
        mine, theirs = self.players[self.rollout], self.players[foe]
        while copy.pending is not None:
            if self.depth and copy.exchange >= exchange + self.depth:
                return
            d = copy.pending
            index, _ = (mine if copy.side_of(d.actor) == side else theirs).choose(copy, d)
            copy.step(index, "")

    def _horizon(self) -> str:
        return "by the end" if self.depth == 0 else f"within {self.depth} exchange{'s' if self.depth != 1 else ''}"

    def _reason(self, c: Conflict, me: str, option: Any, value: float, taken: float, count: int, n: int) -> str:
        horizon = self._horizon()
        what = describe(c, me, option)
        sims = f"{n} simulation{'s' if n != 1 else ''} each"
        if type(option) is Attack:
            return f"{what}: {taken:.0%} to take {_n(c, option.target)} out {horizon} " \
                   f"(outlook {value:.0%}, best of {count} options, {sims})"
        return f"{what}: outlook {value:.0%} {horizon} (best of {count} options, {sims})"


__all__ = ["SearchController", "share", "score", "harm", "outlook", "describe", "copy_seed"]
