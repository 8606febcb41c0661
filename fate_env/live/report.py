"""``fate-npc replay``: a saved fight told again, as narration or as a report a GM can paste.

Two kinds of log replay: a live session's save (``fate-npc play --save``; its scene, seed and
every decision and GM power) and ``fate-npc resolve --json`` (the scene, rule set, seed and
choices). Both are rebuilt by the engine from their inputs, never trusted as text: a log that no
longer replays (an edited file, a scene changed since) is refused with the reason. The report
(``--markdown``) is Markdown: a header, who fought, the exchanges as lists, and the outcome.
"""

from __future__ import annotations

import io
import json
from typing import Any

from ..content.narrate import Narrator, exchanges_words, side_verb, side_words, summary
from ..content.safe_text import OneLineError
from ..rules.ladder import describe


class ReplayError(OneLineError):
    """A log that cannot be told again, with why."""


def rebuild(path: str):
    """The engine of the fight in ``path`` (a session save or a ``resolve --json`` log), played to
    where the log ends."""
    from ..content.json_input import JSONInputError, load_json
    try:
        data = load_json(path, "fight log (the JSON of `fate-npc resolve --json` or a session save)")
    except JSONInputError as exc:
        raise ReplayError(f"{exc}; not a fight log") from None
    if isinstance(data, dict) and "entries" in data:
        return _session(data, path)
    if isinstance(data, dict) and {"scene", "seed", "choices"} <= set(data):
        return _resolved(data, path)
    raise ReplayError(f"{path}: not a fight log (expected the JSON of `fate-npc resolve --json` or a session save)")


def _session(data: dict[str, Any], path: str):
    from .session import Session, SessionError, SessionLog
    try:
        s = Session(SessionLog.from_json(data, path), io.StringIO(""), io.StringIO())
    except SessionError as exc:
        raise ReplayError(str(exc)) from None
    return s.play


def _resolved(data: dict[str, Any], path: str):
    from ..content.scenes import SceneError, load_scene, scene_from_dict
    from ..rules.engine import replay
    try:
        if data.get("scene_data") is not None:
            scene = scene_from_dict(data["scene_data"], data.get("scene_file") or path, rules=data.get("rules"))
        else:
            scene = load_scene(data["scene"], rules=data.get("rules"))
    except SceneError as exc:
        raise ReplayError(f"{path}: its scene does not load ({exc})") from None
    try:
        engine = replay(scene, data["seed"], data["choices"], reasons=data.get("reasons"))
    except Exception as exc:  # noqa: BLE001 - an illegal choice, an index out of range: the log does not fit
        raise ReplayError(f"{path}: the log no longer replays on scene {data['scene']!r} ({exc}); "
                          "has the scene file changed since?") from None
    if "events" in data and json.loads(json.dumps(engine.log())) != data["events"]:
        raise ReplayError(f"{path}: replaying it gives another fight than the one logged; has the scene "
                          f"{data['scene']!r} or the rule set changed since?")
    return engine


def narration(engine, reasons: bool = True) -> list[str]:
    narrator = Narrator(engine.scene, show_reasons=reasons)
    lines = narrator.lines(engine.events)
    if engine.outcome is not None:
        lines += [""] + summary(engine.scene, engine.outcome)
    return lines


def markdown(engine) -> str:
    """The fight as a Markdown report: what a campaign log or a VTT chat takes."""
    scene, t = engine.scene, engine.t
    narrator = Narrator(scene, show_reasons=True)
    story = narrator.kinded(engine.events)  # also learns the names of characters the GM added
    out = _header(engine, narrator)
    out += ["", "## Who fought", "", "| Character | Side | Top skills | How it ended | Consequences |",
            "| --- | --- | --- | --- | --- |"]
    for cid in t.order:
        f = t.f[cid]
        s = f.sheet
        top = ", ".join(f"{k} {describe(v)}" for k, v in sorted(s.skills.items(), key=lambda kv: -kv[1])[:3])
        ended = {"active": "standing", "taken_out": "taken out" + (f" by {narrator.name(f.taken_out_by)}"
                                                                   if f.taken_out_by else ""),
                 "conceded": "conceded", "removed": "left the scene", "waiting": "never appeared"}[str(f.status)]
        ended = _cell(ended)
        cons = "; ".join(f"{sl.severity} *{_cell(t.aspects[sl.aspect].name)}*" for sl in f.slots
                         if sl.aspect is not None)
        count = f" ×{s.count}" if s.kind == "mob" else ""
        out.append(f"| {_cell(narrator.name(cid))}{count} | {_cell(side_words(scene, s.side))} | {_cell(top) or '-'} | {ended} | "
                   f"{cons or '-'} |")
    out += ["", "## What happened"]
    for kind, line in story[1:] if story and story[0][0] == "headline" else story:
        text = line.strip()
        if not text:
            continue
        if kind == "exchange":
            out += ["", f"### {_cell(text)}", ""]
        elif kind == "headline":
            out += ["", f"**{_cell(text)}**"]
        elif kind == "turn":
            out.append(f"- **{_cell(text)}**")
        elif kind == "reason":
            out.append(f"  - *{_cell(text.removeprefix('(').removesuffix(')'))}*")
        else:
            out.append(f"  - {_cell(text)}")
    if engine.outcome is not None:
        out += ["", "## Outcome", ""] + [f"- {_cell(line)}" for line in summary(scene, engine.outcome)]
    return "\n".join(out) + "\n"


def _header(engine, narrator) -> list[str]:
    scene = engine.scene
    o = engine.outcome
    result = ("unfinished" if o is None else "unresolved" if o.unresolved
              else f"{side_words(scene, o.winner)} {side_verb(scene, o.winner, 'win', 'wins')}" if o.winner
              else "no side wins")
    exchanges = exchanges_words(engine.t.exchange)
    lines = [f"# {scene.title}: fight report", "",
             f"*{scene.rules.title or scene.rules.name} rules · {scene.kind} · seed {engine.seed} · {exchanges} · "
             f"{result}*"]
    if scene.description:
        lines += ["", f"> {' '.join(scene.description.split())}"]
    zones = ", ".join(narrator.zones.values())
    lines += ["", f"Zones: {zones}."]
    return lines


def _cell(text: str) -> str:
    """Text safe in a Markdown table cell or list item."""
    return text.replace("|", "\\|").replace("*", "\\*").replace("_", "\\_")
