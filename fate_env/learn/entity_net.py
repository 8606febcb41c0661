"""One network for every scene (issue 53): it reads a decision as sets (``environment/entities.py``)
and scores each option, so it plays scenes of any size within the view's limits.

Each character, zone and aspect row is embedded by a small MLP of its kind; the sets are pooled
(mean and max over the rows present) with the decision's global row into a context; each option is
embedded from its own row plus the embeddings of the character, zone and aspect it points at and of
the one deciding (row 0), and scored against the context. A value head reads the context. Batches of decisions from different
scenes are padded, with masks, so one forward serves many fights at once.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import torch
from torch import nn

from ..environment.entities import (
    ASPECT_FEATURES, CHARACTER_FEATURES, GLOBAL, OPTION_FEATURES, ZONE_FEATURES, Entities,
)
from ..environment.entity_policy import pad


def _mlp(n_in: int, width: int) -> nn.Module:
    return nn.Sequential(nn.Linear(n_in, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU())


def collate(batch: Sequence[Entities]) -> dict[str, torch.Tensor]:
    """Decisions from any scenes as padded tensors with masks (pointers past a row shift by one:
    index 0 is the empty row a missing pointer reads): the arrays the numpy player pads, as tensors."""
    return {k: torch.from_numpy(v) for k, v in pad(batch).items()}


def _pool(h: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Mean and max over the rows present (zeros for an empty set)."""
    m = mask.unsqueeze(-1).float()
    count = m.sum(1).clamp(min=1.0)
    mean = (h * m).sum(1) / count
    big = torch.where(mask.unsqueeze(-1), h, torch.full_like(h, -1e9)).max(1).values
    big = torch.where(mask.any(1, keepdim=True), big, torch.zeros_like(big))
    return torch.cat([mean, big], -1)


def _gather(h: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """Row ``index`` of each batch's ``h``, index 0 being an empty (zero) row before the others."""
    padded = torch.cat([torch.zeros_like(h[:, :1]), h], 1)
    return torch.gather(padded, 1, index.unsqueeze(-1).expand(-1, -1, h.shape[-1]))


class EntityNet(nn.Module):
    """Option logits and a value for batches of decisions from any scenes."""

    def __init__(self, width: int = 64):
        super().__init__()
        self.width = width
        self.glob = _mlp(GLOBAL, width)
        self.char = _mlp(CHARACTER_FEATURES, width)
        self.zone = _mlp(ZONE_FEATURES, width)
        self.aspect = _mlp(ASPECT_FEATURES, width)
        self.option = _mlp(OPTION_FEATURES, width)
        self.context = _mlp(width * 7, width)
        self.score = nn.Sequential(_mlp(width * 6, width), nn.Linear(width, 1))
        self.value = nn.Sequential(nn.Linear(width, width), nn.ReLU(), nn.Linear(width, 1))

    def forward(self, b: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
        hz = self.zone(b["zones"])
        hc = self.char(b["chars"]) + _gather(hz, b["c_zone"])  # a character is also where it stands
        ha = self.aspect(b["aspects"])
        ctx = self.context(torch.cat([self.glob(b["glob"]), _pool(hc, b["cmask"]), _pool(hz, b["zmask"]),
                                      _pool(ha, b["amask"])], -1))
        ho = self.option(b["options"])
        n = ho.shape[1]
        joined = torch.cat([ho, _gather(hc, b["o_char"]), _gather(hz, b["o_zone"]), _gather(ha, b["o_aspect"]),
                            hc[:, :1].expand(-1, n, -1), ctx.unsqueeze(1).expand(-1, n, -1)], -1)
        logits = self.score(joined).squeeze(-1)
        logits = logits.masked_fill(~b["omask"], float("-inf"))
        return logits, self.value(ctx).squeeze(-1)

    @torch.no_grad()
    def probabilities(self, batch: Sequence[Entities]) -> list[np.ndarray]:
        """Each decision's distribution over its own options (no padding)."""
        logits, _ = self(collate(batch))
        probs = torch.softmax(logits, -1).numpy()
        return [probs[i, :len(e.options)] for i, e in enumerate(batch)]


def net(seed: int = 0, **kwargs: Any) -> EntityNet:
    """A network with weights drawn from ``seed`` (the same on every machine's CPU)."""
    torch.manual_seed(seed)
    return EntityNet(**kwargs)
