"""``search``: an NPC that looks ahead before it acts.

For each of its turn decisions it tries every legal option on a copy of the scene
(``Engine.fork``: the same table, dice it draws itself, never the scene's real ones) and plays
each copy on for ``depth`` exchanges (0: to the end) with a scripted policy (``rollout``,
``basic`` by default) for every character, itself included, ``simulations`` times. It takes the
option with the best average **outlook** for its side:

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

The other decisions (defend, invoke, absorb, who goes next) are ``basic``'s. Its reason names
what it expects: "attacks Zird with Fight: 62% to take Zird out within 2 exchanges (outlook 71%,
best of 9 options, 16 simulations each)".
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from fate_env.rules.conflict import Conflict, Decision
from fate_env.rules.kinds import Status
from fate_env.rules.options import Attack, Concede, CreateAdvantage, FullDefense, Move, OvercomeMove, Pass, Support

from .base import Controller, make_controller, register
from .basic import BasicController

_SEARCH_DEFAULTS = {"simulations": 16, "depth": 2, "rollout": "basic", "time_limit": None, "draw": 0.0}


def harm(c: Conflict, cid: str) -> float:
    """How much of ``cid``'s staying power is used up, from 0 (fresh) to 1 (out of the fight):
    the share of its stress boxes on the scene's track and of its consequence slots that are
    filled, and for a mob the share of its members that are gone."""
    f = c.f[cid]
    if f.status != Status.ACTIVE:
        return 1.0
    track = f.tracks.get(c.kind)
    total = used = 0
    if track is not None:
        total += sum(track.values)
        used += sum(v for v, m in zip(track.values, track.marked) if m)
    for s in f.slots:
        if s.track is None or s.track == c.kind:
            total += s.value
            used += s.value if s.aspect is not None else 0
    share = used / total if total else 0.0
    count = f.sheet.count if f.sheet.kind == "mob" else 1
    if count > 1:
        share = 1.0 - (1.0 - share) * f.members / count
    return min(share, 1.0)


def outlook(c: Conflict, side: str, draw: float = 0.0) -> float:
    """The side's outlook in a scene (a copy played on): 1 won, 0 lost, ``draw`` when it ended
    with no winner; before the end, 1/2 plus half the difference between the mean harm of its
    foes and of its own side."""
    if c.pending is None:
        o = c.outcome
        winner = o.winner if o is not None else None
        return draw if winner is None else 1.0 if winner == side else 0.0
    mine = [harm(c, cid) for cid, f in c.f.items() if f.sheet.side == side]
    theirs = [harm(c, cid) for cid, f in c.f.items() if f.sheet.side != side]
    if not mine or not theirs:
        return 0.5
    return 0.5 + 0.5 * (sum(theirs) / len(theirs) - sum(mine) / len(mine))


def describe(c: Conflict, me: str, option: Any) -> str:
    """An option in a few words, as the narration reads."""
    t = type(option)
    if t is Attack:
        return f"attacks {option.target} with {option.skill}"
    if t is CreateAdvantage:
        on = "itself" if option.target == me else option.target
        return f"creates {option.template} on {on}"
    if t is Move:
        return f"moves to {option.zone}"
    if t is OvercomeMove:
        return f"forces its way to {option.zone}"
    if t is Support:
        return f"backs {option.ally} up"
    if t is FullDefense:
        return "goes on full defense"
    if t is Concede:
        return "concedes"
    if t is Pass:
        return "waits"
    return type(option).__name__.lower()


@register("search")
class SearchController(BasicController):
    """Looks ahead on copies of the scene for its turns (see the module docstring); parameters
    ``simulations``, ``depth``, ``rollout`` and ``time_limit`` (seconds per decision, or none)
    come from ``configs/policies.yaml`` or the constructor."""

    name = "search"

    def __init__(self, seed: int = 0, **params):
        super().__init__(seed, **{**_SEARCH_DEFAULTS, **params})
        p = self.params
        self.simulations = int(p["simulations"])
        self.depth = int(p["depth"])
        self.time_limit = None if p["time_limit"] in (None, 0) else float(p["time_limit"])
        self.rollout = str(p["rollout"])
        self.draw = float(p["draw"])
        if self.simulations < 1 or self.depth < 0:
            raise ValueError(f"search: simulations must be at least 1 and depth at least 0 (0: to the end), "
                             f"got simulations={self.simulations}, depth={self.depth}")
        if self.rollout in ("search", "random") or self.rollout.startswith("ppo"):
            raise ValueError(f"search: the rollout policy must be a scripted one, got {self.rollout!r}")
        #: plays every character of the copies (the scripted policies keep no state between calls)
        self.player: Controller = make_controller(self.rollout, self.seed)

    def _turn(self, c: Conflict, d: Decision) -> tuple[int, str]:
        opts = d.options
        if len(opts) == 1:
            return 0, "its only option"
        me = d.actor
        side = c.side_of(me)
        totals = [0.0] * len(opts)
        outs = [0] * len(opts)
        n = 0
        deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        base = [self.seed, int(c.seed or 0), len(c.choices)]
        while n < self.simulations:
            stream = np.random.SeedSequence(base + [n])
            for i, option in enumerate(opts):
                copy = c.fork(np.random.default_rng(stream))
                copy.step(i, "")
                self._play_on(copy, c.exchange)
                totals[i] += outlook(copy, side, self.draw)
                if type(option) is Attack and copy.f[option.target].status != Status.ACTIVE:
                    outs[i] += 1
            n += 1
            if deadline is not None and time.monotonic() > deadline:
                break
        best = max(range(len(opts)), key=lambda i: (totals[i], -i))
        return best, self._reason(c, me, opts[best], totals[best] / n, outs[best] / n, len(opts), n)

    def _play_on(self, copy: Conflict, exchange: int) -> None:
        """Play a copy on with the rollout policy until it ends or ``depth`` exchanges have begun."""
        while copy.pending is not None:
            if self.depth and copy.exchange >= exchange + self.depth:
                return
            d = copy.pending
            index, _ = self.player.choose(copy, d)
            copy.step(index, "")

    def _reason(self, c: Conflict, me: str, option: Any, value: float, taken: float, count: int, n: int) -> str:
        horizon = "by the end" if self.depth == 0 else \
            f"within {self.depth} exchange{'s' if self.depth != 1 else ''}"
        what = describe(c, me, option)
        sims = f"{n} simulation{'s' if n != 1 else ''} each"
        if type(option) is Attack:
            return f"{what}: {taken:.0%} to take {option.target} out {horizon} " \
                   f"(outlook {value:.0%}, best of {count} options, {sims})"
        return f"{what}: outlook {value:.0%} {horizon} (best of {count} options, {sims})"


__all__ = ["SearchController", "harm", "outlook", "describe"]
