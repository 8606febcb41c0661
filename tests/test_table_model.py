"""The live table as a model (issue 49), with no front end: typed questions and answers, who may
answer what, GM powers as typed commands, physical dice all or nothing, compels answered by the PC's
player, and the invoke skip agreeing with the menu. The terminal (test_session.py) and the web
(tests/web) are thin views over this model; here it is driven directly."""

from __future__ import annotations

import io
import json

import pytest

from fate_env.live import autopilot as ap
from fate_env.live import powers, table_menu
from fate_env.live.answers import Accept, Auto, Choose, Dice, Name, Override, Refuse, answer_from_json
from fate_env.live.commands import Command, CommandError, from_json, from_words
from fate_env.live.refusals import Refused
from fate_env.live.save import SessionLog
from fate_env.live.seats import GM, Seat
from fate_env.live.session import Session, SessionSetup, run_session
from fate_env.live.table import Table

CYNERE = Seat("player", "cynere")


def new(scene="duel", seed=1, dice="auto", autopilot=None, controls=None) -> Table:
    return Table(SessionLog(scene, None, seed, dict(controls or {}), dice), autopilot=autopilot or ap.Autopilot())


def answer_as_a_table(t: Table) -> tuple[Seat, object, str]:
    """(the seat that answers, the typed answer, the line a terminal would type for it)."""
    q = t.question
    seat = Seat("player", q.owner) if q.owner else GM
    if q.kind == "decision" and not q.for_npc:
        return seat, Choose(q.proposal + 1), str(q.proposal + 1)
    if q.kind == "name":
        return seat, Auto(), ""
    return GM, Accept(), ""


def play_out(t: Table, limit=500) -> list[str]:
    lines = []
    while t.advance() is not None and len(lines) < limit:
        seat, answer, line = answer_as_a_table(t)
        t.answer(seat, t.question.seq, answer)
        lines.append(line)
    return lines


def test_a_duel_played_on_the_model_alone_is_the_terminal_s_fight_entry_for_entry():
    t = new()
    lines = play_out(t)
    assert t.finished and t.play.over and any(line.kind == "summary" for line in t.feed)
    term = run_session(SessionSetup("duel", 1, autosave=None, autopilot=ap.Autopilot()),
                       io.StringIO("".join(x + "\n" for x in lines)), io.StringIO())
    assert term.log.entries == t.log.entries
    again = Table(SessionLog.from_json(json.loads(json.dumps(t.log.to_json()))), autopilot=ap.Autopilot())
    assert json.dumps(again.play.log()) == json.dumps(t.play.log())  # the save replays the same fight


def test_a_question_is_answered_once_by_its_seat_and_a_refusal_changes_nothing():
    t = new()
    q = t.advance()
    before = (json.dumps(t.log.entries), len(t.play.events), t.question.seq)
    if q.owner is None:
        with pytest.raises(Refused) as r:
            t.answer(CYNERE, q.seq, Auto())
        assert r.value.status == 403
    for seat, seq, answer, status in ((Seat("spectator"), q.seq, Auto(), 403),
                                      (Seat("player", "blade"), q.seq, Auto(), 403),
                                      (GM, q.seq + 1, Auto(), 409),
                                      (GM, q.seq, Choose(999), 400),
                                      (GM, q.seq, Name("x"), 400)):
        with pytest.raises(Refused) as r:
            t.answer(seat, seq, answer)
        assert r.value.status == status, (seat, answer)
    assert (json.dumps(t.log.entries), len(t.play.events), t.question.seq) == before
    seat, answer, _ = answer_as_a_table(t)
    t.answer(seat, q.seq, answer)
    with pytest.raises(Refused) as r:  # the same answer again: that question has gone
        t.answer(seat, q.seq, answer)
    assert r.value.status == 409


