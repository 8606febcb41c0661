"""A turn (``rules/flows/conflict.py``'s ``turn``): the options built (``rules/actions``'
``turn_options``), one picked (a random or outside seat draws it, a script picks it:
``picks.py``), taken (the action's ``run``), the free move after the action, the boosts expired.
"""

from __future__ import annotations

from ..jit import njit
from .advantage import _advantage, _advantage_options, _advantage_skill
from .block import _block, _get_past, _nth_block
from .aspects import _boost, _expire_boosts, _exploitable, _nth_aspect, _removable
from .attack import _attack
from .basic import _weapons
from .events import _decision, _emit, _opt
from .exploit import _exploit, _exploit_skill
from .layout import (
    G_TASKS, G_TOCONTEST, O_TASK, O_TO_CONTEST, P_CVICT,
    G_MAP, O_SHOVE, P_NBLK, ACTIVE, BAIL_NONE, BAIL_PAUSE, C_DEFONFULL, C_FULLDEF, C_NSUP, C_STATUS,
    C_ZONE, D_MOVE, D_TURN, E_MOVED, E_PASSED, E_TURN, G_BAIL, G_EXCHANGE, G_NAL, G_TURNSEQ,
    NEG, O_ADVANTAGE, O_ATTACK, O_CONCEDE, O_EXPLOIT, O_FULLDEF, O_MOVE, O_OVERCOME, O_PASS,
    O_REMOVE, O_STAY, O_SUPPORT, P_FD_CONDENSED, P_NAME_PREPARED,
    S_IMMOBILE, E_FORFEIT, P_FD_EXCHANGE, P_OFFERED, C_HELD, C_HELDONCE, E_HELD, FORFEIT_FULLDEF,
    G_HELDSEQ, O_HOLD, P_HOLD, C_MINOR, E_MINOR, P_BDIFF, P_MINOR, BK_ADVANTAGE, BK_ATTACK, BK_MOVE, O_BLOCKACT,
    O_PROTECT, P_ATHLETICS, P_BLOCKACT, P_PROTECT,
)
from .mirror import mirrors
from .overcome_move import _nth_overcome, _overcome_move
from .picks import (
    N_ADV, N_AL, N_ATT, N_BLK, N_CO, N_EXP, N_FD, N_HOLD, N_MOVE, N_OVER, N_PROT, N_REM, N_SHOVE, N_ZA, N_TOCON, N_TASK,
    _protect_at, _script_move, _script_pick,
)
from .reach import _attack_skills, _can_reach, _free_moves
from .protect import _nth_protect, _protect
from .remove import _remove
from .task import _attempt, _nth_own_task
from .shove import _nth_shove
from .seats import _draw, _draws, _why
from .stress import _concede
from .support import _full_defense, _pledge
from .table import _allies, _foes, _over
from .zone_attack import _blast, _blast_options, _nth_blast

#: what taking a turn's option leaves: the turn goes on (a free move was taken), the action is
#: done, or the flow stopped (an answer is awaited)
GOES_ON, DONE, STOPPED, HELD = 0, 1, 2, 3  # HELD: the whole turn put off (hold.run)


@mirrors("fate_env.rules.actions.turn_options")
@njit(cache=True, _nrt=False, inline="always")
def _turn_options(T, W, B, actor, free_move, blasts):
    """The turn's options, kind by kind in ``actions.ACTIONS`` order, written into the working
    buffers (moves, attacks, advantages, allies; exploits, overcome moves, removals and zone
    attacks are counted, and found again by their place); their counts, by kind (picks.N_*)."""
    SC, ST, P, SIGHT, ZF, ZFN, ZR, ZRN = T.SC, T.ST, T.P, T.SIGHT[W.G[G_MAP]], T.ZF[W.G[G_MAP]], T.ZFN[W.G[G_MAP]], T.ZR, T.ZRN
    CH, A, AL, G = W.CH, W.A, W.AL, W.G
    buf, skills, allies, moves, att_t, att_s = B.buf, B.skills, B.allies, B.moves, B.att_t, B.att_s
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
        if _exploitable(SC, CH, A, P, SIGHT, actor, aid):
            nexp += 1
        if _removable(SC, CH, A, P, actor, aid):
            nrem += 1
    nover = 0
    while SC[actor, S_IMMOBILE] == 0 and _nth_overcome(ZR, ZRN, here, moves, nm, nover) != NEG:
        nover += 1  # overcome_move.offer: none for an immobile character
    nza = 0
    while blasts != 0 and _nth_blast(SC, ST, P, SIGHT, CH, actor, nza)[0] != NEG:
        nza += 1
    hold = 1 if P[P_HOLD] != 0 and CH[actor, C_HELDONCE] == 0 and free_move else 0
    nsh = _nth_shove(SC, CH, G, P, actor, NEG)[3] if P[P_NBLK] != 0 else 0
    fd = 0 if P[P_MINOR] != 0 and not free_move else 1  # a full defense forgoes the minor actions too (002:41)
    nprot = _nth_protect(SC, CH, P, actor, NEG) if P[P_PROTECT] != 0 else 0
    nblk = _nth_block(SC, CH, P, actor, NEG)[0] if P[P_BLOCKACT] != 0 else 0
    tocon = 1 if P[P_CVICT] != 0 and G[G_TASKS] == 0 else 0  # the scene's contest, its challenge done
    ntask = 0
    while _nth_own_task(SC, CH, P, G, actor, ntask) != NEG:
        ntask += 1
    return nm, natt, nadv, nexp, nover, nrem, nal, nza, 0 if P[P_OFFERED] != 0 else 1, hold, nsh, fd, nprot, nblk, \
        tocon, ntask


