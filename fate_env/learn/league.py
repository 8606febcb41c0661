"""League training's population (``fate-npc train ... --league``): who the learner faces, and how often.

A policy trained against one opponent learns that opponent's habits; the learned warehouse
smugglers beat the ``basic`` PCs they trained with and fold against ``support`` PCs. A league
keeps a population instead (as AlphaStar's league and PSRO do, much simplified):

* every scripted policy of the other side, and the ``search`` NPC playing it;
* frozen snapshots of the learner, added every ``snapshot_every`` steps (the oldest dropped past
  ``max_snapshots``), so it cannot forget how to beat its own earlier tricks;
* learned opponents (*exploiters*): every ``exploiter_every`` steps a policy for the other side is
  trained against the current snapshot for ``exploiter_steps`` and joins, so a hole a table could
  find is found in training first. ``exploiter_config`` is the training config they learn with
  (``exploit.yaml`` by default: ``basic`` makes their invokes; ``exploit_stacker.yaml`` lets them
  stack free invokes and spend them all on one attack, a line ``basic``'s invokes never find);
* frozen learned opponents named in ``opponents`` as ``ppo:PATH`` (a best response trained
  against an earlier model, say), so a line a table found before stays in the population.

Each fight's opponent is drawn by **prioritised fictitious self-play**: an opponent the learner
beats with (smoothed) rate p weighs ``(1 - p) ** power + floor``; the ones it loses to come up
most, the ones it has mastered still now and then (``floor``), so nothing is forgotten. The rate
counts the last ``window`` fights against that opponent, with one win and one loss of prior, so a
newcomer starts at ½.

This module is the bookkeeping only (no SB3, no torch): ``fate_env.learn.training`` drives it from a
callback and hands the mixture to the environments (``FateSingleAgentEnv.set_league``).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..content.scenes import config_dir, load_scene


def shown(value: object) -> str:
    """A value a config held, in one short line (a config may hold anything)."""
    from ..content.safe_text import excerpt
    return excerpt(repr(value), 60)


#: the ``league`` mapping of a training config, with its defaults
DEFAULTS: dict[str, Any] = {
    "opponents": ["random", "basic", "brute", "sniper", "tactician", "coward", "minion", "support", "stacker", "search"],
    "snapshot_every": 50_000,
    "max_snapshots": 4,
    "exploiter_every": 100_000,
    "exploiter_steps": 30_000,
    "exploiter_config": "exploit.yaml",
    "refresh_every": 4_096,
    "window": 200,
    "power": 2.0,
    "floor": 0.05,
}


def league_settings(given: Any, where: str = "league") -> dict[str, Any]:
    """The config's ``league`` mapping over the defaults; a typo or a bad value is named."""
    if given is None or given is True:
        given = {}
    if not isinstance(given, dict):
        raise ValueError(f"{where}: expected a mapping of {', '.join(DEFAULTS)}, got {shown(given)}")
    unknown = sorted(set(given) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {', '.join(unknown)}; expected some of {', '.join(DEFAULTS)}")
    out = {**DEFAULTS, **given}
    if not isinstance(out["opponents"], list) or not out["opponents"] or \
            not all(isinstance(o, str) and o.strip() for o in out["opponents"]):
        raise ValueError(f"{where}.opponents: expected a non-empty list of policy names, got {shown(out['opponents'])}")
    for key in ("snapshot_every", "max_snapshots", "exploiter_every", "exploiter_steps", "refresh_every", "window"):
        if not isinstance(out[key], int) or out[key] < 0 or (key in ("refresh_every", "window") and out[key] < 1):
            raise ValueError(f"{where}.{key}: expected a whole number (0 turns snapshots or exploiters off), "
                             f"got {shown(out[key])}")
    for key in ("power", "floor"):
        if not isinstance(out[key], (int, float)) or out[key] < 0:
            raise ValueError(f"{where}.{key}: expected a number >= 0, got {shown(out[key])}")
    out["exploiter_config"] = str(exploiter_config_path(out["exploiter_config"], f"{where}.exploiter_config"))
    return out


def exploiter_config_path(given: Any, where: str = "league.exploiter_config") -> Path:
    """The exploiters' training config: a file path, or a name under configs/train (``exploit_stacker.yaml``)."""
    if not isinstance(given, str) or not given.strip():
        raise ValueError(f"{where}: expected a training config's path or its name under configs/train, got {shown(given)}")
    for path in (Path(given), config_dir() / "train" / given):
        if path.is_file():
            return path.resolve()
    raise ValueError(f"{where}: no training config {given!r} (looked for it as a path and under "
                     f"{config_dir() / 'train'}; e.g. exploit.yaml, exploit_stacker.yaml)")


@dataclass
class Member:
    """One opponent of the population: its name in logs, its controller spec, what it is."""
    name: str
    spec: str
    kind: str  # "scripted", "search", "learned" (ppo:PATH), "snapshot" or "exploiter"
    added_at: int = 0
    recent: deque = field(default_factory=deque)
    fights: int = 0
    wins: int = 0

    def rate(self) -> float:
        """The learner's smoothed win rate over the recent fights (½ with none)."""
        return (sum(self.recent) + 1) / (len(self.recent) + 2)


class League:
    """The population and its prioritised sampling (see the module docstring)."""

    def __init__(self, opponents: list[str], power: float = 2.0, floor: float = 0.05, window: int = 200,
                 max_snapshots: int = 4):
        self.power, self.floor, self.window, self.max_snapshots = float(power), float(floor), int(window), \
            int(max_snapshots)
        self.members: list[Member] = []
        self.retired: list[Member] = []
        for name in dict.fromkeys(o.strip() for o in opponents):
            kind = {"search": "search", "ppo": "learned"}.get(name.split(":")[0], "scripted")
            self.add(name, name, kind)

    def add(self, name: str, spec: str, kind: str, at: int = 0) -> Member:
        if any(m.name == name for m in self.members):
            raise ValueError(f"league: {name!r} is already a member")
        member = Member(name, spec, kind, at, deque(maxlen=self.window))
        self.members.append(member)
        snapshots = [m for m in self.members if m.kind == "snapshot"]
        if kind == "snapshot" and len(snapshots) > self.max_snapshots:
            self.members.remove(snapshots[0])  # the oldest snapshot leaves
            self.retired.append(snapshots[0])
        return member

    def record(self, name: str, won: bool) -> None:
        """One finished fight against ``name`` (a retired member's late results are dropped)."""
        for m in self.members:
            if m.name == name:
                m.recent.append(1 if won else 0)
                m.fights += 1
                m.wins += bool(won)
                return

    def weights(self) -> list[float]:
        """Each member's share of the next fights (sums to 1)."""
        raw = [(1.0 - m.rate()) ** self.power + self.floor for m in self.members]
        total = sum(raw)
        return [w / total for w in raw]

    def specs(self) -> list[str]:
        return [m.spec for m in self.members]

    def names(self) -> list[str]:
        return [m.name for m in self.members]

    def summary(self) -> list[dict[str, Any]]:
        """Every member (retired ones too) with its fights, wins and current share, for the report."""
        shares = dict(zip(self.names(), self.weights()))
        return [{"name": m.name, "spec": m.spec, "kind": m.kind, "added_at": m.added_at, "fights": m.fights,
                 "wins": m.wins, "win_rate": m.wins / m.fights if m.fights else None,
                 "recent_win_rate": sum(m.recent) / len(m.recent) if m.recent else None,
                 "share": shares.get(m.name, 0.0), "retired": m not in self.members}
                for m in [*self.members, *self.retired]]


def learner_side(scene_name: str, npc_side: str, rules: str | None = None) -> str:
    """The side the best response plays: the one other side (exploitability is a two-sided measure)."""
    scene = load_scene(scene_name, rules=rules)
    if npc_side not in scene.sides:
        raise ValueError(f"--side {npc_side}: scene {scene.name!r} has sides {', '.join(scene.sides)}")
    others = [s for s in scene.sides if s != npc_side]
    if len(others) != 1:
        raise ValueError(f"exploit needs a two-sided scene; {scene.name!r} has {len(scene.sides)} sides")
    return others[0]
