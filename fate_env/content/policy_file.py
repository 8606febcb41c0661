"""Policy-only model files: what a shipped NPC needs to play, and nothing else.

A model saved by ``fate-npc train`` holds the policy, the value network, the optimizer's state
and SB3's bookkeeping (25 MB for the warehouse's full head), and needs torch and SB3 to load.
To *play* it needs only the policy network: the observation through the MLP of the policy's
side, then the action layer, the illegal actions masked off, the best one taken (what
``MaskablePPO.predict(..., deterministic=True)`` does). ``fate-npc export`` writes that as a
zip holding ``policy.json`` (the shapes and the activation) and ``policy.npz`` (the weights), and
:class:`PolicyOnly` plays it with numpy alone, so a GM's install needs no torch for the
shipped NPCs.

**Trust.** A full SB3 save is a pickle: loading one runs whatever code its author put in it. So
``ppo:PATH`` plays a policy-only file always, and a full save only when it is trusted: one that
``fate-npc train`` (or a league, or ``exploit``) wrote on this machine (its SHA-256 is recorded in
``$XDG_DATA_HOME/fate-npc/trusted_models.json`` when it is written, and a file edited since no longer
matches), or any full save while ``FATE_NPC_TRUST_MODELS=1`` is set (the ``--trust-models`` flag).
Any other full save is refused in one line naming ``fate-npc export``, which turns a save into a
policy-only file **without running any of it**: it reads the weights from ``policy.pth`` with torch's
weights-only loader (plain tensors, no code) and the network's shape from ``data``'s plain JSON,
never unpickling the save. Only a save whose network settings are themselves pickled (a custom
activation) needs more, and ``export`` then loads it whole only under ``--trust-models``.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import re
import warnings
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces

from .safe_text import OneLineError

FORMAT = "fate-npc policy-only 1"
#: set to 1 to load full SB3 saves from anywhere (``--trust-models``): they run code when loaded
TRUST_ENV = "FATE_NPC_TRUST_MODELS"
#: the largest policy-only file read (the warehouse's full head is ~2 MB)
MAX_POLICY_BYTES = 256 * 1024 * 1024


class ModelFileError(OneLineError):
    """A ``ppo:`` model file that cannot be played: missing, malformed, or an untrusted full save."""


def _trust_store() -> Path:
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "fate-npc"
    return base / "trusted_models.json"


def _sha256(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _trusted_digests() -> set[str]:
    try:
        data = json.loads(_trust_store().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    return {d for d in data if isinstance(d, str)} if isinstance(data, list) else set()


def trust(path: str | Path) -> None:
    """Record a full save this machine's training just wrote as trusted (by its SHA-256)."""
    from .paths import write_atomically
    store = _trust_store()
    store.parent.mkdir(parents=True, exist_ok=True)
    digests = _trusted_digests() | {_sha256(path)}
    write_atomically(store, json.dumps(sorted(digests)))


def trusted(path: str | Path) -> bool:
    """Whether a full SB3 save may be loaded: ``FATE_NPC_TRUST_MODELS=1``, or written by our training."""
    return os.environ.get(TRUST_ENV) == "1" or _sha256(path) in _trusted_digests()


