"""The attack action (``rules/actions/attack.py``), and the target's response (``rules/steps.py``).
"""

from __future__ import annotations

from ..jit import njit
from .aspects import _boost
from .basic import _may_concede, _should_concede
from .events import _decision, _emit, _opt, _paused_two
from .invokes import _settle
from .layout import (
    G_CONTEST, C_SETBACK,
    BK_A, BK_ARMOR, BK_B, BK_SHOVE, BKW, E_COVER, G_MAP, HIT_FORCED, HIT_FORCED_TIE, P_BLK, P_NBLK, R_ABOUT, ACT_ATTACK, BAIL_NONE, BAIL_PAUSE, D_RESPOND, D_STYLE, G_BAIL, G_PSHIFTS, HIT_PLAIN, HIT_WEAPON, HIT_WEAPON_TIE, O_BOOST_HIT,
    O_CONCEDE, O_DEFEND, O_FULLHIT, P_NAME_GLANCING, P_NAME_MOMENTUM, P_NAME_OPENING, P_TRACK, P_WEAPONS, R_R_CONCEDE,
    R_R_DEFEND, R_S_FULL, S_ARMOR, S_WEAPON, WEAPONS_SHIFTS, NEG, O_FORGO, P_FORGO, R_OPP, RESP_DEFEND, RESP_FORGO,
    RESP_NONE, WHY_PASSIVE_FORGO, ACTIVE, C_STATUS, C_ZONE, D_COST, E_STOODIN, G_STOODIN, O_STAND_ASIDE, O_STAND_IN,
    P_FD_FOCUS, P_OFFERED, P_STANDIN, R_C_ONLY, S_SIDE, C_ACTED, C_DEFONFULL, C_FULLDEF, E_FULLDEF, O_FULLDEF, P_FD_EXCHANGE,
    P_PROTECT,
)
from .mirror import mirrors
from .reach import _reach_of
from .rolls import _defend_skill, _roll_action
from .seats import _ask_two, _draw, _draws, _why
from .harm import _harm
from .protect import _floor
from .stress import _concede


