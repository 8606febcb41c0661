"""Fate 3.0's block against a foe's kind of action (``rules/actions/block.py``, 002:47): the options, the
block's roll, and the roll a blocked action must win by a shift before it goes ahead.
"""

from __future__ import annotations

from ..jit import njit
from .events import _emit
from .invokes import _settle
from .layout import (
    ACT_OVERCOME, ACTIVE, BAIL_NONE, BK_MOVE, C_BLKBY, C_BLKSTR, C_STATUS, C_ZONE, E_BLOCKING, E_BLOCKTESTED, G_BAIL,
    NEG, P_TRACK, S_SIDE, WHY_PASSIVE_BLOCK, WHY_PASSIVE_PAST,
)
from .mirror import mirrors
from .protect import _block_roll, _blocking_skill
from .rolls import _roll_action


@mirrors("fate_env.rules.actions.block.offer")
@njit(cache=True, _nrt=False)
def _nth_block(SC, CH, P, actor, n):
    """The n-th (foe, kind) ``actor`` may block: each foe still in (in its zone unless the conflict is mental),
    in the scene's order, each kind of action not yet blocked this exchange; with n NEG, (how many, 0)."""
    q = 0
    for t in range(SC.shape[0]):
        if CH[t, C_STATUS] != ACTIVE or SC[t, S_SIDE] == SC[actor, S_SIDE]:
            continue
        if P[P_TRACK] == 0 and CH[t, C_ZONE] != CH[actor, C_ZONE]:
            continue
        for kind in range(3):
            if CH[t, C_BLKBY + kind] != 0:
                continue
            if q == n:
                return t, kind
            q += 1
    return (q, 0) if n == NEG else (NEG, NEG)


@mirrors("fate_env.rules.actions.block.run")
@njit(cache=True, _nrt=False)
def _block(T, W, B, EV, actor, target, kind):
    """block.run: the blocking skill (Will in a mental conflict; against moving, the better of Fight and
    Athletics, else of Athletics and Fight) rolled as the block strength that ``target``'s ``kind`` of action
    must beat this exchange (E_BLOCKING)."""
    CH, G = W.CH, W.G
    strength = _block_roll(T, W, B, EV, actor, _blocking_skill(T.SK, T.P, actor, kind == BK_MOVE), target,
                           target * 3 + kind, WHY_PASSIVE_BLOCK)
    if G[G_BAIL] != BAIL_NONE:
        return
    CH[target, C_BLKBY + kind] = actor + 1
    CH[target, C_BLKSTR + kind] = strength
    _emit(EV, G, E_BLOCKING, (actor, target, kind, strength, 0, 0, 0, 0, 0, 0, 0))


@mirrors("fate_env.rules.actions.block.get_past")
@njit(cache=True, _nrt=False)
def _get_past(T, W, B, EV, actor, kind, skill):
    """Whether ``actor``'s action of ``kind``, tried with ``skill``, gets past a block on it (True when none
    stands, or its blocker has left): the action's skill against the block strength, past with a shift."""
    CH, G = W.CH, W.G
    by = CH[actor, C_BLKBY + kind] - 1
    if by == NEG or CH[by, C_STATUS] != ACTIVE:
        return True
    _roll_action(T, W, B, EV, actor, ACT_OVERCOME, skill, by, NEG, 0, (CH[actor, C_BLKSTR + kind], by, WHY_PASSIVE_PAST))
    if G[G_BAIL] != BAIL_NONE:
        return False
    m = _settle(T, W, B, EV, False, False, ACT_OVERCOME, by)
    if G[G_BAIL] != BAIL_NONE:
        return False
    _emit(EV, G, E_BLOCKTESTED, (actor, by, kind, 1 if m >= 1 else 0, 0, 0, 0, 0, 0, 0, 0))
    return m >= 1
