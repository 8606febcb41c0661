"""Ratings and rolls (``rules/rolls.py``): stunt bonuses, the aspects a roll can lean on, a
character's base for an action, the best skill, the passive opposition's voice, the dice (``rules/dice.py``).
"""

from __future__ import annotations

from ..dice import die
from ..jit import njit
from .events import _emit
from .layout import (
    R_ABOUT, A_ALIVE, A_NAME, A_OWNER, A_ZONE, ACT_ATTACK, ACT_DEFEND, ACTIVE, C_DEFONFULL, C_FULLDEF, C_MEMBERS, C_NSTUNT,
    G_STOODIN, R_TARGET,
    C_NSUP, C_PEN, C_MINOR, C_STATUS, C_TWCAP, C_ZONE, E_PASSIVE, FAR, E_ROLLED, G_NDICE, NCF, NEG, P_ATHLETICS, P_FIGHT, P_TRACK,
    P_USESKILL, P_WEAPONS, P_WILL, R_ACTOR, R_BASE, R_BONUS, R_FACES, R_OBASE, R_OBONUS, R_OFACES, R_OPP, R_SKILL, R_Z1, R_Z2,
    S_ARMOR, S_SIDE, S_WEAPON, T_ACTION, T_ARG, T_BONUS, T_OWNER, T_SKILL, T_TAG, W_ASPECT, W_FULLDEF, W_NONE, W_OTHER,
    W_SAME, W_TARGET, W_USE, W_ZONE, WEAPONS_ROLL, ACT_CONTEST, ACT_OVERCOME,
)
from .mirror import mirrors
from .reach import _reach_of
from .solo import _edge, _solo_skill

A2 = "int64[:, ::1]"  # the signature of a helper called with constant arguments (see layout.EV_T)


@mirrors("fate_env.rules.rolls.stunt_bonus")
@njit(cache=True, _nrt=False)
def _stunt(ST, CH, A, c, skill, action, target):
    total = 0
    for i in range(ST.shape[0]):
        if ST[i, T_OWNER] != c or ST[i, T_SKILL] != skill or ST[i, T_ACTION] != action:
            continue
        tag = ST[i, T_TAG]
        ok = False
        if tag == W_NONE:
            ok = True
        elif tag == W_ZONE:
            ok = CH[c, C_ZONE] == ST[i, T_ARG]
        elif tag == W_SAME:
            ok = target != NEG and CH[target, C_ZONE] == CH[c, C_ZONE]
        elif tag == W_OTHER:
            ok = target != NEG and CH[target, C_ZONE] != CH[c, C_ZONE]
        elif tag == W_FULLDEF:
            ok = CH[c, C_FULLDEF] != 0
        elif tag == W_TARGET:
            ok = target == ST[i, T_ARG]
        elif tag == W_ASPECT:
            ok = _aspect_here(CH, A, c, ST[i, T_ARG], target)
        if ok:
            total += ST[i, T_BONUS]
    return total


@mirrors("fate_env.rules.rolls.holds")
@njit(cache=True, _nrt=False)
def _aspect_here(CH, A, c, name, target):
    """An aspect called ``name`` in play where ``c`` or its target stands, on nobody else (rolls.holds)."""
    z1 = CH[c, C_ZONE]
    z2 = CH[target, C_ZONE] if target != NEG else z1
    for aid in range(1, A.shape[0]):
        if A[aid, A_ALIVE] == 0:
            if aid > A[0, 0]:
                break
            continue
        if A[aid, A_NAME] != name:
            continue
        owner = A[aid, A_OWNER]
        if owner != NEG and CH[owner, C_STATUS] != ACTIVE:
            continue
        z = A[aid, A_ZONE]
        if z != NEG and z != z1 and z != z2:
            continue
        if owner == NEG or owner == c or owner == target:
            return True
    return False


