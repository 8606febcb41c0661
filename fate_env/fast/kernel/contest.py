"""A contest's flow (``rules/flows/contest.py``): each exchange every side still in picks its roller and
skill, its other members pledge teamwork, anyone may first try an advantage (or attack, turning the contest
into a conflict), the sides roll and invoke in turns, and the best marks a victory (two with style) or a tie
brings an unexpected twist; the first side to the scene's number of victories wins. With ``basic``'s answers
(``agents/basic.py``: the best skill rolls, every member with a rank helps, no advantages), a random seat's
draws, or an answer from outside.

The state lives in G (layout: G_CONTEST, G_VICT, G_PLAN, G_CROLL...) so checkpoints and a look-ahead's copies
carry it; the scene's contest is in P (P_CVICT, P_CSK, P_CDIFF, P_TWIST). A contest in which someone attacks hands
the scene over to the conflict (G_HANDOVER: ``flow._flow`` starts it).
"""

from __future__ import annotations

from ..jit import njit
from .advantage import _advantage, _advantage_skill, _named, _own_target, _place, _stuck, _target_of
from .aspects import _new_aspect, _nth_aspect
from .checkpoint import _save
from .conflict import _finish
from .events import _decision, _emit, _opt
from .exploit import _exploit
from .invokes import _apply_invoke, _basic_invoke, _invoke_at, _invoke_options, _invoke_scan, _payers
from .layout import (
    A_ALIVE, A_NAME, ACT_CONTEST, ACTIVE, ANY_ASPECT, BAIL_HORIZON, BAIL_NONE, BAIL_PAUSE, C_NSUP, C_PLEDGE,
    C_STATUS, C_ZONE, CRW, CSKW, D_CADV, D_COST, D_CROLL, D_INVOKE, D_SUPPORT, E_BECAME, E_CPLAN, E_CREATED,
    E_CRESULT, E_CSCORE, E_CSTARTED, E_EXCHANGE, E_FORFEITED, E_GAINED, G_BAIL, G_CKMODE, G_CONTEST, G_CROLL,
    G_DECIDED, G_EXCHANGE, G_GMPOOL, G_HANDOVER, G_MAP, P_FASTER, P_NSIDES, G_HORIZON, G_NLIVE, G_OPENER, G_PEFFORT, G_PLAN, G_POPP, G_RESUME,
    G_ROLLNO, G_SIDES, G_TWISTS, G_VICT, K_SITUATION, NCF, NEG, O_ADVANTAGE, O_DONE, O_EXPLOIT, O_FORFEIT,
    O_INVOKE, O_NO_ADVANTAGE, O_NO_SUPPORT, O_PAY, O_ROLLFOR, O_SUPPORT, O_TO_CONFLICT, P_CDIFF, P_CPASSIVE, P_CSK,
    P_CVICT, P_MAXEX, P_POL, P_TIE_CHOICE, P_TRACK, P_TWIST, POL_ANY, POL_FIT, POL_W, R_ABOUT, R_ACTION,
    R_ACTOR, R_ALONE, R_BASE, R_BONUS, R_CT_ALLIN, R_CT_HELPS, R_CT_KEEP, R_CT_NORANK, R_CT_ROLL, R_FACES,
    R_HASFLOOR, R_OBASE, R_OBONUS, R_OFACES, R_OPP, R_TARGET, R_Z1, R_Z2, S_SIDE, TG_ALLY, TG_FOE, TGT_SCENE, TP_NAME, TP_TARGET, TP_TRACK,
)
from .mirror import kernel_only, mirrors
from .reach import _attack_skills, _can_reach
from .rolls import _effective, _rolled
from .seats import _ask_two, _draw, _draws, _why
from .table import _allies


@mirrors("fate_env.rules.flows.contest.live_sides")
@njit(cache=True, _nrt=False)
def _live_sides(SC, CH, G):
    """The sides still in, in the order their first members stand (G_SIDES, G_NLIVE)."""
    n = 0
    for c in range(SC.shape[0]):
        if CH[c, C_STATUS] != ACTIVE:
            continue
        s = SC[c, S_SIDE]
        seen = False
        for j in range(n):
            if G[G_SIDES + j] == s:
                seen = True
        if not seen:
            G[G_SIDES + n] = s
            n += 1
    G[G_NLIVE] = n
    return n


