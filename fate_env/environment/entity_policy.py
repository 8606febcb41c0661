"""The ``learned`` NPC's file: the entity network's weights and what they were trained for, played
with numpy alone (issue 53).

A file is a zip of two members, as ``fate-npc export``'s policy-only files are: ``policy.json`` (the
format, the network's width, the feature sizes it reads, the view's limits, the decision kinds it
learned, the script that answers the rest) and ``policy.npz`` (the weights by the network's own
parameter names, read with ``allow_pickle=False``: arrays, never code). :class:`EntityPolicy`
computes what ``fate_env.learn.entity_net.EntityNet`` computes, so a GM's install plays the learned
NPC without torch; the training side writes the file with :func:`write`.

The forward takes a batch of decisions from any scenes at once (padded, as the torch network's
``collate``), so a bench can score many fights' decisions in one call.
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import asdict
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from . import entities as view
from ..content.policy_file import MAX_POLICY_BYTES, ModelFileError

FORMAT = "fate-npc entity policy 1"
#: the feature sizes a file's network reads: a file made for another view is refused, not misread
FEATURES = {"global": view.GLOBAL, "character": view.CHARACTER_FEATURES, "zone": view.ZONE_FEATURES,
            "aspect": view.ASPECT_FEATURES, "option": view.OPTION_FEATURES}
#: the network's row embedders (``entity_net.EntityNet``): two linear layers, each then ReLU
EMBEDDERS = ("glob", "char", "zone", "aspect", "option", "context")


def write(path: str | Path, weights: Mapping[str, np.ndarray], meta: Mapping[str, Any]) -> None:
    """Write a policy file (atomically: a reader never sees half of one)."""
    from ..content.paths import write_atomically
    arrays = io.BytesIO()
    np.savez(arrays, **{k: np.asarray(v, np.float32) for k, v in weights.items()})
    body = io.BytesIO()
    info = {"format": FORMAT, "features": FEATURES, "limits": asdict(view.LIMITS), **meta}
    with zipfile.ZipFile(body, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in (("policy.json", json.dumps(info, indent=1, sort_keys=True)), ("policy.npz", arrays.getvalue())):
            # a fixed time stamp: the same weights give the same bytes, whenever they are written
            z.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    write_atomically(Path(path), body.getvalue())


def _check_meta(path: str | Path, meta: Any) -> None:
    """A file of another format, or made for other entity rows, is refused before its arrays are read."""
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        got = meta.get("format") if isinstance(meta, dict) else type(meta).__name__
        raise ModelFileError(f"learned:{path}: format {str(got)[:60]!r}; expected {FORMAT!r}")
    if meta.get("features") != FEATURES:
        raise ModelFileError(f"learned:{path}: made for entity rows {str(meta.get('features'))[:80]}; this version "
                             f"reads {FEATURES}: train it again (fate-npc learn)")


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0)


class EntityPolicy:
    """A learned policy file, scoring the options of decisions from any scenes."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        p = Path(path)
        if not p.is_file():
            raise ModelFileError(f"learned:{path}: no such policy file")
        try:
            with zipfile.ZipFile(p) as z:
                if sum(i.file_size for i in z.infolist()) > MAX_POLICY_BYTES:
                    raise ModelFileError(f"learned:{path}: over {MAX_POLICY_BYTES >> 20} MB unpacked; not a policy file")
                meta = json.loads(z.read("policy.json"))
                _check_meta(path, meta)
                arrays = np.load(io.BytesIO(z.read("policy.npz")), allow_pickle=False)
                weights = {k: arrays[k].astype(np.float32) for k in arrays.files}
        except ModelFileError:
            raise
        except Exception as exc:  # noqa: BLE001 - whatever a damaged file makes zipfile, json or numpy raise
            raise ModelFileError(f"learned:{path}: not a learned policy file ({str(exc)[:120]})") from None
        self.meta = meta
        self.w = weights
        try:
            self._check()
        except KeyError as exc:
            raise ModelFileError(f"learned:{path}: weights without {exc}") from None
        self._net = None
        self._memos = None
        #: the score layer's first weights split by what they multiply (option, character, zone,
        #: aspect, ego, context), transposed for ``rows @ block``
        self.blocks = tuple(np.ascontiguousarray(b.T) for b in np.split(self.w["score.0.0.weight"], 6, axis=1))

    def _check(self) -> None:
        for name in EMBEDDERS:
            self.w[f"{name}.0.weight"], self.w[f"{name}.2.weight"]
        self.w["score.0.0.weight"], self.w["score.0.2.weight"], self.w["score.1.weight"]
        joined, width = self.w["score.0.0.weight"].shape[1], self.w["score.0.2.weight"].shape[1]
        if joined != 6 * width:
            raise ModelFileError(f"learned:{self.path}: a score layer reading {joined} columns; a network of width "
                                 f"{width} joins {6 * width}")

    @property
    def net(self):
        """The weights as the compiled forward takes them (``entity_forward.Net``)."""
        if self._net is None:
            from ..fast.entity_forward import net_of
            self._net = net_of(self.w)
        return self._net

    # -- the forward, as entity_net.EntityNet's ------------------------------------------------------
    def _mlp(self, name: str, x: np.ndarray) -> np.ndarray:
        w = self.w
        x = _relu(x @ w[f"{name}.0.weight"].T + w[f"{name}.0.bias"])
        return _relu(x @ w[f"{name}.2.weight"].T + w[f"{name}.2.bias"])

    def logits(self, batch: Sequence[view.Entities]) -> list[np.ndarray]:
        """Each decision's option scores (its own options, in their order): compiled, decision by
        decision, where numba is installed (the fast path's own forward: a decision scores the same
        whichever engine plays it), else numpy's over the padded batch."""
        from ..fast.core import available
        if available():
            return [self.scores(e) for e in batch]
        with _one_blas_thread():
            return self._logits(batch)

    def scores(self, e: view.Entities) -> np.ndarray:
        """One decision's option scores with the compiled forward (``entity_forward.scores``; the rows
        it has seen kept in this file's memos)."""
        from ..fast.bundles import Rows
        from ..fast.entity_forward import memos, scores
        if self._memos is None:
            self._memos = memos(self.net)
        out = np.zeros(len(e.options), np.float32)
        rows = Rows(e.glob, e.characters, e.char_zone, e.zones, e.aspects, e.aspect_owner, e.aspect_zone, e.options,
                    e.option_char, e.option_zone, e.option_aspect, e.aspect_owner)
        scores(self.net, rows, len(e.characters), len(e.zones), len(e.aspects), len(e.options), out, self._memos)
        return out

    def _logits(self, batch: Sequence[view.Entities]) -> list[np.ndarray]:
        b = pad(batch)
        hz = self._mlp("zone", b["zones"])
        hc = self._mlp("char", b["chars"]) + _gather(hz, b["c_zone"])
        ha = self._mlp("aspect", b["aspects"])
        ctx = self._mlp("context", np.concatenate([self._mlp("glob", b["glob"]), _pool(hc, b["cmask"]),
                                                   _pool(hz, b["zmask"]), _pool(ha, b["amask"])], -1))
        ho = self._mlp("option", b["options"])
        # The score layer's first product, block by block (the network joins, for each option, its
        # own row, the rows it points at, the ego's and the context, then multiplies): a character's,
        # a zone's or an aspect's part is computed once per row and gathered for the options that
        # point at it, not once per option: one block's product per option instead of six, the same sum in
        # another order.
        o, c, z, a, ego, x = self.blocks
        first = (ho @ o + _gather(hc @ c, b["o_char"]) + _gather(hz @ z, b["o_zone"]) + _gather(ha @ a, b["o_aspect"])
                 + (hc[:, 0] @ ego + ctx @ x + self.w["score.0.0.bias"])[:, None, :])
        w = self.w
        h = _relu(_relu(first) @ w["score.0.2.weight"].T + w["score.0.2.bias"])
        scores = (h @ w["score.1.weight"].T + w["score.1.bias"])[..., 0]
        return [scores[i, :len(e.options)] for i, e in enumerate(batch)]

    def best(self, batch: Sequence[view.Entities]) -> list[int]:
        """Each decision's highest-scored option (the first of equals)."""
        return [int(np.argmax(s)) for s in self.logits(batch)]


