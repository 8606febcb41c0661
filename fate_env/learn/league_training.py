"""The SB3 side of league training: a callback that keeps the population (fate_env/learn/league.py).

It reads each finished fight's opponent and outcome from the environments' last-step info (a
fight over before the learner's first decision has no step, so it is not counted),
re-weights the population every ``refresh_every`` steps (prioritised sampling), saves a frozen
snapshot of the learner every ``snapshot_every`` steps, trains an exploiter against the newest
snapshot every ``exploiter_every`` steps, and hands the mixture to every environment
(``FateSingleAgentEnv.set_league``, through the vectorised env's ``env_method``). The mixture
and the learner's win rate against each member go to the training log (``league/share/NAME``,
``league/win/NAME``) and, at the end, to ``<out>.log/league.json``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

from stable_baselines3.common.callbacks import BaseCallback

from ..content.policy_file import trust
from .league import League, learner_side
from .train_run import TrainRun


class LeagueCallback(BaseCallback):
    def __init__(self, settings: dict[str, Any], env: Any, out_path: Path, sidecar: Callable[[Path], None],
                 scene: str, rules: str | None, seed: int, verbose: int = 0, *,
                 train: Callable[..., Any], load_config: Callable[[str], dict[str, Any]]):
        """``train`` and ``load_config`` are fate_env.learn.training's, passed in by it (the exploiters
        are trained as any model is), so this module does not import the one that imports it."""
        super().__init__(verbose)
        self.train, self.load_config = train, load_config
        self.settings = settings
        self.side = env.side
        self.out_path = out_path
        self.sidecar = sidecar
        self.scene, self.rules, self.seed = scene, rules, seed
        self.league = League(settings["opponents"], settings["power"], settings["floor"], settings["window"],
                             settings["max_snapshots"])
        self.folder = out_path.with_name(out_path.stem + "_league")
        self.last = {"refresh": 0, "snapshot": 0, "exploiter": 0}
        self.exploiters: list[dict[str, Any]] = []
        self.history: list[dict[str, Any]] = []

    def _on_training_start(self) -> None:
        self._push()

    def _due(self, what: str, every: int) -> bool:
        if every and self.num_timesteps - self.last[what] >= every:
            self.last[what] = self.num_timesteps
            return True
        return False

    def _on_step(self) -> bool:
        for info, done in zip(self.locals["infos"], self.locals["dones"]):
            if done and "opponent" in info and "outcome" in info:
                self.league.record(info["opponent"], info["outcome"].get("winner") == self.side)
        changed = False
        if self._due("snapshot", self.settings["snapshot_every"]):
            self._snapshot()
            changed = True
        if self._due("exploiter", self.settings["exploiter_every"]):
            self._exploiter()
            changed = True
        if changed or self._due("refresh", self.settings["refresh_every"]):
            self._push()
        return True

    def _save_snapshot(self) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"snapshot_{self.num_timesteps}.zip"
        self.model.save(path)
        trust(path)  # written here: ppo: may load it (policy_file: Trust)
        self.sidecar(path)  # the snapshot plays the learner's decisions only, with its action space
        return path

    def _snapshot(self) -> None:
        path = self._save_snapshot()
        self.league.add(f"snapshot@{self.num_timesteps}", f"ppo:{path}", "snapshot", self.num_timesteps)

    def _exploiter(self) -> None:
        """A policy for the other side, trained against the learner as it is now, joins the league."""
        snap = self.folder / f"snapshot_{self.num_timesteps}.zip"
        if not snap.exists():  # no snapshot was taken at this very step
            snap = self._save_snapshot()
        other = learner_side(self.scene, self.side, self.rules)
        config = {**self.load_config(self.settings["exploiter_config"]), "eval_episodes": 0}
        out = self.folder / f"exploiter_{self.num_timesteps}.zip"
        start = time.perf_counter()
        self.train(TrainRun(self.scene, other, f"ppo:{snap}", self.settings["exploiter_steps"], str(out), config,
                            seed=self.seed + len(self.exploiters) + 1, rules=self.rules, verbose=0))
        self.exploiters.append({"model": str(out), "at": self.num_timesteps, "against": str(snap),
                                "steps": self.settings["exploiter_steps"],
                                "minutes": (time.perf_counter() - start) / 60})
        self.league.add(f"exploiter@{self.num_timesteps}", f"ppo:{out}", "exploiter", self.num_timesteps)
        if self.verbose:
            print(f"league: exploiter@{self.num_timesteps} trained against the learner "
                  f"({self.exploiters[-1]['minutes']:.1f} min)")

    def _push(self) -> None:
        weights = self.league.weights()
        self.training_env.env_method("set_league", self.league.names(), self.league.specs(), weights)
        for m, w in zip(self.league.members, weights):
            self.logger.record(f"league/share/{m.name}", w)
            if m.recent:
                self.logger.record(f"league/win/{m.name}", sum(m.recent) / len(m.recent))
        self.history.append({"at": self.num_timesteps,
                             "share": {m.name: round(w, 4) for m, w in zip(self.league.members, weights)}})

    def report(self) -> dict[str, Any]:
        """The population at the end, the exploiters trained, and how the mixture moved."""
        return {"settings": self.settings, "members": self.league.summary(), "exploiters": self.exploiters,
                "history": self.history}
