"""Behaviour cloning: start a MaskablePPO policy from a scripted teacher's play.

A side that almost always loses (the warehouse's smugglers win a few fights in
a hundred with scripted play) gives PPO nearly no wins to learn from when it
starts from a uniform policy. Cloning a scripted controller first starts the
learner where the script is, so PPO's search begins from fights that are
sometimes won. The value head is fitted to the discounted returns of the same
episodes, so the first PPO updates do not undo the cloned policy with a value
function that knows nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Demonstrations:
    """The teacher's decisions as the learner would have seen them."""

    obs: np.ndarray       # (N, obs_size) float32
    masks: np.ndarray     # (N, n_actions) bool
    actions: np.ndarray   # (N,) int64
    returns: np.ndarray   # (N,) float32, discounted return from each decision on
    wins: int
    episodes: int


def record(env, teacher, episodes: int, seed: int, gamma: float) -> Demonstrations:
    """Play ``episodes`` fights on ``env`` (a FateSingleAgentEnv) with ``teacher`` choosing the learner's
    decisions; the env's helper and opponents make the rest, exactly as in training."""
    obs, masks, actions, returns = [], [], [], []
    wins = 0
    for i in range(episodes):
        o, _ = env.reset(seed=seed + i)
        rewards: list[float] = []
        done = env.over
        while not done:
            c = env.conflict
            index, _ = teacher.choose(c, c.pending)
            a = env.action_for_option(index)
            obs.append(o)
            masks.append(env.action_masks())
            actions.append(a)
            o, r, term, trunc, _ = env.step(a)
            rewards.append(r)
            done = term or trunc
        g, backwards = 0.0, []
        for r in reversed(rewards):
            g = r + gamma * g
            backwards.append(g)
        returns.extend(reversed(backwards))
        wins += env.episode_outcome.winner == env.side
    return Demonstrations(np.asarray(obs, dtype=np.float32), np.asarray(masks, dtype=bool),
                          np.asarray(actions, dtype=np.int64), np.asarray(returns, dtype=np.float32),
                          wins, episodes)


def clone(model, demos: Demonstrations, epochs: int, batch_size: int = 256, seed: int = 0) -> dict[str, float]:
    """Fit ``model.policy`` to the demonstrations: masked cross-entropy on the actions plus the value
    head's squared error on the returns. Returns the final accuracy and losses."""
    import torch as th

    policy = model.policy
    policy.set_training_mode(True)
    rng = np.random.default_rng(seed)
    n = len(demos.actions)
    obs = th.as_tensor(demos.obs)
    masks = th.as_tensor(demos.masks)
    actions = th.as_tensor(demos.actions)
    returns = th.as_tensor(demos.returns)
    for _ in range(epochs):
        for batch in np.array_split(rng.permutation(n), max(1, n // batch_size)):
            values, log_prob, _ = policy.evaluate_actions(obs[batch], actions[batch], action_masks=masks[batch])
            loss = -log_prob.mean() + 0.5 * th.nn.functional.mse_loss(values.flatten(), returns[batch])
            policy.optimizer.zero_grad()
            loss.backward()
            policy.optimizer.step()
    policy.set_training_mode(False)
    with th.no_grad():
        values, log_prob, _ = policy.evaluate_actions(obs, actions, action_masks=masks)
        dist = policy.get_distribution(obs, action_masks=demos.masks)
        agree = (dist.get_actions(deterministic=True) == actions).float().mean().item()
    return {"samples": n, "accuracy": agree, "nll": float(-log_prob.mean()),
            "value_mse": float(th.nn.functional.mse_loss(values.flatten(), returns))}