def test_typed_answers_and_commands_from_json_are_checked_field_by_field():
    assert answer_from_json({"answer": "choose", "number": 3}) == Choose(3)
    assert answer_from_json({"answer": "dice", "faces": [1, 0, -1, 1]}) == Dice((1, 0, -1, 1))
    for bad in ({"answer": "choose"}, {"answer": "choose", "number": "3"}, {"answer": "choose", "number": True},
                {"answer": "dice", "faces": [1, 2, 0, 0]}, {"answer": "say"}, {"answer": "auto", "text": "/end"}, []):
        with pytest.raises(Refused):
            answer_from_json(bad)
    assert from_json({"command": "fp", "who": "cynere", "n": -1}) == Command("fp", {"who": "cynere", "n": -1})
    for bad in ({"command": "fp", "who": "cynere", "n": "+1"}, {"command": "fp", "who": "cynere"},
                {"command": "save", "file": "/etc/passwd"}, {"command": "shell"}, {"command": "aspect", "name": "\x1b[2J"}):
        with pytest.raises(CommandError):
            from_json(bad)
    # the terminal's words, as /help shows them: quotes from an example and a zone named in words are read
    assert from_words("add", ["'Thug", "x3:", "mob,", "Fight", "2'", "@Loading", "dock"]) == \
        Command("add", {"who": "Thug x3: mob, Fight 2", "zone": "Loading dock"})
    assert from_words("compel", ["zird", "Not", "the", "Face!"]).fields == {"who": "zird", "aspect": "Not the Face!",
                                                                            "refuse": False}


def test_reinforcements_arrive_in_a_zone_named_in_words():
    t = new("warehouse", 5)
    t.advance()
    t.command(GM, from_words("add", ["Thug", "x3:", "mob,", "Fight", "2", "@Loading", "dock"]))
    added = [f for cid, f in t.play.f.items() if f.sheet.name.startswith("Thug") and f.sheet.kind == "mob"]
    assert added and added[0].zone == "dock"


def test_commands_are_the_gm_s_alone_and_a_gate_is_the_gm_s_to_accept_or_override():
    t = new(autopilot=ap.Autopilot(confirm_all=True))
    q = t.advance()
    assert q.kind == "gate" and q.move and q.reason and q.owner is None
    for seat in (CYNERE, Seat("spectator")):
        with pytest.raises(Refused) as r:
            t.command(seat, Command("end"))
        assert r.value.status == 403
    t.answer(GM, q.seq, Override())
    chosen = t.question
    assert chosen.kind == "decision" and chosen.for_npc and chosen.seq == q.seq + 1
    assert [it.number for it in chosen.items if it.proposed] == [q.proposal + 1]
    t.answer(GM, chosen.seq, Choose(q.proposal + 1))
    assert t.log.entries[-1] == {"decision": q.proposal, "reason": "the GM's call", "by": "gm"}


def test_physical_dice_are_asked_of_the_pc_s_player_and_the_step_applies_whole():
    t = new(dice="physical", seed=2)
    while t.advance().kind != "dice":
        seat, answer, _ = answer_as_a_table(t)
        t.answer(seat, t.question.seq, answer)
    q = t.question
    assert q.actor == "cynere" and q.owner == "cynere" and q.roll
    entries, events = json.dumps(t.log.entries), len(t.play.events)
    with pytest.raises(Refused):
        t.answer(CYNERE, q.seq, Dice((1, 1, 2, 0)))
    assert (json.dumps(t.log.entries), len(t.play.events)) == (entries, events)  # nothing half-applied
    t.answer(CYNERE, q.seq, Dice((1, 0, -1, 1)))
    while t.question is None or t.question.kind == "dice":
        if t.advance().kind == "dice":
            t.answer(CYNERE, t.question.seq, Dice((1, 0, -1, 1)))
    rolled = [e for e in t.log.entries if "dice" in e]
    assert rolled and rolled[0]["dice"][0] == [1, 0, -1, 1]
    again = Session(t.log, io.StringIO(""), io.StringIO())  # the dice replay from the save
    assert json.dumps(again.play.log()) == json.dumps(t.play.log())


def test_a_compel_on_a_pc_is_answered_by_that_pc_s_player():
    t = new("warehouse", 5)
    t.advance()
    trouble = next(a for a in t.play.aspects.values() if a.owner == "cynere" and a.name == "Tempted by Shiny Things")
    points = t.play.f["cynere"].fate_points
    t.command(GM, from_json({"command": "compel", "who": "cynere", "aspect": trouble.id}))
    q = t.advance()
    assert q.kind == "compel" and q.owner == "cynere" and q.names == ["Tempted by Shiny Things"]
    assert not any("gm" in e for e in t.log.entries)  # nothing recorded until the player answers
    with pytest.raises(Refused) as r:
        t.answer(Seat("player", "zird"), q.seq, Accept())
    assert r.value.status == 403
    with pytest.raises(Refused):
        t.command(GM, Command("end"))  # the compel is answered first
    t.answer(CYNERE, q.seq, Refuse())
    assert t.log.entries[-1] == {"gm": {"power": "compel", "args": ["cynere", str(trouble.id), "refuse"]}}
    assert t.play.f["cynere"].fate_points == points - 1
    assert t.advance().kind == "decision"  # back to the turn it interrupted


