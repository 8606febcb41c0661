# noqa: D212, D415
"""
# Fate Conflict (and contests and challenges)

| Import             | `import fate_env; env = fate_env.env(scene="warehouse")`        |
|--------------------|-----------------------------------------------------------------|
| Actions            | Discrete                                                        |
| Parallel API       | No (turns are decision points, not simultaneous moves)          |
| Manual Control     | No (see `fate-npc play`)                                        |
| Agents             | the scene's character ids, e.g. `['cynere', 'zird', ...]`      |
| Action Shape       | (1,)                                                            |
| Action Values      | Discrete(N), N sized from the scene (see Action Space)          |
| Observation Shape  | dict: `observation` (float32 vector), `action_mask` (int8, N)   |
| Observation Values | `observation` in [-10, 10]; `action_mask` in {0, 1}             |

A Fate conflict, contest or challenge (the scene's `kind`) as an AEC game: each turn is one of the rules engine's decision
points, so `agent_selection` is always the character whose decision is pending:
the acting character's action, the target's defend-or-concede, the invoke
rounds after the dice, the "full hit or boost" choice, the costs the rules leave
to the roller, how to absorb a hit, and in popcorn order who acts next; in a
contest, who rolls for the side and with what skill, who supports, who tries an
advantage first, and whether a failed advantage forfeits the roll or pays the
other side a free invoke; in a challenge, which task is taken on next. Dice come
from the seed given to `reset` (or `reset(options={"forced_dice": [(1, 0, 0, -1), ...]})`
to force them, as a GM's physical dice or a golden test); everything else is the
agents' choice.

### Observation Space

A dict with `observation` and `action_mask`. `observation` is ego-centric (the
acting agent is always character slot 0, the others follow in scene order), and
holds what a player at the table can see: the pending decision's kind and context
(effort, opposition and margin during invokes; shifts during absorption), the
exchange, the GM's pool and the agent's fate points; for every character: side,
kind, status, zone, stress boxes free and marked, consequence slots used and free,
the biggest hit it could absorb, fate points, acted this exchange, full defense,
mob members, skills; and an aspect table: each aspect in play with its kind, who
it is on, whether it is in the agent's zone, and who holds free invokes on it.
The exact layout is in `fate_env/environment/observation.py`.

#### Legal Actions Mask

`action_mask` marks exactly the legal options of the pending decision for the
agent who must decide, and is all zeros for every other agent. An action outside
the mask raises `IllegalAction` with the reason and changes nothing.

### Action Space

One `Discrete(N)` for every agent, laid out in fixed segments (ego-relative
character slots): stay, move[Z], attack[C x K], advantage[T x (C+Z+1)],
exploit[A], overcome_move[Z], remove[A], full_defense, support[C], concede, pass,
defend, done, invoke[A x (2+2C)], boost[B x 2], full_hit, boost_hit, no_aspect,
aspect_for_enemy, minor_cost, fail_with_boost, absorb[2^S x (X+1)], taken_out,
next[C], roll_for[C x Kc], no_support, no_advantage, forfeit, pay, task[tasks x C],
fail, major_cost, to_contest. The table and the meaning of each index are in
`fate_env/environment/actions.py`; `env.unwrapped.describe_action(a)` names one.

### Rewards

Set by the scene's `rewards:` field, then the `reward=` argument (a dict), over the
defaults below; given when they happen:

* the conflict ends: `win` (+1) to each character of the winning side still in
  the fight, `loss` (-1) to the others still in;
* a character leaves the fight: `conceded` (-0.5) or `taken_out` (-1); it is then
  terminated (conceding costs less than being taken out, as the rules intend);
* shaping, off by default: `shift_dealt` per shift of a hit the agent dealt,
  `shift_taken` (negative) per shift the agent absorbed;
* an unresolved conflict or contest (the exchange cap) truncates every agent still in, with
  `unresolved` (0 by default; a trainer may set it negative, or a policy learns to stall);
* a challenge has no winner (the GM reads its results): it ends with no reward.

### Version History

* v0: Initial release (0.1.0): conflicts, contests and challenges
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..content.narrate import Narrator, summary
from ..content.scenes import load_scene
from ..rules.conflict import Conflict
from ..rules.scene import Scene
from .actions import ActionLayout, AspectSlots
from .fast_table import fast_table_for
from .observation import ObservationEncoder
from .reference_table import ReferenceTable

DEFAULT_REWARD = {"win": 1.0, "loss": -1.0, "conceded": -0.5, "taken_out": -1.0,
                  "shift_dealt": 0.0, "shift_taken": 0.0, "unresolved": 0.0}


class IllegalAction(ValueError):
    """An action outside the pending decision's mask."""


