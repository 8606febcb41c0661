"""The fast core's kernel: one conflict played to its end by scripted or random controllers.

This mirrors, step for step, the reference engine's conflict flow (``fate_env/rules/flows/
conflict.py``), every action a turn offers (``rules/actions/``: moves, attack, create an advantage,
exploit, the overcome move, remove, full defense, support, concede, pass), invoke rounds
(``rules/invokes.py``), overcome outcomes (``rules/overcome.py``), Condensed and Core stress
(``rules/stress.py``), boosts (``rules/aspects.py``), the scene's end (``rules/end.py``) and the
policies of ``agents/`` (``basic``, the tactics, ``random``) — over flat integer arrays, so numba
can compile it. The rules' citations live beside the reference code; each function here names the
reference function it mirrors. It writes the same events as the reference, as rows of integers
that ``decode.py`` turns back into event objects (only when a log is asked for).

An episode that outgrows the fixed tables (aspects, events) stops with a reason code (see
``BAIL_REASONS``); the caller then plays that episode on the reference engine. Nothing is
approximated.

Written in the subset of Python numba compiles; without numba it runs as plain Python (slowly),
which keeps the logic testable everywhere.
"""

from __future__ import annotations

import numpy as np

from .bundles import Fight, Scene, Work
from .dice import RNG_SIZE, die, seed_rng
from .dice import pick as _pick_index
from .jit import HAVE_NUMBA, njit

# -- layout of the arrays ------------------------------------------------------------------
# static, per character (SC)
S_SIDE, S_NPC, S_MINOR, S_NBOX, S_NSLOT, S_FP, S_ZONE, S_NSTUNT, S_MOB, S_COUNT, S_XREPL = range(11)
NSF = 11  # SC[c, NSF + b]: the value of c's box b on the scene's track
# S_XREPL: the aspect an extreme consequence replaces (harm.replace_for_extreme), NEG for none
# dynamic, per character (CH)
C_ZONE, C_STATUS, C_FP, C_OWED, C_CTAKEN, C_FULLDEF, C_DEFONFULL, C_TOOKBY, C_ACTED, C_FPSPENT, \
    C_INVOKES, C_PAID, C_NSTUNT, C_MEMBERS, C_MOB, C_COUNT, C_TWCAP, C_NSUP = range(18)
NCF = 18  # C_NSTUNT, C_MOB, C_COUNT, C_TWCAP are copies of the sheet and the dial, kept here for the helpers
# CH[c, NCF:NCF + CH[c, C_NSUP]]: who pledged support to c's next action, in pledge order (CH is n wider)
ACTIVE, CONCEDED, TAKEN_OUT = 0, 1, 2
# stunts (ST): owner, skill, action, tag, arg, bonus
T_OWNER, T_SKILL, T_ACTION, T_TAG, T_ARG, T_BONUS = range(6)
ACT_ATTACK, ACT_DEFEND, ACT_ADVANTAGE, ACT_OVERCOME = 0, 1, 2, 3  # decode.ACTIONS spells them
W_NONE, W_ZONE, W_SAME, W_OTHER, W_FULLDEF, W_TARGET, W_ASPECT = range(7)
# slots (SLOTS[c, k]): value, severity, track (-1 any)
L_VALUE, L_SEV, L_TRACK = range(3)
# aspects (A): kind, owner, zone, creator, name, boost turn
A_KIND, A_OWNER, A_ZONE, A_CREATOR, A_NAME, A_BTURN, A_ALIVE, A_SKILL = range(8)
NAF = 8  # A_SKILL: the skill that created an advantage (its creator defends with it)
K_CHARACTER, K_SITUATION, K_ADVANTAGE, K_CONSEQUENCE, K_BOOST = range(5)
# advantage templates (TPL[k]): target kind, track, name, difficulty, skills (count, up to 4),
# defend skills (count, up to 4)
TP_TARGET, TP_TRACK, TP_NAME, TP_DIFF, TP_NSK, TP_SK, TP_NDEF, TP_DEF = 0, 1, 2, 3, 4, 5, 9, 10
TPL_W = 14
TG_FOE, TG_SELF, TG_ALLY, TG_ZONE, TG_SCENE = range(5)
# what an advantage is placed on, in option and event rows: a character's index, or one of these
TGT_SCENE = 999
TGT_ZONE = 1000  # + the zone's index
# parameters (P); P_LIKELY..P_RESERVE are unused (each character's policy has its own: P_POL)
(P_TRACK, P_SHOOT, P_BLOCK, P_FD_CONDENSED, P_MAXEX, P_FIRST, P_LIKELY, P_MARGIN, P_HURT, P_RESERVE,
 P_GMPOOL, P_FIGHT, P_SHOOT_SKILL, P_PROVOKE, P_ATHLETICS, P_WILL, P_NSIDES, P_AMAX, P_EMAX,
 P_NAME_PREPARED, P_NAME_UPPER, P_NAME_OPENING, P_NAME_CONS0, P_STYLE, P_POPCORN, P_ORDER, P_TWCAP, P_POL,
 P_NAME_SMALL_WIN, P_NAME_SECOND_WIND, P_NAME_MOMENTUM, P_NAME_HARD_WON, P_MAJOR, P_TIE_CHOICE, P_ZCOST,
 P_NAME_CLEAR, P_EXPLOIT_FOE, P_XSK, P_RSK) = range(39)
NP = 39
# P[P[P_XSK]:+9]: the skills to take advantage of an aspect with (skills.EXPLOIT_SKILLS); P[P[P_RSK]:+3]: to clear one
# P[P_MAJOR]: the major_cost dial; P[P[P_ZCOST] + a * zones + b]: the cost of an overcome move from a to b
MAJOR_OFF, MAJOR_CONSEQUENCE, MAJOR_ENEMY_ASPECT = range(3)
# P[P[P_POL] + POL_W * c:]: the policy playing c and its parameters (configs/policies.yaml)
POL_KIND, POL_LIKELY, POL_MARGIN, POL_HURT, POL_RESERVE, POL_MARKED, POL_STACK, POL_ASKS = range(8)
POL_W = 8
PK_BASIC, PK_BRUTE, PK_MINION, PK_SNIPER, PK_TACTICIAN, PK_SUPPORT, PK_RANDOM, PK_STACKER = range(8)
# coward is basic with other parameters. POL_ASKS: the decision kinds (a bitmask over D_*) the seat
# answers from outside (a learner, a player: see _draw); its policy makes the others
STYLE_CONDENSED, STYLE_CORE = 0, 1
# P[P_ORDER:]: the turn order by skills (Core, reach.skill_order), character indices
# P[NP + 9*c:]: c's attack skills: count, then (skill, reach) x 4 (reach 0 melee, 1 ranged, 2 any)
ATK_W = 9
# globals (G)
G_GMPOOL, G_GMSPENT, G_EXCHANGE, G_TURNSEQ, G_ASEQ, G_NAL, G_NEV, G_NDICE, G_ROLLNO, G_BAIL, G_WINNER, \
    G_UNRESOLVED, G_PLACED, G_ANSPOS, G_NANS, G_PKIND, G_PACTOR, G_PCOUNT, G_CKMODE, G_RESUME, G_CKACTOR, \
    G_CKCURSOR, G_PEFFORT, G_POPP, G_PMARGIN, G_PROLLER, G_PSHIFTS, G_PLAYOUT, G_HORIZON = range(29)
NG = 29  # G_PLACED: advantages placed so far (none: no template's option can be already in play)
# an agent's answers (G_NANS of them, from G[NG]) are taken in turn (G_ANSPOS); at the first
# decision past them the episode pauses, with the decision's kind, actor and option count.
# G_CKMODE: keep a checkpoint of the state at each turn's start (``advance``), G_RESUME: start
# from it, at the turn of G_CKACTOR (popcorn) or position G_CKCURSOR (Core's order).
# G_PEFFORT..G_PSHIFTS: a paused decision's context, as the reference's Decision.context gives it
# (an invoke's effort, opposition, margin and "as roller"; the shifts of a style or absorb choice)
# G_PLAYOUT, G_HORIZON: a look-ahead's copy (``playouts``): G_PLAYOUT characters ask until the last
# answer is taken, then every seat plays its policy on fresh dice (-1 once that happened), and the
# copy stops when exchange G_HORIZON begins (0: plays to the end)
# the roll in progress (R)
R_ACTOR, R_OPP, R_BASE, R_FACES, R_BONUS, R_OBASE, R_OFACES, R_OBONUS, R_Z1, R_Z2, R_ACTION = range(11)
NR = 11

# event rows: EV[i, 0] is the code, the rest its fields
EW = 12
E_EXCHANGE, E_TURN, E_DECISION, E_ROLLED, E_INVOKED, E_RESOLVED, E_BOOST, E_REMOVED, E_NEXT, E_HIT, \
    E_ABSORBED, E_TAKENOUT, E_CONCEDED, E_ENDED, E_MOVED, E_FULLDEF, E_PASSED, E_MOBHIT, E_PASSIVE, \
    E_CREATED, E_SUPPORT, E_MAJOR, E_GAINED = range(1, 24)
# decision kinds, option kinds, reasons (decode.py spells them out)
D_TURN, D_RESPOND, D_INVOKE, D_STYLE, D_ABSORB, D_NEXT, D_MOVE, D_COST = range(8)
O_ATTACK, O_CONCEDE, O_MOVE, O_FULLDEF, O_PASS, O_DEFEND, O_DONE, O_INVOKE, O_FULLHIT, O_ABSORB, O_TAKENOUT, \
    O_NEXT, O_STAY, O_ADVANTAGE, O_NO_ASPECT, O_SUPPORT, O_OVERCOME, O_MINOR_COST, O_FAIL, O_MAJOR_COST, O_EXPLOIT, \
    O_REMOVE, O_BOOST_HIT, O_FOR_ENEMY, O_FAIL_BOOST = range(25)
(R_T_CONCEDE, R_T_ATTACK, R_T_STEP, R_T_FULLDEF, R_T_NOTHING, R_R_CONCEDE, R_R_DEFEND, R_I_ENOUGH, R_I_HOLDS,
 R_I_CANNOT, R_I_FREE, R_I_NOOWN, R_I_PAID, R_S_FULL, R_A_LEAST, R_A_NOTHING, R_N_ALLY, R_N_WEAKEST, R_M_STAYS,
 R_M_CLOSES, R_M_HOLDS, R_T_SMASH, R_T_BACKS, R_T_SHOOTS, R_M_FALLS, R_T_SETS_UP, R_C_NOTHING, R_T_GUARDS,
 R_T_CASHES, R_T_SETS_UP_ON, R_T_FOCUSES, R_I_CASHES, R_N_HOLDER, R_T_BACKS_UP, R_T_SETS_UP_FOR, R_T_FORCES,
 R_C_MINOR, R_C_MAJOR, R_C_HURT, R_RANDOM, R_AGENT, R_T_STACKS, R_I_STACKS) = range(43)
# removal reasons
WHY_USED, WHY_EXPIRED, WHY_CLEARED, WHY_REPLACED = 0, 1, 2, 3
SEV_EXTREME = 3  # tables.SEVERITIES
# why a passive opposition (E_PASSIVE's fifth field)
WHY_PASSIVE_TEMPLATE, WHY_PASSIVE_EXPLOIT, WHY_PASSIVE_CLEAR = 0, 1, 2
# overcome outcomes (overcome.overcome_outcome)
OUT_FAIL, OUT_COST, OUT_SUCCESS, OUT_STYLE = range(4)

# why an episode was handed to the reference engine
BAIL_NONE, BAIL_ASPECTS, BAIL_EVENTS, BAIL_SUPPORT, BAIL_PAUSE, BAIL_ANSWER, BAIL_HORIZON = range(7)
BAIL_REASONS = ("", "too many aspects", "too many events", "more pledges of support than characters",
                "paused for an answer", "an answer outside the options", "stopped at the look-ahead's horizon")

NEG = -1


# -- events -----------------------------------------------------------------------------
# The writers below have explicit signatures (all int64): numba would otherwise compile one copy
# per combination of constant arguments at their call sites (100 of _emit, 51 of _decision).
EV_T, G_T = "int64[:, ::1]", "int64[::1]"


@njit(f"void({EV_T}, {G_T}, int64, UniTuple(int64, 11))", cache=True, _nrt=False)
def _emit(EV, G, code, a):
    """An event row: its code, then its 11 fields (``a``: decode.py names them per code)."""
    n = G[G_NEV]
    if n >= EV.shape[0]:
        G[G_BAIL] = BAIL_EVENTS
        return
    EV[n, 0] = code
    for j in range(11):
        EV[n, 1 + j] = a[j]
    G[G_NEV] = n + 1


@njit(f"void({EV_T}, {G_T}, int64, int64, int64, int64, int64, int64, int64, int64, int64, int64)", cache=True,
      _nrt=False)
def _decision(EV, G, kind, actor, index, reason, okind, x1, x2, x3, x4, x5):
    """A decision taken; its last field is the last aspect id made before it (the environment's
    aspect slots follow every decision: fate_env/environment/fast_table.py)."""
    _emit(EV, G, E_DECISION, (kind, actor, index, reason, okind, x1, x2, x3, x4, x5, G[G_ASEQ]))


# -- who is in the fight (Table.active_ids, foes_of, allies_of, is_over) ------------------
@njit(cache=True, _nrt=False)
def _over(SC, CH):
    side = NEG
    for c in range(SC.shape[0]):
        if CH[c, C_STATUS] == ACTIVE:
            if side == NEG:
                side = SC[c, S_SIDE]
            elif SC[c, S_SIDE] != side:
                return False
    return True


@njit(cache=True, _nrt=False)
def _foes(SC, CH, c, out):
    n = 0
    side = SC[c, S_SIDE]
    for x in range(SC.shape[0]):
        if CH[x, C_STATUS] == ACTIVE and SC[x, S_SIDE] != side:
            out[n] = x
            n += 1
    return n


@njit(cache=True, _nrt=False)
def _allies(SC, CH, c, out):
    n = 0
    side = SC[c, S_SIDE]
    for x in range(SC.shape[0]):
        if x != c and CH[x, C_STATUS] == ACTIVE and SC[x, S_SIDE] == side:
            out[n] = x
            n += 1
    return n


@njit(cache=True, _nrt=False)
def _first_active(CH):
    for x in range(CH.shape[0]):
        if CH[x, C_STATUS] == ACTIVE:
            return x
    return NEG


# -- ratings (rolls.stunt_bonus, holds, base, best_skill) --------------------------------
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


@njit(cache=True, _nrt=False)
def _base(SK, ST, CH, A, c, skill, action, target):
    """(rating, stunt bonus, teamwork bonus, full defense bonus, 1 + the teamwork's leader or 0
    when c leads) — rolls.base: the best-rated supporter still in the fight leads when it
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
    return rating, stunt, tw, fd, (leader + 1 if leader != c else 0)


@njit(cache=True, _nrt=False)
def _defend_skill(SK, ST, CH, A, P, target, attacker, reach):
    """The first skill of the highest effective rating among the reach's defend skills."""
    if reach == 0:  # melee: Athletics, Fight
        a = P[P_ATHLETICS]
        b = P[P_FIGHT]
        ea = SK[target, a]
        eb = SK[target, b]
        if CH[target, C_NSTUNT]:
            ea += _stunt(ST, CH, A, target, a, ACT_DEFEND, attacker)
            eb += _stunt(ST, CH, A, target, b, ACT_DEFEND, attacker)
        return a if ea >= eb else b
    if reach == 1:
        return P[P_ATHLETICS]
    return P[P_WILL]