@mirrors("fate_env.rules.steps.respond", "agents.basic.BasicController._respond")
@njit(cache=True, _nrt=False)
def _respond(T, W, EV, target, B, attack, declarable):
    """steps.respond: the target defends (RESP_DEFEND), concedes before the dice (RESP_NONE), or, on
    an ``attack`` under the forgo_defense dial, takes it undefended (RESP_FORGO): basic's test, or
    the random policy's draw among the options (defend, concede, forgo). ``declarable``: a character's
    roll, against which FATE 2.0's full defense may be declared (a hazard's is not: hazards.attack)."""
    P = T.P
    CH, RNG, G = W.CH, W.RNG, W.G
    forgo = attack and P[P_FORGO] != 0
    # FATE 2.0: one yet to act this exchange may declare a full defense when first attacked (001:80)
    # (in a contest neither: no concession, no full defense, 003:1288-1289; contest.py)
    contest = G[G_CONTEST] != 0
    declare = declarable and P[P_FD_EXCHANGE] != 0 and CH[target, C_FULLDEF] == 0 and CH[target, C_ACTED] == 0 \
        and not contest
    anytime = P[P_OFFERED] == 0 and not contest  # a concession before the dice (none where it is offered: 001:150)
    at_forgo = 2 if anytime else 1  # the options: defend, concede, forgo, full defense, those offered
    at_fd = at_forgo + 1 if forgo else at_forgo
    if at_fd + (1 if declare else 0) == 1:
        return RESP_DEFEND  # defend alone (no concession before the dice): nothing to ask (decisions.ask)
    if _draws(P, target, D_RESPOND):
        j = _draw(P, RNG, G, target, D_RESPOND, at_fd + (1 if declare else 0))
        if j < 0:
            if G[G_BAIL] == BAIL_PAUSE:
                _opt(EV, G, 0, O_DEFEND, 0, 0, 0, 0, 0)
                if anytime:
                    _opt(EV, G, 1, O_CONCEDE, 0, 0, 0, 0, 0)
                if forgo:
                    _opt(EV, G, at_forgo, O_FORGO, 0, 0, 0, 0, 0)
                if declare:
                    _opt(EV, G, at_fd, O_FULLDEF, 0, 0, 0, 0, 0)
            return RESP_NONE
        reason = _why(P, target, D_RESPOND)
    else:
        j = 1 if anytime and _may_concede(CH, P, target) and _should_concede(T, W, target, B) else 0
        reason = R_R_CONCEDE if j == 1 else R_R_DEFEND
    if j == 1 and anytime:
        _decision(EV, G, D_RESPOND, target, 1, reason, O_CONCEDE, 0, 0, 0, 0, 0)
        _concede(T.SC, P, CH, EV, G, target)
        return RESP_NONE
    if declare and j == at_fd:  # a full defense for the rest of the exchange, this exchange's turn given up (001:80)
        _decision(EV, G, D_RESPOND, target, j, reason, O_FULLDEF, 0, 0, 0, 0, 0)
        CH[target, C_FULLDEF] = 1  # full_defense.run's (support._full_defense: a module this one precedes)
        CH[target, C_DEFONFULL] = 0
        _emit(EV, G, E_FULLDEF, (target, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        return RESP_DEFEND
    if forgo and j == at_forgo:
        _decision(EV, G, D_RESPOND, target, j, reason, O_FORGO, 0, 0, 0, 0, 0)
        return RESP_FORGO
    _decision(EV, G, D_RESPOND, target, 0, reason, O_DEFEND, 0, 0, 0, 0, 0)
    return RESP_DEFEND


@mirrors("fate_env.rules.actions.guard.stand_in", "agents.basic.BasicController._cost")
@njit(cache=True, _nrt=False)
def _stand_in(T, W, EV, target, attacker):
    """guard.stand_in under the stand_in dial (000:270): each ally beside ``target`` (its side, its
    zone, in the scene's order) is asked in turn whether it steps in; the first who does takes the
    attack (basic never does: the first option). The character the attack lands on (NEG: paused)."""
    SC, P = T.SC, T.P
    CH, G, RNG = W.CH, W.G, W.RNG
    for a in range(SC.shape[0]):
        if a == target or a == attacker or CH[a, C_STATUS] != ACTIVE or SC[a, S_SIDE] != SC[target, S_SIDE] \
                or CH[a, C_ZONE] != CH[target, C_ZONE]:
            continue
        j, why = _ask_two(P, RNG, G, EV, a, D_COST, O_STAND_ASIDE, O_STAND_IN, 0, R_C_ONLY)  # basic stands aside
        if j < 0:
            return NEG
        _decision(EV, G, D_COST, a, j, why, O_STAND_IN if j == 1 else O_STAND_ASIDE, 0, 0, 0, 0, 0)
        if j == 1:
            _emit(EV, G, E_STOODIN, (a, target, attacker, 0, 0, 0, 0, 0, 0, 0, 0))
            return a
    return target


@mirrors("fate_env.rules.actions.attack.undefended")
@njit(cache=True, _nrt=False, inline="always")
def _undefended(T, W, B, EV, actor, target, skill):
    """attack.undefended: an attack on a target who forgoes the defense rolls against Mediocre, with no
    one to invoke for the opposition (000:292-294)."""
    _roll_action(T, W, B, EV, actor, ACT_ATTACK, skill, target, NEG, 0, (0, target, WHY_PASSIVE_FORGO))
    B.R[R_OPP] = NEG


@mirrors("fate_env.rules.actions.attack.run", "fate_env.rules.actions.shove.run")
@njit(cache=True, _nrt=False)
def _attack(T, W, B, EV, actor, target, skill, block):
    """attack.run: the target answers; it defends with its best defend skill, or forgoes the defense
    and the attack rolls against Mediocre with no one to invoke for the opposition (000:292-294).
    With a ``block`` (NEG: none), shove.run: the target forced into it (003:2324-2326), the roll
    about it, no one standing in for the target."""
    SK, ST, P = T.SK, T.ST, T.P
    CH, A, G = W.CH, W.A, W.G
    ward = target
    if P[P_STANDIN] != 0 and block == NEG:
        target = _stand_in(T, W, EV, target, actor)
        if G[G_BAIL] != BAIL_NONE:
            return
    answer = _respond(T, W, EV, target, B, True, True)
    if answer == RESP_NONE:
        return
    if answer == RESP_FORGO:
        _undefended(T, W, B, EV, actor, target, skill)
    else:
        dskill = _defend_skill(SK, ST, CH, A, P, target, actor, _reach_of(P, actor, skill), skill)
        G[G_STOODIN] = 1 if ward != target and P[P_FD_FOCUS] != 0 else 0
        _roll_action(T, W, B, EV, actor, ACT_ATTACK, skill, target, target, dskill, (0, 0, 0))
        G[G_STOODIN] = 0
        if P[P_PROTECT] != 0 and block == NEG and G[G_BAIL] == BAIL_NONE:
            _floor(CH, B.R, EV, G, target)  # a blocker's strength under the defense (002:46)
    if G[G_BAIL] != BAIL_NONE:
        return
    if block != NEG:
        B.R[R_ABOUT] = 1 << block
    m = _settle(T, W, B, EV, True, answer == RESP_DEFEND, ACT_ATTACK, target)
    if G[G_BAIL] != BAIL_NONE:
        return
    _land(T, W, B, EV, actor, target, m, block)


@mirrors("fate_env.rules.blocks.cover")
@njit(cache=True, _nrt=False)
def _cover(P, CH, G, EV, actor, target):
    """blocks.cover: the armor a standing block on the border between the attacker's zone and the
    target's gives the target as cover (003:2333-2337), announced; 0 for none."""
    za, zt = CH[actor, C_ZONE], CH[target, C_ZONE]
    if za == zt:
        return 0
    for i in range(P[P_NBLK]):
        at = P[P_BLK] + BKW * i
        if (P[at + BK_A] == za and P[at + BK_B] == zt or P[at + BK_A] == zt and P[at + BK_B] == za) \
                and G[G_MAP] >> i & 1 == 0 and P[at + BK_ARMOR] > 0:
            _emit(EV, G, E_COVER, (target, i, P[at + BK_ARMOR], 0, 0, 0, 0, 0, 0, 0, 0))
            return P[at + BK_ARMOR]
    return 0


@mirrors("fate_env.rules.actions.attack.land", "fate_env.rules.actions.attack.armored")
@njit(cache=True, _nrt=False, inline="always")  # inlined: a call handing over the bundles costs more than its work
def _land(T, W, B, EV, actor, target, m, block):
    """attack.land: an attack's margin ``m`` (its invokes done) comes to its outcome: a tie's boost,
    or under the weapons dial on a hit's shifts (003:2675-2693, physical attacks only) the weapon's
    hit on a tie; a hit with its style choice, less armor and a block's cover (a Glancing Blow when
    they take it all). Forced into a ``block`` (NEG: none), its weapon rating adds as a weapon's does."""
    SC, P = T.SC, T.P
    CH, A, AF, AL, G, RNG = W.CH, W.A, W.AF, W.AL, W.G, W.RNG
    if m < 0:
        return
    weapons = P[P_WEAPONS] == WEAPONS_SHIFTS and P[P_TRACK] == 0
    weapon = SC[actor, S_WEAPON] if weapons else 0
    armor = SC[target, S_ARMOR] if weapons else 0
    into = P[P[P_BLK] + BKW * block + BK_SHOVE] if block != NEG else 0
    # one call to _harm, its note and ratings set on the way: numba compiles a copy of a function for
    # each set of constant arguments, and each call site hands over the bundles
    if m == 0:
        if weapon + into == 0:  # no weapon: the tie's boost
            _boost(A, AF, AL, G, P, EV, actor, P[P_NAME_OPENING])
            return
        shifts = weapon + into - armor
        if shifts > 0 and P[P_NBLK] != 0:
            shifts -= _cover(P, CH, G, EV, actor, target)
        if shifts <= 0:  # armor took the tie's hit: the tie's boost after all
            _boost(A, AF, AL, G, P, EV, actor, P[P_NAME_OPENING])
            return
        note, weapon, armor = HIT_WEAPON_TIE, 0, 0  # the note names no ratings
        if block != NEG:
            note, weapon = HIT_FORCED_TIE, block
    else:
        CH[target, C_SETBACK] = 1  # successfully attacked: no challenge task this exchange (attack.land)
        if m >= 3:
            j = _draw(P, RNG, G, actor, D_STYLE, 2) if _draws(P, actor, D_STYLE) else 0
            if j < 0:
                G[G_PSHIFTS] = m
                _paused_two(EV, G, O_FULLHIT, O_BOOST_HIT)
                return
            if j == 1:  # trade a shift for a boost
                _decision(EV, G, D_STYLE, actor, 1, _why(P, actor, D_STYLE), O_BOOST_HIT, 0, 0, 0, 0, 0)
                m -= 1
                _boost(A, AF, AL, G, P, EV, actor, P[P_NAME_MOMENTUM])
            else:
                _decision(EV, G, D_STYLE, actor, 0, _why(P, actor, D_STYLE) if _draws(P, actor, D_STYLE) else R_S_FULL,
                          O_FULLHIT, 0, 0, 0, 0, 0)
        shifts, note = m + weapon + into - armor, HIT_PLAIN
        if weapons:
            note = HIT_WEAPON
        elif block != NEG:
            note, weapon, armor = HIT_FORCED, block, into
        if shifts > 0 and P[P_NBLK] != 0:
            shifts -= _cover(P, CH, G, EV, actor, target)
        if shifts <= 0:  # armor, whatever gives it, took the whole hit: a boost instead (003:2686-2689)
            _boost(A, AF, AL, G, P, EV, actor, P[P_NAME_GLANCING])
            return
    _harm(T, W, EV, target, shifts, actor, B, note, weapon, armor)
