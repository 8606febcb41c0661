"""``fate-npc play``: the live table in a terminal. Players decide for their PCs (and may roll their
own dice); the tool plays every NPC, says why, and keeps the book. The GM may step in.

This module is a thin view over :class:`~.table.Table`, the model with no I/O: it prints the table's
feed and its questions, reads one line, and turns it into a typed answer or a GM command (the web
table, ``serve``, sends the same typed values from its pages). The save format lives in :mod:`.save`.
"""

from __future__ import annotations

import io
import os
import shutil
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ..content.paths import OutputPathError, check_output
from ..content.safe_text import printable
from ..rules.dice import DiceError, check_faces, faces_for_total
from . import autopilot as ap
from . import commands, said, state_panel, table_menu
from .answers import Accept, Auto, Choose, Dice, Name, Override, Refuse
from .powers import library_text, load_library
from .questions import Question
from .refusals import Refused, SaveExists
from .save import (READ_VERSIONS, SAVE_KIND, SAVE_VERSION, SessionError, SessionLog, checksum,  # noqa: F401
                   default_autosave)
from .seats import GM
from .table import Table

#: what /help shows: the answers a question takes, then every GM command (from commands.POWERS)
HELP = "\n".join([
    "  number or short form (e.g. 1, attack:og:Fight)  choose an option;  more  all the options",
    "  Enter                 take the option marked (proposed)",
    "  auto                  let the scripted policy choose for this PC",
    "  (NPC decisions)       play themselves; at a GM gate (or paused) Enter accepts, 'o' or a number overrides",
    "  /state                show the whole scene (handles: #7 for an aspect; a character's id or name)",
    *commands.help_lines(),
    "  /help                 this list"])
#: entries of a save that are GM powers
GM_POWERS = commands.LOGGED


