"""Live play's autopilot: which decisions stop the table, and which play themselves.

The NPCs are the tool's to play: their decisions apply at once and are narrated, except at the
**gates** the GM keeps (``configs/autopilot.yaml``, or ``play``'s flags): an NPC spending GM fate
points past a budget, a concession (an NPC giving in, offering to, or answering a PC's offer), a
major NPC taking a consequence. Compels are the GM's own (``/compel``): the NPCs never offer one
(fate_env/rules/not_modelled.py), so no gate is needed for them.

The players are asked what a player decides. An answer goes without asking only where every
answer the rules allow comes to the same (by the table's preference, on unless ``--ask-all``), or
where the player chose to be spared; each is said in a line the player can take back with ``/undo``:

* a defense against a hit that could hardly take the character out (under 1 roll in 100,
  :data:`RISK`): the engine rolls the best skill for it (003:929-931); the only other answer is
  conceding, which comes before the dice (003:1693-1712), so where the hit could take them out
  the player is asked, told the chance;
* an invoke round in which no invoke the rules allow (an ally's fate point included) would change
  what matters: the band, the roller's or the other side's, or the shifts of a hit dealt or taken
  (:func:`can_change`);
* for a PC whose player asked to be spared (``players.spare``, ``--spare``): an absorb whose cheapest
  plan is unique and marks stress only. Otherwise a hit is the player's to take: a box and a
  consequence instead of more boxes is theirs to choose (003:1619-1623).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..rules import odds
from ..rules import options as op
from ..rules.kinds import DecisionKind
from ..rules.rolls import scale_edge
from ..rules.stress import Absorb

#: the gates, with what each stops for (the words ``/help`` and the config file's comments use)
GATES = {
    "fate_points": "an NPC spends a GM fate point once the scene's GM spending has reached the budget",
    "concession": "an NPC concedes, offers to concede, or answers a PC's offer",
    "major_consequence": "a major NPC takes a consequence",
}
#: decisions whose autopilot answer the narration already tells (the reason of a turn or an absorb,
#: the roll of a defense, the move, who goes next): no line of their own
NARRATED = frozenset({DecisionKind.TURN, DecisionKind.ABSORB, DecisionKind.RESPOND, DecisionKind.NEXT,
                      DecisionKind.MOVE})
#: where the table's defaults live
CONFIG = "autopilot.yaml"


class AutopilotError(ValueError):
    """A settings file or flag the autopilot cannot use, in one line saying how to fix it."""


@dataclass
class Autopilot:
    """What stops the table. ``fp_budget``: GM fate points the NPCs may spend in the scene before
    each further one is a gate (None: no fate point gate). ``confirm_all``: every NPC decision
    waits for Enter (the pre-autopilot mode). ``obvious``: players' one-answer decisions play
    themselves. ``spare``: PCs whose players chose to be spared their stress-only absorbs. ``paused``: set by the GM (``/pause``, Ctrl-C); NPC decisions wait like ``confirm_all``."""

    gates: frozenset[str] = frozenset({"concession", "major_consequence"})
    fp_budget: int | None = 1
    confirm_all: bool = False
    obvious: bool = True
    paused: bool = False
    #: the PCs whose players let the autopilot take a hit's cheapest way when it marks stress only
    spare: frozenset[str] = frozenset()
    #: the NPCs' side proposes compels of the PCs' troubles and consequences, each at a GM gate
    compels: bool = False

    def asks(self) -> bool:
        """Whether every NPC decision waits for the GM (confirm mode, or paused)."""
        return self.confirm_all or self.paused

    def gate(self, engine, decision, index: int) -> str | None:
        """The gate an NPC's chosen option stops at, in words; None: it applies at once."""
        o = decision.options[index]
        f = engine.t.f[decision.actor]
        if "concession" in self.gates and (type(o) in (op.Concede, op.OfferConcession)
                                           or decision.kind == DecisionKind.CONCESSION):
            return "a concession"
        if self.fp_budget is not None and spends_gm_point(engine, decision, o) \
                and engine.t.gm_spent >= self.fp_budget:
            return (f"a GM fate point past the budget ({engine.t.gm_spent} of {self.fp_budget} spent "
                    f"this scene; pool {engine.t.gm_pool})")
        if "major_consequence" in self.gates and f.sheet.kind == "major" and type(o) is Absorb and o.slots:
            return "a major NPC takes a consequence"
        return None


