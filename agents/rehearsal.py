"""``learned`` picks its line for a scene by playing the scene through first (issue 53).

The network reads the move its helper script would make and learned where to depart from it. Given
``stacker`` as the helper instead of ``spender``, the same weights play the stacker's line (free
invokes piled on the foe, then one big blow) about as well as ``stacker`` does, and lose the scenes
where that line is wrong (docs/results/2026-11-28-stacking-attempts.md: two modes, and the helper's
hint is the switch). Nothing in the rows says which scene wants which line, and a switch learned from
them recovered little. Playing the scene does say it.

A file may name its **lines** (its ``rehearse`` entry: the helpers to try, the scripted PC policies
to try them against, and how many fights each). Before its first decision in a scene, a ``learned``
side plays the scene through with each line: every character of its side played by the file with
that helper, every other character by one of ``foes`` in turn, ``fights`` fights a foe, the same
dice for every line. It keeps the line that won most; on a tie, the one named first (the file's
own helper).

The dice are fixed (:data:`FIRST_SEED` on), not the fight's: the line is a function of the file,
the scene and the side, the same in every process and on either engine (the fast core plays the
rehearsal when it is compiled and covers the scene; the reference engine plays the same fights
otherwise, with the same results: the differential tests hold them to each other). The rehearsal
stops as soon as the fights left could not change the choice, whichever engine plays it.

A file may also name scripts its side may play **outright** (``rehearse.outright``): the network
plays no turn on such a line, the script plays every decision of the side's seats. Some tactics
the network never learned to take from a hint: ``counter``'s full defense when outmatched (the +2,
or the boost Condensed gives when nothing came at it) won the ghoul's scene where neither network
line did (docs/results/2026-11-28-outright-line.md). The rehearsal weighs such a line like any
other, and keeps it only where it won more.

This is search at the level of a scene (as ``search`` searches a turn), and it assumes what it
rehearses against: the scripted PC policies, which are also what the figures in docs/ are measured
against (on other dice). Against players who play nothing like them, the choice is as good as they
are a model of those players.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

from fate_env import fast
from fate_env.content.suggest import did_you_mean
from fate_env.fast.decode import outcome
from fate_env.fast.kernel import layout as k
from fate_env.fast.tables import CONTROLLERS
from fate_env.rules.engine import start

#: the rehearsal's dice: the seeds of its fights start here (apart from every bench's, whose seeds
#: are hashed from the run's seed, and from the generator's scene seeds, which are not fight seeds)
FIRST_SEED = 7_000_000
#: the most fights a rehearsal may ask for, all lines together (a file past it is refused)
MAX_FIGHTS = 4096


class RehearsalError(ValueError):
    """A file's ``rehearse`` entry that cannot be played: one line, naming the field."""


