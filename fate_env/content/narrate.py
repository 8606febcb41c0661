"""Narration: the event log as the account a GM would read aloud.

Pure functions over events (and the scene, for names); nothing here changes
state. The CLI prints this, the PettingZoo env renders it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ..rules import events as ev
from ..rules.conflict import Outcome
from ..rules.dice import show_faces
from ..rules.ladder import describe, signed
from ..rules.scene import Scene

#: a roll's outcome as a table says it, and how far it cleared or missed the opposition
OUTCOME_WORDS = {"fail": "a failure", "tie": "a tie", "success": "a success", "success_with_style": "a success with style"}

#: the kind of each narrated line, for views that set them apart (the report's headings): an exchange's
#: start, a scene's start or end, a turn, an NPC's reason; any other line is "detail"
LINE_KINDS = {ev.ExchangeStarted: "exchange", ev.ConflictStarted: "headline", ev.ContestStarted: "headline",
              ev.ChallengeStarted: "headline", ev.ConflictEnded: "headline", ev.TurnStarted: "turn",
              ev.DecisionMade: "reason"}


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 shift', '3 shifts': a count as a table says it (never 'shift(s)')."""
    return f"{n} {word if n == 1 else many or word + 's'}"


#: a character's kind as a table says it
KIND_WORDS = {"pc": "PC", "major": "major NPC", "minor": "minor NPC", "mob": "mob"}


def side_words(scene: Scene, side: str | None) -> str:
    """A side as a table names it: its one character's name ("Teran the Swift"), "the PCs" for the one
    side of player characters, else its name with spaces ("the smugglers"); None: no side."""
    if side is None:
        return "no side"
    members = [c for c in scene.characters if c.side == side]
    if len(members) == 1 and members[0].kind != "mob":
        return members[0].name
    if {c.side for c in scene.characters if c.kind == "pc"} == {side} and all(c.kind == "pc" for c in members):
        return "the PCs"
    return "the " + side.replace("_", " ")


def side_verb(scene: Scene, side: str, many: str, one: str) -> str:
    """The verb a side takes: ``one`` after a lone character's name ("Cynere wins"), else ``many``
    ("the PCs win")."""
    members = [c for c in scene.characters if c.side == side]
    return one if len(members) == 1 and members[0].kind != "mob" else many


def _first_up(text: str) -> str:
    """``text`` opening a sentence ("The PCs"): its first letter up, the rest as it is."""
    return text[:1].upper() + text[1:]


def boxes_words(values: Iterable[int]) -> str:
    """Stress boxes by what they are worth: "2 stress boxes" where every box is worth 1 (Condensed),
    else "the 2-point stress box", "the 1- and 3-point stress boxes" (Core's boxes by value)."""
    values = list(values)
    if all(v == 1 for v in values):
        return plural(len(values), "stress box", "stress boxes")
    worth = [f"{v}-" for v in values[:-1]] + [f"{values[-1]}-point"]
    joined = worth[0] if len(worth) == 1 else ", ".join(worth[:-1]) + " and " + worth[-1]
    return f"the {joined} stress box" + ("es" if len(values) > 1 else "")


def result_words(effort: int, opposition: int, outcome: str, shifts: int) -> str:
    """"Good (+3) against Mediocre (0): a success by 3": a roll's result in words (no arrows)."""
    by = "" if outcome == "tie" else f" by {abs(shifts)}"
    return f"{describe(effort)} against {describe(opposition)}: {OUTCOME_WORDS[outcome]}{by}"


def exploit_words(a) -> str:
    """What taking advantage of ``a`` is called: a hidden aspect's name is not told (003:854-867)."""
    if a.hidden:
        return "search for what is hidden " + (f"in {a.zone}" if a.zone is not None else "in the scene")
    return f"take advantage of {a.name}"


