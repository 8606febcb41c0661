"""The live table: a session's state and its rules of play, with no I/O.

The table plays what plays itself (the NPCs on autopilot, a player's one-answer decisions) and
stops at a :class:`Question` only the people at the table can answer: a player's decision, a GM
gate, the naming of a consequence, physical dice. Answers are typed (:class:`Choose`,
:class:`Accept`, ...) and name the question they answer (its ``seq``), so an answer to a question
that has gone is refused instead of landing on the one that replaced it; GM powers are typed
:class:`~.commands.Command` values. Who may answer is decided here, per :class:`Seat`, on the typed
answer: the GM answers anything and alone uses commands; a player answers their own PC's questions.

What the table says (the narration, its own notes) goes to :attr:`Table.feed` as lines a front end
shows: ``play`` (the terminal) and ``serve`` (the web) are thin views over this one model.

The whole session is a replayable log (:mod:`.save`): rebuilding from it gives the same state;
undo is the log less its last answer, replayed.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import threading
from contextlib import contextmanager
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Union

from agents.base import controllers_for, make_controller

from ..content.narrate import Narrator, summary
from ..content.paths import FileLock, OutputPathError, check_output, write_atomically
from ..content.safe_text import printable
from ..content.scenes import SceneError, read_scene_data, scene_from_dict
from ..rules import events as ev
from ..rules.conflict import ConflictOver, IllegalChoice
from ..rules.dice import DiceError, check_faces
from ..rules.engine import start
from ..rules.kinds import DecisionKind
from ..rules.options import DoneInvoking
from . import autopilot as ap
from . import seats
from . import commands, consequence_names, handles, powers, state_panel, table_menu
from .commands import Command
from .save import SessionError, SessionLog
from .seats import GM, Seat


#: the longest name a consequence takes from the table
MAX_NAME = 80


class Refused(ValueError):
    """An answer or command that was not applied, with the reason; ``status``: 400 malformed,
    403 not this seat's, 409 not the question pending. Nothing changed."""

    def __init__(self, reason: str, status: int = 400):
        super().__init__(reason)
        self.status = status


class Failed(Refused):
    """A change that broke on something unexpected (a bug, not a bad answer): the table was put back as
    it stood before it, the GM was told in one line, and the session goes on."""

    def __init__(self, reason: str):
        super().__init__(reason, 500)


class SaveExists(Refused):
    """``/save`` to a file this session did not write: replaced only when the GM says so."""

    def __init__(self, path: str):
        super().__init__(f"{path} exists and is not this session's", 409)
        self.path = path


# -- typed answers ---------------------------------------------------------------------------
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


# -- questions -------------------------------------------------------------------------------
@dataclass
class Question:
    """What the table waits for. ``kind``: ``decision`` (an option to choose: a player's, or the GM's
    for an NPC), ``gate`` (an NPC's move for the GM to accept or override), ``name`` (a consequence's
    name), ``dice`` (physical dice), ``offer`` (a compel the NPCs' side proposes, for the GM to offer
    or not), ``compel`` (a compel offered to a PC). ``owner``: the PC whose player may answer (None:
    the GM's alone)."""

    seq: int
    kind: str
    actor: str
    owner: str | None
    decision: str | None = None
    items: list[table_menu.Item] = field(default_factory=list)
    proposal: int | None = None      # the option proposed (0-based): the NPC's move, or the helper's
    move: str = ""                   # an NPC's move in words, and why it chose it
    reason: str = ""
    gate: str = ""                   # why the autopilot stopped ("" and paused: the GM paused it)
    paused: bool = False
    for_npc: bool = False            # a decision the GM makes for an NPC
    overriding: bool = False         # ... after overriding it at its gate
    names: list[str] = field(default_factory=list)   # name: the suggestions, the first the default
    aspect: int | None = None        # name: the consequence's id
    role: str = ""                   # name: its severity
    blow: str = ""                   # name: who dealt it
    roll: str = ""                   # dice: what is rolled
    standing: str | None = None      # an invoke decision: where the roll stands
    about: str | None = None         # a defense or an invoke: the roll it is about (table_menu.roll_about)
    hit: dict[str, Any] | None = None  # an absorb decision: the hit's shifts, its track, who dealt it


@dataclass
class Line:
    """One line the table says: ``event`` (narration of what happened), ``note`` (the table's own
    word: an autopilot move, a name given, a save), ``panel`` (who stands where, after an exchange),
    ``summary`` (the outcome). ``text`` is the GM's; ``public`` what every other seat reads (None:
    the GM's alone), which names no aspect still hidden (003:854-867)."""

    kind: str
    text: str
    terminal: str | None = None  # the terminal's wording, where it names a command to type
    public: str | None = ""      # "": the same as ``text``

    @property
    def for_table(self) -> str | None:
        """The line as the players and spectators read it, or None if it is the GM's alone."""
        return self.text if self.public == "" else self.public


@dataclass
class _Mark:
    """The table as it stood before a change: what a refused or failed change puts back (the engine's
    state is the log replayed, so the log, not the engine, is kept)."""

    entries: list
    controls: dict
    feed: int
    events: int
    play: Any
    pending: Any
    fields: dict[str, Any]


