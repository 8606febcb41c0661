"""The layout of the kernel's arrays and its codes: the columns of each table, the global
slots, the event, decision, option and reason codes, the bail-out reasons. Every kernel module
reads its names from here; ``decode.py`` and the environment's bridge read them as ``kernel.X``.
"""

from __future__ import annotations

from fate_env.rules.scene import COUNTDOWN_TRIGGERS
from fate_env.rules.stress import WHOLE_HIT  # noqa: F401  (a consequence's worth in a capacity, ordered rule)

# static, per character (SC)
S_SIDE, S_NPC, S_MINOR, S_NBOX, S_NSLOT, S_FP, S_ZONE, S_NSTUNT, S_MOB, S_COUNT, S_XREPL, S_WEAPON, S_ARMOR, \
    S_IMMOBILE, S_TROUBLE, S_SCALE, S_SOLO = range(17)
NSF = 17  # SC[c, NSF + b]: the value of c's box b on the scene's track
# S_SCALE: c's level of scale (003:2400-2439, read where P_SCALED); S_SOLO: its solo bonuses (003:2574-2602),
# a mask by place in SOLO_BONUSES (read where P_SOLO)
# S_TROUBLE: the aspect id of c's trouble (NEG for none): invokes.fits lets an actor invoke its target's
# S_XREPL: the aspect an extreme consequence replaces (harm.replace_for_extreme), NEG for none
# S_IMMOBILE: 1 for a character that never leaves its zone (no free move, no overcome move)
# S_WEAPON, S_ARMOR: the sheet's weapon and armor ratings (read only under the weapons dial: P_WEAPONS)
# dynamic, per character (CH)
C_ZONE, C_STATUS, C_FP, C_OWED, C_CTAKEN, C_FULLDEF, C_DEFONFULL, C_TOOKBY, C_ACTED, C_FPSPENT, \
    C_INVOKES, C_PAID, C_NSTUNT, C_MEMBERS, C_MOB, C_COUNT, C_TWCAP, C_NSUP, C_DEALT, C_TAKEN, C_ADV, \
    C_PEN, C_HELD, C_HELDONCE, C_SOLOSKILL, C_SCALE, C_SPIN, C_MINOR, C_PLEDGE, C_SETBACK, C_PROTBY, C_PROTSTR, C_ASSISTS, \
    C_BLKBY = range(34)
