"""The scripted policies' pick of a turn's option (``agents/basic.py``, ``agents/tactics.py``), one
function per policy: each reads the turn's options (built by ``turn._turn_options``, their counts in
``n``) and names one by its index, with its reason and the decision's extra fields; none changes
the fight. ``turn._take`` then takes it, as it takes an agent's or a random pick.

A pick is a tuple (option index, reason, x2, x3, x4, x5): the x's are the decision's fields the
option does not fill itself (``basic``'s closing-in names the better skill and the Mediocre one;
``stacker`` the aspect's name and the invokes held; a zone attack the foes it catches), 0 elsewhere.
``NO_PICK`` (index NEG) hands the turn on to ``basic``, as the tactics subclass it.
"""

from __future__ import annotations

from ..jit import njit
from .basic import (
    _best_odds_pick, _close_in, _danger, _may_concede, _minor_step, _reach_after, _reach_step, _should_concede,
)
from .aspects import _nth_aspect
from .layout import (
    P_CSIDE, P_NTASK, P_TASK, R_T_RETREAT, R_T_TASK, TK_SKILL, TKW,
    G_MAP, A_NAME, A_OWNER, ACT_ATTACK, C_ACTED, C_NSTUNT, C_ZONE, G_NAL, NEG, P_POL, PK_BRUTE, PK_SNIPER, PK_STACKER,
    PK_SPREAD, R_T_SPREAD,
    PK_SUPPORT, PK_TACTICIAN, POL_GUARD, POL_KIND, POL_LIKELY, POL_STACK, POL_W, R_T_ATTACK, R_T_BACKS,
    R_T_BACKS_UP, R_T_BLAST, R_T_CASHES, R_T_CLOSES, R_T_CONCEDE, R_T_FOCUSES, R_T_FORCES, R_T_FULLDEF,
    R_T_GUARDS, R_T_OUTMATCHED, R_T_SETS_UP, R_T_SETS_UP_FOR, R_T_SETS_UP_ON, R_T_SHOOTS, R_T_SMASH, R_T_STACKS,
    R_T_STEP, S_SIDE, TGT_SCENE, P_MINOR, R_T_MINOR_STEP, R_T_NOTHING, ACTIVE, BK_ATTACK, C_STATUS, R_T_BLOCKS,
    R_T_PROTECT, R_M_CLOSES, R_M_FALLS, R_M_HOLDS, R_M_STAYS, R_N_ALLY, R_N_HOLDER, R_N_WEAKEST,
)
from .block import _nth_block
from .mirror import mirrors
from .protect import _nth_protect
from .overcome_move import _nth_overcome
from .reach import _attack_skills
from .rolls import _attack_rating, _defense_rating, _effective, _stunt
from .stress import _cap
from .task import _nth_own_task
from .tactics import _closest_pick, _foe_here, _held, _holds_free, _ranged_pick
from .zone_attack import _worth_blasting

# the counts of a turn's options, by kind, in actions.ACTIONS order (turn._turn_options' tuple)
N_MOVE, N_ATT, N_ADV, N_EXP, N_OVER, N_REM, N_AL, N_ZA, N_CO, N_HOLD, N_SHOVE, N_FD, N_PROT, N_BLK, N_TOCON, \
    N_TASK = range(16)
# N_TASK: the challenge's tasks a turn offers (task.offer), after the removals and before the turn to the contest
# N_TOCON: 1 where a turn offers to turn the conflict into the scene's contest (turn_to_contest.offer), after the
# removals
# N_PROT, N_BLK: Fate 3.0's blocks for an ally and against a foe's kind of action, after the hold
# N_FD: 1 where a turn offers full defense (0 once Fate 3.0's minor move is taken, 002:41)
# N_SHOVE: the shoves into a block (shove.offer), after the zone attacks and before the hold
# N_CO: 1 where a turn offers Concede (0 under offered concessions, 001:150); N_HOLD: 1 where it offers to
# hold the action (hold_action, once an exchange, before any free move: 001:82-84), after the zone attacks


