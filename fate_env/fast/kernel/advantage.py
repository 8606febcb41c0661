"""Creating an advantage (``rules/actions/advantage.py``): the options, the roll with basic's
answers, the aspect placed.
"""

from __future__ import annotations

from ..jit import njit
from .aspects import _boost, _new_aspect
from .attack import _respond
from .events import _decision, _emit, _paused_two
from .invokes import _settle
from .layout import (
    C_SETBACK, S_SIDE,
    NO_ROLL,
    G_MAP, A_KIND, A_NAME, A_OWNER, A_SKILL, A_ZONE, ACT_ADVANTAGE, ACT_DEFEND, BAIL_NONE, C_ZONE, D_COST, E_CREATED, FAR, G_BAIL,
    G_NAL, G_PLACED, K_ADVANTAGE, K_SITUATION, NEG, O_FOR_ENEMY, O_NO_ASPECT, P_SHOOT, R_C_NOTHING, R_OPP, TG_ALLY,
    TG_FOE, TG_SELF, TG_ZONE, TGT_SCENE, TGT_ZONE, TP_DIFF, TP_NAME, TP_NDEF, TP_NRG, TP_NSK, TP_TARGET, TP_TRACK,
    WHY_PASSIVE_TEMPLATE, E_AVOIDED, O_AVOID_ASPECT, O_TAKE_ASPECT, P_MANEUVER, P_MAVOID, R_C_TAKES,
)
from .mirror import mirrors
from .rolls import _best_of, _roll_action, _use_skill
from .seats import _ask_two, _draw, _draws, _why
from .table import _pay_point, _points_of


@mirrors("fate_env.rules.actions.advantage.offer")
@njit(cache=True, _nrt=False)
def _key_of(A, aid):
    """Where an aspect sits, as a target code: its owner, else its zone, else the scene."""
    if A[aid, A_OWNER] != NEG:
        return A[aid, A_OWNER]
    if A[aid, A_ZONE] != NEG:
        return TGT_ZONE + A[aid, A_ZONE]
    return TGT_SCENE


@mirrors("fate_env.rules.actions.advantage.offer")
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


@mirrors("fate_env.rules.reach.template_targets")
@njit(cache=True, _nrt=False, inline="always")
def _target_of(CH, actor, tg):
    """The one target of a template that names no character: the actor itself, its zone, or the scene."""
    return actor if tg == TG_SELF else TGT_ZONE + CH[actor, C_ZONE] if tg == TG_ZONE else TGT_SCENE


@mirrors("fate_env.rules.actions.advantage.offer")
@njit(cache=True, _nrt=False, inline="always")
def _own_target(A, AL, G, adv_k, adv_g, n, k, name, t):
    """Template ``k`` on ``t`` as the n-th option, unless an aspect of its name is there already: the count."""
    if _named(A, AL, G, name, t):
        return n
    adv_k[n] = k
    adv_g[n] = t
    return n + 1


@mirrors("fate_env.rules.actions.advantage.offer")
@njit(cache=True, _nrt=False)
def _advantage_options(W, T, actor, foes, nf, B, nal):
    """The turn's advantage options in the reference's order (template by template, each
    template's targets from where the actor stands, reach.template_targets), without the ones
    already in play: (template, target code) pairs in ``adv_k``/``adv_g``; their count."""
    P, SIGHT, TPL = T.P, T.SIGHT[W.G[G_MAP]], T.TPL
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
                if TPL[k, TP_TRACK] == 0 and CH[t, C_ZONE] != here:  # a body elsewhere: a skill that
                    if TPL[k, TP_NRG] == 0:                            # reaches it, within shooting range
                        continue
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
            n = _own_target(A, AL, G, adv_k, adv_g, n, k, name, _target_of(CH, actor, tg))
    return n


@mirrors("fate_env.rules.reach.advantage_skill")
@njit(cache=True, _nrt=False)
def _advantage_skill(T, W, actor, k, target):
    """The skill ``actor`` creates template ``k``'s advantage on ``target`` with: the template's best, those
    that reach a body in another zone when it acts on one (reach.far_advantage), widened by its stunts."""
    SK, ST, P, TPL = T.SK, T.ST, T.P, T.TPL
    CH, A = W.CH, W.A
    far = TPL[k, TP_TARGET] == TG_FOE and TPL[k, TP_TRACK] == 0 and CH[target, C_ZONE] != CH[actor, C_ZONE]
    return _use_skill(SK, ST, CH, A, P, actor,
                      _best_of(SK, ST, CH, A, actor, TPL, k, TP_NRG if far else TP_NSK, ACT_ADVANTAGE, NEG),
                      ACT_ADVANTAGE, NEG, FAR if far else NEG)