C_BLKSTR = C_BLKBY + 3
C_SLOTNAME = C_BLKSTR + 3
#: C_PROTBY: 1 + who blocks for c this exchange (Fate 3.0's protect, 002:44-46; 0: no one), C_PROTSTR the
#: block's strength; C_BLKBY + kind: 1 + who blocks c's kind of action (BLOCK_KINDS) this exchange (002:47;
#: 0: no one), C_BLKSTR + kind its strength
#: C_SETBACK: c was hit, or had an advantage stuck on it, this exchange: no challenge task for it now (000:505)
#: C_PLEDGE: in a contest, 1 + the side's roller c pledged its teamwork to this exchange (0: none; contest._plans)
#: C_MINOR: what c's minor actions this turn take off its every roll but a defense (Fate 3.0's move_cost: minor,
#: 002:28, 002:50-51: 1 for the step, the border's value more; read where P_MINOR, 0 outside c's turn)
#: C_SPIN: the spin tokens c holds (Fate 3.0's defense_overflow: spin, 002:94-95; read where P_SPIN)
#: C_SOLOSKILL: how many characters c faces alone with the solo skill bonus (solo._facing; 0: none), kept up
#: as characters leave (solo._count_facing) so a roll reads it rather than count; C_SCALE: a copy of S_SCALE (the
#: looks at a roll take CH alone: two more arrays handed to them cost 10% of every fight's pace, fast_core.md)
#: C_HELD: c holds its action (001:82-84), its place in the order of holding (G_HELDSEQ's count then), else 0;
#: C_HELDONCE: c held this exchange (a held turn is not held again)
#: C_PEN: what c's consequences take off its every roll under the ordered rule (facts.consequence_penalty,
#: 001:119): -1 a mild, -2 a moderate, -3 a severe; 0 under the shifts rule
#: C_DEALT, C_TAKEN: the shifts of the hits c dealt and took; C_ADV: its advantage rolls that succeeded;
#: C_ASSISTS: the free invokes c held that an ally spent on its own roll (an advantage c made, put to use)
#: (bench's per-character figures, bench.summarise)
#: CH[c, C_SLOTNAME + k]: the name id of the consequence in c's slot k (NEG while it is open); a sheet
#: with more slots than this is refused (fast/coverage.py)
MAX_SLOTS = 8
NCF = C_SLOTNAME + MAX_SLOTS  # C_NSTUNT, C_MOB, C_COUNT, C_TWCAP are copies of the sheet and the dial, kept here for the helpers
# CH[c, NCF:NCF + CH[c, C_NSUP]]: who pledged support to c's next action, in pledge order (CH is n wider)
ACTIVE, CONCEDED, TAKEN_OUT = 0, 1, 2
# stunts (ST): owner, skill, action, tag, arg, bonus
T_OWNER, T_SKILL, T_ACTION, T_TAG, T_ARG, T_BONUS = range(6)
#: the actions a roll is for, as the reference names them (decode spells a code with its word)
ACTIONS = ("attack", "defend", "create_advantage", "overcome", "block", "contest")
ACT_ATTACK, ACT_DEFEND, ACT_ADVANTAGE, ACT_OVERCOME, ACT_BLOCK, ACT_CONTEST = range(len(ACTIONS))
# ACT_CONTEST: a contest's roll, an overcome in all but its name (rolls._rolled: contest._contest_roll)
#: what a Fate 3.0 block may be against (rules/actions/block.KINDS), a code each by its place
from fate_env.rules.kinds import BLOCK_KINDS  # noqa: E402
BK_ATTACK, BK_ADVANTAGE, BK_MOVE = (BLOCK_KINDS.index(w) for w in ("attack", "advantage", "move"))
W_NONE, W_ZONE, W_SAME, W_OTHER, W_FULLDEF, W_TARGET, W_ASPECT, W_USE, W_BLAST = range(9)
# W_USE: not a bonus but a use_skill stunt to defend, create an advantage or overcome (ST row: skill, action, arg:
# the skill a defence is limited to defending against, or NEG for any); _stunt never counts it, _use_skill widens
# the roll's skills with it. W_BLAST: a zone_attack stunt (ST row: skill, ACT_ATTACK, arg: the skill's reach,
# reach.reach_of's, 0 melee, 1 ranged, 2 any)
# slots (SLOTS[c, k]): value, severity, track (-1 any)
L_VALUE, L_SEV, L_TRACK = range(3)
# aspects (A): kind, owner, zone, creator, name, boost turn
A_KIND, A_OWNER, A_ZONE, A_CREATOR, A_NAME, A_BTURN, A_ALIVE, A_SKILL, A_BLOCK = range(9)
NAF = 9  # A_SKILL: the skill that created an advantage (its creator defends with it)
# A_BLOCK: for a block's own aspect (an obstacle, Aspect.obstacle), the block's index + 1, else 0: it bears
# only on the rolls about that block (R_ABOUT, 003:2306-2313)
#: aspect kinds, as the reference names them (rules.kinds.AspectKind)
ASPECT_KINDS = ("character", "situation", "advantage", "consequence", "boost")
K_CHARACTER, K_SITUATION, K_ADVANTAGE, K_CONSEQUENCE, K_BOOST = range(len(ASPECT_KINDS))
# advantage templates (TPL[k]): target kind, track, name, difficulty, skills (count, up to 4),
# defend skills (count, up to 4), the skills among its own that reach a body in another zone
# (count, up to 4: reach.advantage_skills)
TP_TARGET, TP_TRACK, TP_NAME, TP_DIFF, TP_NSK, TP_SK, TP_NDEF, TP_DEF, TP_NRG, TP_RG = 0, 1, 2, 3, 4, 5, 9, 10, 14, 15
TPL_W = 19
TG_FOE, TG_SELF, TG_ALLY, TG_ZONE, TG_SCENE = range(5)
# what an advantage is placed on, in option and event rows: a character's index, or one of these
TGT_SCENE = 999
TGT_ZONE = 1000  # + the zone's index
# parameters (P); P_LIKELY..P_RESERVE are unused (each character's policy has its own: P_POL)
(P_TRACK, P_SHOOT, P_BLOCK, P_FD_CONDENSED, P_MAXEX, P_FIRST, P_LIKELY, P_MARGIN, P_HURT, P_RESERVE,
 P_GMPOOL, P_FIGHT, P_SHOOT_SKILL, P_PROVOKE, P_ATHLETICS, P_WILL, P_NSIDES, P_AMAX, P_EMAX,
 P_NAME_PREPARED, P_NAME_UPPER, P_NAME_OPENING, P_NAME_CONS0, P_STYLE, P_POPCORN, P_ORDER, P_TWCAP, P_POL,
 P_NAME_SMALL_WIN, P_NAME_SECOND_WIND, P_NAME_MOMENTUM, P_NAME_HARD_WON, P_MAJOR, P_TIE_CHOICE, P_ZCOST,
 P_NAME_CLEAR, P_EXPLOIT_FOE, P_XSK, P_RSK, P_CNAMES, P_COWNED, P_USESKILL, P_WEAPONS, P_NAME_GLANCING,
 P_NBLAST, P_SHARED, P_XRANGED, P_FORGO, P_STANDIN, P_FD_EXCHANGE, P_FD_FOCUS, P_NCD, P_CD, P_ORDERED, P_OFFERED, P_HOLD,
 P_NBLK, P_BLK, P_ZPATH, P_ZHARM, P_SCALED, P_SOLO, P_NHZ, P_HZ, P_MANEUVER, P_MAVOID, P_FRAGILE, P_SPIN, P_MINOR,
 P_BDIFF, P_SPRINT, P_PREV, P_PROTECT, P_BLOCKACT, P_KIND, P_CVICT, P_CPASSIVE, P_CSK, P_CDIFF, P_TWIST,
 P_NTASK, P_TASK, P_CSIDE, P_FASTER, P_NAME_FLYING) = range(85)
