"""The GM's powers as typed commands, each declared once.

A :class:`Power` names its fields and their kinds; from that one declaration come the terminal's
reading of ``/compel og #7 refuse`` (:func:`from_words`), the web's reading of a JSON body
(:func:`from_json`), the help text, and the forms the GM's page draws. Every power is the GM's:
the live table refuses a command from any other seat on the parsed :class:`Command`, never on
the text that carried it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: field kinds: what a value names. Every other kind is text the table resolves (a character's id or
#: the start of its name, an aspect's #handle, a zone's id); number and flag are checked here.
NUMBER_KINDS = frozenset({"number", "signed"})
FLAG_KINDS = frozenset({"flag"})
#: the longest text a field takes (a spec for /add, an aspect's name)
MAX_TEXT = 200


class CommandError(ValueError):
    """A command that could not be read: its usage, or the field that is wrong and why."""


@dataclass(frozen=True)
class Field:
    name: str
    kind: str
    optional: bool = False


@dataclass(frozen=True)
class Power:
    """One of the GM's powers. ``words``: how the terminal types it (after the name); ``logged``: it
    changes the scene and is kept in the save (replayed on resume and undo)."""

    name: str
    fields: tuple[Field, ...]
    words: str
    help: str
    logged: bool = False
    label: str = ""  # the web form's title; empty: a button


@dataclass(frozen=True)
class Command:
    """A parsed GM command: a power and its fields' values (text, int or bool)."""

    name: str
    fields: dict[str, Any] = field(default_factory=dict)

    @property
    def power(self) -> Power:
        return POWERS[self.name]


def _f(spec: str) -> Field:
    name, _, kind = spec.partition(":")
    return Field(name.rstrip("?"), kind, optional=name.endswith("?"))


def _power(name: str, fields: str, words: str, help: str, logged: bool = False, label: str = "") -> Power:
    return Power(name, tuple(_f(s) for s in fields.split()), words, help, logged, label)


#: every GM command, in the order /help lists them
POWERS: dict[str, Power] = {p.name: p for p in (
    _power("pause", "", "", "stop the NPCs at each decision (Ctrl-C pauses too)"),
    _power("go", "", "", "let the NPCs play themselves again"),
    _power("step", "", "", "while paused: apply the pending NPC decision as proposed"),
    _power("override", "", "", "take back the NPCs' last move (and all after it) and choose it yourself"),
    _power("undo", "", "", "take back the table's last answer (and the NPCs' moves after it)"),
    _power("takeover", "who:npc", "CHARACTER", "you decide for that NPC from now on", label="Take over an NPC"),
    _power("release", "who:npc", "CHARACTER", "the tool plays that character again", label="Release an NPC"),
    _power("aspect", "name:text zone?:zone", "add NAME [@ZONE]", "put a situation aspect in play",
           logged=True, label="Add an aspect"),
    _power("unaspect", "aspect:aspect", "remove ASPECT", "take an aspect out of play", logged=True,
           label="Remove an aspect"),
    _power("compel", "who:character aspect:aspect by?:character refuse?:flag", "CHARACTER ASPECT [by PC] [refuse]",
           "compel an aspect: the player accepts (gains a fate point) or refuses (pays one); on the web, "
           "left open, the PC's player answers on their page; by PC: that PC's player proposes it and "
           "offers the fate point from their own", logged=True, label="Compel"),
    _power("fp", "who:character n:signed", "CHARACTER +N|-N",
           "award or take back fate points (an NPC's go to the GM pool)", logged=True, label="Fate points"),
    _power("concede", "who:character", "CHARACTER",
           "that character gives in now (any time before the dice are rolled)", logged=True, label="Concede for"),
    _power("add", "who:addable zone?:zone", "WHO [@ZONE]",
           "reinforcements: a reserve of the scene, a library NPC (/add ? lists them) or a one-line spec, "
           "e.g. /add Thug x3: mob, Fight 2 @dock", logged=True, label="Add a character"),
    _power("remove", "who:character", "CHARACTER", "the character leaves the scene (not taken out, no payout)",
           logged=True, label="Remove a character"),
    _power("move", "who:character zone:zone", "CHARACTER ZONE", "put a character in a zone", logged=True,
           label="Move"),
    _power("rating", "who:character skill:skill n:number", "CHARACTER SKILL N", "change a skill's rating",
           logged=True, label="Change a rating"),
    _power("boost", "who:character name:text", "CHARACTER NAME", "give a boost", logged=True, label="Give a boost"),
    _power("name", "aspect:created name:text", "ASPECT NAME",
           "name a consequence, or an aspect created in the fight", logged=True, label="Name an aspect"),
    _power("end", "", "", "end the scene now", logged=True),
    _power("save", "", "[FILE]", "save the session"),
    _power("quit", "", "", "save and stop here (resume later with --resume)"),
)}
#: the GM's powers a save's entries may hold (as the log names them: both aspect commands are "aspect"); the
#: table writes one more, "dice", after an undo past dice seen (Table.undo)
LOGGED = tuple(dict.fromkeys("aspect" if p.name == "unaspect" else p.name for p in POWERS.values() if p.logged))


