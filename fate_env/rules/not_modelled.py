"""The rules the texts hold that the engine does not play, and the one place that says so.

Each entry names the field a scene file or a rule set would set to ask for the rule. Asking is
refused in one line that names the rule, its edition and its lines, and what the engine offers
instead (``refusal``), before anything is built: no rule is ever approximated in silence. The
docs' list of what is not modelled (``docs/not_modelled.md``) is generated from this table, so
the two cannot drift apart (``scripts/make_docs.py``; checked by ``tests/test_docs.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

#: where a field sits: a dial (a rule-set file, or a scene's ``rules.dials``), the scene's top
#: level, or an entry of one of the scene's lists (``characters`` also as a mapping of ids)
PLACES = ("dials", "scene", "characters", "zones", "aspects", "countdowns", "advantages")


@dataclass(frozen=True)
class NotModelled:
    """A rule of the texts the engine refuses, and where a file would ask for it."""

    place: str    # one of PLACES
    key: str      # the field that asks for it
    edition: str  # whose rule it is
    rule: str     # the rule, in the project's words
    cite: str     # file:lines in ../shared/rules
    instead: str  # what the engine does or offers instead

    def field(self) -> str:
        """How the docs and messages name the field (``rules.dials.X``, ``characters.ID.X``, ...)."""
        return {"dials": f"rules.dials.{self.key}", "scene": self.key}.get(self.place, f"{self.place}[].{self.key}")

    def refusal(self) -> str:
        """The one-line message a file asking for the rule gets."""
        return f"{self.rule} ({self.edition}, {self.cite}) is not modelled; {self.instead}"


CONDENSED, FATE2, FATE3 = "Fate Condensed", "FATE 2.0", "Fate 3.0"

NOT_MODELLED: tuple[NotModelled, ...] = (
    NotModelled("dials", "faster_contests_teamwork", CONDENSED,
                "in faster contests, a teamwork bonus given to another's attempt to create an advantage",
                "003:2228-2230",
                "under faster_contests a helper adds its bonus to its side's overcome roll only"),
    NotModelled("countdowns", "box_triggers", CONDENSED,
                "a countdown whose boxes each have their own trigger, or a trigger other than an exchange, "
                "a character's turn, its consequence or its being taken out", "003:2185-2187, 003:2199-2201",
                "a countdown's triggers mark any box in turn (exchange, turn: ID, consequence: ID, taken_out: ID)"),
    NotModelled("aspects", "scale", CONDENSED,
                "a situation aspect that grants scale, when invoked or by being there", "003:2448-2455",
                "scale comes from the characters' own scale field"),
    NotModelled("dials", "full_defense_at_start", f"{FATE2} and {FATE3}",
                "full defense declared at the start of the exchange, before anyone acts", "001:80, 002:41",
                "under full_defense: exchange it is declared on one's turn or when first attacked"),
    NotModelled("dials", "demand_other_outcome", FATE2,
                "a character taken out spending all its fate points to demand another way to lose", "001:133",
                "being taken out is recorded; how the character loses is the table's to narrate"),
    NotModelled("dials", "consequence_penalty", FATE2,
                "a consequence's -1/-2/-3 only on the actions it might influence", "001:119",
                "under consequence_rule: ordered the penalty is on every roll its holder makes in the "
                "conflict (the conflict is of one kind, so the engine reads each roll as influenced)"),
    NotModelled("dials", "minor_actions", FATE3,
                "minor actions other than the one-zone move, and extra shifts buying more of them", "002:28",
                "under move_cost: minor the one-zone move is the only minor action"),
    NotModelled("dials", "block_skills", FATE3,
                "a block against any action with any fitting skill, at the GM's penalty", "002:45, 002:47",
                "block_actions blocks a foe's attacks, advantages or moves with the block skills"),
    NotModelled("advantages", "effect", FATE3,
                "a maneuver whose effect is not an aspect (disarm, push, throw, ...)", "002:81, 002:84-92",
                "a maneuver places its template's aspect"),
    NotModelled("dials", "overflow", FATE3,
                "an attack's overflow: a side effect of three or more shifts, chosen by the GM", "002:94",
                "an attack won by three or more may trade a shift for a boost, as in Fate Condensed (003:911-912)"),
    NotModelled("characters", "aspects[].hidden", CONDENSED,
                "a character's aspect hidden until someone discovers it (a monster's weakness, learned by "
                "creating an advantage)", "003:820-822, 003:854-867",
                "only the scene's situation aspects hide (aspects[].hidden): put the weakness in play as a "
                "hidden aspect of the monster's zone, or give it to the character as an aspect the table knows"),
    NotModelled("characters", "leader_rules", FATE3,
                "what a minion group's leader does beyond lending its initiative (the companion rules, "
                "not in the texts)", "002:23, 002:26",
                "a leader (leads: ID) gives its group its place in the order"),
    NotModelled("scene", "difficulty", FATE3,
                "a scene-wide default difficulty for unopposed rolls", "002:15",
                "each difficulty is set where it applies (advantages[].difficulty, a border's difficulty)"),
)

BY_PLACE: dict[str, dict[str, NotModelled]] = {p: {} for p in PLACES}
for _entry in NOT_MODELLED:
    BY_PLACE[_entry.place][_entry.key] = _entry


def dial_refusal(dials: dict[str, Any]) -> str | None:
    """The refusal for the first dial in ``dials`` that asks for a rule not modelled, if any."""
    for key in dials:
        entry = BY_PLACE["dials"].get(key)
        if entry is not None:
            return f"dial '{key}': {entry.refusal()}"
    return None


def scene_refusals(data: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(field, message) for each place in a scene's raw mapping that asks for a rule not modelled."""
    for key in data:
        if key in BY_PLACE["scene"]:
            yield key, BY_PLACE["scene"][key].refusal()
    for place in PLACES[2:]:
        items = data.get(place)
        pairs = items.items() if isinstance(items, dict) else enumerate(items) if isinstance(items, list) else ()
        for at, item in pairs:
            if not isinstance(item, dict):
                continue
            for key in item:
                entry = BY_PLACE[place].get(key)
                if entry is not None:
                    yield f"{place}.{at}.{key}", entry.refusal()
            if place == "characters" and isinstance(item.get("aspects"), list):  # an entry of its aspects
                for n, aspect in enumerate(item["aspects"]):
                    if isinstance(aspect, dict) and "hidden" in aspect:
                        yield f"characters.{at}.aspects.{n}.hidden", BY_PLACE["characters"]["aspects[].hidden"].refusal()


__all__ = ["NOT_MODELLED", "NotModelled", "dial_refusal", "scene_refusals"]
