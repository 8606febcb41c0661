"""Controllers inside the PettingZoo loop: play whole episodes of the AEC env.

Scripted controllers read the engine (``env.unwrapped.conflict``) and pick an
option; the runner turns that into the env's action, so the same controllers
serve the CLI, the env, tests and benchmarks. On the fast core the env rebuilds
that engine at each decision asked: make the env with ``core="reference"`` when
Python controllers play most seats (or let ``fate-npc bench`` / ``eval`` play
scripted seats inside the kernel).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agents.base import Controller


def play_episode(env: Any, controllers: Mapping[str, Controller], seed: int | None = None) -> dict[str, float]:
    """Run one episode; returns each agent's total reward."""
    env.reset(seed=seed)
    raw = env.unwrapped
    totals = {a: 0.0 for a in raw.possible_agents}
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last(observe=False)
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        conflict = raw.conflict
        index, _reason = controllers[agent].choose(conflict, conflict.pending)
        env.step(raw.action_for_option(index))
    return totals
