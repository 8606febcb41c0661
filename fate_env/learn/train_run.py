"""One training run's settings, as ``fate-npc train`` asks for them: what :func:`training.train` runs,
and what the league's exploiters and ``fate-npc exploit``'s best responses are trained with (a module of
its own so that the league's callback, which ``training`` imports, can make one too)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TrainRun:
    """One training run, as ``fate-npc train`` asks for it. ``init``: start from a saved model's
    weights (same scene maxima and net_arch), e.g. to go on training against other opponents.
    ``envs``: how many environments step together, in this process (``subprocess_envs``: in
    processes of their own) (the rollout keeps ``n_steps`` in all: ``n_steps // envs`` each);
    ``torch_threads``: torch's threads in this process (1 is fastest on a small shared machine).
    ``league``: the opponents are the config's ``league`` population (fate_env/learn/league.py),
    drawn by prioritised sampling, with snapshots and exploiters joining as it trains; ``opponent``
    is ignored. ``eval_episodes: 0`` in the config skips the closing evaluation."""

    scene: str
    side: str | None
    opponent: str
    timesteps: int
    out: str
    config: dict[str, Any]
    seed: int = 0
    self_play: bool = False
    rules: str | None = None
    verbose: int = 1
    init: str | None = None
    envs: int = 1
    torch_threads: int = 1
    league: bool = False
    subprocess_envs: bool = False

    def check(self) -> None:
        """The run's settings that cannot go together, refused before anything is built."""
        if self.envs < 1:
            raise ValueError(f"envs: expected at least 1, got {self.envs}")
        if self.league and self.self_play:
            raise ValueError("--league and --self-play: choose one (the league holds snapshots of the learner)")