@dataclass(frozen=True)
class Rehearsal:
    """What a file asks a scene's rehearsal to try: ``lines`` (helper scripts the network plays
    beside; the first is the file's own ``helper``) and ``outright`` (scripts that play the side
    without the network), against each of ``foes`` (scripted PC policies), ``fights`` fights each."""
    lines: tuple[str, ...]
    foes: tuple[str, ...]
    fights: int
    outright: tuple[str, ...] = ()

    @property
    def candidates(self) -> tuple[str, ...]:
        """Every line the rehearsal tries, in the order a tie is broken: the network's, then the outright ones."""
        return self.lines + self.outright

    @classmethod
    def from_meta(cls, meta: Mapping[str, Any], where: str) -> "Rehearsal | None":
        """The file's ``rehearse`` entry, checked (None when it has none); ``where`` names the file."""
        got = meta.get("rehearse")
        if got is None:
            return None
        scripts = [c for c in CONTROLLERS if c != "random"]

        def names(key: str, optional: bool = False) -> tuple[str, ...]:
            value = got.get(key, [] if optional else None)
            if optional and value == []:
                return ()
            if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
                raise RehearsalError(f"{where}: rehearse.{key}: expected a list of scripted policies "
                                     f"({', '.join(scripts)})")
            bad = [v for v in value if v not in scripts]
            if bad:
                raise RehearsalError(f"{where}: rehearse.{key}: {bad[0][:40]!r} is not a script the fast core plays"
                                     f"{did_you_mean(bad[0][:40], scripts)}; expected one of {', '.join(scripts)}")
            if len(set(value)) != len(value):
                raise RehearsalError(f"{where}: rehearse.{key}: {value} names one policy twice")
            return tuple(value)
        if not isinstance(got, dict):
            raise RehearsalError(f"{where}: rehearse: expected a mapping with lines, foes and fights")
        extra = sorted(set(got) - {"lines", "outright", "foes", "fights"})
        if extra:
            raise RehearsalError(f"{where}: rehearse.{str(extra[0])[:40]}: unknown field; expected lines, outright, "
                                 "foes and fights")
        lines, foes, outright = names("lines"), names("foes"), names("outright", optional=True)
        both = [v for v in outright if v in lines]
        if both:
            raise RehearsalError(f"{where}: rehearse.outright: {both[0]!r} is also one of the lines; a script is "
                                 "played beside the network or outright, not both")
        if lines[0] != meta.get("helper", "basic"):
            raise RehearsalError(f"{where}: rehearse.lines: the first line is the file's helper "
                                 f"({meta.get('helper', 'basic')!r}), got {lines[0]!r}")
        fights = got.get("fights")
        if isinstance(fights, bool) or not isinstance(fights, int) or \
                not 1 <= fights * len(foes) * (len(lines) + len(outright)) <= MAX_FIGHTS:
            raise RehearsalError(f"{where}: rehearse.fights: got {str(fights)[:20]}; expected a whole number of fights "
                                 f"per foe and line, at least 1, and at most {MAX_FIGHTS} in all")
        return cls(lines, foes, fights, outright)

    def to_meta(self) -> dict[str, Any]:
        return {"lines": list(self.lines), **({"outright": list(self.outright)} if self.outright else {}),
                "foes": list(self.foes), "fights": self.fights}

    def seeds(self) -> list[int]:
        """Every fight's dice, in the order they are played: ``fights`` for the first foe, then the next."""
        return [FIRST_SEED + i for i in range(self.fights * len(self.foes))]

    def foe(self, i: int) -> str:
        """The PC policy of fight ``i``."""
        return self.foes[i // self.fights]


@dataclass(frozen=True)
class Choice:
    """A rehearsal's result: the line kept, each line's wins, and the fights each line played (the
    rehearsal stops once the rest could not change the choice)."""
    line: str
    wins: dict[str, int] = field(default_factory=dict)
    fights: int = 0


def decide(plan: Rehearsal, results: Iterator[tuple[bool, ...]]) -> Choice:
    """The line kept from fight-by-fight results (one win flag per line, in ``plan.candidates``' order):
    the most wins, the earlier line on a tie; read only until the fights left could not change it."""
    total = len(plan.seeds())
    lines = plan.candidates
    wins = [0] * len(lines)
    played = 0

    def leader() -> int:
        return max(range(len(wins)), key=lambda j: (wins[j], -j))
    for row in results:
        played += 1
        wins = [w + bool(r) for w, r in zip(wins, row)]
        best, left = leader(), total - played
        # a later line must pass the leader to take it; an earlier one only needs to draw level
        if all(wins[j] + left < wins[best] if j < best else wins[j] + left <= wins[best]
               for j in range(len(wins)) if j != best):
            break
    return Choice(lines[leader()], dict(zip(lines, wins)), played)


def _controls(scene: Any, side: str, spec: str, foe: str) -> dict[str, str]:
    return {c.id: spec if c.side == side else foe for c in scene.characters}


def _fast_results(scene: Any, side: str, spec: str, plan: Rehearsal) -> Iterator[tuple[bool, ...]] | None:
    """The rehearsal's fights on the fast core, foe by foe as they are asked for (so an early stop
    skips the rest), or None if it cannot play them now (not compiled yet, or a scene it does not
    cover): a fight it hands back is played on the reference engine."""
    if not (fast.available() and fast.compiled()):
        return None
    from fate_env.fast.entity_rows import play_learned
    if not fast.compiled(play_learned):  # its own compile: never waited for here (another run may hold it)
        return None
    from fate_env.environment.fast_entities import FastLearned

    from .registry import make_controller
    ctrl = make_controller(spec, 0)
    seats = [c.id for c in scene.characters if c.side == side]

    cores: dict[tuple[str, str], Any] = {}

    def core(line: str, foe: str):
        # the side's seats are their line's script, asking the kinds the file learned (as bench plays
        # them), or nothing on an outright line
        if (line, foe) not in cores:
            scripts = {**_controls(scene, side, foe, foe), **dict.fromkeys(seats, line)}
            asks = () if line in plan.outright else tuple(ctrl.learn)
            cores[line, foe] = fast.FastCore(scene, scripts, dict.fromkeys(seats, asks))
        return cores[line, foe]
    try:
        core(plan.lines[0], plan.foes[0])  # the others differ only in which scripts play
    except fast.Unsupported:
        return None

    def won(line: str, foe: str, seeds: list[int]) -> list[bool]:
        c = core(line, foe)
        if line in plan.outright:  # the script alone: the kernel asks nothing
            ends = c.outcomes(seeds)
        else:
            CH, SLOTA, G = FastLearned(c, ctrl.policy, ctrl.keep_within).run(seeds)
            ends = [None if G[i, k.G_BAIL] else outcome(c.tables, CH[i], SLOTA[i], G[i]) for i in range(len(seeds))]
        # a fight the kernel handed back is played on the reference engine
        return [_reference_win(scene, side, spec, foe, line, s) if end is None else end.winner == side
                for s, end in zip(seeds, ends)]

    def rows() -> Iterator[tuple[bool, ...]]:
        for f, foe in enumerate(plan.foes):
            seeds = plan.seeds()[f * plan.fights:(f + 1) * plan.fights]
            yield from zip(*(won(line, foe, seeds) for line in plan.candidates))
    return rows()


def _reference_win(scene: Any, side: str, spec: str, foe: str, line: str, seed: int) -> bool:
    """One rehearsal fight on the reference engine: whether ``side`` won (as ``bench`` plays a fight:
    the controllers seeded from the fight's seed), its learned seats pinned to ``line``."""
    from .base import controllers_for, play
    controllers = controllers_for(scene, _controls(scene, side, spec, foe), seed=seed)
    for c in scene.characters:
        if c.side == side:
            controllers[c.id].pin(line)
    return play(start(scene, seed), controllers).outcome.winner == side


def _reference_results(scene: Any, side: str, spec: str, plan: Rehearsal) -> Iterator[tuple[bool, ...]]:
    for i, seed in enumerate(plan.seeds()):
        yield tuple(_reference_win(scene, side, spec, plan.foe(i), line, seed) for line in plan.candidates)


def rehearse(scene: Any, side: str, spec: str, plan: Rehearsal) -> Choice:
    """Play ``scene`` through for ``side`` with each of the plan's lines (``spec``: the learned file
    playing it, ``learned`` or ``learned:PATH``) and keep the best: on the fast core when it can play
    the fights now, else on the reference engine (the same fights, the same results)."""
    results = _fast_results(scene, side, spec, plan)
    return decide(plan, results if results is not None else _reference_results(scene, side, spec, plan))
