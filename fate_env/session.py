"""``fate-npc play``: a live session. Players decide for their PCs (and may roll their own
dice); the tool plays every NPC, says why, and keeps the book. The GM may step in.

The whole session is a replayable log: the scene, the seed, who controls whom, and an
ordered list of entries, each a decision (with any physical dice rolled while it was
applied) or a GM power. Rebuilding from the log gives the same state; undo is the log
less its last decision, replayed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from agents.base import controllers_for, make_controller

from .narrate import Narrator, summary
from .rules.dice import DiceError, check_faces, faces_for_total
from .rules.engine import start
from .scenes import load_scene

HELP = """\
  number or short form (e.g. 1, attack:og:Fight)  choose an option
  auto                  let the scripted policy choose for this PC
  (NPC decisions)       Enter accepts the NPC's choice; 'o' or a number overrides it
  /state                show the scene
  /aspect add NAME [@ZONE]   /aspect remove ID
  /compel CHARACTER ASPECT_ID [refuse]
  /fp CHARACTER +N|-N   award or take back fate points (an NPC's go to the GM pool)
  /undo                 take back the last decision
  /save FILE            save the session;  /end  end the scene now;  /help"""


class SessionError(ValueError):
    """A session file that cannot be resumed."""


@dataclass
class SessionLog:
    scene: str
    rules: str | None
    seed: int
    controls: dict[str, str]
    dice: str = "auto"
    entries: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"scene": self.scene, "rules": self.rules, "seed": self.seed, "controls": self.controls,
                "dice": self.dice, "entries": self.entries}

    @classmethod
    def load(cls, path: str) -> "SessionLog":
        try:
            data = json.loads(Path(path).read_text())
            return cls(data["scene"], data.get("rules"), int(data["seed"]), dict(data.get("controls", {})),
                       data.get("dice", "auto"), list(data.get("entries", [])))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise SessionError(f"{path}: cannot resume this session ({exc})") from None


class Session:
    def __init__(self, log: SessionLog, inp: TextIO, out: TextIO, ask_dice: bool | None = None):
        self.log = log
        self.inp, self.out = inp, out
        self.scene = load_scene(log.scene, rules=log.rules)
        # the players drive their PCs unless --control hands a PC to a policy; "human" may seat anyone
        self.humans = {c.id for c in self.scene.characters
                       if (log.controls.get(c.id) or log.controls.get(c.side) or ("human" if c.kind == "pc" else ""))
                       == "human"}
        robots = {k: v for k, v in log.controls.items() if v != "human"}
        self.controllers = controllers_for(
            self.scene, {**robots, **{c: "basic" for c in self.humans}}, seed=log.seed)
        self.helper = make_controller("basic", log.seed)
        self.narrator = Narrator(self.scene)
        self.rebuild()

    # -- state ------------------------------------------------------------------
    def rebuild(self) -> None:
        """Replay the log from the start (resume and undo both come here)."""
        self.play = start(self.scene, self.log.seed)
        self._pending_dice: list[list[int]] = []
        self._wire_dice(replaying=True)
        for entry in self.log.entries:
            self._replay_dice = [tuple(f) for f in entry.get("dice", [])]
            if "decision" in entry:
                self.play.step(entry["decision"], entry.get("reason", ""))
            else:
                self._gm(entry["gm"], record=False)
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
        self._say("\n".join(self.state_lines()))
        try:
            while not self.play.over:
                self._narrate()
                self._decide()
            self._narrate()
            self._say("")
            self._say("\n".join(summary(self.scene, self.play.outcome)))
        except EOFError:
            self._say("\n(input ended)")

    def _decide(self) -> None:
        c = self.play
        d = c.pending
        if d.actor in self.humans:
            self._say(f"\n{self.narrator.name(d.actor)} decides ({d.kind}):")
            for i, o in enumerate(d.options):
                self._say(f"  {i + 1:>2}. {self.narrator.option(c, o)}")
            while c.pending is d:
                text = self._input("> ")
                if text.startswith("/"):
                    self._command(text)
                    if c.pending is not d:
                        return
                    continue
                if text == "auto":
                    index, reason = self.helper.choose(c, d)
                    self._apply(index, f"(auto) {reason}")
                    return
                if text == "":
                    self._say("  ! type the number of an option, its short form, auto, or /help")
                    continue
                index = self._parse_choice(text, d)
                if index is None:
                    continue
                self._apply(index, "")
                return
        else:
            index, reason = self.controllers[d.actor].choose(c, d)
            self._say(f"  [{self.narrator.name(d.actor)}: {self.narrator.option(c, d.options[index])} — {reason}]")
            while c.pending is d:
                text = self._input("  Enter to accept, o to override: ")
                if text in ("", "auto"):
                    self._apply(index, reason)
                    return
                if text.startswith("/"):
                    self._command(text)
                    continue
                if text == "o":
                    for i, o in enumerate(d.options):
                        self._say(f"  {i + 1:>2}. {self.narrator.option(c, o)}")
                    text = self._input("  GM's choice> ")
                choice = self._parse_choice(text, d)
                if choice is not None:
                    self._apply(choice, "the GM's call")
                    return

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
                self.save(args[0] if args else "session.json")
            elif cmd in ("aspect", "compel", "fp", "end"):
                self._gm({"power": cmd, "args": args}, record=True)
            else:
                self._say(f"  ! unknown command /{cmd}; /help lists them")
        except (ValueError, IndexError) as exc:
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
                c.gm_remove_aspect(int(args[1]))
        elif power == "compel":
            who, aid = args[0], int(args[1])
            c.gm_compel(who, aid, accepted=not (len(args) > 2 and args[2] == "refuse"))
        elif power == "fp":
            if len(args) != 2:
                raise ValueError("usage: /fp CHARACTER +N|-N")
            c.gm_fate_points(args[0], int(args[1]))
        elif power == "end":
            c.gm_end()
        if record:
            self.log.entries.append({"gm": {"power": power, "args": gm["args"]}})

    def undo(self) -> None:
        """Drop the last decision (and any GM power used after it), then replay."""
        last = max((i for i, e in enumerate(self.log.entries) if "decision" in e), default=None)
        if last is None:
            raise ValueError("nothing to undo")
        del self.log.entries[last:]
        self.rebuild()
        self._say("  (the last decision is undone)")
        self._say("\n".join(self.state_lines()))

    def save(self, path: str) -> None:
        Path(path).write_text(json.dumps(self.log.to_json(), indent=1))
        self._say(f"  (saved to {path})")


def parse_dice(text: str) -> tuple[int, ...]:
    """``+ - 0 +`` (or ``+-0+``), or a total from -4 to 4."""
    t = text.replace(" ", "")
    if t.lstrip("+-").isdigit() and (len(t) <= 2):
        return faces_for_total(int(t))
    symbols = {"+": 1, "-": -1, "0": 0}
    if len(t) != 4 or any(ch not in symbols for ch in t):
        raise DiceError(f"{text!r}: expected four faces like '+ - 0 +', or a total like -2")
    return check_faces([symbols[ch] for ch in t])


def run_session(scene: str, seed: int, controls: dict[str, str], dice: str, save: str | None,
                resume: str | None, inp: TextIO, out: TextIO, rules: str | None = None) -> Session:
    if resume:
        log = SessionLog.load(resume)
    else:
        log = SessionLog(scene, rules, seed, dict(controls), dice)
    s = Session(log, inp, out)
    try:
        s.run()
    except KeyboardInterrupt:
        out.write("\nInterrupted. Save the session? [y/N] ")
        out.flush()
        try:
            answer = inp.readline().strip().lower()
        except KeyboardInterrupt:
            answer = ""
        if answer.startswith("y"):
            s.save(save or "session.json")
        return s
    if save:
        s.save(save)
    return s


__all__ = ["Session", "SessionLog", "SessionError", "run_session", "parse_dice", "HELP"]