@mirrors("fate_env.rules.actions.turn_options")
@njit(cache=True, _nrt=False, inline="always")
def _full_defense_at(n):
    """The index of full defense among a turn's options (after the moves, attacks, advantages,
    exploits, overcome moves, removals, the challenge's tasks and the turn to the contest)."""
    return n[N_MOVE] + n[N_ATT] + n[N_ADV] + n[N_EXP] + n[N_OVER] + n[N_REM] + n[N_TASK] + n[N_TOCON]


@mirrors("fate_env.rules.actions.turn_options")
@njit(cache=True, _nrt=False, inline="always")
def _concede_at(n):
    """The index of Concede among a turn's options (after full defense and the supports), where offered."""
    return _full_defense_at(n) + n[N_FD] + n[N_AL]


@mirrors("fate_env.rules.actions.turn_options")
@njit(cache=True, _nrt=False, inline="always")
def _protect_at(n):
    """The index of the first block for an ally (after pass, the zone attacks, the shoves and the hold)."""
    return _pass_at(n) + 1 + n[N_ZA] + n[N_SHOVE] + n[N_HOLD]


@mirrors("fate_env.rules.actions.turn_options")
@njit(cache=True, _nrt=False, inline="always")
def _pass_at(n):
    """The index of Pass among a turn's options (after Concede, where it is offered); the zone attacks follow."""
    return _concede_at(n) + n[N_CO]


@mirrors("agents.tactics.TacticianController._turn")
@njit(cache=True, _nrt=False, inline="always")
def _tactician_pick(T, W, B, actor, pol, n):
    """tactician (agents/tactics.py): one hit from out -> full defense; else the most wounded foe in
    reach: cash stacked free invokes on it, or set it up, or hit it with the best rating; nothing
    in reach -> basic."""
    SC, SK, ST, SLOTS, P = T.SC, T.SK, T.ST, T.SLOTS, T.P
    MARK, SLOTA, CH, A, AF, AL, G = W.MARK, W.SLOTA, W.CH, W.A, W.AF, W.AL, W.G
    att_t, att_s, adv_g = B.att_t, B.att_s, B.adv_g
    nm, natt, nadv = n[N_MOVE], n[N_ATT], n[N_ADV]
    if n[N_FD] != 0:
        found, worst = _danger(T, W, actor, pol, B)
        if found and worst > 0:
            return _full_defense_at(n), R_T_GUARDS, 0, 0, 0, 0
    if natt == 0:
        return NEG, 0, 0, 0, 0, 0
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
                return nm + natt + i, R_T_SETS_UP_ON, 0, 0, 0, 0
    pick = NEG
    best_r = 0
    for i in range(natt):
        if att_t[i] == focus:
            r = _attack_rating(SK, ST, CH, A, actor, att_s[i], focus)
            if pick == NEG or r > best_r:
                pick = i
                best_r = r
    return nm + pick, why, 0, 0, 0, 0


@mirrors("agents.tactics.SupportController._turn")
@njit(cache=True, _nrt=False, inline="always")
def _support_pick(T, W, B, actor, n):
    """support (agents/tactics.py): back up the first ally yet to act whose best attack skill it has
    a rank in; else, with allies, set up the first foe it can; else basic."""
    SC, SK, ST, P = T.SC, T.SK, T.ST, T.P
    CH, A = W.CH, W.A
    skills, allies, adv_g = B.skills, B.allies, B.adv_g
    nal = n[N_AL]
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
            return _full_defense_at(n) + n[N_FD] + j, R_T_BACKS_UP, best_s, 0, 0, 0
    if nal > 0:
        for i in range(n[N_ADV]):
            t = adv_g[i]
            if t < TGT_SCENE and SC[t, S_SIDE] != SC[actor, S_SIDE]:
                return n[N_MOVE] + n[N_ATT] + i, R_T_SETS_UP_FOR, 0, 0, 0, 0
    return NEG, 0, 0, 0, 0, 0


