"""The GM's commands carried out on a live table. :meth:`.table.Table.command` checks that the seat
is the GM's and runs :func:`run` as one change; the logged powers (aspects, compels, fate points,
reinforcements...) are applied by :mod:`.powers`, the rest here: undo, override, step, pause and go,
takeover and release, save and quit, and a compel offered to a PC's player."""

from __future__ import annotations

from typing import TYPE_CHECKING

from agents.base import make_controller

from . import handles, powers, state_panel
from .commands import Command
from .refusals import Refused
from .save import SessionError

if TYPE_CHECKING:
    from .table import Table


def _rolls(events: list) -> int:
    """How many dice rolls ``events`` show."""
    return sum(1 for e in events if getattr(e, "faces", None) is not None or getattr(e, "new_faces", None) is not None)


def run(t: "Table", cmd: Command) -> None:
    name = cmd.name
    if name == "undo":
        undo(t)
    elif name in ("pause", "go"):
        t.autopilot.paused = name == "pause"
        if name == "pause":
            t.say("  (paused: each NPC decision waits for the GM)",
                  terminal="  (paused: each NPC decision waits for Enter, or /step; /go lets them play)")
        else:
            t.say("  (the NPCs play themselves again)")
    elif name == "step":
        step_npc(t)
    elif name == "override":
        override(t)
    elif name in ("takeover", "release"):
        seat(t, handles.character(t.play, t.narrator, cmd.fields["who"]), name == "takeover")
    elif name == "save":
        t.save(t.save_target(cmd.fields.get("file")), replace=bool(cmd.fields.get("replace")))
    elif name == "quit":
        t.save(str(t.autosave_path) if t.autosave_path else t.save_target(None))
        t.stopped = True
        t.question = None
    elif name == "compel" and "refuse" not in cmd.fields and _offer_compel(t, cmd):
        return
    elif cmd.power.logged:
        power, args = powers.log_args(t, cmd)
        t.use_power(power, args)
        if power == "name":
            t.say(f"  (#{args[0]} is now named {args[1]})")
    else:
        raise Refused(f"unknown command /{name}")


def _offer_compel(t: "Table", cmd: Command) -> bool:
    """A compel on a PC with no answer given: offered to that PC's player (their page asks them); on
    an NPC, the GM's own character, it is recorded as accepted."""
    who, aid, by, _ = powers.compel_args(powers.log_args(t, cmd)[1])
    if t.pc_of(who) is None:
        return False
    t.play.check_compel(who, aid, True, by)  # now, not when the player answers
    name = t.play.aspect(aid).name
    t.compel = (who, aid, by)
    t.question = None
    proposer = f"{t.narrator.name(by)}'s player" if by else "the GM"
    t.say(f"  ({proposer} compels {t.narrator.name(who)}'s {name}: "
          f"{t.narrator.name(who)}'s player accepts or refuses)")
    return True


def undo(t: "Table") -> None:
    """Drop the table's last answer (a player's, or the GM's at a gate; the NPCs' moves and any
    GM power after it go with it), then replay; that decision is asked again, even if it is
    one that would play itself. Where the dropped answers had led to dice the table saw, the dice
    from here are new (a ``dice`` entry with a fresh seed): replayed, the same dice would let a
    player choose on what they could not have known, such as conceding before a roll they have
    seen (003:1693-1712)."""
    last = max((i for i, e in enumerate(t.log.entries) if "decision" in e and e.get("by") != "autopilot"),
               default=None)
    if last is None:
        raise ValueError("nothing to undo: the table has answered nothing yet (/override takes back an NPC's move)")
    seen = _rolls(t.play.events)
    _drop_from(t, last, "again")
    if _rolls(t.play.events) < seen:  # the table saw dice the undone answers led to
        t.use_power("dice", [str(t.fresh_seed())])
        t.autosave()
        t.say("  (the last answer is undone; the dice seen since are not rolled again: new dice from here)")
    else:
        t.say("  (the last answer is undone)")
    t.say("\n".join(state_panel.short(t.play, t.narrator)), "panel")


def override(t: "Table") -> None:
    """The GM takes back the NPCs' last move (and everything after it) and chooses it instead."""
    last = max((i for i, e in enumerate(t.log.entries) if e.get("by") in ("autopilot", "gm")), default=None)
    if last is None:
        raise ValueError("no NPC move to override yet")
    _drop_from(t, last, "override")
    t.say(f"  (taken back: {t.narrator.name(t.play.pending.actor)}'s move; choose it below)")


def step_npc(t: "Table") -> None:
    """``/step``: apply the pending NPC decision as the autopilot proposes it (the autopilot stays paused)."""
    d = t.play.pending
    if d is None or d.actor in t.humans:
        raise ValueError("/step applies an NPC's decision; this one is the players'")
    index, reason = t.controllers[d.actor].choose(t.play, d)
    t.question = None
    t.apply_decision(index, reason, by="gm")


def seat(t: "Table", cid: str, gm: bool) -> None:
    """``/takeover`` (``gm``): the table decides for ``cid`` from now on; ``/release``: the tool
    plays it (an NPC by its sheet's controller, a PC by ``basic``). Kept in the save's controls."""
    sheet = t.play.f[cid].sheet
    if gm == (cid in t.humans):
        raise ValueError(f"{t.narrator.name(cid)} is {'already' if gm else 'not'} played by the table")
    if gm:
        t.humans.add(cid)
        t.log.controls[cid] = "human"
        t.say(f"  (the GM decides for {t.narrator.name(cid)} now)",
              terminal=f"  (you decide for {t.narrator.name(cid)} now; /release {cid} gives it back)")
    else:
        policy = sheet.controller if sheet.is_npc else "basic"
        t.humans.discard(cid)
        t.log.controls[cid] = policy
        t.controllers[cid] = make_controller(policy, t.log.seed)
        t.say(f"  ({t.narrator.name(cid)} is played by {policy} now)")
    t.question = None
    t.autosave()


def _drop_from(t: "Table", last: int, ask: str) -> None:
    """Drop entries ``last`` on and replay; the decision then pending is asked of the table (``ask``: how,
    as ``Table.ask_next`` says)."""
    kept = t.log.entries[last:]
    del t.log.entries[last:]
    try:
        t.rebuild()
    except SessionError:
        t.log.entries.extend(kept)
        t.rebuild()
        raise
    t.autosave()
    t.ask_next = ask