def reward_config(reward: Mapping[str, float] | None) -> dict[str, float]:
    cfg = dict(DEFAULT_REWARD)
    if reward:
        unknown = sorted(set(reward) - set(DEFAULT_REWARD))
        if unknown:
            raise ValueError(f"reward: unknown key(s) {', '.join(unknown)}; expected some of {', '.join(DEFAULT_REWARD)}")
        cfg.update({k: float(v) for k, v in reward.items()})
    return cfg


def reward_bounds(cfg: Mapping[str, float], scene: Scene, max_shifts: int = 40) -> tuple[float, float]:
    """Loose bounds on one agent's reward in one step (for the fuzz tests)."""
    ends = [cfg["win"], cfg["loss"], cfg["conceded"], cfg["taken_out"], cfg["unresolved"], 0.0]
    shaping = (abs(cfg["shift_dealt"]) + abs(cfg["shift_taken"])) * max_shifts
    return min(ends) - shaping, max(ends) + shaping


def load(scene: str | Scene, rules: str | None, dials: dict[str, Any]) -> Scene:
    if isinstance(scene, Scene):
        if rules or dials:
            raise ValueError("pass rules/dials with a scene name or path, not a built Scene")
        return scene
    return load_scene(scene, rules=rules, dials=dials or None)


class raw_env(AECEnv, EzPickle):
    metadata = {"name": "fate_conflict_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, scene: str | Scene = "duel", render_mode: str | None = None, max_exchanges: int | None = None,
                 reward: Mapping[str, float] | None = None, rules: str | None = None, max_aspects: int | None = None,
                 core: str = "auto", fixed: Any = None, **dials: Any):
        EzPickle.__init__(self, scene, render_mode, max_exchanges, reward, rules, max_aspects, core, fixed, **dials)
        super().__init__()
        if fixed is not None and core == "fast":
            raise ValueError("core='fast' with fixed=Maxima(...): the fast core lays out each scene its own way; "
                             "padded spaces play on the reference engine (core='auto' or 'reference')")
        if max_exchanges is not None:
            dials = {**dials, "max_exchanges": int(max_exchanges)}
        self.scene = load(scene, rules, dials)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: expected one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.reward_cfg = reward_config({**self.scene.rewards, **(reward or {})})
        self.layout = ActionLayout(self.scene, max_aspects=max_aspects, fixed=fixed)
        self.encoder = ObservationEncoder(self.layout)
        self.possible_agents = [c.id for c in self.scene.characters]
        n = self.layout.n
        obs_space = spaces.Dict({
            "observation": spaces.Box(-10.0, 10.0, shape=(self.encoder.size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        #: the episode being played: a table of the fast core or of the reference engine, behind
        #: one interface (reference_table.py); None before the first reset
        self._t: Any = None
        self._reference = ReferenceTable(self.scene, self.layout, self.encoder)
        self._fast = fast_table_for(self.scene, self.layout, self.encoder, "reference" if fixed is not None else core)
        self.core = "fast" if self._fast is not None else "reference"
        self._narrator = Narrator(self.scene)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def use_reference(self) -> None:
        """Play the next episodes on the reference engine (for a caller that steps ``conflict``'s
        decisions itself, with Python controllers)."""
        self._fast = None
        self.core = "reference"

    @property
    def conflict(self) -> Conflict | None:
        """The reference engine's conflict (on the fast core, rebuilt at this point when asked)."""
        return self._t.conflict if self._t is not None else None

    @property
    def slots(self) -> AspectSlots | None:
        """The aspect slots of the episode (which aspect each observation and action slot names)."""
        return self._t.slots if self._t is not None else None

    # -- episode ----------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self.seed_used = seed
        forced = (options or {}).get("forced_dice", ())
        if self._fast is not None and not forced:  # forced dice: the reference rolls them
            self._t = self._fast
            self._early: list = self._t.reset(seed)  # scored with the first step
        else:
            self._t = self._reference
            self._early = self._t.reset(seed, forced)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._last_source: str | None = None
        self._rendered = 0
        self._early += self._handover()
        self._refresh_pending()
        self.agent_selection = self._actor()

    def _handover(self) -> list:
        """An episode that outgrows the kernel's tables goes on on the reference engine, from the
        same point, with the same aspect slots: what its events not yet reported score."""
        if not self._t.bail:
            return []
        self._t = self._t.handover()
        return self._t.unscored()

    def _over(self) -> bool:
        return self._t.over

    def _outcome(self):
        return self._t.outcome()

    def _actor(self) -> str | None:
        return self._t.actor

    def _pending_kind(self) -> str | None:
        return self._t.pending_kind

    def _refresh_pending(self) -> None:
        """A new pending decision: its options are mapped to actions (and the mask built) when
        first asked for, so a seat played by a scripted controller through :meth:`step_option`
        never pays for it."""
        self._enc: tuple[np.ndarray, dict[int, int], list[int]] | None = None

    def _encoding(self) -> tuple[np.ndarray, dict[int, int], list[int]]:
        """(mask, action -> option index, option index -> action) for the pending decision."""
        if self._enc is None:
            mask = np.zeros(self.layout.n, dtype=np.int8)
            encoded = self._t.encode(mask) if self._t.actor is not None else []
            # action -> option index: built when asked (_decode); a step looks its action up in ``encoded``
            self._enc = (mask, None, encoded)
        return self._enc

    @property
    def _mask(self) -> np.ndarray:
        return self._encoding()[0]

    @property
    def _decode(self) -> dict[int, int]:
        mask, decode, encoded = self._encoding()
        if decode is None:
            decode = dict(zip(encoded, range(len(encoded))))
            self._enc = (mask, decode, encoded)
        return decode

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = self._t.observe(agent)
        mask = self._mask.copy() if self._actor() == agent and agent == self.agent_selection \
            else np.zeros(self.layout.n, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        agent = agent or self.agent_selection
        return self._mask.copy() if self._actor() == agent else np.zeros(self.layout.n, dtype=np.int8)

    def pending_actions(self) -> list[int]:
        """The action of each option of the pending decision, in option order."""
        return self._encoding()[2]

    def action_for_option(self, index: int) -> int:
        """The action that picks option ``index`` of the pending decision (for scripted controllers)."""
        return self._encoding()[2][index]

    def describe_action(self, action: int) -> str:
        name, offset = self.layout.segment_of(int(action))
        if self._actor() is not None and int(action) in self._decode:
            from ..rules.options import key
            options = self._t.options
            return f"{name}[{offset}] = {key(options[self._decode[int(action)]])}"
        return f"{name}[{offset}]"

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        mask, decode, encoded = self._encoding()
        if action is not None and 0 <= int(action) < len(mask) and mask[int(action)]:
            self._apply(agent, decode[int(action)] if decode is not None else encoded.index(int(action)))
            return
        legal = [self.describe_action(a) for a in sorted(encoded)][:12]
        raise IllegalAction(f"{agent}: action {action} is not legal for this {self._pending_kind()} decision; "
                            f"legal: {', '.join(legal)}{' ...' if len(encoded) > 12 else ''}")

    def step_option(self, index: int) -> None:
        """Step with the pending decision's option ``index`` (what a scripted controller returns),
        without mapping options to actions: the same step as ``step(action_for_option(index))``."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(None)
            return
        count = self._t.pending_count
        if self._actor() != agent or not 0 <= index < count:
            raise IllegalAction(f"{agent}: option {index} is not one of the pending decision's")
        self._apply(agent, index)

    def _apply(self, agent: str, index: int) -> None:
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        scored = self._t.answer(index)
        if self._early:
            scored, self._early = self._early + scored, []
        for what, who, shifts in scored + self._handover():
            self._score(what, who, shifts)
        over = self._over()
        if over:
            outcome = self._outcome()
            unresolved = outcome.unresolved
            for a in self.agents:
                if not (self.terminations[a] or self.truncations[a]):
                    if unresolved:
                        self.rewards[a] += self.reward_cfg["unresolved"]
                        self.truncations[a] = True
                    else:
                        if outcome.winner is not None:  # a challenge has no winner: its results are the GM's
                            won = self.scene.character(a).side == outcome.winner
                            self.rewards[a] += self.reward_cfg["win" if won else "loss"]
                        self.terminations[a] = True
            summary_json = outcome.to_json()
            for a in self.agents:
                self.infos[a] = {"outcome": summary_json}
        else:
            self._refresh_pending()
        self._accumulate_rewards()
        if over:
            self._enc = (np.zeros(self.layout.n, dtype=np.int8), {}, [])
        dead = [a for a in self.agents if self.terminations[a] or self.truncations[a]]
        if dead:
            self._skip_agent_selection = None if over else self._actor()
            self.agent_selection = dead[0]
        else:
            self.agent_selection = self._actor()
        if self.render_mode == "human":
            self.render()

    def _score(self, kind: str, who: str | None, shifts: int = 0) -> None:
        """One scored event: a hit's source, shifts absorbed, a character leaving the fight."""
        cfg = self.reward_cfg
        if kind == "hit":
            self._last_source = who  # its absorption may come in a later step
        elif kind == "absorbed":
            if who in self.rewards:
                self.rewards[who] += cfg["shift_taken"] * shifts
            if self._last_source in self.rewards:
                self.rewards[self._last_source] += cfg["shift_dealt"] * shifts
        elif kind == "decision":
            return
        elif who in self.terminations and not self.terminations[who]:  # conceded, taken_out
            self.rewards[who] += cfg[kind]
            self.terminations[who] = True

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        if self._t is None:
            return None if self.render_mode == "human" else ""
        events = self._t.events()
        lines = self._narrator.lines(events[self._rendered:])
        self._rendered = len(events)
        if self._over() and lines:
            lines += [""] + summary(self.scene, self._outcome())
        text = "\n".join(lines)
        if self.render_mode == "human":
            if text:
                print(text)
            return None
        return text

    def close(self) -> None:
        pass


def _forwarded(name: str) -> property:
    def get(self):
        if not self._has_reset and name != "_cumulative_rewards":
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)
    return property(get, doc=f"the environment's ``{name}``")


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order enforcing wrapper, with the attributes an AEC loop reads at every step
    (``last()`` reads four, ``agent_iter`` two) forwarded by properties rather than found through
    ``__getattr__``'s fallback (about a microsecond each: a fifth of a warehouse step). The same
    checks: reading them before ``reset`` raises the wrapper's AttributeError."""

    agent_selection = _forwarded("agent_selection")
    agents = _forwarded("agents")
    rewards = _forwarded("rewards")
    terminations = _forwarded("terminations")
    truncations = _forwarded("truncations")
    infos = _forwarded("infos")
    _cumulative_rewards = _forwarded("_cumulative_rewards")


def env(**kwargs: Any) -> AECEnv:
    """The wrapped environment (PettingZoo's order enforcing wrapper)."""
    e = raw_env(**kwargs)
    return OrderEnforcing(e)