@mirrors("fate_env.rules.rolls.base")
@njit(cache=True, _nrt=False)
def _base(SK, ST, CH, A, c, skill, action, target):
    """(rating, stunt bonus, teamwork bonus, full defense bonus, 1 + the teamwork's leader or 0
    when c leads, the ordered consequences' penalty) — rolls.base: the best-rated supporter still in the fight leads when it
    outranks c (003:1449-1455); a mob's other members and every other helper with Average or
    better add +1 each, capped at the leader's rating under Condensed. No help on defense."""
    own = SK[c, skill]
    leader = c
    rating = own
    helpers = 0
    nsup = CH[c, C_NSUP] if action != ACT_DEFEND else 0
    if nsup > 0 or CH[c, C_MEMBERS] > 1:
        best = NEG
        best_v = 0
        for j in range(nsup):
            x = CH[c, NCF + j]
            if CH[x, C_STATUS] == ACTIVE and (best == NEG or SK[x, skill] > best_v):
                best = x
                best_v = SK[x, skill]
        if best != NEG and best_v > own:
            leader = best
            rating = best_v
        if CH[c, C_MEMBERS] > 1 and own >= 1:
            helpers += CH[c, C_MEMBERS] - 1
        if leader != c and own >= 1:
            helpers += 1
        for j in range(nsup):
            x = CH[c, NCF + j]
            if CH[x, C_STATUS] == ACTIVE and x != leader and SK[x, skill] >= 1:
                helpers += 1
    stunt = _stunt(ST, CH, A, leader, skill, action, target) if CH[leader, C_NSTUNT] else 0
    tw = helpers
    if CH[c, C_TWCAP] != 0 and tw > rating:
        tw = rating if rating > 0 else 0
    fd = 2 if action == ACT_DEFEND and CH[c, C_FULLDEF] != 0 else 0
    pen = CH[c, C_PEN] + (CH[c, C_MINOR] if action != ACT_DEFEND else 0)  # consequences, the turn's minor actions
    return rating, stunt, tw, fd, (leader + 1 if leader != c else 0), pen


@mirrors("fate_env.rules.rolls.best_skill")
@njit(f"int64({A2}, {A2}, {A2}, {A2}, int64[::1], int64, int64, int64, int64, int64)", cache=True, _nrt=False)
def _use_skill(SK, ST, CH, A, P, c, best, action, attacker, versus):
    """rolls.best_skill's pool widened by c's use_skill stunts for ``action`` (in the sheet's order; a
    defence's stunt limited to one skill's attacks only when ``versus``, the attack's skill, is it:
    NEG for a roll that is not an attack): ``best``, the base pool's pick, kept on a tie. A stunt's
    skill already in the pool never beats the pool's pick, so it needs no test of its own. ``versus``
    FAR: the roll acts on a body in another zone, so only a stunt's skill that reaches there counts."""
    if P[P_USESKILL] == 0:  # the common case: no sheet of the scene has one
        return best
    best_v = 0
    rated = False  # the base pick's rating, worked out at the first stunt that applies
    for i in range(ST.shape[0]):
        if ST[i, T_OWNER] != c or ST[i, T_TAG] != W_USE or ST[i, T_ACTION] != action:
            continue
        if versus == FAR:  # a roll on a body in another zone: only a skill that reaches there
            if ST[i, T_BONUS] == 0:
                continue
        elif ST[i, T_ARG] != NEG and ST[i, T_ARG] != versus:
            continue
        if not rated:
            rated = True
            best_v = SK[c, best] + (_stunt(ST, CH, A, c, best, action, attacker) if CH[c, C_NSTUNT] else 0)
        s = ST[i, T_SKILL]
        v = SK[c, s] + (_stunt(ST, CH, A, c, s, action, attacker) if CH[c, C_NSTUNT] else 0)
        if v > best_v:
            best = s
            best_v = v
    return best


