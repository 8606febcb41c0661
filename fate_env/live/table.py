"""The live table: a session's state and its rules of play, with no I/O.

The table plays what plays itself (the NPCs on autopilot, a player's one-answer decisions) and
stops at a :class:`~.questions.Question` only the people at the table can answer: a player's
decision, a GM gate, the naming of a consequence, physical dice. Answers are typed
(:mod:`.answers`) and name the question they answer (its ``seq``), so an answer to a question that
has gone is refused instead of landing on the one that replaced it; GM commands are typed
:class:`~.commands.Command` values, carried out by :mod:`.gm_commands` and :mod:`.powers`. Who may
answer or command is decided in :mod:`.seats`, per seat, on the typed input.

What the table says (the narration, its own notes) goes to :attr:`Table.feed` as lines a front end
shows: ``play`` (the terminal) and ``serve`` (the web) are thin views over this one model.

The whole session is a replayable log (:mod:`.save`): rebuilding from it gives the same state;
undo is the log less its last answer, replayed.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import secrets
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from agents.base import controllers_for, make_controller

from ..content.narrate import Narrator, summary
from ..content.paths import FileLock, OutputPathError, check_output, write_atomically
from ..content.safe_text import printable
from ..content.scenes import SceneError, read_scene_data, scene_from_dict
from ..rules import events as ev
from ..rules.conflict import ConflictOver, IllegalChoice
from ..rules.engine import start
from ..rules.kinds import DecisionKind
from ..rules.options import DoneInvoking
from . import answers, consequence_names, gm_commands, powers, seats, state_panel, table_menu
from . import autopilot as ap
from .answers import Answer
from .commands import Command
from .questions import Line, Question
from .refusals import Failed, Refused, SaveExists
from .save import SessionError, SessionLog
from .seats import Seat


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
_KEPT = ("seq", "question", "finished", "stopped", "ask_next", "shown", "named", "naming", "rolling", "compel",
         "proposed", "_proposed_in", "humans", "controllers", "_rehearsed")


class _NeedDice(Exception):
    """Raised inside a step when a PC's physical dice are needed and not yet given."""

    def __init__(self, who: str, what: str):
        super().__init__(who, what)
        self.who, self.what = who, what


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
        self.ask_next = ""
        #: set by the web table: /save writes only to ``fixed_save``, never a path sent by a page
        self.saves_fixed = False
        self.fixed_save: Path | None = None
        self.autosave_path = Path(autosave) if autosave is not None else None
        self.autosave_failed = False
        self.locks: dict[Path, FileLock] = {}  # the files this session writes, held against other sessions
        #: set by :meth:`halt` (a server stopping): no step is played and nothing autosaved after it
        self.halted = False
        self._writing = threading.Lock()  # an autosave being written: a halt waits for it to be whole
        self.kept = len(log.entries)  # the entries saved (see autosave); after a halt, all the session keeps
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
        self.naming: list[int] = []
        self.rolling: _Rolling | None = None
        self.compel: tuple[str, int, str | None] | None = None  # a compel offered to a PC (and who proposed it)
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
        if self.rolling is not None:
            r = self.rolling
            return Question(0, "dice", r.who, self.pc_of(r.who), roll=r.what)
        if self.compel is not None:
            who, aid, _ = self.compel
            return Question(0, "compel", who, self.pc_of(who), aspect=aid, names=[self.play.aspect(aid).name])
        if self.naming:
            return self._name_question()
        self.narrate()
        if self.play.over:
            self.say("")
            self.say("\n".join(summary(self.play.scene, self.play.outcome)), "summary")
            self.finished = True
            return None
        c, d = self.play, self.play.pending
        offer = self._compel_offer(d)
        if offer is not None:
            return offer
        asked, self.ask_next = self.ask_next, ""
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

    def _hit(self, d) -> dict[str, Any] | None:
        """The hit an absorb decision is about (its shifts, track, who dealt it), or None."""
        if d.kind != DecisionKind.ABSORB or "shifts" not in d.context:
            return None
        by = d.context.get("source")
        return {"shifts": d.context["shifts"], "track": d.context.get("track"),
                "by": self.narrator.name(by) if by in self.play.f else None}

    def narrate(self) -> None:
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
        self.apply_decision(index, f"(one answer) {why}", by="obvious")
        return True

    def _autoplay(self, d, index: int, reason: str, text: str) -> None:
        """An NPC's decision applied by the autopilot; a line of its own only where the narration
        does not already tell it (an invoke made, a style or cost chosen, a concession answered)."""
        if d.kind not in ap.NARRATED and type(d.options[index]) is not DoneInvoking:
            self.say(f"  ({self.narrator.name(d.actor)}: {text}; {reason})")
        self.apply_decision(index, reason, by="autopilot")

    def _name_question(self) -> Question | None:
        """The first aspect waiting for its name. A consequence: the autopilot names its NPCs' (said in a
        line, /name renames it); a PC's, or any while the GM confirms every move, is asked. An advantage a
        PC created: its player names what they introduced (003:817-822), the template's words proposed."""
        a = self.play.aspects.get(self.naming[0])
        if a is None:  # gone before it was named (a boost used, an aspect cleared)
            self.naming.pop(0)
            return None
        if a.kind == "advantage":
            return Question(0, "name", a.creator, self.pc_of(a.creator), names=[a.name], aspect=a.id, role="advantage")
        options = consequence_names.suggest(self.play, a.id)
        if a.owner not in self.humans and not self.autopilot.asks():
            self.naming.pop(0)
            said = f"  ({self.narrator.name(a.owner)}'s {a.role} consequence is {options[0]}"
            self.say(said + ")", terminal=f"{said}: /name #{a.id} NAME renames it)")
            if options[0] != a.name:
                self.use_power("name", [str(a.id), options[0]])
            return None
        blow = self.narrator.name(a.creator) if a.creator in self.play.f else ""
        return Question(0, "name", a.owner, self.pc_of(a.owner), names=options, aspect=a.id, role=a.role,
                        blow=blow)

    def apply_decision(self, index: int, reason: str, by: str | None = None, faces: list[list[int]] | None = None) -> None:
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
            self.rolling = _Rolling(index, reason, by, faces, need.who, need.what)
            return
        except KeyboardInterrupt:
            self.rebuild()
            raise
        self.rolling = None
        entry: dict[str, Any] = {"decision": index}
        if reason:
            entry["reason"] = reason
        if by:
            entry["by"] = by
        if self._pending_dice:
            entry["dice"] = self._pending_dice
        self.log.entries.append(entry)
        self.autosave()
        for a in self.play.aspects.values():
            if a.id in self.named:
                continue
            # a consequence is named at the table; an advantage a player's PC created, by that player
            if a.kind == "consequence" or (a.kind == "advantage" and self.pc_of(a.creator) is not None):
                self.named.add(a.id)
                self.naming.append(a.id)

    def use_power(self, power: str, args: list[str]) -> None:
        powers.apply(self, power, args)
        self.log.entries.append({"gm": {"power": power, "args": args}})
        self.autosave()

    def autosave(self) -> None:
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
            self.autosave()

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
            answers.apply(self, q, answer)

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
                gm_commands.run(self, cmd)
            finally:
                if self.play is not c or self.play.pending is not d:
                    self.question = None
            if cmd.power.logged and not self.play.over:
                self.narrate()  # what the power did, at once: the GM should not wait a step to see it

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

