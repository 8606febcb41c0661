"""A live session hosted for the web: ``play``'s own :class:`~fate_env.live.session.Session`, run in
a thread of its own, reading its answers from the pages instead of a keyboard.

The session is exactly the terminal's: the same prompts, the same checks of every answer, the same
log, autosave, undo and save format (a save from either resumes in the other). What the host adds:

* **one prompt at a time, numbered**: each time the session asks for a line, the prompt gets the
  next number (``seq``); an answer names the number it answers, so an answer typed for a prompt
  that has since gone (another tab answered first, an undo, a GM power) is refused with the reason,
  never applied to the prompt that replaced it;
* **who may answer what**: the GM answers anything and alone uses the GM's commands; a player
  answers only their PC's decisions and the naming of their PC's consequences; a spectator nothing;
* **a snapshot for the pages**: the narration so far, the short panel, and the pending decision's
  options (with odds) as data, read while the session waits, so it never sees a half-applied step.
"""

from __future__ import annotations

import io
import queue
import threading
from dataclasses import dataclass, field
from typing import Any

from ..content.safe_text import printable
from ..live import said, state_panel, table_menu
from ..live.session import Session, load_library
from ..rules.skills import DEFAULT_SKILLS

#: the longest answer a page may send (a GM's /aspect add with a long name fits)
MAX_ANSWER = 300
#: narration lines a snapshot carries (the page keeps its own scroll-back)
TAIL = 400


class Transcript(io.TextIOBase):
    """What the session prints, kept as lines (thread-safe): the pages' narration."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.lines: list[str] = []
        self._partial = ""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        with self._lock:
            parts = (self._partial + text).split("\n")
            self._partial = parts.pop()
            self.lines.extend(parts)
        return len(text)

    def prompt(self) -> str:
        """The text written since the last newline: the prompt the session waits at."""
        with self._lock:
            return self._partial

    def tail(self, n: int = TAIL) -> tuple[int, list[str]]:
        with self._lock:
            return len(self.lines), self.lines[-n:]


@dataclass
class Seat:
    """Who holds a link: the GM, the player of one PC (``pc``), or a spectator."""

    role: str
    pc: str | None = None


class AnswerRefused(ValueError):
    """An answer that was not applied, with the reason the page shows (and the HTTP status)."""

    def __init__(self, reason: str, status: int = 409):
        super().__init__(reason)
        self.status = status


@dataclass
class Prompt:
    """The prompt the session waits at."""

    seq: int
    text: str
    actor: str | None      # whose decision is pending (None: none, the fight is over)
    kind: str               # decision (a player's menu), gate (an NPC's move, the GM's), name, dice, other
    owner: str | None      # the PC whose player may answer it (None: the GM's alone)
    options: list[dict[str, Any]] = field(default_factory=list)
    standing: str | None = None


class Lines:
    """The session's input: blocks until a page's answer is put; counts the prompts. Each line
    carries the seat it came from (``said.GM`` or ``said.PLAYER``), which the session asks through
    ``typed_by`` before it runs a command: a second check behind the host's own."""

    def __init__(self, host: "TableHost") -> None:
        self.host = host
        self.q: queue.Queue[tuple[str, str]] = queue.Queue()
        self.last_by = said.PLAYER  # nothing read yet: no authority

    def put(self, text: str, by: str) -> None:
        self.q.put((text, by))

    def readline(self) -> str:
        self.host._waiting()
        line, self.last_by = self.q.get()
        return line