@mirrors("agents.tactics.StackerController._turn")
@njit(cache=True, _nrt=False, inline="always")
def _stacker_pick(T, W, B, actor, pol, n):
    """stacker (agents/tactics.py): with ``guard`` (counter), holding nothing and every attack rated
    below its target's defense, full defense; under ``stack`` free invokes held, take advantage of
    the first aspect of its own on offer; else basic."""
    SC, SK, ST, P, SIGHT = T.SC, T.SK, T.ST, T.P, T.SIGHT[W.G[G_MAP]]
    CH, A, AF, AL, G = W.CH, W.A, W.AF, W.AL, W.G
    att_t, att_s = B.att_t, B.att_s
    natt = n[N_ATT]
    held = 0
    for i in range(G[G_NAL]):
        held += AF[AL[i], actor]
    if P[pol + POL_GUARD] != 0 and held == 0 and natt > 0 and n[N_FD] != 0:
        outmatched = True
        for i in range(natt):
            if _attack_rating(SK, ST, CH, A, actor, att_s[i], att_t[i]) >= \
                    _defense_rating(SK, ST, CH, A, P, att_t[i], actor, att_s[i]):
                outmatched = False
                break
        if outmatched:
            return _full_defense_at(n), R_T_OUTMATCHED, 0, 0, 0, 0
    if held < P[pol + POL_STACK]:
        for i in range(n[N_EXP]):
            aid = _nth_aspect(SC, CH, A, AL, G, P, SIGHT, actor, i, False)
            if A[aid, A_OWNER] == actor:
                return n[N_MOVE] + natt + n[N_ADV] + i, R_T_STACKS, 0, 0, A[aid, A_NAME], held
    return NEG, 0, 0, 0, 0, 0


@mirrors("agents.tactics.SniperController._turn")
@njit(cache=True, _nrt=False, inline="always")
def _sniper_pick(T, W, B, actor, n):
    """sniper (agents/tactics.py): a foe in its zone -> the first free move from which it still
    reaches a foe; then the ranged attack with the best rating against defense; else basic."""
    SC, SK, ST, P = T.SC, T.SK, T.ST, T.P
    CH, A = W.CH, W.A
    if _foe_here(SC, CH, actor):
        i = _reach_step(T, CH, W.G, actor, B.moves, n[N_MOVE], B.buf, B.skills)
        if i != NEG:
            return i, R_T_BACKS, 0, 0, 0, 0
    pick = _ranged_pick(SK, ST, CH, A, P, actor, n[N_ATT], B.att_t, B.att_s)
    if pick != NEG:
        return n[N_MOVE] + pick, R_T_SHOOTS, 0, 0, 0, 0
    return NEG, 0, 0, 0, 0, 0


@mirrors("agents.basic.BasicController._turn")
@njit(cache=True, _nrt=False)
def _goal_pick(T, W, actor, n):
    """basic, in a conflict holding the scene's challenge: the challengers turn the conflict into the scene's
    contest once the challenge is done (the way is open), and work on a task while they may, the one whose
    skill they rate best (the first of equals). (NEG, ...) for neither."""
    SC, SK, ST, P = T.SC, T.SK, T.ST, T.P
    CH, A = W.CH, W.A
    first = n[N_MOVE] + n[N_ATT] + n[N_ADV] + n[N_EXP] + n[N_OVER] + n[N_REM]  # the tasks' place
    if n[N_TOCON] != 0 and P[P_NTASK] != 0 and SC[actor, S_SIDE] == P[P_CSIDE]:
        return first + n[N_TASK], R_T_RETREAT, 0, 0, 0, 0
    best, best_v = NEG, 0
    for q in range(n[N_TASK]):
        v = _effective(SK, ST, CH, A, actor, P[P[P_TASK] + TKW * _nth_own_task(SC, CH, P, W.G, actor, q) + TK_SKILL])
        if best == NEG or v > best_v:
            best, best_v = q, v
    if best != NEG:
        return first + best, R_T_TASK, 0, 0, 0, 0
    return NEG, 0, 0, 0, 0, 0