def compel_candidate(engine, pc: str, offered: set[int]) -> tuple[int, str] | None:
    """An aspect of ``pc`` the NPCs' side could compel now, and why: the fiction allows it where the
    aspect is a complication by nature, the PC's trouble (003:127-133) or a consequence it took
    (003:1625-1629); each is proposed once a scene (``offered``), the trouble first, then the
    consequences, worst first. A compel costs the GM nothing (003:2027-2028)."""
    from ..rules.state import CHARACTER, CONSEQUENCE
    order = {"extreme": 0, "severe": 1, "moderate": 2, "mild": 3}
    mine = [a for a in engine.t.aspects.values() if a.owner == pc and a.id not in offered and not a.hidden]
    trouble = [a for a in mine if a.kind == CHARACTER and a.role == "trouble"]
    if trouble:
        return trouble[0].id, "the trouble of a PC about to act"
    hurt = sorted((a for a in mine if a.kind == CONSEQUENCE), key=lambda a: (order.get(a.role or "", 4), a.id))
    if hurt:
        return hurt[0].id, f"a {hurt[0].role} consequence the PC carries"
    return None


def spends_gm_point(engine, decision, o: Any) -> bool:
    """Whether an NPC's option costs the GM pool a fate point: a paid invoke, or refusing a
    PC's concession (the refuser loses a fate point, 001:150; an NPC's comes from the pool)."""
    if type(o) is op.Invoke:
        return not o.free and engine.t.f[o.payer].sheet.is_npc
    return decision.kind == DecisionKind.CONCESSION and type(o) is op.Choose and o.option == "refuse"


#: what a terminal adds to an obvious answer's line: the command that takes it back
TERMINAL_HINTS = {DecisionKind.RESPOND: ": /undo to concede instead"}


def obvious(engine, decision, spared: bool = False) -> tuple[int, str] | None:
    """A player's decision with one sensible answer: (its index, what the table is told), or None.
    ``spared``: the player lets the autopilot take the cheapest way to take a hit."""
    kind = decision.kind
    opts = decision.options
    if kind == DecisionKind.RESPOND:
        others = {type(o) for o in opts} - {op.Defend, op.Concede, op.ForgoDefense}
        if not others and op.Defend() in opts and not (op.Concede() in opts and could_be_taken_out(engine, decision)):
            but = "conceding or taking the hit undefended" if op.ForgoDefense() in opts else "conceding"
            return opts.index(op.Defend()), f"defends (the only answer but {but})"
    elif kind == DecisionKind.INVOKE:
        if op.DoneInvoking() in opts and not can_change(engine, decision):
            return opts.index(op.DoneInvoking()), "passes on invoking: no invoke on offer would change the result"
    elif kind == DecisionKind.ABSORB and spared:
        plan = _only_cheapest(engine, decision)
        if plan is not None and not opts[plan].slots:
            return plan, "marks stress: the one cheapest way to take the hit"
    return None


#: the chance of being taken out by an attack from which a player is asked whether to concede first
RISK = 0.01


def could_be_taken_out(engine, decision) -> bool:
    """Whether the attack a defense answers could take the defender out: in at least :data:`RISK` of the
    rolls (:func:`takeout_chance`). A hazard's attack, whose rating this does not read, counts as one
    that could."""
    if decision.context.get("action") != "attack":
        return False
    chance = takeout_chance(engine, decision)
    return chance is None or chance >= RISK


