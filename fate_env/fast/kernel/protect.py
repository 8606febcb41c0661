"""Fate 3.0's block protecting an ally (``rules/actions/protect.py``, 002:44-46): the options, the blocker's
roll (its block strength, raised by its own invokes alone), and the floor it puts under the ally's defense
against an attack for the rest of the exchange.
"""

from __future__ import annotations

from ..jit import njit
from .events import _emit
from .invokes import _invoke_rounds
from .layout import (
    ACT_BLOCK, ACTIVE, BAIL_NONE, C_PROTBY, C_PROTSTR, C_STATUS, C_ZONE, E_BLOCKHELD, E_PROTECTING, G_BAIL, NEG,
    P_ATHLETICS, P_FIGHT, P_TRACK, P_WILL, R_ALONE, R_BASE, R_BONUS, R_FACES, R_HASFLOOR, R_OBASE, R_OFACES, R_OFLOOR,
    S_SIDE, WHY_PASSIVE_PROTECT,
)
from .mirror import mirrors
from .rolls import _roll_action


@mirrors("fate_env.rules.actions.protect.offer")
@njit(cache=True, _nrt=False)
def _nth_protect(SC, CH, P, actor, n):
    """The n-th ally ``actor`` may block for (an ally still in, not yet protected this exchange, in its zone
    unless the conflict is mental), in the scene's order; with n NEG, how many there are."""
    q = 0
    for a in range(SC.shape[0]):
        if a == actor or CH[a, C_STATUS] != ACTIVE or SC[a, S_SIDE] != SC[actor, S_SIDE] or CH[a, C_PROTBY] != 0:
            continue
        if P[P_TRACK] == 0 and CH[a, C_ZONE] != CH[actor, C_ZONE]:
            continue
        if q == n:
            return a
        q += 1
    return q if n == NEG else NEG


@mirrors("fate_env.rules.actions.protect.run", "fate_env.rules.actions.block.run")
@njit(cache=True, _nrt=False, inline="always")
def _blocking_skill(SK, P, actor, moving):
    """The skill a Fate 3.0 block is rolled with (best_skill with no stunt for "block", so the first of the
    best ratings): Will in a mental conflict; against moving, skills.BLOCK_SKILLS (Fight, Athletics); else
    DEFEND_SKILLS["melee"] (Athletics, Fight)."""
    a, f = P[P_ATHLETICS], P[P_FIGHT]
    if P[P_TRACK] != 0:
        return P[P_WILL]
    if moving:
        return f if SK[actor, f] >= SK[actor, a] else a
    return a if SK[actor, a] >= SK[actor, f] else f


@mirrors("fate_env.rules.actions.protect.run", "fate_env.rules.actions.block.run")
@njit(cache=True, _nrt=False)
def _block_roll(T, W, B, EV, actor, skill, target, why_arg, why):
    """A Fate 3.0 block's roll: ``skill`` against nothing (its effort is the block strength), the blocker
    alone invoking on it (invokes.invoke_turns with one seat); the strength, or NEG while an answer is
    awaited."""
    G, R = W.G, B.R
    _roll_action(T, W, B, EV, actor, ACT_BLOCK, skill, target, NEG, 0, (0, why_arg, why))
    if G[G_BAIL] != BAIL_NONE:
        return NEG
    R[R_ALONE] = 1
    _invoke_rounds(T, W, B, EV, False, False)
    R[R_ALONE] = 0
    if G[G_BAIL] != BAIL_NONE:
        return NEG
    return R[R_BASE] + R[R_FACES] + R[R_BONUS]


@mirrors("fate_env.rules.actions.protect.run")
@njit(cache=True, _nrt=False)
def _protect(T, W, B, EV, actor, ally):
    """protect.run: the better of the defend skills (Athletics, Fight; Will in a mental conflict) rolled as the
    block strength, which the ally's defense cannot fall below this exchange (E_PROTECTING)."""
    CH, G = W.CH, W.G
    strength = _block_roll(T, W, B, EV, actor, _blocking_skill(T.SK, T.P, actor, False), ally, ally,
                           WHY_PASSIVE_PROTECT)
    if G[G_BAIL] != BAIL_NONE:
        return
    CH[ally, C_PROTBY] = actor + 1
    CH[ally, C_PROTSTR] = strength
    _emit(EV, G, E_PROTECTING, (actor, ally, strength, 0, 0, 0, 0, 0, 0, 0, 0))


@mirrors("fate_env.rules.actions.protect.floor")
@njit(cache=True, _nrt=False)
def _floor(CH, R, EV, G, target):
    """An attack on a protected ``target`` (its defense rolled): the defense counts as at least the block
    strength while the blocker is in (002:46); announced when the roll fell short of it (E_BLOCKHELD)."""
    by = CH[target, C_PROTBY] - 1
    if by == NEG or CH[by, C_STATUS] != ACTIVE:
        return
    strength = CH[target, C_PROTSTR]
    R[R_HASFLOOR] = 1
    R[R_OFLOOR] = strength
    if strength > R[R_OBASE] + R[R_OFACES]:
        _emit(EV, G, E_BLOCKHELD, (target, by, strength, 0, 0, 0, 0, 0, 0, 0, 0))
