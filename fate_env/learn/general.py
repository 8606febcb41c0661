"""Training the general NPC (issue 53): the entity network (``entity_net.py``) cloned from the
teacher's decisions on generated scenes (``teacher.py``), written as the ``learned`` policy file
(``environment/entity_policy.py``) that numpy plays.

Cloning is a cross-entropy over each decision's own options, the teacher's choice the target, in
minibatches of decisions from many scenes at once (padded: one forward serves them all). A tenth
of the fights (by scene seed, never single decisions, so no fight is half in each) is kept aside
to say how often the network agrees with the teacher on fights it did not see. Torch runs on the
CPU with its threads and every seed fixed, so a run repeats on one machine.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from .teacher import Recording


@dataclass
class Fitted:
    """What a cloning run gives: the network and how well it agrees with the teacher."""

    net: Any
    train_agree: float
    held_agree: float
    held_script_agree: float  # how often the teacher's own fallback (basic) agrees with it, same decisions
    decisions: int
    fights: int
    seconds: float


def _split(rec: Recording, held_share: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    fights = np.unique(rec.fight)
    rng = np.random.default_rng([seed, 53])
    held = set(rng.choice(fights, max(1, int(len(fights) * held_share)), replace=False).tolist()) if len(fights) > 1 else set()
    mask = np.array([f in held for f in rec.fight])
    return np.flatnonzero(~mask), np.flatnonzero(mask)


def _agree(net, rec: Recording, index: np.ndarray, batch: int = 512) -> float:
    import torch

    from .entity_net import collate
    if len(index) == 0:
        return float("nan")
    hits = 0
    with torch.no_grad():
        for at in range(0, len(index), batch):
            part = index[at:at + batch]
            logits, _ = net(collate([rec.entities(int(i)) for i in part]))
            hits += int((logits.argmax(-1).numpy() == rec.chosen[part]).sum())
    return hits / len(index)


def clone(rec: Recording, epochs: int = 15, seed: int = 0, width: int = 64, batch: int = 128, lr: float = 2e-3,
          held_share: float = 0.1, threads: int = 1, log=print) -> Fitted:
    """Fit a fresh network (weights from ``seed``) to the teacher's choices. (Fitting each option's
    score to its outlook instead was tried: the network then took options whose outlooks it
    overrated, and the rival won no duel of 48.)"""
    import torch

    from .entity_net import collate, net as make_net
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(True)
    start = time.perf_counter()
    train, held = _split(rec, held_share, seed)
    model = make_net(seed, width=width)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, max(1, epochs))
    rng = np.random.default_rng([seed, 530])
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for part in np.array_split(rng.permutation(train), max(1, len(train) // batch)):
            logits, _ = model(collate([rec.entities(int(i)) for i in part]))
            loss = torch.nn.functional.cross_entropy(logits, torch.as_tensor(rec.chosen[part]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(part)
        sched.step()
        if log is not None and (epoch % 5 == 4 or epoch == epochs - 1):
            model.eval()
            log(f"epoch {epoch + 1}: loss {total / max(1, len(train)):.3f}, agrees with the teacher on "
                f"{_agree(model, rec, held):.1%} of held-out decisions")
    model.eval()
    return Fitted(model, _agree(model, rec, train), _agree(model, rec, held),
                  float(np.mean(rec.script[held] == rec.chosen[held])) if len(held) else float("nan"),
                  len(rec), len(np.unique(rec.fight)), time.perf_counter() - start)


def weights(net) -> dict[str, np.ndarray]:
    """The network's parameters as plain arrays, by their names."""
    return {k: v.detach().cpu().numpy() for k, v in net.state_dict().items()}


def file_meta(net) -> dict[str, object]:
    """What a policy file the training writes says of its network: it chooses its turns (the
    decisions its teacher, search, searches) and its helper script answers the rest (``basic``, as
    search's fallback does, unless the run set ``net.helper``: ``fate-npc learn --helper``); with
    ``net.rehearse``, the other helpers a scene's rehearsal may pick (``agents/rehearsal.py``)."""
    rehearse = getattr(net, "rehearse", None)
    return {"learn": ["turn"], "helper": getattr(net, "helper", "basic"), "width": net.width,
            **({"rehearse": rehearse} if rehearse else {})}


def save(path, net) -> None:
    """Write ``net`` as a ``learned`` policy file (``environment/entity_policy.py``)."""
    from ..environment.entity_policy import write
    write(path, weights(net), file_meta(net))
