"""A live table hosted for the web: ``play``'s own model (:class:`~fate_env.live.table.Table`), answered
from the pages with typed answers and commands instead of a keyboard's lines.

The model is exactly the terminal's: the same questions, the same checks of every answer, the same
log, autosave, undo and save format (a save from either resumes in the other). What the host adds:

* **one change at a time**: answers and commands are applied under a lock, each followed by the
  autopilot's moves up to the next question; the pages read a snapshot built once the table is
  settled, so they never see a half-applied step, and a long NPC turn never blocks a page's read;
* **who may do what** is the model's rule, on the typed value: the GM answers anything and alone
  runs commands; a player answers their own PC's questions; a spectator nothing;
* **a snapshot for the pages**: the table's feed, the scene as data (cards, map), and the question
  with its options structured (kind, group, odds, the proposal; an invoke's aspect, payer and effect).
"""

from __future__ import annotations

import io
import threading
from typing import Any

from ..live import commands, seats, state_panel, table_menu
from ..live.answers import answer_from_json
from ..live.powers import load_library
from ..live.questions import Question
from ..live.refusals import Failed, Refused
from ..live.seats import Seat
from ..live.session import Session
from ..rules import options as op
from ..rules.skills import DEFAULT_SKILLS

#: feed lines a snapshot carries (the page keeps its own scroll-back)
TAIL = 400
#: seconds a stopping server waits for the change in flight to reach the end of its step
STOP_WAIT = 2.0

AnswerRefused = Refused  # the server's name for a refusal (its reason and HTTP status)
__all__ = ["TableHost", "Seat", "AnswerRefused"]


