"""The GM's logged powers applied to a live table: a typed :class:`~.commands.Command` becomes the
arguments the save keeps (ids, never the handles or name prefixes the GM typed, so a replay never
depends on how they were typed), and those arguments change the scene.

Reinforcements (``/add``) come from the scene's reserves, the shipped NPC library or a one-line
spec, checked like a scene file's characters.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from agents.base import make_controller

from ..content import npc_spec
from ..content.scenes import config_dir, scene_from_dict
from . import handles
from .commands import Command

if TYPE_CHECKING:
    from .table import Table


def log_args(t: "Table", cmd: Command) -> tuple[str, list[str]]:
    """(the power as the save names it, its arguments) for a logged command."""
    v, c, n = cmd.fields, t.play, t.narrator
    who = (lambda: handles.character(c, n, v["who"]))
    if cmd.name == "aspect":
        return "aspect", ["add", v["name"], *([f"@{handles.zone(n, v['zone'])}"] if v.get("zone") else [])]
    if cmd.name == "unaspect":
        return "aspect", ["remove", str(handles.aspect(c, v["aspect"]))]
    if cmd.name == "compel":
        by = ["by", handles.character(c, n, v["by"])] if v.get("by") else []
        return "compel", [who(), str(handles.aspect(c, v["aspect"])), *by, *(["refuse"] if v.get("refuse") else [])]
    if cmd.name == "fp":
        return "fp", [who(), f"{v['n']:+d}"]
    if cmd.name in ("concede", "remove"):
        return cmd.name, [who()]
    if cmd.name == "boost":
        return "boost", [who(), v["name"]]
    if cmd.name == "move":
        return "move", [who(), handles.zone(n, v["zone"])]
    if cmd.name == "rating":
        return "rating", [who(), v["skill"], str(v["n"])]
    if cmd.name == "name":
        return "name", [str(handles.aspect(c, v["aspect"])), v["name"]]
    if cmd.name == "add":
        cid, source = reinforcement(t, v["who"])
        return "add", [cid, source, handles.zone(n, v["zone"]) if v.get("zone") else ""]
    if cmd.name == "end":
        return "end", []
    raise ValueError(f"/{cmd.name} is not a power kept in the save")


def apply(t: "Table", power: str, args: list[str]) -> None:
    """Apply one logged power (live, or replayed from the save)."""
    c = t.play
    if power == "aspect":
        if not args or args[0] not in ("add", "remove"):
            raise ValueError("usage: /aspect add NAME [@ZONE] or /aspect remove ASPECT")
        if args[0] == "add":
            zone = args[-1][1:] if args[-1].startswith("@") else None
            name = " ".join(a for a in args[1:] if not a.startswith("@"))
            aid = c.gm_add_aspect(name, zone)
            if not t.replaying:
                t.say(f"  (aspect #{aid} {name} is now in play)")
        else:
            if len(args) != 2:
                raise ValueError("usage: /aspect remove ASPECT")
            c.gm_remove_aspect(int(args[1]))
    elif power == "compel":
        who, aid, by, refuse = compel_args(args)
        c.gm_compel(who, aid, accepted=not refuse, by=by)
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
        made = sheet(t, *args)
        c.gm_add_character(made)
        seat(t, made)
    elif power == "remove":
        c.gm_remove_character(args[0])
    elif power == "move":
        c.gm_move(args[0], args[1])
    elif power == "rating":
        c.gm_set_rating(args[0], args[1], int(args[2]))
    elif power == "boost":
        c.gm_boost(args[0], args[1])
    elif power == "name":
        c.gm_name_aspect(int(args[0]), args[1])
    elif power == "dice":  # not a command: the table's undo past dice already seen (Table.undo)
        if len(args) != 1 or not args[0].isdigit():
            raise ValueError("the dice power takes one seed")
        c.dice.reseed(np.random.default_rng(int(args[0])))
    else:
        raise ValueError(f"unknown GM power {power!r}")


def compel_args(args: list[str]) -> tuple[str, int, str | None, bool]:
    """A logged compel's arguments (``CHARACTER ASPECT [by PC] [refuse]``): (who, aspect id, the
    proposing PC or None, refused)."""
    rest = args[2:]
    refuse = rest[-1:] == ["refuse"]
    by = rest[1] if rest[:1] == ["by"] and len(rest) >= 2 else None
    if len(args) < 2 or len(rest) != 2 * (by is not None) + refuse or not args[1].isdigit():
        raise ValueError("usage: /compel CHARACTER ASPECT [by PC] [refuse]")
    return args[0], int(args[1]), by, refuse


def reinforcement(t: "Table", who: str) -> tuple[str, str]:
    """``/add WHO``: (a new id, where the character comes from): ``reserve:ID`` for one of the
    scene's reserves, else the one-line spec (typed, or a library entry's)."""
    reserves = {r.id: r for r in t.scene.reserves}
    library = load_library()
    if who in reserves:
        source, name = f"reserve:{who}", reserves[who].name
    elif who in library:
        source, name = library[who], npc_spec.parse(library[who])["name"]
    elif ":" in who:
        source, name = who, npc_spec.parse(who)["name"]
    else:
        raise ValueError(f"no reserve or library NPC {who!r} (/add ? lists them), and not a one-line spec "
                         "like Thug x3: mob, Fight 2")
    return npc_spec.new_id(name, set(t.play.f) | {c.id for c in t.scene.characters}), source


def sheet(t: "Table", cid: str, source: str, zone: str = "") -> Any:
    """The character sheet ``/add`` brings in, checked like a scene file's characters."""
    if source.startswith("reserve:"):
        rid = source.split(":", 1)[1]
        found = next((r for r in t.scene.reserves if r.id == rid), None)
        if found is None:
            raise ValueError(f"no reserve {rid!r} in this scene")
        return _named_apart(t, replace(found, id=cid, zone=zone or found.zone))
    try:
        spec = npc_spec.parse(source)
    except npc_spec.SpecError as exc:
        raise ValueError(str(exc)) from None
    if zone:
        spec["zone"] = zone
    spec.setdefault("zone", t.scene.zones[0].id)
    if "side" not in spec:
        npc_sides = {c.side for c in t.play.scene.characters if c.is_npc}
        if len(npc_sides) != 1 or spec["kind"] == "pc":
            raise ValueError("expected 'side: NAME' in the spec (no single NPC side to put it on)")
        spec["side"] = next(iter(npc_sides))
    data = dict(t.log.scene_data)
    data["characters"] = {**data["characters"], cid: spec}
    data.pop("reserves", None)
    scene = scene_from_dict(data, f"/add {source}", rules=t.log.rules)
    return _named_apart(t, scene.character(cid))