@mirrors("fate_env.rules.actions.advantage.run", "fate_env.rules.actions.advantage.create_advantage")
@njit(cache=True, _nrt=False)
def _advantage(T, W, B, EV, actor, k, target, ask_cost):
    """advantage.create_advantage with basic's answers: against a foe's defense, else the
    template's difficulty; a tie gives a boost named for the template, a success the aspect with
    one free invoke (two with style); a failure asks the cost question, and basic gives nothing.
    Under Fate 3.0's maneuvers (P_MANEUVER, 002:79) a tie or a failure gives nothing and a success
    one free tag, which its target may pay to avoid (P_MAVOID). ``ask_cost``: a turn's attempt asks the cost
    question; a contest's does not (it asks its own: contest._advantages). Returns (the margin, or NO_ROLL when
    no roll was made; whether the opposition rolled)."""
    SK, ST, P, TPL = T.SK, T.ST, T.P, T.TPL
    CH, A, AF, AL, G, RNG = W.CH, W.A, W.AF, W.AL, W.G, W.RNG
    R = B.R
    on_char = target < TGT_SCENE
    active = TPL[k, TP_TARGET] == TG_FOE
    skill = _advantage_skill(T, W, actor, k, target)
    dskill = NEG
    if active:
        if not _respond(T, W, EV, target, B, False, True):
            return NO_ROLL, active
        dskill = _use_skill(SK, ST, CH, A, P, target, _best_of(SK, ST, CH, A, target, TPL, k, TP_NDEF, ACT_DEFEND, actor),
                            ACT_DEFEND, actor, NEG)  # not an attack: a stunt limited to one skill's attacks does not apply
    _roll_action(T, W, B, EV, actor, ACT_ADVANTAGE, skill, target if on_char else NEG, target if active else NEG,
                 dskill, (TPL[k, TP_DIFF], k, WHY_PASSIVE_TEMPLATE))
    if G[G_BAIL] != BAIL_NONE:
        return NO_ROLL, active
    m = _settle(T, W, B, EV, False, active, ACT_ADVANTAGE, target)
    if G[G_BAIL] != BAIL_NONE:
        return NO_ROLL, active
    name = TPL[k, TP_NAME]
    maneuver = P[P_MANEUVER] != 0
    if m < 0:
        if ask_cost and R[R_OPP] != NEG and not maneuver:  # success at a cost hands the enemy the aspect: basic never takes it
            j = _draw(P, RNG, G, actor, D_COST, 2) if _draws(P, actor, D_COST) else 0
            if j < 0:
                _paused_two(EV, G, O_NO_ASPECT, O_FOR_ENEMY)
                return NO_ROLL, active
            if j == 1:
                _decision(EV, G, D_COST, actor, 1, _why(P, actor, D_COST), O_FOR_ENEMY, 0, 0, 0, 0, 0)
                _stuck(T.SC, CH, actor, target)
                _place(A, AF, AL, G, P, EV, actor, name, target, skill, R[R_OPP], 1)
            else:
                _decision(EV, G, D_COST, actor, 0, _why(P, actor, D_COST) if _draws(P, actor, D_COST) else R_C_NOTHING,
                          O_NO_ASPECT, 0, 0, 0, 0, 0)
        return m, active
    if m == 0:
        if not maneuver:
            _boost(A, AF, AL, G, P, EV, actor, name)
        return m, active
    if P[P_MAVOID] != 0 and active and _points_of(T.SC, CH, G, target) > 0:
        if _avoided(T, W, EV, target, name) or G[G_BAIL] != BAIL_NONE:
            return m, active
    _stuck(T.SC, CH, actor, target)
    _place(A, AF, AL, G, P, EV, actor, name, target, skill, actor, 2 if m >= 3 and not maneuver else 1)
    return m, active


@mirrors("fate_env.rules.actions.advantage.avoided", "agents.basic.BasicController._cost")
@njit(cache=True, _nrt=False)
def _avoided(T, W, EV, target, name):
    """Fate 3.0 (002:79): a maneuver's target takes its aspect (basic always does) or pays a fate point,
    its own or, for an NPC, the GM pool's, not to. Whether it paid (False too while an answer is awaited)."""
    CH, G = W.CH, W.G
    j, why = _ask_two(T.P, W.RNG, G, EV, target, D_COST, O_TAKE_ASPECT, O_AVOID_ASPECT, 0, R_C_TAKES)
    if j < 0:
        return False
    _decision(EV, G, D_COST, target, j, why, O_AVOID_ASPECT if j == 1 else O_TAKE_ASPECT, 0, 0, 0, 0, 0)
    if j == 0:
        return False
    _pay_point(T.SC, CH, G, target)
    _emit(EV, G, E_AVOIDED, (target, name, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    return True


@mirrors("fate_env.rules.actions.advantage.place")
@njit(cache=True, _nrt=False, inline="always")
def _stuck(SC, CH, actor, target):
    """An advantage stuck on a foe of ``actor`` sets it back: no challenge task for it this exchange (000:505)."""
    if target < TGT_SCENE and SC[target, S_SIDE] != SC[actor, S_SIDE]:
        CH[target, C_SETBACK] = 1


@mirrors("fate_env.rules.actions.advantage.place")
@njit(cache=True, _nrt=False)
def _place(A, AF, AL, G, P, EV, actor, name, target, skill, holder, count):
    """advantage.place: the new aspect on ``target`` with ``count`` free invokes for ``holder`` (its caller
    sets a foe it is stuck on back first: ``_stuck``)."""
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