def test_a_pc_s_consequence_is_named_by_its_player():
    t = new("warehouse", 3, controls={"smugglers": "tactician"})
    while True:
        q = t.advance()
        assert q is not None, "no PC consequence in this fight"
        if q.kind == "name" and q.owner:
            break
        seat, answer, _ = answer_as_a_table(t)
        t.answer(seat, q.seq, answer)
    with pytest.raises(Refused):
        t.answer(Seat("player", q.owner), q.seq, Name("/end"))
    t.answer(Seat("player", q.owner), q.seq, Name("Cracked   Collarbone"))
    assert t.play.aspects[q.aspect].name == "Cracked Collarbone"
    assert t.log.entries[-1]["gm"] == {"power": "name", "args": [str(q.aspect), "Cracked Collarbone"]}


def test_undo_asks_the_last_answer_again_and_the_feed_says_so():
    t = new()
    q = t.advance()
    seat, answer, _ = answer_as_a_table(t)
    t.answer(seat, q.seq, answer)
    t.advance()
    t.command(GM, Command("undo"))
    again = t.advance()
    assert again.actor == q.actor and again.decision == q.decision and again.seq > q.seq
    assert any("the last answer is undone" in line.text for line in t.feed)


def test_undo_of_a_gate_asks_the_gate_again_and_override_asks_the_menu():
    """Issue 75: an undone answer at a GM gate comes back as that gate (Accept / Override), not as the
    NPC's whole menu; /override still hands the GM the menu."""
    t = new(autopilot=ap.Autopilot(confirm_all=True))
    q = t.advance()
    assert q.kind == "gate"
    t.answer(GM, q.seq, Accept())
    assert t.log.entries[-1]["by"] == "gm"  # the gate's answer is the table's last
    t.command(GM, Command("undo"))
    again = t.advance()
    assert again.kind == "gate" and not again.for_npc and again.actor == q.actor and again.proposal == q.proposal
    t.answer(GM, again.seq, Accept())
    t.advance()
    t.command(GM, Command("override"))
    chosen = t.advance()
    assert chosen.kind == "decision" and chosen.for_npc and chosen.items


def test_the_invoke_skip_agrees_with_the_menu_allies_invokes_included():
    """Wherever the autopilot passes on a player's invoke round, no +2 on the menu changes the band; wherever
    a +2 on the menu would change it (an ally's fate point included, 003:1458-1461), the player is asked."""
    checked = asked = 0
    for seed in range(6):
        t = new("warehouse", seed)
        while (q := t.advance()) is not None:
            d = t.play.pending
            if q.kind == "decision" and d.kind == "invoke":
                asked += 1
            seat, answer, _ = answer_as_a_table(t)
            t.answer(seat, q.seq, answer)
        for entry in t.log.entries:
            assert "no invoke it can make" not in entry.get("reason", "")
        # replay, and at every invoke decision the autopilot passed, read the menu it would have shown
        again = Table(SessionLog("warehouse", None, seed, {}), autopilot=ap.Autopilot())
        for entry in t.log.entries:
            d = again.play.pending
            if "decision" in entry and entry.get("by") == "obvious" and d.kind == "invoke":
                items = table_menu.build(again.play, d, again.narrator)
                changes = [it.text for it in items if " becomes " in it.text]  # "still ..." where it changes nothing
                assert not changes, changes
                checked += 1
            if "decision" in entry:
                again.play.step(entry["decision"], entry.get("reason", ""))
            else:
                powers.apply(again, entry["gm"]["power"], list(entry["gm"]["args"]))
    assert checked and asked