def _named_apart(t: "Table", made: Any) -> Any:
    """A character added under a name already at the table gets the number of its id
    (a second ``Thug`` is ``Thug 2``), so the narration and the GM can tell them apart."""
    names = {t.narrator.name(c).lower() for c in t.play.f if c != made.id}
    if made.name.lower() not in names:
        return made
    number = re.search(r"(\d+)$", made.id)
    n = int(number.group(1)) if number else 2
    while f"{made.name} {n}".lower() in names:
        n += 1
    return replace(made, name=f"{made.name} {n}")


def seat(t: "Table", made: Any) -> None:
    """Who plays a character the GM added: the controls for its side, else its sheet's
    controller (NPCs) or the players (PCs)."""
    policy = t.log.controls.get(made.side) or ("human" if made.kind == "pc" else made.controller)
    if policy == "human":
        t.humans.add(made.id)
        policy = "basic"
    t.controllers[made.id] = make_controller(policy, t.log.seed)
    t.narrator.names[made.id] = made.name


def library_text(t: "Table") -> str:
    lines = ["  Reserves of this scene: " + (", ".join(f"{r.id} ({r.name})" for r in t.scene.reserves) or "none"),
             "  Library NPCs:"]
    lines += [f"    {k:10} {v}" for k, v in load_library().items()]
    lines.append("  Or a one-line spec: /add Thug x3: mob, Fight 2 @dock")
    return "\n".join(lines)


def load_library() -> dict[str, str]:
    """The shipped NPC library (configs/library.yaml): name -> one-line spec."""
    from ..content.yaml_input import load_file
    path = config_dir() / "library.yaml"
    return {str(k): str(v) for k, v in (load_file(path, "NPC library") or {}).items()}