NP = 85
# P_FASTER: faster contests (003:2219-2230): a contestant rolls, helps or tries an advantage, one of the three
# P_KIND: what the scene is (KIND_*: rules/kinds.SceneKind). A contest (rules/flows/contest.py): P_CVICT victories win
# it, P_CPASSIVE 1 for a passive one (each side against its difficulty); P[P[P_CSK] + CSKW * side:] the side's
# skills to roll (a count, then up to CSK_MAX), P[P[P_CDIFF] + side] its difficulty; P[P[P_TWIST] + i] the name of
# the i-th unexpected twist (the scene's list, then "Unexpected Twist i+1"), for every exchange the scene may last.
# A challenge (rules/flows/challenge.py): P_NTASK tasks, P[P[P_TASK] + TKW * i:] task i's row (TK_*); P_CSIDE the
# challengers' side
KIND_CONFLICT, KIND_CONTEST, KIND_CHALLENGE = range(3)
CSK_MAX = 4
CSKW = CSK_MAX + 1
MAX_CSIDES = 8  # a contest of more sides is refused (fast/coverage.py)
TK_NAME, TK_SKILL, TK_DIFF, TK_BY = range(4)  # TK_BY: who must take it on, NEG for anyone
TKW = 4
MAX_TASKS = 8  # more are refused (fast/coverage.py)
# P_PROTECT: Fate 3.0's block protecting an ally (protect, 002:44-46); P_BLOCKACT: its block against a foe's kind
# of action (block_actions, 002:47)
# P_SPRINT: Fate 3.0's sprint (sprint: shifts, facts.sprint_by_shifts, 002:50-51): an overcome move is Athletics
# against Mediocre, each zone of the cheapest way taking a shift and its border's value more. P[P[P_PREV] + (m *
# zones + a) * zones + b]: the zone before b on the cheapest way from a in the map of the cleared set m (NEG: none)
# P_MINOR: Fate 3.0's minor moves (move_cost: minor, facts.minor_moves): the one-zone move, before the action only,
# crosses any border but a block's and costs 1 and the border's value on the turn's rolls (C_MINOR); after it no
# full defense (002:41). P[P[P_BDIFF] + (m * zones + a) * zones + b]: the difficulty of the border between zones a
# and b in the map of the cleared set m (G_MAP), 0 where there is none
# P_SPIN: Fate 3.0's spin (defense_overflow: spin, facts.spin, 002:94-95): a defense won by three or more gives
# a spin token (C_SPIN) instead of a boost, which its holder's allies may spend for +1 on a defense
# P_MANEUVER: Fate 3.0's maneuvers (advantage_rule: maneuver, facts.maneuvers, 002:79): an advantage needs a
# shift and merits one free tag; a tie or a failure gives nothing. P_MAVOID: a maneuver's target may pay a fate
# point not to take it (maneuver_avoid, 002:79). P_FRAGILE: an advantage on a character goes at its first
# invoke (fragile_aspects, 002:83)
# P_NHZ: how many hazards the scene has (Fate Condensed's obstacles that attack, 003:2270-2297; 0: no hazard
# code runs); P[P[P_HZ] + HZW * h:] hazard h's row, in the scene's order: its name id, its aspect's id (it acts
# while that aspect stands), its rating, its weapon rating, its zone (NEG: anywhere), the sides it attacks (a
# mask by side index), its slot in an order by skills (hazards.slot: it acts before the character there)
HZ_NAME, HZ_ASPECT, HZ_RATING, HZ_WEAPON, HZ_ZONE, HZ_SIDES, HZ_SLOT = range(7)
HZW = 7
MAX_HAZARDS = 8  # more are refused (fast/coverage.py)
#: a hazard as a roll's roller (R_ACTOR) and in the events that name one (E_ROLLED, E_RESOLVED, E_PASSIVE):
#: hazard h is HZ_ROLLER - h, below every other code a character's place may hold
HZ_ROLLER = -16
# P_SCALED: the characters are of more than one scale (Play.scaled): a roll against a lesser one takes +1 a
# level (003:2430-2439); P_SOLO: some character has a solo bonus (Play.solo, 003:2574-2602)
# P_NBLK: how many blocks the scene's borders hold (Fate Condensed's obstacles, 003:2300-2345; 0: no block
# code runs); P[P[P_BLK] + BKW * i:] block i's row, in the scene's border order: its border's two zones, its
# rating, weapon rating (a failed crossing's harm), the difficulty of clearing it, the armor it gives as cover
# (0: none), a shove's weapon rating (half its own, at least 1), its name id, its aspect's id
BK_A, BK_B, BK_RATING, BK_WEAPON, BK_REMOVE, BK_ARMOR, BK_SHOVE, BK_NAME, BK_ASPECT = range(9)
BKW = 9
MAX_BLOCKS = 6  # more are refused (fast/coverage.py): the map is tabled for every set of blocks cleared
# G[G_MAP]: the blocks cleared so far (bit i: block i; Table.cleared), which of the map's tables is in force:
# T.SIGHT[m], T.ZF[m], T.ZFN[m], and in P the move costs P[P[P_ZCOST] + (m * zones + a) * zones + b], the
# standing blocks a cheapest move crosses (P_ZPATH, a mask) and the first of them that harms (P_ZHARM, NEG: none)
# P_HOLD: FATE 2.0's held actions (hold_action, 001:82-84; a fixed order only): a turn may be put off whole,
# to be taken between two later turns of the exchange
# P_OFFERED: FATE 2.0's offered concessions (concession: offered, 001:150-152): no concession on a turn or
# before the dice; one taking a consequence may offer it to whoever hit, who accepts or refuses, and no
# payout for conceding
# P_ORDERED: FATE 2.0's ordered consequences (consequence_rule: ordered, facts.ordered, 001:117-123): a hit
# takes a box, or the next consequence (mild, moderate, severe) whole, each a penalty on its holder's rolls
# P_NCD: how many countdowns the scene has (0: no countdown code runs, 003:2171-2195); P[P[P_CD] + CDW * i:]
# countdown i's row: boxes, the character whose leaving stops it (NEG), the side it makes the winner (NEG),
# the name id of the aspect it puts into play (NEG), that aspect's zone (NEG: the scene's), where in P that
# aspect's free invokes start (one count per character), how many triggers, then (tag, character) each
CD_BOXES, CD_STOP, CD_WINNER, CD_ANAME, CD_AZONE, CD_FREE, CD_NTRIG, CD_TRIG = range(8)
MAX_CD, MAX_TRIG = 4, 8  # more are refused (fast/coverage.py)
CDW = CD_TRIG + 2 * MAX_TRIG
#: what marks a box: the scene's own list (scene.COUNTDOWN_TRIGGERS), a code each by its place there; a
#: trigger's character is NEG for none
TRIGGERS = COUNTDOWN_TRIGGERS
TR_EXCHANGE, TR_TURN, TR_CONSEQUENCE, TR_TAKEN_OUT = (TRIGGERS.index(w) for w in ("exchange", "turn", "consequence",
                                                                                 "taken_out"))
