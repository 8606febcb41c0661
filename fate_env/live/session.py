"""``fate-npc play``: a live session. Players decide for their PCs (and may roll their own
dice); the tool plays every NPC, says why, and keeps the book. The GM may step in.

The whole session is a replayable log: the scene, the seed, who controls whom, and an
ordered list of entries, each a decision (with any physical dice rolled while it was
applied) or a GM power. Rebuilding from the log gives the same state; undo is the log
less its last decision, replayed.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, TextIO

from agents.base import controllers_for, make_controller

from ..content import npc_spec
from ..content.narrate import Narrator, summary
from ..content.paths import FileLock, OutputPathError, check_output, write_atomically
from ..content.safe_text import OneLineError, printable
from ..content.scenes import SceneError, config_dir, read_scene_data, scene_from_dict
from ..rules import events as ev
from ..rules.conflict import ConflictOver, IllegalChoice
from ..rules.dice import DiceError, check_faces, faces_for_total
from ..rules.engine import start
from ..rules.kinds import DecisionKind
from ..rules.options import DoneInvoking
from . import autopilot as ap
from . import consequence_names, handles, said, state_panel, table_menu

#: the save format written now; 2 (no kind, no checksum) is still read
SAVE_VERSION = 3
READ_VERSIONS = (2, 3)
#: what a session save says it is, so no other JSON (a resolve log, a bench report) is taken for one
SAVE_KIND = "fate-npc session"

HELP = """\
  number or short form (e.g. 1, attack:og:Fight)  choose an option;  more  all the options
  auto                  let the scripted policy choose for this PC
  (NPC decisions)       play themselves; at a GM gate (or paused) Enter accepts, 'o' or a number overrides
  /pause  /go           stop the NPCs at each decision (Ctrl-C pauses too) / let them play again
  /step                 while paused: apply the pending NPC decision as proposed
  /override             take back the NPCs' last move (and all after it) and choose it yourself
  /takeover CHARACTER   you decide for that NPC from now on;  /release CHARACTER  the tool plays it again
  /state                show the whole scene (handles: #7 for an aspect; a character's id or name)
  /aspect add NAME [@ZONE]   /aspect remove ASPECT
  /compel CHARACTER ASPECT [refuse]
  /fp CHARACTER +N|-N   award or take back fate points (an NPC's go to the GM pool)
  /concede CHARACTER    that character gives in now (any time before the dice are rolled)
  /add WHO [@ZONE]      reinforcements: a reserve of the scene, a library NPC (/add ?) or a
                        one-line spec ('Thug x3: mob, Fight 2' or 'Og: major, Fight 4, ...')
  /remove CHARACTER     the character leaves the scene (not taken out, no payout)
  /move CHARACTER ZONE  put a character in a zone   /rating CHARACTER SKILL N   change a rating
  /boost CHARACTER NAME give a boost                /name ASPECT NAME   rename a consequence
  /undo                 take back the table's last answer (and the NPCs' moves after it)
  /save FILE            save the session;  /end  end the scene now
  /quit                 save and stop here (resume later with --resume);  /help"""

#: entries of a save that are GM powers, with what each needs (checked on load)
GM_POWERS = ("aspect", "compel", "fp", "end", "concede", "add", "remove", "move", "rating", "boost", "name")


class SessionError(OneLineError):
    """A session file that cannot be resumed."""


@dataclass
class SessionLog:
    """Everything a session needs to be rebuilt: the scene itself (so a resume never depends on
    the scene file still being there, or unchanged), the rule set, the seed, who controls whom,
    and the entries in the order they were applied."""

    scene: str
    rules: str | None
    seed: int
    controls: dict[str, str]
    dice: str = "auto"
    entries: list[dict[str, Any]] = field(default_factory=list)
    scene_data: Any = None
    scene_file: str | None = None

    def to_json(self) -> dict[str, Any]:
        body = {"version": SAVE_VERSION, "kind": SAVE_KIND, "scene": self.scene, "scene_file": self.scene_file,
                "scene_data": self.scene_data, "rules": self.rules, "seed": self.seed,
                "controls": self.controls, "dice": self.dice, "entries": self.entries}
        return {**body, "checksum": checksum(body)}

    @classmethod
    def load(cls, path: str) -> "SessionLog":
        """Read a save, checking every field: a truncated or edited file is refused with the reason."""
        from ..content.json_input import JSONInputError, load_json
        try:
            data = load_json(path, "session save")
        except JSONInputError as exc:
            raise SessionError(str(exc)) from None
        return cls.from_json(data, path)

    @classmethod
    def from_json(cls, data: Any, path: str = "<save>") -> "SessionLog":
        def bad(what: str) -> SessionError:
            return SessionError(f"{path}: {what}; was the save edited?")
        if not isinstance(data, dict):
            raise bad("expected a JSON object")
        _check_kind(data, path)
        if not isinstance(data.get("scene"), str):
            raise bad("'scene': expected the scene's name or path")
        seed = data.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise bad(f"'seed': expected a whole number >= 0, got {seed!r}")
        controls = data.get("controls", {})
        if not isinstance(controls, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                      for k, v in controls.items()):
            raise bad("'controls': expected a mapping of side or character to policy")
        if data.get("dice", "auto") not in ("auto", "physical"):
            raise bad(f"'dice': expected auto or physical, got {data.get('dice')!r}")
        if data.get("rules") is not None and not isinstance(data["rules"], str):
            raise bad("'rules': expected a rule set name")
        entries = data.get("entries", [])
        if not isinstance(entries, list):
            raise bad("'entries': expected a list")
        for i, e in enumerate(entries):
            _check_entry(e, i, bad)
        return cls(data["scene"], data.get("rules"), seed, dict(controls), data.get("dice", "auto"),
                   list(entries), data.get("scene_data"), data.get("scene_file"))


def checksum(body: dict[str, Any]) -> str:
    """The SHA-256 of a save's contents (everything but the checksum), in a canonical form: an edited
    die or decision no longer matches, so it is refused instead of replaying as another fight."""
    import hashlib
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return "sha256:" + hashlib.sha256(canonical.encode("ascii")).hexdigest()


def _check_kind(data: dict[str, Any], path: str) -> None:
    """A session save of a version this build reads, whose checksum matches; anything else is refused."""
    version = data.get("version")
    if "entries" not in data or version is None:
        what = ("the JSON of `fate-npc resolve --json` (replay it with `fate-npc replay`)"
                if {"choices", "seed"} <= set(data) else "another kind of file")
        raise SessionError(f"{path}: not a session save: {what}; expected a file written by "
                           "`fate-npc play` (--save, /save or its autosave)")
    if isinstance(version, bool) or version not in READ_VERSIONS:
        shown = repr(version) if len(repr(version)) <= 20 else repr(version)[:20] + "..."
        raise SessionError(f"{path}: a session save of version {shown}; this fate-npc reads versions "
                           f"{', '.join(map(str, READ_VERSIONS))} (a newer fate-npc may have written it)")
    if version >= 3:
        if data.get("kind") != SAVE_KIND:
            raise SessionError(f"{path}: 'kind': expected {SAVE_KIND!r}; not a session save")
        body = {k: v for k, v in data.items() if k != "checksum"}
        if data.get("checksum") != checksum(body):
            raise SessionError(f"{path}: its checksum does not match its contents: the save was edited or "
                               "damaged after it was written (a changed die or decision would replay as "
                               "another fight), so it is not resumed")


def _check_entry(e: Any, i: int, bad) -> None:
    where = f"entry {i + 1}"
    if not isinstance(e, dict) or ("decision" in e) == ("gm" in e):
        raise bad(f"{where}: expected a decision or a GM power")
    if "decision" in e:
        if not isinstance(e["decision"], int) or isinstance(e["decision"], bool) or e["decision"] < 0:
            raise bad(f"{where}: 'decision' must be an option number >= 0")
    else:
        gm = e["gm"]
        if not (isinstance(gm, dict) and isinstance(gm.get("power"), str) and isinstance(gm.get("args"), list)
                and all(isinstance(a, str) for a in gm["args"])):
            raise bad(f"{where}: 'gm' must hold a power and its arguments")
    dice = e.get("dice", [])
    if not isinstance(dice, list) or not all(isinstance(f, list) and len(f) == 4 and all(x in (-1, 0, 1) for x in f)
                                             for f in dice):
        raise bad(f"{where}: 'dice' must be lists of four faces, each -1, 0 or 1")


def default_autosave(scene: str, seed: int) -> Path:
    """Where a session saves itself after every step when no --save is given: a name of its own
    (scene, seed, start time and a random tag), so no session ever writes over another's."""
    import secrets
    import time
    base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state") / "fate-npc"
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return base / f"{Path(scene).stem}-seed{seed}-{stamp}-{secrets.token_hex(3)}.json"


class Session:
    def __init__(self, log: SessionLog, inp: TextIO, out: TextIO, ask_dice: bool | None = None,
                 autosave: str | os.PathLike | None = None, autopilot: ap.Autopilot | None = None):
        self.log = log
        self.autopilot = autopilot if autopilot is not None else ap.Autopilot()
        #: the next decision is asked of the table even if it would play itself (after /undo, /override)
        self._ask_next = False
        #: set by the web table: /save writes only to ``fixed_save`` (its --save, else its autosave), never a
        #: path typed on a page
        self.saves_fixed = False
        #: the menu of the decision being asked (a player's, or the GM's override), as shown: the web table
        #: draws the same items instead of working out every option's odds a second time
        self.menu: list[table_menu.Item] | None = None
        self.fixed_save: Path | None = None
        self.inp, self.out = inp, out
        #: who typed the line just read: the terminal's keyboard is the GM's; the web table says whose
        #: page it came from, and a GM command from any page but the GM's is never run
        self.typed_by: Callable[[], str] = lambda: said.GM
        self.autosave_path = Path(autosave) if autosave is not None else None
        self._autosave_failed = False
        self.locks: dict[Path, FileLock] = {}  # the files this session writes, held against other sessions
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
        self.rebuild()

    # -- state ------------------------------------------------------------------
    def rebuild(self) -> None:
        """Replay the log from the start (resume and undo both come here). An entry that no longer
        applies (an edited save) is refused with its number, and nothing is kept of the replay."""
        self.play = start(self.scene, self.log.seed)
        self.narrator = Narrator(self.scene)
        self._pending_dice: list[list[int]] = []
        self._wire_dice(replaying=True)
        for i, entry in enumerate(self.log.entries):
            self._replay_dice = [tuple(f) for f in entry.get("dice", [])]
            try:
                if "decision" in entry:
                    self.play.step(entry["decision"], entry.get("reason", ""))
                else:
                    self._gm(entry["gm"], record=False)
            except (IllegalChoice, ConflictOver, ValueError, IndexError, KeyError) as exc:
                raise SessionError(f"entry {i + 1} of the session no longer applies ({exc}); "
                                   "was the save edited?") from None
        self._wire_dice(replaying=False)
        # every consequence taken so far has the name the log gave it
        self.named = {a.id for a in self.play.aspects.values() if a.kind == "consequence"}
        # a new session narrates from its first exchange (its own header replaces the opening line)
        self.shown = len(self.play.events) if self.log.entries else 1
        if self.log.entries:
            self.narrator.lines(self.play.events)  # learn the names of characters the GM added
        self.show_all = False

    def _wire_dice(self, replaying: bool) -> None:
        dice = self.play.dice
        if self.log.dice != "physical":
            dice.provider = dice.wants = None
            return
        dice.wants = lambda who: who in self.humans
        if replaying:
            dice.provider = lambda who, what: self._replay_dice.pop(0)
        else:
            dice.provider = self._ask_dice

    def _ask_dice(self, who: str, what: str) -> tuple[int, ...]:
        name = self.narrator.name(who)
        while True:
            text = self._input(f"  {name} rolls {what}: four faces (+ - 0 +) or a total from -4 to 4: ")
            try:
                faces = parse_dice(text)
            except DiceError as exc:
                self._say(f"  ! {exc}")
                continue
            self._pending_dice.append(list(faces))
            return faces

    # -- io ---------------------------------------------------------------------
    def _say(self, text: str = "") -> None:
        self.out.write(printable(text, keep="\n") + "\n")  # a name's escape codes shown, not obeyed
        self.out.flush()

    def _input(self, prompt: str) -> str:
        self.out.write(printable(prompt))
        self.out.flush()
        line = self.inp.readline()
        if line == "":
            raise EOFError
        return line.strip()

    def _narrate(self) -> None:
        """The events since the last call; the state panel after each exchange that ended."""
        new = self.play.events[self.shown:]
        for line in self.narrator.lines(new):
            self._say(line)
        self.shown = len(self.play.events)
        if any(type(e) is ev.ExchangeStarted and e.exchange > 1 for e in new) and not self.play.over:
            self.show_short()

    def show_state(self) -> None:
        state_panel.render(self.play, self.narrator, self.out)
        self.out.flush()

    def show_short(self) -> None:
        """The panel in a few lines (after each exchange): who is where, hurt and with what to spend."""
        self._say("\n".join(state_panel.short(self.play, self.narrator)))

    def state_lines(self) -> list[str]:
        """The state panel as plain lines."""
        return state_panel.text(self.play, self.narrator).rstrip("\n").split("\n")

    # -- the loop ---------------------------------------------------------------
    def run(self) -> None:
        self._say(f"== {self.scene.title} ==  (type /help for commands)")
        if self.autosave_path is not None:
            self._say(f"(seed {self.log.seed}; the session saves itself to {self.autosave_path} after every step)")
        self._say(f"({ap.describe(self.autopilot)})")
        self.show_state()
        try:
            while not self.play.over:
                self._narrate()
                try:
                    self._decide()
                except KeyboardInterrupt:
                    self.autopilot.paused = True
                    self._say("\n  (interrupted: nothing half-applied; the autopilot is paused, so each NPC "
                              "decision waits for Enter: /go lets them play again. /quit saves and stops)")
                except _Quit:
                    return
                except _Stepped:
                    continue
            self._narrate()
            self._say("")
            self._say("\n".join(summary(self.play.scene, self.play.outcome)))
        except EOFError:
            where = f"; saved in {self.autosave_path}" if self.autosave_path and not self._autosave_failed else ""
            self._say(f"\n(input ended{where})")

    def _decide(self) -> None:
        """Present the pending decision and apply one answer to it. After any command the
        decision is checked again: if an undo, a concession or the end changed what is pending,
        or a power made it anew (taking a fate point away drops the invokes it would pay for), we
        return and the loop presents the new decision (never answering a stale one)."""
        c = self.play
        d = c.pending
        human = d.actor in self.humans
        asked, self._ask_next = self._ask_next, False
        self.menu = None
        if human:
            if not asked and self._answer_obvious(d):
                return
            proposal, _ = self.helper.choose(c, d)
            items = self.menu = table_menu.build(c, d, self.narrator, self.helper, proposal)
            self._say(f"\n{self.narrator.name(d.actor)} decides ({d.kind}):")
            self._show_menu(d, items)
            prompt = "> "
        else:
            index, reason = self.controllers[d.actor].choose(c, d)
            items = None
            _, text = table_menu.words(c, d, self.narrator, d.options[index])
            gate = self.autopilot.gate(c, d, index)
            if not (asked or gate or self.autopilot.asks()):
                self._autoplay(d, index, reason, text)
                return
            stop = f"  GM gate: {gate}." if gate else "  (paused)" if self.autopilot.paused else ""
            self._say(f"  [{self.narrator.name(d.actor)}: {text} — {reason}]{stop}")
            prompt = "  Enter to accept, o to override: "
            if asked:  # /override: the GM chooses this one
                items = self.menu = table_menu.build(c, d, self.narrator, self.helper, index)
                self._show_menu(d, items)
                prompt = "  GM's choice> "
        while True:
            line = said.parse(self._input(prompt))
            text = line.text
            if line.is_command:
                if self.typed_by() != said.GM:
                    self._say("  ! the GM's commands need the GM's link")
                    continue
                self._command(line)
                if self.play is not c or c.pending is not d:
                    return
                continue
            if text == "more":
                items = items or table_menu.build(c, d, self.narrator, self.helper, None if human else index)
                self._say("\n".join(table_menu.render(items, len(items))))
                continue
            if human and text == "auto":
                index, reason = self.helper.choose(c, d)
                self._apply(index, f"(auto) {reason}")
                return
            if human and text == "":
                self._say("  ! type the number of an option, its short form, more, auto, or /help")
                continue
            if not human and text in ("", "auto"):
                self._apply(index, reason, by="gm")
                return
            if not human and text == "o":
                items = self.menu = table_menu.build(c, d, self.narrator, self.helper, index)
                self._show_menu(d, items)
                prompt = "  GM's choice> "
                continue
            choice = self._parse_choice(text, d)
            if choice is not None:
                self._apply(choice, "" if human else "the GM's call", by=None if human else "gm")
                return

    def _answer_obvious(self, d) -> bool:
        """A player's decision with one sensible answer (autopilot.obvious), if the table lets such
        answers go: said in a line, applied; /undo takes it back and asks it."""
        auto = ap.obvious(self.play, d) if self.autopilot.obvious else None
        if auto is None:
            return False
        index, said = auto
        if d.kind != DecisionKind.ABSORB:  # an absorb's reason is narrated with it
            self._say(f"  ({self.narrator.name(d.actor)} {said})")
        self._apply(index, f"(one answer) {said}", by="obvious")
        return True

    def _autoplay(self, d, index: int, reason: str, text: str) -> None:
        """An NPC's decision applied by the autopilot; a line of its own only where the narration
        does not already tell it (an invoke made, a style or cost chosen, a concession answered)."""
        if d.kind not in ap.NARRATED and type(d.options[index]) is not DoneInvoking:
            self._say(f"  [{self.narrator.name(d.actor)}: {text} — {reason}]")
        self._apply(index, reason, by="autopilot")

    def _show_menu(self, d, items) -> None:
        if d.kind == "invoke":
            where = table_menu.standing(self.play, d.actor)
            if where:
                self._say(f"  ({where})")
        self._say("\n".join(table_menu.render(table_menu.short(items, d.kind), len(items))))

    def _parse_choice(self, text: str, d) -> int | None:
        keys = d.keys()
        if text.isascii() and text.isdigit():
            n = int(text)
            if 1 <= n <= len(keys):
                return n - 1
            self._say(f"  ! {n} is not an option; choose 1 to {len(keys)}")
            return None
        matches = [i for i, k in enumerate(keys) if k == text] or [i for i, k in enumerate(keys) if k.startswith(text)]
        if len(matches) == 1:
            return matches[0]
        self._say(f"  ! {text!r} is {'ambiguous' if matches else 'not an option'}; type a number, a short form, "
                  "more, or /help")
        return None

    def _apply(self, index: int, reason: str, by: str | None = None) -> None:
        """Take a decision. Physical dice may be asked for while it applies; if the input ends or
        the GM interrupts then, the half-taken step is dropped by replaying the log (all or nothing).
        ``by``: who answered, kept in the entry so /undo and /override know whose it was: "autopilot"
        (an NPC's, not asked), "gm" (an NPC's, asked of the GM), "obvious" (a player's one sensible
        answer, not asked); none: a player's."""
        self._pending_dice = []
        try:
            self.play.step(index, reason)
        except (EOFError, KeyboardInterrupt):
            self.rebuild()
            raise
        entry: dict[str, Any] = {"decision": index}
        if reason:
            entry["reason"] = reason
        if by:
            entry["by"] = by
        if self._pending_dice:
            entry["dice"] = self._pending_dice
        self.log.entries.append(entry)
        self._autosave()
        self._name_consequences()

    def _name_consequences(self) -> None:
        """Each consequence just taken gets its name from the table: a suggestion (Enter), one of
        the others by number, or the GM's own words. Recorded like any GM power."""
        for a in list(self.play.aspects.values()):
            if a.kind != "consequence" or a.id in self.named:
                continue
            self.named.add(a.id)
            options = consequence_names.suggest(self.play, a.id)
            if a.owner not in self.humans and not self.autopilot.asks():  # the autopilot names its NPCs' wounds
                self._say(f"  ({self.narrator.name(a.owner)}'s {a.role} consequence is {options[0]}: "
                          f"/name #{a.id} NAME renames it)")
                if options[0] != a.name:
                    self._gm({"power": "name", "args": [str(a.id), options[0]]}, record=True)
                continue
            others = ", ".join(f"{i + 2}: {n}" for i, n in enumerate(options[1:]))
            who = self.narrator.name(a.owner)
            by = f" from {self.narrator.name(a.creator)}'s blow" if a.creator in self.play.f else ""
            self._say(f"  {who} takes a {a.role} consequence{by}. Name it"
                      + (f" ({others}, or type a name)" if others else " (or type a name)"))
            while True:
                text = self._input(f"  Enter for '{options[0]}': ")
                if text in ("", "auto"):
                    name = options[0]
                elif text.isascii() and text.isdigit() and 1 <= int(text) <= len(options):
                    name = options[int(text) - 1]
                elif said.parse(text).is_command or (text.isascii() and text.isdigit()):
                    self._say(f"  ! a name for the consequence, or 1 to {len(options)}")
                    continue
                else:
                    name = text
                break
            if name != a.name:
                self._gm({"power": "name", "args": [str(a.id), name]}, record=True)

    def _autosave(self) -> None:
        """After every applied entry: a crash never loses more than the step in flight."""
        if self.autosave_path is None:
            return
        try:
            write_atomically(self.autosave_path, json.dumps(self.log.to_json(), indent=1))
        except OSError as exc:
            if not self._autosave_failed:
                self._say(f"  ! cannot autosave to {self.autosave_path} ({exc.strerror or exc}); "
                          "use /save FILE to keep the session")
            self._autosave_failed = True

    # -- GM powers ----------------------------------------------------------------
    def _command(self, line: said.Said) -> None:
        cmd, args = line.command, list(line.args)
        try:
            if cmd == "help":
                self._say(HELP)
            elif cmd == "state":
                self.show_state()
            elif cmd == "undo":
                self.undo()
            elif cmd in ("pause", "go"):
                self.autopilot.paused = cmd == "pause"
                self._say("  (paused: each NPC decision waits for Enter, or /step; /go lets them play)"
                          if cmd == "pause" else "  (the NPCs play themselves again)")
            elif cmd == "step":
                self.step_npc()
            elif cmd == "override":
                self.override()
            elif cmd in ("takeover", "release"):
                if len(args) < 1:
                    raise ValueError(f"usage: /{cmd} CHARACTER")
                self.seat(handles.character(self.play, self.narrator, " ".join(args)), cmd == "takeover")
            elif cmd == "save":
                self.save(self._save_target(args))
            elif cmd == "quit":
                self.save(str(self.autosave_path) if self.autosave_path else self._save_target([]))
                raise _Quit
            elif cmd == "add" and args in (["?"], []):
                self._say(self._library_text())
            elif cmd in GM_POWERS:
                self._gm({"power": cmd, "args": self._resolve(cmd, args)}, record=True)
            else:
                self._say(f"  ! unknown command /{cmd}; /help lists them")
        except (ValueError, IndexError, ConflictOver, OutputPathError, SceneError) as exc:
            self._say(f"  ! {exc}")
            return
        if cmd in GM_POWERS and not self.play.over:
            self._narrate()  # what the power did, at once: the GM should not wait a step to see it

    def _save_target(self, args: list[str]) -> str:
        """Where ``/save`` writes: the file typed; with ``fixed_save`` (the web table: no path from a
        request reaches the file system) only the file the server was told, and a typed one is refused."""
        if not self.saves_fixed:
            return " ".join(args) if args else "session.json"
        if self.fixed_save is None:
            raise ValueError("this table was started without a save file (serve --save FILE), so it cannot save")
        if args:
            raise ValueError(f"the web table saves only where the server was told: /save with no file name "
                             f"writes {self.fixed_save}")
        return str(self.fixed_save)

    def _resolve(self, cmd: str, args: list[str]) -> list[str]:
        """A command's words as the GM typed them -> the arguments the log keeps (ids, not
        handles or name prefixes, so a replay never depends on how they were typed)."""
        usage = {"compel": "/compel CHARACTER ASPECT [refuse]", "fp": "/fp CHARACTER +N|-N",
                 "concede": "/concede CHARACTER", "remove": "/remove CHARACTER", "move": "/move CHARACTER ZONE",
                 "rating": "/rating CHARACTER SKILL N", "boost": "/boost CHARACTER NAME",
                 "name": "/name ASPECT NAME", "add": "/add WHO [@ZONE]"}
        need = {"compel": (2, 3), "fp": (2, 2), "concede": (1, 1), "remove": (1, 1), "move": (2, 99), "rating": (3, 99),
                "boost": (2, 99), "name": (2, 99), "add": (1, 99)}
        if cmd in need and not need[cmd][0] <= len(args) <= need[cmd][1]:
            raise ValueError(f"usage: {usage[cmd]}")
        if cmd == "aspect":
            if args[:1] == ["remove"] and len(args) == 2:
                return ["remove", str(handles.aspect(self.play, args[1]))]
            return args
        if cmd == "compel":
            return [handles.character(self.play, self.narrator, args[0]),
                    str(handles.aspect(self.play, args[1])), *args[2:]]
        if cmd in ("fp", "concede", "remove", "boost"):
            return [handles.character(self.play, self.narrator, args[0]), *([" ".join(args[1:])] if args[1:] else [])]
        if cmd == "move":
            return [handles.character(self.play, self.narrator, args[0]),
                    handles.zone(self.narrator, " ".join(args[1:]))]
        if cmd == "rating":
            if not (args[-1].lstrip("-").isascii() and args[-1].lstrip("-").isdigit()):
                raise ValueError(f"usage: {usage[cmd]} (N a whole number)")
            return [handles.character(self.play, self.narrator, args[0]), " ".join(args[1:-1]), args[-1]]
        if cmd == "name":
            return [str(handles.aspect(self.play, args[0])), " ".join(args[1:])]
        if cmd == "add":
            zone = args[-1][1:] if args[-1].startswith("@") and ":" not in args[-1] else None
            who = " ".join(args[:-1] if zone is not None else args)
            cid, source = self._reinforcement(who)
            return [cid, source, handles.zone(self.narrator, zone) if zone else ""]
        return args

    def _gm(self, gm: dict[str, Any], record: bool) -> None:
        c = self.play
        power, args = gm["power"], list(gm["args"])
        if power == "aspect":
            if not args or args[0] not in ("add", "remove"):
                raise ValueError("usage: /aspect add NAME [@ZONE] or /aspect remove ASPECT")
            if args[0] == "add":
                zone = args[-1][1:] if args[-1].startswith("@") else None
                name = " ".join(a for a in args[1:] if not a.startswith("@"))
                aid = c.gm_add_aspect(name, zone)
                self._say(f"  (aspect #{aid} {name} is now in play)")
            else:
                if len(args) != 2:
                    raise ValueError("usage: /aspect remove ASPECT")
                c.gm_remove_aspect(int(args[1]))
        elif power == "compel":
            if len(args) not in (2, 3):
                raise ValueError("usage: /compel CHARACTER ASPECT [refuse]")
            who, aid = args[0], int(args[1])
            c.gm_compel(who, aid, accepted=not (len(args) > 2 and args[2] == "refuse"))
        elif power == "fp":
            if len(args) != 2:
                raise ValueError("usage: /fp CHARACTER +N|-N")
            c.gm_fate_points(args[0], int(args[1]))
        elif power == "end":
            c.gm_end()
        elif power == "concede":
            if len(args) != 1:
                raise ValueError("usage: /concede CHARACTER")
            c.concede(args[0], "conceded (the table's call)")
        elif power == "add":
            sheet = self._sheet(*args)
            c.gm_add_character(sheet)
            self._seat(sheet)
        elif power == "remove":
            c.gm_remove_character(args[0])
        elif power == "move":
            c.gm_move(args[0], args[1])
        elif power == "rating":
            c.gm_set_rating(args[0], args[1], int(args[2]))
        elif power == "boost":
            c.gm_boost(args[0], args[1])
        elif power == "name":
            c.gm_name_consequence(int(args[0]), args[1])
        else:
            raise ValueError(f"unknown GM power {power!r}")
        if record:
            self.log.entries.append({"gm": {"power": power, "args": gm["args"]}})
            self._autosave()

    # -- reinforcements -------------------------------------------------------------
    def _reinforcement(self, who: str) -> tuple[str, str]:
        """``/add WHO``: (a new id, where the character comes from): ``reserve:ID`` for one of the
        scene's reserves, else the one-line spec (typed, or a library entry's)."""
        reserves = {r.id: r for r in self.scene.reserves}
        library = load_library()
        if who in reserves:
            source, name = f"reserve:{who}", reserves[who].name
        elif who in library:
            source, name = library[who], npc_spec.parse(library[who])["name"]
        elif ":" in who:
            source, name = who, npc_spec.parse(who)["name"]
        else:
            raise ValueError(f"no reserve or library NPC {who!r} (/add ? lists them), and not a one-line spec "
                             "like 'Thug x3: mob, Fight 2'")
        return npc_spec.new_id(name, set(self.play.f) | {c.id for c in self.scene.characters}), source

    def _sheet(self, cid: str, source: str, zone: str = ""):
        """The character sheet ``/add`` brings in, checked like a scene file's characters."""
        if source.startswith("reserve:"):
            rid = source.split(":", 1)[1]
            sheet = next((r for r in self.scene.reserves if r.id == rid), None)
            if sheet is None:
                raise ValueError(f"no reserve {rid!r} in this scene")
            return self._named_apart(replace(sheet, id=cid, zone=zone or sheet.zone))
        try:
            spec = npc_spec.parse(source)
        except npc_spec.SpecError as exc:
            raise ValueError(str(exc)) from None
        if zone:
            spec["zone"] = zone
        spec.setdefault("zone", self.scene.zones[0].id)
        if "side" not in spec:
            npc_sides = {c.side for c in self.play.scene.characters if c.is_npc}
            if len(npc_sides) != 1 or spec["kind"] == "pc":
                raise ValueError("expected 'side: NAME' in the spec (no single NPC side to put it on)")
            spec["side"] = next(iter(npc_sides))
        data = dict(self.log.scene_data)
        data["characters"] = {**data["characters"], cid: spec}
        data.pop("reserves", None)
        scene = scene_from_dict(data, f"/add {source}", rules=self.log.rules)
        return self._named_apart(scene.character(cid))

    def _named_apart(self, sheet):
        """A character added under a name already at the table gets the number of its id
        (a second ``Thug`` is ``Thug 2``), so the narration and the GM can tell them apart."""
        names = {self.narrator.name(c).lower() for c in self.play.f if c != sheet.id}
        if sheet.name.lower() not in names:
            return sheet
        number = re.search(r"(\d+)$", sheet.id)
        n = int(number.group(1)) if number else 2
        while f"{sheet.name} {n}".lower() in names:
            n += 1
        return replace(sheet, name=f"{sheet.name} {n}")

    def _seat(self, sheet) -> None:
        """Who plays a character the GM added: the controls for its side, else its sheet's
        controller (NPCs) or the players (PCs)."""
        policy = self.log.controls.get(sheet.side) or ("human" if sheet.kind == "pc" else sheet.controller)
        if policy == "human":
            self.humans.add(sheet.id)
            policy = "basic"
        self.controllers[sheet.id] = make_controller(policy, self.log.seed)
        self.narrator.names[sheet.id] = sheet.name

    def _library_text(self) -> str:
        lines = ["  Reserves of this scene: " + (", ".join(f"{r.id} ({r.name})" for r in self.scene.reserves) or "none"),
                 "  Library NPCs:"]
        lines += [f"    {k:10} {v}" for k, v in load_library().items()]
        lines.append("  Or a one-line spec: /add Thug x3: mob, Fight 2 @dock")
        return "\n".join(lines)

    def undo(self) -> None:
        """Drop the table's last answer (a player's, or the GM's at a gate; the NPCs' moves and any
        GM power after it go with it), then replay; that decision is asked again, even if it is
        one that would play itself."""
        last = max((i for i, e in enumerate(self.log.entries) if "decision" in e and e.get("by") != "autopilot"),
                   default=None)
        if last is None:
            raise ValueError("nothing to undo: the table has answered nothing yet (/override takes back an NPC's move)")
        self._drop_from(last)
        self._say("  (the last answer is undone)")
        self.show_short()

    def override(self) -> None:
        """The GM takes back the NPCs' last move (and everything after it) and chooses it instead."""
        last = max((i for i, e in enumerate(self.log.entries) if e.get("by") in ("autopilot", "gm")), default=None)
        if last is None:
            raise ValueError("no NPC move to override yet")
        self._drop_from(last)
        self._say(f"  (taken back: {self.narrator.name(self.play.pending.actor)}'s move; choose it below)")

    def step_npc(self) -> None:
        """``/step``: apply the pending NPC decision as the autopilot proposes it (the autopilot stays paused)."""
        d = self.play.pending
        if d is None or d.actor in self.humans:
            raise ValueError("/step applies an NPC's decision; this one is the players'")
        index, reason = self.controllers[d.actor].choose(self.play, d)
        self._apply(index, reason, by="gm")
        raise _Stepped

    def seat(self, cid: str, gm: bool) -> None:
        """``/takeover`` (``gm``): the table decides for ``cid`` from now on; ``/release``: the tool
        plays it (an NPC by its sheet's controller, a PC by ``basic``). Kept in the save's controls."""
        sheet = self.play.f[cid].sheet
        if gm == (cid in self.humans):
            raise ValueError(f"{self.narrator.name(cid)} is {'already' if gm else 'not'} played by the table")
        if gm:
            self.humans.add(cid)
            self.log.controls[cid] = "human"
            self._say(f"  (you decide for {self.narrator.name(cid)} now; /release {cid} gives it back)")
        else:
            policy = sheet.controller if sheet.is_npc else "basic"
            self.humans.discard(cid)
            self.log.controls[cid] = policy
            self.controllers[cid] = make_controller(policy, self.log.seed)
            self._say(f"  ({self.narrator.name(cid)} is played by {policy} now)")
        self._autosave()

    def _drop_from(self, last: int) -> None:
        """Drop entries ``last`` on and replay; the decision then pending is asked of the table."""
        kept = self.log.entries[last:]
        del self.log.entries[last:]
        try:
            self.rebuild()
        except SessionError:
            self.log.entries.extend(kept)
            self.rebuild()
            raise
        self._autosave()
        self._ask_next = True

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

    def save(self, path: str) -> None:
        """Save the session; a path that cannot be written is refused with the reason (the
        session goes on). A file this session has not written is replaced only if the GM says yes."""
        ours = Path(path).absolute() in self.locks
        try:
            check_output(path, "save to", force=ours)
        except OutputPathError:
            if not Path(path).is_file():
                raise
            if self._input(f"  {path} exists and is not this session's: replace it? [y/N] ").strip().lower() \
                    not in ("y", "yes"):
                self._say(f"  (not saved: {path} is kept as it was)")
                return
        self.hold(path, "save to")
        try:
            write_atomically(path, json.dumps(self.log.to_json(), indent=1))
        except OSError as exc:
            raise OutputPathError(f"save to {path}: {exc.strerror or exc}") from None
        self._say(f"  (saved to {path}; resume with: fate-npc play --resume {path})")


def load_library() -> dict[str, str]:
    """The shipped NPC library (configs/library.yaml): name -> one-line spec."""
    from ..content.yaml_input import load_file
    path = config_dir() / "library.yaml"
    return {str(k): str(v) for k, v in (load_file(path, "NPC library") or {}).items()}


class _Quit(Exception):
    """/quit: stop the session here (it is saved)."""


class _Stepped(Exception):
    """/step applied the pending decision: the loop goes on to the next one."""


def parse_dice(text: str) -> tuple[int, ...]:
    """``+ - 0 +`` (or ``+-0+``), or a total from -4 to 4."""
    t = text.replace(" ", "")
    if (t.lstrip("+-").isascii() and t.lstrip("+-").isdigit()) and (len(t) <= 2):
        return faces_for_total(int(t))
    symbols = {"+": 1, "-": -1, "0": 0}
    if len(t) != 4 or any(ch not in symbols for ch in t):
        raise DiceError(f"{text!r}: expected four faces like '+ - 0 +', or a total like -2")
    return check_faces([symbols[ch] for ch in t])


def run_session(scene: str | None, seed: int, controls: dict[str, str], dice: str, save: str | None,
                resume: str | None, inp: TextIO, out: TextIO, rules: str | None = None,
                autosave: str | os.PathLike | None | bool = True, force: bool = False,
                autopilot: ap.Autopilot | None = None) -> Session:
    """Start or resume a session and play it to its end (or until the input ends or /quit).

    ``save`` is checked before anything starts (an existing file only with ``force``). ``autosave``:
    True saves after every step next to ``save`` (``FILE.autosave``) or at a new
    :func:`default_autosave`; a path saves there; None or False does not autosave. The file resumed
    from is only read: the session goes on in its autosave. ``autopilot``: what stops the table
    (default: ``configs/autopilot.yaml``)."""
    s = open_session(scene, seed, controls, dice, save, resume, inp, out, rules, autosave, force, autopilot)
    try:
        s.run()
        finish_session(s, save, out)
    finally:
        s.release()
    return s


def open_session(scene: str | None, seed: int, controls: dict[str, str], dice: str, save: str | None,
                 resume: str | None, inp: TextIO, out: TextIO, rules: str | None = None,
                 autosave: str | os.PathLike | None | bool = True, force: bool = False,
                 autopilot: ap.Autopilot | None = None) -> Session:
    """A session ready to run (``run_session``'s set-up; ``serve`` runs it in a thread of its own):
    outputs checked, the save resumed or a new log, the autosave chosen, the files it writes held."""
    inputs = [resume] if resume else []
    if save:
        check_output(save, "--save", force, inputs=inputs)
    if resume:
        log = SessionLog.load(resume)
    else:
        log = SessionLog(scene, rules, seed, dict(controls), dice)
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
    s = Session(log, inp, out, autosave=autosave or None, autopilot=autopilot if autopilot is not None else ap.load())
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
