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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from agents.base import controllers_for, make_controller

from .narrate import Narrator, summary
from .paths import OutputPathError, check_output, write_atomically
from .rules.conflict import ConflictOver, IllegalChoice
from .rules.dice import DiceError, check_faces, faces_for_total
from .rules.engine import start
from .scenes import SceneError, read_scene_data, scene_from_dict

SAVE_VERSION = 2

HELP = """\
  number or short form (e.g. 1, attack:og:Fight)  choose an option
  auto                  let the scripted policy choose for this PC
  (NPC decisions)       Enter accepts the NPC's choice; 'o' or a number overrides it
  /state                show the scene
  /aspect add NAME [@ZONE]   /aspect remove ID
  /compel CHARACTER ASPECT_ID [refuse]
  /fp CHARACTER +N|-N   award or take back fate points (an NPC's go to the GM pool)
  /concede CHARACTER    that character gives in now (any time before the dice are rolled)
  /undo                 take back the last decision
  /save FILE            save the session;  /end  end the scene now
  /quit                 save and stop here (resume later with --resume);  /help"""


class SessionError(ValueError):
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
        return {"version": SAVE_VERSION, "scene": self.scene, "scene_file": self.scene_file,
                "scene_data": self.scene_data, "rules": self.rules, "seed": self.seed,
                "controls": self.controls, "dice": self.dice, "entries": self.entries}

    @classmethod
    def load(cls, path: str) -> "SessionLog":
        """Read a save, checking every field: a truncated or edited file is refused with the reason."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise SessionError(f"{path}: cannot read the save ({exc.strerror or exc})") from None
        except UnicodeDecodeError:
            raise SessionError(f"{path}: not a session save (not UTF-8 text)") from None
        except ValueError as exc:
            raise SessionError(f"{path}: not a complete session save (broken JSON: {exc}); "
                               "was it cut short or edited?") from None
        return cls.from_json(data, path)

    @classmethod
    def from_json(cls, data: Any, path: str = "<save>") -> "SessionLog":
        def bad(what: str) -> SessionError:
            return SessionError(f"{path}: {what}; was the save edited?")
        if not isinstance(data, dict):
            raise bad("expected a JSON object")
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
    """Where a session saves itself after every step when no --save is given."""
    base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state") / "fate-npc"
    return base / f"{Path(scene).stem}-seed{seed}.json"


class Session:
    def __init__(self, log: SessionLog, inp: TextIO, out: TextIO, ask_dice: bool | None = None,
                 autosave: str | os.PathLike | None = None):
        self.log = log
        self.inp, self.out = inp, out
        self.autosave_path = Path(autosave) if autosave is not None else None
        self._autosave_failed = False
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
        self.narrator = Narrator(self.scene)
        self.rebuild()

    # -- state ------------------------------------------------------------------
    def rebuild(self) -> None:
        """Replay the log from the start (resume and undo both come here). An entry that no longer
        applies (an edited save) is refused with its number, and nothing is kept of the replay."""
        self.play = start(self.scene, self.log.seed)
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
        # a new session narrates from its first exchange (its own header replaces the opening line)
        self.shown = len(self.play.events) if self.log.entries else 1

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
        self.out.write(text + "\n")
        self.out.flush()

    def _input(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if line == "":
            raise EOFError
        return line.strip()

    def _narrate(self) -> None:
        for line in self.narrator.lines(self.play.events[self.shown:]):
            self._say(line)
        self.shown = len(self.play.events)

    def state_lines(self) -> list[str]:
        c = self.play
        zones = {z.id: z.name for z in self.scene.zones}
        out = [f"-- {self.scene.title}: exchange {c.exchange}; GM pool {c.gm_pool} --"]
        for cid in c.order:
            f = c.f[cid]
            s = f.sheet
            track = f.tracks[c.kind]
            boxes = "".join("x" if m else "o" for m in track.marked)
            cons = ", ".join(f"{sl.severity}: {c.aspects[sl.aspect].name}" for sl in f.slots if sl.aspect is not None)
            fp = f"{f.fate_points} FP" if not s.is_npc else "GM pool"
            status = "" if f.active else f" [{f.status.replace('_', ' ')}]"
            mob = f" ({f.members}/{s.count})" if s.kind == "mob" else ""
            out.append(f"  {s.name}{mob}{status} @ {zones[f.zone]}: stress [{boxes}] {cons or 'no consequences'}; {fp}")
        for a in c.aspects.values():
            if a.kind == "character":
                continue
            on = f" on {self.narrator.name(a.owner)}" if a.owner else (f" @ {zones[a.zone]}" if a.zone else "")
            free = ", ".join(f"{self.narrator.name(h)} {n}" for h, n in a.free.items())
            out.append(f"  aspect #{a.id} {a.name} ({a.kind}){on}" + (f"; free invokes: {free}" if free else ""))
        return out

    # -- the loop ---------------------------------------------------------------
    def run(self) -> None:
        self._say(f"== {self.scene.title} ==  (type /help for commands)")
        if self.autosave_path is not None:
            self._say(f"(seed {self.log.seed}; the session saves itself to {self.autosave_path} after every step)")
        self._say("\n".join(self.state_lines()))
        try:
            while not self.play.over:
                self._narrate()
                try:
                    self._decide()
                except KeyboardInterrupt:
                    self._say("\n  (interrupted: nothing half-applied; the session goes on. "
                              "/quit saves and stops, /help lists commands)")
                except _Quit:
                    return
            self._narrate()
            self._say("")
            self._say("\n".join(summary(self.scene, self.play.outcome)))
        except EOFError:
            where = f"; saved in {self.autosave_path}" if self.autosave_path and not self._autosave_failed else ""
            self._say(f"\n(input ended{where})")

    def _decide(self) -> None:
        """Present the pending decision and apply one answer to it. After any command the
        decision is checked again: if an undo, a concession or the end changed what is pending,
        we return and the loop presents the new decision (never answering a stale one)."""
        c = self.play
        d = c.pending
        human = d.actor in self.humans
        if human:
            self._say(f"\n{self.narrator.name(d.actor)} decides ({d.kind}):")
            self._list_options(d)
            prompt = "> "
        else:
            index, reason = self.controllers[d.actor].choose(c, d)
            self._say(f"  [{self.narrator.name(d.actor)}: {self.narrator.option(c, d.options[index])} — {reason}]")
            prompt = "  Enter to accept, o to override: "
        while True:
            text = self._input(prompt)
            if text.startswith("/"):
                self._command(text)
                if self.play is not c or c.pending is not d:
                    return
                continue
            if human and text == "auto":
                index, reason = self.helper.choose(c, d)
                self._apply(index, f"(auto) {reason}")
                return
            if human and text == "":
                self._say("  ! type the number of an option, its short form, auto, or /help")
                continue
            if not human and text in ("", "auto"):
                self._apply(index, reason)
                return
            if not human and text == "o":
                self._list_options(d)
                prompt = "  GM's choice> "
                continue
            choice = self._parse_choice(text, d)
            if choice is not None:
                self._apply(choice, "" if human else "the GM's call")
                return

    def _list_options(self, d) -> None:
        for i, o in enumerate(d.options):
            self._say(f"  {i + 1:>2}. {self.narrator.option(self.play, o)}")

    def _parse_choice(self, text: str, d) -> int | None:
        keys = d.keys()
        if text.isdigit():
            n = int(text)
            if 1 <= n <= len(keys):
                return n - 1
            self._say(f"  ! {n} is not an option; choose 1 to {len(keys)}")
            return None
        matches = [i for i, k in enumerate(keys) if k == text] or [i for i, k in enumerate(keys) if k.startswith(text)]
        if len(matches) == 1:
            return matches[0]
        self._say(f"  ! {text!r} is {'ambiguous' if matches else 'not an option'}; type a number, a short form, "
                  "or /help")
        return None

    def _apply(self, index: int, reason: str) -> None:
        """Take a decision. Physical dice may be asked for while it applies; if the input ends or
        the GM interrupts then, the half-taken step is dropped by replaying the log (all or nothing)."""
        self._pending_dice = []
        try:
            self.play.step(index, reason)
        except (EOFError, KeyboardInterrupt):
            self.rebuild()
            raise
        entry: dict[str, Any] = {"decision": index}
        if reason:
            entry["reason"] = reason
        if self._pending_dice:
            entry["dice"] = self._pending_dice
        self.log.entries.append(entry)
        self._autosave()

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
    def _command(self, text: str) -> None:
        parts = text[1:].split()
        cmd, args = (parts[0], parts[1:]) if parts else ("help", [])
        try:
            if cmd == "help":
                self._say(HELP)
            elif cmd == "state":
                self._say("\n".join(self.state_lines()))
            elif cmd == "undo":
                self.undo()
            elif cmd == "save":
                self.save(" ".join(args) if args else "session.json")
            elif cmd == "quit":
                self.save(str(self.autosave_path) if self.autosave_path else "session.json")
                raise _Quit
            elif cmd in ("aspect", "compel", "fp", "end", "concede"):
                self._gm({"power": cmd, "args": args}, record=True)
            else:
                self._say(f"  ! unknown command /{cmd}; /help lists them")
        except (ValueError, IndexError, ConflictOver, OutputPathError) as exc:
            self._say(f"  ! {exc}")

    def _gm(self, gm: dict[str, Any], record: bool) -> None:
        c = self.play
        power, args = gm["power"], list(gm["args"])
        if power == "aspect":
            if not args or args[0] not in ("add", "remove"):
                raise ValueError("usage: /aspect add NAME [@ZONE] or /aspect remove ID")
            if args[0] == "add":
                zone = args[-1][1:] if args[-1].startswith("@") else None
                name = " ".join(a for a in args[1:] if not a.startswith("@"))
                aid = c.gm_add_aspect(name, zone)
                self._say(f"  (aspect #{aid} {name} is now in play)")
            else:
                if len(args) != 2:
                    raise ValueError("usage: /aspect remove ID")
                c.gm_remove_aspect(int(args[1]))
        elif power == "compel":
            if len(args) not in (2, 3):
                raise ValueError("usage: /compel CHARACTER ASPECT_ID [refuse]")
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
        else:
            raise ValueError(f"unknown GM power {power!r}")
        if record:
            self.log.entries.append({"gm": {"power": power, "args": gm["args"]}})
            self._autosave()

    def undo(self) -> None:
        """Drop the last decision (and any GM power used after it), then replay."""
        last = max((i for i, e in enumerate(self.log.entries) if "decision" in e), default=None)
        if last is None:
            raise ValueError("nothing to undo")
        kept = self.log.entries[last:]
        del self.log.entries[last:]
        try:
            self.rebuild()
        except SessionError:
            self.log.entries.extend(kept)
            self.rebuild()
            raise
        self._autosave()
        self._say("  (the last decision is undone)")
        self._say("\n".join(self.state_lines()))

    def save(self, path: str) -> None:
        """Save the session; a path that cannot be written is refused with the reason (the
        session goes on)."""
        check_output(path, "save to")
        try:
            write_atomically(path, json.dumps(self.log.to_json(), indent=1))
        except OSError as exc:
            raise OutputPathError(f"save to {path}: {exc.strerror or exc}") from None
        self._say(f"  (saved to {path}; resume with: fate-npc play --resume {path})")


class _Quit(Exception):
    """/quit: stop the session here (it is saved)."""


def parse_dice(text: str) -> tuple[int, ...]:
    """``+ - 0 +`` (or ``+-0+``), or a total from -4 to 4."""
    t = text.replace(" ", "")
    if t.lstrip("+-").isdigit() and (len(t) <= 2):
        return faces_for_total(int(t))
    symbols = {"+": 1, "-": -1, "0": 0}
    if len(t) != 4 or any(ch not in symbols for ch in t):
        raise DiceError(f"{text!r}: expected four faces like '+ - 0 +', or a total like -2")
    return check_faces([symbols[ch] for ch in t])


def run_session(scene: str | None, seed: int, controls: dict[str, str], dice: str, save: str | None,
                resume: str | None, inp: TextIO, out: TextIO, rules: str | None = None,
                autosave: str | os.PathLike | None | bool = True) -> Session:
    """Start or resume a session and play it to its end (or until the input ends or /quit).

    ``save`` is checked before anything starts. ``autosave``: True saves after every step next
    to ``save`` (``FILE.autosave``) or at :func:`default_autosave`; a path saves there; None or
    False does not autosave."""
    if save:
        check_output(save, "--save")
    if resume:
        log = SessionLog.load(resume)
    else:
        log = SessionLog(scene, rules, seed, dict(controls), dice)
    if autosave is True:
        autosave = Path(f"{save}.autosave") if save else (Path(resume) if resume else default_autosave(log.scene, log.seed))
        try:
            autosave.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            pass  # reported at the first autosave
    s = Session(log, inp, out, autosave=autosave or None)
    s.run()
    if save:
        try:
            s.save(save)
        except OutputPathError as exc:
            out.write(f"  ! {exc}\n")
    return s


__all__ = ["Session", "SessionLog", "SessionError", "run_session", "parse_dice", "HELP"]