# P_FD_FOCUS: a full defense's +2 is for its own focus only, so not on a defense made for an ally stood in
# for (facts.full_defense_for_its_focus, 003:2240-2244; Core's is on every defense, 000:274)
# P_FD_EXCHANGE: FATE 2.0's full defense for the exchange (facts.exchange_defense, 001:78-80): +2 on every
# defense until the exchange ends, declared on one's turn or, by one yet to act, when first attacked
# (giving up that exchange's turn)
# P_XRANGED: which of the P_XSK skills reach another zone (bit j: EXPLOIT_SKILLS[j] is in skills.RANGED_SKILLS)
# P_SHARED: the shared_costs dial (1: a supported roll's major cost falls on its supporters too)
# P_NBLAST: how many zone_attack stunts the scene's sheets hold (0: a turn offers no zone attack)
# P_WEAPONS: the weapons dial (ruleset.weapons, weapon_effect): WEAPONS_OFF, on a hit's shifts, or as roll modifiers
# P_USESKILL: how many use_skill stunts other than to attack the scene's sheets hold (0: a roll's skills are never widened)
# P[P[P_CNAMES] + 2 * (((skill + 1) * 2 + track) * 4 + sev)]: how many names a consequence of severity sev on
# the track may take when ``skill`` struck (skill NEG: a hazard's or a crossing's hit, a cost), P[... + 1] where
# in P their name ids start, best first (aspects.consequence_candidates); P[P[P_COWNED] + (owner * 2 + track) *
# 4 + sev]: the id of the default name made its taker's own ("Deep Cut (Og)"), once every candidate is taken
# P[P[P_XSK]:+9]: the skills to take advantage of an aspect with (skills.EXPLOIT_SKILLS); P[P[P_RSK]:+3]: to clear one
# P[P_MAJOR]: the major_cost dial; P[P[P_ZCOST] + (m * zones + a) * zones + b]: the cost of an overcome move from a to b (G_MAP)
#: the weapons dial as the kernel keeps it (P_WEAPONS)
WEAPONS_OFF, WEAPONS_SHIFTS, WEAPONS_ROLL = range(3)
#: what a hit's note says (E_HIT's fifth field; the sixth and seventh: weapon and armor ratings)
HIT_PLAIN, HIT_WEAPON_TIE, HIT_WEAPON, HIT_FORCED_TIE, HIT_FORCED, HIT_CROSSING, HIT_HAZARD = range(7)
# HIT_HAZARD: a hazard's hit (the sixth field: the hazard; the seventh: the armor taken off it, 0 for none)
# HIT_FORCED(_TIE): forced into a block (the sixth field: the block; HIT_FORCED's seventh the weapon rating it
# adds, 003:2324-2326); HIT_CROSSING: a failed crossing of a block that harms (the sixth field: the block)
#: the major_cost dial's values (rules.ruleset), in code order
MAJOR_COSTS = ("off", "consequence", "enemy_aspect")
MAJOR_OFF, MAJOR_CONSEQUENCE, MAJOR_ENEMY_ASPECT = range(len(MAJOR_COSTS))
# P[P[P_POL] + POL_W * c:]: the policy playing c and its parameters (configs/policies.yaml)
POL_KIND, POL_LIKELY, POL_MARGIN, POL_HURT, POL_RESERVE, POL_MARKED, POL_STACK, POL_ASKS, POL_FLOOR, POL_ANY, \
    POL_FIT, POL_ANYROLL, POL_MEDIOCRE, POL_GUARD = range(14)
