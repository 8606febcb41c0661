"""The ``basic`` policy's tests (``agents/basic.py``): whether to concede, the danger a foe
poses, the free move into reach, the attack with the best odds.
"""

from __future__ import annotations

from ..jit import njit
from .layout import (
    G_MAP, C_COUNT, C_CTAKEN, C_MEMBERS, C_MOB, C_ZONE, NEG, P_POL, PK_MINION, POL_HURT, POL_KIND,
    POL_LIKELY, POL_MARGIN, POL_MARKED, POL_MEDIOCRE, POL_W, S_NBOX, P_BDIFF,
)
from .mirror import mirrors
from .reach import _attack_skills, _can_reach
from .rolls import _attack_rating, _defense_rating
from .stress import _cap
from .table import _foes


@mirrors("agents.basic.BasicController._should_concede")
@njit(cache=True, _nrt=False)
def _may_concede(CH, P, me):
    """The cheap half of the concession test: a policy that never concedes, or an unhurt
    character under ``hurt_first``, needs no danger estimate (a minion conceding once marked
    always looks)."""
    pol = P[P_POL] + POL_W * me
    if P[pol + POL_KIND] == PK_MINION and P[pol + POL_MARKED] != 0:
        return True
    return P[pol + POL_MARGIN] > -99 and (P[pol + POL_HURT] == 0 or _holds(CH, me))


@mirrors("agents.basic.BasicController._should_concede")
@njit(cache=True, _nrt=False)
def _holds(CH, me):
    """Already hurt: a consequence taken, or a mob that has lost members."""
    return CH[me, C_CTAKEN] != 0 or (CH[me, C_MOB] != 0 and CH[me, C_MEMBERS] < CH[me, C_COUNT])


@mirrors("agents.basic.BasicController._should_concede", "agents.tactics.MinionController._should_concede")
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


@mirrors("agents.basic.BasicController._danger")
@njit(cache=True, _nrt=False)
def _danger(T, W, me, pol, B):
    """BasicController._danger: (a foe can hurt ``me``, how far the likeliest such hit goes past
    what ``me`` can absorb), with the likely roll of the policy at ``pol``."""
    SC, SK, ST, SLOTS, P, SIGHT, HOPS = T.SC, T.SK, T.ST, T.SLOTS, T.P, T.SIGHT[W.G[G_MAP]], T.HOPS
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


@mirrors("agents.basic.BasicController._weapons")
@njit(cache=True, _nrt=False)
def _weapons(SK, P, me, skills):
    """basic._weapons: ``me``'s attack skills written into ``skills``, the Mediocre ones left out
    under ``mediocre_attacks: false`` when one is rated above Mediocre; their count."""
    na = _attack_skills(P, me, skills)
    if P[P[P_POL] + POL_W * me + POL_MEDIOCRE] != 0:
        return na
    n = 0
    for j in range(na):
        if SK[me, skills[j]] > 0:
            skills[n] = skills[j]
            n += 1
    return n if n > 0 else _attack_skills(P, me, skills)


@mirrors("agents.basic.BasicController._reach_after")
@njit(cache=True, _nrt=False)
def _reach_after(SC, SK, CH, P, SIGHT, me, zone, buf, skills):
    nf = _foes(SC, CH, me, buf)
    na = _weapons(SK, P, me, skills)
    for i in range(nf):
        for j in range(na):
            if _can_reach(P, SIGHT, CH, me, skills[j], zone, buf[i]):
                return True
    return False


@mirrors("agents.basic.BasicController._move")
@njit(cache=True, _nrt=False)
def _reach_step(T, CH, G, actor, moves, nm, buf, skills):
    """The first of the turn's free ``moves`` from which a foe is in reach (its index), or NEG."""
    SC, SK, P, SIGHT = T.SC, T.SK, T.P, T.SIGHT[G[G_MAP]]
    for i in range(nm):
        if _reach_after(SC, SK, CH, P, SIGHT, actor, moves[i], buf, skills):
            return i
    return NEG


