"""The tactics built on ``basic`` (``agents/tactics.py``): the tactician's free invokes held, the
sniper's trigger and shot, the brute's closest foe, and each tactic's pick on its turn (one function
per policy; conflict._turn counts the options and falls back to basic's pick).
"""

from __future__ import annotations

from ..jit import njit
from .advantage import _advantage
from .aspects import _nth_aspect
from .basic import _danger, _step_into_reach
from .events import _decision
from .exploit import _exploit
from .layout import (
    A_NAME, A_OWNER, ACT_ATTACK, ACTIVE, C_ACTED, C_NSTUNT, C_STATUS, C_ZONE, D_TURN, G_NAL, NEG, O_ADVANTAGE,
    O_EXPLOIT, O_FULLDEF, O_SUPPORT, P_FIGHT, POL_STACK, R_T_ATTACK, R_T_BACKS, R_T_BACKS_UP, R_T_CASHES, R_T_FOCUSES,
    R_T_GUARDS, R_T_SETS_UP_FOR, R_T_SETS_UP_ON, R_T_SHOOTS, R_T_STACKS, S_SIDE, TGT_SCENE,
)
from .mirror import mirrors
from .reach import _attack_skills
from .rolls import _attack_rating, _defense_rating, _stunt
from .stress import _cap
from .support import _full_defense, _pledge


@mirrors("agents.tactics.TacticianController._held")
@njit(cache=True, _nrt=False)
def _held(SC, A, AF, AL, G, me, target):
    """TacticianController._held: free invokes ``me``'s side holds on aspects of ``target``."""
    side = SC[me, S_SIDE]
    total = 0
    for i in range(G[G_NAL]):
        aid = AL[i]
        if A[aid, A_OWNER] == target:
            for h in range(SC.shape[0]):
                if SC[h, S_SIDE] == side:
                    total += AF[aid, h]
    return total


@mirrors("agents.tactics.TacticianController._next")
@njit(cache=True, _nrt=False)
def _holds_free(AF, AL, G, c):
    """``c`` holds a free invoke on some aspect in play."""
    for i in range(G[G_NAL]):
        if AF[AL[i], c] > 0:
            return True
    return False


@mirrors("agents.tactics.SniperController._foe_here")
@njit(cache=True, _nrt=False)
def _foe_here(SC, CH, me):
    """An active foe in ``me``'s zone (the sniper's trigger)."""
    side = SC[me, S_SIDE]
    z = CH[me, C_ZONE]
    for x in range(SC.shape[0]):
        if CH[x, C_STATUS] == ACTIVE and SC[x, S_SIDE] != side and CH[x, C_ZONE] == z:
            return True
    return False


@mirrors("agents.tactics.SniperController._turn")
@njit(cache=True, _nrt=False)
def _ranged_pick(SK, ST, CH, A, P, actor, natt, att_t, att_s):
    """sniper: the attack not with Fight with the best rating against defense (the first of equals)."""
    best = NEG
    best_v = 0
    for i in range(natt):
        if att_s[i] == P[P_FIGHT]:
            continue
        v = _attack_rating(SK, ST, CH, A, actor, att_s[i], att_t[i]) - \
            _defense_rating(SK, ST, CH, A, P, att_t[i], actor, att_s[i])
        if best == NEG or v > best_v:
            best = i
            best_v = v
    return best


@mirrors("agents.tactics.BruteController._turn")
@njit(cache=True, _nrt=False)
def _closest_pick(SK, ST, CH, A, actor, natt, att_t, att_s):
    """brute: the closest foe (its own zone if any there), the attack with the highest rating."""
    here = CH[actor, C_ZONE]
    same = False
    for i in range(natt):
        if CH[att_t[i], C_ZONE] == here:
            same = True
    best = NEG
    best_r = 0
    for i in range(natt):
        if same and CH[att_t[i], C_ZONE] != here:
            continue
        r = _attack_rating(SK, ST, CH, A, actor, att_s[i], att_t[i])
        if best == NEG or r > best_r:
            best = i
            best_r = r
    return best


# -- each tactic's pick on its turn, over the options _turn_options counted -------------------------
# A pick either takes the turn's action itself (PICKED: the turn is over; STEPPED: it took the free
# move and the options are counted again; STOPPED: the run bails), or leaves ``pick`` (an attack among
# the options, or NEG) and its reason to basic's fall-back in conflict._turn (NONE).
NONE, PICKED, STEPPED, STOPPED = 0, 1, 2, 3


