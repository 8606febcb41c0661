"""The learned controllers.

``ppo:PATH``: a saved MaskablePPO model (or its policy-only export) playing as a controller in any
scene with the same maxima. The model sees what the environment would show it (the ego-centric
observation and the mask of the pending decision), so it can sit in any seat. A scene whose
observation or action sizes differ from the model's is refused with both shapes.

``learned`` (``learned:PATH``): the general NPC, one network for every scene within the entity
view's limits (``LearnedController``).
"""

from __future__ import annotations

import functools
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from fate_env.content.digests import scene_digest
from fate_env.content.json_input import JSONInputError, load_json
from fate_env.content.narrate import plural, side_words
from fate_env.content.scene_files import config_dir
from fate_env.rules.conflict import Conflict, Decision
from fate_env.rules.options import Concede

from .registry import make_controller, register
from .rehearsal import Choice, Rehearsal, RehearsalError
from .search import describe


@functools.cache
def _env() -> SimpleNamespace:
    """The environment's layouts, encoders and entity policy, imported the first time a learned
    controller needs them: they load numba and PettingZoo, and the registry imports every
    controller whenever a command starts (``resolve`` on the Python engine needs none of them)."""
    from fate_env.environment import actions, entities, entity_policy, maxima, observation
    return SimpleNamespace(actions=actions, entities=entities, entity_policy=entity_policy, maxima=maxima,
                           observation=observation)


class ShapeMismatch(ValueError):
    """A model whose observation or action sizes are not the scene's."""


_MODELS: dict[tuple[str, float], object] = {}


def _load_model(path: str):
    """Load a saved model once per process (a benchmark makes a controller per episode): a
    policy-only export (fate_env/content/policy_file.py, numpy only) or a trusted full SB3 save, the file
    checked (and a full save hashed) only when it is not loaded yet."""
    from fate_env.content.policy_file import PolicyOnly, check_model_file
    try:
        key = (str(Path(path).resolve()), Path(path).stat().st_mtime)
    except OSError:
        check_model_file(path)  # says what is wrong in one line
        raise
    if key not in _MODELS:
        if check_model_file(path) == "policy":  # a full save only when trusted (policy_file: Trust)
            _MODELS[key] = PolicyOnly(path)
        else:
            try:
                from sb3_contrib import MaskablePPO
            except ImportError:
                raise ValueError(f"ppo:{path}: a full Stable-Baselines3 save needs the train extra: pip install "
                                 "'fate-npc[train]' (or play its policy-only export)") from None
            _MODELS[key] = MaskablePPO.load(path, device="cpu")
    return _MODELS[key]


def _sidecar(meta: Path) -> dict[str, Any]:
    """A model's .json sidecar (what it learned, its action space), or {} when there is none."""
    if not meta.exists():
        return {}
    try:
        info = load_json(meta, "JSON sidecar (the one fate-npc train writes)", limit=1024 * 1024)
    except JSONInputError as exc:
        raise ValueError(str(exc)[:300]) from None
    if not isinstance(info, dict):
        raise ValueError(f"{meta}: expected a JSON mapping (the sidecar fate-npc train writes), got "
                         f"{type(info).__name__}")
    return info