class Session:
    """``play``'s terminal over one :class:`Table`. The table's state reads through
    (``session.play``, ``session.log``, ``session.humans``, ...)."""

    def __init__(self, log: SessionLog, inp: TextIO, out: TextIO, ask_dice: bool | None = None,
                 autosave: str | os.PathLike | None = None, autopilot: ap.Autopilot | None = None):
        self.table = Table(log, autosave=autosave, autopilot=autopilot)
        self.inp, self.out = inp, out
        self.width, self.rows = _window(out)
        self._printed = len(self.table.feed)
        self.table.on_wait = self._flush  # a rehearsal's line is printed before the wait, not after it
        self._drawn = 0  # the seq of the question last drawn (its menu is drawn once)

    def __getattr__(self, name: str) -> Any:
        if name == "table":
            raise AttributeError(name)
        return getattr(self.table, name)

    # -- io -------------------------------------------------------------------------------
    def _say(self, text: str = "") -> None:
        lines = printable(text, keep="\n").split("\n")  # a name's escape codes shown, not obeyed
        self.out.write("".join(f"{line}\n" for raw in lines for line in _fit(raw, self.width)))
        self.out.flush()

    def _input(self, prompt: str) -> str:
        *before, last = _fit(printable(prompt), self.width)
        self.out.write("".join(f"{line}\n" for line in before) + last)
        self.out.flush()
        line = self.inp.readline()
        if line == "":
            raise EOFError
        return line.strip()

    def _flush(self) -> None:
        """Print what the table said since the last flush."""
        feed = self.table.feed
        self._printed = min(self._printed, len(feed))  # a change put back took its lines with it
        for line in feed[self._printed:]:
            self._say(line.terminal if line.terminal is not None else line.text)
        self._printed = len(feed)

    def show_state(self) -> None:
        """``/state``: the whole board, in the window's width, a page at a time on a terminal."""
        buf = io.StringIO()
        state_panel.render(self.table.play, self.table.narrator, buf, self.width or 110,
                           terminal=self.width is not None)
        self._page(buf.getvalue().rstrip("\n").split("\n"), raw=True)

    def show_short(self) -> None:
        self._say("\n".join(state_panel.short(self.table.play, self.table.narrator, self.width or 100)))

    def _page(self, lines: list[str], raw: bool = False) -> None:
        """Print ``lines`` a window at a time on a terminal (Enter: the next page; q: stop), all at once
        elsewhere. ``raw``: already fitted and coloured (rich's own drawing)."""
        if not raw:
            lines = [f for line in lines for f in _fit(printable(line), self.width)]
        step = (self.rows - 2) if self.rows else len(lines) or 1
        for start in range(0, len(lines), step):
            self.out.write("".join(f"{line}\n" for line in lines[start:start + step]))
            self.out.flush()
            if start + step < len(lines) and self._input(
                    f"  -- {start + step} of {len(lines)} lines: Enter for more, q to stop -- ").lower() == "q":
                break

    def state_lines(self) -> list[str]:
        """The state panel as plain lines."""
        return state_panel.text(self.table.play, self.table.narrator).rstrip("\n").split("\n")

    # -- the loop ---------------------------------------------------------------------------
    def run(self) -> None:
        t = self.table
        self._say(f"== {t.scene.title} ==  (type /help for commands)")
        if t.autosave_path is not None:
            self._say(f"(seed {t.log.seed}; saved after every step to {t.autosave_path})")
        self._say(f"({ap.describe(t.autopilot)})")
        self._say("\n".join(state_panel.brief(t.play, t.narrator, self.width or 100)))
        try:
            while True:
                try:
                    q = t.advance()
                    self._flush()
                    if q is None:
                        return
                    self._ask(q)
                except KeyboardInterrupt:
                    self._flush()
                    t.autopilot.paused = True
                    self._say("\n  (interrupted: nothing half-applied; the autopilot is paused, so each NPC "
                              "decision waits for Enter: /go lets them play again. /quit saves and stops)")
        except EOFError:
            self._flush()
            where = f"; saved in {t.autosave_path}" if t.autosave_path and not t.autosave_failed else ""
            self._say(f"\n(input ended{where})")

    def _draw(self, q: Question) -> None:
        """A question as the terminal shows it, once per question."""
        t = self.table
        name = t.narrator.name(q.actor)
        if q.kind == "decision" and not q.for_npc:
            self._say(f"\n{name} decides ({q.decision}):")
        if q.kind == "gate" or (q.for_npc and not q.overriding):
            self._say(f"  ({name}: {q.move}; {q.reason})")
            if q.gate or q.paused:  # on a line of its own: what stopped the table
                self._say(f"  GM gate: {q.gate}." if q.gate else "  (paused)")
        if q.kind == "offer":
            self._say(f"  [the NPCs propose compelling {name}'s {q.names[0]} — {q.reason}]")
        if q.kind == "decision":
            if q.about:
                self._say(f"  ({q.about})")
            if q.standing:
                self._say(f"  ({q.standing})")
            if q.hit:
                by = f" from {q.hit['by']}" if q.hit["by"] else ""
                self._say(f"  (a {q.hit['shifts']}-shift hit{by} on {q.hit['track']} stress)")
            self._say("\n".join(table_menu.render(table_menu.short(q.items, q.decision), len(q.items))))
        if q.kind == "name" and q.role == "advantage":
            self._say(f"  {name} creates an aspect: {q.names[0]}. Name it in your own words (Enter keeps it)")
        elif q.kind == "name":
            others = ", ".join(f"{i + 2}: {n}" for i, n in enumerate(q.names[1:]))
            by = f" from {q.blow}'s blow" if q.blow else ""
            self._say(f"  {name} takes a {q.role} consequence{by}. Name it"
                      + (f" ({others}, or type a name)" if others else " (or type a name)"))

    def _prompt(self, q: Question) -> str:
        if q.kind == "decision":
            if q.for_npc:
                return "  GM's choice> "
            return f"  [Enter: {q.proposal + 1}]> " if q.proposal is not None else "> "
        if q.kind == "gate":
            return "  Enter to accept, o to override: "
        if q.kind == "name":
            return f"  Enter for '{q.names[0]}': "
        if q.kind == "compel":
            return f"  {self.table.narrator.name(q.actor)}: accept the compel on {q.names[0]} (a) or refuse it (r)? "
        if q.kind == "offer":
            return f"  GM: compel {self.table.narrator.name(q.actor)}'s {q.names[0]}? offer it (a) or let it go (r): "
        return (f"  {self.table.narrator.name(q.actor)} rolls {q.roll}: four faces (+ - 0 +) "
                "or a total from -4 to 4: ")

    def _ask(self, q: Question) -> None:
        """Draw the question (once), read one line and apply it; a refusal is said with its reason."""
        if self._drawn != q.seq:
            self._drawn = q.seq
            self._draw(q)
        line = said.parse(self._input(self._prompt(q)))
        try:
            if line.is_command:
                self._command(line)
                return
            answer = self._read(q, line.text)
            if answer is not None:
                self.table.answer(GM, q.seq, answer)
        except Refused as exc:
            self._flush()
            self._say(f"  ! {exc}")

    def _read(self, q: Question, text: str):
        """A typed line as the answer it means (None: nothing to apply, e.g. ``more`` was shown)."""
        if q.kind == "dice":
            try:
                return Dice(parse_dice(text))
            except DiceError as exc:
                raise Refused(str(exc)) from None
        if q.kind in ("compel", "offer"):
            if text.lower() in ("a", "accept", "y", "yes"):
                return Accept()
            if text.lower() in ("r", "refuse", "n", "no"):
                return Refuse()
            raise Refused("a (accept: gain a fate point) or r (refuse: pay one)" if q.kind == "compel"
                          else "a (offer the compel to the player) or r (let it go)")
        if q.kind == "name":
            if text in ("", "auto"):
                return Auto()
            if text.isascii() and text.isdigit():
                return Name(number=int(text))
            return Name(text)
        if text == "more":
            items = q.items or table_menu.build(self.table.play, self.table.play.pending, self.table.narrator,
                                                self.table.helper, q.proposal)
            self._page(table_menu.render(items, len(items)))
            return None
        npc = q.kind == "gate" or q.for_npc
        if npc and text in ("", "auto"):
            return Accept()
        if q.kind == "gate" and text == "o":
            return Override()
        if not npc and text == "auto":
            return Auto()
        if not npc and text == "" and q.proposal is not None:  # Enter takes the proposal, as a gate's Enter does
            return Choose(q.proposal + 1)
        if not npc and text == "":
            raise Refused("type the number of an option, its short form, more, auto, or /help")
        return Choose(self._choice(text))

    def _choice(self, text: str) -> int:
        keys = self.table.play.pending.keys()
        if text.isascii() and text.isdigit():
            n = int(text)
            if 1 <= n <= len(keys):
                return n
            raise Refused(f"{n} is not an option; choose 1 to {len(keys)}")
        matches = [i for i, k in enumerate(keys) if k == text] or [i for i, k in enumerate(keys) if k.startswith(text)]
        if len(matches) == 1:
            return matches[0] + 1
        raise Refused(f"{text!r} is {'ambiguous' if matches else 'not an option'}; type a number, a short form, "
                      "more, or /help")

    def _command(self, line: said.Said) -> None:
        """A GM command typed at the terminal (the terminal's keyboard is the GM's)."""
        name, args = line.command, list(line.args)
        if name == "help":
            self._page(HELP.split("\n"))
            self._drawn = 0  # the question again, below the list (whether it was read to its end or left with q)
            return
        if name == "state":
            self.show_state()
            self._drawn = 0  # the question again, below the board
            return
        if name == "add" and args in (["?"], []):
            self._say(library_text(self.table))
            return
        try:
            cmd = commands.from_words(name, args)
        except commands.CommandError as exc:
            raise Refused(str(exc)) from None
        try:
            self.table.command(GM, cmd)
        except SaveExists as exc:
            self._flush()
            self._replace_or_keep(exc.path)
        self._flush()

    def _replace_or_keep(self, path: str) -> None:
        """A save to a file this session did not write: replaced only if the GM says yes."""
        if self._input(f"  {path} exists and is not this session's: replace it? [y/N] ").strip().lower() in ("y", "yes"):
            self.table.save(path, replace=True)
        else:
            self._say(f"  (not saved: {path} is kept as it was)")

    # -- what tests and serve reach through the session --------------------------------------
    def save(self, path: str) -> None:
        """Save (``--save`` at the end): what the table says about it is printed, nothing before it."""
        self._printed = max(self._printed, len(self.table.feed))
        try:
            self.table.save(path)
        except SaveExists as exc:
            self._replace_or_keep(exc.path)
        self._flush()