@mirrors("fate_env.rules.decisions.Decision.options")
@njit(cache=True, _nrt=False)
def _list_options(T, W, B, EV, actor, n, blasts):
    """A paused turn's options, written past the events, in the order of ``_turn_options``."""
    SC, P, SIGHT, ZR, ZRN = T.SC, T.P, T.SIGHT[W.G[G_MAP]], T.ZR, T.ZRN
    CH, A, AL, G = W.CH, W.A, W.AL, W.G
    here = CH[actor, C_ZONE]
    q = 0
    for i in range(n[N_MOVE]):
        _opt(EV, G, q, O_MOVE, B.moves[i], 0, 0, 0, 0)
        q += 1
    for i in range(n[N_ATT]):
        _opt(EV, G, q, O_ATTACK, B.att_t[i], B.att_s[i], 0, 0, 0)
        q += 1
    for i in range(n[N_ADV]):
        _opt(EV, G, q, O_ADVANTAGE, B.adv_k[i], B.adv_g[i], 0, 0, 0)
        q += 1
    for i in range(n[N_EXP]):
        _opt(EV, G, q, O_EXPLOIT, _nth_aspect(SC, CH, A, AL, G, P, SIGHT, actor, i, False), 0, 0, 0, 0)
        q += 1
    for i in range(n[N_OVER]):
        _opt(EV, G, q, O_OVERCOME, _nth_overcome(ZR, ZRN, here, B.moves, n[N_MOVE], i), 0, 0, 0, 0)
        q += 1
    for i in range(n[N_REM]):
        _opt(EV, G, q, O_REMOVE, _nth_aspect(SC, CH, A, AL, G, P, SIGHT, actor, i, True), 0, 0, 0, 0)
        q += 1
    for i in range(n[N_TASK]):
        _opt(EV, G, q, O_TASK, _nth_own_task(SC, CH, P, G, actor, i), actor, 0, 0, 0)
        q += 1
    if n[N_TOCON] != 0:
        _opt(EV, G, q, O_TO_CONTEST, 0, 0, 0, 0, 0)
        q += 1
    if n[N_FD] != 0:
        _opt(EV, G, q, O_FULLDEF, 0, 0, 0, 0, 0)
        q += 1
    for i in range(n[N_AL]):
        _opt(EV, G, q, O_SUPPORT, B.allies[i], 0, 0, 0, 0)
        q += 1
    if n[N_CO] != 0:
        _opt(EV, G, q, O_CONCEDE, 0, 0, 0, 0, 0)
        q += 1
    _opt(EV, G, q, O_PASS, 0, 0, 0, 0, 0)
    if blasts != 0:
        _blast_options(T, CH, EV, G, actor, q + 1, n[N_ZA])
    q += 1 + n[N_ZA]
    for i in range(n[N_SHOVE]):
        c, s, b, _ = _nth_shove(SC, CH, G, P, actor, i)
        _opt(EV, G, q, O_SHOVE, c, s, b, 0, 0)
        q += 1
    if n[N_HOLD] != 0:
        _opt(EV, G, q, O_HOLD, 0, 0, 0, 0, 0)
        q += 1
    for i in range(n[N_PROT]):
        _opt(EV, G, q, O_PROTECT, _nth_protect(SC, CH, P, actor, i), 0, 0, 0, 0)
        q += 1
    for i in range(n[N_BLK]):
        t, kind = _nth_block(SC, CH, P, actor, i)
        _opt(EV, G, q, O_BLOCKACT, t, kind, 0, 0, 0)
        q += 1


