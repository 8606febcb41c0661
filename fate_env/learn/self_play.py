"""The general NPC improved by play (issue 53): after cloning its teacher, the network plays the NPCs
of generated scenes against a league (the scripted family and its own past selves) and learns from
who won.

Imitation stops at the teacher: ``search`` itself trails the best script on some scenes (the duel),
so a clone cannot pass it there. Here the measure is the evaluation's own, the NPC side's wins.

* **Scenes.** Generated from seeds no other step uses, kept only when they are close: ``basic``
  NPCs against ``basic`` PCs win between 15% and 85% of 40 fights on the fast core
  (:func:`balanced_seeds`). A one-sided scene says nothing about which move was better.
* **Fights.** Each scene is played ``group`` times against one league member (the PCs' policy),
  each with its own dice; the NPCs' turns are drawn from the network's distribution (softened by
  ``temperature``), everything else is the file's helper script's, as ``learned`` plays.
* **The update.** REINFORCE with a leave-one-out baseline (RLOO: each fight's reward less the mean
  of the others of its group), so a move is credited only against fights of the same scene and the
  same opponent. A group whose fights all ended alike carries no signal and is skipped.
* **The league.** ``league.League``'s prioritised sampling over the eight scripts, plus a frozen
  snapshot of the learner every ``snapshot_every`` iterations playing the PCs (its own seat
  reversed: the view is the ego's), so it does not learn moves only its scripted foes fall for.

Fights run in worker processes with the numpy player (``environment/entity_policy.py``); the
update runs here with torch, one thread, deterministic, so a run repeats on one machine.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from agents.base import make_controller
from agents.learned import LearnedController

from ..content.generate import scene as generated
from ..content.scenes import scene_from_dict
from ..environment.entities import Entities
from ..evaluation.pools import WorkerDied, executor, interrupts_held
from ..fast import FastCore, covered
from ..rules.conflict import Conflict
from .general import save
from .league import League
from .teacher import OPPONENTS

#: where the self-play scenes' seeds start: past the teacher's (10000 on), below the validation
#: (800000) and measurement (900000) seeds
FIRST_SEED = 100_000


def seats(scene: Any) -> tuple[str, str] | None:
    """(the PCs' side, the NPCs' side) of a two-sided scene whose PCs are all on one side, else None."""
    if len(scene.sides) != 2:
        return None
    pcs = {c.side for c in scene.characters if c.kind == "pc"}
    if len(pcs) != 1:
        return None
    pc = next(iter(pcs))
    return pc, next(s for s in scene.sides if s != pc)


def close_call(seed: int, fights: int = 40, low: float = 0.15, high: float = 0.85) -> bool:
    """Whether generated scene ``seed`` is close: the fast core plays it, and ``basic`` NPCs against
    ``basic`` PCs win between ``low`` and ``high`` of ``fights``."""
    sc = scene_from_dict(generated(seed), f"generated-{seed}")
    if sc.kind != "conflict" or covered(sc) or seats(sc) is None:
        return False
    got = [o for o in FastCore(sc).outcomes(list(range(fights))) if o is not None]
    rate = sum(1 for o in got if o.winner == seats(sc)[1]) / max(1, len(got))
    return low <= rate <= high


def balanced_seeds(count: int, first: int = FIRST_SEED) -> list[int]:
    """The first ``count`` close generated scenes from seed ``first`` on (:func:`close_call`)."""
    out, s = [], first
    while len(out) < count:
        if close_call(s):
            out.append(s)
        s += 1
    return out


@dataclass
class Played:
    """One self-play fight: the NPCs' sampled turns and how it ended for them."""
    scene: int
    foe: str
    reward: float              # 1 the NPCs won, 0 they lost, ½ neither side did
    decisions: list[Entities]
    chosen: list[int]


def play(job: tuple[int, int, str, str, float]) -> Played:
    """One fight of generated scene ``scene`` on dice ``dice``: the NPCs played as ``learned:PATH``
    plays them, except that the network's turns are drawn from its scores (``temperature``: 0 takes
    the best); the PCs played by ``foe``."""
    scene_seed, dice, foe_spec, path, temperature = job
    sc = scene_from_dict(generated(scene_seed), f"generated-{scene_seed}")
    _, npcs = seats(sc)
    npc = LearnedController(dice, path=path)
    foe = make_controller(foe_spec, dice)
    rng = np.random.default_rng([scene_seed, dice, 5301])
    c = Conflict(sc, seed=dice)
    decisions, chosen = [], []
    while c.pending is not None:
        d = c.pending
        if c.side_of(d.actor) != npcs:
            index, _ = foe.choose(c, d)
        elif npc.decides(d):
            scores, _, rows = npc.scores(c, d)
            index = draw(scores, temperature, rng)
            decisions.append(rows)
            chosen.append(index)
        else:
            index, _ = npc.helper_in(c, d.actor)[0].choose(c, d)
        c.step(index, "")
    winner = c.outcome.winner
    return Played(scene_seed, foe_spec, 1.0 if winner == npcs else 0.5 if winner is None else 0.0, decisions, chosen)