@register("ppo")
class PPOController:
    name = "ppo"

    def __init__(self, seed: int = 0, path: str | None = None):
        if not path:
            raise ValueError("the ppo controller needs a model: ppo:PATH (a .zip saved by fate-npc train)")
        self.path = path
        self.model = _load_model(path)  # missing, a folder, not a model, or an untrusted full save: one line
        self._tables: dict[str, Any] = {}
        # a model trained on some decision kinds only (configs/train/turns.yaml) leaves the rest to a helper
        meta = Path(path).with_suffix(".json")
        info = _sidecar(meta)
        self.learn = tuple(info["learn"]) if info.get("learn") else None
        # "compact": the model's actions are the layout's actions of its decision kinds only
        self.actions = info.get("actions", "full")
        # trained on padded spaces shared by several scenes (fate_env/environment/maxima.py)
        self.fixed = None
        if info.get("fixed"):
            self.fixed = _env().maxima.Maxima.from_json(info["fixed"])
        if self.actions not in ("full", "compact") or (self.actions == "compact" and self.learn is None):
            raise ValueError(f"{meta}: actions {self.actions!r}: expected 'full', or 'compact' with 'learn'")
        self.helper = make_controller(info.get("helper", "basic"), seed)
        # "helper": the policy may give in only where its helper script would (a learned concession
        # is a reflex of states it saw in training; a table it never met can trigger it at will)
        self.concede = info.get("concede", "policy")
        if self.concede not in ("policy", "helper"):
            raise ValueError(f"{meta}: concede {self.concede!r}: expected 'policy' or 'helper'")

    def check_scene(self, scene) -> tuple:
        """The scene's layout and encoder, or :class:`ShapeMismatch` if the model cannot play it
        (callers check this before a run, so a long benchmark never fails at its first episode)."""
        try:
            layout = _env().actions.ActionLayout(scene, fixed=self.fixed)
        except ValueError as exc:  # the scene does not fit the maxima the model was trained on
            raise ShapeMismatch(f"ppo:{self.path}: {exc}") from None
        encoder = _env().observation.ObservationEncoder(layout)
        obs_shape = self.model.observation_space.shape
        n = self.model.action_space.n
        full = np.array(layout.indices_for(self.learn) if self.actions == "compact" else range(layout.n),
                        dtype=np.int64)
        if obs_shape != (encoder.size,) or n != len(full):
            raise ShapeMismatch(
                f"ppo:{self.path} was trained for observations {obs_shape} and {n} actions; scene "
                f"{scene.name!r} has ({encoder.size},) and {len(full)} ({self.actions} actions): train on a scene "
                "with the same maxima")
        return layout, encoder, full

    def _tables_for(self, c: Conflict):
        """The layout, encoder and aspect slots for the scene ``c`` plays, made again for each new
        engine. Kept with the engine itself, not its ``id()``: a finished engine's id can be reused
        by the next one, whose aspects would then land in the old one's slots."""
        if self._tables.get("engine") is not c:
            layout, encoder, full = self.check_scene(c.scene)
            self._tables = {"engine": c, "tables": (layout, encoder, full, _env().actions.AspectSlots(layout.A))}
        return self._tables["tables"]

    def choose(self, c: Conflict, d: Decision) -> tuple[int, str]:
        if self.learn is not None and d.kind not in self.learn:
            return self.helper.choose(c, d)
        layout, encoder, full, slots = self._tables_for(c)
        slots.sync(c)
        boosts = _env().actions.usable_boosts(c, d.options)
        actions = [layout.encode(c, d.actor, o, slots, boosts) for o in d.options]
        if self.actions == "compact":
            actions = np.searchsorted(full, actions).tolist()
        mask = np.zeros(len(full), dtype=bool)
        mask[actions] = True
        obs = encoder.encode(c, d.actor, slots)
        action, _ = self.model.predict(obs, action_masks=mask, deterministic=True)
        index = actions.index(int(action))
        why = "the learned policy's choice"
        if self.concede == "helper" and type(d.options[index]) is Concede:
            h, _ = self.helper.choose(c, d)
            mask[actions[index]] = False  # the policy's next choice, should the helper hold on
            if type(d.options[h]) is not Concede and mask.any():
                action, _ = self.model.predict(obs, action_masks=mask, deterministic=True)
                index = actions.index(int(action))
                why = "the learned policy's choice (it would have conceded; its script would not yet)"
        return index, f"{describe(c, d.actor, d.options[index])}: {why}"


#: the shipped general NPC, where ``learned`` without a path finds it (it travels with the configs)
SHIPPED = "models/learned.zip"
#: the policy files read, the most recently used last; a few at most (self-play reads a new file
#: every iteration, and its past selves besides)
_POLICIES: dict[tuple[str, float], object] = {}
KEPT_FILES = 8
#: each scene's rehearsed line, by (file, its modification time, scene digest, side)
_LINES: dict[tuple, Any] = {}
#: scene digests by the (frozen) scene object, which is kept with it so its id is not reused: a
#: bench plays one scene object fight after fight, and a digest costs 1-2 ms, a short fight 6 ms
_DIGESTS: dict[int, tuple[Any, str]] = {}


def _digest(scene) -> str:
    got = _DIGESTS.get(id(scene))
    if got is None or got[0] is not scene:
        if len(_DIGESTS) >= 64:
            _DIGESTS.clear()
        got = _DIGESTS[id(scene)] = (scene, scene_digest(scene))
    return got[1]