@mirrors("agents.tactics.TacticianController._turn")
@njit(cache=True, _nrt=False)
def _tactician_pick(T, W, B, EV, actor, pol, nm, natt, nadv, before_fd):
    """tactician: one hit from out -> full defense; else the most wounded foe in reach: cash stacked
    free invokes on it, or set it up, or hit it with the best rating; nothing in reach -> basic."""
    SC, SK, ST, SLOTS, P = T.SC, T.SK, T.ST, T.SLOTS, T.P
    MARK, SLOTA, CH, A, AF, AL, G = W.MARK, W.SLOTA, W.CH, W.A, W.AF, W.AL, W.G
    att_t, att_s, adv_k, adv_g = B.att_t, B.att_s, B.adv_k, B.adv_g
    found, worst = _danger(T, W, actor, pol, B)
    if found and worst > 0:
        _decision(EV, G, D_TURN, actor, before_fd, R_T_GUARDS, O_FULLDEF, 0, 0, 0, 0, 0)
        _full_defense(CH, EV, G, actor)
        return PICKED, NEG, R_T_ATTACK
    if natt == 0:
        return NONE, NEG, R_T_ATTACK
    focus = NEG
    focus_cap = 0
    for i in range(natt):  # the targets in the order the attacks offer them
        t = att_t[i]
        seen = False
        for j in range(i):
            if att_t[j] == t:
                seen = True
        if not seen:
            cap = _cap(SC, SLOTS, MARK, SLOTA, CH, P, t)
            if focus == NEG or cap < focus_cap:
                focus = t
                focus_cap = cap
    why = R_T_FOCUSES
    if _held(SC, A, AF, AL, G, actor, focus) >= P[pol + POL_STACK]:
        why = R_T_CASHES
    else:
        for i in range(nadv):
            if adv_g[i] == focus:
                _decision(EV, G, D_TURN, actor, nm + natt + i, R_T_SETS_UP_ON, O_ADVANTAGE, adv_k[i], focus, 0, 0, 0)
                _advantage(T, W, B, EV, actor, adv_k[i], focus)
                return PICKED, NEG, why
    pick = NEG
    best_r = 0
    for i in range(natt):
        if att_t[i] == focus:
            r = _attack_rating(SK, ST, CH, A, actor, att_s[i], focus)
            if pick == NEG or r > best_r:
                pick = i
                best_r = r
    return NONE, pick, why


@mirrors("agents.tactics.SupportController._turn")
@njit(cache=True, _nrt=False)
def _support_pick(T, W, B, EV, actor, nm, natt, nadv, nal, before_fd):
    """support: back up the first ally yet to act whose best attack skill it has a rank in; else, with
    allies, set up the first foe it can; else basic."""
    SC, SK, ST, P = T.SC, T.SK, T.ST, T.P
    CH, A, G = W.CH, W.A, W.G
    skills, allies, adv_k, adv_g = B.skills, B.allies, B.adv_k, B.adv_g
    for j in range(nal):
        ally = allies[j]
        if CH[ally, C_ACTED] != 0:
            continue
        na = _attack_skills(P, ally, skills)
        best = 0
        best_s = NEG
        for q in range(na):
            v = SK[ally, skills[q]] + (_stunt(ST, CH, A, ally, skills[q], ACT_ATTACK, NEG) if CH[ally, C_NSTUNT] else 0)
            if best_s == NEG or v > best:
                best = v
                best_s = skills[q]
        if best > 0 and SK[actor, best_s] >= 1:
            _decision(EV, G, D_TURN, actor, before_fd + 1 + j, R_T_BACKS_UP, O_SUPPORT, ally, best_s, 0, 0, 0)
            if not _pledge(CH, EV, G, actor, ally):
                return STOPPED
            return PICKED
    if nal > 0:
        for i in range(nadv):
            t = adv_g[i]
            if t < TGT_SCENE and SC[t, S_SIDE] != SC[actor, S_SIDE]:
                _decision(EV, G, D_TURN, actor, nm + natt + i, R_T_SETS_UP_FOR, O_ADVANTAGE, adv_k[i], t, 0, 0, 0)
                _advantage(T, W, B, EV, actor, adv_k[i], t)
                return PICKED
    return NONE


@mirrors("agents.tactics.StackerController._turn")
@njit(cache=True, _nrt=False)
def _stacker_pick(T, W, B, EV, actor, pol, nm, natt, nadv, nexp):
    """stacker: under ``stack`` free invokes held, take advantage of the first aspect of its own on
    offer; else basic."""
    SC, P = T.SC, T.P
    CH, A, AF, AL, G = W.CH, W.A, W.AF, W.AL, W.G
    held = 0
    for i in range(G[G_NAL]):
        held += AF[AL[i], actor]
    if held < P[pol + POL_STACK]:
        for i in range(nexp):
            aid = _nth_aspect(SC, CH, A, AL, G, actor, i, False)
            if A[aid, A_OWNER] == actor:
                _decision(EV, G, D_TURN, actor, nm + natt + nadv + i, R_T_STACKS, O_EXPLOIT, aid, 0, 0, A[aid, A_NAME],
                          held)
                _exploit(T, W, B, EV, actor, aid)
                return PICKED
    return NONE


@mirrors("agents.tactics.SniperController._turn")
@njit(cache=True, _nrt=False)
def _sniper_pick(T, W, B, EV, actor, nm, natt):
    """sniper: a foe in its zone -> the first free move from which it still reaches a foe; then the
    ranged attack with the best rating against defense; else basic."""
    SC, SK, ST, P, SIGHT = T.SC, T.SK, T.ST, T.P, T.SIGHT
    CH, A, G = W.CH, W.A, W.G
    if _foe_here(SC, CH, actor) and _step_into_reach(SC, CH, P, SIGHT, EV, G, actor, B.moves, nm, B.buf, B.skills,
                                                    R_T_BACKS):
        return STEPPED, NEG, R_T_SHOOTS
    return NONE, _ranged_pick(SK, ST, CH, A, P, actor, natt, B.att_t, B.att_s), R_T_SHOOTS