def takeout_chance(engine, decision) -> float | None:
    """The exact chance (4dF against 4dF) that the attack a defense answers deals more shifts than the
    defender can absorb now, with a +2 for every invoke the attacker's side could make (each free invoke
    it holds, a paid one on each other aspect in play while its fate points last), its weapon, and its
    scale, before the roll or after it as the rules give it. None: not a character's attack with a skill
    (a hazard's)."""
    ctx = decision.context
    attacker, skill, who = ctx.get("attacker"), ctx.get("skill"), decision.actor
    t = engine.t
    if attacker not in t.f or skill is None:
        return None
    side = set([attacker] + t.allies_of(attacker))
    free = sum(n for a in t.aspects.values() for h, n in a.free.items() if h in side)
    payable = sum(1 for a in t.aspects.values() if a.kind != "boost")
    invokes = free + min(engine.fate_points_of(attacker), payable)
    weapon = ctx.get("weapon", 0) + (t.f[attacker].sheet.weapon if engine.rules.weapons else 0)
    diff = (engine.attack_rating(attacker, skill, who) + 2 * invokes + weapon
            - engine.defense_rating(who, attacker, skill))
    room = engine.capacity(who, engine.attack_track(skill))
    # scale taken after the roll: +2 shifts a level on a hit that succeeds (003:2436-2439)
    after = 2 * scale_edge(engine, attacker, who) if engine.facts.scale_after_roll else 0
    return float(sum(p for d, p in odds.margin_distribution(True).items() if diff + d > 0 and diff + d + after > room))


def at_risk(engine, decision) -> str | None:
    """What a player weighing a concession is told, where the hit could take their character out."""
    if decision.kind != DecisionKind.RESPOND or decision.context.get("action") != "attack":
        return None
    chance = takeout_chance(engine, decision)
    if chance is not None and chance < RISK:
        return None
    if chance is None:
        return "this attack could take you out; you may concede before the dice instead"
    return (f"this attack could take you out ({chance:.0%} of rolls, if every invoke it can make is made); "
            f"you may concede before the dice instead")


def can_change(engine, decision) -> bool:
    """Whether some invoke the rules let ``decision.actor`` make now could change what matters: the band
    of the roll as either side sees it (failure, tie, success, with style: a defender's +2 that takes
    the roller from style to a success takes away a free invoke, 003:849-852); on an attack that hits,
    the shifts where they change how the hit is taken (stress alone, the least consequence it forces,
    taken out; 003:1562-1634), on its own attack or its defense. Every invoke on
    offer counts, an ally's fate point included (003:1458-1461): each +2, and a reroll at its best (+4 on
    the dice); spin tokens (Fate 3.0) are always a choice."""
    opts = decision.options
    if any(type(o) is op.SpendSpin for o in opts):
        return True
    invokes = [o for o in opts if type(o) is op.Invoke]
    if not invokes:
        return False
    ctx = decision.context
    margin = ctx["margin"]
    who = decision.actor
    free, _, _ = engine.invoke_budget(who)
    paid = [o for o in invokes if not o.free]
    points = sum(engine.fate_points_of(p) for p in {o.payer for o in paid})
    n = min(free, sum(1 for o in invokes if o.free)) + min(points, len({o.aspect for o in paid}))
    if n <= 0:
        return False
    worth = max(engine.invoke_bonus(who, True), engine.invoke_bonus(who, False))
    gain = worth * n
    r = engine.t.roll
    if r is not None and any(o.effect == "reroll" for o in invokes):
        faces = sum(r.faces if ctx["as_roller"] else r.opp_faces)
        gain = max(gain, worth * (n - 1) + 4 - faces)
    if gain <= 0:
        return False
    if _band(margin + gain) != _band(margin) or _band(-margin - gain) != _band(-margin):
        return True  # this side's band, or the other's (a style it would lose: 003:849-852)
    if r is not None and ctx["action"] == "attack" and r.opposer is not None:
        track = engine.attack_track(r.skill)
        if ctx["as_roller"] and margin >= 1:  # a bigger hit matters where it changes how the target takes it
            return _absorbing(engine, r.opposer, margin, track) != _absorbing(engine, r.opposer, margin + gain, track)
        if not ctx["as_roller"] and margin <= -1:  # so does a smaller one, for the defender
            return _absorbing(engine, who, -margin, track) != _absorbing(engine, who, max(0, -margin - gain), track)
    return False


