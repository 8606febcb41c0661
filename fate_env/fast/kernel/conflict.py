"""A conflict's flow (``rules/flows/conflict.py``): the exchanges, the order of turns (popcorn, or
Core's by skills), the scene's end (``rules/end.py``); a turn itself is ``turn.py``.
"""

from __future__ import annotations

from ..jit import njit
from .checkpoint import _save
from .events import _decision, _emit, _opt
from .layout import (
    KIND_CHALLENGE, P_KIND, C_SETBACK,
    E_BECAMECON, E_CONSTARTED, G_CONTEST, G_HANDOVER, G_TOCONTEST, G_TWISTS, G_VICT, MAX_CSIDES,
    G_OPENER,
    ACTIVE, BAIL_HORIZON, BAIL_NONE, BAIL_PAUSE, C_ACTED, C_FP, C_OWED, C_STATUS, CONCEDED, D_NEXT,
    E_ENDED, E_EXCHANGE, E_NEXT, G_BAIL, G_CKACTOR, G_CKCURSOR, G_CKMODE, G_EXCHANGE, G_HORIZON, G_RESUME,
    G_UNRESOLVED, G_WINNER, NEG, O_NEXT, C_BLKBY, C_PROTBY, P_BLOCKACT, P_PROTECT, P_FIRST, P_MAXEX, P_NBLAST, P_ORDER, P_POPCORN,
    S_NBOX, S_NPC, S_SIDE, C_FULLDEF, P_FD_EXCHANGE, C_HELD, C_HELDONCE, D_HOLD, E_FORFEIT, FORFEIT_HELD,
    G_DECIDED, O_ACT_NOW, O_KEEP_HOLDING, P_HOLD, P_NCD, R_H_ACT, TR_EXCHANGE, TR_TURN, P_NHZ,
)
from .countdowns import _cd_trigger
from .hazards import _hazards_act
from .mirror import kernel_only, mirrors
from .seats import _ask_two, _draw, _draws, _why
from .stress import _payout
from .table import _allies, _first_active, _over
from .picks import _script_next
from .turn import _turn


@mirrors("fate_env.rules.end.finish")
@njit(cache=True, _nrt=False)
def _finish(SC, CH, MARK, G, EV, P, unresolved):
    winner = NEG
    if not unresolved and G[G_DECIDED] != NEG:
        winner = G[G_DECIDED]  # a countdown's outcome (003:2190-2191)
    elif not unresolved and P[P_KIND] != KIND_CHALLENGE:  # a challenge has no winner, only its tasks' results
        for c in range(SC.shape[0]):
            if CH[c, C_STATUS] == ACTIVE:
                if winner == NEG:
                    winner = SC[c, S_SIDE]
                elif SC[c, S_SIDE] != winner:
                    winner = -2
        if winner == -2:
            winner = NEG
    for c in range(SC.shape[0]):
        pay = CH[c, C_OWED] + (_payout(P, CH, c) if CH[c, C_STATUS] == CONCEDED else 0)
        if pay and SC[c, S_NPC] == 0:
            CH[c, C_FP] += pay
        for b in range(SC[c, S_NBOX]):
            MARK[c, b] = 0
    G[G_WINNER] = winner
    G[G_UNRESOLVED] = 1 if unresolved else 0
    _emit(EV, G, E_ENDED, (winner, G[G_EXCHANGE], 1 if unresolved else 0, 0, 0, 0, 0, 0, 0, 0, 0))