_BLAS: list[Any] = []


def _one_blas_thread():
    """The products here are small: BLAS's threads only wait on each other, and on a machine whose
    cores are busy (a bench's other workers) a decision took 15 times as long with them (measured:
    16 ms against 1 ms). threadpoolctl limits them for the call (8 µs)."""
    if not _BLAS:
        from threadpoolctl import ThreadpoolController
        _BLAS.append(ThreadpoolController())
    return _BLAS[0].limit(limits=1, user_api="blas")


def pad(batch: Sequence[view.Entities]) -> dict[str, np.ndarray]:
    """The batch as padded arrays with masks; a pointer shifts by one (0: the empty row)."""
    def rows(key: str, width: int) -> tuple[np.ndarray, np.ndarray]:
        got = [getattr(e, key) for e in batch]
        n = max(1, max(len(r) for r in got))
        out = np.zeros((len(got), n, width), np.float32)
        mask = np.zeros((len(got), n), bool)
        for i, r in enumerate(got):
            out[i, :len(r)] = r
            mask[i, :len(r)] = True
        return out, mask

    def pointers(key: str) -> np.ndarray:
        got = [getattr(e, key) for e in batch]
        out = np.zeros((len(got), max(1, max(len(r) for r in got))), np.int64)
        for i, r in enumerate(got):
            out[i, :len(r)] = r + 1
        return out
    chars, cmask = rows("characters", view.CHARACTER_FEATURES)
    zones, zmask = rows("zones", view.ZONE_FEATURES)
    aspects, amask = rows("aspects", view.ASPECT_FEATURES)
    options, omask = rows("options", view.OPTION_FEATURES)
    return {"glob": np.stack([e.glob for e in batch]).astype(np.float32), "chars": chars, "cmask": cmask,
            "zones": zones, "zmask": zmask, "aspects": aspects, "amask": amask, "options": options, "omask": omask,
            "o_char": pointers("option_char"), "o_zone": pointers("option_zone"),
            "o_aspect": pointers("option_aspect"), "c_zone": pointers("char_zone")}


def _pool(h: np.ndarray, mask: np.ndarray) -> np.ndarray:
    m = mask[..., None].astype(np.float32)
    mean = (h * m).sum(1) / np.maximum(m.sum(1), 1.0)
    big = np.where(mask[..., None], h, -1e9).max(1)
    big = np.where(mask.any(1, keepdims=True), big, 0.0)
    return np.concatenate([mean, big], -1).astype(np.float32)


def _gather(h: np.ndarray, index: np.ndarray) -> np.ndarray:
    padded = np.concatenate([np.zeros_like(h[:, :1]), h], 1)
    return np.take_along_axis(padded, index[..., None], 1)
