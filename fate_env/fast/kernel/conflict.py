"""A conflict's flow (``rules/flows/conflict.py``): a turn with the policies' choices, the
exchanges, the order of turns (popcorn, or Core's by skills), the scene's end (``rules/end.py``).
"""

from __future__ import annotations

from ..jit import njit
from .advantage import _advantage, _advantage_options
from .aspects import _boost, _expire_boosts, _exploitable, _nth_aspect
from .attack import _attack
from .basic import (
    _best_odds_pick, _close_in, _danger, _may_concede, _reach_after, _should_concede, _step_into_reach, _weapons,
)
from .checkpoint import _save
from .events import _decision, _emit, _opt
from .exploit import _exploit
from .layout import (
    A_CREATOR, A_KIND, A_NAME, A_OWNER, A_ZONE, ACT_ATTACK, ACTIVE, BAIL_HORIZON, BAIL_NONE, BAIL_PAUSE, C_ACTED,
    C_CTAKEN, C_DEFONFULL, C_FP, C_FULLDEF, C_NSTUNT, C_NSUP, C_OWED, C_STATUS, C_ZONE, CONCEDED, D_MOVE, D_NEXT,
    D_TURN, E_ENDED, E_EXCHANGE, E_MOVED, E_NEXT, E_PASSED, E_TURN, G_BAIL, G_CKACTOR, G_CKCURSOR, G_CKMODE,
    G_EXCHANGE, G_HORIZON, G_NAL, G_RESUME, G_TURNSEQ, G_UNRESOLVED, G_WINNER, K_ADVANTAGE, K_BOOST, K_SITUATION, NEG,
    O_ADVANTAGE, O_ATTACK, O_CONCEDE, O_EXPLOIT, O_FULLDEF, O_MOVE, O_NEXT, O_OVERCOME, O_PASS, O_REMOVE, O_STAY,
    O_SUPPORT, P_FD_CONDENSED, P_FIRST, P_MAXEX, P_NAME_PREPARED, P_NBLAST, P_ORDER, P_POL, P_POPCORN, PK_BRUTE,
    PK_SNIPER, PK_STACKER, PK_SUPPORT, PK_TACTICIAN, POL_GUARD, POL_KIND, POL_LIKELY, POL_STACK, POL_W, R_M_CLOSES, R_M_FALLS, R_M_HOLDS,
    R_M_STAYS, R_N_ALLY, R_N_HOLDER, R_N_WEAKEST, R_T_ATTACK, R_T_BACKS, R_T_BACKS_UP, R_T_CASHES, R_T_CONCEDE,
    R_T_FOCUSES, R_T_FORCES, R_T_FULLDEF, R_T_GUARDS, R_T_SETS_UP, R_T_SETS_UP_FOR, R_T_SETS_UP_ON, R_T_SHOOTS,
    R_T_CLOSES, R_T_OUTMATCHED, R_T_SMASH, R_T_STACKS, R_T_STEP, S_IMMOBILE, S_NBOX, S_NPC, S_SIDE, TGT_SCENE,
)
from .mirror import kernel_only, mirrors
from .overcome_move import _nth_overcome, _overcome_move
from .reach import _attack_skills, _can_reach, _free_moves
from .remove import _remove
from .rolls import _attack_rating, _defense_rating, _stunt
from .seats import _draw, _draws, _why
from .stress import _cap, _concede
from .support import _full_defense, _pledge
from .table import _allies, _first_active, _foes, _over
from .tactics import _closest_pick, _foe_here, _held, _holds_free, _ranged_pick
from .zone_attack import _blast, _blast_if_worth_it, _blast_options, _nth_blast


@mirrors("fate_env.rules.flows.conflict.turn",
         "agents.basic.BasicController._turn",
         "agents.tactics.BruteController._turn",
         "agents.tactics.SniperController._turn",
         "agents.tactics.TacticianController._turn",
         "agents.tactics.SupportController._turn",
         "agents.tactics.StackerController._turn")