class Narrator:
    """Turns events into lines; keeps just enough context (the last decision's reason)."""

    def __init__(self, scene: Scene, show_reasons: bool = True):
        self.scene = scene
        self.names = {c.id: c.name for c in scene.characters}
        self.kinds = {c.id: c.kind for c in scene.characters}
        self.zones = {z.id: z.name for z in scene.zones}
        self.show_reasons = show_reasons
        self._gm_ended = False

    def option(self, conflict, option) -> str:
        """An option as a player reads it: aspects by name, not id."""
        from ..rules.options import Exploit, Invoke, RemoveAspect, key
        kind = type(option)
        if kind is Invoke:
            a = conflict.aspects[option.aspect]
            pay = "a free invoke" if option.free else "a fate point"
            if not option.free and option.payer != conflict.pending.actor:
                pay += f" from {self.name(option.payer)}"
            effect = "+2" if option.effect == "bonus" else "reroll"
            return f"invoke {a.name} with {pay}: {effect}   [{key(option)}]"
        if kind is Exploit:
            return f"{exploit_words(conflict.aspect(option.aspect))}   [{key(option)}]"
        if kind is RemoveAspect:
            return f"clear {conflict.aspect(option.aspect).name}   [{key(option)}]"
        return key(option)

    def name(self, cid: str | None) -> str:
        return self.names.get(cid, cid or "the opposition")

    def _sides(self, sides: dict[str, list[str]]) -> str:
        """"the PCs (Cynere, Landon) against the smugglers (Og, ...)"; a lone character by name."""
        def one(side: str, members: list[str]) -> str:
            names = ", ".join(self.name(c) for c in members)
            words = side_words(self.scene, side)
            return names if words == names else f"{words} ({names})"
        return " against ".join(one(side, members) for side, members in sides.items())

    def _rules(self) -> str:
        """The rule set as its text calls it ("Fate Condensed"), not its id."""
        return self.scene.rules.title or self.scene.rules.name

    def lines(self, events: Iterable[ev.Event]) -> list[str]:
        """The events' lines. A consequence named later in the same batch (the GM's or its
        taker's words, ConsequenceNamed) is shown under that name where it was taken."""
        return [text for _, text in self.kinded(events)]

    def kinded(self, events: Iterable[ev.Event]) -> list[tuple[str, str]]:
        """The events' lines, each with its kind (LINE_KINDS; "detail" for the rest)."""
        events = list(events)
        named = [e for e in events if type(e) is ev.ConsequenceNamed]
        # an aspect named by its creator in the same batch is told under that name where it was created
        created = {e.aspect_id for e in events if type(e) is ev.AspectCreated}
        words = {e.aspect_id: e.new for e in events if type(e) is ev.AspectNamed and e.aspect_id in created}
        out: list[tuple[str, str]] = []
        for e in events:
            if named and type(e) is ev.Absorbed:
                e = self._renamed(e, named)
            if type(e) is ev.AspectCreated and e.aspect_id in words:
                e = replace(e, aspect=words[e.aspect_id])
            if type(e) is ev.AspectNamed and e.aspect_id in words:
                continue
            line = self.line(e)
            if line:
                out.append((LINE_KINDS.get(type(e), "detail"), line))
        return out

    @staticmethod
    def _renamed(e: ev.Absorbed, named: list) -> ev.Absorbed:
        cons = list(e.consequences)
        for i, text in enumerate(cons):
            severity, _, name = text.partition(": ")
            hit = next((x for x in named if x.character == e.target and x.old == name), None)
            if hit is not None:
                cons[i] = f"{severity}: {hit.new}"
                named.remove(hit)
        return replace(e, consequences=tuple(cons))

    def _gm_line(self, e: ev.GmAction) -> str:
        n = self.name
        if e.power == "add_character":
            self.names[e.character] = e.aspect
            many, verb = (f" ({e.amount} of them)", "join") if e.amount > 1 else ("", "joins")
            return f"   (GM) {e.aspect}{many} {verb} the fight in {self.zones.get(e.zone, e.zone)}"
        return {"add_aspect": f"   (GM) new situation aspect: {e.aspect}" + (f" in {self.zones.get(e.zone)}" if e.zone else ""),
                "remove_aspect": f"   (GM) {e.aspect} is gone",
                "compel": f"   (GM) compels {n(e.character)} on {e.aspect}: "
                          + ("accepted, +1 fate point" if e.amount > 0 else "refused, pays a fate point"),
                "fate_points": f"   (GM) {n(e.character)} {'gains' if e.amount > 0 else 'loses'} "
                               f"{abs(e.amount)} fate point{'s' if abs(e.amount) != 1 else ''}",
                "remove_character": f"   (GM) {n(e.character)} leaves the scene",
                "move": f"   (GM) {n(e.character)} is now in {self.zones.get(e.zone, e.zone)}",
                "rating": f"   (GM) {n(e.character)}'s {e.aspect} is now {describe(e.amount)}",
                "boost": f"   (GM) {n(e.character)} gets a boost: {e.aspect}",
                "end": "   (GM) ends the scene here"}[e.power]

    def line(self, e: ev.Event) -> str | None:
        """The line ``e`` is told by, or None (a step a table does not hear: a decision's reason when
        reasons are off, a consequence's name told in its absorb line). Each part below tells its own
        event types and None for the rest."""
        for part in (self._scene_line, self._roll_line, self._harm_line, self._action_line):
            said = part(e)
            if said is not None:
                return said
        return None

    def _scene_line(self, e: ev.Event) -> str | None:
        """The scene's frame: its start and end, exchanges and turns, the contest's and the challenge's
        tallies, countdowns, distractions, the GM's powers, names given."""
        n = self.name
        match e:
            case ev.ConflictStarted():
                sides = self._sides(e.sides)
                return (f"{self.scene.title}: a {e.kind} conflict, {self._rules()} rules\n"
                        f"   Sides: {sides}. The GM's fate point pool: {e.gm_fate_points}.")
            case ev.ExchangeStarted():
                return f"\nExchange {e.exchange}"
            case ev.TurnStarted():
                return f"{n(e.actor)}'s turn."
            case ev.DecisionMade():
                if self.show_reasons and e.reason and e.kind in ("turn", "absorb"):
                    return f"   ({n(e.actor)} {e.reason})"
                return None
            case ev.CountdownMarked():
                return f"   ⏳ {e.countdown}: {e.marked} of {e.boxes} boxes marked"
            case ev.CountdownEnded():
                then = f" {e.text}" if e.text else ""
                won = (f" {_first_up(side_words(self.scene, e.winner))} "
                       f"{side_verb(self.scene, e.winner, 'win', 'wins')} the scene.") if e.winner else ""
                return f"   ⌛ {e.countdown} runs out!{then}{won}"
            case ev.CountdownStopped():
                return f"   {e.countdown} stops: {n(e.by)} is out of the fight"
            case ev.Distraction():
                done = f"{n(e.by)} deals with {e.distraction}" if e.by else f"Nobody dealt with {e.distraction}"
                return f"   {done}." + (f" {e.repercussion}" if e.repercussion else "")
            case ev.BecameConflict():
                return f"   {n(e.by)} attacks: the contest is over, and it is a conflict now"
            case ev.ZoneChallengeBeaten():
                return f"   {e.name} is overcome: the way on to {', '.join(self.zones.get(z, z) for z in e.deeper)} is open"
            case ev.NextActor():
                if e.opens_exchange and e.chooser == e.actor:
                    return f"   {n(e.chooser)} opens the next exchange itself"
                if e.opens_exchange:
                    return f"   {n(e.chooser)} picks {n(e.actor)} to open the next exchange"
                return f"   {n(e.chooser)} hands the turn to {n(e.actor)}"
            case ev.ContestStarted():
                sides = self._sides(e.sides)
                how = "most shifts over each side's difficulty" if e.mode == "passive" else "highest effort"
                return (f"{self.scene.title}: a contest, {self._rules()} rules, first to "
                        f"{plural(e.victories_needed, 'victory', 'victories')}; {how} wins an exchange\n"
                        f"   Sides: {sides}.")
            case ev.ContestPlan():
                helpers = f", helped by {', '.join(n(x) for x in e.supporters)}" if e.supporters else ""
                return f"   For {side_words(self.scene, e.side)}, {n(e.roller)} rolls {e.skill}{helpers}"
            case ev.Forfeited():
                return f"   {n(e.who)}'s failed advantage forfeits {'the side' + chr(39) + 's roll' if e.what == 'roll' else 'the help'}"
            case ev.ExchangeResult():
                sw = lambda side: side_words(self.scene, side)  # noqa: E731
                scores = ", ".join(f"{sw(s)} {describe(v)}" for s, v in e.scores.items()) or "no rolls"
                tally = ", ".join(f"{sw(s)} {v}" for s, v in e.victories.items())
                if e.twist:
                    return f"   {scores}: a tie for the top, so an unexpected twist: {e.twist}! Victories: {tally}."
                if e.winner:
                    won = "two victories (with style)" if e.victories_won == 2 else "a victory"
                    return (f"   {scores}: {sw(e.winner)} {side_verb(self.scene, e.winner, 'take', 'takes')} {won}. "
                            f"Victories: {tally}.")
                return f"   {scores}: nobody scores. Victories: {tally}."
            case ev.ThreatRolled():
                return f"   {e.threat} strikes at {describe(e.effort)}"
            case ev.ChallengeStarted():
                return (f"{self.scene.title}: a challenge, {self._rules()} rules\n"
                        f"   Tasks: {'; '.join(e.tasks)}")
            case ev.TaskResult():
                words = {"success": "done", "success_with_style": "done with style", "minor_cost": "done at a minor cost",
                         "major_cost": "done at a major cost", "fail": "failed", "fail_with_boost": "failed (with a boost)"}
                return f"   {e.task}: {words[e.result]} ({describe(e.effort)} against {describe(e.difficulty)})"
            case ev.GmAction():
                self._gm_ended = self._gm_ended or e.power == "end"
                return self._gm_line(e)
            case ev.ConsequenceNamed():
                return None  # shown in the absorb line it names (see lines)
            case ev.AspectNamed():
                return f"   ({e.old} is now named {e.new})"
            case ev.ConflictEnded():
                if e.unresolved and self._gm_ended:
                    return f"\nThe GM ended the scene after {exchanges_words(e.exchanges)}."
                if e.unresolved:
                    return f"\nUnresolved after {exchanges_words(e.exchanges)} (the exchange cap)."
                if self.scene.kind == "challenge":
                    return "\nThe challenge is over: the GM reads the results."
                won = (f"{_first_up(side_words(self.scene, e.winner))} {side_verb(self.scene, e.winner, 'win', 'wins')}"
                       if e.winner else "No side wins")
                return f"\nOver after {exchanges_words(e.exchanges)}: {won}."
        return None

    def _roll_line(self, e: ev.Event) -> str | None:
        """A roll and what rides on it: the dice, the effort split or spread, invokes and bonuses, the result,
        the aspects it makes or clears."""
        n = self.name
        match e:
            case ev.Rolled():
                extra = f" ({', '.join(e.notes)})" if e.notes else ""
                total = e.base + sum(e.faces)
                verb = ("defends with" if e.action == "defend" else "rolls" if e.action == "contest"
                        else f"rolls {e.action.replace('_', ' ')} with")
                return (f"   {n(e.actor)} {verb} {e.skill} {describe(e.rating)}{extra}: "
                        f"dice {show_faces(e.faces)} {signed(sum(e.faces))} = {describe(total)}")
            case ev.SplitEffort():
                parts = ", ".join(f"{describe(v)} at {n(t)}" for t, v in e.given) or "nothing: the roll came to naught"
                return f"   {n(e.actor)} splits {describe(e.effort)}: {parts}"
            case ev.ZoneAttacked():
                who = ", ".join(n(c) for c in e.targets)
                return f"   {n(e.actor)} unleashes a {e.skill} attack on everyone in {self.zones.get(e.zone, e.zone)}: {who}"
            case ev.SoloBonus():
                what = {"reduce_stress": f"shrugs off {plural(e.amount, 'shift')}",
                        "reduce_stress_min_1": f"shrugs off {plural(e.amount, 'shift')}",
                        "amplified_invokes": f"invokes for +{e.amount}",
                        "suppress_invokes": f"holds the invoke to +{e.amount}"}[e.bonus]
                return f"   {n(e.character)} fights alone and {what} (solo bonus)"
            case ev.ScaleBenefit():
                gain = f"+{plural(e.shifts, 'shift')}" if e.shifts else f"+{plural(e.free_invokes, 'free invoke')}"
                return (f"   {n(e.actor)}'s scale tells against {n(e.against)}: {gain} "
                        f"({plural(e.levels, 'level')} above)")
            case ev.PassiveOpposition():
                return f"   against a passive {describe(e.difficulty)} ({e.why})"
            case ev.Invoked():
                other = e.paid_by != e.invoker
                pay = ((f"{n(e.paid_by)}'s free invoke" if other else "a free invoke") if e.free
                       else "a fate point" + (f" from {n(e.paid_by)}" if other else ""))
                who = ""
                what = f"rerolls: {show_faces(e.new_faces)}" if e.effect == "reroll" else "+2"
                hostile = f" (hostile: {n(e.hostile_to)} gets the point after the scene)" if e.hostile_to else ""
                return f"   {n(e.invoker)} invokes {e.aspect} with {pay}{who}: {what}{hostile}"
            case ev.Resolved():
                return f"   {n(e.actor)}: {result_words(e.effort, e.opposition, e.outcome, e.shifts)}"
            case ev.AspectCreated():
                if e.kind == "boost":
                    return f"   {n(e.holder)} gains a boost: {e.aspect}"
                on = f" on {n(e.on) if e.on in self.names else self.zones.get(e.on, 'the scene')}" if e.on else " on the scene"
                held = f", {plural(e.free_invokes, 'free invoke')} for {n(e.holder)}" if e.free_invokes else ""
                return f"   New aspect {e.aspect}{on}{held}"
            case ev.FreeInvokeGained():
                return f"   {n(e.holder)} gains {plural(e.count, 'free invoke')} on {e.aspect}"
            case ev.AspectRemoved():
                return None if e.why == "boost used" else f"   {e.aspect} is gone ({e.why})"
            case ev.ManeuverAvoided():
                return f"   {n(e.actor)} pays a fate point not to take {e.aspect}"
            case ev.AspectRevealed():
                return f"   {n(e.by)} reveals {e.name}, hidden until now"
        return None

    def _harm_line(self, e: ev.Event) -> str | None:
        """Harm and its way out: hits, what absorbs them, who is taken out or concedes, and the big bad's and
        the scenery's part in it."""
        n = self.name
        match e:
            case ev.TrueFormRevealed():
                kept = f" (still bearing {', '.join(e.carried)})" if e.carried else ""
                return f"   {n(e.fallen)} falls... and {n(e.true_form)} rises in its place{kept}!"
            case ev.ImmunityEnds():
                return f"   The way is open: {', '.join(n(c) for c in e.characters)} can be struck now!"
            case ev.MinionArmor():
                return f"   {n(e.big_bad)} shoves {n(e.minion)} into the path of the blow!"
            case ev.Cover():
                return f"   {n(e.target)} takes cover behind {e.block}: armor {e.armor}"
            case ev.HazardActs():
                return f"{e.hazard} strikes at {n(e.target)}!"
            case ev.Hit():
                extra = f" ({', '.join(e.notes)})" if e.notes else ""
                return f"   {n(e.target)} takes a {e.shifts}-shift {e.track} hit{extra}"
            case ev.Absorbed():
                parts = [f"marks {boxes_words(e.box_values)}"] if e.boxes else []
                parts.extend(f"takes a {sev} consequence, {name}" for sev, _, name in
                             (c.partition(": ") for c in e.consequences))
                return f"   {n(e.target)} {' and '.join(parts) or 'needs nothing to absorb it'}"
            case ev.MobHit():
                return f"   {e.members_lost} of {n(e.target)} go down; {e.members_left} left"
            case ev.TakenOutEvent():
                return f"   {n(e.target)} is taken out" + (f" by {n(e.by)}" if e.by else "")
            case ev.Conceded():
                points = f"{e.payout} fate point{'s' if e.payout != 1 else ''}"
                kind = self.kinds.get(e.actor)
                if not e.payout or kind in ("minor", "mob"):  # a nameless NPC has no fate points to be paid
                    return f"   {n(e.actor)} concedes, on its own terms"
                if kind == "major":  # its payout joins the GM's pool in a later scene (003:2009-2012)
                    return f"   {n(e.actor)} concedes ({points} for the GM's pool in a later scene)"
                return f"   {n(e.actor)} concedes (owed {points} at the end)"
            case ev.ConcessionOffered():
                return f"   {n(e.actor)} offers {n(e.to)} a concession rather than take the consequence"
            case ev.ConcessionAnswered():
                if e.accepted:
                    return f"   {n(e.by)} accepts"
                lost = f"; {n(e.by)} loses one" if e.lost else ""
                return f"   {n(e.by)} refuses: {n(e.actor)} takes the consequence and is owed a fate point{lost}"
            case ev.MajorCost():
                what = ("takes the consequence " if e.cost == "consequence" else "hands the opposition ") + e.aspect
                return f"   {n(e.actor)} pays a major cost: {what}"
        return None

    def _action_line(self, e: ev.Event) -> str | None:
        """What a character does on its turn besides rolling: moving, blocking, guarding, supporting, holding
        or giving up the turn."""
        n = self.name
        match e:
            case ev.Moved():
                how = "moves" if e.free else "makes it"
                return f"   {n(e.actor)} {how} from {self.zones[e.from_zone]} to {self.zones[e.to_zone]}."
            case ev.TurnForfeited():
                return f"   {n(e.actor)} gives up this exchange's turn ({e.why})"
            case ev.MinorAction():
                return f"   {n(e.actor)} takes a minor action ({e.what}): -{e.penalty} on this turn's main action"
            case ev.Protecting():
                return f"   {n(e.actor)} blocks for {n(e.ally)}: attacks on them meet at least {e.strength} this exchange"
            case ev.Blocking():
                return (f"   {n(e.actor)} blocks {n(e.target)}'s {e.action} this exchange: "
                        f"it must beat {e.strength} first")
            case ev.BlockTested():
                return (f"   {n(e.actor)} gets past {n(e.blocker)}'s block" if e.past
                        else f"   {n(e.blocker)}'s block stops {n(e.actor)}'s {e.action}")
            case ev.BlockHeld():
                return f"   {n(e.blocker)}'s block holds: {n(e.target)} defends at {e.strength}"
            case ev.Spin():
                if e.spent_for is not None:
                    return f"   {n(e.actor)} spends a spin token: +1 to {n(e.spent_for)}'s defense ({e.tokens} left)"
                return f"   {n(e.actor)} earns a spin token ({e.tokens} held)"
            case ev.Sprinted():
                return (f"   {n(e.actor)} sprints toward {self.zones.get(e.to, e.to)}: {plural(e.shifts, 'shift')}, "
                        f"{plural(e.zones, 'zone')} covered")
            case ev.ActionHeld():
                return f"   {n(e.actor)} holds its action for later in the exchange"
            case ev.FullDefenseDeclared():
                return f"   {n(e.actor)} goes on full defense"
            case ev.Guarding():
                return f"   {n(e.actor)} goes on full defense guarding {n(e.ally)}"
            case ev.StoodIn():
                return f"   {n(e.actor)} steps in front of {n(e.ward)}: {n(e.attacker)}'s attack meets {n(e.actor)}"
            case ev.SupportPledged():
                return f"   {n(e.actor)} supports {n(e.ally)} (+1 teamwork on their next roll)"
            case ev.Passed():
                return f"   {n(e.actor)} holds"
        return None