def usage(name: str) -> str:
    p = POWERS[name]
    return f"/{'aspect' if name == 'unaspect' else name}{' ' + p.words if p.words else ''}"


def help_lines() -> list[str]:
    """The commands' part of /help, one line each, from the declarations."""
    return [f"  {usage(p.name):30} {p.help}" for p in POWERS.values()]


def from_json(data: Any) -> Command:
    """A command from a page's JSON body: ``{"command": NAME, FIELD: VALUE, ...}``, every value of its
    field's type; anything else is refused with the field and what was expected."""
    if not isinstance(data, dict):
        raise CommandError("expected a JSON object naming a command")
    name = data.get("command")
    if not isinstance(name, str) or name not in POWERS:
        raise CommandError(f"'command': expected one of {', '.join(POWERS)}")
    power = POWERS[name]
    known = {f.name for f in power.fields} | {"command"}
    extra = sorted(set(data) - known)
    if extra:
        raise CommandError(f"'{extra[0]}': /{name} takes no such field (it takes: "
                           f"{', '.join(f.name for f in power.fields) or 'nothing'})")
    values: dict[str, Any] = {}
    for f in power.fields:
        value = data.get(f.name)
        if value is None or value == "":
            if not f.optional:
                raise CommandError(f"'{f.name}': /{name} needs it ({f.kind})")
            continue
        values[f.name] = _typed(f, value, name)
    return Command(name, values)


def _typed(f: Field, value: Any, name: str) -> Any:
    if f.kind in FLAG_KINDS:
        if not isinstance(value, bool):
            raise CommandError(f"'{f.name}': expected true or false")
        return value
    if f.kind in NUMBER_KINDS:
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 99:
            raise CommandError(f"'{f.name}': expected a whole number from -99 to 99")
        return value
    if f.kind in ("aspect", "created"):
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT or not value.isprintable():
        raise CommandError(f"'{f.name}': expected {f.kind} as one printable line of at most {MAX_TEXT} characters")
    return value.strip()


def from_words(name: str, args: list[str]) -> Command:
    """A command as the terminal types it (``/compel og #7 refuse``): the words after the name."""
    if name == "aspect":
        if args[:1] == ["remove"]:
            if len(args) != 2:
                raise CommandError(f"usage: {usage('unaspect')}")
            return Command("unaspect", {"aspect": args[1]})
        if args[:1] != ["add"] or len(args) < 2:
            raise CommandError(f"usage: {usage('aspect')} or {usage('unaspect')}")
        text, zone = _at_zone(args[1:])
        return Command("aspect", {"name": _unquoted(text), **({"zone": zone} if zone else {})})
    if name not in POWERS or name == "unaspect":
        raise CommandError(f"unknown command /{name}; /help lists them")
    p = POWERS[name]
    bad = CommandError(f"usage: {usage(name)}")
    if name == "save":
        return Command("save", {"file": " ".join(args)} if args else {})
    kinds = [f.kind for f in p.fields]
    if not kinds:
        if args:
            raise bad
        return Command(name)
    if name == "compel":
        rest = list(args[1:])
        refuse = len(rest) > 1 and rest[-1] == "refuse"
        if refuse:
            rest.pop()
        by = None
        if len(rest) > 2 and rest[-2] == "by":  # ... by PC: the last two words
            by = rest.pop()
            rest.pop()
        aspect = " ".join(rest)
        if not args or not aspect:
            raise bad
        # at a terminal the GM types the player's answer with the compel: it is recorded at once
        return Command(name, {"who": args[0], "aspect": aspect, "refuse": refuse, **({"by": by} if by else {})})
    if name == "add":
        if not args:
            raise bad
        who, zone = _at_zone(args)
        return Command(name, {"who": _unquoted(who), **({"zone": zone} if zone else {})})
    if name == "rating":
        if len(args) < 3 or not _is_int(args[-1]):
            raise CommandError(f"usage: {usage(name)} (N a whole number)")
        return Command(name, {"who": args[0], "skill": " ".join(args[1:-1]), "n": int(args[-1])})
    if name == "fp":
        if len(args) != 2 or not _is_int(args[1]):
            raise bad
        return Command(name, {"who": args[0], "n": int(args[1])})
    # the rest: one word per field, the last field takes the rest of the line
    if len(args) < len(kinds):
        raise bad
    values = {f.name: a for f, a in zip(p.fields[:-1], args)}
    values[p.fields[-1].name] = " ".join(args[len(kinds) - 1:])
    return Command(name, values)


def _at_zone(words: list[str]) -> tuple[str, str | None]:
    """``NAME WORDS @ZONE WORDS``: the words before the last ``@`` word, and the zone (its id or name,
    spaces and all: ``@Loading dock``) after it."""
    at = max((i for i, w in enumerate(words) if w.startswith("@") and i > 0), default=None)
    if at is None:
        return " ".join(words), None
    return " ".join(words[:at]), " ".join(words[at:])[1:] or None


def _is_int(text: str) -> bool:
    t = text[1:] if text[:1] in "+-" else text
    return t.isascii() and t.isdigit() and len(t) <= 2


def _unquoted(text: str) -> str:
    """``'Thug x3: mob, Fight 2'`` as typed from an example: the quotes are not part of it."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text
