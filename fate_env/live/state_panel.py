"""Live play's state panel: the scene at a glance, as a GM's screen shows it.

Zones with who is where, every character's stress boxes, consequences and fate points and
whether it has acted this exchange, and every aspect in play with its handle (``#7``: what
``/compel``, ``/aspect remove`` and the menus take) and the free invokes on it. Drawn with rich
(tables and colour on a terminal, plain tables otherwise).
"""

from __future__ import annotations

import io
from typing import TextIO

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..content.narrate import KIND_WORDS, side_words, stunt_words
from ..content.safe_text import printable
from ..rules.kinds import Status

STATUS_WORDS = {Status.TAKEN_OUT: "taken out", Status.CONCEDED: "conceded", Status.REMOVED: "left the scene",
                Status.WAITING: "waiting"}


def _cell(text: str) -> Text:
    """A cell as plain text: never read as rich markup, control characters shown as escapes."""
    return Text(printable(text))


def tables(engine, narrator) -> list[Table]:
    """The panel's tables: characters (by zone), aspects."""
    t = engine.t
    zones = narrator.zones
    people = Table(title=_cell(f"{engine.scene.title}: exchange {t.exchange}, GM pool {t.gm_pool}"),
                   box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
    for col in ("who", "side", "zone", "stress", "consequences", "FP", "turn"):
        people.add_column(col)
    in_zone = sorted(t.order, key=lambda c: (list(zones).index(t.f[c].zone) if t.f[c].zone in zones else 0,
                                             t.order.index(c)))
    for cid in in_zone:
        f = t.f[cid]
        s = f.sheet
        name = narrator.name(cid) + (f" ({f.members}/{s.count})" if s.kind == "mob" else "")
        shown = [k for k in f.tracks if k in engine.tracks_in_play] or list(f.tracks)
        tracks = " ".join(("" if len(shown) == 1 else f"{k[0].upper()}:")
                          + "".join("[x]" if m else "[ ]" for m in f.tracks[k].marked) for k in shown)
        taken = [f"{sl.severity} {t.aspects[sl.aspect].name} #{sl.aspect}" for sl in f.slots if sl.aspect is not None]
        open_ = [str(sl.value) for sl in f.slots if sl.aspect is None]
        cons = "; ".join(taken + ([f"open: {' '.join(open_)}"] if open_ else [])) or "-"
        fp = "pool" if s.is_npc else str(f.fate_points)
        state = STATUS_WORDS.get(f.status) or ("acted" if cid in t.acted else "to act")
        style = "dim" if not f.active else ("bold" if cid == getattr(engine.pending, "actor", None) else "")
        people.add_row(*map(_cell, (f"{name} ({cid})", s.side, zones.get(f.zone, f.zone), tracks or "-", cons, fp,
                                   state)), style=style)
    aspects = Table(title="Aspects in play (#handle)", box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
    for col in ("#", "aspect", "kind", "on", "free invokes"):
        aspects.add_column(col)
    for a in t.aspects.values():
        if a.owner is not None and not t.f[a.owner].active:
            continue
        on = narrator.name(a.owner) if a.owner else (zones.get(a.zone, a.zone) if a.zone else "scene")
        free = ", ".join(f"{narrator.name(h)} {n}" for h, n in a.free.items() if n) or "-"
        kind = f"{a.kind} (hidden)" if a.hidden else str(a.kind)  # the GM's panel: the players' pages leave it out
        aspects.add_row(*map(_cell, (f"#{a.id}", a.name, kind, on, free)))
    return [people, aspects]


def render(engine, narrator, out: TextIO, width: int = 110, terminal: bool | None = None) -> None:
    """Print the panel to ``out`` in ``width`` columns: colour when it is a terminal (or ``terminal``
    says so: a page drawn for one), plain text when not."""
    if terminal is None:
        terminal = hasattr(out, "isatty") and out.isatty()
    console = Console(file=out, width=width, force_terminal=terminal, color_system="standard" if terminal else None,
                      highlight=False, soft_wrap=False)
    for table in tables(engine, narrator):
        console.print(table)


def text(engine, narrator, width: int = 110) -> str:
    """The panel as plain text (tests, logs)."""
    buf = io.StringIO()
    render(engine, narrator, buf, width)
    return buf.getvalue()


def short(engine, narrator, width: int = 100) -> list[str]:
    """The panel in a few lines, for after each exchange: a line (or two) per side and zone, each
    character with its stress boxes, consequences (with their handles) and fate points; those out of
    the fight at the end. The whole panel is ``/state``."""
    t = engine.t
    zones = narrator.zones
    out = [f"-- exchange {t.exchange} · GM pool {t.gm_pool} · /state shows the whole scene --"]
    groups: dict[tuple[str, str], list[str]] = {}
    gone: dict[str, list[str]] = {}
    for cid in t.order:
        f = t.f[cid]
        s = f.sheet
        name = narrator.name(cid) + (f" ({f.members}/{s.count})" if s.kind == "mob" else "")
        if not f.active:
            gone.setdefault(s.side, []).append(name)
            continue
        shown = [k for k in f.tracks if k in engine.tracks_in_play] or list(f.tracks)
        boxes = "".join("".join("x" if m else "." for m in f.tracks[k].marked) for k in shown)
        cons = "".join(f" {t.aspects[sl.aspect].name} #{sl.aspect}" for sl in f.slots if sl.aspect is not None)
        fp = "" if s.is_npc else f" FP{f.fate_points}"
        groups.setdefault((s.side, f.zone), []).append(f"{name} [{boxes}]{cons}{fp}")
    order = list(zones)
    for side in dict.fromkeys([sd for sd, _ in groups] + list(gone)):
        for (sd, zone), parts in sorted(((k, v) for k, v in groups.items() if k[0] == side),
                                        key=lambda kv: order.index(kv[0][1]) if kv[0][1] in order else 0):
            out += _wrap(f"  {side} in {zones.get(zone, zone)}: ", parts, width)
        if side in gone:
            out += _wrap(f"  {side} out: ", gone[side], width)
    return [printable(line) for line in out]


def brief(engine, narrator, width: int = 100) -> list[str]:
    """The opening board: the short panel and the scene's situation aspects with their handles, in a
    few lines (the whole board, with every character's aspects, is ``/state``)."""
    t = engine.t
    zones = narrator.zones
    situation = [f"#{a.id} {a.name} ({zones.get(a.zone, a.zone) if a.zone else 'scene'}{', hidden' if a.hidden else ''})"
                 for a in t.aspects.values() if a.owner is None]
    return short(engine, narrator, width) + ([printable(line) for line in _wrap("  aspects: ", situation, width)]
                                             if situation else [])


def _wrap(head: str, parts: list[str], width: int) -> list[str]:
    """``parts`` joined by " · " after ``head``, in lines of at most ``width`` (continuations indented)."""
    lines, line = [], head
    for p in parts:
        piece = p if line == head else " · " + p
        if len(line) + len(piece) > width and line != head:
            lines.append(line)
            line = " " * len(head) + p
        else:
            line += piece
    lines.append(line)
    return lines


def data(engine, narrator, gm: bool = True) -> dict:
    """The panel as data, for the web table's map and cards: the zones (who stands in each, their
    borders and what blocks them) and a card per character (aspects with handles and free invokes,
    stress boxes, consequences, fate points, whether it has acted). A hidden aspect is on the GM's
    (``gm``, marked ``hidden``) and on no one else's (003:854-867)."""
    t = engine.t
    zones = narrator.zones
    borders = []
    for written in engine.scene.borders:  # as they stand now: a block cleared in the fight is gone (rules/blocks.py)
        b = engine.map.border(written.a, written.b) or written
        borders.append({"a": b.a, "b": b.b, "difficulty": b.difficulty, "aspect": b.aspect,
                        "blocks_ranged": b.blocks_ranged})
    cards = []
    for cid in t.order:
        f = t.f[cid]
        s = f.sheet
        shown = [k for k in f.tracks if k in engine.tracks_in_play] or list(f.tracks)
        aspects = [{"handle": a.id, "name": a.name, "kind": str(a.kind),
                    "free": {narrator.name(h): n for h, n in a.free.items() if n}}
                   for a in t.aspects.values() if a.owner == cid]
        cards.append({
            "id": cid, "name": narrator.name(cid), "side": s.side, "kind": s.kind, "zone": f.zone,
            "side_name": side_words(engine.scene, s.side), "kind_name": KIND_WORDS.get(s.kind, s.kind),
            "status": STATUS_WORDS.get(f.status) or ("acted" if cid in t.acted else "to act"),
            "members": f"{f.members}/{s.count}" if s.kind == "mob" else None,
            "stress": {k: list(map(bool, f.tracks[k].marked)) for k in shown},
            "consequences": [{"severity": sl.severity, "value": sl.value,
                              "name": t.aspects[sl.aspect].name if sl.aspect is not None else None,
                              "handle": sl.aspect,
                              "free": ({narrator.name(h): n for h, n in t.aspects[sl.aspect].free.items() if n}
                                       if sl.aspect is not None else {})} for sl in f.slots],
            "fate_points": None if s.is_npc else f.fate_points, "aspects": aspects,
            "skills": sorted(([k, v] for k, v in s.skills.items()), key=lambda kv: (-kv[1], kv[0])),
            "stunts": [{"name": st.name, "text": stunt_words(st, narrator.name)} for st in s.stunts],
            "high_concept": s.high_concept, "trouble": s.trouble, "refresh": None if s.is_npc else s.refresh,
            "weapon": s.weapon, "armor": s.armor,
            "pending": cid == getattr(engine.pending, "actor", None)})
    situation = [{"handle": a.id, "name": a.name, "kind": str(a.kind), "zone": a.zone,
                  "free": {narrator.name(h): n for h, n in a.free.items() if n}, **({"hidden": True} if a.hidden else {})}
                 for a in t.aspects.values() if a.owner is None and (gm or not a.hidden)]
    return {"exchange": t.exchange, "gm_pool": t.gm_pool,
            "zones": [{"id": z, "name": name} for z, name in zones.items()], "borders": borders,
            "cards": cards, "situation": situation}