@mirrors("fate_env.rules.rolls.best_skill")
@njit(cache=True, _nrt=False)
def _defend_skill(SK, ST, CH, A, P, target, attacker, reach, versus):
    """The first skill of the highest effective rating among the reach's defend skills (and the
    defender's use_skill stunts that apply against ``versus``, the attack's skill)."""
    if reach == 0:  # melee: Athletics, Fight
        a = P[P_ATHLETICS]
        b = P[P_FIGHT]
        ea = SK[target, a]
        eb = SK[target, b]
        if CH[target, C_NSTUNT]:
            ea += _stunt(ST, CH, A, target, a, ACT_DEFEND, attacker)
            eb += _stunt(ST, CH, A, target, b, ACT_DEFEND, attacker)
        base = a if ea >= eb else b
    elif reach == 1:
        base = P[P_ATHLETICS]
    else:
        base = P[P_WILL]
    return _use_skill(SK, ST, CH, A, P, target, base, ACT_DEFEND, attacker, versus)


@mirrors("fate_env.rules.view.View.attack_rating")
@njit(cache=True, _nrt=False)
def _attack_rating(SK, ST, CH, A, c, skill, target):
    """A look at ``c``'s attack with ``skill`` on ``target`` (NEG: no one in particular): base, solo and scale."""
    return _look(SK, ST, CH, A, c, skill, ACT_ATTACK, target)


@mirrors("fate_env.rules.view.View.defense_rating")
@njit(cache=True, _nrt=False)
def _defense_rating(SK, ST, CH, A, P, target, attacker, skill):
    """A look at ``target``'s defense against ``attacker``'s attack with ``skill``: base, solo and scale."""
    d = _defend_skill(SK, ST, CH, A, P, target, attacker, _reach_of(P, attacker, skill), skill)
    return _look(SK, ST, CH, A, target, d, ACT_DEFEND, attacker)


@mirrors("fate_env.rules.rolls.effective")
@njit(cache=True, _nrt=False, inline="always")
def _effective(SK, ST, CH, A, c, skill):
    """``c``'s rating in ``skill`` for an overcome with the stunts that apply (rolls.effective): what basic weighs
    a contest's roller and a task by."""
    return SK[c, skill] + (_stunt(ST, CH, A, c, skill, ACT_OVERCOME, NEG) if CH[c, C_NSTUNT] else 0)


@mirrors("fate_env.rules.rolls.base")
@njit(cache=True, _nrt=False, inline="always")
def _look(SK, ST, CH, A, c, skill, action, other):
    """``c``'s total for ``action`` with ``skill`` without the dice (rolls.base with ``peek``): its base, its
    solo skill bonus, and its scale over ``other``, the character on the other side of the roll (NEG: none)."""
    r, s, tw, fd, _, pen = _base(SK, ST, CH, A, c, skill, action, other)
    return r + s + tw + fd - pen + _solo_skill(CH, c, r) + _edge(CH, c, other)


@mirrors("fate_env.rules.dice.Dice.roll")
@njit(cache=True, _nrt=False)
def _roll(RNG, G, out):
    """Four dice from the episode's generator (dice.py: the reference's stream); their sum."""
    total = 0
    for j in range(4):
        v = die(RNG)
        out[j] = v
        total += v
    G[G_NDICE] += 1
    return total


@mirrors("fate_env.rules.rolls.roll", "fate_env.rules.rolls.base")
@njit(cache=True, _nrt=False, inline="always")
def _rolled(T, W, EV, faces, c, action, skill, target, against, gear):
    """One side of a roll: ``c``'s base for ``action`` with ``skill`` (``target``: whom its stunts
    look at, or for a defence the attacker), its solo skill bonus and its scale over ``against`` (the
    character opposing the roll, NEG for none), plus ``gear`` (a weapon or armor rating under
    ``weapon_effect: roll``, else 0), the four dice and the Rolled event; a defence on full defense
    uses it up. (total, the dice's sum)."""
    SK, ST = T.SK, T.ST
    CH, A, G, RNG = W.CH, W.A, W.G, W.RNG
    # a contest's roll is an overcome but in its name (contest.py)
    rating, stunt, tw, fd, lead, pen = _base(SK, ST, CH, A, c, skill, ACT_OVERCOME if action == ACT_CONTEST else action,
                                             target)
    solo = _solo_skill(CH, c, rating)  # arithmetic on kept counts: a call or a switch here cost 10% (fast_core.md)
    edge = _edge(CH, c, against)
    if fd and G[G_STOODIN] != 0:
        fd = 0  # a defense made for an ally: Condensed's full defense is for its own focus (003:2240-2244)
    if fd:
        CH[c, C_DEFONFULL] = 1
    dice = _roll(RNG, G, faces)
    total = rating + stunt + tw + fd + gear - pen + solo + edge
    minor = CH[c, C_MINOR] if action != ACT_DEFEND else 0
    _emit(EV, G, E_ROLLED, (c, action, skill, rating, total, faces[0], faces[1], faces[2], faces[3], stunt,
                            fd | (tw << 8) | (lead << 16) | (gear << 40) | ((pen - minor) << 48) | (solo << 51)
                            | (edge << 56) | (minor << 60)))
    return total, dice


