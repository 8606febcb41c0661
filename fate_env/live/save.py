"""A live session's save: the log it is rebuilt from, and the checks a save passes before it is
resumed. The format is the one contract between ``play``, ``serve`` and ``replay``: a save from
either front end resumes in the other."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..content.safe_text import OneLineError

#: the save format written now; 2 (no kind, no checksum) is still read
SAVE_VERSION = 3
READ_VERSIONS = (2, 3)
#: what a session save says it is, so no other JSON (a resolve log, a bench report) is taken for one
SAVE_KIND = "fate-npc session"

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
