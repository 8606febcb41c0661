"""Policy-only model files: what a shipped NPC needs to play, and nothing else.

A model saved by ``fate-npc train`` holds the policy, the value network, the optimizer's state
and SB3's bookkeeping (25 MB for the warehouse's full head), and needs torch and SB3 to load.
To *play* it needs only the policy network: the observation through the MLP of the policy's
side, then the action layer, the illegal actions masked off, the best one taken (what
``MaskablePPO.predict(..., deterministic=True)`` does). ``fate-npc export`` writes that as a
zip holding ``policy.json`` (the shapes and the activation) and ``policy.npz`` (the weights), and
:class:`PolicyOnly` plays it with numpy alone, so a GM's install needs no torch for the
shipped NPCs. The ``ppo:PATH`` controller loads either kind.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces

FORMAT = "fate-npc policy-only 1"
_ACTIVATIONS = {"Tanh": np.tanh, "ReLU": lambda x: np.maximum(x, 0.0)}


def is_policy_only(path: str | Path) -> bool:
    """Whether ``path`` is a policy-only export (rather than an SB3 save)."""
    try:
        with zipfile.ZipFile(path) as z:
            return "policy.json" in z.namelist()
    except (zipfile.BadZipFile, OSError):
        return False


class PolicyOnly:
    """A policy-only export, playing as ``MaskablePPO.predict`` does with ``deterministic=True``."""

    def __init__(self, path: str | Path):
        with zipfile.ZipFile(path) as z:
            meta = json.loads(z.read("policy.json"))
            if meta.get("format") != FORMAT:
                raise ValueError(f"{path}: format {meta.get('format')!r}; expected {FORMAT!r}")
            arrays = np.load(io.BytesIO(z.read("policy.npz")))
            self.layers = [(arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(int(meta["hidden_layers"]))]
            self.action = (arrays["w_action"], arrays["b_action"])
        if meta["activation"] not in _ACTIVATIONS:
            raise ValueError(f"{path}: activation {meta['activation']!r}; expected one of {', '.join(_ACTIVATIONS)}")
        self.activation = _ACTIVATIONS[meta["activation"]]
        self.meta = meta
        self.observation_space = spaces.Box(-10.0, 10.0, shape=(int(meta["observations"]),), dtype=np.float32)
        self.action_space = spaces.Discrete(int(meta["actions"]))

    def logits(self, obs: np.ndarray) -> np.ndarray:
        x = np.asarray(obs, dtype=np.float32)
        for w, b in self.layers:
            x = self.activation(x @ w + b)
        w, b = self.action
        return x @ w + b

    def predict(self, obs: np.ndarray, action_masks: np.ndarray | None = None, deterministic: bool = True,
                **_: Any) -> tuple[np.ndarray, None]:
        if not deterministic:
            raise ValueError("a policy-only export plays its best action only (deterministic=True)")
        logits = self.logits(obs)
        if action_masks is not None:
            logits = np.where(np.asarray(action_masks, dtype=bool), logits, -np.inf)
        return np.asarray(np.argmax(logits, axis=-1)), None


def export(model_path: str | Path, out: str | Path) -> dict[str, Any]:
    """Write the policy of a saved MaskablePPO model as a policy-only file (and copy its sidecar)."""
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(str(model_path), device="cpu")
    policy = model.policy
    linears = [m for m in policy.mlp_extractor.policy_net if hasattr(m, "weight")]
    activations = {type(m).__name__ for m in policy.mlp_extractor.policy_net if not hasattr(m, "weight")}
    if len(activations) > 1 or (activations and next(iter(activations)) not in _ACTIVATIONS):
        raise ValueError(f"{model_path}: activations {sorted(activations)}; the export plays "
                         f"{', '.join(_ACTIVATIONS)} only")
    if not isinstance(policy.observation_space, spaces.Box) or len(policy.observation_space.shape) != 1:
        raise ValueError(f"{model_path}: observations {policy.observation_space}; expected a flat Box")
    arrays: dict[str, np.ndarray] = {}
    for i, lin in enumerate(linears):
        arrays[f"w{i}"] = lin.weight.detach().numpy().T.astype(np.float32)
        arrays[f"b{i}"] = lin.bias.detach().numpy().astype(np.float32)
    arrays["w_action"] = policy.action_net.weight.detach().numpy().T.astype(np.float32)
    arrays["b_action"] = policy.action_net.bias.detach().numpy().astype(np.float32)
    meta = {"format": FORMAT, "hidden_layers": len(linears),
            "activation": next(iter(activations)) if activations else "Tanh",
            "observations": int(policy.observation_space.shape[0]), "actions": int(policy.action_space.n),
            "from": Path(model_path).name}
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    out = Path(out)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("policy.json", json.dumps(meta, indent=1))
        z.writestr("policy.npz", buf.getvalue())
    card = Path(model_path).with_suffix(".json")
    if card.exists():
        out.with_suffix(".json").write_text(card.read_text())
    return {**meta, "bytes": out.stat().st_size, "model": str(out)}