@mirrors("agents.basic.BasicController._turn", "agents.tactics.BruteController._turn")
@njit(cache=True, _nrt=False, inline="always")
def _basic_pick(T, W, B, actor, pol, n, blasts):
    """basic (agents/basic.py; brute smashes the closest foe where basic weighs the odds): concede
    when it should; the best attack (a zone attack that catches two foes and no friend first;
    a free step first where it brings a better skill than Mediocre to bear); else a step into
    reach, an overcome move that brings a foe into reach, an advantage on itself, full defense."""
    SC, SK, ST, P, SIGHT, ZR, ZRN = T.SC, T.SK, T.ST, T.P, T.SIGHT[W.G[G_MAP]], T.ZR, T.ZRN
    CH, A = W.CH, W.A
    buf, skills, moves, att_t, att_s, adv_g = B.buf, B.skills, B.moves, B.att_t, B.att_s, B.adv_g
    nm, natt, nadv, nexp, nover = n[N_MOVE], n[N_ATT], n[N_ADV], n[N_EXP], n[N_OVER]
    if n[N_CO] != 0 and _may_concede(CH, P, actor) and _should_concede(T, W, actor, B):
        return _concede_at(n), R_T_CONCEDE, 0, 0, 0, 0
    if not (P[pol + POL_KIND] == PK_BRUTE and natt > 0):  # brute smashes first
        got = _goal_pick(T, W, actor, n)
        if got[0] != NEG:
            return got
    why = R_T_ATTACK
    if P[pol + POL_KIND] == PK_BRUTE and natt > 0:
        pick = _closest_pick(SK, ST, CH, A, actor, natt, att_t, att_s)
        why = R_T_SMASH
    else:
        if blasts != 0 and n[N_ZA] > 0:
            nth, foes = _worth_blasting(T, W, actor, n[N_ZA])
            if nth != NEG:
                return _pass_at(n) + 1 + nth, R_T_BLAST, 0, 0, 0, foes
        pick, best_score = _best_odds_pick(T, W, actor, natt, B, P[pol + POL_LIKELY])
        if P[P_MINOR] != 0 and nm > 0:  # Fate 3.0: a step first costs its minor action (002:28)
            j, score = _minor_step(T, W, actor, B, P[pol + POL_LIKELY], nm)
            if j != NEG and score > best_score + 1:
                return j, R_T_MINOR_STEP, 0, 0, 0, 0
        if (n[N_PROT] != 0 or n[N_BLK] != 0) and (pick == NEG or best_score < 0):  # Fate 3.0's blocks, attacking being poor
            got = _block_pick(T, W, B, actor, pol, n)
            if got[0] != NEG:
                return got
        if pick != NEG and nm > 0 and SK[actor, att_s[pick]] <= 0 and P[P_MINOR] == 0:
            # no plinking at Mediocre when a free step brings a better skill to bear
            mediocre = att_s[pick]
            j, better = _close_in(SC, SK, CH, P, SIGHT, actor, moves, nm, buf, skills, mediocre)
            if j != NEG:
                return j, R_T_CLOSES, better, mediocre, 0, 0
    if pick != NEG:
        return nm + pick, why, 0, 0, 0, 0
    i = _reach_step(T, CH, W.G, actor, moves, nm, buf, skills)
    if i != NEG:
        return i, R_T_STEP, 0, 0, 0, 0
    here = CH[actor, C_ZONE]
    for j in range(nover):  # the first overcome move that brings a foe into reach
        z = _nth_overcome(ZR, ZRN, here, moves, nm, j)
        if z == NEG:
            break
        if _reach_after(SC, SK, CH, P, SIGHT, actor, z, buf, skills):
            return nm + natt + nadv + nexp + j, R_T_FORCES, 0, 0, 0, 0
    for i in range(nadv):
        if adv_g[i] == actor:
            return nm + natt + i, R_T_SETS_UP, 0, 0, 0, 0
    if n[N_FD] == 0:
        return _pass_at(n), R_T_NOTHING, 0, 0, 0, 0
    return _full_defense_at(n), R_T_FULLDEF, 0, 0, 0, 0