POL_W = 14
# POL_MEDIOCRE: mediocre_attacks (else basic fights only with skills rated above Mediocre when it has one)
# POL_FIT: fitting_invokes (invokes.fits); POL_ANYROLL: fate_points_on_any_roll (else only on attack rolls)
# POL_FLOOR: the GM pool an NPC leaves untouched (policies.pool_floor); POL_ANY: invoke_any (any aspect in
# play, not only those that bear on the roll: invokes.bears_on)
PK_BASIC, PK_BRUTE, PK_MINION, PK_SNIPER, PK_TACTICIAN, PK_SUPPORT, PK_RANDOM, PK_STACKER, PK_SPREAD = range(9)
# coward is basic with other parameters. POL_ASKS: the decision kinds (a bitmask over D_*) the seat
# answers from outside (a learner, a player: see _draw); its policy makes the others
STYLE_CONDENSED, STYLE_CORE, STYLE_ROLLUP = 0, 1, 2  # stress.STYLES (roll_up: FATE 2.0's and Fate 3.0's)
# P[P_ORDER:]: the turn order by skills (Core, reach.skill_order), character indices
# P[NP + 9*c:]: c's attack skills: count, then (skill, reach) x 4 (reach 0 melee, 1 ranged, 2 any)
ATK_W = 9
# globals (G)
G_GMPOOL, G_GMSPENT, G_EXCHANGE, G_TURNSEQ, G_ASEQ, G_NAL, G_NEV, G_NDICE, G_ROLLNO, G_BAIL, G_WINNER, \
    G_UNRESOLVED, G_PLACED, G_ANSPOS, G_NANS, G_PKIND, G_PACTOR, G_PCOUNT, G_CKMODE, G_RESUME, G_CKACTOR, \
    G_CKCURSOR, G_PEFFORT, G_POPP, G_PMARGIN, G_PROLLER, G_PSHIFTS, G_PLAYOUT, G_HORIZON, G_STOPEV, G_STOODIN, \
    G_DECIDED, G_HELDSEQ, G_MAP, G_CD = range(35)
# a contest's and a challenge's state (contest.py, challenge.py): G_CONTEST 1 while the scene is a contest (0 once
# it became a conflict), G_TWISTS the twists so far, G_OPENER 1 + who opens the conflict a contest turned into
# (0: the scene's first), G_NLIVE and G[G_SIDES + i] the sides still in, in order (live_sides), G[G_VICT + side]
# the victories, G[G_PLAN + 3 * i:] side i's plan this exchange (roller, skill, 1 if forfeited), G[G_CROLL +
# CRW * i:] its roll (roller, base, dice, invokes' bonus, difficulty). G_TASKS: the tasks left (a mask), G_NTASKRES
# and G[G_TASKRES + TRW * j:] the j-th task's result (task, character, effort, difficulty, margin, result: TR_*)
G_CONTEST = G_CD + 2 * MAX_CD
G_TWISTS, G_OPENER, G_NLIVE, G_TASKS, G_NTASKRES, G_TOCONTEST, G_HANDOVER = range(G_CONTEST + 1, G_CONTEST + 8)
# G_TOCONTEST: 1 + who turned the conflict into the scene's contest this turn (0: no one); G_HANDOVER: the flow
# that just returned handed the scene to the other (contest._flow starts it afresh)
G_SIDES = G_HANDOVER + 1
G_VICT = G_SIDES + MAX_CSIDES
G_PLAN = G_VICT + MAX_CSIDES
CRW = 5
G_CROLL = G_PLAN + 3 * MAX_CSIDES
TRW = 6
G_TASKRES = G_CROLL + CRW * MAX_CSIDES
MAX_TASKRES = 2 * MAX_TASKS  # tasks tried in a conflict (a failure may be tried again); more: BAIL_TASKS
NG = G_TASKRES + TRW * MAX_TASKRES
# G_DECIDED: the side a countdown's outcome made the winner (Table.decided; NEG while none has);
# G[G_CD + 2 * i], G[G_CD + 2 * i + 1]: countdown i's boxes marked and whether it still runs (Table.countdowns,
# Table.running), kept in G so checkpoints and a look-ahead's copies carry them  # G_PLACED: advantages placed so far (none: no template's option can be already in play)
# an agent's answers (G_NANS of them, from G[NG]) are taken in turn (G_ANSPOS); at the first
# decision past them the episode pauses, with the decision's kind, actor and option count.
# G_CKMODE: keep a checkpoint of the state at each turn's start (``advance``), G_RESUME: start
# from it, at the turn of G_CKACTOR (popcorn) or position G_CKCURSOR (Core's order).
# G_PEFFORT..G_PSHIFTS: a paused decision's context, as the reference's Decision.context gives it
# (an invoke's effort, opposition, margin and "as roller"; the shifts of a style or absorb choice)
# G_PLAYOUT, G_HORIZON: a look-ahead's copy (``playouts``): G_PLAYOUT characters ask until the last
# answer is taken, then every seat plays its policy on fresh dice (-1 once that happened), and the
# copy stops when exchange G_HORIZON begins (0: plays to the end)
# G_STOPEV: a copy that needs one event only (``script_pick``: the script's decision) stops once its
# log holds G_STOPEV events (0: never)
# the roll in progress (R)
R_ACTOR, R_OPP, R_BASE, R_FACES, R_BONUS, R_OBASE, R_OFACES, R_OBONUS, R_Z1, R_Z2, R_ACTION, R_TARGET, R_ABOUT, \
    R_HASFLOOR, R_OFLOOR, R_ALONE, R_SKILL = range(17)