@njit(cache=True, _nrt=False)
def _reach_of(P, c, skill):
    """The reach of ``c``'s attacks with ``skill`` (reach.reach_of): melee unless listed."""
    at = NP + ATK_W * c
    for j in range(P[at]):
        if P[at + 1 + 2 * j] == skill:
            return P[at + 2 + 2 * j]
    return 0


@njit(cache=True, _nrt=False)
def _can_reach(P, SIGHT, CH, c, skill, here, target):
    reach = _reach_of(P, c, skill)
    if reach == 2:
        return True
    tz = CH[target, C_ZONE]
    if reach == 0:
        return tz == here
    d = SIGHT[here, tz]
    return d >= 0 and d <= P[P_SHOOT]


@njit(cache=True, _nrt=False)
def _attack_skills(P, c, out):
    """``c``'s attack skills in this scene (reach.attack_skills): the track's, then its stunts'."""
    at = NP + ATK_W * c
    for j in range(P[at]):
        out[j] = P[at + 1 + 2 * j]
    return P[at]


@njit(cache=True, _nrt=False)
def _attack_rating(SK, ST, CH, A, c, skill, target):
    r, s, tw, fd, _ = _base(SK, ST, CH, A, c, skill, ACT_ATTACK, target)
    return r + s + tw + fd


@njit(cache=True, _nrt=False)
def _defense_rating(SK, ST, CH, A, P, target, attacker, skill):
    d = _defend_skill(SK, ST, CH, A, P, target, attacker, _reach_of(P, attacker, skill))
    r, s, tw, fd, _ = _base(SK, ST, CH, A, target, d, ACT_DEFEND, attacker)
    return r + s + tw + fd


# -- basic's danger test (BasicController._danger, _should_concede) ------------------------
@njit(cache=True, _nrt=False)
def _may_concede(CH, P, me):
    """The cheap half of the concession test: a policy that never concedes, or an unhurt
    character under ``hurt_first``, needs no danger estimate (a minion conceding once marked
    always looks)."""
    pol = P[P_POL] + POL_W * me
    if P[pol + POL_KIND] == PK_MINION and P[pol + POL_MARKED] != 0:
        return True
    return P[pol + POL_MARGIN] > -99 and (P[pol + POL_HURT] == 0 or _holds(CH, me))


@njit(cache=True, _nrt=False)
def _kind(P, c):
    """The kind of policy playing ``c`` (PK_*)."""
    return P[P[P_POL] + POL_W * c + POL_KIND]


@njit(cache=True, _nrt=False)
def _asks(P, c, dkind):
    """``c``'s decisions of kind ``dkind`` are answered from outside (an agent)."""
    return (P[P[P_POL] + POL_W * c + POL_ASKS] >> dkind) & 1 != 0


@njit(cache=True, _nrt=False)
def _draws(P, c, dkind):
    """``c``'s decision of kind ``dkind`` is drawn (random) or answered from outside, not scripted."""
    return _kind(P, c) == PK_RANDOM or _asks(P, c, dkind)


@njit(cache=True, _nrt=False)
def _why(P, c, dkind):
    """The reason a drawn decision gives: random's "at random", an agent's none."""
    return R_AGENT if _asks(P, c, dkind) else R_RANDOM


@njit(f"void({EV_T}, {G_T}, int64, int64, int64, int64, int64, int64, int64)", cache=True, _nrt=False)
def _opt(EV, G, i, okind, x1, x2, x3, x4, x5):
    """Option ``i`` of a paused decision, written past the events (decode._option reads it)."""
    r = G[G_NEV] + i
    if r < EV.shape[0]:
        EV[r, 0] = 0
        EV[r, 5] = okind
        EV[r, 6] = x1
        EV[r, 7] = x2
        EV[r, 8] = x3
        EV[r, 9] = x4
        EV[r, 10] = x5