def _absorbing(engine, cid: str, shifts: int, track: str) -> tuple:
    """What a hit of ``shifts`` costs ``cid``, as far as a choice can hinge on it: nothing, stress alone,
    the least consequence it forces, or being taken out (a mob: every shift, members lost)."""
    from ..rules.stress import absorber_for
    if shifts <= 0:
        return ("nothing",)
    f = engine.t.f[cid]
    absorber = absorber_for(f.sheet)
    if shifts > absorber.capacity(f, track, engine.rules):
        return ("taken out",)
    if absorber.automatic:
        return ("shifts", shifts)
    plans = absorber.plans(f, shifts, track, engine.rules)
    return ("consequence", min(sum(f.slots[s].value for s in p.slots) for p in plans)) if plans else ("taken out",)


def _band(margin: int) -> int:
    return 0 if margin < 0 else 1 if margin == 0 else 2 if margin < 3 else 3


def _only_cheapest(engine, decision) -> int | None:
    """The absorb plan that costs least (basic's order: consequence shifts, slots, boxes), if it is the only one."""
    f = engine.t.f[decision.actor]
    costs = [((sum(f.slots[s].value for s in o.slots), len(o.slots), len(o.boxes)), i)
             for i, o in enumerate(decision.options) if type(o) is Absorb]
    if not costs:
        return None
    costs.sort()
    if len(costs) > 1 and costs[0][0] == costs[1][0]:
        return None
    return costs[0][1]


# -- settings ---------------------------------------------------------------------------
def load(path: str | Path | None = None) -> Autopilot:
    """The table's settings: ``path``, else the shipped ``configs/autopilot.yaml`` (defaults if absent)."""
    from ..content.scenes import config_dir
    from ..content.yaml_input import load_file
    p = Path(path) if path is not None else config_dir() / CONFIG
    if path is None and not p.exists():
        return Autopilot()
    try:
        data = load_file(p, "autopilot settings") or {}
    except ValueError as exc:
        raise AutopilotError(str(exc)) from None
    except OSError as exc:
        raise AutopilotError(f"--autopilot {p}: {exc.strerror or exc}; expected a settings file like "
                             f"configs/{CONFIG}") from None
    return from_dict(data, str(p))