def _window(out: TextIO) -> tuple[int | None, int | None]:
    """(columns, rows) of the terminal ``out`` is, or (None, None) for a pipe or a file (never wrapped)."""
    if not (hasattr(out, "isatty") and out.isatty()):
        return None, None
    size = shutil.get_terminal_size((100, 24))
    return max(40, size.columns), max(10, size.lines)


def _fit(line: str, width: int | None) -> list[str]:
    """``line`` in lines of at most ``width`` columns (continuations indented under its text)."""
    if width is None or len(line) <= width:
        return [line]
    indent = " " * min(len(line) - len(line.lstrip(" ")) + 4, width // 3)
    return textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=True, break_on_hyphens=False,
                         drop_whitespace=True) or [line[:width]]


def parse_dice(text: str) -> tuple[int, ...]:
    """``+ - 0 +`` (or ``+-0+``), or a total from -4 to 4."""
    t = text.replace(" ", "")
    if (t.lstrip("+-").isascii() and t.lstrip("+-").isdigit()) and (len(t) <= 2):
        return faces_for_total(int(t))
    symbols = {"+": 1, "-": -1, "0": 0}
    if len(t) != 4 or any(ch not in symbols for ch in t):
        raise DiceError(f"{text!r}: expected four faces like '+ - 0 +', or a total like -2")
    return check_faces([symbols[ch] for ch in t])