@njit(cache=True, _nrt=False)
def _paused_two(EV, G, o0, o1):
    """A two-option decision paused: write its options."""
    if G[G_BAIL] == BAIL_PAUSE:
        _opt(EV, G, 0, o0, 0, 0, 0, 0, 0)
        _opt(EV, G, 1, o1, 0, 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def _play_out(P, RNG, G):
    """A look-ahead's copy has taken its last answer: from here every seat plays its policy
    (``P`` is the copy's own) and the dice are the copy's own (the third block of ``RNG``), as
    ``Engine.fork`` gives a copy its own generator."""
    for c in range(G[G_PLAYOUT]):
        P[P[P_POL] + POL_W * c + POL_ASKS] = 0
    for j in range(RNG_SIZE):
        RNG[j] = RNG[2 * RNG_SIZE + j]
    G[G_PLAYOUT] = NEG


@njit(cache=True, _nrt=False)
def _draw(P, RNG, G, who, dkind, n):
    """The option ``who`` takes among ``n``: random's draw, or an agent's next answer. With no
    answer left the episode pauses (-1; G_BAIL = BAIL_PAUSE, the decision in G_PKIND, G_PACTOR,
    G_PCOUNT): the caller replays it from its seed with one more answer."""
    if not _asks(P, who, dkind):
        return _pick_index(RNG, n)
    pos = G[G_ANSPOS]
    if pos < G[G_NANS]:
        G[G_ANSPOS] = pos + 1
        a = G[NG + pos]
        if 0 <= a < n:
            if G[G_PLAYOUT] > 0 and pos + 1 == G[G_NANS]:
                _play_out(P, RNG, G)
            return a
        G[G_BAIL] = BAIL_ANSWER
    else:
        G[G_BAIL] = BAIL_PAUSE
    G[G_PKIND] = dkind
    G[G_PACTOR] = who
    G[G_PCOUNT] = n
    return NEG


@njit(cache=True, _nrt=False)
def _holds(CH, me):
    """Already hurt: a consequence taken, or a mob that has lost members."""
    return CH[me, C_CTAKEN] != 0 or (CH[me, C_MOB] != 0 and CH[me, C_MEMBERS] < CH[me, C_COUNT])


@njit(cache=True, _nrt=False)
def _should_concede(T, W, me, B):
    """basic._should_concede with ``me``'s parameters (and minion's override, tactics.py)."""
    SC, P = T.SC, T.P
    MARK, CH = W.MARK, W.CH
    pol = P[P_POL] + POL_W * me
    if P[pol + POL_KIND] == PK_MINION and P[pol + POL_MARKED] != 0:
        marked = False
        for b in range(SC[me, S_NBOX]):
            if MARK[me, b] != 0:
                marked = True
        lost = CH[me, C_MOB] != 0 and CH[me, C_MEMBERS] * 2 <= CH[me, C_COUNT]
        if marked or lost or CH[me, C_CTAKEN] != 0:
            return True
    margin = P[pol + POL_MARGIN]
    if margin <= -99:
        return False
    if P[pol + POL_HURT] != 0 and not _holds(CH, me):
        return False
    found, worst = _danger(T, W, me, pol, B)
    return found and worst >= margin


@njit(cache=True, _nrt=False)
def _danger(T, W, me, pol, B):
    """BasicController._danger: (a foe can hurt ``me``, how far the likeliest such hit goes past
    what ``me`` can absorb), with the likely roll of the policy at ``pol``."""
    SC, SK, ST, SLOTS, P, SIGHT, HOPS = T.SC, T.SK, T.ST, T.SLOTS, T.P, T.SIGHT, T.HOPS
    MARK, SLOTA, CH, A = W.MARK, W.SLOTA, W.CH, W.A
    buf, skills = B.buf, B.skills
    likely = P[pol + POL_LIKELY]
    nf = _foes(SC, CH, me, buf)
    worst = 0
    found = False
    cap = _cap(SC, SLOTS, MARK, SLOTA, CH, P, me)
    for i in range(nf):
        foe = buf[i]
        na = _attack_skills(P, foe, skills)
        for j in range(na):
            skill = skills[j]
            near = _can_reach(P, SIGHT, CH, foe, skill, CH[foe, C_ZONE], me)
            if not near:
                d = HOPS[CH[foe, C_ZONE], CH[me, C_ZONE]]
                if d == 0 or d < 0:  # basic's `(distance or 9) <= 1`: 0 and None count as 9
                    d = 9
                near = d <= 1
            if near:
                hit = _attack_rating(SK, ST, CH, A, foe, skill, me) + likely - \
                    _defense_rating(SK, ST, CH, A, P, me, foe, skill)
                if hit > 0:
                    over = hit - cap
                    if not found or over > worst:
                        worst = over
                        found = True
    return found, worst


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


@njit(cache=True, _nrt=False)
def _nth_overcome(ZR, ZRN, here, moves, nm, n):
    """The n-th overcome move's zone (overcome_move.offer: a reachable zone the free move does not
    reach, in the map's order), or NEG past the last."""
    q = 0
    for i in range(ZRN[here]):
        z = ZR[here, i]
        inside = False
        for m in range(nm):
            if moves[m] == z:
                inside = True
        if not inside:
            if q == n:
                return z
            q += 1
    return NEG


@njit(cache=True, _nrt=False)
def _pledge(CH, EV, G, actor, ally):
    """support.run: ``actor`` helps ``ally``'s next action (False: the pledge list is full)."""
    if CH[ally, C_NSUP] >= CH.shape[0]:
        G[G_BAIL] = BAIL_SUPPORT
        return False
    CH[ally, NCF + CH[ally, C_NSUP]] = actor
    CH[ally, C_NSUP] += 1
    _emit(EV, G, E_SUPPORT, (actor, ally, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    return True


@njit(cache=True, _nrt=False)
def _nth_aspect(SC, CH, A, AL, G, actor, n, removable):
    """The n-th aspect ``actor`` could take advantage of (aspects.exploitable) or, with
    ``removable``, clear (aspects.removable), in the table's order."""
    here = CH[actor, C_ZONE]
    q = 0
    for i in range(G[G_NAL]):
        aid = AL[i]
        kind = A[aid, A_KIND]
        owner = A[aid, A_OWNER]
        z = A[aid, A_ZONE]
        if removable:
            ok = False
            if kind == K_ADVANTAGE or (kind == K_SITUATION and A[aid, A_CREATOR] != NEG):
                if owner != NEG:
                    ok = CH[owner, C_STATUS] == ACTIVE and SC[owner, S_SIDE] == SC[actor, S_SIDE]
                else:
                    ok = z == NEG or z == here
        else:
            ok = kind != K_BOOST and (owner == NEG or CH[owner, C_STATUS] == ACTIVE) and (z == NEG or z == here)
        if ok:
            if q == n:
                return aid
            q += 1
    return NEG


@njit(cache=True, _nrt=False)
def _holds_free(AF, AL, G, c):
    """``c`` holds a free invoke on some aspect in play."""
    for i in range(G[G_NAL]):
        if AF[AL[i], c] > 0:
            return True
    return False


@njit(cache=True, _nrt=False)
def _full_defense(CH, EV, G, actor):
    CH[actor, C_FULLDEF] = 1
    CH[actor, C_DEFONFULL] = 0
    _emit(EV, G, E_FULLDEF, (actor, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))


@njit(cache=True, _nrt=False)
def _cap(SC, SLOTS, MARK, SLOTA, CH, P, c):
    """What ``c`` can still absorb on the scene's track (Absorber.capacity): Condensed, every
    free box; Core, the biggest free box; and the free consequence slots for the track."""
    n = 0
    core = P[P_STYLE] == STYLE_CORE
    for b in range(SC[c, S_NBOX]):
        if MARK[c, b] == 0:
            if not core:
                n += 1
            elif SC[c, NSF + b] > n:
                n = SC[c, NSF + b]
    for k in range(SC[c, S_NSLOT]):
        if SLOTA[c, k] == NEG:
            tr = SLOTS[c, k, L_TRACK]
            if tr == NEG or tr == P[P_TRACK]:
                n += SLOTS[c, k, L_VALUE]
    if SC[c, S_MOB] != 0:  # stress.Mob.capacity: each member still standing behind this one
        n += (CH[c, C_MEMBERS] - 1) * (SC[c, S_NBOX] + 1)
    return n


# -- aspects (aspects.new_aspect, boost, expire_boosts) ---------------------------------
@njit(cache=True, _nrt=False)
def _new_aspect(A, AF, AL, G, P, name, kind, owner, zone, creator):
    aid = G[G_ASEQ] + 1
    if aid >= P[P_AMAX]:
        G[G_BAIL] = BAIL_ASPECTS
        return NEG
    G[G_ASEQ] = aid
    A[aid, A_KIND] = kind
    A[aid, A_OWNER] = owner
    A[aid, A_ZONE] = zone
    A[aid, A_CREATOR] = creator
    A[aid, A_NAME] = name
    A[aid, A_BTURN] = 0
    A[aid, A_ALIVE] = 1
    A[aid, A_SKILL] = NEG
    A[0, 0] = aid
    for h in range(AF.shape[1]):
        AF[aid, h] = 0
    AL[G[G_NAL]] = aid
    G[G_NAL] += 1
    return aid


@njit(cache=True, _nrt=False)
def _drop_aspect(A, AL, G, aid):
    A[aid, A_ALIVE] = 0
    n = G[G_NAL]
    j = 0
    for i in range(n):
        if AL[i] != aid:
            AL[j] = AL[i]
            j += 1
    G[G_NAL] = j


@njit(cache=True, _nrt=False)
def _boost(A, AF, AL, G, P, EV, holder, name):
    aid = _new_aspect(A, AF, AL, G, P, name, K_BOOST, NEG, NEG, holder)
    if aid == NEG:
        return
    AF[aid, holder] = 1
    A[aid, A_BTURN] = G[G_TURNSEQ]
    _emit(EV, G, E_BOOST, (name, aid, holder, 0, 0, 0, 0, 0, 0, 0, 0))


@njit(cache=True, _nrt=False)
def _expire_boosts(A, AF, AL, G, EV, actor):
    i = 0
    while i < G[G_NAL]:
        aid = AL[i]
        if A[aid, A_KIND] == K_BOOST and AF[aid, actor] > 0 and A[aid, A_BTURN] < G[G_TURNSEQ]:
            _drop_aspect(A, AL, G, aid)
            _emit(EV, G, E_REMOVED, (aid, A[aid, A_NAME], WHY_EXPIRED, 0, 0, 0, 0, 0, 0, 0, 0))
        else:
            i += 1


# -- invokes (invokes.invoke_options, invoke_budget, apply_invoke, basic._invoke) --------
@njit(cache=True, _nrt=False)
def _payers(SC, CH, G, who, allies, nal, out):
    """Who may pay a fate point for ``who``'s invoke: itself (NPCs: the GM pool), PC allies."""
    if SC[who, S_NPC] != 0:
        if G[G_GMPOOL] > 0:
            out[0] = who
            return 1
        return 0
    n = 0
    if CH[who, C_FP] > 0:
        out[0] = who
        n = 1
    for i in range(nal):
        p = allies[i]
        if SC[p, S_NPC] == 0 and CH[p, C_FP] > 0:
            out[n] = p
            n += 1
    return n


@njit(cache=True, _nrt=False)
def _visible_here(A, CH, R, aid):
    owner = A[aid, A_OWNER]
    if owner != NEG and CH[owner, C_STATUS] != ACTIVE:
        return False
    z = A[aid, A_ZONE]
    return z == NEG or z == R[R_Z1] or z == R[R_Z2]


@njit(cache=True, _nrt=False)
def _may_pay(SC, A, aid, payer, side):
    """A fate point buys your own aspect, a situation aspect, or an opponent's (never a friend's)."""
    kind = A[aid, A_KIND]
    owner = A[aid, A_OWNER]
    personal = (kind == K_CHARACTER or kind == K_CONSEQUENCE) and owner != NEG
    return (not personal) or owner == payer or SC[owner, S_SIDE] != side


NOT_HERE = -2  # _holder_here: the aspect is not in play for this roll


@njit(cache=True, _nrt=False)
def _holder_here(CH, A, AF, R, aid, who, allies, nal):
    """For an aspect and the roll in progress: the first of ``who`` and its allies holding a free
    invoke on it (NEG: none), or NOT_HERE when it is not in play here (its owner has left, or it
    sits in another zone)."""
    owner = A[aid, A_OWNER]
    if owner != NEG and CH[owner, C_STATUS] != ACTIVE:
        return NOT_HERE
    z = A[aid, A_ZONE]
    if z != NEG and z != R[R_Z1] and z != R[R_Z2]:
        return NOT_HERE
    if AF[aid, who] > 0:
        return who
    for j in range(nal):
        if AF[aid, allies[j]] > 0:
            return allies[j]
    return NEG


@njit(cache=True, _nrt=False)
def _invoke_scan(T, W, B, who, neffects, nal, npay, owned_by):
    """Walk ``who``'s invoke options in the reference's order. Returns the option count; fills
    pick_free = [index, aspect, holder] of the first free +2, pick_free[3:6] the same for the
    first free +2 on an aspect of ``owned_by`` (the tactician's), pick_free[6:8] = [index, aspect]
    of the first free +2 ``who`` holds itself (the stacker's), and pick_paid = [index, aspect] of
    the first paid +2 paid by ``who`` itself."""
    SC = T.SC
    CH, A, AF, AL, G, INV = W.CH, W.A, W.AF, W.AL, W.G, W.INV
    R, allies, payers, pick_free, pick_paid = B.R, B.allies, B.payers, B.pick_free, B.pick_paid
    side = SC[who, S_SIDE]
    stamp = G[G_ROLLNO]
    n = 0
    pick_free[0] = NEG
    pick_free[3] = NEG
    pick_free[6] = NEG
    pick_paid[0] = NEG
    for i in range(G[G_NAL]):
        aid = AL[i]
        holder = _holder_here(CH, A, AF, R, aid, who, allies, nal)
        if holder == NOT_HERE:
            continue
        owner = A[aid, A_OWNER]
        if holder != NEG:
            if pick_free[0] == NEG:
                pick_free[0] = n + 1
                pick_free[1] = aid
                pick_free[2] = holder
            if pick_free[3] == NEG and owner == owned_by and owned_by != NEG:
                pick_free[3] = n + 1
                pick_free[4] = aid
                pick_free[5] = holder
            if pick_free[6] == NEG and holder == who:
                pick_free[6] = n + 1
                pick_free[7] = aid
            n += neffects
        kind = A[aid, A_KIND]
        if npay > 0 and kind != K_BOOST and INV[side, aid] != stamp:
            # a fate point buys your own aspect, a situation aspect, or an opponent's (_may_pay)
            personal = (kind == K_CHARACTER or kind == K_CONSEQUENCE) and owner != NEG
            for j in range(npay):
                p = payers[j]
                if (not personal) or owner == p or SC[owner, S_SIDE] != side:
                    if p == who and pick_paid[0] == NEG:
                        pick_paid[0] = n + 1
                        pick_paid[1] = aid
                    n += neffects
    return n


@njit(cache=True, _nrt=False)
def _invoke_at(T, W, B, who, neffects, nal, npay, index, out):
    """The invoke option at ``index`` (1-based: 0 is "done") in the reference's order, as
    out = [aspect, payer, free, reroll] (the walk of ``_invoke_scan``)."""
    SC = T.SC
    CH, A, AF, AL, G, INV = W.CH, W.A, W.AF, W.AL, W.G, W.INV
    R, allies, payers = B.R, B.allies, B.payers
    side = SC[who, S_SIDE]
    stamp = G[G_ROLLNO]
    n = 0
    for i in range(G[G_NAL]):
        aid = AL[i]
        holder = _holder_here(CH, A, AF, R, aid, who, allies, nal)
        if holder == NOT_HERE:
            continue
        owner = A[aid, A_OWNER]
        if holder != NEG:
            if index <= n + neffects:
                out[0] = aid
                out[1] = holder
                out[2] = 1
                out[3] = index - n - 1
                return
            n += neffects
        kind = A[aid, A_KIND]
        if npay > 0 and kind != K_BOOST and INV[side, aid] != stamp:
            personal = (kind == K_CHARACTER or kind == K_CONSEQUENCE) and owner != NEG
            for j in range(npay):
                p = payers[j]
                if (not personal) or owner == p or SC[owner, S_SIDE] != side:
                    if index <= n + neffects:
                        out[0] = aid
                        out[1] = p
                        out[2] = 0
                        out[3] = index - n - 1
                        return
                    n += neffects


@njit(cache=True, _nrt=False)
def _budget(SC, CH, A, AF, AL, G, R, INV, who, allies, nal):
    """(free invokes held by who and allies here, fate points, aspects payable) — invoke_budget."""
    side = SC[who, S_SIDE]
    stamp = G[G_ROLLNO]
    fp = G[G_GMPOOL] if SC[who, S_NPC] != 0 else CH[who, C_FP]
    free = 0
    payable = 0
    for i in range(G[G_NAL]):
        aid = AL[i]
        owner = A[aid, A_OWNER]
        if owner != NEG and CH[owner, C_STATUS] != ACTIVE:
            continue
        z = A[aid, A_ZONE]
        if z != NEG and z != R[R_Z1] and z != R[R_Z2]:
            continue
        free += AF[aid, who]
        for j in range(nal):
            free += AF[aid, allies[j]]
        kind = A[aid, A_KIND]
        if fp != 0 and kind != K_BOOST and INV[side, aid] != stamp:
            personal = (kind == K_CHARACTER or kind == K_CONSEQUENCE) and owner != NEG
            if (not personal) or owner == who or SC[owner, S_SIDE] != side:
                payable += 1
    return free, fp, payable


@njit(cache=True, _nrt=False)
def _apply_invoke(T, W, B, EV, who, aid, payer, free, reroll):
    SC = T.SC
    CH, A, AF, AL, G, INV, RNG = W.CH, W.A, W.AF, W.AL, W.G, W.INV, W.RNG
    R, faces = B.R, B.faces
    hostile = NEG
    if free:
        AF[aid, payer] -= 1
    else:
        if SC[payer, S_NPC] != 0:
            G[G_GMPOOL] -= 1
            G[G_GMSPENT] += 1
        else:
            CH[payer, C_FP] -= 1
            CH[payer, C_FPSPENT] += 1
        kind = A[aid, A_KIND]
        owner = A[aid, A_OWNER]
        if (kind == K_CHARACTER or kind == K_CONSEQUENCE) and owner != NEG and SC[owner, S_SIDE] != SC[who, S_SIDE]:
            hostile = owner
            CH[owner, C_OWED] += 1
        INV[SC[who, S_SIDE], aid] = G[G_ROLLNO]
        CH[payer, C_PAID] += 1
    CH[who, C_INVOKES] += 1
    if reroll:  # new dice for the invoker's side of the roll
        s = _roll(RNG, G, faces)
        if who == R[R_ACTOR]:
            R[R_FACES] = s
        else:
            R[R_OFACES] = s
        _emit(EV, G, E_INVOKED,
              (who, aid, payer, 1 if free else 0, hostile, A[aid, A_NAME], 1, faces[0], faces[1], faces[2], faces[3]))
    else:
        if who == R[R_ACTOR]:
            R[R_BONUS] += 2
        else:
            R[R_OBONUS] += 2
        _emit(EV, G, E_INVOKED, (who, aid, payer, 1 if free else 0, hostile, A[aid, A_NAME], 0, 0, 0, 0, 0))
    if A[aid, A_KIND] == K_BOOST:
        left = 0
        for h in range(AF.shape[1]):
            left += AF[aid, h]
        if left == 0:
            _drop_aspect(A, AL, G, aid)
            _emit(EV, G, E_REMOVED, (aid, A[aid, A_NAME], WHY_USED, 0, 0, 0, 0, 0, 0, 0, 0))


@njit(cache=True, _nrt=False)
def _invoke_rounds(T, W, B, EV, attack, active):
    """Roller, then opposer, in turns until both stop (invokes.invoke_turns) — basic's answers,
    the tactician's (it cashes every free invoke on its attack's target first) and the stacker's
    (it spends every free invoke it holds on its own attack). ``active``:
    the opposition rolled (else a passive difficulty's voice, who may only add +2)."""
    SC, P = T.SC, T.P
    CH, A, AF, AL, G, INV, RNG = W.CH, W.A, W.AF, W.AL, W.G, W.INV, W.RNG
    R, allies, payers, pick_free, pick_paid = B.R, B.allies, B.payers, B.pick_free, B.pick_paid
    G[G_ROLLNO] += 1
    seats0 = R[R_ACTOR]
    seats1 = R[R_OPP]
    nseats = 2 if seats1 != NEG else 1
    passes = 0
    i = 0
    while passes < nseats:
        who = seats0 if i % nseats == 0 else seats1
        i += 1
        mine = who == R[R_ACTOR]
        neffects = 2 if mine or active else 1  # +2 and reroll; a passive roll's voice: +2 only
        tactician = mine and attack and P[P[P_POL] + POL_W * who + POL_KIND] == PK_TACTICIAN
        stacker = mine and attack and P[P[P_POL] + POL_W * who + POL_KIND] == PK_STACKER
        nal = _allies(SC, CH, who, allies)
        npay = _payers(SC, CH, G, who, allies, nal, payers)
        n = _invoke_scan(T, W, B, who, neffects, nal, npay, R[R_OPP] if tactician else NEG)
        if n == 0:
            passes += 1
            continue
        if _draws(P, who, D_INVOKE):  # RandomController (or an agent): "done" or any invoke
            idx = _draw(P, RNG, G, who, D_INVOKE, n + 1)
            if idx < 0:
                if G[G_BAIL] == BAIL_PAUSE:  # the context (invokes.roll_context), then the options: done, every invoke
                    effort = R[R_BASE] + R[R_FACES] + R[R_BONUS]
                    opposition = R[R_OBASE] + R[R_OFACES] + R[R_OBONUS]
                    G[G_PEFFORT] = effort
                    G[G_POPP] = opposition
                    G[G_PMARGIN] = effort - opposition if mine else opposition - effort
                    G[G_PROLLER] = 1 if mine else 0
                    _opt(EV, G, 0, O_DONE, 0, 0, 0, 0, 0)
                    for q in range(1, n + 1):
                        _invoke_at(T, W, B, who, neffects, nal, npay, q, pick_paid)
                        _opt(EV, G, q, O_INVOKE, pick_paid[0], pick_paid[1], pick_paid[2], A[pick_paid[0], A_NAME],
                             pick_paid[3])
                return
            if idx == 0:
                _decision(EV, G, D_INVOKE, who, 0, _why(P, who, D_INVOKE), O_DONE, 0, 0, 0, 0, 0)
                passes += 1
                continue
            _invoke_at(T, W, B, who, neffects, nal, npay, idx, pick_paid)
            aid = pick_paid[0]
            _decision(EV, G, D_INVOKE, who, idx, _why(P, who, D_INVOKE), O_INVOKE, aid, pick_paid[1], pick_paid[2], A[aid, A_NAME],
                      pick_paid[3])
            _apply_invoke(T, W, B, EV, who, aid, pick_paid[1], pick_paid[2] == 1, pick_paid[3] == 1)
            passes = 0
            if G[G_BAIL] != BAIL_NONE:
                return
            continue
        if tactician and pick_free[3] != NEG:  # TacticianController._invoke
            aid = pick_free[4]
            _decision(EV, G, D_INVOKE, who, pick_free[3], R_I_CASHES, O_INVOKE, aid, pick_free[5], 1, A[aid, A_NAME], 0)
            _apply_invoke(T, W, B, EV, who, aid, pick_free[5], True, False)
            passes = 0
            if G[G_BAIL] != BAIL_NONE:
                return
            continue
        if stacker and pick_free[6] != NEG:  # StackerController._invoke: the whole stack into the blow
            aid = pick_free[7]
            _decision(EV, G, D_INVOKE, who, pick_free[6], R_I_STACKS, O_INVOKE, aid, who, 1, A[aid, A_NAME], 0)
            _apply_invoke(T, W, B, EV, who, aid, who, True, False)
            passes = 0
            if G[G_BAIL] != BAIL_NONE:
                return
            continue
        # basic._invoke
        effort = R[R_BASE] + R[R_FACES] + R[R_BONUS]
        opposition = R[R_OBASE] + R[R_OFACES] + R[R_OBONUS]
        margin = effort - opposition if mine else opposition - effort
        choice = 0
        reason = R_I_CANNOT
        if mine:
            goal = 1 if attack else 0
            if margin >= goal:
                reason = R_I_ENOUGH
                need = 0
            else:
                need = (goal - margin + 1) // 2
        else:
            if margin >= 0:
                reason = R_I_HOLDS
                need = 0
            else:
                need = (-margin + 1) // 2
        if need > 0:
            free, fp, payable = _budget(SC, CH, A, AF, AL, G, R, INV, who, allies, nal)
            fp = fp - P[P[P_POL] + POL_W * who + POL_RESERVE]
            if fp < 0:
                fp = 0
            if free + min(fp, payable) < need:
                reason = R_I_CANNOT
            elif pick_free[0] != NEG:
                choice = pick_free[0]
                reason = R_I_FREE
            elif pick_paid[0] == NEG or fp <= 0:
                reason = R_I_NOOWN
            else:
                choice = pick_paid[0]
                reason = R_I_PAID
        if choice == 0:
            _decision(EV, G, D_INVOKE, who, 0, reason, O_DONE, 0, 0, 0, 0, 0)
            passes += 1
        elif reason == R_I_FREE:
            aid = pick_free[1]
            _decision(EV, G, D_INVOKE, who, choice, reason, O_INVOKE, aid, pick_free[2], 1, A[aid, A_NAME], 0)
            _apply_invoke(T, W, B, EV, who, aid, pick_free[2], True, False)
            passes = 0
        else:
            aid = pick_paid[1]
            _decision(EV, G, D_INVOKE, who, choice, reason, O_INVOKE, aid, who, 0, A[aid, A_NAME], 0)
            _apply_invoke(T, W, B, EV, who, aid, who, False, False)
            passes = 0
        if G[G_BAIL] != BAIL_NONE:
            return


# -- dice --------------------------------------------------------------------------------
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


# -- harm (harm.harm, stress.absorb_plans for Condensed boxes, basic._absorb) -------------
@njit(cache=True, _nrt=False)
def _harm(T, W, EV, target, shifts, source, B):
    SC, SLOTS, P = T.SC, T.SLOTS, T.P
    MARK, SLOTA, CH, A, AF, AL, G, RNG = W.MARK, W.SLOTA, W.CH, W.A, W.AF, W.AL, W.G, W.RNG
    plans, usable = B.plans, B.usable
    track = P[P_TRACK]
    _emit(EV, G, E_HIT, (target, source, shifts, track, 0, 0, 0, 0, 0, 0, 0))
    if SC[target, S_MOB] != 0:
        _mob_hit(SC, MARK, CH, G, P, EV, target, shifts, source)
        return
    # usable slots, in slot order
    nu = 0
    for k in range(SC[target, S_NSLOT]):
        if SLOTA[target, k] == NEG:
            tr = SLOTS[target, k, L_TRACK]
            if tr == NEG or tr == track:
                usable[nu] = k
                nu += 1
    nfree = 0
    for b in range(SC[target, S_NBOX]):
        if MARK[target, b] == 0:
            nfree += 1
    # every combination of usable slots, in itertools.combinations order (by size, then lexicographic)
    np_ = 0
    for size in range(nu + 1):
        for mask in range(1 << nu):
            if _popcount(mask) != size:
                continue
            total = 0
            vmin = 1 << 30
            for j in range(nu):
                if mask & (1 << j):
                    v = SLOTS[target, usable[j], L_VALUE]
                    total += v
                    if v < vmin:
                        vmin = v
            rem = shifts - total
            if rem <= 0:
                if size > 0 and total - vmin < shifts:
                    np_ = _plan(plans, np_, size, total, 0, _lexkey(mask, nu), mask, NEG, 0)
                continue
            if P[P_STYLE] == STYLE_CONDENSED:  # any rem free boxes (stress.Condensed.box_options)
                if nfree >= rem:
                    np_ = _plan(plans, np_, size, total, rem, _lexkey(mask, nu), mask, NEG, rem)
                continue
            # Core: one box of exactly rem, else one of each higher value (stress.Core.box_options),
            # kept if minimal: no consequence in the plan could be dropped
            exact = NEG
            for b in range(SC[target, S_NBOX]):
                if MARK[target, b] == 0 and SC[target, NSF + b] == rem:
                    exact = b
                    break
            seen = 0
            for b in range(SC[target, S_NBOX]):
                if MARK[target, b] != 0:
                    continue
                v = SC[target, NSF + b]
                if exact != NEG:
                    if b != exact:
                        continue
                elif v <= rem or (seen >> v) & 1:
                    continue
                seen |= 1 << v
                minimal = True
                for j in range(nu):
                    if mask & (1 << j) and v + total - SLOTS[target, usable[j], L_VALUE] >= shifts:
                        minimal = False
                if minimal:
                    np_ = _plan(plans, np_, size, total, v, _lexkey(mask, nu), mask, b, 1)
    # the reference's order: combinations order, then a stable sort by (slots, total, boxes)
    _sort_plans(plans, np_)
    if np_ == 0:  # only "taken out": taken without asking
        _taken_out(CH, EV, G, target, source)
        return
    reason = R_A_LEAST
    if _draws(P, target, D_ABSORB):  # any plan, or taken out (the last option)
        best = _draw(P, RNG, G, target, D_ABSORB, np_ + 1)
        if best < 0:
            if G[G_BAIL] == BAIL_PAUSE:  # the context, then the options: every plan, then taken out
                G[G_PSHIFTS] = shifts
                for q in range(np_):
                    bm, sm = _plan_masks(SC, MARK, target, plans, q, usable, nu)
                    _opt(EV, G, q, O_ABSORB, bm, sm, 0, 0, 0)
                _opt(EV, G, np_, O_TAKENOUT, 0, 0, 0, 0, 0)
            return
        reason = _why(P, target, D_ABSORB)
        if best == np_:
            _decision(EV, G, D_ABSORB, target, best, reason, O_TAKENOUT, 0, 0, 0, 0, 0)
            _taken_out(CH, EV, G, target, source)
            return
    else:
        best = 0  # basic._absorb: the least consequence value, then the fewest slots, then boxes
        for i in range(1, np_):
            if (plans[i, 1], plans[i, 0], plans[i, 6]) < (plans[best, 1], plans[best, 0], plans[best, 6]):
                best = i
    boxmask, slotmask = _plan_masks(SC, MARK, target, plans, best, usable, nu)
    _decision(EV, G, D_ABSORB, target, best, reason, O_ABSORB, boxmask, slotmask, 0, 0, 0)
    for b in range(SC[target, S_NBOX]):
        if boxmask & (1 << b):
            MARK[target, b] = 1
    extreme = False
    for k in range(SC[target, S_NSLOT]):
        if slotmask & (1 << k):
            sev = SLOTS[target, k, L_SEV]
            aid = _new_aspect(A, AF, AL, G, P, P[P_NAME_CONS0] + 4 * track + sev, K_CONSEQUENCE, target, NEG, source)
            if aid == NEG:
                return
            if source != NEG:
                AF[aid, source] = 1
            SLOTA[target, k] = aid
            CH[target, C_CTAKEN] += 1
            if sev == SEV_EXTREME:
                extreme = True
    _emit(EV, G, E_ABSORBED, (target, shifts, track, boxmask, slotmask, 0, 0, 0, 0, 0, 0))
    lost = SC[target, S_XREPL]
    if extreme and lost != NEG and A[lost, A_ALIVE] != 0:  # harm.replace_for_extreme
        _drop_aspect(A, AL, G, lost)
        _emit(EV, G, E_REMOVED, (lost, A[lost, A_NAME], WHY_REPLACED, 0, 0, 0, 0, 0, 0, 0, 0))


@njit(cache=True, _nrt=False)
def _plan_masks(SC, MARK, target, plans, i, usable, nu):
    """Plan ``i`` as (box mask, slot mask): Core names its one box, Condensed takes the first
    free boxes."""
    mask = plans[i, 4]
    slotmask = 0
    for j in range(nu):
        if mask & (1 << j):
            slotmask |= 1 << usable[j]
    boxmask = 0
    if plans[i, 5] != NEG:
        boxmask = 1 << plans[i, 5]
    else:
        left = plans[i, 6]
        for b in range(SC[target, S_NBOX]):
            if left == 0:
                break
            if MARK[target, b] == 0:
                boxmask |= 1 << b
                left -= 1
    return boxmask, slotmask


@njit(cache=True, _nrt=False)
def _mob_hit(SC, MARK, CH, G, P, EV, target, shifts, source):
    """stress.Mob.absorb: the member in front takes what its boxes can; a hit past them takes it
    out (its capacity and one shift more) and the rest carries to the next, fresh member."""
    total = shifts
    lost = 0
    core = P[P_STYLE] == STYLE_CORE
    nbox = SC[target, S_NBOX]
    while shifts > 0 and CH[target, C_MEMBERS] > 0:
        # absorb_whole: Condensed, any `shifts` free boxes; Core, the smallest box that holds it
        free = 0
        biggest = 0
        fit = NEG
        for b in range(nbox):
            if MARK[target, b] == 0:
                free += 1
                v = SC[target, NSF + b]
                if v > biggest:
                    biggest = v
                if v >= shifts and (fit == NEG or v < SC[target, NSF + fit]):
                    fit = b
        if not core and free >= shifts:
            left = shifts
            for b in range(nbox):
                if left > 0 and MARK[target, b] == 0:
                    MARK[target, b] = 1
                    left -= 1
            break
        if core and fit != NEG:
            MARK[target, fit] = 1
            break
        shifts -= (biggest if core else free) + 1
        CH[target, C_MEMBERS] -= 1
        lost += 1
        for b in range(nbox):
            MARK[target, b] = 0
    _emit(EV, G, E_MOBHIT, (target, total, lost, CH[target, C_MEMBERS], 0, 0, 0, 0, 0, 0, 0))
    if CH[target, C_MEMBERS] == 0:
        _taken_out(CH, EV, G, target, source)


@njit(cache=True, _nrt=False)
def _plan(plans, n, size, total, box, lex, mask, boxindex, nboxes):
    plans[n, 0] = size
    plans[n, 1] = total
    plans[n, 2] = box
    plans[n, 3] = lex
    plans[n, 4] = mask
    plans[n, 5] = boxindex
    plans[n, 6] = nboxes
    return n + 1


@njit(cache=True, _nrt=False)
def _popcount(x):
    n = 0
    while x:
        n += x & 1
        x >>= 1
    return n


@njit(cache=True, _nrt=False)
def _lexkey(mask, nu):
    """A key that orders same-size masks as itertools.combinations does (lexicographic indices)."""
    key = 0
    for j in range(nu):
        key = key * 2 + (1 if mask & (1 << j) else 0)
    return -key  # more low indices set first: (0, 1) before (0, 2) before (1, 2)


@njit(cache=True, _nrt=False)
def _sort_plans(plans, n):
    """Order by (size, lexicographic) — the generation order — then stable by (size, total, boxes)."""
    for i in range(1, n):  # insertion sort: n is small (at most 2**slots)
        j = i
        while j > 0 and (plans[j, 0], plans[j, 1], plans[j, 2], plans[j, 3]) < \
                (plans[j - 1, 0], plans[j - 1, 1], plans[j - 1, 2], plans[j - 1, 3]):
            for k in range(7):
                tmp = plans[j, k]
                plans[j, k] = plans[j - 1, k]
                plans[j - 1, k] = tmp
            j -= 1


@njit(cache=True, _nrt=False)
def _taken_out(CH, EV, G, target, source):
    CH[target, C_STATUS] = TAKEN_OUT
    CH[target, C_TOOKBY] = source
    _emit(EV, G, E_TAKENOUT, (target, source, 0, 0, 0, 0, 0, 0, 0, 0, 0))


@njit(cache=True, _nrt=False)
def _concede(CH, EV, G, c):
    CH[c, C_STATUS] = CONCEDED
    _emit(EV, G, E_CONCEDED, (c, 1 + CH[c, C_CTAKEN], 0, 0, 0, 0, 0, 0, 0, 0, 0))


@njit(cache=True, _nrt=False)
def _respond(T, W, EV, target, B):
    """steps.respond: the target defends (True) or concedes before the dice (basic's test, or
    the random policy's draw)."""
    P = T.P
    CH, RNG, G = W.CH, W.RNG, W.G
    if _draws(P, target, D_RESPOND):
        j = _draw(P, RNG, G, target, D_RESPOND, 2)
        if j < 0:
            _paused_two(EV, G, O_DEFEND, O_CONCEDE)
            return False
        concede = j == 1
        reason = _why(P, target, D_RESPOND)
    else:
        concede = _may_concede(CH, P, target) and _should_concede(T, W, target, B)
        reason = R_R_CONCEDE if concede else R_R_DEFEND
    if concede:
        _decision(EV, G, D_RESPOND, target, 1, reason, O_CONCEDE, 0, 0, 0, 0, 0)
        _concede(CH, EV, G, target)
        return False
    _decision(EV, G, D_RESPOND, target, 0, reason, O_DEFEND, 0, 0, 0, 0, 0)
    return True


@njit(cache=True, _nrt=False)
def _roll_action(T, W, B, EV, actor, action, skill, target, opposer, dskill, passive):
    """rolls.roll: ``actor``'s roll for ``action`` (``target``: the character its stunts look at,
    or NEG), then ``opposer``'s defense with ``dskill``, or with no opposer the difficulty and its
    voice: ``passive`` = (difficulty, why_arg, why_kind), E_PASSIVE saying why. True: the
    opposition rolled."""
    difficulty, why_arg, why_kind = passive
    SC, SK, ST = T.SC, T.SK, T.ST
    CH, A, G, RNG = W.CH, W.A, W.G, W.RNG
    R, faces = B.R, B.faces
    rating, stunt, tw, fd, lead = _base(SK, ST, CH, A, actor, skill, action, target)
    s = _roll(RNG, G, faces)
    _emit(EV, G, E_ROLLED,
          (actor, action, skill, rating, rating + stunt + tw + fd, faces[0], faces[1], faces[2], faces[3], stunt, fd | (tw << 8) | (lead << 16)))
    R[R_ACTOR] = actor
    R[R_BASE] = rating + stunt + tw + fd
    R[R_FACES] = s
    R[R_BONUS] = 0
    R[R_Z1] = CH[actor, C_ZONE]
    R[R_Z2] = CH[target, C_ZONE] if target != NEG else CH[actor, C_ZONE]
    R[R_OBONUS] = 0
    if opposer == NEG:
        R[R_OPP] = _voice(SC, CH, actor)
        R[R_OBASE] = difficulty
        R[R_OFACES] = 0
        _emit(EV, G, E_PASSIVE, (actor, action, difficulty, why_arg, why_kind, 0, 0, 0, 0, 0, 0))
        return False
    orating, ostunt, otw, ofd, olead = _base(SK, ST, CH, A, opposer, dskill, ACT_DEFEND, actor)
    if ofd:
        CH[opposer, C_DEFONFULL] = 1
    s = _roll(RNG, G, faces)
    _emit(EV, G, E_ROLLED,
          (opposer, ACT_DEFEND, dskill, orating, orating + ostunt + otw + ofd, faces[0], faces[1], faces[2], faces[3], ostunt, ofd | (otw << 8) | (olead << 16)))
    R[R_OPP] = opposer
    R[R_OBASE] = orating + ostunt + otw + ofd
    R[R_OFACES] = s
    return True


@njit(cache=True, _nrt=False)
def _settle(T, W, B, EV, attack, active, action, target):
    """invokes.invoke_rounds, then rolls.resolved: the margin (E_RESOLVED names ``target``, a
    target code); a defender who rolled and won by three or more gets a boost. The caller checks
    G_BAIL before reading the margin."""
    P = T.P
    CH, A, AF, AL, G = W.CH, W.A, W.AF, W.AL, W.G
    R = B.R
    _invoke_rounds(T, W, B, EV, attack, active)
    if G[G_BAIL] != BAIL_NONE:
        return 0
    effort = R[R_BASE] + R[R_FACES] + R[R_BONUS]
    opposition = R[R_OBASE] + R[R_OFACES] + R[R_OBONUS]
    m = effort - opposition
    _emit(EV, G, E_RESOLVED, (R[R_ACTOR], action, effort, opposition, m, target, 0, 0, 0, 0, 0))
    if active and m <= -3 and CH[R[R_OPP], C_STATUS] == ACTIVE:
        _boost(A, AF, AL, G, P, EV, R[R_OPP], P[P_NAME_UPPER])
    return m


# -- the attack action (actions/attack.run, steps.respond, rolls.roll, rolls.resolved) -----
@njit(cache=True, _nrt=False)
def _attack(T, W, B, EV, actor, target, skill):
    SK, ST, P = T.SK, T.ST, T.P
    CH, A, AF, AL, G, RNG = W.CH, W.A, W.AF, W.AL, W.G, W.RNG
    if not _respond(T, W, EV, target, B):
        return
    dskill = _defend_skill(SK, ST, CH, A, P, target, actor, _reach_of(P, actor, skill))
    _roll_action(T, W, B, EV, actor, ACT_ATTACK, skill, target, target, dskill, (0, 0, 0))
    if G[G_BAIL] != BAIL_NONE:
        return
    m = _settle(T, W, B, EV, True, True, ACT_ATTACK, target)
    if G[G_BAIL] != BAIL_NONE:
        return
    if m < 0:
        return
    if m == 0:
        _boost(A, AF, AL, G, P, EV, actor, P[P_NAME_OPENING])
        return
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
            _decision(EV, G, D_STYLE, actor, 0, _why(P, actor, D_STYLE) if _draws(P, actor, D_STYLE) else R_S_FULL, O_FULLHIT,
                      0, 0, 0, 0, 0)
    _harm(T, W, EV, target, m, actor, B)


# -- create an advantage (actions/advantage.offer, create_advantage, place) ---------------
@njit(cache=True, _nrt=False)
def _key_of(A, aid):
    """Where an aspect sits, as a target code: its owner, else its zone, else the scene."""
    if A[aid, A_OWNER] != NEG:
        return A[aid, A_OWNER]
    if A[aid, A_ZONE] != NEG:
        return TGT_ZONE + A[aid, A_ZONE]
    return TGT_SCENE


@njit(cache=True, _nrt=False)
def _named(A, AL, G, name, target):
    """An advantage or situation aspect called ``name`` already on ``target`` (offer's ``named``).
    Only placed advantages can be: tables.covered refuses templates named like situation aspects."""
    if G[G_PLACED] == 0:
        return False
    for i in range(G[G_NAL]):
        aid = AL[i]
        kind = A[aid, A_KIND]
        if (kind == K_ADVANTAGE or kind == K_SITUATION) and A[aid, A_NAME] == name and _key_of(A, aid) == target:
            return True
    return False


@njit(cache=True, _nrt=False)
def _advantage_options(W, T, actor, foes, nf, B, nal):
    """The turn's advantage options in the reference's order (template by template, each
    template's targets from where the actor stands, reach.template_targets), without the ones
    already in play: (template, target code) pairs in ``adv_k``/``adv_g``; their count."""
    P, SIGHT, TPL = T.P, T.SIGHT, T.TPL
    CH, A, AL, G = W.CH, W.A, W.AL, W.G
    allies, adv_k, adv_g = B.allies, B.adv_k, B.adv_g
    here = CH[actor, C_ZONE]
    n = 0
    for k in range(TPL.shape[0]):
        tg = TPL[k, TP_TARGET]
        name = TPL[k, TP_NAME]
        if tg == TG_FOE:
            for i in range(nf):
                t = foes[i]
                if TPL[k, TP_TRACK] == 0:  # physical: the foe must be within shooting range
                    d = SIGHT[here, CH[t, C_ZONE]]
                    if d < 0 or d > P[P_SHOOT]:
                        continue
                if not _named(A, AL, G, name, t):
                    adv_k[n] = k
                    adv_g[n] = t
                    n += 1
        elif tg == TG_ALLY:
            for i in range(nal):
                if not _named(A, AL, G, name, allies[i]):
                    adv_k[n] = k
                    adv_g[n] = allies[i]
                    n += 1
        else:
            t = actor if tg == TG_SELF else TGT_ZONE + here if tg == TG_ZONE else TGT_SCENE
            if not _named(A, AL, G, name, t):
                adv_k[n] = k
                adv_g[n] = t
                n += 1
    return n


@njit(cache=True, _nrt=False)
def _best_of(SK, ST, CH, A, c, TPL, k, col, action, attacker):
    """rolls.best_skill over the template's listed skills: the first of the highest ratings with
    stunts (tables.covered refuses the use_skill stunts that would widen the list)."""
    best = NEG
    best_v = 0
    for j in range(TPL[k, col]):
        s = TPL[k, col + 1 + j]
        v = SK[c, s] + (_stunt(ST, CH, A, c, s, action, attacker) if CH[c, C_NSTUNT] else 0)
        if best == NEG or v > best_v:
            best = s
            best_v = v
    return best


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


@njit(cache=True, _nrt=False)
def _advantage(T, W, B, EV, actor, k, target):
    """advantage.create_advantage with basic's answers: against a foe's defense, else the
    template's difficulty; a tie gives a boost named for the template, a success the aspect with
    one free invoke (two with style); a failure asks the cost question, and basic gives nothing."""
    SK, ST, P, TPL = T.SK, T.ST, T.P, T.TPL
    CH, A, AF, AL, G, RNG = W.CH, W.A, W.AF, W.AL, W.G, W.RNG
    R = B.R
    on_char = target < TGT_SCENE
    skill = _best_of(SK, ST, CH, A, actor, TPL, k, TP_NSK, ACT_ADVANTAGE, NEG)
    dskill = NEG
    active = TPL[k, TP_TARGET] == TG_FOE
    if active:
        if not _respond(T, W, EV, target, B):
            return
        dskill = _best_of(SK, ST, CH, A, target, TPL, k, TP_NDEF, ACT_DEFEND, actor)
    _roll_action(T, W, B, EV, actor, ACT_ADVANTAGE, skill, target if on_char else NEG, target if active else NEG,
                 dskill, (TPL[k, TP_DIFF], k, WHY_PASSIVE_TEMPLATE))
    if G[G_BAIL] != BAIL_NONE:
        return
    m = _settle(T, W, B, EV, False, active, ACT_ADVANTAGE, target)
    if G[G_BAIL] != BAIL_NONE:
        return
    name = TPL[k, TP_NAME]
    if m < 0:
        if R[R_OPP] != NEG:  # success at a cost hands the enemy the aspect: basic never takes it
            j = _draw(P, RNG, G, actor, D_COST, 2) if _draws(P, actor, D_COST) else 0
            if j < 0:
                _paused_two(EV, G, O_NO_ASPECT, O_FOR_ENEMY)
                return
            if j == 1:
                _decision(EV, G, D_COST, actor, 1, _why(P, actor, D_COST), O_FOR_ENEMY, 0, 0, 0, 0, 0)
                _place(A, AF, AL, G, P, EV, actor, name, target, skill, R[R_OPP], 1)
            else:
                _decision(EV, G, D_COST, actor, 0, _why(P, actor, D_COST) if _draws(P, actor, D_COST) else R_C_NOTHING,
                          O_NO_ASPECT, 0, 0, 0, 0, 0)
        return
    if m == 0:
        _boost(A, AF, AL, G, P, EV, actor, name)
        return
    _place(A, AF, AL, G, P, EV, actor, name, target, skill, actor, 2 if m >= 3 else 1)


@njit(cache=True, _nrt=False)
def _place(A, AF, AL, G, P, EV, actor, name, target, skill, holder, count):
    """advantage.place: the new aspect on ``target`` with ``count`` free invokes for ``holder``."""
    on_char = target < TGT_SCENE
    owner = target if on_char else NEG
    zone = target - TGT_ZONE if target >= TGT_ZONE else NEG
    kind = K_ADVANTAGE if on_char else K_SITUATION
    aid = _new_aspect(A, AF, AL, G, P, name, kind, owner, zone, actor)
    if aid == NEG:
        return
    A[aid, A_SKILL] = skill
    G[G_PLACED] += 1
    AF[aid, holder] = count
    _emit(EV, G, E_CREATED, (name, aid, kind, target, count, holder, 0, 0, 0, 0, 0))


# -- move as an overcome (actions/overcome_move.run, overcome.overcome_outcome) -------------
@njit(cache=True, _nrt=False)
def _blocker(SC, SK, ST, CH, A, P, mover):
    """reach.blocker: the foe in the mover's zone with the best Fight or Athletics defense."""
    best = NEG
    best_v = 0
    side = SC[mover, S_SIDE]
    for x in range(SC.shape[0]):
        if CH[x, C_STATUS] == ACTIVE and SC[x, S_SIDE] != side and CH[x, C_ZONE] == CH[mover, C_ZONE]:
            v = NEG
            for s in (P[P_FIGHT], P[P_ATHLETICS]):
                e = SK[x, s] + (_stunt(ST, CH, A, x, s, ACT_DEFEND, NEG) if CH[x, C_NSTUNT] else 0)
                if v == NEG or e > v:
                    v = e
            if best == NEG or v > best_v:
                best = x
                best_v = v
    return best


@njit(cache=True, _nrt=False)
def _major_slot(SC, SLOTS, SLOTA, P, c):
    """overcome.major_cost_slot: the smallest free mild or moderate slot for the scene's track."""
    best = NEG
    for k in range(SC[c, S_NSLOT]):
        if SLOTA[c, k] == NEG and SLOTS[c, k, L_SEV] <= 1 and (SLOTS[c, k, L_TRACK] == NEG or
                                                             SLOTS[c, k, L_TRACK] == P[P_TRACK]):
            if best == NEG or SLOTS[c, k, L_VALUE] < SLOTS[c, best, L_VALUE]:
                best = k
    return best


@njit(cache=True, _nrt=False)
def _overcome_move(T, W, B, EV, actor, zone):
    """overcome_move.run with basic's answers: Athletics against the foe who blocks the way
    (foes_block_movement) or the move's difficulty; a tie takes the minor cost (the voice gets a
    boost), a failure a major cost while unhurt (the major_cost dial), style a boost."""
    SC, SK, ST, P, SIGHT = T.SC, T.SK, T.ST, T.P, T.SIGHT
    CH, A, AF, AL, G = W.CH, W.A, W.AF, W.AL, W.G
    here = CH[actor, C_ZONE]
    by = _blocker(SC, SK, ST, CH, A, P, actor) if P[P_BLOCK] != 0 else NEG
    dskill = P[P_FIGHT]
    if by != NEG:
        v = NEG
        for c in (P[P_FIGHT], P[P_ATHLETICS]):  # best_skill(by, BLOCK_SKILLS, "defend", attacker=actor)
            e = SK[by, c] + (_stunt(ST, CH, A, by, c, ACT_DEFEND, actor) if CH[by, C_NSTUNT] else 0)
            if v == NEG or e > v:
                v = e
                dskill = c
    active = _roll_action(T, W, B, EV, actor, ACT_OVERCOME, P[P_ATHLETICS], NEG, by, dskill,
                          (P[P[P_ZCOST] + here * SIGHT.shape[0] + zone], TGT_ZONE + zone, WHY_PASSIVE_TEMPLATE))
    if G[G_BAIL] != BAIL_NONE:
        return
    m = _settle(T, W, B, EV, False, active, ACT_OVERCOME, TGT_ZONE + zone)
    if G[G_BAIL] != BAIL_NONE:
        return
    outcome = _overcome_outcome(T, W, B, EV, actor, m, zone)
    if outcome == OUT_FAIL:
        return
    _emit(EV, G, E_MOVED, (actor, here, zone, 0, 0, 0, 0, 0, 0, 0, 0))
    CH[actor, C_ZONE] = zone
    if outcome == OUT_STYLE:
        _boost(A, AF, AL, G, P, EV, actor, P[P_NAME_MOMENTUM])


@njit(cache=True, _nrt=False)
def _overcome_outcome(T, W, B, EV, actor, m, zone):
    """overcome.overcome_outcome: OUT_FAIL, OUT_COST, OUT_SUCCESS or OUT_STYLE after the roller's
    choices: a tie at a minor cost (the opposition gets a boost) or, under Condensed, a failure
    with a boost; a failure at a major cost (the major_cost dial). basic takes the minor cost, and
    the major one while unhurt; ``zone``: where a "Hard-Won Ground" goes."""
    SC, SLOTS, P = T.SC, T.SLOTS, T.P
    SLOTA, CH, A, AF, AL, G, RNG = W.SLOTA, W.CH, W.A, W.AF, W.AL, W.G, W.RNG
    R = B.R
    rnd = _draws(P, actor, D_COST)
    why = _why(P, actor, D_COST)
    enemy = R[R_OPP]
    if m < 0:
        if P[P_MAJOR] == MAJOR_OFF:
            return OUT_FAIL
        slot = _major_slot(SC, SLOTS, SLOTA, P, actor)
        payable = slot != NEG if P[P_MAJOR] == MAJOR_CONSEQUENCE else enemy != NEG
        if not payable:
            return OUT_FAIL  # the lone option, fail, is taken at once
        if rnd:
            j = _draw(P, RNG, G, actor, D_COST, 2)
            if j < 0:
                _paused_two(EV, G, O_FAIL, O_MAJOR_COST)
                return OUT_FAIL
            major = j == 1
        else:
            major = CH[actor, C_CTAKEN] == 0
        if not major:
            _decision(EV, G, D_COST, actor, 0, why if rnd else R_C_HURT, O_FAIL, 0, 0, 0, 0, 0)
            return OUT_FAIL
        _decision(EV, G, D_COST, actor, 1, why if rnd else R_C_MAJOR, O_MAJOR_COST, 0, 0, 0, 0, 0)
        if P[P_MAJOR] == MAJOR_CONSEQUENCE:  # overcome.pay_major_cost
            name = P[P_NAME_CONS0] + 4 * P[P_TRACK] + SLOTS[actor, slot, L_SEV]
            aid = _new_aspect(A, AF, AL, G, P, name, K_CONSEQUENCE, actor, NEG, enemy)
            if aid == NEG:
                return OUT_FAIL
            if enemy != NEG:
                AF[aid, enemy] = 1
            SLOTA[actor, slot] = aid
            CH[actor, C_CTAKEN] += 1
            _emit(EV, G, E_MAJOR, (actor, MAJOR_CONSEQUENCE, aid, name, 0, 0, 0, 0, 0, 0, 0))
            _emit(EV, G, E_CREATED, (name, aid, K_CONSEQUENCE, actor, 1 if enemy != NEG else 0, enemy, 0, 0, 0, 0, 0))
        else:
            name = P[P_NAME_HARD_WON]
            aid = _new_aspect(A, AF, AL, G, P, name, K_SITUATION, NEG, zone, enemy)
            if aid == NEG:
                return OUT_FAIL
            G[G_PLACED] += 1
            AF[aid, enemy] = 2
            _emit(EV, G, E_MAJOR, (actor, MAJOR_ENEMY_ASPECT, aid, name, 0, 0, 0, 0, 0, 0, 0))
            _emit(EV, G, E_CREATED, (name, aid, K_SITUATION, TGT_ZONE + zone, 2, enemy, 0, 0, 0, 0, 0))
        return OUT_COST
    if m > 0:
        return OUT_STYLE if m >= 3 else OUT_SUCCESS
    if P[P_TIE_CHOICE] != 0:  # minor cost, or fail with a boost: basic takes the cost
        j = _draw(P, RNG, G, actor, D_COST, 2) if rnd else 0
        if j < 0:
            _paused_two(EV, G, O_MINOR_COST, O_FAIL_BOOST)
            return OUT_FAIL
        if j == 1:
            _decision(EV, G, D_COST, actor, 1, why, O_FAIL_BOOST, 0, 0, 0, 0, 0)
            _boost(A, AF, AL, G, P, EV, actor, P[P_NAME_SECOND_WIND])
            return OUT_FAIL
        _decision(EV, G, D_COST, actor, 0, why if rnd else R_C_MINOR, O_MINOR_COST, 0, 0, 0, 0, 0)
    if enemy != NEG:
        _boost(A, AF, AL, G, P, EV, enemy, P[P_NAME_SMALL_WIN])
    return OUT_COST


# -- take advantage of an aspect in play (actions/exploit.exploit) -------------------------
@njit(cache=True, _nrt=False)
def _exploit(T, W, B, EV, actor, aid):
    """exploit.exploit: against the owner if hostile (who may concede first), else the foe the
    exploit_opposition dial names, else a Fair difficulty with its voice; free invokes on the
    aspect for a tie or better (two with style), one for the opposition on a failure."""
    SC, SK, ST, P = T.SC, T.SK, T.ST, T.P
    CH, A, AF, G = W.CH, W.A, W.AF, W.G
    R = B.R
    skill = NEG
    best = 0
    for j in range(9):  # best_skill(actor, EXPLOIT_SKILLS, "create_advantage")
        x = P[P[P_XSK] + j]
        v = SK[actor, x] + (_stunt(ST, CH, A, actor, x, ACT_ADVANTAGE, NEG) if CH[actor, C_NSTUNT] else 0)
        if skill == NEG or v > best:
            skill = x
            best = v
    owner = A[aid, A_OWNER]
    hostile = owner != NEG and CH[owner, C_STATUS] == ACTIVE and SC[owner, S_SIDE] != SC[actor, S_SIDE]
    if hostile and not _respond(T, W, EV, owner, B):
        return
    dskill = P[P_ATHLETICS] if P[P_TRACK] == 0 else P[P_WILL]  # EXPLOIT_DEFEND
    opposer = owner if hostile else NEG
    if not hostile and P[P_EXPLOIT_FOE] != 0:  # exploit.interferer: the foe here best at dskill
        v = 0
        for x in range(SC.shape[0]):
            if CH[x, C_STATUS] == ACTIVE and SC[x, S_SIDE] != SC[actor, S_SIDE] and CH[x, C_ZONE] == CH[actor, C_ZONE]:
                if opposer == NEG or SK[x, dskill] > v:
                    opposer = x
                    v = SK[x, dskill]
    active = _roll_action(T, W, B, EV, actor, ACT_ADVANTAGE, skill, owner, opposer, dskill,
                          (2, A[aid, A_NAME], WHY_PASSIVE_EXPLOIT))  # 2: skills.EXPLOIT_DIFFICULTY
    if G[G_BAIL] != BAIL_NONE:
        return
    m = _settle(T, W, B, EV, False, active, ACT_ADVANTAGE, owner)
    if G[G_BAIL] != BAIL_NONE:
        return
    if m < 0:
        if R[R_OPP] != NEG:  # a known aspect: the opposition gets the free invoke (003:856)
            AF[aid, R[R_OPP]] += 1
            _emit(EV, G, E_GAINED, (R[R_OPP], aid, A[aid, A_NAME], 1, 0, 0, 0, 0, 0, 0, 0))
        return
    count = 2 if m >= 3 else 1
    AF[aid, actor] += count
    _emit(EV, G, E_GAINED, (actor, aid, A[aid, A_NAME], count, 0, 0, 0, 0, 0, 0, 0))


# -- clear an aspect (actions/remove.run) ---------------------------------------------------
@njit(cache=True, _nrt=False)
def _remove(T, W, B, EV, actor, aid):
    """remove.run: an overcome against the creator's defense (the skill that made the aspect) if
    the creator is a foe still in, else a Fair difficulty; the aspect goes on success or at a cost."""
    SC, SK, ST, P = T.SC, T.SK, T.ST, T.P
    CH, A, AF, AL, G = W.CH, W.A, W.AF, W.AL, W.G
    skill = NEG
    best = 0
    for j in range(3):  # best_skill(actor, REMOVE_SKILLS, "overcome")
        x = P[P[P_RSK] + j]
        v = SK[actor, x] + (_stunt(ST, CH, A, actor, x, ACT_OVERCOME, NEG) if CH[actor, C_NSTUNT] else 0)
        if skill == NEG or v > best:
            skill = x
            best = v
    creator = A[aid, A_CREATOR]
    active = creator != NEG and CH[creator, C_STATUS] == ACTIVE and SC[creator, S_SIDE] != SC[actor, S_SIDE]
    dskill = A[aid, A_SKILL]
    if active and dskill == NEG:  # best_skill(creator, BLOCK_SKILLS, "defend")
        v = NEG
        for x in (P[P_FIGHT], P[P_ATHLETICS]):
            e = SK[creator, x] + (_stunt(ST, CH, A, creator, x, ACT_DEFEND, NEG) if CH[creator, C_NSTUNT] else 0)
            if v == NEG or e > v:
                v = e
                dskill = x
    _roll_action(T, W, B, EV, actor, ACT_OVERCOME, skill, creator if active else NEG, creator if active else NEG,
                 dskill, (2, A[aid, A_NAME], WHY_PASSIVE_CLEAR))  # 2: REMOVE_DIFFICULTY
    if G[G_BAIL] != BAIL_NONE:
        return
    m = _settle(T, W, B, EV, False, active, ACT_OVERCOME, creator if active else NEG)
    if G[G_BAIL] != BAIL_NONE:
        return
    outcome = _overcome_outcome(T, W, B, EV, actor, m, CH[actor, C_ZONE])
    if outcome != OUT_FAIL and A[aid, A_ALIVE] != 0:
        _drop_aspect(A, AL, G, aid)
        _emit(EV, G, E_REMOVED, (aid, A[aid, A_NAME], WHY_CLEARED, actor, 0, 0, 0, 0, 0, 0, 0))
    if outcome == OUT_STYLE:
        _boost(A, AF, AL, G, P, EV, actor, P[P_NAME_CLEAR])


# -- a turn (flows/conflict.turn, actions.turn_options, basic._turn and _move) ------------
@njit(cache=True, _nrt=False)
def _free_moves(SC, CH, P, ZF, ZFN, c, out):
    z = CH[c, C_ZONE]
    if P[P_BLOCK] != 0:
        side = SC[c, S_SIDE]
        for x in range(SC.shape[0]):
            if CH[x, C_STATUS] == ACTIVE and SC[x, S_SIDE] != side and CH[x, C_ZONE] == z:
                return 0
    for i in range(ZFN[z]):
        out[i] = ZF[z, i]
    return ZFN[z]


@njit(cache=True, _nrt=False)
def _foe_here(SC, CH, me):
    """An active foe in ``me``'s zone (the sniper's trigger)."""
    side = SC[me, S_SIDE]
    z = CH[me, C_ZONE]
    for x in range(SC.shape[0]):
        if CH[x, C_STATUS] == ACTIVE and SC[x, S_SIDE] != side and CH[x, C_ZONE] == z:
            return True
    return False


@njit(cache=True, _nrt=False)
def _reach_after(SC, CH, P, SIGHT, me, zone, buf, skills):
    nf = _foes(SC, CH, me, buf)
    na = _attack_skills(P, me, skills)
    for i in range(nf):
        for j in range(na):
            if _can_reach(P, SIGHT, CH, me, skills[j], zone, buf[i]):
                return True
    return False


@njit(cache=True, _nrt=False)
def _step_into_reach(SC, CH, P, SIGHT, EV, G, actor, moves, nm, buf, skills, reason):
    """The turn's free move: the first of ``moves`` from which a foe is in reach, taken (with
    ``reason``); False if none is."""
    here = CH[actor, C_ZONE]
    for i in range(nm):
        if _reach_after(SC, CH, P, SIGHT, actor, moves[i], buf, skills):
            _decision(EV, G, D_TURN, actor, i, reason, O_MOVE, moves[i], 0, 0, 0, 0)
            _emit(EV, G, E_MOVED, (actor, here, moves[i], 1, 0, 0, 0, 0, 0, 0, 0))
            CH[actor, C_ZONE] = moves[i]
            return True
    return False


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


@njit(cache=True, _nrt=False)
def _best_odds_pick(T, W, actor, natt, B, likely):
    """basic: odds x 2, +3 if the likely roll takes the target out; the first of the best."""
    SC, SK, ST, SLOTS, P = T.SC, T.SK, T.ST, T.SLOTS, T.P
    MARK, SLOTA, CH, A = W.MARK, W.SLOTA, W.CH, W.A
    att_t, att_s = B.att_t, B.att_s
    best = NEG
    best_score = -99
    for i in range(natt):
        t = att_t[i]
        odds = _attack_rating(SK, ST, CH, A, actor, att_s[i], t) - _defense_rating(SK, ST, CH, A, P, t, actor, att_s[i])
        if odds * 2 + 3 <= best_score:
            continue
        finish = 1 if odds + likely > _cap(SC, SLOTS, MARK, SLOTA, CH, P, t) else 0
        score = odds * 2 + finish * 3
        if score > best_score:
            best = i
            best_score = score
    return best


@njit(cache=True, _nrt=False)
def _turn(T, W, B, EV, actor):
    SC, SK, ST, SLOTS, P, SIGHT, ZF, ZFN, ZR, ZRN = T.SC, T.SK, T.ST, T.SLOTS, T.P, T.SIGHT, T.ZF, T.ZFN, T.ZR, T.ZRN
    MARK, SLOTA, CH, A, AF, AL, G, RNG = W.MARK, W.SLOTA, W.CH, W.A, W.AF, W.AL, W.G, W.RNG
    buf, skills, allies, moves = B.buf, B.skills, B.allies, B.moves
    att_t, att_s, adv_k, adv_g = B.att_t, B.att_s, B.adv_k, B.adv_g
    G[G_TURNSEQ] += 1
    _emit(EV, G, E_TURN, (actor, G[G_EXCHANGE], 0, 0, 0, 0, 0, 0, 0, 0, 0))
    if CH[actor, C_FULLDEF] != 0:
        if P[P_FD_CONDENSED] != 0 and CH[actor, C_DEFONFULL] == 0:
            _boost(A, AF, AL, G, P, EV, actor, P[P_NAME_PREPARED])
        CH[actor, C_FULLDEF] = 0
    free_move = True
    while True:
        here = CH[actor, C_ZONE]
        nm = _free_moves(SC, CH, P, ZF, ZFN, actor, moves) if free_move else 0
        nf = _foes(SC, CH, actor, buf)
        na = _attack_skills(P, actor, skills)
        natt = 0
        for j in range(na):
            for i in range(nf):
                if _can_reach(P, SIGHT, CH, actor, skills[j], here, buf[i]):
                    att_t[natt] = buf[i]
                    att_s[natt] = skills[j]
                    natt += 1
        nal = _allies(SC, CH, actor, allies)
        nadv = _advantage_options(W, T, actor, buf, nf, B, nal)
        nexp = 0
        nrem = 0
        for i in range(G[G_NAL]):
            aid = AL[i]
            kind = A[aid, A_KIND]
            owner = A[aid, A_OWNER]
            z = A[aid, A_ZONE]
            if kind != K_BOOST and (owner == NEG or CH[owner, C_STATUS] == ACTIVE) and (z == NEG or z == here):
                nexp += 1
            if kind == K_ADVANTAGE or (kind == K_SITUATION and A[aid, A_CREATOR] != NEG):
                if owner != NEG:
                    if CH[owner, C_STATUS] == ACTIVE and SC[owner, S_SIDE] == SC[actor, S_SIDE]:
                        nrem += 1
                elif z == NEG or z == here:
                    nrem += 1
        nover = 0
        while _nth_overcome(ZR, ZRN, here, moves, nm, nover) != NEG:
            nover += 1
        before_fd = nm + natt + nadv + nexp + nover + nrem
        total = before_fd + 1 + nal + 2
        pol = P[P_POL] + POL_W * actor
        pick = NEG
        why = R_T_ATTACK
        if _draws(P, actor, D_TURN):  # RandomController (or an agent): any option of the turn
            j = _draw(P, RNG, G, actor, D_TURN, total)
            if j < 0:
                if G[G_BAIL] == BAIL_PAUSE:  # the options, action by action (actions.ACTIONS)
                    q = 0
                    for i in range(nm):
                        _opt(EV, G, q, O_MOVE, moves[i], 0, 0, 0, 0)
                        q += 1
                    for i in range(natt):
                        _opt(EV, G, q, O_ATTACK, att_t[i], att_s[i], 0, 0, 0)
                        q += 1
                    for i in range(nadv):
                        _opt(EV, G, q, O_ADVANTAGE, adv_k[i], adv_g[i], 0, 0, 0)
                        q += 1
                    for i in range(nexp):
                        _opt(EV, G, q, O_EXPLOIT, _nth_aspect(SC, CH, A, AL, G, actor, i, False), 0, 0, 0, 0)
                        q += 1
                    for i in range(nover):
                        _opt(EV, G, q, O_OVERCOME, _nth_overcome(ZR, ZRN, here, moves, nm, i), 0, 0, 0, 0)
                        q += 1
                    for i in range(nrem):
                        _opt(EV, G, q, O_REMOVE, _nth_aspect(SC, CH, A, AL, G, actor, i, True), 0, 0, 0, 0)
                        q += 1
                    _opt(EV, G, q, O_FULLDEF, 0, 0, 0, 0, 0)
                    q += 1
                    for i in range(nal):
                        _opt(EV, G, q, O_SUPPORT, allies[i], 0, 0, 0, 0)
                        q += 1
                    _opt(EV, G, q, O_CONCEDE, 0, 0, 0, 0, 0)
                    _opt(EV, G, q + 1, O_PASS, 0, 0, 0, 0, 0)
                return
            why = _why(P, actor, D_TURN)
            if j < nm:
                z = moves[j]
                _decision(EV, G, D_TURN, actor, j, why, O_MOVE, z, 0, 0, 0, 0)
                _emit(EV, G, E_MOVED, (actor, here, z, 1, 0, 0, 0, 0, 0, 0, 0))
                CH[actor, C_ZONE] = z
                free_move = False
                continue
            i = j - nm
            if i < natt:
                _decision(EV, G, D_TURN, actor, j, why, O_ATTACK, att_t[i], att_s[i], 0, 0, 0)
                _attack(T, W, B, EV, actor, att_t[i], att_s[i])
                break
            i -= natt
            if i < nadv:
                _decision(EV, G, D_TURN, actor, j, why, O_ADVANTAGE, adv_k[i], adv_g[i], 0, 0, 0)
                _advantage(T, W, B, EV, actor, adv_k[i], adv_g[i])
                break
            i -= nadv
            if i < nexp:
                aid = _nth_aspect(SC, CH, A, AL, G, actor, i, False)
                _decision(EV, G, D_TURN, actor, j, why, O_EXPLOIT, aid, 0, 0, 0, 0)
                _exploit(T, W, B, EV, actor, aid)
                break
            i -= nexp
            if i < nover:
                z = _nth_overcome(ZR, ZRN, here, moves, nm, i)
                _decision(EV, G, D_TURN, actor, j, why, O_OVERCOME, z, 0, 0, 0, 0)
                _overcome_move(T, W, B, EV, actor, z)
                break
            i -= nover
            if i < nrem:
                aid = _nth_aspect(SC, CH, A, AL, G, actor, i, True)
                _decision(EV, G, D_TURN, actor, j, why, O_REMOVE, aid, 0, 0, 0, 0)
                _remove(T, W, B, EV, actor, aid)
                break
            i -= nrem
            if i == 0:
                _decision(EV, G, D_TURN, actor, j, why, O_FULLDEF, 0, 0, 0, 0, 0)
                _full_defense(CH, EV, G, actor)
                break
            i -= 1
            if i < nal:
                _decision(EV, G, D_TURN, actor, j, why, O_SUPPORT, allies[i], 0, 0, 0, 0)
                if not _pledge(CH, EV, G, actor, allies[i]):
                    return
                break
            i -= nal
            if i == 0:
                _decision(EV, G, D_TURN, actor, j, why, O_CONCEDE, 0, 0, 0, 0, 0)
                _concede(CH, EV, G, actor)
                break
            _decision(EV, G, D_TURN, actor, j, why, O_PASS, 0, 0, 0, 0, 0)
            _emit(EV, G, E_PASSED, (actor, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
            break
        own = P[pol + POL_KIND]
        if own == PK_TACTICIAN or own == PK_SUPPORT or own == PK_STACKER:
            # tactician, support and stacker concede as basic does, before their own rule
            if _may_concede(CH, P, actor) and _should_concede(T, W, actor, B):
                _decision(EV, G, D_TURN, actor, total - 2, R_T_CONCEDE, O_CONCEDE, 0, 0, 0, 0, 0)
                _concede(CH, EV, G, actor)
                break
        if own == PK_TACTICIAN:
            # tactician (agents/tactics.py): one hit from out -> full defense; else the most
            # wounded foe in reach: cash stacked free invokes on it, or set it up, or hit it with
            # the best rating; nothing in reach -> basic
            found, worst = _danger(T, W, actor, pol, B)
            if found and worst > 0:
                _decision(EV, G, D_TURN, actor, before_fd, R_T_GUARDS, O_FULLDEF, 0, 0, 0, 0, 0)
                _full_defense(CH, EV, G, actor)
                break
            if natt > 0:
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
                            _decision(EV, G, D_TURN, actor, nm + natt + i, R_T_SETS_UP_ON, O_ADVANTAGE, adv_k[i],
                                      focus, 0, 0, 0)
                            _advantage(T, W, B, EV, actor, adv_k[i], focus)
                            pick = -2
                            break
                if pick == -2:
                    break
                best_r = 0
                for i in range(natt):
                    if att_t[i] == focus:
                        r = _attack_rating(SK, ST, CH, A, actor, att_s[i], focus)
                        if pick == NEG or r > best_r:
                            pick = i
                            best_r = r
        if own == PK_SUPPORT:
            # support (agents/tactics.py): back up the first ally yet to act whose best attack
            # skill it has a rank in; else, with allies, set up the first foe it can
            helped = False
            for j in range(nal):
                ally = allies[j]
                if CH[ally, C_ACTED] != 0:
                    continue
                na = _attack_skills(P, ally, skills)
                best = 0
                best_s = NEG
                for q in range(na):
                    v = SK[ally, skills[q]] + (_stunt(ST, CH, A, ally, skills[q], ACT_ATTACK, NEG)
                                               if CH[ally, C_NSTUNT] else 0)
                    if best_s == NEG or v > best:
                        best = v
                        best_s = skills[q]
                if best > 0 and SK[actor, best_s] >= 1:
                    _decision(EV, G, D_TURN, actor, before_fd + 1 + j, R_T_BACKS_UP, O_SUPPORT, ally, best_s, 0, 0, 0)
                    if not _pledge(CH, EV, G, actor, ally):
                        return
                    helped = True
                    break
            if helped:
                break
            if nal > 0:
                for i in range(nadv):
                    t = adv_g[i]
                    if t < TGT_SCENE and SC[t, S_SIDE] != SC[actor, S_SIDE]:
                        _decision(EV, G, D_TURN, actor, nm + natt + i, R_T_SETS_UP_FOR, O_ADVANTAGE, adv_k[i], t,
                                  0, 0, 0)
                        _advantage(T, W, B, EV, actor, adv_k[i], t)
                        pick = -2
                        break
                if pick == -2:
                    break
        if own == PK_STACKER:
            # stacker (agents/tactics.py): under ``stack`` free invokes held, take advantage of the
            # first aspect of its own on offer; else basic
            held = 0
            for i in range(G[G_NAL]):
                held += AF[AL[i], actor]
            if held < P[pol + POL_STACK]:
                for i in range(nexp):
                    aid = _nth_aspect(SC, CH, A, AL, G, actor, i, False)
                    if A[aid, A_OWNER] == actor:
                        _decision(EV, G, D_TURN, actor, nm + natt + nadv + i, R_T_STACKS, O_EXPLOIT, aid, 0, 0,
                                  A[aid, A_NAME], held)
                        _exploit(T, W, B, EV, actor, aid)
                        pick = -2
                        break
                if pick == -2:
                    break
        if own == PK_SNIPER:
            # sniper (agents/tactics.py): a foe in its zone -> the first free move from which it still
            # reaches a foe; then the ranged attack with the best rating against defense; else basic
            if _foe_here(SC, CH, actor) and _step_into_reach(SC, CH, P, SIGHT, EV, G, actor, moves, nm, buf, skills,
                                                            R_T_BACKS):
                free_move = False
                continue
            pick = _ranged_pick(SK, ST, CH, A, P, actor, natt, att_t, att_s)
            why = R_T_SHOOTS
        if pick == NEG:
            # basic._turn
            if _may_concede(CH, P, actor) and _should_concede(T, W, actor, B):
                _decision(EV, G, D_TURN, actor, total - 2, R_T_CONCEDE, O_CONCEDE, 0, 0, 0, 0, 0)
                _concede(CH, EV, G, actor)
                break
            if own == PK_BRUTE and natt > 0:
                pick = _closest_pick(SK, ST, CH, A, actor, natt, att_t, att_s)
                why = R_T_SMASH
            else:
                pick = _best_odds_pick(T, W, actor, natt, B, P[pol + POL_LIKELY])
        if pick != NEG:
            t = att_t[pick]
            _decision(EV, G, D_TURN, actor, nm + pick, why, O_ATTACK, t, att_s[pick], 0, 0, 0)
            _attack(T, W, B, EV, actor, t, att_s[pick])
            break
        if _step_into_reach(SC, CH, P, SIGHT, EV, G, actor, moves, nm, buf, skills, R_T_STEP):
            free_move = False
            continue
        over = NEG
        j = 0
        while True:  # basic: the first overcome move that brings a foe into reach
            z = _nth_overcome(ZR, ZRN, here, moves, nm, j)
            if z == NEG:
                break
            if _reach_after(SC, CH, P, SIGHT, actor, z, buf, skills):
                over = z
                break
            j += 1
        if over != NEG:
            _decision(EV, G, D_TURN, actor, nm + natt + nadv + nexp + j, R_T_FORCES, O_OVERCOME, over, 0, 0, 0, 0)
            _overcome_move(T, W, B, EV, actor, over)
            break
        setup = NEG
        for i in range(nadv):
            if adv_g[i] == actor:
                setup = i
                break
        if setup != NEG:
            _decision(EV, G, D_TURN, actor, nm + natt + setup, R_T_SETS_UP, O_ADVANTAGE, adv_k[setup], actor, 0, 0, 0)
            _advantage(T, W, B, EV, actor, adv_k[setup], actor)
            break
        _decision(EV, G, D_TURN, actor, before_fd, R_T_FULLDEF, O_FULLDEF, 0, 0, 0, 0, 0)
        _full_defense(CH, EV, G, actor)
        break
    if G[G_BAIL] != BAIL_NONE:
        return
    CH[actor, C_NSUP] = 0  # the pledges were for this action
    # the free move after the action
    if CH[actor, C_STATUS] == ACTIVE and free_move and not _over(SC, CH):
        nm = _free_moves(SC, CH, P, ZF, ZFN, actor, moves)
        if nm > 0:
            here = CH[actor, C_ZONE]
            nf = _foes(SC, CH, actor, buf)
            na = _attack_skills(P, actor, skills)
            in_reach = False
            for i in range(nf):
                for j in range(na):
                    if _can_reach(P, SIGHT, CH, actor, skills[j], here, buf[i]):
                        in_reach = True
            pick = 0
            reason = R_M_STAYS if in_reach else R_M_HOLDS
            if _draws(P, actor, D_MOVE):
                pick = _draw(P, RNG, G, actor, D_MOVE, nm + 1)
                if pick < 0:
                    if G[G_BAIL] == BAIL_PAUSE:
                        _opt(EV, G, 0, O_STAY, 0, 0, 0, 0, 0)
                        for q in range(nm):
                            _opt(EV, G, q + 1, O_MOVE, moves[q], 0, 0, 0, 0)
                    return
                reason = _why(P, actor, D_MOVE)
            elif P[P[P_POL] + POL_W * actor + POL_KIND] == PK_SNIPER and _foe_here(SC, CH, actor):
                for i in range(nm):  # sniper: falls back to a firing position
                    if _reach_after(SC, CH, P, SIGHT, actor, moves[i], buf, skills):
                        pick = i + 1
                        reason = R_M_FALLS
                        break
            if pick == 0 and not in_reach and not _draws(P, actor, D_MOVE):
                for i in range(nm):
                    if _reach_after(SC, CH, P, SIGHT, actor, moves[i], buf, skills):
                        pick = i + 1
                        reason = R_M_CLOSES
                        break
            if pick == 0:
                _decision(EV, G, D_MOVE, actor, 0, reason, O_STAY, 0, 0, 0, 0, 0)
            else:
                z = moves[pick - 1]
                _decision(EV, G, D_MOVE, actor, pick, reason, O_MOVE, z, 0, 0, 0, 0)
                _emit(EV, G, E_MOVED, (actor, here, z, 1, 0, 0, 0, 0, 0, 0, 0))
                CH[actor, C_ZONE] = z
    _expire_boosts(A, AF, AL, G, EV, actor)


# -- the scene's end (end.finish) ---------------------------------------------------------
@njit(cache=True, _nrt=False)
def _finish(SC, CH, MARK, G, EV, unresolved):
    winner = NEG
    if not unresolved:
        for c in range(SC.shape[0]):
            if CH[c, C_STATUS] == ACTIVE:
                if winner == NEG:
                    winner = SC[c, S_SIDE]
                elif SC[c, S_SIDE] != winner:
                    winner = -2
        if winner == -2:
            winner = NEG
    for c in range(SC.shape[0]):
        pay = CH[c, C_OWED] + (1 + CH[c, C_CTAKEN] if CH[c, C_STATUS] == CONCEDED else 0)
        if pay and SC[c, S_NPC] == 0:
            CH[c, C_FP] += pay
        for b in range(SC[c, S_NBOX]):
            MARK[c, b] = 0
    G[G_WINNER] = winner
    G[G_UNRESOLVED] = 1 if unresolved else 0
    _emit(EV, G, E_ENDED, (winner, G[G_EXCHANGE], 1 if unresolved else 0, 0, 0, 0, 0, 0, 0, 0, 0))


@njit(cache=True, _nrt=False)
def _begin_exchange(SC, CH, MARK, G, EV, P):
    G[G_EXCHANGE] += 1
    if G[G_EXCHANGE] > P[P_MAXEX]:
        G[G_EXCHANGE] -= 1
        _finish(SC, CH, MARK, G, EV, True)
        return False
    if G[G_HORIZON] > 0 and G[G_EXCHANGE] >= G[G_HORIZON]:  # a look-ahead's copy has seen enough
        G[G_BAIL] = BAIL_HORIZON
        return False
    _emit(EV, G, E_EXCHANGE, (G[G_EXCHANGE], 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    for c in range(SC.shape[0]):
        CH[c, C_ACTED] = 0
    return True


@njit(cache=True, _nrt=False)
def _next_in_order(CH, P, after):
    """By skills: the position of the next character still in the fight after ``after`` (or -1)."""
    n = CH.shape[0]
    for j in range(after + 1, n):
        if CH[P[P[P_ORDER] + j], C_STATUS] == ACTIVE:
            return j
    return NEG


# -- one conflict (flows/conflict.run with basic._next) ------------------------------------
@njit(cache=True, _nrt=False)
def _reset(T, W):
    """A fresh table for the next episode: the characters as built, the aspects of the set-up."""
    SC, A0, AF0, P = T.SC, T.A0, T.AF0, T.P
    CH, MARK, SLOTA, G, A, AF, AL, INV = W.CH, W.MARK, W.SLOTA, W.G, W.A, W.AF, W.AL, W.INV
    n = SC.shape[0]
    for a in range(A.shape[0]):
        for k in range(NAF):
            A[a, k] = 0
        for h in range(n):
            AF[a, h] = 0
        AL[a] = 0
        for sd in range(INV.shape[0]):
            INV[sd, a] = 0
    nans, playout, horizon = G[G_NANS], G[G_PLAYOUT], G[G_HORIZON]
    for k in range(NG):  # past NG: an agent's answers, kept (and a look-ahead's settings)
        G[k] = 0
    G[G_NANS], G[G_PLAYOUT], G[G_HORIZON] = nans, playout, horizon
    G[G_GMPOOL] = P[P_GMPOOL]
    G[G_WINNER] = NEG
    for a in range(A0.shape[0]):
        aid = a + 1
        for k in range(NAF):
            A[aid, k] = A0[a, k]
        for h in range(n):
            AF[aid, h] = AF0[a, h]
        A[aid, A_ALIVE] = 1
        AL[a] = aid
    A[0, 0] = A0.shape[0]
    G[G_NAL] = A0.shape[0]
    G[G_ASEQ] = A0.shape[0]
    for c in range(n):
        for k in range(NCF):
            CH[c, k] = 0
        CH[c, C_ZONE] = SC[c, S_ZONE]
        CH[c, C_FP] = SC[c, S_FP]
        CH[c, C_TOOKBY] = NEG
        CH[c, C_NSTUNT] = SC[c, S_NSTUNT]
        CH[c, C_MEMBERS] = SC[c, S_COUNT]
        CH[c, C_MOB] = SC[c, S_MOB]
        CH[c, C_COUNT] = SC[c, S_COUNT]
        CH[c, C_TWCAP] = P[P_TWCAP]
        for b in range(MARK.shape[1]):
            MARK[c, b] = 0
        for k in range(SLOTA.shape[1]):
            SLOTA[c, k] = NEG


@njit(cache=True)
def _scratch(n, ZF, TPL):
    """The working buffers a flow writes into, sized for the scene (allocated once per call into
    the kernel: the helpers run without reference counting)."""
    return Work(np.zeros(NR, np.int64), np.empty(n, np.int64), np.empty(4, np.int64), np.empty(n, np.int64),
                np.empty(n, np.int64), np.empty(8, np.int64), np.empty(4, np.int64), np.empty((2048, 7), np.int64),
                np.empty(4, np.int64), np.empty(ZF.shape[1] + 1, np.int64), np.empty(4 * n, np.int64),
                np.empty(4 * n, np.int64), np.empty(8, np.int64), np.empty(n, np.int64),
                np.empty(TPL.shape[0] * (n + 1) + 1, np.int64), np.empty(TPL.shape[0] * (n + 1) + 1, np.int64))


# -- conflicts, one after another (flows/conflict.run with basic._next) ---------------------
@njit(cache=True)
def play_batch(T, SEEDS, POLICY_RNG0, EV, CH_out, MARK, SLOTA_out, G_out):
    """Play one conflict per seed in ``SEEDS`` on the scene ``T`` (a ``Scene``), each from its
    start with the dice of ``default_rng(seed)``. The final states come back in ``CH_out[i]``,
    ``SLOTA_out[i]``, ``G_out[i]``; ``EV[:G_out[-1, G_NEV]]`` holds the last episode's events (one
    seed: its log). ``G_out[i, G_BAIL]`` is non-zero when episode i took a path the kernel does not
    cover (the caller then plays it on the reference engine). ``POLICY_RNG0[i]``: the random
    policy's generator at the start of episode i (numpy's state: see core.py). Every array the
    flow needs is allocated here, once per batch: the helpers below run without reference
    counting."""
    SC, P = T.SC, T.P
    n = SC.shape[0]
    amax = P[P_AMAX]
    A = np.zeros((amax, NAF), np.int64)
    AF = np.zeros((amax, n), np.int64)
    AL = np.zeros(amax, np.int64)
    INV = np.zeros((P[P_NSIDES], amax), np.int64)
    RNG = np.zeros(2 * RNG_SIZE, np.uint64)  # the dice, then the random policy's generator
    B = _scratch(n, T.ZF, T.TPL)
    for i in range(SEEDS.shape[0]):
        seed_rng(RNG, SEEDS[i])
        for j in range(RNG_SIZE):
            RNG[RNG_SIZE + j] = POLICY_RNG0[i, j]
        W = Fight(CH_out[i], MARK, SLOTA_out[i], G_out[i], A, AF, AL, INV, RNG)
        _reset(T, W)
        _run(T, W, B, EV, W)  # no checkpoints in a batch: the state stands in for them, unused


@njit(cache=True, _nrt=False)
def _run(T, W, B, EV, K):
    """The conflict's flow once the state is set up (compiled without reference counting:
    every helper below only reads and writes arrays it is handed). Under G_CKMODE the state is
    saved into the CK arrays at each turn's start; under G_RESUME the flow starts from there."""
    SC, SK, ST, P = T.SC, T.SK, T.ST, T.P
    MARK, CH, A, AF, AL, G, RNG = W.MARK, W.CH, W.A, W.AF, W.AL, W.G, W.RNG
    skills, allies, pool = B.skills, B.allies, B.pool
    n = SC.shape[0]
    resume = G[G_RESUME] != 0
    G[G_RESUME] = 0
    if not resume and not _begin_exchange(SC, CH, MARK, G, EV, P):
        return
    if P[P_POPCORN] == 0:  # Core's fixed order by skills
        cursor = G[G_CKCURSOR] if resume else _next_in_order(CH, P, NEG)
        while True:
            actor = P[P[P_ORDER] + cursor]
            if G[G_CKMODE] != 0:
                G[G_CKCURSOR] = cursor
                _save(W, K)
            _turn(T, W, B, EV, actor)
            if G[G_BAIL] != BAIL_NONE:
                return
            CH[actor, C_ACTED] = 1
            if _over(SC, CH):
                _finish(SC, CH, MARK, G, EV, False)
                return
            i = _next_in_order(CH, P, cursor)
            if i == NEG:
                if not _begin_exchange(SC, CH, MARK, G, EV, P):
                    return
                i = _next_in_order(CH, P, NEG)
            cursor = i
    # popcorn: whoever acted names who goes next
    opener = P[P_FIRST]
    if resume:
        actor = G[G_CKACTOR]
    else:
        actor = opener if CH[opener, C_STATUS] == ACTIVE else _first_active(CH)
    while True:
        if G[G_CKMODE] != 0:
            G[G_CKACTOR] = actor
            _save(W, K)
        _turn(T, W, B, EV, actor)
        if G[G_BAIL] != BAIL_NONE:
            return
        CH[actor, C_ACTED] = 1
        if _over(SC, CH):
            _finish(SC, CH, MARK, G, EV, False)
            return
        # who goes next: the one who just acted names them (popcorn)
        nrem = 0
        for c in range(n):
            if CH[c, C_STATUS] == ACTIVE and CH[c, C_ACTED] == 0:
                pool[nrem] = c
                nrem += 1
        npool = nrem
        if nrem == 0:
            for c in range(n):
                if CH[c, C_STATUS] == ACTIVE:
                    pool[npool] = c
                    npool += 1
        if CH[actor, C_STATUS] == ACTIVE:
            chooser = actor
        else:
            na = _allies(SC, CH, actor, allies)
            chooser = allies[0] if na > 0 else _first_active(CH)
        if npool == 1:
            pick = pool[0]
        else:
            pick = NEG
            side = SC[chooser, S_SIDE]
            if _draws(P, chooser, D_NEXT):
                pick = _draw(P, RNG, G, chooser, D_NEXT, npool)
                if pick < 0:
                    if G[G_BAIL] == BAIL_PAUSE:
                        for q in range(npool):
                            _opt(EV, G, q, O_NEXT, pool[q], 0, 0, 0, 0)
                    return
                _decision(EV, G, D_NEXT, chooser, pick, _why(P, chooser, D_NEXT), O_NEXT, pool[pick], 0, 0, 0, 0)
            elif P[P[P_POL] + POL_W * chooser + POL_KIND] == PK_TACTICIAN:
                for i in range(npool):  # TacticianController._next: an ally who holds free invokes
                    if SC[pool[i], S_SIDE] == side and _holds_free(AF, AL, G, pool[i]):
                        pick = i
                        break
                if pick != NEG:
                    _decision(EV, G, D_NEXT, chooser, pick, R_N_HOLDER, O_NEXT, pool[pick], 0, 0, 0, 0)
            if pick == NEG:
                for i in range(npool):
                    if SC[pool[i], S_SIDE] == side:
                        pick = i
                        break
                if pick != NEG:
                    _decision(EV, G, D_NEXT, chooser, pick, R_N_ALLY, O_NEXT, pool[pick], 0, 0, 0, 0)
            if pick == NEG:
                best = 0
                best_v = 1 << 30
                for i in range(npool):
                    na = _attack_skills(P, pool[i], skills)
                    v = -(1 << 30)
                    for j in range(na):
                        r = _attack_rating(SK, ST, CH, A, pool[i], skills[j], NEG)
                        if r > v:
                            v = r
                    if v < best_v:
                        best_v = v
                        best = i
                pick = best
                _decision(EV, G, D_NEXT, chooser, pick, R_N_WEAKEST, O_NEXT, pool[pick], 0, 0, 0, 0)
            pick = pool[pick]
        _emit(EV, G, E_NEXT, (chooser, pick, 1 if nrem == 0 else 0, 0, 0, 0, 0, 0, 0, 0, 0))
        if nrem == 0:
            if not _begin_exchange(SC, CH, MARK, G, EV, P):
                return
            actor = pick if CH[pick, C_STATUS] == ACTIVE else _first_active(CH)
        else:
            actor = pick
        if G[G_BAIL] != BAIL_NONE:
            return



# -- a session answered from outside, resumed at the last turn's start -----------------------
@njit(cache=True, _nrt=False)
def _copy2(dst, src, rows):
    for i in range(rows):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@njit(cache=True, _nrt=False)
def _save(W, K):
    """The state at a turn's start, into the checkpoint (the aspect rows in use only)."""
    CH, MARK, SLOTA, G, A, AF, AL, INV, RNG = W.CH, W.MARK, W.SLOTA, W.G, W.A, W.AF, W.AL, W.INV, W.RNG
    CKCH, CKMARK, CKSLOTA, CKG, CKA = K.CH, K.MARK, K.SLOTA, K.G, K.A
    CKAF, CKAL, CKINV, CKRNG = K.AF, K.AL, K.INV, K.RNG
    _copy2(CKCH, CH, CH.shape[0])
    _copy2(CKMARK, MARK, MARK.shape[0])
    _copy2(CKSLOTA, SLOTA, SLOTA.shape[0])
    for k in range(NG):
        CKG[k] = G[k]
    top = A[0, 0] + 1
    _copy2(CKA, A, top)
    _copy2(CKAF, AF, top)
    for i in range(G[G_NAL]):
        CKAL[i] = AL[i]
    for sd in range(INV.shape[0]):
        for a in range(top):
            CKINV[sd, a] = INV[sd, a]
    for j in range(RNG.shape[0]):
        CKRNG[j] = RNG[j]


@njit(cache=True, _nrt=False)
def _restore(W, K):
    """Back to the checkpoint, keeping the answers (G past NG, and their count): the marks of
    aspects made after it are cleared, so a new path cannot read the abandoned one's."""
    CH, MARK, SLOTA, G, A, AF, AL, INV, RNG = W.CH, W.MARK, W.SLOTA, W.G, W.A, W.AF, W.AL, W.INV, W.RNG
    CKCH, CKMARK, CKSLOTA, CKG, CKA = K.CH, K.MARK, K.SLOTA, K.G, K.A
    CKAF, CKAL, CKINV, CKRNG = K.AF, K.AL, K.INV, K.RNG
    nans = G[G_NANS]
    old_top = A[0, 0] + 1
    _copy2(CH, CKCH, CH.shape[0])
    _copy2(MARK, CKMARK, MARK.shape[0])
    _copy2(SLOTA, CKSLOTA, SLOTA.shape[0])
    for k in range(NG):
        G[k] = CKG[k]
    G[G_NANS] = nans
    top = CKA[0, 0] + 1
    _copy2(A, CKA, top)
    _copy2(AF, CKAF, top)
    for i in range(G[G_NAL]):
        AL[i] = CKAL[i]
    for sd in range(INV.shape[0]):
        for a in range(top):
            INV[sd, a] = CKINV[sd, a]
        for a in range(top, old_top):
            INV[sd, a] = 0
    for j in range(RNG.shape[0]):
        RNG[j] = CKRNG[j]


@njit(cache=True)
def advance(T, SEED, POLICY_RNG0, EV, W, K, fresh):
    """Play one conflict whose ``agent`` seats are answered from outside (G past NG), from its
    start (``fresh``) or from the checkpoint ``K`` of the last turn's start, to its end or to the
    first decision past the answers (a pause: see _draw). ``W`` and ``K`` (both ``Fight``
    bundles) are the caller's and persist between calls, so a pause costs the replay of one
    turn, not of the whole fight."""
    G, RNG = W.G, W.RNG
    if fresh:
        seed_rng(RNG, SEED[0])
        for j in range(RNG_SIZE):
            RNG[RNG_SIZE + j] = POLICY_RNG0[j]
        _reset(T, W)
    else:
        _restore(W, K)
        G[G_RESUME] = 1
    G[G_CKMODE] = 1
    G[G_BAIL] = BAIL_NONE
    _run(T, W, _scratch(T.SC.shape[0], T.ZF, T.TPL), EV, K)


# -- a look-ahead: copies of one position played on (agents/search.py) ---------------------------
@njit(cache=True)
def playouts(T0, SEED, ANSWERS, TRIES, RSEEDS, horizon, EV, CH_out, OUT, H_out):
    """Copies of one position, each played on with its own dice (``Engine.fork``). The scene is
    replayed once from ``SEED`` with every seat answered by ``ANSWERS`` (the scene's answers so
    far) to the decision they lead to, keeping the state at that turn's start; copy i starts from
    there, answers that decision with ``TRIES[i]``, and from then on every seat plays its policy on
    the dice of ``default_rng(RSEEDS[i])`` until the end or until exchange ``horizon`` begins (0:
    the end). ``OUT[i]``: the winning side (-1 none) and G_BAIL (BAIL_HORIZON: stopped at the
    horizon); ``OUT[-1]``: the decision the replay reached (kind, actor, option count; actor -1 if
    it reached none). ``H_out[i, c]``: what c has used up of its stress boxes and consequence
    slots on the scene's track, and their total (search.harm); ``CH_out[i]``: its characters."""
    SC, SLOTS = T0.SC, T0.SLOTS
    n = SC.shape[0]
    P = T0.P.copy()  # the copies' seats stop asking once their answers are spent: their own P
    T = Scene(SC, T0.SK, T0.ST, SLOTS, T0.A0, T0.AF0, P, T0.SIGHT, T0.HOPS, T0.ZF, T0.ZFN, T0.ZR, T0.ZRN, T0.TPL)
    asks = np.zeros(n, np.int64)
    for c in range(n):
        asks[c] = P[P[P_POL] + POL_W * c + POL_ASKS]
    amax = P[P_AMAX]
    A = np.zeros((amax, NAF), np.int64)
    AF = np.zeros((amax, n), np.int64)
    AL = np.zeros(amax, np.int64)
    INV = np.zeros((P[P_NSIDES], amax), np.int64)
    MARK = np.zeros((n, 64), np.int64)
    RNG = np.zeros(3 * RNG_SIZE, np.uint64)  # the dice, the random policy's generator, the copy's dice
    nans = ANSWERS.shape[0]
    G = np.zeros(NG + nans + 1, np.int64)
    CH = np.zeros((n, CH_out.shape[2]), np.int64)
    SLOTA = np.zeros((n, SLOTS.shape[1]), np.int64)
    W = Fight(CH, MARK, SLOTA, G, A, AF, AL, INV, RNG)
    K = Fight(np.zeros_like(CH), np.zeros_like(MARK), np.zeros_like(SLOTA), np.zeros(NG, np.int64), np.zeros_like(A),
              np.zeros_like(AF), np.zeros_like(AL), np.zeros_like(INV), np.zeros_like(RNG))
    B = _scratch(n, T.ZF, T.TPL)
    # the scene to the decision, once, keeping its turn's start
    for j in range(nans):
        G[NG + j] = ANSWERS[j]
    G[G_NANS] = nans
    seed_rng(RNG, SEED[0])
    _reset(T, W)
    G[G_CKMODE] = 1
    _run(T, W, B, EV, K)
    last = OUT.shape[0] - 1
    OUT[last, 0] = G[G_PKIND]
    OUT[last, 1] = G[G_PACTOR] if G[G_BAIL] == BAIL_PAUSE else NEG
    OUT[last, 2] = G[G_PCOUNT]
    if G[G_BAIL] != BAIL_PAUSE:
        return
    for i in range(TRIES.shape[0]):
        _restore(W, K)
        for c in range(n):
            P[P[P_POL] + POL_W * c + POL_ASKS] = asks[c]
        seed_rng(RNG[2 * RNG_SIZE:], RSEEDS[i])
        G[NG + nans] = TRIES[i]
        G[G_NANS] = nans + 1
        G[G_RESUME] = 1
        G[G_CKMODE] = 0
        G[G_BAIL] = BAIL_NONE
        G[G_PLAYOUT] = n
        G[G_HORIZON] = horizon
        _run(T, W, B, EV, K)
        OUT[i, 0] = G[G_WINNER]
        OUT[i, 1] = G[G_BAIL]
        for c in range(n):
            used = 0
            total = 0
            for b in range(SC[c, S_NBOX]):
                total += SC[c, NSF + b]
                if MARK[c, b] != 0:
                    used += SC[c, NSF + b]
            for k in range(SC[c, S_NSLOT]):
                if SLOTS[c, k, L_TRACK] == NEG or SLOTS[c, k, L_TRACK] == P[P_TRACK]:
                    total += SLOTS[c, k, L_VALUE]
                    if SLOTA[c, k] != NEG:
                        used += SLOTS[c, k, L_VALUE]
            H_out[i, c, 0] = used
            H_out[i, c, 1] = total
        for c in range(n):
            for k in range(CH.shape[1]):
                CH_out[i, c, k] = CH[c, k]