class TableHost:
    """One live table, served: ``start`` plays up to the first question; ``answer``, ``command`` and
    ``snapshot`` are the pages' view."""

    def __init__(self, session_factory) -> None:
        self.session: Session = session_factory(io.StringIO(""), io.StringIO())
        self.table = self.session.table
        self._lock = threading.Lock()          # one change at a time
        self._cond = threading.Condition()     # the snapshot and version, read by every page
        self.version = 0  # bumped whenever something a page shows changed
        self.busy = False
        self.finished = False
        self.error: str | None = None
        # no path from a request reaches the file system: /save writes where the server was told
        self.table.on_wait = self._publish_wait
        held = list(self.table.locks)
        self.table.saves_fixed = True
        self.table.fixed_save = held[0] if held else None
        self._shared: dict[str, Any] = {}
        self._items: list[dict[str, Any]] = []
        self._report: tuple[str, str] | None = None  # the GM's and everyone else's
        self._lists: dict[str, Any] | None = None

    @property
    def waiting(self) -> bool:
        """Whether the table is settled at a question (no change is being applied)."""
        return not self.busy and self.table.question is not None

    @property
    def prompt(self) -> Question | None:
        return self.table.question if not self.busy else None

    # -- changes ---------------------------------------------------------------------------
    def start(self) -> None:
        with self._lock:
            self._settle()

    def _settle(self) -> None:
        """Play up to the next question, then publish the new snapshot (under the lock)."""
        try:
            self.table.advance()
        except Exception as exc:  # reported on the pages, never a dead server
            self.error = f"{type(exc).__name__}: {exc}"
        self._publish(busy=False, finished=self.error is not None or self.table.finished or self.table.stopped)

    def _publish_wait(self) -> None:
        """Mid-change, the table said why it will work a while (a learned side's rehearsal): the pages
        get the feed so far, and see the NPCs playing (``busy``: no question is offered until the
        change settles)."""
        self._publish(busy=True)

    def _publish(self, busy: bool, finished: bool | None = None) -> None:
        """A new snapshot for the pages, built from the table as it stands, and a new version."""
        shared, items = self._build()
        if self._report is None and self.table.play.over:
            from ..live.report import markdown
            text = markdown(self.table.play)
            self._report = (text, "\n".join(self.table.redacted(line) for line in text.split("\n")))
        with self._cond:
            if finished is not None:
                self.finished = finished
            self._shared, self._items = shared, items
            self.version += 1
            self._shared["version"] = self.version
            self.busy = busy
            self._cond.notify_all()

    def _change(self, apply, what: str, taken: threading.Event | None = None) -> int:
        """One change, whole or not at all: ``apply`` and the NPCs' moves up to the next question run as
        one of the table's changes (``Table.change``), so a refusal, or anything unexpected, puts the
        table back as it stood and the pages see no trace of it but the GM's one line for a failure.
        ``taken`` is set once ``apply`` is done and everything it logged is saved (the autosave), before
        the NPCs play: what a server stopping mid-change tells the page that sent it."""
        with self._lock:
            if self.finished:
                raise Refused("the session is over", 409)
            with self._cond:
                self.busy = True
            seen = self.version
            try:
                with self.table.change(what):
                    apply()
                    if taken is not None and self.table.kept == len(self.table.log.entries):
                        taken.set()  # everything it logged is saved: a halt from here on keeps it
                    self.table.advance()
            except BaseException as exc:
                if self.version != seen or isinstance(exc, Failed):  # a page saw it mid-change, or the GM's told
                    self._publish(busy=False)
                else:
                    with self._cond:
                        self.busy = False
                raise
            self._publish(busy=False, finished=self.table.finished or self.table.stopped)
            return self.version

    def answer(self, seat: Seat, seq: Any, data: Any, taken: threading.Event | None = None) -> int:
        """Apply one typed answer (a page's JSON) to question ``seq``; refused (Refused, with an HTTP
        status) if malformed, not this seat's, or not the question pending (the model decides who may
        answer: ``Table.answer``). Returns the new version."""
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise Refused("'seq': expected the number of the question answered", 400)
        answer = answer_from_json(data)
        return self._change(lambda: self.table.answer(seat, seq, answer), "that answer", taken)

    def command(self, seat: Seat, data: Any, taken: threading.Event | None = None) -> int:
        """Run one GM command (a page's JSON: ``{"command": NAME, FIELD: VALUE}``); the model refuses it
        from any seat but the GM's (``Table.command``; the server's route already did, before the body)."""
        try:
            cmd = commands.from_json(data)
        except commands.CommandError as exc:
            raise Refused(str(exc), 400) from None
        return self._change(lambda: self.table.command(seat, cmd), f"/{cmd.name}", taken)

    def stop(self, wait: float = STOP_WAIT) -> None:
        """The server is stopping: no change is taken after this, and the one in flight plays no step past
        the one it is in (``Table.halt``: the autosave holds every step up to there, whole). Waits at most
        ``wait`` seconds for it: a long NPC decision (a rehearsal) is left to end on its own, unsaved."""
        self.table.halt()
        got = self._lock.acquire(timeout=wait)
        try:
            with self._cond:
                self.finished = True
                self.version += 1
                self._cond.notify_all()
        finally:
            if got:
                self._lock.release()

    # -- the pages' side ---------------------------------------------------------------------
    def snapshot(self, seat: Seat) -> dict[str, Any]:
        """What ``seat``'s page shows now: the shared part (built once per change), the question's
        options for those who may answer it (and the GM)."""
        with self._cond:
            shared, items, busy = self._shared, self._items, self.busy
        q = shared.get("question")
        mine = bool(q) and not busy and seats.may_answer(seat, q["owner"])
        question = None if q is None or busy else {**q, "yours": mine,
                                                   "items": items if mine or seats.sees_everything(seat) else []}
        out = {**shared, "busy": busy, "role": seat.role, "pc": seat.pc, "question": question}
        if not seats.sees_everything(seat):  # what is hidden is the GM's alone (003:854-867), and so are the GM's own notes
            out["feed"] = shared["table_feed"]
            if question is not None:
                question.update(shared["table_question"])
            if shared.get("table_scene") is not None:
                out["scene"] = shared["table_scene"]
        for key in ("table_scene", "table_feed", "table_question"):
            out.pop(key, None)
        if seats.sees_everything(seat):
            out["gm"] = self._gm_lists()
        return out


    def _build(self) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        t = self.table
        q = t.question
        tail = t.feed[-TAIL:]
        feed = [[line.kind, line.text] for line in tail]
        question = None if q is None else self._question(q)
        shared = {"over": self.error is not None or t.finished or t.stopped, "error": self.error, "feed": feed,
                  "table_feed": [[line.kind, line.for_table] for line in tail if line.for_table is not None],
                  "table_question": {} if question is None else _public(question, t.redacted),
                  "feed_count": len(t.feed), "title": t.scene.title, "gm_pool": t.play.t.gm_pool,
                  "paused": t.autopilot.paused,
                  "scene": state_panel.data(t.play, t.narrator),
                  "table_scene": (state_panel.data(t.play, t.narrator, gm=False)
                                  if any(a.hidden for a in t.play.t.aspects.values()) else None),
                  "question": question}
        return shared, ([] if q is None else [self._item(q, it) for it in q.items])

    def _question(self, q: Question) -> dict[str, Any]:
        t = self.table
        name = t.narrator.name
        out: dict[str, Any] = {
            "seq": q.seq, "kind": q.kind, "actor": q.actor, "actor_name": name(q.actor), "owner": q.owner,
            "decision": q.decision, "for_npc": q.for_npc, "standing": q.standing, "about": q.about,
            "proposal": None if q.proposal is None else q.proposal + 1, "count": len(q.items)}
        if q.kind == "gate" or q.for_npc:
            out.update(move=q.move, reason=q.reason, gate=q.gate, paused=q.paused)
        if q.kind == "name":
            out.update(names=q.names, role=q.role, blow=q.blow)
        if q.kind in ("compel", "offer"):
            out["aspect_name"] = q.names[0]
        if q.kind == "offer":
            out["reason"] = q.reason
        if q.kind == "dice":
            out["roll"] = q.roll
        if q.hit:
            out["hit"] = q.hit
        if q.items:
            out["short"] = [it.number for it in table_menu.short(q.items, q.decision)]
        return out

    def _item(self, q: Question, it: table_menu.Item) -> dict[str, Any]:
        """One option as data: its words, group and odds; an invoke's parts, so a page can offer it in
        steps (the aspect, then how and who pays)."""
        out: dict[str, Any] = {"number": it.number, "group": it.group, "text": it.text, "odds": it.odds,
                               "proposed": it.proposed}
        play, name = self.table.play, self.table.narrator.name
        o = play.pending.options[it.number - 1]
        if type(o) is op.Invoke:
            a = play.aspects[o.aspect]
            out["invoke"] = {"aspect": o.aspect, "aspect_name": a.name, "owner": name(a.owner) if a.owner else None,
                             "bears": play.bears_on(q.actor, o.aspect),  # the plain ones first (003:587-592)
                             "payer": o.payer, "payer_name": name(o.payer), "free": o.free, "effect": o.effect,
                             "change": table_menu.invoke_change(play, play.pending, o)}
        return out

    def _gm_lists(self) -> dict[str, Any]:
        """What the GM's forms offer besides the scene itself: the commands and their fields, who ``/add``
        can bring in (the scene's reserves and the shipped library) and the skills a rating can name."""
        if self._lists is None:
            t = self.table
            skills = set(DEFAULT_SKILLS) | {k for c in t.scene.characters for k in c.skills}
            self._lists = {"reserves": [{"id": r.id, "name": r.name} for r in t.scene.reserves],
                           "library": sorted(load_library()), "skills": sorted(skills),
                           "commands": [{"name": p.name, "label": p.label, "help": p.help,
                                         "fields": [[f.name, f.kind, f.optional] for f in p.fields]}
                                        for p in commands.POWERS.values() if p.name not in ("quit",)]}
        return self._lists

    def report(self, seat: Seat) -> str | None:
        """The fight report (``replay --markdown``'s text) once the fight is over, as ``seat`` may read it
        (no hidden aspect named but to the GM); None before. Built when the end was published, so a
        read never waits for a change in flight."""
        with self._cond:
            if self._report is None:
                return None
            return self._report[0] if seats.sees_everything(seat) else self._report[1]


def _public(value: Any, redact) -> Any:
    """``value`` (a question's fields) with every text as the players' pages read it (``redact``)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [_public(v, redact) for v in value]
    if isinstance(value, dict):
        return {k: _public(v, redact) for k, v in value.items()}
    return value