@mirrors("agents.basic.BasicController._turn")
@njit(cache=True, _nrt=False)
def _block_pick(T, W, B, actor, pol, n):
    """basic's Fate 3.0 blocks, when attacking is poor: block for the ally in the most danger that the next
    likely hit would take out (the last of the most endangered); else, an ally being in danger, block the
    attacks of the foe with the best attack (the first of them). NO_PICK for neither."""
    SC, SK, ST, P = T.SC, T.SK, T.ST, T.P
    CH, A = W.CH, W.A
    best = NEG
    worst_best = 0
    for q in range(n[N_PROT]):
        found, worst = _danger(T, W, _nth_protect(SC, CH, P, actor, q), pol, B)
        if found and worst >= 0 and (best == NEG or worst >= worst_best):
            best = q
            worst_best = worst
    if best != NEG:
        return _protect_at(n) + best, R_T_PROTECT, 0, 0, 0, 0
    if n[N_BLK] == 0:
        return NEG, 0, 0, 0, 0, 0
    endangered = False
    for a in range(SC.shape[0]):
        if a != actor and CH[a, C_STATUS] == ACTIVE and SC[a, S_SIDE] == SC[actor, S_SIDE]:
            found, worst = _danger(T, W, a, pol, B)
            if found and worst > 0:  # basic's `(danger or -1) >= 0`: a danger of 0 counts as none
                endangered = True
                break
    if not endangered:
        return NEG, 0, 0, 0, 0, 0
    skills = B.skills
    best_v = 0
    for q in range(n[N_BLK]):
        t, kind = _nth_block(SC, CH, P, actor, q)
        if kind != BK_ATTACK:
            continue
        v = NEG - (1 << 30)
        for j in range(_attack_skills(P, t, skills)):
            r = _attack_rating(SK, ST, CH, A, t, skills[j], NEG)
            if r > v:
                v = r
        if best == NEG or v > best_v:
            best = q
            best_v = v
    if best == NEG:
        return NEG, 0, 0, 0, 0, 0
    return _protect_at(n) + n[N_PROT] + best, R_T_BLOCKS, 0, 0, 0, 0


@mirrors("agents.tactics.SpreaderController._turn")
@njit(cache=True, _nrt=False, inline="always")
def _spreader_pick(T, W, B, actor, n):
    """spreader (agents/tactics.py): with an attack in reach, the foe with the most left to take, hit with
    its best-rated attack; nothing in reach -> basic (its concession is asked before, as basic's)."""
    natt, att_t, att_s = n[N_ATT], B.att_t, B.att_s
    if natt == 0:
        return NEG, 0, 0, 0, 0, 0
    fresh = NEG  # the foe with the most left to take, the first offered of those alike
    fresh_cap = 0
    for i in range(natt):
        cap = _cap(T.SC, T.SLOTS, W.MARK, W.SLOTA, W.CH, T.P, att_t[i])
        if fresh == NEG or cap > fresh_cap:
            fresh = att_t[i]
            fresh_cap = cap
    pick = NEG  # its attack on that foe with the highest rating, the first of those alike
    best_r = 0
    for i in range(natt):
        if att_t[i] == fresh:
            r = _attack_rating(T.SK, T.ST, W.CH, W.A, actor, att_s[i], fresh)
            if pick == NEG or r > best_r:
                pick = i
                best_r = r
    return n[N_MOVE] + pick, R_T_SPREAD, 0, 0, 0, 0