@mirrors("fate_env.rules.rolls.roll")
@njit(cache=True, _nrt=False)
def _roll_action(T, W, B, EV, actor, action, skill, target, opposer, dskill, passive):
    """rolls.roll: ``actor``'s roll for ``action`` (``target``: the character its stunts look at,
    or NEG), then ``opposer``'s defense with ``dskill``, or with no opposer the difficulty and its
    voice: ``passive`` = (difficulty, why_arg, why_kind), E_PASSIVE saying why. True: the
    opposition rolled."""
    difficulty, why_arg, why_kind = passive
    SC, P = T.SC, T.P
    CH, G = W.CH, W.G
    R, faces = B.R, B.faces
    # weapons as roll modifiers (rolls.roll's ``armed``): an attack a defence opposes, on the physical track
    armed = P[P_WEAPONS] == WEAPONS_ROLL and action == ACT_ATTACK and opposer != NEG and P[P_TRACK] == 0
    R[R_ACTOR] = actor
    R[R_SKILL] = skill
    R[R_BASE], R[R_FACES] = _rolled(T, W, EV, faces, actor, action, skill, target, opposer,
                                    SC[actor, S_WEAPON] if armed else 0)
    R[R_BONUS] = 0
    R[R_Z1] = CH[actor, C_ZONE]
    R[R_Z2] = CH[target, C_ZONE] if target != NEG else CH[actor, C_ZONE]
    R[R_TARGET] = target
    R[R_ABOUT] = 0  # about no block, unless its action says so after the dice (a move, a clearing, a shove)
    R[R_OBONUS] = 0
    if opposer == NEG:
        R[R_OPP] = _voice(SC, CH, actor)
        R[R_OBASE] = difficulty
        R[R_OFACES] = 0
        _emit(EV, G, E_PASSIVE, (actor, action, difficulty, why_arg, why_kind, 0, 0, 0, 0, 0, 0))
        return False
    R[R_OPP] = opposer
    R[R_OBASE], R[R_OFACES] = _rolled(T, W, EV, faces, opposer, ACT_DEFEND, dskill, actor, actor,
                                      SC[opposer, S_ARMOR] if armed else 0)
    return True


@mirrors("fate_env.rules.rolls.best_skill")
@njit(cache=True, _nrt=False)
def _best_of(SK, ST, CH, A, c, TPL, k, col, action, attacker):
    """rolls.best_skill over the template's listed skills: the first of the highest ratings with
    stunts (its callers widen the pick with the use_skill stunts: _use_skill)."""
    best = NEG
    best_v = 0
    for j in range(TPL[k, col]):
        s = TPL[k, col + 1 + j]
        v = SK[c, s] + (_stunt(ST, CH, A, c, s, action, attacker) if CH[c, C_NSTUNT] else 0)
        if best == NEG or v > best_v:
            best = s
            best_v = v
    return best


@mirrors("fate_env.rules.rolls.voice")
@njit(cache=True, _nrt=False)
def _voice(SC, CH, me):
    """Who speaks for a passive opposition (rolls.voice): a foe in the zone, else the first foe."""
    side = SC[me, S_SIDE]
    first = NEG
    for x in range(SC.shape[0]):
        if CH[x, C_STATUS] == ACTIVE and SC[x, S_SIDE] != side:
            if CH[x, C_ZONE] == CH[me, C_ZONE]:
                return x
            if first == NEG:
                first = x
    return first