def check_model_file(path: str | Path, require_trust: bool = True) -> str:
    """What ``path`` is, ``"policy"`` (a policy-only export) or ``"sb3"`` (a trusted full save), or
    :class:`ModelFileError` in one line saying what is wrong with it and what to do. ``export`` is
    the one caller that asks no trust: converting a save is the user's own explicit act."""
    p = Path(path)
    if not p.exists():
        raise ModelFileError(f"ppo:{path}: no such model file")
    if not p.is_file():
        raise ModelFileError(f"ppo:{path}: is a folder; expected a .zip model file (fate-npc train or export)")
    try:
        with zipfile.ZipFile(p) as z:
            names = set(z.namelist())
    except (zipfile.BadZipFile, OSError) as exc:
        raise ModelFileError(f"ppo:{path}: not a zip file ({exc}); expected a model saved by fate-npc "
                             "train or export") from None
    if "policy.json" in names:
        if "policy.npz" not in names:
            raise ModelFileError(f"ppo:{path}: a policy-only file without its weights (policy.npz)")
        return "policy"
    if "data" not in names or "policy.pth" not in names:
        raise ModelFileError(f"ppo:{path}: a zip without model data (expected policy.json and policy.npz, "
                             "or a Stable-Baselines3 save's data and policy.pth)")
    if require_trust and not trusted(p):
        raise ModelFileError(
            f"ppo:{path}: a full Stable-Baselines3 save not written by training on this machine; loading "
            "one runs any code its author put in it. fate-npc export "
            f"{path} OUT.zip reads its weights without running any of it (a policy-only file: arrays, no code); "
            "or, only if you trust its author, pass --trust-models")
    return "sb3"
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
        try:
            with zipfile.ZipFile(path) as z:
                if sum(i.file_size for i in z.infolist()) > MAX_POLICY_BYTES:
                    raise ModelFileError(f"{path}: over {MAX_POLICY_BYTES >> 20} MB unpacked; not a policy-only file")
                meta = json.loads(z.read("policy.json"))
                if not isinstance(meta, dict) or meta.get("format") != FORMAT:
                    got = meta.get("format") if isinstance(meta, dict) else type(meta).__name__
                    raise ModelFileError(f"{path}: format {str(got)[:60]!r}; expected {FORMAT!r}")
                # allow_pickle=False: the weights are plain arrays, never objects
                arrays = np.load(io.BytesIO(z.read("policy.npz")), allow_pickle=False)
                self.layers = [(arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(int(meta["hidden_layers"]))]
                self.action = (arrays["w_action"], arrays["b_action"])
        except ModelFileError:
            raise
        except Exception as exc:  # noqa: BLE001 - whatever the damaged file makes numpy or zipfile raise
            raise ModelFileError(f"{path}: a malformed policy-only file ({str(exc)[:120]})") from None
        if meta.get("activation") not in _ACTIVATIONS:
            raise ModelFileError(f"{path}: activation {str(meta.get('activation'))[:40]!r}; expected one of "
                                 f"{', '.join(_ACTIVATIONS)}")
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


#: SB3's key for the policy's hidden layers and its action layer, in ``policy.pth``
_HIDDEN = re.compile(r"mlp_extractor\.policy_net\.(\d+)\.(weight|bias)")
#: how an activation is named in a save's plain ``policy_kwargs`` (SB3 writes a class as its repr)
_ACTIVATION_NAME = re.compile(r"(Tanh|ReLU)'?>?$")


def read_weights(model_path: str | Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The policy's arrays and shape from a full SB3 save, without running anything in it: the
    tensors through ``torch.load(weights_only=True)`` (a loader that refuses any object but plain
    tensors), the activation from ``data``'s JSON. ValueError (one line) for what it cannot read,
    including a save whose policy settings are pickled (:class:`NeedsTrust`)."""
    import torch
    try:
        with zipfile.ZipFile(model_path) as z:
            if sum(i.file_size for i in z.infolist()) > MAX_POLICY_BYTES * 4:
                raise ValueError(f"{model_path}: over {MAX_POLICY_BYTES * 4 >> 20} MB unpacked; not a model to export")
            data = json.loads(z.read("data"))
            with warnings.catch_warnings():  # torch warns of pickle protocols on its way to refusing
                warnings.simplefilter("ignore")
                state = torch.load(io.BytesIO(z.read("policy.pth")), map_location="cpu", weights_only=True)
    except ValueError:
        raise
    except pickle.UnpicklingError:
        raise ValueError(f"{model_path}: not a readable Stable-Baselines3 save (its policy.pth holds objects, not "
                         "only tensors: refused unread, since loading them would run code)") from None
    except Exception as exc:  # noqa: BLE001 - whatever a damaged or hostile zip makes zipfile, json or torch raise
        raise ValueError(f"{model_path}: not a readable Stable-Baselines3 save ({type(exc).__name__}: "
                         f"{str(exc).splitlines()[0][:160] if str(exc) else 'no detail'})") from None
    if not isinstance(data, dict) or not isinstance(state, dict):
        raise ValueError(f"{model_path}: not a Stable-Baselines3 save (its data or policy.pth has another shape)")
    activation = _activation(data.get("policy_kwargs", {}), model_path)
    hidden = sorted({int(m.group(1)) for k in state if (m := _HIDDEN.fullmatch(k))})
    try:
        arrays = {}
        for i, index in enumerate(hidden):
            arrays[f"w{i}"] = state[f"mlp_extractor.policy_net.{index}.weight"].numpy().T.astype(np.float32)
            arrays[f"b{i}"] = state[f"mlp_extractor.policy_net.{index}.bias"].numpy().astype(np.float32)
        arrays["w_action"] = state["action_net.weight"].numpy().T.astype(np.float32)
        arrays["b_action"] = state["action_net.bias"].numpy().astype(np.float32)
    except (KeyError, AttributeError) as exc:
        raise ValueError(f"{model_path}: policy.pth lacks the policy's layers ({str(exc)[:80]}); not a "
                         "MaskablePPO MLP policy") from None
    weights = [arrays[f"w{i}"] for i in range(len(hidden))] + [arrays["w_action"]]
    biases = [arrays[f"b{i}"] for i in range(len(hidden))] + [arrays["b_action"]]
    if any(w.ndim != 2 or b.shape != (w.shape[1],) for w, b in zip(weights, biases)) or any(
            after.shape[0] != before.shape[1] for before, after in zip(weights, weights[1:])):
        raise ValueError(f"{model_path}: its layers do not chain (shapes {[w.shape for w in weights]})")
    observations = arrays["w0"].shape[0] if hidden else arrays["w_action"].shape[0]
    meta = {"format": FORMAT, "hidden_layers": len(hidden), "activation": activation,
            "observations": int(observations), "actions": int(arrays["w_action"].shape[1]),
            "from": Path(model_path).name}
    return arrays, meta


class NeedsTrust(ValueError):
    """A save whose policy settings are pickled: reading them would run its code."""


def _activation(kwargs: Any, model_path: str | Path) -> str:
    """The activation named in a save's ``policy_kwargs`` (SB3's default, Tanh, when it names none)."""
    if not isinstance(kwargs, dict):
        raise ValueError(f"{model_path}: policy_kwargs is not a mapping")
    if ":serialized:" in kwargs and "activation_fn" not in kwargs:
        raise NeedsTrust(f"{model_path}: its policy settings are pickled (reading them runs code)")
    named = kwargs.get("activation_fn")
    if named is None:
        return "Tanh"
    m = _ACTIVATION_NAME.search(str(named))
    if m is None:
        raise ValueError(f"{model_path}: activation {str(named)[:60]!r}; the export plays "
                         f"{', '.join(_ACTIVATIONS)} only")
    return m.group(1)


def _read_trusted(model_path: str | Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The same arrays through SB3's own loader, which unpickles the save (``--trust-models`` only)."""
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
    return arrays, meta


def export(model_path: str | Path, out: str | Path) -> dict[str, Any]:
    """Write the policy of a saved MaskablePPO model as a policy-only file (and copy its sidecar),
    reading the save without running it (:func:`read_weights`); a save whose settings are pickled is
    loaded whole only when trusted (``--trust-models``), else refused in one line."""
    try:
        arrays, meta = read_weights(model_path)
    except NeedsTrust as exc:
        if os.environ.get(TRUST_ENV) != "1":
            raise ValueError(f"{exc}; export it with --trust-models only if you trust its author") from None
        arrays, meta = _read_trusted(model_path)
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    from .paths import atomic_open, write_atomically
    out = Path(out)
    with atomic_open(out, "wb") as fh, zipfile.ZipFile(fh, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("policy.json", json.dumps(meta, indent=1))
        z.writestr("policy.npz", buf.getvalue())
    card = Path(model_path).with_suffix(".json")
    if card.exists():
        write_atomically(out.with_suffix(".json"), card.read_text())
    return {**meta, "bytes": out.stat().st_size, "model": str(out)}