def draw(scores: np.ndarray, temperature: float, rng: np.random.Generator) -> int:
    """An option from the softmax of ``scores / temperature`` (the best one at temperature 0)."""
    if temperature <= 0:
        return int(np.argmax(scores))
    z = scores.astype(np.float64) / temperature
    p = np.exp(z - z.max())
    return int(rng.choice(len(p), p=p / p.sum()))


def advantages(rewards: Sequence[float]) -> np.ndarray:
    """Each fight's reward less the mean of the other fights of its group (RLOO's baseline)."""
    r = np.asarray(rewards, np.float64)
    if len(r) < 2:
        return np.zeros_like(r)
    return r - (r.sum() - r) / (len(r) - 1)


@dataclass
class Settings:
    """A self-play run's knobs (``fate-npc learn``'s ``--self-play-*`` options)."""
    iterations: int = 500
    scenes: int = 16            # scenes per iteration
    group: int = 8              # fights per scene (one opponent, several dice)
    pool: int = 200             # close generated scenes drawn from (never more than the run plays)
    temperature: float = 0.5
    lr: float = 3e-4
    snapshot_every: int = 10    # iterations; 0: no past selves
    workers: int = 2
    seed: int = 0
    keep: str | None = None     # a folder: the network at each snapshot is kept there too


def improve(net: Any, settings: Settings, log=print) -> dict[str, Any]:
    """Play and update ``net`` (an ``entity_net.EntityNet``) in place; returns what the run did."""
    from concurrent.futures.process import BrokenProcessPool

    import torch

    from .entity_net import collate
    s = settings
    log = log or (lambda line: None)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    torch.manual_seed(s.seed)
    start = time.perf_counter()
    size = max(s.scenes, min(s.pool, s.iterations * s.scenes))
    log(f"self-play: finding {size} close generated scenes from seed {FIRST_SEED}")
    pool = balanced_seeds(size)
    league = League(list(OPPONENTS), max_snapshots=4)
    rng = np.random.default_rng([s.seed, 5302])
    opt = torch.optim.Adam(net.parameters(), lr=s.lr)
    history: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp, executor(s.workers, "spawn") as workers:
        for it in range(s.iterations):
            path = str(Path(tmp) / f"iteration-{it}.zip")
            save(path, net)
            if s.snapshot_every and it and it % s.snapshot_every == 0:
                league.add(f"self@{it}", f"learned:{path}", "snapshot", it)
                if s.keep:
                    Path(s.keep).mkdir(parents=True, exist_ok=True)
                    save(Path(s.keep) / f"iteration-{it}.zip", net)
            members = league.names()
            shares = league.weights()
            jobs, groups = [], []
            for scene_seed in rng.choice(pool, s.scenes, replace=False):
                member = members[int(rng.choice(len(members), p=shares))]
                spec = league.specs()[members.index(member)]
                groups.append((member, len(jobs), s.group))
                for _ in range(s.group):
                    jobs.append((int(scene_seed), int(rng.integers(2 ** 31)), spec, path, s.temperature))
            try:
                with interrupts_held():  # submitting starts the workers: never with a Ctrl-C half-way
                    running = workers.map(play, jobs, chunksize=4)
                played = list(running)
            except BrokenProcessPool:
                raise WorkerDied("a self-play worker died (killed, or out of memory); the run stopped, and nothing "
                                 "was written") from None
            batch: list[Entities] = []
            chosen: list[int] = []
            weight: list[float] = []
            for member, at, n in groups:
                fights = played[at:at + n]
                adv = advantages([p.reward for p in fights])
                for p, a in zip(fights, adv):
                    league.record(member, p.reward > 0.5)
                    if a == 0:
                        continue
                    batch += p.decisions
                    chosen += p.chosen
                    weight += [a] * len(p.chosen)
            loss = 0.0
            if batch:
                logits, _ = net(collate(batch))
                t = max(s.temperature, 1e-6)
                logp = torch.log_softmax(logits / t, -1).gather(1, torch.as_tensor(chosen)[:, None])[:, 0]
                # each fight's moves summed (the gradient of its outcome's log-likelihood), averaged
                # over the iteration's fights
                total = -(torch.as_tensor(weight, dtype=torch.float32) * logp).sum() / len(jobs)
                opt.zero_grad()
                total.backward()
                torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
                opt.step()
                loss = float(total.detach())
            won = float(np.mean([p.reward for p in played]))
            history.append({"iteration": it, "npc_reward": round(won, 4), "decisions": len(batch),
                            "loss": round(loss, 5)})
            if it % 5 == 4 or it == s.iterations - 1:
                recent = np.mean([h["npc_reward"] for h in history[-5:]])
                log(f"self-play {it + 1}/{s.iterations}: the NPCs scored {recent:.1%} over the last 5 iterations "
                    f"({time.perf_counter() - start:.0f} s)")
    return {"iterations": s.iterations, "fights": s.iterations * s.scenes * s.group, "scene_pool": [pool[0], pool[-1]],
            "seconds": round(time.perf_counter() - start, 1), "league": league.summary(), "history": history}