#: the table's own fields a change may touch, put back as they were when it is refused or fails
_KEPT = ("seq", "question", "finished", "stopped", "_ask_next", "shown", "named", "_naming", "_rolling", "_compel",
         "proposed", "_proposed_in", "humans", "controllers", "_rehearsed")


class _NeedDice(Exception):
    """Raised inside a step when a PC's physical dice are needed and not yet given."""

    def __init__(self, who: str, what: str):
        super().__init__(who, what)
        self.who, self.what = who, what


def _rolls(events: list) -> int:
    """How many dice rolls ``events`` show."""
    return sum(1 for e in events if getattr(e, "faces", None) is not None or getattr(e, "new_faces", None) is not None)


@dataclass
class _Rolling:
    """A decision waiting for physical dice: applied again, from the log, once they are given."""

    index: int
    reason: str
    by: str | None
    faces: list[list[int]]
    who: str
    what: str


class Table:
    """One live session's model. ``advance`` plays until a question; ``answer`` and ``command``
    take the table's input; ``feed`` is what it said, in order."""

    def __init__(self, log: SessionLog, autosave: str | os.PathLike | None = None,
                 autopilot: ap.Autopilot | None = None):
        self.log = log
        self.autopilot = autopilot if autopilot is not None else ap.Autopilot()
        self.feed: list[Line] = []
        self.replaying = False
        self.seq = 0
        self.question: Question | None = None
        self.finished = False  # the fight is over and its summary said
        self.stopped = False   # /quit
        #: the next decision is asked of the table even if it would play itself (after /undo, /override)
        #: how the decision pending after an /undo or /override is asked: "again" (an undo: as it was asked,
        #: a gate as a gate, a player's decision even if it would answer itself), "override" (the GM
        #: chooses the NPC's move from its menu), "" (as the autopilot decides)
        self._ask_next = ""
        #: set by the web table: /save writes only to ``fixed_save``, never a path sent by a page
        self.saves_fixed = False
        self.fixed_save: Path | None = None
        self.autosave_path = Path(autosave) if autosave is not None else None
        self.autosave_failed = False
        self.locks: dict[Path, FileLock] = {}  # the files this session writes, held against other sessions
        #: set by :meth:`halt` (a server stopping): no step is played and nothing autosaved after it
        self.halted = False
        self._writing = threading.Lock()  # an autosave being written: a halt waits for it to be whole
        self.kept = len(log.entries)  # the entries saved (see _autosave); after a halt, all the session keeps
        if log.scene_data is None:  # a new session (or a save from before the scene was kept in it)
            try:
                log.scene_file, log.scene_data = read_scene_data(log.scene)
            except SceneError as exc:
                raise SessionError(str(exc)) from None
        try:
            self.scene = scene_from_dict(log.scene_data, log.scene_file or log.scene, rules=log.rules)
        except SceneError as exc:
            raise SessionError(f"the scene kept in this session does not load: {exc}") from None
        # the players drive their PCs unless --control hands a PC to a policy; "human" may seat anyone
        self.humans = {c.id for c in self.scene.characters
                       if (log.controls.get(c.id) or log.controls.get(c.side) or ("human" if c.kind == "pc" else ""))
                       == "human"}
        robots = {k: v for k, v in log.controls.items() if v != "human"}
        try:
            self.controllers = controllers_for(
                self.scene, {**robots, **{c: "basic" for c in self.humans}}, seed=log.seed)
        except ValueError as exc:
            raise SessionError(str(exc)) from None
        self.helper = make_controller("basic", log.seed)
        #: the seed of the new dice after an undo past dice seen (kept in the log, so a replay is exact)
        self.fresh_seed = lambda: secrets.randbits(63)
        #: the rehearsal notes said, by side: the scene they were said for (the GM's reinforcements make
        #: a new one, and the side rehearses anew) and the notes (every seat of a side says the same)
        self._rehearsed: dict[str, tuple[Any, set[str]]] = {}
        #: a view's hook, called when the table has said why it is about to work a while before the next
        #: question (a learned side's rehearsal): the terminal prints the feed then, the web publishes it
        self.on_wait: Callable[[], None] | None = None
        #: the aspects whose compel the NPCs' side proposed this scene (kept through /undo: not proposed twice)
        self.proposed: set[int] = set()
        #: the exchange of the last proposal: at most one an exchange
        self._proposed_in = 0
        #: the names the scene hides (aspects[].hidden): never in a line the players' pages read
        self._hidden_names = sorted({a.name for a in self.scene.aspects if a.hidden}, key=len, reverse=True)
        self._revealed: tuple[int, set[str]] = (-1, set())
        self._changing = False  # inside a change (``change``): a nested one is part of it
        pcs = sorted(c.id for c in self.scene.characters if c.kind == "pc")
        unknown = sorted(self.autopilot.spare - set(pcs))
        if unknown:
            raise SessionError(f"spare: {unknown[0]!r} is not a PC of scene {self.scene.name!r}; expected some of "
                               f"{', '.join(pcs) or '(no PCs)'}")
        self.rebuild()

    # -- state ----------------------------------------------------------------------------
    def rebuild(self) -> None:
        """Replay the log from the start (resume and undo both come here). An entry that no longer
        applies (an edited save) is refused with its number, and nothing is kept of the replay."""
        self.replaying = True  # powers replayed from the log say nothing (they were said when made)
        self.play = start(self.scene, self.log.seed)
        self.narrator = Narrator(self.scene)
        self._replay_dice: list[tuple[int, ...]] = []
        self._wire_dice(replaying=True)
        for i, entry in enumerate(self.log.entries):
            self._replay_dice = [tuple(f) for f in entry.get("dice", [])]
            try:
                if "decision" in entry:
                    self.play.step(entry["decision"], entry.get("reason", ""))
                else:
                    powers.apply(self, entry["gm"]["power"], list(entry["gm"]["args"]))
            except (IllegalChoice, ConflictOver, ValueError, IndexError, KeyError) as exc:
                raise SessionError(f"entry {i + 1} of the session no longer applies ({exc}); "
                                   "was the save edited?") from None
        self._wire_dice(replaying=False)
        self.replaying = False
        # every consequence taken and advantage created so far has the name the log gave it
        self.named = {a.id for a in self.play.aspects.values() if a.kind in ("consequence", "advantage")}
        self._naming: list[int] = []
        self._rolling: _Rolling | None = None
        self._compel: tuple[str, int, str | None] | None = None  # a compel offered to a PC (and who proposed it)
        self.question = None
        # a new session narrates from its first exchange (a front end's own header replaces the opening line)
        self.shown = len(self.play.events) if self.log.entries else 1
        if self.log.entries:
            self.narrator.lines(self.play.events)  # learn the names of characters the GM added
        self.finished = False

    def _wire_dice(self, replaying: bool) -> None:
        dice = self.play.dice
        if self.log.dice != "physical":
            dice.provider = dice.wants = None
            return
        dice.wants = lambda who: who in self.humans
        dice.provider = (lambda who, what: self._replay_dice.pop(0)) if replaying else self._given_dice

    def _given_dice(self, who: str, what: str) -> tuple[int, ...]:
        if not self._dice_queue:
            raise _NeedDice(who, what)
        faces = self._dice_queue.pop(0)
        self._pending_dice.append(list(faces))
        return tuple(faces)

    def say(self, text: str, kind: str = "note", terminal: str | None = None, gm_only: bool = False) -> None:
        """Say ``text`` (``terminal``: the terminal's wording, naming the command to type; ``gm_only``: a
        line for the GM alone). What the other seats read names no aspect still hidden."""
        lines = [printable(text)] if terminal is not None else printable(text, keep="\n").split("\n")
        for line in lines:  # a name's escape codes shown, not obeyed
            public = None if gm_only else self.redacted(line)
            self.feed.append(Line(kind, line, printable(terminal) if terminal is not None else None,
                                  "" if public == line else public))

    def redacted(self, line: str) -> str:
        """``line`` with the name of every aspect still hidden (never discovered, 003:854-867) put as
        "something hidden": the players' and spectators' feed never names one, whoever's power named it."""
        for name in self._secrets():
            line = re.sub(re.escape(printable(name)), "something hidden", line, flags=re.IGNORECASE)
        return line

    def _secrets(self) -> list[str]:
        """The names of the scene's hidden aspects that no one has discovered yet (removed ones too)."""
        if not self._hidden_names:
            return []
        n = len(self.play.events)
        if self._revealed[0] != n:
            self._revealed = (n, {e.name for e in self.play.events if type(e) is ev.AspectRevealed})
        return [name for name in self._hidden_names if name not in self._revealed[1]]

    def pc_of(self, cid: str | None) -> str | None:
        """The PC whose player answers for ``cid`` (None: an NPC, or one the GM took over: the GM's)."""
        if cid is None or cid not in self.humans or cid not in self.play.f or self.play.f[cid].sheet.is_npc:
            return None
        return cid

    # -- playing until a question --------------------------------------------------------------
    def advance(self) -> Question | None:
        """Play what plays itself until the table must answer. The question, or None: the fight is over
        (its summary said), the session was stopped, or the table halted."""
        while self.question is None and not (self.finished or self.stopped or self.halted):
            q = self._next()
            if q is not None:
                self.seq += 1
                q.seq = self.seq
                self.question = q
        return self.question

    def _next(self) -> Question | None:
        """One step towards the next question: the question, or None once something played itself."""
        if self._rolling is not None:
            r = self._rolling
            return Question(0, "dice", r.who, self.pc_of(r.who), roll=r.what)
        if self._compel is not None:
            who, aid, _ = self._compel
            return Question(0, "compel", who, self.pc_of(who), aspect=aid, names=[self.play.aspect(aid).name])
        if self._naming:
            return self._name_question()
        self._narrate()
        if self.play.over:
            self.say("")
            self.say("\n".join(summary(self.play.scene, self.play.outcome)), "summary")
            self.finished = True
            return None
        c, d = self.play, self.play.pending
        offer = self._compel_offer(d)
        if offer is not None:
            return offer
        asked, self._ask_next = self._ask_next, ""
        if d.actor in self.humans:
            if not asked and self._answer_obvious(d):
                return None
            proposal, _ = self.helper.choose(c, d)
            items = table_menu.build(c, d, self.narrator, self.helper, proposal)
            standing = table_menu.standing(c, d) if d.kind == DecisionKind.INVOKE else ap.at_risk(c, d)
            return Question(0, "decision", d.actor, self.pc_of(d.actor), str(d.kind), items, proposal,
                            standing=standing, hit=self._hit(d),
                            about=table_menu.roll_about(c, d, self.narrator.name))
        self._say_rehearsal(d.actor)
        index, reason = self.controllers[d.actor].choose(c, d)
        _, text = table_menu.words(c, d, self.narrator, d.options[index])
        gate = self.autopilot.gate(c, d, index)
        if not (asked or gate or self.autopilot.asks()):
            self._autoplay(d, index, reason, text)
            return None
        q = Question(0, "gate", d.actor, None, str(d.kind), proposal=index, move=text, reason=reason,
                     gate=gate or "", paused=self.autopilot.paused)
        if asked == "override":  # the GM chooses this one (an undo asks a gate as the gate it was)
            q.kind, q.for_npc = "decision", True
            q.items = table_menu.build(c, d, self.narrator, self.helper, index)
        return q

    def _say_rehearsal(self, actor: str) -> None:
        """Before a learned NPC's first decision for its side in this scene, say the line its
        rehearsal kept (``LearnedController.rehearsal_note``): once, and again only if the scene
        changes under it (a GM's reinforcements make it rehearse anew)."""
        note = getattr(self.controllers[actor], "rehearsal_note", None)
        if note is None:
            return
        side, scene = self.play.side_of(actor), self.play.scene
        said = self._rehearsed.get(side)
        if said is None or said[0] is not scene:
            said = self._rehearsed[side] = (scene, set())
        ahead = self.controllers[actor].rehearsal_ahead(scene, side)
        if ahead:  # the rehearsal is about to run: said now, and shown before the wait (``on_wait``)
            self.say(f"  ({ahead})")
            if self.on_wait is not None:
                self.on_wait()
        text = note(scene, side)  # the rehearsal is kept per file, scene and side: this costs it once
        if text and text not in said[1]:
            said[1].add(text)
            self.say(f"  ({text})")

    def _compel_offer(self, d) -> Question | None:
        """At the start of a player's turn, a compel the NPCs' side proposes (``autopilot.compels``):
        the GM's to offer or not (003:1124-1130); at most one an exchange, each aspect once a scene."""
        if not self.autopilot.compels or d.kind != DecisionKind.TURN or self.pc_of(d.actor) is None \
                or self._proposed_in == self.play.t.exchange:
            return None
        found = ap.compel_candidate(self.play, d.actor, self.proposed)
        if found is None:
            return None
        aid, why = found
        self.proposed.add(aid)
        self._proposed_in = self.play.t.exchange
        return Question(0, "offer", d.actor, None, aspect=aid, names=[self.play.aspect(aid).name], reason=why)

    def _offered_compel(self, q: Question, answer: Answer) -> None:
        """The GM's answer to a proposed compel: offered to the player (Accept), or let go (Refuse)."""
        if type(answer) not in (Accept, Refuse):
            raise Refused("offer the compel to the player (accept) or let it go (refuse)")
        if type(answer) is Accept:
            try:
                self.play.check_compel(q.actor, q.aspect, True)
            except ValueError as exc:
                raise Refused(str(exc)) from None
        self.question = None
        if type(answer) is Refuse:
            return
        self._compel = (q.actor, q.aspect, None)
        self.say(f"  (the GM compels {self.narrator.name(q.actor)}'s {q.names[0]}: "
                 f"their player accepts, gaining a fate point, or refuses, paying one)")

    def _hit(self, d) -> dict[str, Any] | None:
        """The hit an absorb decision is about (its shifts, track, who dealt it), or None."""
        if d.kind != DecisionKind.ABSORB or "shifts" not in d.context:
            return None
        by = d.context.get("source")
        return {"shifts": d.context["shifts"], "track": d.context.get("track"),
                "by": self.narrator.name(by) if by in self.play.f else None}

    def _narrate(self) -> None:
        """The events since the last call; the short panel after each exchange that ended."""
        new = self.play.events[self.shown:]
        for line in self.narrator.lines(new):
            self.say(line, "event")
        self.shown = len(self.play.events)
        if any(type(e) is ev.ExchangeStarted and e.exchange > 1 for e in new) and not self.play.over:
            self.say("\n".join(state_panel.short(self.play, self.narrator)), "panel")

    def _answer_obvious(self, d) -> bool:
        """A player's decision with one sensible answer (autopilot.obvious), if the table lets such
        answers go: said in a line, applied; /undo takes it back and asks it."""
        auto = ap.obvious(self.play, d, d.actor in self.autopilot.spare) if self.autopilot.obvious else None
        if auto is None:
            return False
        index, why = auto
        if d.kind != DecisionKind.ABSORB:  # an absorb's reason is narrated with it
            who, hint = self.narrator.name(d.actor), ap.TERMINAL_HINTS.get(d.kind)
            typed = f"  ({who} {why[:-1]}{hint}))" if hint and why.endswith(")") else None
            self.say(f"  ({who} {why})", terminal=typed)
        self._apply(index, f"(one answer) {why}", by="obvious")
        return True

    def _autoplay(self, d, index: int, reason: str, text: str) -> None:
        """An NPC's decision applied by the autopilot; a line of its own only where the narration
        does not already tell it (an invoke made, a style or cost chosen, a concession answered)."""
        if d.kind not in ap.NARRATED and type(d.options[index]) is not DoneInvoking:
            self.say(f"  ({self.narrator.name(d.actor)}: {text}; {reason})")
        self._apply(index, reason, by="autopilot")

    def _name_question(self) -> Question | None:
        """The first aspect waiting for its name. A consequence: the autopilot names its NPCs' (said in a
        line, /name renames it); a PC's, or any while the GM confirms every move, is asked. An advantage a
        PC created: its player names what they introduced (003:817-822), the template's words proposed."""
        a = self.play.aspects.get(self._naming[0])
        if a is None:  # gone before it was named (a boost used, an aspect cleared)
            self._naming.pop(0)
            return None
        if a.kind == "advantage":
            return Question(0, "name", a.creator, self.pc_of(a.creator), names=[a.name], aspect=a.id, role="advantage")
        options = consequence_names.suggest(self.play, a.id)
        if a.owner not in self.humans and not self.autopilot.asks():
            self._naming.pop(0)
            said = f"  ({self.narrator.name(a.owner)}'s {a.role} consequence is {options[0]}"
            self.say(said + ")", terminal=f"{said}: /name #{a.id} NAME renames it)")
            if options[0] != a.name:
                self._power("name", [str(a.id), options[0]])
            return None
        blow = self.narrator.name(a.creator) if a.creator in self.play.f else ""
        return Question(0, "name", a.owner, self.pc_of(a.owner), names=options, aspect=a.id, role=a.role,
                        blow=blow)

    def _apply(self, index: int, reason: str, by: str | None = None, faces: list[list[int]] | None = None) -> None:
        """Take a decision. A PC's physical dice needed while it applies and not yet given: the half-taken
        step is dropped by replaying the log (all or nothing) and the dice are asked. ``by``: who answered,
        kept in the entry so /undo and /override know whose it was: "autopilot" (an NPC's, not asked),
        "gm" (an NPC's, asked of the GM), "obvious" (a player's one sensible answer, not asked); none: a
        player's."""
        faces = list(faces or [])
        self._dice_queue = [list(f) for f in faces]
        self._pending_dice: list[list[int]] = []
        try:
            self.play.step(index, reason)
        except _NeedDice as need:
            shown = self.shown
            self.rebuild()
            self.shown = shown
            self._rolling = _Rolling(index, reason, by, faces, need.who, need.what)
            return
        except KeyboardInterrupt:
            self.rebuild()
            raise
        self._rolling = None
        entry: dict[str, Any] = {"decision": index}
        if reason:
            entry["reason"] = reason
        if by:
            entry["by"] = by
        if self._pending_dice:
            entry["dice"] = self._pending_dice
        self.log.entries.append(entry)
        self._autosave()
        for a in self.play.aspects.values():
            if a.id in self.named:
                continue
            # a consequence is named at the table; an advantage a player's PC created, by that player
            if a.kind == "consequence" or (a.kind == "advantage" and self.pc_of(a.creator) is not None):
                self.named.add(a.id)
                self._naming.append(a.id)

    def _power(self, power: str, args: list[str]) -> None:
        powers.apply(self, power, args)
        self.log.entries.append({"gm": {"power": power, "args": args}})
        self._autosave()

    def _autosave(self) -> None:
        """After every applied entry: a crash never loses more than the step in flight. ``kept``: the
        entries the session holds to (the autosave's, or every one when there is none)."""
        if self.autosave_path is None:
            with self._writing:
                if not self.halted:
                    self.kept = len(self.log.entries)
            return
        try:
            with self._writing:
                if self.halted:
                    return
                write_atomically(self.autosave_path, json.dumps(self.log.to_json(), indent=1))
                self.kept = len(self.log.entries)
        except OSError as exc:
            if not self.autosave_failed:
                self.say(f"  ! cannot autosave to {self.autosave_path} ({exc.strerror or exc}); "
                         "use /save FILE to keep the session")
            self.autosave_failed = True

    def halt(self) -> None:
        """Stop where the table stands, from another thread (a server shutting down): the step in flight
        ends, then nothing more is played or autosaved. Returns once no autosave is being written, so the
        file holds every step up to the halt, whole."""
        with self._writing:
            self.halted = True

    # -- changes: checked whole, applied whole ----------------------------------------------------
    @contextmanager
    def change(self, what: str = "that change") -> Iterator[None]:
        """One change to the table: an answer or a command (and, for the web, the NPCs' moves up to the
        next question). It is applied whole or not at all: whatever it raises, the table is put back as
        it stood before it (the question, the log and so the engine, the feed, the autosave). A refusal
        (or an engine's ValueError) is raised as :class:`Refused`; anything unexpected as :class:`Failed`,
        said to the GM in one line; the session goes on either way. A change inside a change is part of it."""
        if self._changing:
            yield
            return
        mark = self._mark()
        self._changing = True
        try:
            yield
        except Refused:
            self._restore(mark)
            raise
        except (ValueError, IndexError, ConflictOver, OutputPathError, SceneError) as exc:
            self._restore(mark)
            raise Refused(str(exc)) from None
        except KeyboardInterrupt:
            self._restore(mark, force=True)
            raise
        except Exception as exc:
            self._restore(mark, force=True)
            why = f"{type(exc).__name__}: {exc}"
            self.say(f"  ! {what} could not be applied ({why}); nothing changed, the table is as it was",
                     gm_only=True)
            raise Failed(f"{what} could not be applied ({why}); nothing changed") from exc
        finally:
            self._changing = False

    def _mark(self) -> _Mark:
        fields = {k: (v.copy() if isinstance(v, (set, list, dict)) else v)
                  for k, v in ((k, getattr(self, k)) for k in _KEPT)}
        fields["paused"] = self.autopilot.paused
        return _Mark(list(self.log.entries), dict(self.log.controls), len(self.feed), len(self.play.events),
                     self.play, self.play.pending, fields)

    def _restore(self, m: _Mark, force: bool = False) -> None:
        """Put the table back at ``m``. The engine is rebuilt from the log when the change reached it (or
        ``force``: after something unexpected, nothing it touched is trusted)."""
        logged = self.log.entries != m.entries
        touched = (force or logged or self.play is not m.play or self.play.pending is not m.pending
                   or len(self.play.events) != m.events)
        self.log.entries[:] = m.entries
        self.log.controls.clear()
        self.log.controls.update(m.controls)
        self.replaying = False
        if touched:
            self.rebuild()
        fields = dict(m.fields)
        self.autopilot.paused = fields.pop("paused")
        for k, v in fields.items():
            setattr(self, k, v)
        del self.feed[m.feed:]
        if logged:
            self._autosave()

    # -- the table's answers -----------------------------------------------------------------
    def may_answer(self, seat: Seat, q: Question | None = None) -> bool:
        q = q if q is not None else self.question
        if q is None:
            return False
        return seats.may_answer(seat, q.owner)

    def answer(self, seat: Seat, seq: int, answer: Answer) -> None:
        """Apply one answer to question ``seq``; refused (nothing changed) if it is not the question
        pending, not ``seat``'s to give, or not an answer it takes."""
        if not seats.answers_anything(seat):
            raise Refused(seats.why_not_answer(seat), 403)
        if self.halted:
            raise Refused("the table is stopping; this was not taken", 503)
        q = self.question
        if self.finished or self.stopped:
            raise Refused("the session is over", 409)
        if q is None or seq != q.seq:
            raise Refused(f"question {seq} is no longer pending (now: {q.seq if q else 'none'})", 409)
        if not self.may_answer(seat, q):
            raise Refused("this question is not yours to answer: " + (
                f"it is {self.narrator.name(q.owner)}'s player's" if q.owner else "it is the GM's"), 403)
        with self.change("that answer"):
            {"decision": self._decision, "gate": self._gate, "name": self._name, "dice": self._dice,
             "compel": self._compelled, "offer": self._offered_compel}[q.kind](q, answer)

    def _option(self, q: Question, number: int) -> int:
        n = len(self.play.pending.options)
        if not 1 <= number <= n:
            raise Refused(f"{number} is not an option; choose 1 to {n}")
        return number - 1

    def _decision(self, q: Question, answer: Answer) -> None:
        d = self.play.pending
        if type(answer) is Choose:
            index = self._option(q, answer.number)
            self.question = None
            self._apply(index, "the GM's call" if q.for_npc else "", by="gm" if q.for_npc else None)
        elif type(answer) in (Auto, Accept) and q.for_npc:
            self.question = None
            self._apply(q.proposal, q.reason, by="gm")
        elif type(answer) is Auto:
            index, reason = self.helper.choose(self.play, d)
            self.question = None
            self._apply(index, f"(auto) {reason}")
        else:
            raise Refused("choose an option by its number, or auto")

    def _gate(self, q: Question, answer: Answer) -> None:
        if type(answer) in (Accept, Auto):
            self.question = None
            self._apply(q.proposal, q.reason, by="gm")
        elif type(answer) is Override:
            d = self.play.pending
            self.seq += 1
            self.question = Question(self.seq, "decision", q.actor, None, q.decision,
                                     table_menu.build(self.play, d, self.narrator, self.helper, q.proposal),
                                     q.proposal, q.move, q.reason, q.gate, q.paused, for_npc=True, overriding=True)
        elif type(answer) is Choose:
            index = self._option(q, answer.number)
            self.question = None
            self._apply(index, "the GM's call", by="gm")
        else:
            raise Refused("accept the NPC's move, override it, or choose an option by its number")

    def _name(self, q: Question, answer: Answer) -> None:
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
        self._naming.pop(0)
        self.question = None
        if name != self.play.aspects[q.aspect].name:
            self._power("name", [str(q.aspect), name])

    def _dice(self, q: Question, answer: Answer) -> None:
        if type(answer) is not Dice:
            raise Refused("the four faces rolled")
        try:
            faces = check_faces(answer.faces)
        except DiceError as exc:
            raise Refused(str(exc)) from None
        r = self._rolling
        self.question = None
        self._apply(r.index, r.reason, r.by, r.faces + [list(faces)])

    def _compelled(self, q: Question, answer: Answer) -> None:
        if type(answer) not in (Accept, Refuse):
            raise Refused("accept the compel (gain a fate point) or refuse it (pay one)")
        by = self._compel[2] if self._compel else None
        refuse = type(answer) is Refuse
        try:
            self.play.check_compel(q.actor, q.aspect, not refuse, by)
        except ValueError as exc:
            raise Refused(f"{exc}; {'accept it' if refuse else 'refuse it'} instead", 409) from None
        self._compel = None
        self.question = None
        self._power("compel", [q.actor, str(q.aspect), *(["by", by] if by else []),
                               *(["refuse"] if type(answer) is Refuse else [])])
        self._narrate()

    # -- the GM's commands ----------------------------------------------------------------
    def command(self, seat: Seat, cmd: Command) -> None:
        """Run one GM command. Refused from any seat but the GM's, or while a name or dice are asked;
        a command that changed what is pending (an undo, a concession, the end; a power that made the
        decision anew) drops the question, and the next one is asked (never a stale one)."""
        if not seats.may_command(seat):
            raise Refused(seats.why_not_command(seat), 403)
        if self.halted:
            raise Refused("the table is stopping; this was not taken", 503)
        if self.finished or self.stopped:
            raise Refused("the session is over", 409)
        q = self.question
        if q is not None and q.kind in ("name", "dice", "compel"):
            raise Refused("answer the question first: " + {"name": "the aspect's name", "dice": "the dice rolled",
                                                           "compel": "the compel offered"}[q.kind], 409)
        c, d = self.play, self.play.pending
        with self.change(f"/{cmd.name}"):
            try:
                self._run(cmd)
            finally:
                if self.play is not c or self.play.pending is not d:
                    self.question = None
            if cmd.power.logged and not self.play.over:
                self._narrate()  # what the power did, at once: the GM should not wait a step to see it

    def _run(self, cmd: Command) -> None:
        name = cmd.name
        if name == "undo":
            self.undo()
        elif name in ("pause", "go"):
            self.autopilot.paused = name == "pause"
            if name == "pause":
                self.say("  (paused: each NPC decision waits for the GM)",
                         terminal="  (paused: each NPC decision waits for Enter, or /step; /go lets them play)")
            else:
                self.say("  (the NPCs play themselves again)")
        elif name == "step":
            self.step_npc()
        elif name == "override":
            self.override()
        elif name in ("takeover", "release"):
            self.seat(handles.character(self.play, self.narrator, cmd.fields["who"]), name == "takeover")
        elif name == "save":
            self.save(self.save_target(cmd.fields.get("file")), replace=bool(cmd.fields.get("replace")))
        elif name == "quit":
            self.save(str(self.autosave_path) if self.autosave_path else self.save_target(None))
            self.stopped = True
            self.question = None
        elif name == "compel" and "refuse" not in cmd.fields and self._offered(cmd):
            return
        elif cmd.power.logged:
            power, args = powers.log_args(self, cmd)
            self._power(power, args)
            if power == "name":
                self.say(f"  (#{args[0]} is now named {args[1]})")
        else:
            raise Refused(f"unknown command /{name}")

    def _offered(self, cmd: Command) -> bool:
        """A compel on a PC with no answer given: offered to that PC's player (their page asks them); on
        an NPC, the GM's own character, it is recorded as accepted."""
        who, aid, by, _ = powers.compel_args(powers.log_args(self, cmd)[1])
        if self.pc_of(who) is None:
            return False
        self.play.check_compel(who, aid, True, by)  # now, not when the player answers
        name = self.play.aspect(aid).name
        self._compel = (who, aid, by)
        self.question = None
        proposer = f"{self.narrator.name(by)}'s player" if by else "the GM"
        self.say(f"  ({proposer} compels {self.narrator.name(who)}'s {name}: "
                 f"{self.narrator.name(who)}'s player accepts or refuses)")
        return True

    def undo(self) -> None:
        """Drop the table's last answer (a player's, or the GM's at a gate; the NPCs' moves and any
        GM power after it go with it), then replay; that decision is asked again, even if it is
        one that would play itself. Where the dropped answers had led to dice the table saw, the dice
        from here are new (a ``dice`` entry with a fresh seed): replayed, the same dice would let a
        player choose on what they could not have known, such as conceding before a roll they have
        seen (003:1693-1712)."""
        last = max((i for i, e in enumerate(self.log.entries) if "decision" in e and e.get("by") != "autopilot"),
                   default=None)
        if last is None:
            raise ValueError("nothing to undo: the table has answered nothing yet (/override takes back an NPC's move)")
        seen = _rolls(self.play.events)
        self._drop_from(last, "again")
        if _rolls(self.play.events) < seen:  # the table saw dice the undone answers led to
            self._power("dice", [str(self.fresh_seed())])
            self._autosave()
            self.say("  (the last answer is undone; the dice seen since are not rolled again: new dice from here)")
        else:
            self.say("  (the last answer is undone)")
        self.say("\n".join(state_panel.short(self.play, self.narrator)), "panel")

    def override(self) -> None:
        """The GM takes back the NPCs' last move (and everything after it) and chooses it instead."""
        last = max((i for i, e in enumerate(self.log.entries) if e.get("by") in ("autopilot", "gm")), default=None)
        if last is None:
            raise ValueError("no NPC move to override yet")
        self._drop_from(last, "override")
        self.say(f"  (taken back: {self.narrator.name(self.play.pending.actor)}'s move; choose it below)")

    def step_npc(self) -> None:
        """``/step``: apply the pending NPC decision as the autopilot proposes it (the autopilot stays paused)."""
        d = self.play.pending
        if d is None or d.actor in self.humans:
            raise ValueError("/step applies an NPC's decision; this one is the players'")
        index, reason = self.controllers[d.actor].choose(self.play, d)
        self.question = None
        self._apply(index, reason, by="gm")

    def seat(self, cid: str, gm: bool) -> None:
        """``/takeover`` (``gm``): the table decides for ``cid`` from now on; ``/release``: the tool
        plays it (an NPC by its sheet's controller, a PC by ``basic``). Kept in the save's controls."""
        sheet = self.play.f[cid].sheet
        if gm == (cid in self.humans):
            raise ValueError(f"{self.narrator.name(cid)} is {'already' if gm else 'not'} played by the table")
        if gm:
            self.humans.add(cid)
            self.log.controls[cid] = "human"
            self.say(f"  (the GM decides for {self.narrator.name(cid)} now)",
                     terminal=f"  (you decide for {self.narrator.name(cid)} now; /release {cid} gives it back)")
        else:
            policy = sheet.controller if sheet.is_npc else "basic"
            self.humans.discard(cid)
            self.log.controls[cid] = policy
            self.controllers[cid] = make_controller(policy, self.log.seed)
            self.say(f"  ({self.narrator.name(cid)} is played by {policy} now)")
        self.question = None
        self._autosave()

    def _drop_from(self, last: int, ask: str) -> None:
        """Drop entries ``last`` on and replay; the decision then pending is asked of the table (``ask``: how,
        as ``_ask_next`` says)."""
        kept = self.log.entries[last:]
        del self.log.entries[last:]
        try:
            self.rebuild()
        except SessionError:
            self.log.entries.extend(kept)
            self.rebuild()
            raise
        self._autosave()
        self._ask_next = ask

    # -- files ------------------------------------------------------------------------------
    def hold(self, path: str | os.PathLike, what: str) -> None:
        """Claim ``path`` for this session: another session writing it is refused (paths.FileLock)."""
        key = Path(path).absolute()
        if key not in self.locks:
            lock = FileLock(path, what)
            lock.acquire()
            self.locks[key] = lock

    def release(self) -> None:
        for lock in self.locks.values():
            lock.release()
        self.locks.clear()

    def save_target(self, typed: str | None) -> str:
        """Where ``/save`` writes: the file typed; with ``fixed_save`` (the web table: no path from a
        request reaches the file system) only the file the server was told, and a typed one is refused."""
        if not self.saves_fixed:
            return typed or "session.json"
        if self.fixed_save is None:
            raise ValueError("this table was started without a save file (serve --save FILE), so it cannot save")
        if typed:
            raise ValueError(f"the web table saves only where the server was told: /save with no file name "
                             f"writes {self.fixed_save}")
        return str(self.fixed_save)

    def save(self, path: str, replace: bool = False) -> None:
        """Save the session; a path that cannot be written is refused with the reason (the session
        goes on). A file this session has not written is replaced only with ``replace`` (SaveExists)."""
        ours = Path(path).absolute() in self.locks
        try:
            check_output(path, "save to", force=ours or replace)
        except OutputPathError:
            if not Path(path).is_file():
                raise
            raise SaveExists(path) from None
        self.hold(path, "save to")
        log = self.log if not self.halted else dataclasses.replace(self.log, entries=self.log.entries[:self.kept])
        try:  # halted (a server stopped mid-change): what was saved by then, not a step in flight since
            write_atomically(path, json.dumps(log.to_json(), indent=1))
        except OSError as exc:
            raise OutputPathError(f"save to {path}: {exc.strerror or exc}") from None
        self.say(f"  (saved to {path}; resume with: fate-npc play --resume {path})")


__all__ = ["Table", "Seat", "GM", "Question", "Line", "Refused", "Failed", "SaveExists", "Choose", "Auto", "Accept", "Refuse",
           "Override", "Name", "Dice", "Answer", "answer_from_json", "commands"]