def shipped_path() -> Path:
    return config_dir() / SHIPPED


def _load_policy(path: Path):
    """A learned policy file, read once per process while it is unchanged."""
    try:
        key = (str(path.resolve()), path.stat().st_mtime)
    except OSError:
        return _env().entity_policy.EntityPolicy(path)  # says in one line that it is missing
    policy = _POLICIES.pop(key, None) or _env().entity_policy.EntityPolicy(path)
    _POLICIES[key] = policy
    while len(_POLICIES) > KEPT_FILES:
        del _POLICIES[next(iter(_POLICIES))]
    return policy


@register("learned")
class LearnedController:
    """``learned``: the general NPC, one network for any scene within the entity view's limits
    (``fate_env/environment/entities.py``), played with numpy. It chooses the decisions its file
    says it learned (its turns: the ones ``search``, its teacher, searches), reading the move its
    helper script would make there and learning where to depart from it; the helper answers the
    rest (defenses, invokes, absorbing harm, who goes next). The shipped file's helper is
    ``spender``: ``basic``'s turns, so the move the network reads is the one it was trained on
    (``search``'s fallback), and every free invoke it holds spent on its attacks.
    ``learned:PATH`` plays another policy file."""

    name = "learned"

    def __init__(self, seed: int = 0, path: str | None = None, keep_within: float | None = None):
        self.seed = seed
        self.policy = _load_policy(Path(path) if path else shipped_path())
        meta = self.policy.meta
        self.learn = tuple(meta.get("learn", ("turn",)))
        helper = meta.get("helper", "basic")
        if not isinstance(helper, str) or ":" in helper or helper in ("learned", "search", "random"):
            raise ValueError(f"learned:{self.policy.path}: helper {str(helper)[:40]!r}: expected a scripted "
                             "policy (basic, brute, ...)")
        self.helper = make_controller(helper, seed)
        #: the helpers a scene's rehearsal may choose from (rehearsal.py); the file's own alone when it has none
        try:
            self.rehearsal = Rehearsal.from_meta(meta, f"learned:{self.policy.path}")
        except RehearsalError as exc:
            raise ValueError(str(exc)) from None
        self.lines = self.rehearsal.candidates if self.rehearsal else (helper,)
        #: the lines whose script plays the side without the network (rehearsal.py)
        self.outright = self.rehearsal.outright if self.rehearsal else ()
        self._helpers = {helper: self.helper}
        #: the line every scene plays, set by the rehearsal's own fights (``pin``)
        self.pinned: str | None = None
        #: how far (in the network's scores) another move must beat the helper's to be taken instead
        margin = keep_within if keep_within is not None else meta.get("keep_within", 0.0)
        if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not 0 <= margin < 1e6:
            raise ValueError(f"learned:{self.policy.path}: keep_within {str(margin)[:40]!r}: expected a number, 0 or more")
        self.keep_within = float(margin)
        self._encoder: tuple[Any, Any] = (None, None)
        #: the engine played last and each side's (helper, Choice) in it
        self._line: tuple[Any, dict] = (None, {})

    def pin(self, line: str) -> None:
        """Play ``line`` in every scene, without rehearsing (a rehearsal's own fights)."""
        if line not in self.lines:
            raise ValueError(f"learned:{self.policy.path}: no line {line!r}; its lines are {', '.join(self.lines)}")
        self.pinned = line

    def line_for(self, scene, side: str, spec: str | None = None):
        """The line this file plays for ``side`` in ``scene`` (``rehearsal.Choice``): its helper when it
        has one line, else what the scene's rehearsal kept, rehearsed once per process (the choice is
        the same in every process: fixed dice)."""
        if self.pinned is not None:
            return Choice(self.pinned)
        if self.rehearsal is None:
            return Choice(self.helper.name)
        key = self._line_key(scene, side)
        if key not in _LINES:
            from .rehearsal import rehearse  # looked up when it runs: a test may stand in for it
            _LINES[key] = rehearse(scene, side, spec or f"learned:{self.policy.path}", self.rehearsal)
        return _LINES[key]

    def _line_key(self, scene, side: str) -> tuple:
        try:
            stamp = Path(self.policy.path).stat().st_mtime
        except OSError:
            stamp = None
        return (self.policy.path, stamp, _digest(scene), side)

    def rehearsal_ahead(self, scene, side: str) -> str | None:
        """What a live table says before this file rehearses ``scene`` for ``side``, when it has not yet
        in this process (None: nothing to rehearse, or already rehearsed). On the reference engine a
        rehearsal takes seconds, up to half a minute on a crowded scene: the GM is told why the table
        waits, before it does."""
        if self.rehearsal is None or self.pinned is not None or self._line_key(scene, side) in _LINES:
            return None
        plan = self.rehearsal
        return (f"the learned NPC tries this scene out for {side_words(scene, side)} before it plays: "
                f"{plural(len(plan.candidates), 'way')} of playing, each in up to {plural(len(plan.seeds()), 'practice fight')} "
                f"against scripted PCs")

    def rehearsal_note(self, scene, side: str) -> str | None:
        """What a live table says before this file's first decision for ``side`` in ``scene``: the line
        its rehearsal kept, and the wins that chose it, so a GM sees why the NPCs play as they do (None
        when the file has nothing to rehearse). Rehearses the scene if it was not yet."""
        if self.rehearsal is None or self.pinned is not None:
            return None
        choice = self.line_for(scene, side)

        def named(line: str) -> str:
            return f"the {line} script alone" if line in self.outright else f"its own judgement guided by the {line} script"
        ranked = sorted(choice.wins.items(), key=lambda x: -x[1])
        wins = "; ".join(f"{named(line)} won {won}" for line, won in ranked)
        return (f"the learned NPC rehearsed this scene for {side_words(scene, side)} in "
                f"{plural(choice.fights, 'practice fight')} against scripted PCs, the same dice for each way of "
                f"playing: {wins}. It plays {named(choice.line)}")

    def helper_in(self, c: Conflict, actor: str):
        """The helper script ``actor`` plays beside in ``c`` (its side's line) and the line's
        ``Choice``, kept with the engine (one controller may play seats of several sides)."""
        if self._line[0] is not c:
            self._line = (c, {})
        side = c.side_of(actor)
        kept = self._line[1]
        if side not in kept:
            choice = self.line_for(c.scene, side)
            if choice.line not in self._helpers:
                self._helpers[choice.line] = make_controller(choice.line, self.seed)
            kept[side] = (self._helpers[choice.line], choice)
        return kept[side]

    def check_scene(self, scene) -> None:
        """Refuse, in one line, a scene past the view's limits (before any play)."""
        _env().entities.check(scene)

    def encoder(self, c: Conflict):
        """The scene's encoder, kept with the engine it was made for."""
        if self._encoder[0] is not c:
            self._encoder = (c, _env().entities.EntityEncoder(c.scene))
        return self._encoder[1]

    def decides(self, d: Decision) -> bool:
        """Whether the network may make this decision (the helper makes the rest; on an outright
        line, the script makes them all: ``choose``)."""
        return d.kind in self.learn and len(d.options) > 1

    def scores(self, c: Conflict, d: Decision) -> tuple[np.ndarray, int, Any]:
        """The network's score of each option, the helper's move, and the decision's rows (self-play
        draws from the scores and learns from the rows)."""
        helper, _ = self.helper_in(c, d.actor)
        suggested, _ = helper.choose(c, d)
        rows = self.encoder(c).encode(c, d.actor, suggested)
        return self.policy.logits([rows])[0], suggested, rows

    def choose(self, c: Conflict, d: Decision) -> tuple[int, str]:
        helper, choice = self.helper_in(c, d.actor)
        if not self.decides(d):
            return helper.choose(c, d)
        if choice.line in self.outright:
            index, why = helper.choose(c, d)
            return index, f"{why} (the learned NPC plays the {choice.line} script alone here: its rehearsal's pick)"
        scores, suggested, _ = self.scores(c, d)
        index = int(np.argmax(scores))
        if scores[index] - scores[suggested] < self.keep_within:  # not sure enough to depart from the script
            index = suggested
        why = f"{describe(c, d.actor, d.options[index])}: the learned NPC's choice"
        if choice.wins:  # a line a rehearsal chose
            why += f", guided by the {choice.line} script"
        if index != suggested:
            why += f" (the {helper.name} script would have: {describe(c, d.actor, d.options[suggested])})"
        return index, why