NR = 17
# R_HASFLOOR, R_OFLOOR: a protected defender's floor (Roll.opp_floor, 002:46): its defense roll counts as at least
# R_OFLOOR; R_ALONE: only the roller invokes (invokes.invoke_turns with one seat: a Fate 3.0 block's roll)
# R_ABOUT: the blocks the roll is about (Roll.about, a mask: a move across them, clearing one, a shove into one)
# R_SKILL: the roller's skill (an attack's names the consequences it leaves, aspects._cons_name)
# R_TARGET: the character a roll is about (Roll.target: an attack's target, defended or not), or NEG

# event rows: EV[i, 0] is the code, the rest its fields
EW = 12
E_EXCHANGE, E_TURN, E_DECISION, E_ROLLED, E_INVOKED, E_RESOLVED, E_BOOST, E_REMOVED, E_NEXT, E_HIT, \
    E_ABSORBED, E_TAKENOUT, E_CONCEDED, E_ENDED, E_MOVED, E_FULLDEF, E_PASSED, E_MOBHIT, E_PASSIVE, \
    E_CREATED, E_SUPPORT, E_MAJOR, E_GAINED, E_BLAST, E_STOODIN, E_FORFEIT, E_CDMARKED, E_CDENDED, \
    E_CDSTOPPED, E_OFFERED, E_ANSWERED, E_HELD, E_COVER, E_SOLO, E_HAZARD, E_AVOIDED, E_SPIN, E_MINOR, E_SPRINTED, \
    E_PROTECTING, E_BLOCKING, E_BLOCKTESTED, E_BLOCKHELD, E_CPLAN, E_CSCORE, E_CRESULT, E_FORFEITED, E_BECAME, \
    E_CSTARTED, E_TASKRES, E_BECAMECON, E_CONSTARTED = range(1, 53)
# E_BECAMECON (who turned it, the exchange: the conflict is the scene's contest now), E_CONSTARTED (the contest
# starts anew: ContestStarted)
# a contest's: E_CPLAN (the side, its roller, the skill, its supporters as bits by place: a contest of up to
# BLAST_BITS characters), E_CSCORE (a side, its score: one per side that rolled, before E_CRESULT), E_CRESULT (the
# exchange, the winning side or NEG, the victories won, the twist's name or NEG), E_FORFEITED (the side, who, 0 its
# roll or 1 its support), E_BECAME (who attacked, the exchange: it is a conflict now), E_CSTARTED (the GM's pool:
# the conflict starts); a challenge's E_TASKRES (as G_TASKRES's row)
# E_PROTECTING (the blocker, the ally, the strength), E_BLOCKING (the blocker, the foe, the kind, the strength),
# E_BLOCKTESTED (the one blocked, the blocker, the kind, 1 if it got past), E_BLOCKHELD (the one protected, the
# blocker, the strength its defense roll fell short of)
# E_SPRINTED (the sprinter, the shifts it had, the zone it made for, the zones it went: 002:50-51)
# E_MINOR (the character, the penalty its minor actions now take off the turn's rolls: a move, 002:28)
# E_SPIN (the holder, the tokens it holds now, the ally it spent one for or NEG: a token won)
# E_AVOIDED (the target, the maneuver's name: it paid a fate point not to take it, 002:79)
# E_HAZARD (the hazard, its target: a hazard's turn, 003:2288-2293)
# E_SOLO (the big bad, its bonus by place in SOLO_BONUSES, the amount: shifts taken off a hit, an invoke's worth)
# E_COVER (the target, the block, the armor it gives: a block between the zones used as cover, 003:2333-2337)
# E_FORFEIT (the character, why: FORFEIT_FULLDEF or FORFEIT_HELD); E_HELD (the character holding its action)
FORFEIT_FULLDEF, FORFEIT_HELD = 0, 1
# E_OFFERED (the one taking a consequence, the one it offers its concession to); E_ANSWERED (the same two,
# 1 accepted or 0 refused, the fate point the refuser lost)
# E_CDMARKED (countdown, boxes marked, its boxes), E_CDENDED (countdown, the aspect's id or NEG), E_CDSTOPPED
# (countdown, the character who left)
# E_BLAST: a zone attack (actor, zone, skill, then its targets as bits: character c is bit c % BLAST_BITS of field
# 3 + c // BLAST_BITS, so a scene of up to 8 * BLAST_BITS characters: fast/coverage.py)
BLAST_BITS = 60
# decision kinds, option kinds, reasons (decode.py spells them out)
#: decision kinds, as the reference names them (rules.kinds.DecisionKind)
DECISIONS = ("turn", "respond", "invoke", "style", "absorb", "next", "move", "cost", "concession", "hold",
             "contest_roll", "support", "contest_advantage", "task")