def from_dict(data: Any, where: str) -> Autopilot:
    """Settings from a mapping ({gates: {NAME: on|off|N}, players: {obvious: auto|ask}, confirm_all: bool})."""
    if not isinstance(data, dict):
        raise AutopilotError(f"{where}: expected a mapping with 'gates' and 'players'")
    unknown = set(data) - {"gates", "players", "confirm_all", "compels"}
    if unknown:
        raise AutopilotError(f"{where}: unknown key {sorted(unknown)[0]!r}; expected gates, players, confirm_all, "
                             "compels")
    a = Autopilot()
    gates = data.get("gates", {})
    if not isinstance(gates, dict):
        raise AutopilotError(f"{where}: 'gates': expected a mapping of gate to on/off (fate_points: a number or off)")
    on = set(a.gates)
    for name, value in gates.items():
        if name not in GATES:
            raise AutopilotError(f"{where}: gates.{name}: no such gate{_did_you_mean(name)}; expected one of "
                                 f"{', '.join(GATES)}")
        if name == "fate_points":
            if value is False or value is None:
                a.fp_budget = None
            elif isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                a.fp_budget = value
            else:
                raise AutopilotError(f"{where}: gates.fate_points: expected a number of GM fate points >= 0 "
                                     f"(0: ask before every one) or off, got {value!r}")
        elif value is True:
            on.add(name)
        elif value is False:
            on.discard(name)
        else:
            raise AutopilotError(f"{where}: gates.{name}: expected on or off, got {value!r}")
    a.gates = frozenset(on)
    players = data.get("players", {})
    if not isinstance(players, dict) or set(players) - {"obvious", "spare"}:
        raise AutopilotError(f"{where}: 'players': expected {{obvious: auto or ask, spare: [PC ids]}}")
    spare = players.get("spare") or []
    if not isinstance(spare, list) or not all(isinstance(x, str) for x in spare):
        raise AutopilotError(f"{where}: players.spare: expected a list of PC ids (the players who let the "
                             f"autopilot take their stress-only hits), got {spare!r}")
    a.spare = frozenset(spare)
    if players.get("obvious", "auto") not in ("auto", "ask"):
        raise AutopilotError(f"{where}: players.obvious: expected auto or ask, got {players['obvious']!r}")
    a.obvious = players.get("obvious", "auto") == "auto"
    if not isinstance(data.get("confirm_all", False), bool):
        raise AutopilotError(f"{where}: confirm_all: expected true or false")
    a.confirm_all = data.get("confirm_all", False)
    if data.get("compels", "off") not in ("offer", "off", False):
        raise AutopilotError(f"{where}: compels: expected offer (the NPCs propose compels at a GM gate) or off, "
                             f"got {data['compels']!r}")
    a.compels = data.get("compels", "off") == "offer"
    return a


def with_flags(a: Autopilot, confirm: bool = False, gates: str | None = None, ask_all: bool = False,
               spare: str | None = None, compels: bool = False) -> Autopilot:
    """``play``'s flags over the settings: ``--confirm``, ``--gates LIST`` (``none``, or names,
    ``fate_points=N``), ``--ask-all``, ``--spare IDS`` (comma-separated PC ids; ``none``),
    ``--compels`` (the NPCs propose compels)."""
    if compels:
        a.compels = True
    if spare is not None:
        a.spare = frozenset(x.strip() for x in spare.split(",") if x.strip() and x.strip() != "none")
    if confirm:
        a.confirm_all = True
    if ask_all:
        a.obvious = False
    if gates is not None:
        on: set[str] = set()
        a.fp_budget = None
        for item in filter(None, (g.strip() for g in gates.split(","))):
            if item == "none":
                continue
            name, _, value = item.partition("=")
            if name not in GATES:
                raise AutopilotError(f"--gates: no gate {name!r}{_did_you_mean(name)}; expected none or some of "
                                     f"{', '.join(GATES)} (fate_points=N for a budget)")
            if name == "fate_points":
                if value and not (value.isascii() and value.isdigit()):
                    raise AutopilotError(f"--gates: fate_points={value}: expected a whole number of GM fate points")
                a.fp_budget = int(value) if value else 0
            elif value:
                raise AutopilotError(f"--gates: {name} takes no value (only fate_points=N does)")
            else:
                on.add(name)
        a.gates = frozenset(on)
    return a


def _did_you_mean(name: str) -> str:
    import difflib
    close = difflib.get_close_matches(str(name), GATES, n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def describe(a: Autopilot) -> str:
    """One line for the session's header: what will stop the table."""
    if a.confirm_all:
        return "confirm mode: every NPC decision waits for Enter"
    stops = [g.replace("_", " ") for g in sorted(a.gates)]
    if a.fp_budget is not None:
        stops.append(f"GM fate points past {a.fp_budget}")
    players = "players asked only real decisions" if a.obvious else "players asked every decision"
    if a.obvious and a.spare:
        players += f" (spared stress-only hits: {', '.join(sorted(a.spare))})"
    return (f"autopilot: NPCs play themselves; the GM is asked at: {', '.join(stops) or 'nothing'}; "
            f"{players} (/pause stops the NPCs)")