@dataclass(frozen=True)
class SessionSetup:
    """What a session opens on: a scene (``scene`` with ``rules`` and ``seed``) or the save it resumes
    (``resume``), who controls whom, how dice are rolled, the files it writes and what stops the table.

    ``save`` is checked before anything starts (an existing file only with ``force``). ``autosave``:
    True saves after every step next to ``save`` (``FILE.autosave``) or at a new
    :func:`default_autosave`; a path saves there; None or False does not autosave. The file resumed
    from is only read: the session goes on in its autosave. ``autopilot``: what stops the table
    (default: ``configs/autopilot.yaml``)."""

    scene: str | None
    seed: int
    controls: dict[str, str] = field(default_factory=dict)
    dice: str = "auto"
    save: str | None = None
    resume: str | None = None
    rules: str | None = None
    autosave: str | os.PathLike | None | bool = True
    force: bool = False
    autopilot: ap.Autopilot | None = None


def run_session(setup: SessionSetup, inp: TextIO, out: TextIO) -> Session:
    """Start or resume a session and play it to its end (or until the input ends or /quit)."""
    s = open_session(setup, inp, out)
    try:
        s.run()
        finish_session(s, setup.save, out)
    finally:
        s.release()
    return s


def open_session(setup: SessionSetup, inp: TextIO, out: TextIO) -> Session:
    """A session ready to run (``run_session``'s set-up; ``serve`` runs it in a thread of its own):
    outputs checked, the save resumed or a new log, the autosave chosen, the files it writes held."""
    save, resume, autosave, force = setup.save, setup.resume, setup.autosave, setup.force
    inputs = [resume] if resume else []
    if save:
        check_output(save, "--save", force, inputs=inputs)
    if resume:
        log = SessionLog.load(resume)
    else:
        log = SessionLog(setup.scene, setup.rules, setup.seed, dict(setup.controls), setup.dice)
    derived = autosave is True  # a path given here is the caller's own choice
    if derived:
        # a resumed session goes on in a new autosave: the file it came from is never written
        autosave = Path(f"{save}.autosave") if save and not resume else default_autosave(log.scene, log.seed)
        try:
            autosave.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            pass  # reported at the first autosave
    if autosave:
        check_output(autosave, "autosave", force=force or not derived, inputs=inputs, hint="--force (with --save)")
    autopilot = setup.autopilot if setup.autopilot is not None else ap.load()
    s = Session(log, inp, out, autosave=autosave or None, autopilot=autopilot)
    try:
        if save:
            s.hold(save, "--save")
        if autosave:
            s.hold(autosave, "autosave")
    except BaseException:
        s.release()
        raise
    return s


def finish_session(s: Session, save: str | None, out: TextIO) -> None:
    """At the session's end: write ``--save`` (a path that cannot be written is said, not raised)."""
    if save:
        try:
            s.save(save)
        except OutputPathError as exc:
            out.write(f"  ! {exc}\n")


__all__ = ["Session", "SessionLog", "SessionError", "run_session", "open_session", "finish_session", "parse_dice", "HELP"]
