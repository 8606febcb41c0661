"""A scene as the fast core's flat arrays, or a refusal that names what it does not cover.

The fast core plays a declared subset of the rules (see ``covered``); a scene outside it is
refused here, by name, before any play, and the reference engine runs it instead. Tracks,
slots and box values come from the reference's own builders (``state.build_fighter``), so the
two cores start from the same sheet by construction.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from fate_env.content.policies import pool_floor
from fate_env.rules.aspects import CONSEQUENCE_NAMES, consequence_candidates, own_consequence_name
from fate_env.rules.hazards import slot as hazard_slot
from fate_env.rules.scene import Scene
from fate_env.rules.actions.remove import REMOVE_SKILLS
from fate_env.rules.reach import order_by_skills, reach_of, sheet_attack_skills, skills_of_order
from fate_env.rules.skills import DEFAULT_SKILLS, EXPLOIT_SKILLS, MENTAL, PHYSICAL, RANGED_SKILLS
from fate_env.rules.stress import build_fighter

from .kernel import layout as k
from .bundles import Scene as KernelScene
from .coverage import MAJOR_COSTS, REACHES, STYLES, TARGET_KINDS, WHEN_TAGS, scene_reasons

SEVERITIES = ("mild", "moderate", "severe", "extreme")
TRACKS = (PHYSICAL, MENTAL)
BOOSTS = ("Prepared", "Upper Hand", "Opening", "Small Win", "Second Wind", "Momentum")
ACTION_CODES = {"attack": k.ACT_ATTACK, "defend": k.ACT_DEFEND, "create_advantage": k.ACT_ADVANTAGE,
                "overcome": k.ACT_OVERCOME}
#: a seat answered from outside the kernel (FastCore.replay): a learner or a player
AGENT = "agent"
#: the controllers the kernel plays natively (agents/basic.py, agents/tactics.py); coward is
#: basic with other parameters, spender stacker with a stack of 0, and counter spender with guard
POLICY_KINDS = {"basic": k.PK_BASIC, "coward": k.PK_BASIC, "brute": k.PK_BRUTE, "minion": k.PK_MINION,
                "sniper": k.PK_SNIPER, "tactician": k.PK_TACTICIAN, "support": k.PK_SUPPORT, "random": k.PK_RANDOM,
                "stacker": k.PK_STACKER, "spender": k.PK_STACKER, "counter": k.PK_STACKER, "spreader": k.PK_SPREAD,
                AGENT: k.PK_BASIC}
#: the decision kinds a seat may answer from outside (kernel.POL_ASKS bits; decode.KINDS spells them)
DECISION_BITS = {word: code for code, word in enumerate(k.DECISIONS)}
ASK_ALL = (1 << len(DECISION_BITS)) - 1
CONTROLLERS = tuple(p for p in POLICY_KINDS if p != AGENT)
AMAX = 256          # aspect ids one episode may reach, at least (sized from the scene: limits())
EMAX = 4096         # events one episode may write, at least


def limits(characters: int, aspects: int) -> tuple[int, int]:
    """(aspect ids, events) one episode of a scene may reach: the floors above, or room that grows with
    the characters (each may take consequences, create advantages and boosts, and write a turn's
    events every exchange), so a crowded scene stays on the fast core instead of outgrowing fixed
    tables. The kernel reads both at run time (P_AMAX, the event table's rows); an episode that
    still outgrows them stops with its reason and is played on the reference."""
    return max(AMAX, aspects + 24 * characters), max(EMAX, 320 * characters)


class TooLong(RuntimeError):
    """A fight so far that made more aspects or events than the kernel's tables hold (a generated
    fight of 15 characters reached 361 aspects, another 4,806 events): a look-ahead forks instead."""


class Unsupported(ValueError):
    """The fast core does not cover this scene (or these controllers); the reference runs it."""


@dataclass(frozen=True)
class Tables:
    """Everything the kernel reads, and the names ``decode`` needs to spell events back."""

    scene: Scene
    ids: tuple[str, ...]
    sides: tuple[str, ...]
    skills: tuple[str, ...]
    zones: tuple[str, ...]
    names: tuple[str, ...]
    SC: np.ndarray
    SK: np.ndarray
    ST: np.ndarray
    SLOTS: np.ndarray
    A0: np.ndarray
    AF0: np.ndarray
    P: np.ndarray
    SIGHT: np.ndarray
    HOPS: np.ndarray
    ZF: np.ndarray
    ZFN: np.ndarray
    ZR: np.ndarray
    ZRN: np.ndarray
    TPL: np.ndarray
    box_values: tuple[tuple[int, ...], ...]
    slot_info: tuple[tuple[tuple[str, int], ...], ...]
    fp_start: tuple[int, ...]
    gm_start: int

    @cached_property
    def blocks(self) -> tuple[str, ...]:
        """The blocks' names by the kernel's index (P_BLK's rows: the scene's border order); worked out
        once (the decoder reads it per event)."""
        return tuple(b.block.name for b in _blocks(self.scene))

    @property
    def emax(self) -> int:
        """The rows of an episode's event table (limits())."""
        return int(self.P[k.P_EMAX])

    def arrays(self) -> KernelScene:
        """The arrays the kernel reads, bundled as its entry points take them."""
        return KernelScene(*(getattr(self, name) for name in KernelScene._fields))