class TableHost:
    """One session, served: ``start`` runs it; ``snapshot`` and ``answer`` are the pages' view."""

    def __init__(self, session_factory) -> None:
        self.transcript = Transcript()
        self.lines = Lines(self)
        self._cond = threading.Condition()
        self.seq = 0
        self.waiting = False
        self.prompt: Prompt | None = None
        self.version = 0  # bumped whenever something a page shows changed
        self.session: Session = session_factory(self.lines, self.transcript)
        self.session.typed_by = lambda: self.lines.last_by
        # no path from a request reaches the file system: /save writes where the server was told
        held = list(self.session.locks)
        self.session.saves_fixed = True
        self.session.fixed_save = held[0] if held else None
        self.thread = threading.Thread(target=self._run, name="fate-npc-session", daemon=True)
        self.finished = False
        self.error: str | None = None
        self._shared: tuple[int, dict[str, Any]] | None = None  # (version, what every seat's snapshot shares)
        self._report: str | None = None
        self._lists: dict[str, Any] | None = None

    # -- the session's thread ------------------------------------------------------------
    def start(self) -> None:
        self.thread.start()
        with self._cond:
            self._cond.wait_for(lambda: self.waiting or self.finished, timeout=60)

    def _run(self) -> None:
        try:
            self.session.run()
        except Exception as exc:  # reported on the pages, never a dead server
            self.error = f"{type(exc).__name__}: {exc}"
        finally:
            with self._cond:
                self.finished = True
                self.waiting = False
                self.prompt = None
                self.version += 1
                self._cond.notify_all()

    def _waiting(self) -> None:
        """Called from the session's thread as it asks for a line: the state is settled now."""
        with self._cond:
            self.seq += 1
            self.prompt = self._describe(self.seq)
            self.waiting = True
            self.version += 1
            self._cond.notify_all()

    def _describe(self, seq: int) -> Prompt:
        s = self.session
        c = s.play
        d = c.pending
        text = self.transcript.prompt().strip()
        if d is None or c.over:
            return Prompt(seq, text, None, "other", None)
        who = d.actor
        pc = who if who in s.humans and not c.f[who].sheet.is_npc else None
        if text.startswith("Enter for '"):
            owner = self._named_owner()
            return Prompt(seq, text, who, "name", owner if owner in s.humans else None)
        if " rolls " in text and "four faces" in text:  # a PC's physical dice: its player's (the roller named)
            roller = next((cid for cid in sorted(s.humans, key=lambda x: -len(s.narrator.name(x)))
                           if f"{s.narrator.name(cid)} rolls " in text), None)
            return Prompt(seq, text, roller, "dice", roller)
        if text.startswith(">") and who in s.humans and s.menu is not None:  # the session's menu, as it showed it
            standing = table_menu.standing(c, who) if d.kind == "invoke" else None
            return Prompt(seq, text, who, "decision", pc, [_item(it) for it in s.menu], standing)
        if "GM's choice" in text and s.menu is not None:  # the GM overrides an NPC: the NPC's own choice marked
            return Prompt(seq, text, who, "decision", None, [_item(it) for it in s.menu])
        if "Enter to accept" in text:
            return Prompt(seq, text, who, "gate", None)
        return Prompt(seq, text, who, "other", None)

    def _named_owner(self) -> str | None:
        """Whose consequence is being named: the character named on the line before the prompt."""
        _, lines = self.transcript.tail(3)
        names = sorted(((self.session.narrator.name(cid), cid) for cid in self.session.play.f),
                       key=lambda nc: -len(nc[0]))  # "Thug 2" before "Thug"
        for line in reversed(lines):  # the line may follow the last prompt's "> " (an answer is not echoed)
            for name, cid in names:
                if f"{name} takes a " in line:
                    return cid
        return None

    # -- the pages' side ---------------------------------------------------------------
    def snapshot(self, seat: Seat) -> dict[str, Any]:
        """What ``seat``'s page shows now. The part every seat shares is built once per version (six
        pages refreshing at each change cost one build, not six)."""
        with self._cond:
            if self._shared is None or self._shared[0] != self.version:
                self._shared = (self.version, self._build_shared())
            shared = self._shared[1]
            p = self.prompt if self.waiting else None
            mine = p is not None and self._may_answer(seat, p)
            prompt = None if p is None else {**shared["prompt"], "yours": mine,
                                             "options": p.options if mine or seat.role == "gm" else []}
            out = {**shared, "role": seat.role, "pc": seat.pc, "prompt": prompt}
            if seat.role == "gm":
                out["gm"] = self._gm_lists()
            return out

    def _gm_lists(self) -> dict[str, Any]:
        """What the GM's forms offer besides the scene itself: who ``/add`` can bring in (the scene's
        reserves and the shipped library) and the skills a rating can name. Fixed for a session."""
        if self._lists is None:
            s = self.session
            skills = set(DEFAULT_SKILLS) | {k for c in s.scene.characters for k in c.skills}
            self._lists = {"reserves": [{"id": r.id, "name": r.name} for r in s.scene.reserves],
                           "library": sorted(load_library()), "skills": sorted(skills)}
        return self._lists

    def _build_shared(self) -> dict[str, Any]:
        s = self.session
        p = self.prompt if self.waiting else None
        count, lines = self.transcript.tail()
        settled = self.waiting or self.finished
        return {"version": self.version, "over": self.finished, "error": self.error, "lines": lines,
                "line_count": count, "title": s.scene.title,
                "panel": state_panel.short(s.play, s.narrator) if settled else [],
                "scene": state_panel.data(s.play, s.narrator) if settled else None,
                "prompt": None if p is None else {
                    "seq": p.seq, "text": p.text, "kind": p.kind, "actor": p.actor,
                    "decision": str(s.play.pending.kind) if s.play.pending else None,
                    "actor_name": s.narrator.name(p.actor) if p.actor else None, "standing": p.standing}}

    def _may_answer(self, seat: Seat, p: Prompt) -> bool:
        if seat.role == "gm":
            return True
        return seat.role == "player" and p.owner is not None and p.owner == seat.pc

    def answer(self, seat: Seat, seq: Any, text: Any) -> int:
        """Put one answer to prompt ``seq``; refused (AnswerRefused) if it is not this seat's to give,
        not the prompt now pending, or not a line a terminal could type. Returns the new version."""
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise AnswerRefused("'seq': expected the number of the prompt answered", 400)
        if not isinstance(text, str):
            raise AnswerRefused("'text': expected the answer as text", 400)
        # permissions first, on the line as the session will read it (said.parse), never on the raw text
        if seat.role == "spectator":
            raise AnswerRefused("a spectator's page answers nothing", 403)
        if said.parse(text).is_command and seat.role != "gm":
            raise AnswerRefused("the GM's commands need the GM's link", 403)
        if len(text) > MAX_ANSWER or "\n" in text or "\r" in text or printable(text) != text:
            raise AnswerRefused(f"'text': one printable line of at most {MAX_ANSWER} characters", 400)
        with self._cond:
            if self.finished:
                raise AnswerRefused("the session is over")
            p = self.prompt
            if not self.waiting or p is None or seq != p.seq:
                raise AnswerRefused(f"prompt {seq} is no longer pending (now: {p.seq if p else 'none'}); "
                                    "the page shows the one that is")
            if not self._may_answer(seat, p):
                raise AnswerRefused("this prompt is not yours to answer: "
                                    + (f"it is {self.session.narrator.name(p.owner)}'s player's" if p.owner
                                       else "it is the GM's"), 403)
            self.waiting = False
            self.version += 1
            self._cond.notify_all()
            self.lines.put(text + "\n", said.GM if seat.role == "gm" else said.PLAYER)
            return self.version

    def report(self) -> str | None:
        """The fight report (``replay --markdown``'s text) once the fight is over; None before."""
        from ..live.report import markdown
        with self._cond:
            if not (self.finished or self.session.play.over):
                return None
            if self._report is None:
                self._report = markdown(self.session.play)
            return self._report

    def stop(self) -> None:
        """End the session as Ctrl-D would: it saves (autosave) and the thread ends."""
        with self._cond:
            if self.finished:
                return
            self.waiting = False
        self.lines.put("", said.PLAYER)
        self.thread.join(timeout=30)


def _item(it: table_menu.Item) -> dict[str, Any]:
    return {"number": it.number, "group": it.group, "text": it.text, "odds": it.odds,
            "proposed": it.proposed, "line": it.line()}
