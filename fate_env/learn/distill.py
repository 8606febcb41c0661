"""A learned policy file as the teacher (``fate-npc learn --distill FILE``, issue 53's pace): the file
plays the NPCs of the self-play scenes, taking its best move each turn, and a fresh network, of any
width, learns its choices with the imitation step's own fit (``general.clone``).

Self-play makes a file stronger than its teacher, search, but not cheaper: a width-64 network's forward
costs more per decision than the 0.2x pace leaves. Cloning the stronger file into a narrower network
keeps what self-play found at a fraction of the cost; measured in
``docs/results/2026-11-27-self-play-plateau.md`` (width 32: the same wins on the validation scenes,
half the forward).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..environment.entities import O_AT
from . import self_play
from .teacher import OPPONENTS, Recording, recording_of

#: the fights' scenes: the self-play scenes (never a shipped one, nor a validation or measured seed)
SCENES = 200


def jobs(path: str, fights: int, seed: int = 0) -> list[tuple[int, int, str, str, float]]:
    """``fights`` fights of ``path`` at temperature 0 (its best move), over the first close generated
    scenes in turn, each against a scripted policy drawn from the family, on dice of its own."""
    pool = self_play.balanced_seeds(min(SCENES, fights))
    rng = np.random.default_rng(5310 + seed)
    return [(int(pool[i % len(pool)]), int(rng.integers(2 ** 31)), OPPONENTS[int(rng.integers(len(OPPONENTS)))],
             path, 0.0) for i in range(fights)]


def record(path: str, fights: int, workers: int, seed: int = 0) -> Recording:
    """The turns ``path`` chose in :func:`jobs`' fights, as a recording ``general.clone`` fits (each
    decision's script move is the one its rows mark as suggested; no outlooks)."""
    from ..evaluation.pools import imap
    decisions, chosen, script, fight = [], [], [], []
    for p in imap(self_play.play, jobs(path, fights, seed), workers, "spawn"):
        for e, i in zip(p.decisions, p.chosen):
            decisions.append(e)
            chosen.append(i)
            script.append(int(np.argmax(e.options[:, O_AT["hint"]])))
            fight.append(p.scene)
    return recording_of(decisions, chosen, script, [np.zeros(len(e.options), np.float32) for e in decisions], fight)


def teacher_record(card: dict[str, Any]) -> dict[str, Any]:
    """What a teacher file's sidecar says it learned from, for the student's sidecar, down the chain
    of teachers (their figures per iteration and their measured cells left behind: those are the
    teacher's, not the student's)."""
    keep = {k: card[k] for k in ("width", "teacher", "trained_on", "agreement", "started_from") if k in card}
    if isinstance(card.get("self_play"), dict):
        keep["self_play"] = {k: v for k, v in card["self_play"].items() if k != "npc_reward_by_iteration"}
    if isinstance(card.get("distilled_from"), dict):
        keep["distilled_from"] = teacher_record(card["distilled_from"])
    return keep