@mirrors("agents.basic.BasicController._turn")
@njit(cache=True, _nrt=False)
def _best_odds_pick(T, W, actor, natt, B, likely):
    """basic: odds x 2, +3 if the likely roll takes the target out; the first of the best."""
    SC, SK, ST, SLOTS, P = T.SC, T.SK, T.ST, T.SLOTS, T.P
    MARK, SLOTA, CH, A = W.MARK, W.SLOTA, W.CH, W.A
    att_t, att_s, weapons = B.att_t, B.att_s, B.skills
    nw = _weapons(SK, P, actor, weapons)  # once a turn: the skills basic fights with
    best = NEG
    best_score = -99
    for i in range(natt):
        t = att_t[i]
        armed = False
        for j in range(nw):
            armed = armed or weapons[j] == att_s[i]
        if not armed:
            continue  # no plinking at Mediocre with a real weapon to close in with
        odds = _attack_rating(SK, ST, CH, A, actor, att_s[i], t) - _defense_rating(SK, ST, CH, A, P, t, actor, att_s[i])
        if odds * 2 + 3 <= best_score:
            continue
        finish = 1 if odds + likely > _cap(SC, SLOTS, MARK, SLOTA, CH, P, t) else 0
        score = odds * 2 + finish * 3
        if score > best_score:
            best = i
            best_score = score
    return best, best_score


@mirrors("agents.basic.BasicController._minor_step")
@njit(cache=True, _nrt=False)
def _minor_step(T, W, actor, B, likely, nm):
    """basic under Fate 3.0's minor moves (002:28): the one-zone step (of the turn's ``nm`` in ``B.moves``)
    after which the best attack scores highest, its penalty (1, the border's value more) counted, scored as
    the turn's attacks are: (the step's index, its score), (NEG, -99) for none."""
    SC, SK, ST, SLOTS, P, SIGHT = T.SC, T.SK, T.ST, T.SLOTS, T.P, T.SIGHT[W.G[G_MAP]]
    MARK, SLOTA, CH, A = W.MARK, W.SLOTA, W.CH, W.A
    buf, weapons, moves = B.buf, B.skills, B.moves
    here = CH[actor, C_ZONE]
    nf = _foes(SC, CH, actor, buf)
    nw = _weapons(SK, P, actor, weapons)
    best = NEG
    best_score = -99
    for i in range(nm):
        zone = moves[i]
        penalty = 1 + P[P[P_BDIFF] + (W.G[G_MAP] * SIGHT.shape[0] + here) * SIGHT.shape[0] + zone]
        for f in range(nf):
            foe = buf[f]
            for j in range(nw):
                if not _can_reach(P, SIGHT, CH, actor, weapons[j], zone, foe):
                    continue
                odds = _attack_rating(SK, ST, CH, A, actor, weapons[j], foe) - penalty - \
                    _defense_rating(SK, ST, CH, A, P, foe, actor, weapons[j])
                finish = 1 if odds + likely > _cap(SC, SLOTS, MARK, SLOTA, CH, P, foe) else 0
                if odds * 2 + finish * 3 > best_score:
                    best = i
                    best_score = odds * 2 + finish * 3
    return best, best_score


@mirrors("agents.basic.BasicController._close_in")
@njit(cache=True, _nrt=False)
def _close_in(SC, SK, CH, P, SIGHT, actor, moves, nm, buf, skills, skill):
    """(move index, skill): the first free move from which an attack skill rated above ``skill``
    reaches a foe, and that skill (the first such in attack-skill order); (NEG, NEG) if none."""
    nf = _foes(SC, CH, actor, buf)
    na = _attack_skills(P, actor, skills)
    rating = SK[actor, skill]
    for i in range(nm):
        for j in range(na):
            if SK[actor, skills[j]] <= rating:
                continue
            for f in range(nf):
                if _can_reach(P, SIGHT, CH, actor, skills[j], moves[i], buf[f]):
                    return i, skills[j]
    return NEG, NEG