@mirrors("fate_env.rules.flows.conflict.begin_exchange")
@njit(cache=True, _nrt=False)
def _begin_exchange(T, W, EV):
    """A new exchange, unless a countdown the last one's end marked has decided the scene, or the
    scene has run out of exchanges (then it ends unresolved)."""
    SC, P = T.SC, T.P
    CH, MARK, G = W.CH, W.MARK, W.G
    if P[P_NCD] != 0 and G[G_EXCHANGE] != 0:
        _cd_trigger(P, G, W.A, W.AF, W.AL, EV, TR_EXCHANGE, NEG)  # the exchange that just ended (003:2186-2187)
        if G[G_DECIDED] != NEG:
            _finish(SC, CH, MARK, G, EV, P, False)
            return False
    G[G_EXCHANGE] += 1
    if G[G_EXCHANGE] > P[P_MAXEX]:
        G[G_EXCHANGE] -= 1
        _finish(SC, CH, MARK, G, EV, P, True)
        return False
    if G[G_HORIZON] > 0 and G[G_EXCHANGE] >= G[G_HORIZON]:  # a look-ahead's copy has seen enough
        G[G_BAIL] = BAIL_HORIZON
        return False
    _emit(EV, G, E_EXCHANGE, (G[G_EXCHANGE], 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    for c in range(SC.shape[0]):
        CH[c, C_ACTED] = 0
        CH[c, C_SETBACK] = 0
        CH[c, C_HELD] = 0
        CH[c, C_HELDONCE] = 0
        if P[P_FD_EXCHANGE] != 0:  # a full defense lasts the exchange it is declared in (001:80)
            CH[c, C_FULLDEF] = 0
        if P[P_PROTECT] != 0 or P[P_BLOCKACT] != 0:  # a block lasts the exchange it is rolled in (002:46-47)
            CH[c, C_PROTBY] = 0
            for kind in range(3):
                CH[c, C_BLKBY + kind] = 0
    return True


@kernel_only("the next character in the order of holding after the place ``last`` (Table.held's order)")
@njit(cache=True, _nrt=False)
def _next_held(CH, last):
    best = NEG
    for c in range(CH.shape[0]):
        if CH[c, C_HELD] > last and (best == NEG or CH[c, C_HELD] < CH[best, C_HELD]):
            best = c
    return best


@mirrors("fate_env.rules.flows.conflict.run")
@njit(cache=True, _nrt=False)
def _forfeit_held(CH, EV, G):
    """The exchange ends: a held turn not taken is lost (001:84), in the order of holding."""
    c = _next_held(CH, 0)
    while c != NEG:
        _emit(EV, G, E_FORFEIT, (c, FORFEIT_HELD, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        last = CH[c, C_HELD]
        CH[c, C_HELD] = 0
        c = _next_held(CH, last)


@mirrors("fate_env.rules.flows.conflict.held_turns", "agents.basic.BasicController._hold")
@njit(cache=True, _nrt=False)
def _held_turns(T, W, B, EV, after):
    """Between turns, each character holding its action may take its turn now (001:82-84): asked in
    the order they held (basic always acts now; a random seat draws), again after each held turn taken,
    until all hold on; then those who left the fight hold no more."""
    SC, P = T.SC, T.P
    CH, G, RNG = W.CH, W.G, W.RNG
    asked = True
    while asked and not _over(SC, CH, G):
        asked = False
        last = 0
        c = _next_held(CH, last)
        while c != NEG:
            last = CH[c, C_HELD]
            if c != after and CH[c, C_STATUS] == ACTIVE:
                j, why = _ask_two(P, RNG, G, EV, c, D_HOLD, O_ACT_NOW, O_KEEP_HOLDING, 0, R_H_ACT)  # basic acts now
                if j < 0:
                    return
                _decision(EV, G, D_HOLD, c, j, why, O_ACT_NOW if j == 0 else O_KEEP_HOLDING, 0, 0, 0, 0, 0)
                if j == 0:
                    CH[c, C_HELD] = 0
                    _play_turn(T, W, B, EV, c)
                    if G[G_BAIL] != BAIL_NONE:
                        return
                    CH[c, C_ACTED] = 1
                    if P[P_NCD] != 0:
                        _cd_trigger(P, G, W.A, W.AF, W.AL, EV, TR_TURN, c)
                    after, asked = c, True
                    break
            c = _next_held(CH, last)
    for c in range(SC.shape[0]):
        if CH[c, C_HELD] != 0 and CH[c, C_STATUS] != ACTIVE:
            CH[c, C_HELD] = 0


@mirrors("fate_env.rules.flows.conflict._next_in_order")
@njit(cache=True, _nrt=False)
def _next_in_order(CH, P, after):
    """By skills: the position of the next character still in the fight after ``after`` (or -1)."""
    n = CH.shape[0]
    for j in range(after + 1, n):
        if CH[P[P[P_ORDER] + j], C_STATUS] == ACTIVE:
            return j
    return NEG


@mirrors("fate_env.rules.flows.conflict._advance")
@njit(cache=True, _nrt=False)
def _advance_order(T, W, B, EV, after):
    """By skills: the position of the next character still in the fight after ``after`` (NEG at the
    exchange's end, or when the scene is over or a seat's answer is awaited: the caller looks), once the
    hazards placed between the two have taken their turns."""
    SC, P = T.SC, T.P
    CH, G = W.CH, W.G
    while True:
        i = _next_in_order(CH, P, after)
        if P[P_NHZ] == 0:
            return i
        _hazards_act(T, W, B, EV, after, SC.shape[0] if i == NEG else i)
        if G[G_BAIL] != BAIL_NONE or _over(SC, CH, G):
            return NEG
        if i != NEG and CH[P[P[P_ORDER] + i], C_STATUS] != ACTIVE:
            after = i  # the hazard took the next one out: on to the one after
            continue
        return i


@kernel_only("which of the two compiled turns a scene plays (_turn's ``blasts``)")
@njit(cache=True, _nrt=False, inline="always")
def _play_turn(T, W, B, EV, actor):
    """``_turn`` with its ``blasts`` a constant, so numba compiles the two turns apart."""
    if T.P[P_NBLAST] != 0:
        _turn(T, W, B, EV, actor, 1)
    else:
        _turn(T, W, B, EV, actor, 0)


@mirrors("fate_env.rules.flows.conflict.run")
@njit(cache=True, _nrt=False, inline="always")
def _popcorn_next(T, W, B, EV, actor):
    """Popcorn: who acts after ``actor`` (the one who acted names them, or an ally for one who left;
    a new exchange when everyone has acted), or NEG when the run stops there (a bail, or the end).
    Inlined into ``_run``: called once a turn, a call would copy the three bundles each time (5-8%
    of every fight, measured)."""
    SC, P = T.SC, T.P
    CH, G, RNG = W.CH, W.G, W.RNG
    allies, pool = B.allies, B.pool
    n = SC.shape[0]
    # who goes next: the one who just acted names them (popcorn)
    nrem = 0
    for c in range(n):
        if CH[c, C_STATUS] == ACTIVE and CH[c, C_ACTED] == 0:
            pool[nrem] = c
            nrem += 1
    npool = nrem
    if nrem == 0 and P[P_NHZ] != 0:  # the hazards' turns close the exchange, everyone still in having acted
        _hazards_act(T, W, B, EV, NEG - 1, n)
        if G[G_BAIL] != BAIL_NONE:
            return NEG
        if _over(SC, CH, G):
            _finish(SC, CH, W.MARK, G, EV, P, False)
            return NEG
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
        if _draws(P, chooser, D_NEXT):
            pick = _draw(P, RNG, G, chooser, D_NEXT, npool)
            if pick < 0:
                if G[G_BAIL] == BAIL_PAUSE:
                    for q in range(npool):
                        _opt(EV, G, q, O_NEXT, pool[q], 0, 0, 0, 0)
                return NEG
            why = _why(P, chooser, D_NEXT)
        else:
            pick, why = _script_next(T, W, B, chooser, npool)
        _decision(EV, G, D_NEXT, chooser, pick, why, O_NEXT, pool[pick], 0, 0, 0, 0)
        pick = pool[pick]
    _emit(EV, G, E_NEXT, (chooser, pick, 1 if nrem == 0 else 0, 0, 0, 0, 0, 0, 0, 0, 0))
    if nrem == 0:
        if not _begin_exchange(T, W, EV):
            return NEG
        actor = pick if CH[pick, C_STATUS] == ACTIVE else _first_active(CH)
    else:
        actor = pick
    if G[G_BAIL] != BAIL_NONE:
        return NEG
    return actor


@mirrors("fate_env.rules.flows.conflict.become_contest", "fate_env.rules.flows.contest.run")
@njit(cache=True, _nrt=False)
def _become_contest(SC, G, EV):
    """The sides stop trying to harm each other: the scene's contest starts anew from here (000:539-547),
    its victories and twists at none; the conflict's payouts wait for its end (contest._flow runs it)."""
    _emit(EV, G, E_BECAMECON, (G[G_TOCONTEST] - 1, G[G_EXCHANGE], 0, 0, 0, 0, 0, 0, 0, 0, 0))
    G[G_TOCONTEST] = 0
    G[G_EXCHANGE] = 0
    G[G_CONTEST] = 1
    G[G_HANDOVER] = 1
    G[G_TWISTS] = 0
    for s in range(MAX_CSIDES):
        G[G_VICT + s] = 0
    _emit(EV, G, E_CONSTARTED, (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))


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
    if not resume and not _begin_exchange(T, W, EV):
        return
    popcorn = P[P_POPCORN] != 0
    cursor = 0
    if popcorn:
        opener = G[G_OPENER] - 1 if G[G_OPENER] > 0 else P[P_FIRST]  # who attacked in the contest it was
        if resume:
            actor = G[G_CKACTOR]
        else:
            actor = opener if CH[opener, C_STATUS] == ACTIVE else _first_active(CH)
    else:
        if not resume and P[P_NHZ] != 0 and G[G_CKMODE] != 0:
            G[G_CKCURSOR] = NEG  # a pause among the hazards before the first turn resumes from here
            _save(W, K)
        cursor = G[G_CKCURSOR] if resume else NEG
        if cursor == NEG:
            cursor = _advance_order(T, W, B, EV, NEG)
            if G[G_BAIL] != BAIL_NONE:
                return
            if cursor == NEG:  # the hazards ended it before anyone's turn
                _finish(SC, CH, MARK, G, EV, P, False)
                return
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
        if CH[actor, C_HELD] == 0:  # a held turn is not yet taken
            CH[actor, C_ACTED] = 1
            if P[P_NCD] != 0:
                _cd_trigger(P, G, W.A, W.AF, W.AL, EV, TR_TURN, actor)
        if G[G_TOCONTEST] != 0:
            _become_contest(SC, G, EV)
            return
        if P[P_HOLD] != 0 and _next_held(CH, 0) != NEG and not _over(SC, CH, G):
            _held_turns(T, W, B, EV, actor)
            if G[G_BAIL] != BAIL_NONE:
                return
        if _over(SC, CH, G):
            _finish(SC, CH, MARK, G, EV, P, False)
            return
        if popcorn:
            actor = _popcorn_next(T, W, B, EV, actor)
            if actor == NEG:
                return
        else:
            i = _advance_order(T, W, B, EV, cursor)
            if G[G_BAIL] != BAIL_NONE:
                return
            if i == NEG and not _over(SC, CH, G):
                if P[P_HOLD] != 0:
                    _forfeit_held(CH, EV, G)
                if not _begin_exchange(T, W, EV):
                    return
                i = _advance_order(T, W, B, EV, NEG)
                if G[G_BAIL] != BAIL_NONE:
                    return
            if _over(SC, CH, G):
                _finish(SC, CH, MARK, G, EV, P, False)
                return
            cursor = i
            actor = P[P[P_ORDER] + cursor]