@mirrors("fate_env.rules.flows.contest.members")
@njit(cache=True, _nrt=False)
def _nth_member(SC, CH, side, j):
    """The j-th member still in of ``side`` (NEG past the last)."""
    q = 0
    for c in range(SC.shape[0]):
        if CH[c, C_STATUS] == ACTIVE and SC[c, S_SIDE] == side:
            if q == j:
                return c
            q += 1
    return NEG


@mirrors("fate_env.rules.flows.contest._plans", "agents.basic.BasicController._contest_roll")
@njit(cache=True, _nrt=False)
def _roller(T, W, EV, i, side):
    """Side ``side``'s roller and skill (its first member decides among every member and skill: basic takes
    the best rating with stunts, the first of equals), into G_PLAN's row ``i``. False: paused."""
    SC, SK, ST, P = T.SC, T.SK, T.ST, T.P
    CH, A, G, RNG = W.CH, W.A, W.G, W.RNG
    at = P[P_CSK] + CSKW * side
    nsk = P[at]
    lead = _nth_member(SC, CH, side, 0)
    nm = 0
    while _nth_member(SC, CH, side, nm) != NEG:
        nm += 1
    count = nm * nsk
    why = R_CT_ROLL
    if count == 1:
        j = 0
    elif _draws(P, lead, D_CROLL):
        j = _draw(P, RNG, G, lead, D_CROLL, count)
        if j < 0:
            if G[G_BAIL] == BAIL_PAUSE:
                for q in range(count):
                    _opt(EV, G, q, O_ROLLFOR, _nth_member(SC, CH, side, q // nsk), P[at + 1 + q % nsk], 0, 0, 0)
            return False
        why = _why(P, lead, D_CROLL)
    else:
        j = 0
        best = NEG
        for q in range(count):
            v = _effective(SK, ST, CH, A, _nth_member(SC, CH, side, q // nsk), P[at + 1 + q % nsk])
            if q == 0 or v > best:
                best = v
                j = q
    roller = _nth_member(SC, CH, side, j // nsk)
    skill = P[at + 1 + j % nsk]
    if count > 1:
        _decision(EV, G, D_CROLL, lead, j, why, O_ROLLFOR, roller, skill, 0, 0, 0)
    G[G_PLAN + 3 * i] = roller
    G[G_PLAN + 3 * i + 1] = skill
    G[G_PLAN + 3 * i + 2] = 0
    return True


@mirrors("fate_env.rules.flows.contest._plans", "agents.basic.BasicController._support")
@njit(cache=True, _nrt=False)
def _plans(T, W, EV):
    """Each side still in: who rolls with what, then each other member pledges teamwork or not (basic helps
    with a rank of Average or better); the plan's event. False: paused."""
    SC, SK, P = T.SC, T.SK, T.P
    CH, G, RNG = W.CH, W.G, W.RNG
    for c in range(SC.shape[0]):
        CH[c, C_PLEDGE] = 0
    for i in range(G[G_NLIVE]):
        side = G[G_SIDES + i]
        if not _roller(T, W, EV, i, side):
            return False
        roller, skill = G[G_PLAN + 3 * i], G[G_PLAN + 3 * i + 1]
        mask = 0
        j = 0
        m = _nth_member(SC, CH, side, 0)
        while m != NEG:
            if m != roller:
                helps = SK[m, skill] >= 1
                q, why = _ask_two(P, RNG, G, EV, m, D_SUPPORT, O_SUPPORT, O_NO_SUPPORT, 0 if helps else 1,
                                  R_CT_HELPS if helps else R_CT_NORANK)
                if q < 0:
                    if G[G_BAIL] == BAIL_PAUSE:
                        _opt(EV, G, 0, O_SUPPORT, roller, 0, 0, 0, 0)
                    return False
                _decision(EV, G, D_SUPPORT, m, q, why, O_SUPPORT if q == 0 else O_NO_SUPPORT,
                          roller if q == 0 else 0, 0, 0, 0, 0)
                if q == 0:
                    CH[m, C_PLEDGE] = roller + 1
                    mask |= 1 << m
            j += 1
            m = _nth_member(SC, CH, side, j)
        _emit(EV, G, E_CPLAN, (side, roller, skill, mask, 0, 0, 0, 0, 0, 0, 0))
    return True


@mirrors("fate_env.rules.flows.contest.advantage_options")
@njit(cache=True, _nrt=False)
def _adv_targets(T, W, B, m):
    """The advantages ``m`` may try: each of the scene's templates for the contest's track, on any foe still in
    (a contest is no place on the map), itself, an ally, its zone or the scene, unless already there; as
    (template, target code) pairs in ``adv_k``/``adv_g``. Their count."""
    SC, TPL, P = T.SC, T.TPL, T.P
    CH, A, AL, G = W.CH, W.A, W.AL, W.G
    adv_k, adv_g = B.adv_k, B.adv_g
    side = SC[m, S_SIDE]
    n = 0
    for k in range(TPL.shape[0]):
        if TPL[k, TP_TRACK] != P[P_TRACK]:
            continue
        tg = TPL[k, TP_TARGET]
        name = TPL[k, TP_NAME]
        if tg == TG_FOE or tg == TG_ALLY:
            for x in range(SC.shape[0]):
                if CH[x, C_STATUS] != ACTIVE or x == m or (SC[x, S_SIDE] == side) == (tg == TG_FOE):
                    continue
                if not _named(A, AL, G, name, x):
                    adv_k[n] = k
                    adv_g[n] = x
                    n += 1
        else:
            n = _own_target(A, AL, G, adv_k, adv_g, n, k, name, _target_of(CH, m, tg))
    return n


@kernel_only("the j-th aspect a contestant may take advantage of: aspects._nth_aspect on the scene's map")
@njit(cache=True, _nrt=False, inline="always")
def _nth_exploit(T, W, m, j):
    """The j-th aspect ``m`` may take advantage of (NEG past the last), in the order they came into play."""
    return _nth_aspect(T.SC, W.CH, W.A, W.AL, W.G, T.P, T.SIGHT[W.G[G_MAP]], m, j, False)


@mirrors("fate_env.rules.flows.contest.attackers")
@njit(cache=True, _nrt=False)
def _attacker(T, W, B, m):
    """Whether ``m`` could attack a foe from where it stands (the contest would become a conflict)."""
    SC, P = T.SC, T.P
    CH = W.CH
    skills = B.skills
    ns = _attack_skills(P, m, skills)
    for j in range(ns):
        for x in range(SC.shape[0]):
            if CH[x, C_STATUS] == ACTIVE and SC[x, S_SIDE] != SC[m, S_SIDE] and \
                    _can_reach(P, T.SIGHT[W.G[G_MAP]], CH, m, skills[j], CH[m, C_ZONE], x):
                return True
    return False


@mirrors("fate_env.rules.flows.contest._other_lead")
@njit(cache=True, _nrt=False)
def _other_lead(SC, CH, G, side):
    """The first member of the first other side still in (who gets a kept failure's free invoke)."""
    _live_sides(SC, CH, G)
    for i in range(G[G_NLIVE]):
        if G[G_SIDES + i] != side:
            return _nth_member(SC, CH, G[G_SIDES + i], 0)
    return NEG


@mirrors("fate_env.rules.flows.contest._advantages", "fate_env.rules.actions.advantage.give_failed")
@njit(cache=True, _nrt=False)
def _kept(T, W, B, EV, m, side, k, target, aid, active):
    """A failed attempt kept at a cost (003:1531-1535): the other side gets what the failure would have given,
    a free invoke on the aspect, or the template's aspect with one."""
    SC, P = T.SC, T.P
    CH, A, AF, AL, G = W.CH, W.A, W.AF, W.AL, W.G
    R = B.R
    enemy = R[R_OPP] if active else _other_lead(SC, CH, G, side)
    if enemy == NEG:
        return
    if aid != NEG:
        if A[aid, A_ALIVE] != 0:
            AF[aid, enemy] += 1
            _emit(EV, G, E_GAINED, (enemy, aid, A[aid, A_NAME], 1, 0, 0, 0, 0, 0, 0, 0))
    else:
        _stuck(SC, CH, m, target)
        _place(A, AF, AL, G, P, EV, m, T.TPL[k, TP_NAME], target, _advantage_skill(T, W, m, k, target), enemy, 1)


@mirrors("fate_env.rules.flows.contest._advantages")
@njit(cache=True, _nrt=False)
def _forfeit(T, W, B, EV, m, i, side, k, target, aid, active):
    """After ``m``'s failed attempt: the side's roll (or ``m``'s teamwork) is forfeited, or under Condensed kept
    at a cost (basic keeps it). False: paused."""
    P = T.P
    CH, G, RNG = W.CH, W.G, W.RNG
    faster = P[P_FASTER] != 0
    roller = G[G_PLAN + 3 * i]
    roll = m == roller or faster
    if not roll and CH[m, C_PLEDGE] == 0 or roll and G[G_PLAN + 3 * i + 2] != 0:
        return True  # nothing to forfeit but the attempt itself
    if P[P_TIE_CHOICE] != 0:
        j, why = _ask_two(P, RNG, G, EV, m, D_COST, O_FORFEIT, O_PAY, 1, R_CT_KEEP)
        if j < 0:
            return False
        _decision(EV, G, D_COST, m, j, why, O_FORFEIT if j == 0 else O_PAY, 0, 0, 0, 0, 0)
        if j == 1:
            _kept(T, W, B, EV, m, side, k, target, aid, active)
            return True
    if roll:
        G[G_PLAN + 3 * i + 2] = 1
    else:
        CH[m, C_PLEDGE] = 0
    _emit(EV, G, E_FORFEITED, (side, m, 0 if roll else 1, 0, 0, 0, 0, 0, 0, 0, 0))
    return True


@mirrors("fate_env.rules.flows.contest._advantages", "agents.basic.BasicController._contest_advantage")
@njit(cache=True, _nrt=False)
def _advantages(T, W, B, EV):
    """Anyone may try to create an advantage (or take advantage of an aspect) before the rolls (003:1527-1535;
    000:131-137), or attack, which ends the contest (000:147-149): basic puts everything into the roll. A
    failure costs the side its roll (or the member's teamwork): ``_forfeit``. Returns 1 + who attacked, 0 for
    no one, or -1 when paused or bailed."""
    SC, P = T.SC, T.P
    CH, G, RNG = W.CH, W.G, W.RNG
    adv_k, adv_g = B.adv_k, B.adv_g
    faster = P[P_FASTER] != 0  # each contestant rolls, helps or tries an advantage (003:2219-2230)
    for i in range(G[G_NLIVE]):
        side = G[G_SIDES + i]
        j = 0
        m = _nth_member(SC, CH, side, 0)
        while m != NEG:
            if faster and (m == G[G_PLAN + 3 * i] or CH[m, C_PLEDGE] != 0):
                j += 1
                m = _nth_member(SC, CH, side, j)
                continue
            nadv = _adv_targets(T, W, B, m)
            nexp = 0
            while _nth_exploit(T, W, m, nexp) != NEG:
                nexp += 1
            hit = _attacker(T, W, B, m)
            count = 1 + nadv + nexp + (1 if hit else 0)
            q = 0
            why = R_CT_ALLIN
            if count > 1 and _draws(P, m, D_CADV):
                q = _draw(P, RNG, G, m, D_CADV, count)
                if q < 0:
                    if G[G_BAIL] == BAIL_PAUSE:
                        _opt(EV, G, 0, O_NO_ADVANTAGE, 0, 0, 0, 0, 0)
                        for x in range(nadv):
                            _opt(EV, G, 1 + x, O_ADVANTAGE, adv_k[x], adv_g[x], 0, 0, 0)
                        for x in range(nexp):
                            _opt(EV, G, 1 + nadv + x, O_EXPLOIT, _nth_exploit(T, W, m, x), 0, 0, 0, 0)
                        if hit:
                            _opt(EV, G, count - 1, O_TO_CONFLICT, 0, 0, 0, 0, 0)
                    return -1
                why = _why(P, m, D_CADV)
            if count > 1:
                if q == 0:
                    _decision(EV, G, D_CADV, m, 0, why, O_NO_ADVANTAGE, 0, 0, 0, 0, 0)
                elif q <= nadv:
                    _decision(EV, G, D_CADV, m, q, why, O_ADVANTAGE, adv_k[q - 1], adv_g[q - 1], 0, 0, 0)
                elif q <= nadv + nexp:
                    _decision(EV, G, D_CADV, m, q, why, O_EXPLOIT, _nth_exploit(T, W, m, q - 1 - nadv), 0, 0, 0, 0)
                else:
                    _decision(EV, G, D_CADV, m, q, why, O_TO_CONFLICT, 0, 0, 0, 0, 0)
                    return 1 + m
            if q > 0:
                k, target, aid = NEG, NEG, NEG
                if q <= nadv:
                    k, target = adv_k[q - 1], adv_g[q - 1]
                    margin, active = _advantage(T, W, B, EV, m, k, target, False)
                else:
                    aid = _nth_exploit(T, W, m, q - 1 - nadv)
                    margin, active = _exploit(T, W, B, EV, m, aid)
                if G[G_BAIL] != BAIL_NONE:
                    return -1
                if margin < 0 and not _forfeit(T, W, B, EV, m, i, side, k, target, aid, active):
                    return -1
            j += 1
            m = _nth_member(SC, CH, side, j)
    return 0


@mirrors("fate_env.rules.flows.contest._contest_roll", "fate_env.rules.flows.contest._opposite")
@njit(cache=True, _nrt=False)
def _contest_rolls(T, W, B, EV):
    """Each side that kept its roll rolls its plan's skill with its pledged teamwork (an overcome, called a
    contest), against the other side's roller for scale when two sides roll opposed; into G_CROLL."""
    SC, P = T.SC, T.P
    CH, G = W.CH, W.G
    n = SC.shape[0]
    opposed = P[P_CPASSIVE] == 0 and G[G_NLIVE] == 2
    for i in range(G[G_NLIVE]):
        if G[G_PLAN + 3 * i + 2] != 0:
            continue
        roller, skill = G[G_PLAN + 3 * i], G[G_PLAN + 3 * i + 1]
        nsup = 0
        for c in range(n):
            if CH[c, C_PLEDGE] == roller + 1:
                CH[roller, NCF + nsup] = c
                nsup += 1
        CH[roller, C_NSUP] = nsup
        against = G[G_PLAN + 3 * (1 - i)] if opposed else NEG
        total, dice = _rolled(T, W, EV, B.faces, roller, ACT_CONTEST, skill, NEG, against, 0)
        CH[roller, C_NSUP] = 0
        at = G_CROLL + CRW * i
        G[at] = roller
        G[at + 1] = total
        G[at + 2] = dice
        G[at + 3] = 0
        G[at + 4] = P[P[P_CDIFF] + G[G_SIDES + i]] if P[P_CPASSIVE] != 0 else 0
        if G[G_BAIL] != BAIL_NONE:
            return


@mirrors("fate_env.rules.flows.contest.score_of")
@njit(cache=True, _nrt=False, inline="always")
def _score(G, i):
    """Side i's score: its effort (a passive contest's: the shifts over its difficulty)."""
    at = G_CROLL + CRW * i
    return G[at + 1] + G[at + 2] + G[at + 3] - G[at + 4]


@mirrors("fate_env.rules.flows.contest._invokes")
@njit(cache=True, _nrt=False)
def _best_other(G, i):
    """The best score of the other sides that rolled (0 when none did: Mediocre)."""
    best = 0
    first = True
    for x in range(G[G_NLIVE]):
        if x != i and G[G_PLAN + 3 * x + 2] == 0:
            v = _score(G, x)
            if first or v > best:
                best = v
                first = False
    return best


@kernel_only("a side's contest roll as the roll in progress (R), its opposition the best other score")
@njit(cache=True, _nrt=False)
def _load(CH, G, R, i):
    """Side i's roll into R, so the invoke machinery reads it: no opposer, the margin against the best other
    score (R_OBASE: its difficulty and that score)."""
    at = G_CROLL + CRW * i
    R[R_ACTOR] = G[at]
    R[R_OPP] = NEG
    R[R_BASE] = G[at + 1]
    R[R_FACES] = G[at + 2]
    R[R_BONUS] = G[at + 3]
    R[R_OBASE] = G[at + 4] + _best_other(G, i)
    R[R_OFACES] = 0
    R[R_OBONUS] = 0
    R[R_Z1] = CH[G[at], C_ZONE]
    R[R_Z2] = CH[G[at], C_ZONE]
    R[R_ACTION] = ACT_CONTEST
    R[R_TARGET] = NEG
    R[R_ABOUT] = 0
    R[R_HASFLOOR] = 0
    R[R_ALONE] = 0


@mirrors("fate_env.rules.flows.contest._invokes", "fate_env.rules.invokes.invoke_turns")
@njit(cache=True, _nrt=False)
def _invokes(T, W, B, EV):
    """The rollers in turn, until every one of them stops in a row (003:606-613): each invokes on its own
    roll; basic's test is an attack's (an exchange won is a hit, fate points go on it)."""
    SC, P = T.SC, T.P
    CH, A, G, RNG = W.CH, W.A, W.G, W.RNG
    R, allies, payers, pick_paid = B.R, B.allies, B.payers, B.pick_paid
    # each side's roll its own number (the reference's Roll each keeps what was invoked on it): what a side
    # invoked is on its roll alone, as the observation's "invoked by my side on this roll" reads it
    first = G[G_ROLLNO] + 1
    nseats = 0
    for i in range(G[G_NLIVE]):
        if G[G_PLAN + 3 * i + 2] == 0:
            nseats += 1
    passes = 0
    turn = 0
    while nseats > 0 and passes < nseats:
        i = NEG  # the (turn % nseats)-th side that rolled
        q = turn % nseats
        for x in range(G[G_NLIVE]):
            if G[G_PLAN + 3 * x + 2] == 0:
                if q == 0:
                    i = x
                    break
                q -= 1
        turn += 1
        _load(CH, G, R, i)
        G[G_ROLLNO] = first + i
        who = R[R_ACTOR]
        nal = _allies(SC, CH, who, allies)
        npay = _payers(SC, CH, G, who, allies, nal, payers)
        pol = P[P_POL] + POL_W * who
        bear = ANY_ASPECT if P[pol + POL_ANY] != 0 else NEG
        strict = P[pol + POL_FIT]
        n = _invoke_scan(T, W, B, who, 2, nal, npay, NEG, bear, strict)
        if n == 0:
            passes += 1
            continue
        if _draws(P, who, D_INVOKE):
            idx = _draw(P, RNG, G, who, D_INVOKE, n + 1)
            if idx < 0:
                if G[G_BAIL] == BAIL_PAUSE:
                    _invoke_options(T, W, B, EV, who, True, 2, nal, npay, n, 0)
                    G[G_PEFFORT] = _score(G, i)  # the contest's context: scores, not efforts
                    G[G_POPP] = _best_other(G, i)
                return
            if idx > 0:
                _invoke_at(T, W, B, who, 2, nal, npay, idx, pick_paid)
            pick = (idx, _why(P, who, D_INVOKE), pick_paid[0], pick_paid[1], pick_paid[2], pick_paid[3])
        else:
            pick = _basic_invoke(T, W, B, who, True, True, nal, bear, strict)
        idx, why, aid, payer, free, reroll = pick
        if idx == 0:
            _decision(EV, G, D_INVOKE, who, 0, why, O_DONE, 0, 0, 0, 0, 0)
            passes += 1
            continue
        _decision(EV, G, D_INVOKE, who, idx, why, O_INVOKE, aid, payer, free, A[aid, A_NAME], reroll)
        _apply_invoke(T, W, B, EV, who, aid, payer, free == 1, reroll == 1)
        at = G_CROLL + CRW * i
        G[at + 2] = R[R_FACES]
        G[at + 3] = R[R_BONUS]
        passes = 0
        if G[G_BAIL] != BAIL_NONE:
            return
    G[G_ROLLNO] = first + G[G_NLIVE] - 1  # the rolls after these take new numbers


@mirrors("fate_env.rules.flows.contest._score", "fate_env.rules.flows.contest._twist")
@njit(cache=True, _nrt=False)
def _victories(T, W, EV):
    """The highest score marks a victory, two if it succeeds with style (passive: three shifts and no one else
    with three; opposed: three over the next best) (003:1510-1518); a tie for the highest is an unexpected twist,
    a new situation aspect. The scores' and the exchange's events."""
    P = T.P
    A, AF, AL, G = W.A, W.AF, W.AL, W.G
    top = 0
    leaders = 0
    rolled = 0
    for i in range(G[G_NLIVE]):
        if G[G_PLAN + 3 * i + 2] == 0:
            v = _score(G, i)
            _emit(EV, G, E_CSCORE, (G[G_SIDES + i], v, 0, 0, 0, 0, 0, 0, 0, 0, 0))
            if rolled == 0 or v > top:
                top = v
                leaders = 0
            if v == top:
                leaders += 1
            rolled += 1
    winner, won, twist = NEG, 0, NEG
    if rolled > 0 and leaders > 1:
        twist = P[P[P_TWIST] + G[G_TWISTS]]
        G[G_TWISTS] += 1
        aid = _new_aspect(A, AF, AL, G, P, twist, K_SITUATION, NEG, NEG, NEG)
        if aid == NEG:
            return
        _emit(EV, G, E_CREATED, (twist, aid, K_SITUATION, TGT_SCENE, 0, NEG, 0, 0, 0, 0, 0))
    elif rolled > 0:
        second = 0
        others_styled = False
        first = True
        for i in range(G[G_NLIVE]):
            if G[G_PLAN + 3 * i + 2] != 0:
                continue
            v = _score(G, i)
            if v == top and winner == NEG:
                winner = G[G_SIDES + i]
                continue
            if first or v > second:
                second = v
                first = False
            if v >= 3:
                others_styled = True
        if P[P_CPASSIVE] != 0:
            style = top >= 3 and not others_styled
        else:  # a lone roller is measured against Mediocre (+0)
            style = top - second >= 3
        won = 2 if style else 1
        G[G_VICT + winner] += won
    _emit(EV, G, E_CRESULT, (G[G_EXCHANGE], winner, won, twist, 0, 0, 0, 0, 0, 0, 0))


@mirrors("fate_env.rules.flows.contest._become_conflict", "fate_env.rules.flows.contest._conflict_from_here")
@njit(cache=True, _nrt=False)
def _become_conflict(W, EV, by):
    """An attack in a contest: it is a conflict from here (000:147-149), the attacker opening it under popcorn
    order; the victories are dropped, stress, consequences and aspects carry over (contest._flow starts it)."""
    G = W.G
    _emit(EV, G, E_BECAME, (by, G[G_EXCHANGE], 0, 0, 0, 0, 0, 0, 0, 0, 0))
    G[G_CONTEST] = 0
    G[G_EXCHANGE] = 0
    G[G_OPENER] = by + 1
    G[G_HANDOVER] = 1
    _emit(EV, G, E_CSTARTED, (G[G_GMPOOL], 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))


@mirrors("fate_env.rules.flows.contest.run")
@njit(cache=True, _nrt=False)
def _contest_run(T, W, B, EV, K):
    """The contest's exchanges from the state set up (or, under G_RESUME, from the checkpoint at an exchange's
    start), to its end, a pause, or the conflict it turns into."""
    SC, P = T.SC, T.P
    CH, MARK, G = W.CH, W.MARK, W.G
    G[G_RESUME] = 0
    while True:
        if G[G_CKMODE] != 0:
            _save(W, K)
        G[G_EXCHANGE] += 1
        if G[G_EXCHANGE] > P[P_MAXEX]:
            G[G_EXCHANGE] -= 1
            _finish(SC, CH, MARK, G, EV, P, True)
            return
        if G[G_HORIZON] > 0 and G[G_EXCHANGE] >= G[G_HORIZON]:  # a look-ahead's copy has seen enough
            G[G_BAIL] = BAIL_HORIZON
            return
        _emit(EV, G, E_EXCHANGE, (G[G_EXCHANGE], 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        _live_sides(SC, CH, G)
        if not _plans(T, W, EV) or G[G_BAIL] != BAIL_NONE:
            return
        by = _advantages(T, W, B, EV)
        if by < 0:
            return
        if by > 0:
            _become_conflict(W, EV, by - 1)
            return
        _contest_rolls(T, W, B, EV)
        if G[G_BAIL] != BAIL_NONE:
            return
        _invokes(T, W, B, EV)
        if G[G_BAIL] != BAIL_NONE:
            return
        _victories(T, W, EV)
        if G[G_BAIL] != BAIL_NONE:
            return
        winner = _winner(T, W)
        nleft = _live_sides(SC, CH, G)
        if winner == NEG and nleft == 1:
            winner = G[G_SIDES]  # the others were all taken out
        if winner != NEG or nleft == 0:
            G[G_DECIDED] = winner
            _finish(SC, CH, MARK, G, EV, P, False)
            return


@mirrors("fate_env.rules.flows.contest.run")
@njit(cache=True, _nrt=False)
def _winner(T, W):
    """The first side, in the scene's order of sides, with the victories the contest asks for (NEG: none)."""
    P = T.P
    G = W.G
    for s in range(P[P_NSIDES]):
        if G[G_VICT + s] >= P[P_CVICT]:
            return s
    return NEG