@mirrors("agents.basic.BasicController._turn",
         "agents.tactics.TacticianController._turn")
@njit(cache=True, _nrt=False, inline="always")
def _script_pick(T, W, B, actor, n, blasts):
    """The seat's script's pick of a turn's option: its policy's own rule, then basic's where the
    policy hands the turn on (the tactics subclass basic). Tactician, support, stacker and spreader
    concede as basic does before their own rule."""
    P, CH = T.P, W.CH
    pol = P[P_POL] + POL_W * actor
    own = P[pol + POL_KIND]
    if own == PK_TACTICIAN or own == PK_SUPPORT or own == PK_STACKER or own == PK_SPREAD:
        if n[N_CO] != 0 and _may_concede(CH, P, actor) and _should_concede(T, W, actor, B):
            return _concede_at(n), R_T_CONCEDE, 0, 0, 0, 0
    if own == PK_TACTICIAN:
        got = _tactician_pick(T, W, B, actor, pol, n)
    elif own == PK_SUPPORT:
        got = _support_pick(T, W, B, actor, n)
    elif own == PK_STACKER:
        got = _stacker_pick(T, W, B, actor, pol, n)
    elif own == PK_SNIPER:
        got = _sniper_pick(T, W, B, actor, n)
    elif own == PK_SPREAD:
        got = _spreader_pick(T, W, B, actor, n)
    else:
        got = (NEG, 0, 0, 0, 0, 0)
    if got[0] != NEG:
        return got
    return _basic_pick(T, W, B, actor, pol, n, blasts)


@mirrors("agents.basic.BasicController._move", "agents.tactics.SniperController._move")
@njit(cache=True, _nrt=False, inline="always")
def _script_move(T, W, B, actor, nm, in_reach):
    """The script's free move after the action, (0: stay, else 1 + the move's index; reason): the
    sniper with a foe in its zone falls back to a firing position; basic stays with a foe in a
    weapon's reach, else closes in to the first zone from which one is."""
    SC, SK, P, SIGHT = T.SC, T.SK, T.P, T.SIGHT[W.G[G_MAP]]
    CH = W.CH
    buf, skills, moves = B.buf, B.skills, B.moves
    if P[P[P_POL] + POL_W * actor + POL_KIND] == PK_SNIPER and _foe_here(SC, CH, actor):
        for i in range(nm):
            if _reach_after(SC, SK, CH, P, SIGHT, actor, moves[i], buf, skills):
                return i + 1, R_M_FALLS
    if not in_reach:
        for i in range(nm):
            if _reach_after(SC, SK, CH, P, SIGHT, actor, moves[i], buf, skills):
                return i + 1, R_M_CLOSES
    return 0, R_M_STAYS if in_reach else R_M_HOLDS


@mirrors("agents.basic.BasicController._next", "agents.tactics.TacticianController._next")
@njit(cache=True, _nrt=False, inline="always")
def _script_next(T, W, B, chooser, npool):
    """Popcorn: the script's pick of who goes next among ``B.pool``'s first ``npool`` (their index;
    reason): the tactician names an ally who holds free invokes; else the first ally; else the
    foe with the weakest best attack."""
    SC, SK, ST, P = T.SC, T.SK, T.ST, T.P
    CH, A, AF, AL, G = W.CH, W.A, W.AF, W.AL, W.G
    skills, pool = B.skills, B.pool
    side = SC[chooser, S_SIDE]
    if P[P[P_POL] + POL_W * chooser + POL_KIND] == PK_TACTICIAN:
        for i in range(npool):
            if SC[pool[i], S_SIDE] == side and _holds_free(AF, AL, G, pool[i]):
                return i, R_N_HOLDER
    for i in range(npool):
        if SC[pool[i], S_SIDE] == side:
            return i, R_N_ALLY
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
    return best, R_N_WEAKEST