def test_a_player_names_the_aspect_their_pc_creates_and_the_narration_tells_it_by_that_name():
    """Creating an advantage introduces an aspect (003:817-822): its player names it; Enter keeps the
    template's words. The name is a `name` entry in the save and replays."""
    for seed in range(8):  # each PC's turn: create an advantage, until one succeeds
        t = new("warehouse", seed)
        while (q := t.advance()) is not None and not (q.kind == "name" and q.role == "advantage"):
            seat, answer, _ = answer_as_a_table(t)
            if q.kind == "decision" and q.decision == "turn" and q.owner:
                answer = Choose(next(it.number for it in q.items if it.group == "Create an advantage"))
            t.answer(seat, q.seq, answer)
        if q is not None:
            break
    assert q is not None, "no PC created an advantage in eight warehouse fights"
    assert q.owner == q.actor and q.names == [t.play.aspects[q.aspect].name]
    with pytest.raises(Refused):
        t.answer(Seat("player", next(p for p in ("cynere", "zird", "landon") if p != q.owner)), q.seq, Name("x"))
    t.answer(Seat("player", q.owner), q.seq, Name("Sun in Their Eyes"))
    assert t.play.aspects[q.aspect].name == "Sun in Their Eyes"
    assert t.log.entries[-1]["gm"] == {"power": "name", "args": [str(q.aspect), "Sun in Their Eyes"]}
    t.advance()
    said = [line.text for line in t.feed if "Sun in Their Eyes" in line.text]
    assert said and "New aspect Sun in Their Eyes" in said[0]
    again = Table(SessionLog.from_json(json.loads(json.dumps(t.log.to_json()))), autopilot=ap.Autopilot())
    assert again.play.aspects[q.aspect].name == "Sun in Their Eyes"


def test_a_learned_npc_s_rehearsed_line_is_said_once_before_its_first_decision():
    # the ghoul's rehearsal keeps counter outright (docs/results/2026-11-28-outright-line.md); the
    # GM is told which line and the wins that chose it, once (said just before the monsters' first
    # decision, which is what makes the rehearsal run)
    t = new("ghoul", controls={"monsters": "learned"})
    play_out(t)
    said = [i for i, line in enumerate(t.feed) if "rehearsed this scene" in line.text]
    assert len(said) == 1, [line.text for line in t.feed][:20]
    text = t.feed[said[0]].text
    choice = t.controllers["ghoul"].line_for(t.play.scene, "monsters")
    assert f"{choice.fights} practice fights" in text and f"It plays the {choice.line} script alone" in text
    assert all(f" won {won}" in text for won in choice.wins.values())


def test_a_scripted_npc_says_no_rehearsal():
    t = new("ghoul", controls={"monsters": "counter"})
    play_out(t)
    assert not any("rehearsed" in line.text for line in t.feed)


def test_reinforcements_make_a_learned_side_rehearse_anew_and_say_it_once():
    # the Ghast joins the monsters with a learned controller of its own; the grown scene is rehearsed
    # and said once for the side, not once per seat
    t = new("ghoul", controls={"monsters": "learned"})
    t.advance()  # the ghoul acts first: its side's line is said
    assert sum("rehearsed this scene" in line.text for line in t.feed) == 1
    t.command(GM, from_words("add", ["Ghast:", "minor,", "Fight", "3,", "side:", "monsters"]))
    play_out(t)
    assert sum("rehearsed this scene" in line.text for line in t.feed) == 2
    assert any(f.sheet.name == "Ghast" for f in t.play.f.values())


def test_a_rehearsal_not_yet_run_is_announced_and_shown_before_the_wait(monkeypatch):
    # on a process that has not rehearsed the ghoul yet, the table says the rehearsal is coming and
    # calls its view's hook (the terminal prints, the web publishes) before the rehearsal runs
    import agents.learned as learned
    monkeypatch.setattr(learned, "_LINES", {})
    t = new("ghoul", controls={"monsters": "learned"})
    seen = []
    t.on_wait = lambda: seen.append(([line.text for line in t.feed], dict(learned._LINES)))
    t.advance()  # the ghoul acts first
    assert len(seen) == 1
    feed, rehearsed = seen[0]
    assert rehearsed == {}, "the hook ran after the rehearsal, not before it"
    assert "tries this scene out for The Ghoul before it plays" in feed[-1]
    plan = t.controllers["ghoul"].rehearsal
    assert f"{len(plan.candidates)} ways of playing, each in up to {len(plan.seeds())} practice fights" in feed[-1]
    texts = [line.text for line in t.feed]
    assert texts.index(feed[-1]) < next(i for i, x in enumerate(texts) if "rehearsed this scene" in x)
    # a second table in the same process: the line is kept, so nothing is announced and nobody waits
    again = new("ghoul", controls={"monsters": "learned"})
    again.on_wait = lambda: seen.append("again")
    again.advance()
    assert len(seen) == 1 and not any("tries this scene out" in line.text for line in again.feed)
    assert sum("rehearsed this scene" in line.text for line in again.feed) == 1