D_TURN, D_RESPOND, D_INVOKE, D_STYLE, D_ABSORB, D_NEXT, D_MOVE, D_COST, D_CONCESSION, D_HOLD, D_CROLL, D_SUPPORT, \
    D_CADV, D_TASK = range(len(DECISIONS))
O_ATTACK, O_CONCEDE, O_MOVE, O_FULLDEF, O_PASS, O_DEFEND, O_DONE, O_INVOKE, O_FULLHIT, O_ABSORB, O_TAKENOUT, \
    O_NEXT, O_STAY, O_ADVANTAGE, O_NO_ASPECT, O_SUPPORT, O_OVERCOME, O_MINOR_COST, O_FAIL, O_MAJOR_COST, O_EXPLOIT, \
    O_REMOVE, O_BOOST_HIT, O_FOR_ENEMY, O_FAIL_BOOST, O_ZONEATTACK, O_FORGO, O_STAND_ASIDE, O_STAND_IN, O_OFFER, \
    O_ACCEPT, O_REFUSE, O_HOLD, O_ACT_NOW, O_KEEP_HOLDING, O_SHOVE, O_TAKE_ASPECT, O_AVOID_ASPECT, O_SPIN, \
    O_PROTECT, O_BLOCKACT, O_ROLLFOR, O_NO_SUPPORT, O_NO_ADVANTAGE, O_TO_CONFLICT, O_FORFEIT, O_PAY, O_TASK, \
    O_TO_CONTEST = range(49)
NO = O_TO_CONTEST + 1  # how many option codes (a table by option code has NO rows)
(R_T_CONCEDE, R_T_ATTACK, R_T_STEP, R_T_FULLDEF, R_T_NOTHING, R_R_CONCEDE, R_R_DEFEND, R_I_ENOUGH, R_I_HOLDS,
 R_I_CANNOT, R_I_NOOWN, R_S_FULL, R_A_LEAST, R_A_NOTHING, R_N_ALLY, R_N_WEAKEST, R_M_STAYS,
 R_M_CLOSES, R_M_HOLDS, R_T_SMASH, R_T_BACKS, R_T_SHOOTS, R_M_FALLS, R_T_SETS_UP, R_C_NOTHING, R_T_GUARDS,
 R_T_CASHES, R_T_SETS_UP_ON, R_T_FOCUSES, R_I_CASHES, R_N_HOLDER, R_T_BACKS_UP, R_T_SETS_UP_FOR, R_T_FORCES,
 R_C_MINOR, R_C_MAJOR, R_C_HURT, R_RANDOM, R_AGENT, R_T_STACKS, R_I_STACKS, R_T_CLOSES) = range(42)
