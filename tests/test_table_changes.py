"""Every change to the live table is checked whole, then applied whole (issue 72): a GM power or an
answer either passes every check and lands, or is refused with a status and changes nothing (the
question, the log, fate points, the feed, the autosave); something unexpected inside a change puts
the table back as it stood, is told to the GM in one line, and the session goes on. And a hidden
aspect stays hidden (003:854-867) from every seat but the GM's, whatever the GM's powers say of it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import HIDDEN, hidden_duel

from fate_env.live import autopilot as ap
from fate_env.live import powers
from fate_env.live.answers import Accept, Choose, Refuse, answer_from_json
from fate_env.live.commands import Command
from fate_env.live.refusals import Failed, Refused
from fate_env.live.save import SessionLog
from fate_env.live.seats import GM, Seat
from fate_env.live.table import Table
from fate_env.rules import events as ev

CYNERE = Seat("player", "cynere")


def new(scene: str, autosave: Path | None = None) -> Table:
    t = Table(SessionLog(scene, None, 1, {}), autosave=autosave, autopilot=ap.Autopilot())
    t.advance()
    return t


def fingerprint(t: Table) -> tuple:
    """What a change may touch: the log, fate points, the GM pool, the question, the feed, the events."""
    q = t.question
    return (json.dumps(t.log.entries), {c: f.fate_points for c, f in t.play.f.items()}, t.play.t.gm_pool,
            None if q is None else (q.seq, q.kind, q.owner), len(t.feed), len(t.play.events), t.autopilot.paused)


def hidden_id(t: Table) -> int:
    return next(a.id for a in t.play.t.aspects.values() if a.name == HIDDEN)


def test_a_compel_on_a_hidden_aspect_is_refused_and_the_table_goes_on(tmp_path):
    t = new(hidden_duel(tmp_path))
    before = fingerprint(t)
    with pytest.raises(Refused) as refused:
        t.command(GM, Command("compel", {"who": "cynere", "aspect": f"#{hidden_id(t)}"}))
    assert refused.value.status == 400 and "hidden" in str(refused.value) and "003:854-867" in str(refused.value)
    assert fingerprint(t) == before
    t.command(GM, Command("fp", {"who": "cynere", "n": 1}))  # the next command works (it used to end the session)
    assert t.play.f["cynere"].fate_points == 4


def test_compels_on_hidden_aspects_are_refused_for_npcs_too(tmp_path):
    t = new(hidden_duel(tmp_path))
    before = fingerprint(t)
    with pytest.raises(Refused):
        t.command(GM, Command("compel", {"who": "blade", "aspect": f"#{hidden_id(t)}"}))
    assert fingerprint(t) == before
    assert not any(HIDDEN in line.text for line in t.feed)


def test_a_pc_with_no_fate_point_cannot_refuse_a_compel_and_the_compel_stays_asked():
    t = new("duel")
    t.command(GM, Command("fp", {"who": "cynere", "n": -3}))
    t.command(GM, Command("compel", {"who": "cynere", "aspect": "#1"}))
    q = t.advance()
    assert q.kind == "compel" and q.owner == "cynere"
    before = fingerprint(t)
    with pytest.raises(Refused) as refused:
        t.answer(CYNERE, q.seq, Refuse())
    assert refused.value.status == 409 and "no fate point" in str(refused.value) and "accept it" in str(refused.value)
    assert fingerprint(t) == before and t.question is q
    t.answer(CYNERE, q.seq, Accept())  # accepting it is still open, and lands
    assert t.play.f["cynere"].fate_points == 1


@pytest.mark.parametrize("value", [["choose"], {"a": 1}, 3, None, True, 2.5])
def test_an_answer_of_the_wrong_type_is_a_refusal_not_a_crash(value):
    with pytest.raises(Refused) as refused:
        answer_from_json({"seq": 1, "answer": value})
    assert refused.value.status == 400 and "'answer'" in str(refused.value)


def test_an_unexpected_error_mid_change_puts_everything_back_tells_the_gm_and_the_session_goes_on(
        tmp_path, monkeypatch):
    """A power that breaks after it changed the scene (fate points given, an entry written to the log and
    the autosave): the table, the log and the autosave are as before it, the GM alone reads one line."""
    save = tmp_path / "session.json"
    t = new("duel", autosave=save)
    t.autosave()
    before, saved = fingerprint(t), save.read_text()
    real = powers.apply

    def breaks(table, power, args):
        real(table, power, args)
        raise RuntimeError("a bug after the change")
    monkeypatch.setattr(powers, "apply", breaks)
    with pytest.raises(Failed) as failed:
        t.command(GM, Command("fp", {"who": "cynere", "n": 2}))
    assert failed.value.status == 500 and "nothing changed" in str(failed.value)
    told = t.feed[-1]
    assert "RuntimeError: a bug after the change" in told.text and told.for_table is None  # the GM's alone
    assert fingerprint(t)[:4] == before[:4] and save.read_text() == saved
    monkeypatch.setattr(powers, "apply", real)
    t.command(GM, Command("fp", {"who": "cynere", "n": 2}))  # the session goes on
    assert t.play.f["cynere"].fate_points == 5 and json.loads(save.read_text())["entries"] == t.log.entries


def test_an_answer_that_breaks_mid_step_is_rolled_back_whole(monkeypatch):
    t = new("duel")
    q = t.question
    before = fingerprint(t)
    real = t.play.step

    def breaks(*args, **kw):
        real(*args, **kw)
        raise KeyError("mid-step")
    monkeypatch.setattr(t.play, "step", breaks)
    with pytest.raises(Failed):
        t.answer(Seat("player", q.owner) if q.owner else GM, q.seq, Choose(q.proposal + 1))
    assert fingerprint(t)[:4] == before[:4]  # the engine was rebuilt from the log: the step is gone
    assert t.question.seq == q.seq
    t.answer(Seat("player", q.owner) if q.owner else GM, q.seq, Choose(q.proposal + 1))  # the rebuilt engine plays


def test_a_hidden_aspect_removed_by_the_gm_is_named_to_the_gm_alone(tmp_path):
    t = new(hidden_duel(tmp_path))
    aid = hidden_id(t)
    t.command(GM, Command("unaspect", {"aspect": f"#{aid}"}))
    said = [line for line in t.feed if HIDDEN in line.text]
    assert said, [line.text for line in t.feed[-3:]]  # the GM reads what went
    assert all(HIDDEN not in (line.for_table or "") for line in t.feed)
    assert any("something hidden" in (line.for_table or "") for line in said)


def test_a_discovered_aspect_is_named_to_everyone_from_then_on(tmp_path):
    """Cynere searches the steps and finds the floorboards (a success on the hidden aspect reveals it,
    003:854-867): from then on the players' feed names it like any other."""
    from fate_env.rules import options as op
    t = new(hidden_duel(tmp_path))
    aid = hidden_id(t)
    q = t.question
    while not (q.owner == "cynere" and q.decision == "turn"):  # up to Cynere's turn, as a table would answer
        t.answer(CYNERE if q.owner else GM, q.seq, Choose(q.proposal + 1) if q.kind == "decision" else Accept())
        q = t.advance()
    search = next(i for i, o in enumerate(t.play.pending.options) if type(o) is op.Exploit and o.aspect == aid)
    t.play.dice.force(4)  # +4 on the dice: Cynere's Notice beats anything the steps oppose with
    t.answer(CYNERE, q.seq, Choose(search + 1))
    while not any(type(e) is ev.AspectRevealed for e in t.play.events):
        q = t.advance()
        assert q is not None and q.owner == "cynere", q
        t.answer(CYNERE, q.seq, Choose(1))  # let the roll stand, keep the proposed names
    t.say(f"  ({HIDDEN} is out in the open)")
    assert t.feed[-1].for_table == t.feed[-1].text and HIDDEN in t.feed[-1].text
