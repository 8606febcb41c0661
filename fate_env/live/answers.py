"""The table's answers: typed (:class:`Choose`, :class:`Accept`, ...), read from a page's JSON by
:func:`answer_from_json`, and applied to the question pending by :func:`apply`, one handler per kind
of question. Who may answer is decided before, in :mod:`.seats`; :meth:`.table.Table.answer` checks
it and applies the answer as one change (whole or not at all)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

from ..rules.dice import DiceError, check_faces
from . import table_menu
from .questions import Question
from .refusals import Refused

if TYPE_CHECKING:
    from .table import Table


#: the longest name a consequence takes from the table
MAX_NAME = 80


@dataclass(frozen=True)
class Choose:
    """An option of the decision, by its number (1 = the first)."""

    number: int


@dataclass(frozen=True)
class Auto:
    """Let the scripted policy choose (a player's decision), or take the proposal (the GM's)."""


@dataclass(frozen=True)
class Accept:
    """At a GM gate: the NPC's move as proposed."""


@dataclass(frozen=True)
class Refuse:
    """A compel offered to a PC, refused (its player pays a fate point)."""


@dataclass(frozen=True)
class Override:
    """At a GM gate: the GM chooses the NPC's move instead."""


@dataclass(frozen=True)
class Name:
    """A consequence's name: the table's own words, or a suggestion by its number."""

    text: str = ""
    number: int | None = None


@dataclass(frozen=True)
class Dice:
    """Physical dice: the four faces rolled (each -1, 0 or 1)."""

    faces: tuple[int, ...]


Answer = Union[Choose, Auto, Accept, Refuse, Override, Name, Dice]


ANSWERS: dict[str, type] = {"choose": Choose, "auto": Auto, "accept": Accept, "refuse": Refuse, "override": Override,
                            "name": Name, "dice": Dice}


def answer_from_json(data: Any) -> Answer:
    """A typed answer from a page's JSON (``{"answer": "choose", "number": 3}``); anything else is refused
    with the field and what was expected."""
    if not isinstance(data, dict) or not isinstance(data.get("answer"), str) or data["answer"] not in ANSWERS:
        raise Refused(f"'answer': expected one of {', '.join(ANSWERS)}")
    kind = data["answer"]
    allowed = {"choose": {"number"}, "name": {"text", "number"}, "dice": {"faces"}}.get(kind, set())
    extra = sorted(set(data) - allowed - {"answer", "seq"})
    if extra:
        raise Refused(f"'{extra[0]}': a {kind} answer takes no such field")
    number = data.get("number")
    if "number" in data and (isinstance(number, bool) or not isinstance(number, int)):
        raise Refused("'number': expected a whole number")
    if kind == "choose":
        if number is None:
            raise Refused("'number': expected the option's number")
        return Choose(number)
    if kind == "name":
        text = data.get("text", "")
        if not isinstance(text, str):
            raise Refused("'text': expected the consequence's name as text")
        return Name(text, number)
    if kind == "dice":
        faces = data.get("faces")
        if not (isinstance(faces, list) and len(faces) == 4
                and all(type(x) is int and x in (-1, 0, 1) for x in faces)):
            raise Refused("'faces': expected four faces, each -1, 0 or 1")
        return Dice(tuple(faces))
    return ANSWERS[kind]()



def apply(t: "Table", q: Question, answer: Answer) -> None:
    """Apply ``answer`` to ``q``, the question pending (already checked to be the seat's to answer);
    an answer the question does not take is refused with what it does take."""
    {"decision": _decision, "gate": _gate, "name": _name, "dice": _dice, "compel": _compelled,
     "offer": _offered}[q.kind](t, q, answer)


def _option(t: "Table", q: Question, number: int) -> int:
    n = len(t.play.pending.options)
    if not 1 <= number <= n:
        raise Refused(f"{number} is not an option; choose 1 to {n}")
    return number - 1