# an invoke's reason: R_I_FREE or R_I_PAID + how the aspect bears on the roll (the reasons' *_own, _foe, _scene, _any)
BEARINGS = ("own", "foe", "scene", "any")
BEAR_OWN, BEAR_FOE, BEAR_SCENE, BEAR_ANY = range(len(BEARINGS))
R_I_FREE = 42
R_I_PAID = R_I_FREE + 4
R_T_BLAST = R_I_PAID + 4  # basic: a zone attack that catches two foes or more and no friend
R_T_OUTMATCHED = R_T_BLAST + 1  # counter: full defense, every attack rated below its target's defense
R_C_ONLY = R_T_OUTMATCHED + 1  # basic: a cost question it has no preference in (stand aside: the first option)
R_A_OFFER = R_C_ONLY + 1  # basic: offers its concession rather than take a severe consequence (or when it would)
R_CN_ACCEPT = R_A_OFFER + 1  # basic: accepts a concession offered
R_H_ACT = R_CN_ACCEPT + 1  # basic: takes its held turn at the first chance
R_C_TAKES = R_H_ACT + 1  # basic: takes a maneuver's aspect and keeps its fate points
R_I_SPIN = R_C_TAKES + 1  # basic: spends an ally's spin token to hold a defense
R_T_MINOR_STEP = R_I_SPIN + 1  # basic: a minor step first, for better odds even at its cost (Fate 3.0)
R_T_PROTECT = R_T_MINOR_STEP + 1  # basic: blocks for the ally the next likely hit would take out (Fate 3.0)
R_T_BLOCKS = R_T_PROTECT + 1  # basic: blocks the worst hitter's attacks, an ally being in danger (Fate 3.0)
R_CT_ROLL = R_T_BLOCKS + 1  # basic, in a contest: the member with the best skill rolls for the side
R_CT_HELPS = R_CT_ROLL + 1  # ... every other member with a rank in the skill adds teamwork
R_CT_NORANK = R_CT_HELPS + 1  # ... one with none does not
R_CT_ALLIN = R_CT_NORANK + 1  # ... and no one tries an advantage
R_CT_KEEP = R_CT_ALLIN + 1  # ... a failed one is kept at a cost (the other side's free invoke)
R_CT_TASK = R_CT_KEEP + 1  # basic, in a challenge: the task with the best odds next
R_CT_DONE = R_CT_TASK + 1  # ... and a failed one taken at a major cost
R_T_TASK = R_CT_DONE + 1  # basic, in a conflict holding a challenge: works on a task when not set back
R_T_RETREAT = R_T_TASK + 1  # ... and, the challenge done, turns the conflict into the scene's contest
R_T_SPREAD = R_T_RETREAT + 1  # spreader: hits the foe in reach with the most left to take
# G_STOODIN: 1 while the defense being rolled is made for an ally stood in for (stand_in, 000:270): under
# Condensed's full defense its +2 is for the defender's own focus only (003:2240-2244)
ANY_ASPECT = -3  # _invoke_scan's ``bear`` under invoke_any: every aspect in play may be picked
# a task's result (TaskResult.result), a code each by its place
TASK_RESULTS = ("success", "success_with_style", "minor_cost", "major_cost", "fail", "fail_with_boost")
TR_SUCCESS, TR_STYLE, TR_MINOR, TR_MAJOR, TR_FAIL, TR_FAIL_BOOST = range(len(TASK_RESULTS))
# removal reasons
WHY_USED, WHY_EXPIRED, WHY_CLEARED, WHY_REPLACED, WHY_FRAGILE = 0, 1, 2, 3, 4
SEV_SEVERE, SEV_EXTREME = 2, 3  # tables.SEVERITIES
# why a passive opposition (E_PASSIVE's fifth field)
WHY_PASSIVE_TEMPLATE, WHY_PASSIVE_EXPLOIT, WHY_PASSIVE_CLEAR, WHY_PASSIVE_FORGO, WHY_PASSIVE_HAZARD, WHY_PASSIVE_SPRINT, \
    WHY_PASSIVE_PROTECT, WHY_PASSIVE_BLOCK, WHY_PASSIVE_PAST, WHY_PASSIVE_TASK = range(10)
# WHY_PASSIVE_BLOCK's argument: the foe * 3 + the kind of action
# a target's answer before the dice (steps.respond): no roll (it conceded), it defends, or it forgoes the
# defense (the forgo_defense dial, P_FORGO: the attack rolls against Mediocre, 000:292-294)
RESP_NONE, RESP_DEFEND, RESP_FORGO = 0, 1, 2
NO_ROLL = 1 << 20  # an advantage attempt that made no roll (its target conceded first): never a failure
# overcome outcomes (overcome.overcome_outcome)
OUT_FAIL, OUT_COST, OUT_SUCCESS, OUT_STYLE = range(4)

# why an episode was handed to the reference engine
BAIL_NONE, BAIL_ASPECTS, BAIL_EVENTS, BAIL_SUPPORT, BAIL_PAUSE, BAIL_ANSWER, BAIL_HORIZON, BAIL_TASKS = range(8)
BAIL_REASONS = ("", "too many aspects", "too many events", "more pledges of support than characters",
                "paused for an answer", "an answer outside the options", "stopped at the look-ahead's horizon",
                "more tasks tried than the kernel records")

NEG = -1
#: the solo bonuses, as the reference names them (rules.solo.SOLO_BONUSES), a bit each in S_SOLO
from fate_env.rules.solo import INVOKE_BONUS, SOLO_BONUSES  # noqa: E402,F401  (INVOKE_BONUS: kernel/solo.py)
SOLO_SKILL, SOLO_REDUCE, SOLO_REDUCE_MIN_1, SOLO_AMPLIFIED, SOLO_SUPPRESS, SOLO_NO_STACKING = (
    SOLO_BONUSES.index(w) for w in ("skill", "reduce_stress", "reduce_stress_min_1", "amplified_invokes",
                                    "suppress_invokes", "no_stacking"))
#: _use_skill's ``versus`` for a roll on a body in another zone: only a W_USE stunt whose skill
#: reaches there (T_BONUS 1: skills.RANGED_SKILLS) widens it (rolls.best_skill's ``far``)
FAR = -2


# The event writers have explicit signatures (all int64): numba would otherwise compile one copy
# per combination of constant arguments at their call sites (100 of _emit, 51 of _decision).
EV_T, G_T = "int64[:, ::1]", "int64[::1]"

NOT_HERE = -2  # _holder_here: the aspect is not in play for this roll