@njit(cache=True, _nrt=False)
def _turn(T, W, B, EV, actor, blasts):
    """One turn of ``actor``: the options, in ``actions.ACTIONS`` order, and the seat's pick.
    ``blasts`` is a constant at each call (``_play_turn``): 1 where the scene has zone_attack
    stunts, 0 where it has none, so numba compiles two turns and the second carries no zone-attack
    code at all (with it, every fight of a scene without zone attacks was 2-4% slower: fast_core.md)."""
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
            if _exploitable(SC, CH, A, P, SIGHT, actor, aid):
                nexp += 1
            if kind == K_ADVANTAGE or (kind == K_SITUATION and A[aid, A_CREATOR] != NEG):
                if owner != NEG:
                    if CH[owner, C_STATUS] == ACTIVE and SC[owner, S_SIDE] == SC[actor, S_SIDE]:
                        nrem += 1
                elif z == NEG or z == here:
                    nrem += 1
        nover = 0
        while SC[actor, S_IMMOBILE] == 0 and _nth_overcome(ZR, ZRN, here, moves, nm, nover) != NEG:
            nover += 1  # overcome_move.offer: none for an immobile character
        before_fd = nm + natt + nadv + nexp + nover + nrem
        i_concede = before_fd + 1 + nal  # then pass, then the zone attacks (actions.ACTIONS)
        nza = 0
        while blasts != 0 and _nth_blast(SC, ST, P, SIGHT, CH, actor, nza)[0] != NEG:
            nza += 1  # the zone attacks
        total = i_concede + 2 + nza
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
                        _opt(EV, G, q, O_EXPLOIT, _nth_aspect(SC, CH, A, AL, G, P, SIGHT, actor, i, False), 0, 0, 0, 0)
                        q += 1
                    for i in range(nover):
                        _opt(EV, G, q, O_OVERCOME, _nth_overcome(ZR, ZRN, here, moves, nm, i), 0, 0, 0, 0)
                        q += 1
                    for i in range(nrem):
                        _opt(EV, G, q, O_REMOVE, _nth_aspect(SC, CH, A, AL, G, P, SIGHT, actor, i, True), 0, 0, 0, 0)
                        q += 1
                    _opt(EV, G, q, O_FULLDEF, 0, 0, 0, 0, 0)
                    q += 1
                    for i in range(nal):
                        _opt(EV, G, q, O_SUPPORT, allies[i], 0, 0, 0, 0)
                        q += 1
                    _opt(EV, G, q, O_CONCEDE, 0, 0, 0, 0, 0)
                    _opt(EV, G, q + 1, O_PASS, 0, 0, 0, 0, 0)
                    if blasts != 0:
                        _blast_options(T, CH, EV, G, actor, q + 2, nza)
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
                aid = _nth_aspect(SC, CH, A, AL, G, P, SIGHT, actor, i, False)
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
                aid = _nth_aspect(SC, CH, A, AL, G, P, SIGHT, actor, i, True)
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
            if blasts == 0 or i == 1:
                _decision(EV, G, D_TURN, actor, j, why, O_PASS, 0, 0, 0, 0, 0)
                _emit(EV, G, E_PASSED, (actor, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
                break
            _blast(T, W, B, EV, actor, i - 2, j, why, 0)
            break
        own = P[pol + POL_KIND]
        if own == PK_TACTICIAN or own == PK_SUPPORT or own == PK_STACKER:
            # tactician, support and stacker concede as basic does, before their own rule
            if _may_concede(CH, P, actor) and _should_concede(T, W, actor, B):
                _decision(EV, G, D_TURN, actor, i_concede, R_T_CONCEDE, O_CONCEDE, 0, 0, 0, 0, 0)
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
            # stacker (agents/tactics.py): with ``guard`` (counter), holding nothing and every
            # attack rated below its target's defense, full defense; under ``stack`` free invokes
            # held, take advantage of the first aspect of its own on offer; else basic
            held = 0
            for i in range(G[G_NAL]):
                held += AF[AL[i], actor]
            if P[pol + POL_GUARD] != 0 and held == 0 and natt > 0:
                outmatched = True
                for i in range(natt):
                    if _attack_rating(SK, ST, CH, A, actor, att_s[i], att_t[i]) >= \
                            _defense_rating(SK, ST, CH, A, P, att_t[i], actor, att_s[i]):
                        outmatched = False
                        break
                if outmatched:
                    _decision(EV, G, D_TURN, actor, before_fd, R_T_OUTMATCHED, O_FULLDEF, 0, 0, 0, 0, 0)
                    _full_defense(CH, EV, G, actor)
                    break
            if held < P[pol + POL_STACK]:
                for i in range(nexp):
                    aid = _nth_aspect(SC, CH, A, AL, G, P, SIGHT, actor, i, False)
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
            if _foe_here(SC, CH, actor) and _step_into_reach(T, CH, EV, G, actor, moves, nm, buf, skills,
                                                            R_T_BACKS):
                free_move = False
                continue
            pick = _ranged_pick(SK, ST, CH, A, P, actor, natt, att_t, att_s)
            why = R_T_SHOOTS
        if pick == NEG:
            # basic._turn
            if _may_concede(CH, P, actor) and _should_concede(T, W, actor, B):
                _decision(EV, G, D_TURN, actor, i_concede, R_T_CONCEDE, O_CONCEDE, 0, 0, 0, 0, 0)
                _concede(CH, EV, G, actor)
                break
            if own == PK_BRUTE and natt > 0:
                pick = _closest_pick(SK, ST, CH, A, actor, natt, att_t, att_s)
                why = R_T_SMASH
            else:
                if blasts != 0 and nza > 0 and _blast_if_worth_it(T, W, B, EV, actor, nza, i_concede + 2):
                    break
                pick = _best_odds_pick(T, W, actor, natt, B, P[pol + POL_LIKELY])
                if pick != NEG and nm > 0 and SK[actor, att_s[pick]] <= 0:
                    # basic._turn: no plinking at Mediocre when a free step brings a better skill to bear
                    mediocre = att_s[pick]
                    j, better = _close_in(SC, SK, CH, P, SIGHT, actor, moves, nm, buf, skills, mediocre)
                    if j != NEG:
                        _decision(EV, G, D_TURN, actor, j, R_T_CLOSES, O_MOVE, moves[j], better, mediocre, 0, 0)
                        _emit(EV, G, E_MOVED, (actor, here, moves[j], 1, 0, 0, 0, 0, 0, 0, 0))
                        CH[actor, C_ZONE] = moves[j]
                        free_move = False
                        continue
        if pick != NEG:
            t = att_t[pick]
            _decision(EV, G, D_TURN, actor, nm + pick, why, O_ATTACK, t, att_s[pick], 0, 0, 0)
            _attack(T, W, B, EV, actor, t, att_s[pick])
            break
        if _step_into_reach(T, CH, EV, G, actor, moves, nm, buf, skills, R_T_STEP):
            free_move = False
            continue
        over = NEG
        j = 0
        while j < nover:  # basic: the first overcome move that brings a foe into reach
            z = _nth_overcome(ZR, ZRN, here, moves, nm, j)
            if z == NEG:
                break
            if _reach_after(SC, SK, CH, P, SIGHT, actor, z, buf, skills):
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
            na = _weapons(SK, P, actor, skills)  # basic._move: a foe in reach of a weapon, stay
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
                    if _reach_after(SC, SK, CH, P, SIGHT, actor, moves[i], buf, skills):
                        pick = i + 1
                        reason = R_M_FALLS
                        break
            if pick == 0 and not in_reach and not _draws(P, actor, D_MOVE):
                for i in range(nm):
                    if _reach_after(SC, SK, CH, P, SIGHT, actor, moves[i], buf, skills):
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


@mirrors("fate_env.rules.end.finish")
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


@mirrors("fate_env.rules.flows.conflict.begin_exchange")
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


@mirrors("fate_env.rules.flows.conflict._next_in_order")
@njit(cache=True, _nrt=False)
def _next_in_order(CH, P, after):
    """By skills: the position of the next character still in the fight after ``after`` (or -1)."""
    n = CH.shape[0]
    for j in range(after + 1, n):
        if CH[P[P[P_ORDER] + j], C_STATUS] == ACTIVE:
            return j
    return NEG


@kernel_only("which of the two compiled turns a scene plays (_turn's ``blasts``)")
@njit(cache=True, _nrt=False, inline="always")
def _play_turn(T, W, B, EV, actor):
    """``_turn`` with its ``blasts`` a constant, so numba compiles the two turns apart."""
    if T.P[P_NBLAST] != 0:
        _turn(T, W, B, EV, actor, 1)
    else:
        _turn(T, W, B, EV, actor, 0)


@mirrors("fate_env.rules.flows.conflict.run",
         "agents.basic.BasicController._next",
         "agents.tactics.TacticianController._next")
@njit(cache=True, _nrt=False, inline="always")
def _popcorn_next(T, W, B, EV, actor):
    """Popcorn: who acts after ``actor`` (the one who acted names them, or an ally for one who left;
    a new exchange when everyone has acted), or NEG when the run stops there (a bail, or the end).
    Inlined into ``_run``: called once a turn, a call would copy the three bundles each time (5-8%
    of every fight, measured)."""
    SC, SK, ST, P = T.SC, T.SK, T.ST, T.P
    MARK, CH, A, AF, AL, G, RNG = W.MARK, W.CH, W.A, W.AF, W.AL, W.G, W.RNG
    skills, allies, pool = B.skills, B.allies, B.pool
    n = SC.shape[0]
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
                return NEG
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
            return NEG
        actor = pick if CH[pick, C_STATUS] == ACTIVE else _first_active(CH)
    else:
        actor = pick
    if G[G_BAIL] != BAIL_NONE:
        return NEG
    return actor


@mirrors("fate_env.rules.flows.conflict.run")
@njit(cache=True, _nrt=False)
def _run(T, W, B, EV, K):
    """The conflict's flow once the state is set up (compiled without reference counting:
    every helper below only reads and writes arrays it is handed), one loop for both orders of
    turns: Core's fixed order by skills (a cursor into it) and popcorn (``_popcorn_next``). Under
    G_CKMODE the state is saved into the CK arrays at each turn's start; under G_RESUME the flow
    starts from there."""
    SC, P = T.SC, T.P
    MARK, CH, G = W.MARK, W.CH, W.G
    resume = G[G_RESUME] != 0
    G[G_RESUME] = 0
    if not resume and not _begin_exchange(SC, CH, MARK, G, EV, P):
        return
    popcorn = P[P_POPCORN] != 0
    cursor = 0
    if popcorn:
        opener = P[P_FIRST]
        if resume:
            actor = G[G_CKACTOR]
        else:
            actor = opener if CH[opener, C_STATUS] == ACTIVE else _first_active(CH)
    else:
        cursor = G[G_CKCURSOR] if resume else _next_in_order(CH, P, NEG)
        actor = P[P[P_ORDER] + cursor]
    while True:
        if G[G_CKMODE] != 0:
            if popcorn:
                G[G_CKACTOR] = actor
            else:
                G[G_CKCURSOR] = cursor
            _save(W, K)
        _play_turn(T, W, B, EV, actor)
        if G[G_BAIL] != BAIL_NONE:
            return
        CH[actor, C_ACTED] = 1
        if _over(SC, CH):
            _finish(SC, CH, MARK, G, EV, False)
            return
        if popcorn:
            actor = _popcorn_next(T, W, B, EV, actor)
            if actor == NEG:
                return
        else:
            i = _next_in_order(CH, P, cursor)
            if i == NEG:
                if not _begin_exchange(SC, CH, MARK, G, EV, P):
                    return
                i = _next_in_order(CH, P, NEG)
            cursor = i
            actor = P[P[P_ORDER] + cursor]