def exchanges_words(n: int) -> str:
    """'1 exchange', '3 exchanges': a count as a table says it (not 'exchange(s)')."""
    return f"{n} exchange{'' if n == 1 else 's'}"


def summary(scene: Scene, outcome: Outcome) -> list[str]:
    """The outcome record in a few lines."""
    names = {c.id: c.name for c in scene.characters}
    out = []
    if outcome.kind == "challenge":
        out.append("Results: " + "; ".join(f"{t['task']} ({names[t['character']]}): {t['result'].replace('_', ' ')}"
                                           for t in outcome.tasks or []))
    else:
        won = side_words(scene, outcome.winner) if outcome.winner else "none" + (" (unresolved)" if outcome.unresolved else "")
        out.append(f"Winner: {won}, after {exchanges_words(outcome.exchanges)}")
    if outcome.victories is not None:
        out.append("Victories: " + ", ".join(f"{side_words(scene, s)} {v}" for s, v in outcome.victories.items()))
    if outcome.taken_out:
        out.append("Taken out: " + ", ".join(
            f"{names[c]}" + (f" (by {names.get(b, b)})" if b else "") for c, b in outcome.taken_out.items()))
    if outcome.conceded:
        out.append("Conceded: " + ", ".join(names[c] for c in outcome.conceded))
    for c, cons in outcome.consequences.items():
        out.append(f"{names[c]} carries: " + "; ".join(f"{x['severity']} {x['aspect']}" for x in cons))
    fp = [f"{names[c]} from {v['start']} to {v['end']}" for c, v in outcome.fate_points.items()
          if v["start"] or v["end"] or v["spent"]]
    if fp:
        out.append("Fate points: " + ", ".join(fp))
    out.append(f"The GM's pool: from {outcome.gm_pool['start']} to {outcome.gm_pool['end']}")
    npc_pay = {c: p for c, p in outcome.payouts.items() if scene.character(c).is_npc}
    if npc_pay:
        out.append("Owed to NPCs for their next scene: " + ", ".join(f"{names[c]} {p}" for c, p in npc_pay.items()))
    return out