@mirrors("fate_env.rules.flows.conflict.turn", "fate_env.rules.actions.move.run")
@njit(cache=True, _nrt=False, inline="always")
def _take(T, W, B, EV, actor, n, pick, blasts):
    """A pick (option ``j``, for ``why``; ``x2``-``x5``: the decision's fields the option does not
    fill itself, picks.py) taken: the decision written, then the action run. GOES_ON after a free
    move, STOPPED when a pledge awaits an answer, else DONE."""
    j, why, x2, x3, x4, x5 = pick
    SC, P, SIGHT, ZR, ZRN = T.SC, T.P, T.SIGHT[W.G[G_MAP]], T.ZR, T.ZRN
    CH, A, AL, G = W.CH, W.A, W.AL, W.G
    here = CH[actor, C_ZONE]
    if j < n[N_MOVE]:
        z = B.moves[j]
        _decision(EV, G, D_TURN, actor, j, why, O_MOVE, z, x2, x3, x4, x5)
        if P[P_BLOCKACT] != 0 and not _get_past(T, W, B, EV, actor, BK_MOVE, P[P_ATHLETICS]):
            return GOES_ON  # blocked (002:47): the move is spent
        _emit(EV, G, E_MOVED, (actor, here, z, 1, 0, 0, 0, 0, 0, 0, 0))
        CH[actor, C_ZONE] = z
        if P[P_MINOR] != 0:  # a minor action: -1 on the main action, the border's value more (002:28, 002:50-51)
            CH[actor, C_MINOR] = 1 + P[P[P_BDIFF] + (G[G_MAP] * SIGHT.shape[0] + here) * SIGHT.shape[0] + z]
            _emit(EV, G, E_MINOR, (actor, CH[actor, C_MINOR], 0, 0, 0, 0, 0, 0, 0, 0, 0))
        return GOES_ON
    i = j - n[N_MOVE]
    if i < n[N_ATT]:
        _decision(EV, G, D_TURN, actor, j, why, O_ATTACK, B.att_t[i], B.att_s[i], x3, x4, x5)
        if P[P_BLOCKACT] != 0 and not _get_past(T, W, B, EV, actor, BK_ATTACK, B.att_s[i]):
            return DONE  # blocked (002:47): the action is spent
        _attack(T, W, B, EV, actor, B.att_t[i], B.att_s[i], NEG)
        return DONE
    i -= n[N_ATT]
    if i < n[N_ADV]:
        k, g = B.adv_k[i], B.adv_g[i]
        _decision(EV, G, D_TURN, actor, j, why, O_ADVANTAGE, k, g, x3, x4, x5)
        if P[P_BLOCKACT] != 0 and not _get_past(T, W, B, EV, actor, BK_ADVANTAGE, _advantage_skill(T, W, actor, k, g)):
            return DONE
        _advantage(T, W, B, EV, actor, k, g, True)
        return DONE
    i -= n[N_ADV]
    if i < n[N_EXP]:
        aid = _nth_aspect(SC, CH, A, AL, G, P, SIGHT, actor, i, False)
        _decision(EV, G, D_TURN, actor, j, why, O_EXPLOIT, aid, x2, x3, x4, x5)
        if P[P_BLOCKACT] != 0 and not _get_past(T, W, B, EV, actor, BK_ADVANTAGE, _exploit_skill(T, W, actor, False)):
            return DONE
        _exploit(T, W, B, EV, actor, aid)
        return DONE
    i -= n[N_EXP]
    if i < n[N_OVER]:
        z = _nth_overcome(ZR, ZRN, here, B.moves, n[N_MOVE], i)
        _decision(EV, G, D_TURN, actor, j, why, O_OVERCOME, z, x2, x3, x4, x5)
        if P[P_BLOCKACT] != 0 and not _get_past(T, W, B, EV, actor, BK_MOVE, P[P_ATHLETICS]):
            return DONE
        _overcome_move(T, W, B, EV, actor, z)
        return DONE
    i -= n[N_OVER]
    if i < n[N_REM]:
        aid = _nth_aspect(SC, CH, A, AL, G, P, SIGHT, actor, i, True)
        _decision(EV, G, D_TURN, actor, j, why, O_REMOVE, aid, x2, x3, x4, x5)
        _remove(T, W, B, EV, actor, aid)
        return DONE
    i -= n[N_REM]
    if i < n[N_TASK]:
        task = _nth_own_task(SC, CH, P, G, actor, i)
        _decision(EV, G, D_TURN, actor, j, why, O_TASK, task, actor, x3, x4, x5)
        _attempt(T, W, B, EV, actor, task)
        return DONE
    i -= n[N_TASK]
    if n[N_TOCON] != 0 and i == 0:  # the conflict's flow hands over after this turn (turn_to_contest.run)
        _decision(EV, G, D_TURN, actor, j, why, O_TO_CONTEST, 0, x2, x3, x4, x5)
        G[G_TOCONTEST] = actor + 1
        return DONE
    i -= n[N_TOCON]
    if n[N_FD] != 0 and i == 0:
        _decision(EV, G, D_TURN, actor, j, why, O_FULLDEF, 0, x2, x3, x4, x5)
        _full_defense(CH, EV, G, actor)
        return DONE
    i -= n[N_FD]
    if i < n[N_AL]:
        ally = B.allies[i]
        _decision(EV, G, D_TURN, actor, j, why, O_SUPPORT, ally, x2, x3, x4, x5)
        return DONE if _pledge(CH, EV, G, actor, ally) else STOPPED
    i -= n[N_AL]
    if n[N_CO] != 0 and i == 0:
        _decision(EV, G, D_TURN, actor, j, why, O_CONCEDE, 0, x2, x3, x4, x5)
        _concede(SC, P, CH, EV, G, actor)
        return DONE
    i -= n[N_CO]
    rest = j - _protect_at(n)  # Fate 3.0's blocks, after the hold
    if rest >= 0 and rest < n[N_PROT]:
        ally = _nth_protect(SC, CH, P, actor, rest)
        _decision(EV, G, D_TURN, actor, j, why, O_PROTECT, ally, x2, x3, x4, x5)
        _protect(T, W, B, EV, actor, ally)
        return DONE
    if rest >= n[N_PROT] and rest < n[N_PROT] + n[N_BLK]:
        t, kind = _nth_block(SC, CH, P, actor, rest - n[N_PROT])
        _decision(EV, G, D_TURN, actor, j, why, O_BLOCKACT, t, kind, x3, x4, x5)
        _block(T, W, B, EV, actor, t, kind)
        return DONE
    if n[N_HOLD] != 0 and i == 1 + n[N_ZA] + n[N_SHOVE]:  # the whole turn put off, to be taken later in the exchange
        _decision(EV, G, D_TURN, actor, j, why, O_HOLD, 0, x2, x3, x4, x5)
        G[G_HELDSEQ] += 1
        CH[actor, C_HELD] = G[G_HELDSEQ]
        CH[actor, C_HELDONCE] = 1
        _emit(EV, G, E_HELD, (actor, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        return HELD
    if i == 0:
        _decision(EV, G, D_TURN, actor, j, why, O_PASS, 0, x2, x3, x4, x5)
        _emit(EV, G, E_PASSED, (actor, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        return DONE
    if blasts != 0 and i <= n[N_ZA]:
        _blast(T, W, B, EV, actor, i - 1, j, why, x5)
        return DONE
    c, s, b, _ = _nth_shove(SC, CH, G, P, actor, i - 1 - n[N_ZA])
    _decision(EV, G, D_TURN, actor, j, why, O_SHOVE, c, s, b, x4, x5)
    if P[P_BLOCKACT] != 0 and not _get_past(T, W, B, EV, actor, BK_ATTACK, s):
        return DONE
    _attack(T, W, B, EV, actor, c, s, b)
    return DONE


@mirrors("fate_env.rules.flows.conflict.turn")
@njit(cache=True, _nrt=False, inline="always")
def _move_after(T, W, B, EV, actor):
    """The free move after the action, drawn or the script's (``picks._script_move``); False when a
    seat's answer is awaited."""
    SC, SK, P, SIGHT, ZF, ZFN = T.SC, T.SK, T.P, T.SIGHT[W.G[G_MAP]], T.ZF[W.G[G_MAP]], T.ZFN[W.G[G_MAP]]
    CH, G, RNG = W.CH, W.G, W.RNG
    buf, skills, moves = B.buf, B.skills, B.moves
    nm = _free_moves(SC, CH, P, ZF, ZFN, actor, moves)
    if nm == 0:
        return True
    here = CH[actor, C_ZONE]
    nf = _foes(SC, CH, actor, buf)
    na = _weapons(SK, P, actor, skills)  # basic._move: a foe in reach of a weapon, stay
    in_reach = False
    for i in range(nf):
        for j in range(na):
            if _can_reach(P, SIGHT, CH, actor, skills[j], here, buf[i]):
                in_reach = True
    if _draws(P, actor, D_MOVE):
        pick = _draw(P, RNG, G, actor, D_MOVE, nm + 1)
        if pick < 0:
            if G[G_BAIL] == BAIL_PAUSE:
                _opt(EV, G, 0, O_STAY, 0, 0, 0, 0, 0)
                for q in range(nm):
                    _opt(EV, G, q + 1, O_MOVE, moves[q], 0, 0, 0, 0)
            return False
        reason = _why(P, actor, D_MOVE)
    else:
        pick, reason = _script_move(T, W, B, actor, nm, in_reach)
    if pick == 0:
        _decision(EV, G, D_MOVE, actor, 0, reason, O_STAY, 0, 0, 0, 0, 0)
    else:
        z = moves[pick - 1]
        _decision(EV, G, D_MOVE, actor, pick, reason, O_MOVE, z, 0, 0, 0, 0)
        _emit(EV, G, E_MOVED, (actor, here, z, 1, 0, 0, 0, 0, 0, 0, 0))
        CH[actor, C_ZONE] = z
    return True


@mirrors("fate_env.rules.flows.conflict.turn")
@njit(cache=True, _nrt=False)
def _turn(T, W, B, EV, actor, blasts):
    """One turn of ``actor``: the options built, one picked (drawn for a random or outside seat,
    else the seat's script's), taken; again after a free move. ``blasts`` is a constant at each
    call (``conflict._play_turn``): 1 where the scene has zone_attack stunts, 0 where it has none,
    so numba compiles two turns and the second carries no zone-attack code at all (with it, every
    fight of a scene without zone attacks was 2-4% slower: fast_core.md)."""
    SC, P = T.SC, T.P
    CH, A, AF, AL, G, RNG = W.CH, W.A, W.AF, W.AL, W.G, W.RNG
    G[G_TURNSEQ] += 1
    _emit(EV, G, E_TURN, (actor, G[G_EXCHANGE], 0, 0, 0, 0, 0, 0, 0, 0, 0))
    if P[P_FD_EXCHANGE] != 0:
        if CH[actor, C_FULLDEF] != 0:  # declared when first attacked, before this turn: the turn goes (001:80)
            _emit(EV, G, E_FORFEIT, (actor, FORFEIT_FULLDEF, 0, 0, 0, 0, 0, 0, 0, 0, 0))
            return
    elif CH[actor, C_FULLDEF] != 0:
        if P[P_FD_CONDENSED] != 0 and CH[actor, C_DEFONFULL] == 0:
            _boost(A, AF, AL, G, P, EV, actor, P[P_NAME_PREPARED])
        CH[actor, C_FULLDEF] = 0
    free_move = True
    while True:
        n = _turn_options(T, W, B, actor, free_move, blasts)
        if _draws(P, actor, D_TURN):  # RandomController (or an agent): any option of the turn
            j = _draw(P, RNG, G, actor, D_TURN, _protect_at(n) + n[N_PROT] + n[N_BLK])
            if j < 0:
                if G[G_BAIL] == BAIL_PAUSE:
                    _list_options(T, W, B, EV, actor, n, blasts)
                return
            got = (j, _why(P, actor, D_TURN), 0, 0, 0, 0)
        else:
            got = _script_pick(T, W, B, actor, n, blasts)
        done = _take(T, W, B, EV, actor, n, got, blasts)
        if done != GOES_ON:
            CH[actor, C_MINOR] = 0  # the minor actions were for this turn's action
        if done == STOPPED or done == HELD or G[G_BAIL] != BAIL_NONE and done == GOES_ON:
            return
        if done == DONE:
            break
        free_move = False
    if G[G_BAIL] != BAIL_NONE:
        return
    CH[actor, C_NSUP] = 0  # the pledges were for this action
    if CH[actor, C_STATUS] == ACTIVE and free_move and not _over(SC, CH, G) and P[P_MINOR] == 0:
        if not _move_after(T, W, B, EV, actor):
            return
    _expire_boosts(A, AF, AL, G, EV, actor)