def covered(scene: Scene, controllers: dict[str, str] | None = None) -> list[str]:
    """Why the fast core cannot play ``scene`` (empty: it can): what ``coverage`` does not list as
    played, and any character played by a controller the kernel does not mirror."""
    why = scene_reasons(scene)
    others: dict[str, list[str]] = {}
    for cid, spec in (controllers or {}).items():
        if spec not in CONTROLLERS and spec != AGENT:
            others.setdefault(spec, []).append(cid)
    for spec, cids in others.items():
        why.append(f"{', '.join(cids)} played by {spec!r} (the fast core plays {', '.join(CONTROLLERS)})")
    return why


def asks_mask(kinds) -> int:
    """The POL_ASKS bitmask of some decision kinds (names as the reference's DecisionKind)."""
    unknown = sorted(set(kinds) - set(DECISION_BITS))
    if unknown:
        raise Unsupported(f"the fast core asks only a conflict's decisions ({', '.join(DECISION_BITS)}), "
                          f"not {', '.join(unknown)}")
    return sum(1 << DECISION_BITS[x] for x in set(kinds))


class _Names:
    """The aspect names the kernel knows by number (an aspect row's A_NAME), in the order first asked."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def id(self, text: str) -> int:
        if text not in self.texts:
            self.texts.append(text)
        return self.texts.index(text)


@dataclass
class _Index:
    """The scene's names as the kernel's numbers: characters, sides, zones, skills (a row or column each)."""

    ids: tuple[str, ...]
    sides: tuple[str, ...]
    zones: tuple[str, ...]
    skills: list[str]

    @property
    def ci(self) -> dict[str, int]:
        return {c: i for i, c in enumerate(self.ids)}

    @property
    def zi(self) -> dict[str, int]:
        return {z: i for i, z in enumerate(self.zones)}

    @property
    def si(self) -> dict[str, int]:
        return {s: i for i, s in enumerate(self.skills)}


def _index(scene: Scene) -> _Index:
    """Every skill a sheet, a stunt or an advantage template names, after the defaults."""
    skills = list(DEFAULT_SKILLS)
    for c in scene.characters:
        skills.extend(s for s in c.skills if s not in skills)
        skills.extend(st.skill for st in c.stunts if st.skill and st.skill not in skills)
        skills.extend(st.against for st in c.stunts if st.against and st.against not in skills)
    for tpl in scene.advantages:
        skills.extend(s for s in tuple(tpl.skills) + tuple(tpl.defend) if s not in skills)
    if scene.contest is not None:
        skills.extend(s for side in scene.contest.skills.values() for s in side if s not in skills)
    if scene.challenge is not None:
        skills.extend(t.skill for t in scene.challenge.tasks if t.skill not in skills)
    return _Index(tuple(c.id for c in scene.characters), tuple(scene.sides), tuple(z.id for z in scene.zones), skills)


def _stunt_row(ix: _Index, i: int, st: Any, f: Any) -> list | None:
    """A stunt as the kernel's ST row (owner, skill, action, tag, argument, bonus; the aspect a
    ``when: aspect`` names kept beside it until the names are numbered), or None for one it
    reads elsewhere (extra stress and slots are in the fighter's tracks)."""
    si, zi, ci = ix.si, ix.zi, ix.ci
    if st.kind == "zone_attack":  # a turn's option, at the skill's reach (kernel/zone_attack.py)
        return [i, si[st.skill], ACTION_CODES["attack"], k.W_BLAST, REACHES[reach_of(f, st.skill)], 0, ""]
    if st.kind == "use_skill" and st.action != "attack":  # widens the roll's skills (kernel._use_skill)
        return [i, si[st.skill], ACTION_CODES[st.action], k.W_USE,
                si[st.against] if st.against is not None else k.NEG, 1 if st.skill in RANGED_SKILLS else 0, ""]
    if st.kind != "bonus":
        return None
    tag = st.cond.tag if st.cond is not None else None
    arg = 0
    if tag == "zone":
        arg = zi[st.cond.arg]
    elif tag == "target":
        arg = ci.get(st.cond.arg, -2)
    elif tag == "aspect":
        arg = -1  # named once the aspect names are listed (_stunts)
    return [i, si[st.skill], ACTION_CODES[st.action], WHEN_TAGS[tag], arg, st.bonus,
            st.cond.arg if tag == "aspect" else ""]


def _characters(scene: Scene, ix: _Index, fighters: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """SC (each character's fixed columns, then its box values), SK (skills) and SLOTS (consequence
    slots: value, severity, track), from the reference's own fighters (state.build_fighter)."""
    chars, n = scene.characters, len(scene.characters)
    nbox = max(len(f.tracks[scene.conflict].values) for f in fighters)
    nslot = max([len(f.slots) for f in fighters] + [1])
    if nbox > 62 or nslot > 8:
        raise Unsupported(f"the fast core does not cover scene {scene.name!r}: more than 62 boxes or 8 slots")
    SC = np.zeros((n, k.NSF + nbox), np.int64)
    SK = np.zeros((n, len(ix.skills)), np.int64)
    SLOTS = np.zeros((n, nslot, 3), np.int64)
    si, zi = ix.si, ix.zi
    for i, (c, f) in enumerate(zip(chars, fighters)):
        values = f.tracks[scene.conflict].values
        SC[i, k.S_SIDE] = ix.sides.index(c.side)
        SC[i, k.S_NPC] = 1 if c.is_npc else 0
        SC[i, k.S_MINOR] = 1 if c.kind == "minor" else 0
        SC[i, k.S_NBOX] = len(values)
        SC[i, k.S_NSLOT] = len(f.slots)
        SC[i, k.S_FP] = f.fate_points
        SC[i, k.S_ZONE] = zi[c.zone]
        SC[i, k.NSF:k.NSF + len(values)] = values
        SC[i, k.S_NSTUNT] = sum(1 for st in c.stunts if st.kind == "bonus")
        SC[i, k.S_MOB] = 1 if c.kind == "mob" else 0
        SC[i, k.S_COUNT] = f.members
        SC[i, k.S_WEAPON], SC[i, k.S_ARMOR] = c.weapon, c.armor
        SC[i, k.S_IMMOBILE] = 1 if c.immobile else 0
        SC[i, k.S_TROUBLE] = k.NEG
        SC[i, k.S_SCALE] = c.scale
        SC[i, k.S_SOLO] = sum(1 << k.SOLO_BONUSES.index(b) for b in c.solo_bonus)
        for s, v in c.skills.items():
            SK[i, si[s]] = v
        for j, sl in enumerate(f.slots):
            SLOTS[i, j] = (sl.value, SEVERITIES.index(sl.severity), -1 if sl.track is None else TRACKS.index(sl.track))
    return SC, SK, SLOTS


def _aspects(scene: Scene, ix: _Index, names: _Names, SC: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A0 (the opening aspects' rows, in the order aspects.setup_aspects makes them) and AF0 (their
    free invokes, by holder); each character's trouble and the aspect an extreme consequence
    replaces are written into SC by their kernel id (row + 1)."""
    chars, ci, zi = scene.characters, ix.ci, ix.zi
    rows, free = [], []
    for i, c in enumerate(chars):
        for j, text in enumerate([c.high_concept, c.trouble] + list(c.aspects)):
            if text:
                rows.append((k.K_CHARACTER, i, -1, -1, names.id(text), 0, 0, -1, 0))
                free.append({})
                if j == 1:
                    SC[i, k.S_TROUBLE] = len(rows)
    for sa in scene.aspects:
        rows.append((k.K_SITUATION, -1, -1 if sa.zone is None else zi[sa.zone], -1, names.id(sa.name), 0, 0, -1, 0))
        free.append({ci[h]: v for h, v in sa.free_invokes.items()})
    for i, b in enumerate(_blocks(scene)):  # a block's name: an aspect about the block alone (A_BLOCK)
        rows.append((k.K_SITUATION, -1, -1, -1, names.id(b.block.name), 0, 0, -1, i + 1))
        free.append({})
    for hz in scene.hazards:  # a hazard's name: an aspect of its zone, or of the scene for one with none
        rows.append((k.K_SITUATION, -1, -1 if hz.zone is None else zi[hz.zone], -1, names.id(hz.name), 0, 0, -1, 0))
        free.append({})
    for i, c in enumerate(chars):
        SC[i, k.S_XREPL] = k.NEG
        lost = c.extreme_loses()
        for row, r in enumerate(rows):
            if r[1] == i and r[0] == k.K_CHARACTER and names.texts[r[4]] == lost and names.texts[r[4]] != c.high_concept:
                SC[i, k.S_XREPL] = row + 1
                break
    A0 = np.array(rows, np.int64).reshape(-1, k.NAF)
    AF0 = np.zeros((len(rows), len(chars)), np.int64)
    for a, got in enumerate(free):
        for h, v in got.items():
            AF0[a, h] = v
    return A0, AF0


def _stunts(scene: Scene, ix: _Index, names: _Names, fighters: list) -> np.ndarray:
    """ST: every stunt the kernel reads, one row each (_stunt_row), a ``when: aspect`` naming its aspect
    by its name id (numbered after the opening aspects')."""
    stunts = [row for i, (c, f) in enumerate(zip(scene.characters, fighters)) for st in c.stunts
              if (row := _stunt_row(ix, i, st, f)) is not None]
    for st in stunts:
        if st[3] == k.W_ASPECT:
            st[4] = names.id(st[6])
    return np.array([st[:6] for st in stunts], np.int64).reshape(-1, 6)


def _blocks(scene: Scene) -> list[Any]:
    """The borders holding a block, in the scene's order (the order aspects.setup_aspects names them)."""
    return [b for b in scene.borders if b.block is not None]


def _maps(scene: Scene) -> list[Any]:
    """The zone map for every set of blocks cleared (zones.ZoneMap), by mask: bit i, the scene's i-th block."""
    from fate_env.rules.zones import ZoneMap
    keys = [frozenset((b.a, b.b)) for b in _blocks(scene)]
    return [ZoneMap(scene, frozenset(key for i, key in enumerate(keys) if m >> i & 1)) for m in range(1 << len(keys))]


def _zone_tables(scene: Scene, ix: _Index, maps: list[Any]) -> tuple[Any, ...]:
    """The zone map as tables (zones.ZoneMap): hops between every pair of zones and the zones an
    overcome reaches (with their counts), which no block changes; and for every set of blocks
    cleared (G_MAP), sight between every pair and each zone's free moves."""
    zi, nz, nm = ix.zi, len(ix.zones), len(maps)
    SIGHT = np.full((nm, nz, nz), -1, np.int64)
    HOPS = np.full((nz, nz), -1, np.int64)
    ZF = np.zeros((nm, nz, max(nz, 1)), np.int64)
    ZFN = np.zeros((nm, nz), np.int64)
    ZR = np.zeros((nz, max(nz, 1)), np.int64)
    ZRN = np.zeros(nz, np.int64)
    for m, zmap in enumerate(maps):
        for a in ix.zones:
            for b, d in zmap.sight[a].items():
                SIGHT[m, zi[a], zi[b]] = d
            fm = zmap.minor_moves(a) if scene.rules.facts.minor_moves else zmap.free_moves(a)
            ZFN[m, zi[a]] = len(fm)
            ZF[m, zi[a], :len(fm)] = [zi[z] for z in fm]
    zmap = maps[0]
    for a in ix.zones:
        for b, d in zmap.hops[a].items():
            HOPS[zi[a], zi[b]] = d
        rz = zmap.reachable(a)
        ZRN[zi[a]] = len(rz)
        ZR[zi[a], :len(rz)] = [zi[z] for z in rz]
    return SIGHT, HOPS, ZF, ZFN, ZR, ZRN


def _map_params(P: np.ndarray, scene: Scene, ix: _Index, names: _Names, maps: list[Any], naspects: int) -> np.ndarray:
    """P with the blocks' rows (layout.BK_*) and, for every set of blocks cleared, the move costs
    (zones.ZoneMap.move_difficulty), the standing blocks a cheapest move crosses and the first that
    harms (ZoneMap.path_borders, blocks.harmful_crossing) after it."""
    zi, zones, nz = ix.zi, ix.zones, len(ix.zones)
    blocks = _blocks(scene)
    index = {frozenset((b.a, b.b)): i for i, b in enumerate(blocks)}
    rows = np.zeros(k.BKW * len(blocks), np.int64)
    first_aspect = naspects - len(blocks) - len(scene.hazards) + 1  # the blocks' aspects, then the hazards' (_aspects)
    for i, b in enumerate(blocks):
        bl = b.block
        rows[k.BKW * i:k.BKW * (i + 1)] = (zi[b.a], zi[b.b], bl.rating, bl.weapon, bl.remove_difficulty, bl.armor,
                                           bl.shove_weapon, names.id(bl.name), first_aspect + i)
    cost = np.zeros(len(maps) * nz * nz, np.int64)
    path = np.zeros(len(maps) * nz * nz, np.int64)
    harm = np.full(len(maps) * nz * nz, k.NEG, np.int64)
    for m, zmap in enumerate(maps):
        for a in zones:
            for b, c in zmap.cost[a].items():
                at = (m * nz + zi[a]) * nz + zi[b]
                cost[at] = c
                if not blocks or a == b:
                    continue
                crossed = [index[frozenset((x.a, x.b))] for x in zmap.path_borders(a, b) if x.block is not None]
                path[at] = sum(1 << i for i in crossed)
                harmful = [i for i in crossed if blocks[i].block.weapon > 0]
                harm[at] = harmful[0] if harmful else k.NEG
    diff = np.zeros(len(maps) * nz * nz, np.int64)  # a border's value, for a minor move's penalty (002:50-51)
    prev = np.full(len(maps) * nz * nz if scene.rules.facts.sprint_by_shifts else 0, k.NEG, np.int64)
    for m, zmap in enumerate(maps):
        for b in zmap.borders.values():
            diff[(m * nz + zi[b.a]) * nz + zi[b.b]] = diff[(m * nz + zi[b.b]) * nz + zi[b.a]] = b.difficulty
        for a in zones if len(prev) else ():  # a sprint's way: the zone before each on the cheapest from a
            for b in zmap.reachable(a):
                way = zmap.path_borders(a, b)
                z = a
                for border in way:
                    nxt = border.b if border.a == z else border.a
                    prev[(m * nz + zi[a]) * nz + zi[nxt]] = zi[z]
                    z = nxt
    at = len(P)
    P = np.concatenate([P, rows, cost, path, harm, diff, prev])
    P[k.P_NBLK], P[k.P_BLK] = len(blocks), at
    P[k.P_ZCOST], P[k.P_ZPATH], P[k.P_ZHARM], P[k.P_BDIFF], P[k.P_PREV] = (at + len(rows) + j * len(cost) for j in range(5))
    return P


def _templates(scene: Scene, ix: _Index, names: _Names) -> np.ndarray:
    """TPL: the advantage templates (target kind, track, name, difficulty, their skills, the
    defending skills, the skills among them that reach other zones)."""
    si = ix.si
    TPL = np.zeros((len(scene.advantages), k.TPL_W), np.int64)
    for j, t in enumerate(scene.advantages):
        TPL[j, [k.TP_TARGET, k.TP_TRACK, k.TP_NAME, k.TP_DIFF]] = (TARGET_KINDS[t.target], TRACKS.index(t.track),
                                                                  names.id(t.name), t.difficulty)
        TPL[j, k.TP_NSK] = len(t.skills)
        TPL[j, k.TP_SK:k.TP_SK + len(t.skills)] = [si[s] for s in t.skills]
        TPL[j, k.TP_NDEF] = len(t.defend)
        TPL[j, k.TP_DEF:k.TP_DEF + len(t.defend)] = [si[s] for s in t.defend]
        far = [si[s] for s in t.skills if s in RANGED_SKILLS]
        TPL[j, k.TP_NRG] = len(far)
        TPL[j, k.TP_RG:k.TP_RG + len(far)] = far
    return TPL


def _made_names(scene: Scene, names: _Names, skills: list[str]) -> dict[str, Any]:
    """The names of the aspects the kernel makes in play, numbered after the opening aspects' and the
    stunts' (and before the templates'): the boosts, the grounds, the glancing blow, and the
    consequences' names: the defaults first (their ids in order), then aspects.consequence_candidates
    for each skill that can strike (row 0: none, a hazard's or a crossing's hit) on each track and
    severity, then each taker's own default."""
    made: dict[str, Any] = {"boosts": [names.id(b) for b in BOOSTS], "hard_won": names.id("Hard-Won Ground"),
                            "clear": names.id("Clear Ground"),
                            "glancing": names.id("Glancing Blow")}  # armor took a whole hit (attack.land)
    made["cons0"] = len(names.texts)
    for t in TRACKS:
        for sev in SEVERITIES:
            names.texts.append(CONSEQUENCE_NAMES[t][sev])
    made["rows"] = [[names.id(x) for x in consequence_candidates(scene, t, sev, skill)]
                    for skill in (None, *skills) for t in TRACKS for sev in SEVERITIES]
    made["owned"] = [names.id(own_consequence_name(t, sev, c.name)) for c in scene.characters for t in TRACKS
                     for sev in SEVERITIES]
    return made


def _policy_params(P: np.ndarray, scene: Scene, policies: dict[str, tuple[str, dict]], asks: dict[str, int] | None,
                   pool: int) -> None:
    """Each seat's policy and its parameters, at P[P_POL] + POL_W * seat."""
    for i, c in enumerate(scene.characters):
        name, params = policies[c.id]
        at = P[k.P_POL] + k.POL_W * i
        P[at + k.POL_KIND] = POLICY_KINDS[name]
        P[at + k.POL_LIKELY] = int(params["likely_roll"])
        P[at + k.POL_MARGIN] = int(params["concede_margin"])
        P[at + k.POL_HURT] = 1 if params["hurt_first"] else 0
        P[at + k.POL_RESERVE] = int(params["fp_reserve"])
        P[at + k.POL_MARKED] = 1 if params.get("concede_when_marked") else 0
        P[at + k.POL_STACK] = int(params.get("stack", 2))
        P[at + k.POL_ASKS] = ASK_ALL if name == AGENT else (asks or {}).get(c.id, 0)
        P[at + k.POL_FLOOR] = pool_floor(params, c.kind, pool) if c.is_npc else 0
        P[at + k.POL_ANY] = 1 if params.get("invoke_any") else 0
        P[at + k.POL_FIT] = 1 if params.get("fitting_invokes", True) else 0
        P[at + k.POL_ANYROLL] = 1 if params.get("fate_points_on_any_roll") else 0
        P[at + k.POL_MEDIOCRE] = 1 if params.get("mediocre_attacks") else 0
        P[at + k.POL_GUARD] = 1 if params.get("guard") else 0


def _attack_params(P: np.ndarray, scene: Scene, ix: _Index) -> None:
    """Each character's attack skills and their reach (reach.attack_skills and reach_of), at
    NP + ATK_W * seat, and the order by skills (Core's turn order) at P[P_ORDER]."""
    si, ci = ix.si, ix.ci
    P[P[k.P_ORDER]:P[k.P_ORDER] + len(ix.ids)] = [ci[c] for c in _order_by_skills(scene)]
    tracks = scene.rules.tracks_in_play(scene.conflict)
    for i, c in enumerate(scene.characters):
        atk = [(skill, REACHES[reach]) for skill, reach in sheet_attack_skills(tracks, c)]
        at = k.NP + k.ATK_W * i
        P[at] = len(atk)
        for j, (sk, reach) in enumerate(atk):
            P[at + 1 + 2 * j], P[at + 2 + 2 * j] = si[sk], reach


def _rule_params(P: np.ndarray, scene: Scene) -> None:
    """What the rule set's facts (rules/facts.py) and the scene's rules say, as P's flags and codes."""
    rules, facts = scene.rules, scene.rules.facts
    P[k.P_EXPLOIT_FOE] = int(facts.exploit_against_foe)
    P[k.P_STYLE] = STYLES[rules.stress_style]
    P[k.P_POPCORN] = int(facts.popcorn)
    P[k.P_TWCAP] = int(facts.teamwork_capped)
    P[k.P_TRACK] = TRACKS.index(scene.conflict)
    P[k.P_SHOOT] = scene.shoot_range
    P[k.P_BLOCK] = 1 if scene.foes_block_movement else 0
    P[k.P_FD_CONDENSED] = int(facts.full_defense_boost)
    P[k.P_FD_EXCHANGE] = int(facts.exchange_defense)
    P[k.P_FD_FOCUS] = int(facts.full_defense_for_its_focus)
    P[k.P_ORDERED] = int(facts.ordered)
    P[k.P_OFFERED] = int(facts.concession_offered)
    P[k.P_HOLD] = int(rules.hold_action)
    P[k.P_MAXEX] = rules.max_exchanges
    P[k.P_WEAPONS] = (k.WEAPONS_SHIFTS if facts.weapon_shifts else k.WEAPONS_ROLL if facts.weapon_rolls else
                      k.WEAPONS_OFF)
    P[k.P_MAJOR] = MAJOR_COSTS[rules.major_cost]
    P[k.P_TIE_CHOICE] = int(facts.tie_choice)
    P[k.P_SHARED] = 1 if rules.shared_costs else 0
    P[k.P_FORGO] = 1 if rules.forgo_defense else 0  # switches: read as they are (facts.py)
    P[k.P_STANDIN] = 1 if rules.stand_in else 0
    P[k.P_MANEUVER] = int(facts.maneuvers)
    P[k.P_SPIN] = int(facts.spin)
    P[k.P_MINOR] = int(facts.minor_moves)
    P[k.P_SPRINT] = int(facts.sprint_by_shifts)
    P[k.P_PROTECT] = 1 if rules.protect else 0
    P[k.P_BLOCKACT] = 1 if rules.block_actions else 0
    P[k.P_MAVOID] = 1 if rules.maneuver_avoid else 0
    P[k.P_FRAGILE] = 1 if rules.fragile_aspects else 0
    P[k.P_SCALED] = 1 if len({c.scale for c in scene.characters}) > 1 else 0  # Play.scaled
    P[k.P_SOLO] = 1 if any(c.solo_bonus for c in scene.characters) else 0  # Play.solo
    P[k.P_NBLAST] = sum(1 for c in scene.characters for st in c.stunts if st.kind == "zone_attack")
    P[k.P_USESKILL] = sum(1 for c in scene.characters for st in c.stunts
                          if st.kind == "use_skill" and st.action != "attack")


def _params(scene: Scene, ix: _Index, made: dict[str, Any], policies: dict[str, tuple[str, dict]],
            asks: dict[str, int] | None, pool: int, naspects: int) -> np.ndarray:
    """P: the scalar parameters (P_*), then the attack table, the order by skills, the policies, the
    skills of exploits and removals, and the consequence names, laid out in that order."""
    n, si, ci = len(ix.ids), ix.si, ix.ci
    rows, owned = made["rows"], made["owned"]
    names_at = k.NP + k.ATK_W * n + n + k.POL_W * n + len(EXPLOIT_SKILLS) + 3
    P = np.zeros(names_at + 2 * len(rows) + sum(map(len, rows)) + len(owned), np.int64)
    P[k.P_CNAMES] = names_at
    at = names_at + 2 * len(rows)
    for r, ids_ in enumerate(rows):
        P[names_at + 2 * r], P[names_at + 2 * r + 1] = len(ids_), at
        P[at:at + len(ids_)] = ids_
        at += len(ids_)
    P[k.P_COWNED] = at
    P[at:at + len(owned)] = owned
    P[k.P_XSK] = names_at - len(EXPLOIT_SKILLS) - 3
    P[k.P_RSK] = names_at - 3
    P[P[k.P_XSK]:P[k.P_XSK] + len(EXPLOIT_SKILLS)] = [si[s] for s in EXPLOIT_SKILLS]
    P[P[k.P_RSK]:P[k.P_RSK] + 3] = [si[s] for s in REMOVE_SKILLS[scene.conflict]]
    P[k.P_XRANGED] = sum(1 << j for j, s in enumerate(EXPLOIT_SKILLS) if s in RANGED_SKILLS)
    P[k.P_POL] = k.NP + k.ATK_W * n + n
    _policy_params(P, scene, policies, asks, pool)
    P[k.P_ORDER] = k.NP + k.ATK_W * n
    _attack_params(P, scene, ix)
    _rule_params(P, scene)
    P[k.P_FIRST] = ci[scene.first] if scene.first else ci[_first_by_skills(scene)]
    P[k.P_GMPOOL] = pool
    P[k.P_FIGHT], P[k.P_SHOOT_SKILL], P[k.P_PROVOKE] = si["Fight"], si["Shoot"], si["Provoke"]
    P[k.P_ATHLETICS], P[k.P_WILL] = si["Athletics"], si["Will"]
    P[k.P_NSIDES] = len(ix.sides)
    P[k.P_AMAX], P[k.P_EMAX] = limits(n, naspects)
    (P[k.P_NAME_PREPARED], P[k.P_NAME_UPPER], P[k.P_NAME_OPENING], P[k.P_NAME_SMALL_WIN], P[k.P_NAME_SECOND_WIND],
     P[k.P_NAME_MOMENTUM]) = made["boosts"]
    P[k.P_NAME_HARD_WON] = made["hard_won"]
    P[k.P_NAME_CLEAR] = made["clear"]
    P[k.P_NAME_GLANCING] = made["glancing"]
    P[k.P_NAME_CONS0] = made["cons0"]
    return P


def _countdown_params(P: np.ndarray, scene: Scene, ix: _Index, names: _Names) -> np.ndarray:
    """P with the countdowns' rows after it (kernel/countdowns.py; layout.CD_*): boxes, who stops it, the
    side it makes the winner, its aspect's name, zone and free invokes (one count per character, then the
    first holder the scene names), its triggers."""
    if not scene.countdowns:
        return P
    ci, zi, si = ix.ci, ix.zi, {s: i for i, s in enumerate(ix.sides)}
    rows = np.full(k.CDW * len(scene.countdowns), k.NEG, np.int64)
    free: list[int] = []
    at = len(P) + len(rows)
    for i, cd in enumerate(scene.countdowns):
        row = rows[k.CDW * i:k.CDW * (i + 1)]
        row[k.CD_BOXES] = cd.boxes
        row[k.CD_STOP] = ci[cd.stops_when_out] if cd.stops_when_out else k.NEG
        row[k.CD_WINNER] = si[cd.winner] if cd.winner is not None else k.NEG
        if cd.aspect is not None:
            row[k.CD_ANAME] = names.id(cd.aspect.name)
            row[k.CD_AZONE] = zi[cd.aspect.zone] if cd.aspect.zone is not None else k.NEG
            row[k.CD_FREE] = at + len(free)
            free += [cd.aspect.free_invokes.get(c, 0) for c in ix.ids]
            free.append(ci[next(iter(cd.aspect.free_invokes))] if cd.aspect.free_invokes else k.NEG)
        row[k.CD_NTRIG] = len(cd.triggers)
        for j, w in enumerate(cd.triggers):  # a trigger's character: NEG for none, -2 for one not in the scene
            row[k.CD_TRIG + 2 * j] = k.TRIGGERS.index(w.tag)
            row[k.CD_TRIG + 2 * j + 1] = ci.get(w.arg, -2) if w.arg else k.NEG
    P = np.concatenate([P, rows, np.array(free, np.int64)])
    P[k.P_NCD], P[k.P_CD] = len(scene.countdowns), len(P) - len(rows) - len(free)
    return P


def _hazard_params(P: np.ndarray, scene: Scene, ix: _Index, names: _Names, naspects: int) -> np.ndarray:
    """P with the hazards' rows after it (kernel/hazards.py; layout.HZ_*): name, aspect (the last opening
    ones, _aspects), rating, weapon, zone, the sides it attacks (every side for none named), its slot in
    the order by skills (rules/hazards.slot)."""
    if not scene.hazards:
        return P
    zi, sides = ix.zi, {s: i for i, s in enumerate(ix.sides)}
    order = [scene.character(c) for c in _order_by_skills(scene)]
    first = skills_of_order(scene.rules.facts.initiative, scene.conflict)[0]
    rows = np.zeros(k.HZW * len(scene.hazards), np.int64)
    first_aspect = naspects - len(scene.hazards) + 1
    for h, hz in enumerate(scene.hazards):
        rows[k.HZW * h:k.HZW * (h + 1)] = (
            names.id(hz.name), first_aspect + h, hz.rating, hz.weapon, zi[hz.zone] if hz.zone is not None else k.NEG,
            sum(1 << sides[s] for s in (hz.attacks or ix.sides)), hazard_slot(hz, order, first))
    P = np.concatenate([P, rows])
    P[k.P_NHZ], P[k.P_HZ] = len(scene.hazards), len(P) - len(rows)
    return P


def _challenge_params(P: np.ndarray, scene: Scene, ix: _Index, names: _Names) -> np.ndarray:
    """P with the challenge's tasks after it (kernel/challenge.py; layout.TK_*): name, skill, difficulty, who
    must take it on (NEG: anyone), and the challengers' side."""
    spec = scene.challenge
    if spec is None:
        return P
    ci, si = ix.ci, ix.si
    rows = np.array([x for t in spec.tasks for x in (names.id(t.name), si[t.skill], t.difficulty,
                                                     ci[t.by] if t.by else k.NEG)], np.int64)
    P = np.concatenate([P, rows])
    P[k.P_NTASK], P[k.P_TASK] = len(spec.tasks), len(P) - len(rows)
    P[k.P_CSIDE] = ix.sides.index(spec.side) if spec.side in ix.sides else k.NEG
    return P


def _contest_params(P: np.ndarray, scene: Scene, ix: _Index, names: _Names) -> np.ndarray:
    """P with what kind of scene it is (P_KIND) and, for a contest, its rows after it (kernel/contest.py;
    layout.P_CSK, P_CDIFF, P_TWIST): each side's skills and difficulty, and a twist's name for every exchange
    the scene may last (ContestSpec.twist)."""
    kinds = {"conflict": k.KIND_CONFLICT, "contest": k.KIND_CONTEST, "challenge": k.KIND_CHALLENGE}
    P[k.P_KIND] = kinds[scene.kind]
    P[k.P_FASTER] = 1 if scene.rules.faster_contests else 0
    P[k.P_NAME_FLYING] = names.id("Flying Start")  # a task done with style (task.attempt_task)
    P = _challenge_params(P, scene, ix, names)
    spec = scene.contest
    if spec is None:
        return P
    si = ix.si
    sk = np.zeros(k.CSKW * len(ix.sides), np.int64)
    for i, side in enumerate(ix.sides):
        own = spec.skills.get(side, ())
        sk[k.CSKW * i] = len(own)
        sk[k.CSKW * i + 1:k.CSKW * i + 1 + len(own)] = [si[x] for x in own]
    diff = np.array([spec.difficulty.get(side, 0) for side in ix.sides], np.int64)
    twists = np.array([names.id(spec.twist(i)) for i in range(scene.rules.max_exchanges + 1)], np.int64)
    at = len(P)
    P = np.concatenate([P, sk, diff, twists])
    P[k.P_CVICT] = spec.victories
    P[k.P_CPASSIVE] = 1 if spec.mode == "passive" else 0
    P[k.P_CSK], P[k.P_CDIFF], P[k.P_TWIST] = at, at + len(sk), at + len(sk) + len(diff)
    return P


def build(scene: Scene, policies: dict[str, tuple[str, dict]], asks: dict[str, int] | None = None) -> Tables:
    """The kernel's arrays for ``scene``, one table at a time; ``policies`` maps each character to the
    controller that plays it and that controller's parameters; ``asks`` the decision kinds (a
    bitmask) a seat answers from outside, its controller making the others (``agent``: every
    kind, else none). The aspect names are numbered in the order the tables ask for them."""
    problems = covered(scene, {cid: name for cid, (name, _) in policies.items()})
    if problems:
        raise Unsupported(f"the fast core does not cover scene {scene.name!r}: {'; '.join(problems)}")
    ix = _index(scene)
    fighters = [build_fighter(c, scene.rules) for c in scene.characters]
    names = _Names()
    SC, SK, SLOTS = _characters(scene, ix, fighters)
    A0, AF0 = _aspects(scene, ix, names, SC)
    ST = _stunts(scene, ix, names, fighters)
    maps = _maps(scene)
    SIGHT, HOPS, ZF, ZFN, ZR, ZRN = _zone_tables(scene, ix, maps)
    pool = (scene.gm_fate_points if scene.gm_fate_points is not None else len(scene.pcs)) + \
        sum(c.fate_points for c in scene.characters if c.is_npc)
    made = _made_names(scene, names, ix.skills)
    TPL = _templates(scene, ix, names)
    P = _countdown_params(_params(scene, ix, made, policies, asks, int(pool), len(A0)), scene, ix, names)
    P = _hazard_params(_map_params(P, scene, ix, names, maps, len(A0)), scene, ix, names, len(A0))
    P = _contest_params(P, scene, ix, names)
    return Tables(scene, ix.ids, ix.sides, tuple(ix.skills), ix.zones, tuple(names.texts), SC, SK, ST, SLOTS, A0,
                  AF0, P, SIGHT, HOPS, ZF, ZFN, ZR, ZRN, TPL,
                  tuple(tuple(f.tracks[scene.conflict].values) for f in fighters),
                  tuple(tuple((s.severity, s.value) for s in f.slots) for f in fighters),
                  tuple(f.fate_points for f in fighters), int(pool))


def _order_by_skills(scene: Scene) -> list[str]:
    """The order by skills (Core's, or Fate 3.0's initiative), as the engine works it out (reach.order_by_skills)."""
    facts = scene.rules.facts
    return order_by_skills(list(scene.characters), skills_of_order(facts.initiative, scene.conflict),
                           facts.npcs_at_best_slot)


def _first_by_skills(scene: Scene) -> str:
    """The first of that order, which opens a popcorn conflict that names no ``first``."""
    return _order_by_skills(scene)[0]