def _decision(t: "Table", q: Question, answer: Answer) -> None:
    d = t.play.pending
    if type(answer) is Choose:
        index = _option(t, q, answer.number)
        t.question = None
        t.apply_decision(index, "the GM's call" if q.for_npc else "", by="gm" if q.for_npc else None)
    elif type(answer) in (Auto, Accept) and q.for_npc:
        t.question = None
        t.apply_decision(q.proposal, q.reason, by="gm")
    elif type(answer) is Auto:
        index, reason = t.helper.choose(t.play, d)
        t.question = None
        t.apply_decision(index, f"(auto) {reason}")
    else:
        raise Refused("choose an option by its number, or auto")


def _gate(t: "Table", q: Question, answer: Answer) -> None:
    if type(answer) in (Accept, Auto):
        t.question = None
        t.apply_decision(q.proposal, q.reason, by="gm")
    elif type(answer) is Override:
        d = t.play.pending
        t.seq += 1
        t.question = Question(t.seq, "decision", q.actor, None, q.decision,
                              table_menu.build(t.play, d, t.narrator, t.helper, q.proposal),
                              q.proposal, q.move, q.reason, q.gate, q.paused, for_npc=True, overriding=True)
    elif type(answer) is Choose:
        index = _option(t, q, answer.number)
        t.question = None
        t.apply_decision(index, "the GM's call", by="gm")
    else:
        raise Refused("accept the NPC's move, override it, or choose an option by its number")


def _name(t: "Table", q: Question, answer: Answer) -> None:
    if type(answer) is Auto:
        name = q.names[0]
    elif type(answer) is not Name:
        raise Refused("name the aspect" if q.role == "advantage" else "name the consequence")
    elif answer.number is not None:
        if not 1 <= answer.number <= len(q.names):
            raise Refused(f"a name for the consequence, or 1 to {len(q.names)}")
        name = q.names[answer.number - 1]
    else:
        name = " ".join(answer.text.split())
        if not name:
            name = q.names[0]
        elif len(name) > MAX_NAME or not name.isprintable() or name.startswith("/") or name.isdigit():
            what = "the aspect" if q.role == "advantage" else "the consequence"
            raise Refused(f"a name for {what} (words, at most {MAX_NAME} characters), or 1 to {len(q.names)}")
    t.naming.pop(0)
    t.question = None
    if name != t.play.aspects[q.aspect].name:
        t.use_power("name", [str(q.aspect), name])


def _dice(t: "Table", q: Question, answer: Answer) -> None:
    if type(answer) is not Dice:
        raise Refused("the four faces rolled")
    try:
        faces = check_faces(answer.faces)
    except DiceError as exc:
        raise Refused(str(exc)) from None
    r = t.rolling
    t.question = None
    t.apply_decision(r.index, r.reason, r.by, r.faces + [list(faces)])


def _compelled(t: "Table", q: Question, answer: Answer) -> None:
    if type(answer) not in (Accept, Refuse):
        raise Refused("accept the compel (gain a fate point) or refuse it (pay one)")
    by = t.compel[2] if t.compel else None
    refuse = type(answer) is Refuse
    try:
        t.play.check_compel(q.actor, q.aspect, not refuse, by)
    except ValueError as exc:
        raise Refused(f"{exc}; {'accept it' if refuse else 'refuse it'} instead", 409) from None
    t.compel = None
    t.question = None
    t.use_power("compel", [q.actor, str(q.aspect), *(["by", by] if by else []),
                           *(["refuse"] if type(answer) is Refuse else [])])
    t.narrate()


def _offered(t: "Table", q: Question, answer: Answer) -> None:
    """The GM's answer to a proposed compel: offered to the player (Accept), or let go (Refuse)."""
    if type(answer) not in (Accept, Refuse):
        raise Refused("offer the compel to the player (accept) or let it go (refuse)")
    if type(answer) is Accept:
        try:
            t.play.check_compel(q.actor, q.aspect, True)
        except ValueError as exc:
            raise Refused(str(exc)) from None
    t.question = None
    if type(answer) is Refuse:
        return
    t.compel = (q.actor, q.aspect, None)
    t.say(f"  (the GM compels {t.narrator.name(q.actor)}'s {q.names[0]}: "
          f"their player accepts, gaining a fate point, or refuses, paying one)")