#: a bonus stunt's circumstance in words (the scene format's ``when``, rules/rolls.holds)
WHEN_WORDS = {"same_zone": "against someone in the same zone", "other_zone": "against someone in another zone",
              "full_defense": "while on full defense"}


def stunt_words(st, name=lambda cid: cid) -> str:
    """What a stunt does, in a sheet's words ("+2 to Fight when you attack, against someone in the same zone"),
    from its mechanics: a player reads their stunts' effects, not only their names. ``name``: a character id's
    name (a ``target:`` circumstance)."""
    action = (st.action or "").replace("_", " ")
    if st.kind == "bonus":
        text = f"+{st.bonus} to {st.skill} when you {action}"
        if st.cond is not None:
            tag, arg = st.cond.tag, st.cond.arg
            text += {"aspect": f", while {arg} is in play", "zone": f", in {arg}", "target": f", against {name(arg)}"
                     }.get(tag, f", {WHEN_WORDS.get(tag, tag)}")
        return text
    if st.kind == "use_skill":
        against = f" (against {st.against} attacks)" if st.against else ""
        reach = " at range" if st.reach != "melee" and action == "attack" else ""
        return f"use {st.skill} to {action}{reach}{against}"
    if st.kind == "extra_stress":
        return f"{st.count} more {st.track} stress box{'es' if st.count != 1 else ''}"
    if st.kind == "extra_mild":
        return "one more mild consequence" + (f" ({st.track} harm only)" if st.track else "")
    if st.kind == "zone_attack":
        return f"attack everyone in a zone at once with {st.skill}"
    return st.kind
