"""The players decide what is theirs (issue 51): the live table answers a player's decision only where
every answer the rules allow comes to the same, or where the player chose to be spared; an undo never
lets a player choose on dice they have seen. Each case with forced dice, through the table's model."""

from __future__ import annotations

import copy
import itertools
import json

import numpy as np
import pytest
from test_table_model import answer_as_a_table

from fate_env.live import autopilot as ap
from fate_env.live.answers import Accept, Choose
from fate_env.live.commands import Command
from fate_env.live.save import SessionLog
from fate_env.live.seats import GM, Seat
from fate_env.live.table import Table
from fate_env.rules.dice import _BLOCK
from fate_env.rules.options import Attack, Concede, CreateAdvantage, DoneInvoking
from fate_env.rules.stress import Absorb

ANN_BOB = {
    "ann": {"kind": "pc", "side": "pcs", "zone": "room", "skills": {"Fight": 1, "Athletics": 1},
            "high_concept": "Quick Fencer", "trouble": "Proud", "fate_points": 1},
    "bob": {"kind": "major", "side": "npcs", "zone": "room", "skills": {"Fight": 4},
            "high_concept": "Big Bruiser", "trouble": "Slow"},
}


def table(chars=ANN_BOB, autopilot=None, seed=0, controls=None, **extra) -> Table:
    """Ann (a PC) and Bob (an NPC who goes first) in one room, at a live table; the GM has no fate points
    unless ``gm_fate_points`` says so, so Bob's rolls are what the forced dice make them."""
    data = {"name": "test", "rules": "condensed", "zones": [{"id": "room"}], "borders": [], "aspects": [],
            "characters": copy.deepcopy(chars), "first": "bob", "gm_fate_points": 0, **extra}
    log = SessionLog("test", None, seed, dict(controls or {}), scene_data=data, scene_file="<test>")
    return Table(log, autopilot=autopilot or ap.Autopilot())


def answer_until(t: Table, stop, limit=100):
    """Answer every question as the table proposes (test_table_model) until ``stop(question)``."""
    for _ in range(limit):
        q = t.advance()
        if q is None or stop(q):
            return q
        seat, answer, _ = answer_as_a_table(t)
        t.answer(seat, q.seq, answer)
    raise AssertionError("never reached")


def asked(q, kind, who="ann"):
    return q is not None and q.kind == "decision" and q.decision == kind and q.actor == who


# -- a defense: conceding is the player's call when the hit could take them out (003:1693-1712) ---------
def test_a_pc_a_hit_could_take_out_is_asked_to_defend_or_concede_and_a_fresh_one_is_not():
    t = table()
    t.play.dice.force(4, -4)  # Bob's Fight 4 +4 against Ann's Athletics 1 -4: a 11-shift hit (003:1562-1634)
    q = answer_until(t, lambda q: asked(q, "absorb") or asked(q, "respond"))
    assert asked(q, "absorb"), "a fresh PC's defense went by itself"
    assert any("Ann defends (the only answer but conceding" in line.text for line in t.feed)
    q = answer_until(t, lambda q: asked(q, "respond"))  # Ann takes the hit, acts; Bob attacks again
    d = t.play.pending
    assert t.play.capacity("ann", "physical") < 11 and ap.could_be_taken_out(t.play, d)
    assert Concede() in d.options  # asked: she may concede before the dice
    assert ap.obvious(t.play, d) is None


def _chance_beyond(k: int) -> float:
    """P(4dF - 4dF > k), counted over all 3^8 faces."""
    rolls = list(itertools.product((-1, 0, 1), repeat=8))
    return sum(1 for f in rolls if sum(f[:4]) - sum(f[4:]) > k) / len(rolls)


def test_the_chance_of_being_taken_out_counts_the_dice_and_every_invoke_the_attacker_could_make():
    t = table()
    d = t.play.pending
    t.play.step(next(i for i, o in enumerate(d.options) if type(o) is Attack and o.target == "ann" and o.skill == "Fight"))
    d = t.play.pending
    assert d.kind == "respond" and d.context["skill"] == "Fight"
    assert t.play.capacity("ann", "physical") == 15  # three boxes, 2 + 4 + 6 (003:1600-1620)
    # Bob's Fight 4 against Ann's Athletics 1, no GM point: 3 + dice, never over 15
    assert ap.takeout_chance(t.play, d) == 0 and not ap.could_be_taken_out(t.play, d)
    t.play.t.gm_pool = 3  # three paid invokes: 9 + dice over 15 in 9 rolls of 6,561
    assert ap.takeout_chance(t.play, d) == pytest.approx(_chance_beyond(6)) == pytest.approx(9 / 6561)
    assert not ap.could_be_taken_out(t.play, d)  # under 1 in 100: the defense goes by itself
    t.play.t.gm_pool = 9  # as many as there are aspects to invoke (four): 11 + dice
    assert ap.takeout_chance(t.play, d) == pytest.approx(_chance_beyond(4)) and ap.could_be_taken_out(t.play, d)
    assert "could take you out (" in ap.at_risk(t.play, d)


@pytest.mark.parametrize("benefit", ["effort", "after_roll"])
def test_the_chance_of_being_taken_out_counts_scale_however_the_rules_give_it(benefit):
    """Bob two levels of scale above Ann (003:2430-2439). Taken on the effort, his edge is +2 before the
    roll; taken after it (``scale_benefit: after_roll``), +2 shifts a level on a hit that succeeds: the
    line that asks Ann whether to concede must count that too, or it calls a real risk none at all."""
    chars = {**ANN_BOB, "bob": {**ANN_BOB["bob"], "scale": "otherworldly"}}
    t = table(chars, rules={"name": "condensed", "dials": {"scale_benefit": benefit}})
    d = t.play.pending
    t.play.step(next(i for i, o in enumerate(d.options) if type(o) is Attack and o.target == "ann" and o.skill == "Fight"))
    d = t.play.pending
    t.play.t.gm_pool = 3  # three paid invokes: Fight 4 + 6 against Athletics 1, and 15 to absorb
    assert t.play.capacity("ann", "physical") == 15
    if benefit == "effort":  # +2 on the roll: 11 + dice over 15
        assert ap.takeout_chance(t.play, d) == pytest.approx(_chance_beyond(4))
    else:  # 9 + dice, a success, then +4 shifts: over 15 when the dice beat 2
        assert ap.takeout_chance(t.play, d) == pytest.approx(_chance_beyond(2))
    assert ap.could_be_taken_out(t.play, d)


# -- an invoke round: the other side's band counts too ------------------------------------------------
def _to_ann_s_invoke(t: Table, bob: int, ann: int, action: str):
    c = t.play
    d = c.pending
    if action == "attack":
        c.step(next(i for i, o in enumerate(d.options) if type(o) is Attack and o.skill == "Fight"))
    else:
        c.step(next(i for i, o in enumerate(d.options) if type(o) is CreateAdvantage and o.target == "ann"))
    c.dice.force(bob, ann)
    while c.pending.kind != "invoke" or c.pending.actor != "ann":
        d = c.pending
        c.step(d.options.index(DoneInvoking()) if d.kind == "invoke" else 0)
    return c.pending


def test_an_invoke_that_takes_a_style_from_the_other_side_is_the_player_s_to_make():
    """Bob's 6 against Ann's 2 creates an advantage with style: two free invokes; Ann's +2 would leave him
    one (003:849-852). Her own band stays a failure, and she is asked all the same."""
    t = table()
    d = _to_ann_s_invoke(t, 2, 1, "create_advantage")  # Bob 4+2, Ann's Athletics 1+1
    assert d.context["margin"] == -4
    assert ap.can_change(t.play, d) and ap.obvious(t.play, d) is None


def test_an_invoke_that_turns_a_consequence_into_stress_is_the_player_s_to_make():
    """Bob beats Ann by 5: a mild consequence with her three boxes; her +2 makes it a 3-shift hit the boxes
    take alone (003:1564-1567, 003:1600-1620). She is asked."""
    t = table()
    d = _to_ann_s_invoke(t, 4, 2, "attack")  # Bob 4+4, Ann's Athletics 1+2
    assert d.context["margin"] == -5
    assert ap.can_change(t.play, d) and ap.obvious(t.play, d) is None


def test_an_invoke_that_changes_nothing_that_matters_still_goes_by_itself():
    t = table()
    d = _to_ann_s_invoke(t, 0, 4, "attack")  # Bob 4+0 against Ann 1+4: she defends by 1, a +2 makes it style
    assert d.context["margin"] == 1 and ap.can_change(t.play, d)  # with style: a boost (003:1513-1516)
    t = table()
    d = _to_ann_s_invoke(t, -4, 4, "attack")  # Bob 0 against Ann 5: she is at style already, he fails either way
    assert d.context["margin"] == 5
    assert not ap.can_change(t.play, d)
    assert ap.obvious(t.play, d) == (d.options.index(DoneInvoking()),
                                     "passes on invoking: no invoke on offer would change the result")


# -- a hit: how to take it is the player's, unless they asked to be spared (003:1619-1623) -------------
SIX_BOXES = {**ANN_BOB, "ann": {**ANN_BOB["ann"], "skills": {"Fight": 1, "Athletics": 1, "Physique": 5},
                                "fate_points": 0}}


def test_a_5_shift_hit_on_six_boxes_is_the_player_s_to_take_unless_they_asked_to_be_spared():
    """Five boxes, or a box and a moderate consequence (Cynere keeps her track with a severe one,
    000:338-342): the player is asked. A player who asked to be spared marks the five boxes without a question."""
    t = table(SIX_BOXES)
    t.play.dice.force(2, 0)  # Bob's Fight 4+2 against Ann's Athletics 1+0: a 5-shift hit
    q = answer_until(t, lambda q: asked(q, "absorb"))
    d = t.play.pending
    assert d.context["shifts"] == 5 and len(t.play.f["ann"].tracks["physical"].marked) == 6
    slots = t.play.f["ann"].slots
    plans = {(len(o.boxes), tuple(slots[i].value for i in o.slots)) for o in d.options if type(o) is Absorb}
    assert {(5, ()), (1, (4,))} <= plans  # five boxes, or a box and a moderate consequence: hers to choose
    spared = table(SIX_BOXES, autopilot=ap.Autopilot(spare=frozenset({"ann"})))
    spared.play.dice.force(2, 0)
    q = answer_until(spared, lambda q: q.actor == "ann")
    assert q.decision == "turn"  # the hit went by itself: five boxes, said in a line
    taken = [e for e in spared.log.entries if e.get("by") == "obvious" and "marks stress" in e.get("reason", "")]
    assert len(taken) == 1 and sum(spared.play.f["ann"].tracks["physical"].marked) == 5
    assert all(s.aspect is None for s in spared.play.f["ann"].slots)


def test_spare_names_pcs_of_the_scene():
    from fate_env.live.save import SessionError
    with pytest.raises(SessionError, match="spare: 'bob' is not a PC of scene 'test'; expected some of ann"):
        table(autopilot=ap.Autopilot(spare=frozenset({"bob"})))
    assert ap.from_dict({"players": {"spare": ["ann"]}}, "t.yaml").spare == {"ann"}
    with pytest.raises(ap.AutopilotError, match="players.spare: expected a list of PC ids"):
        ap.from_dict({"players": {"spare": "ann"}}, "t.yaml")
    assert ap.with_flags(ap.Autopilot(), spare="ann, cynere").spare == {"ann", "cynere"}


# -- undo never lets a player choose on dice they have seen (003:1710-1712) -----------------------------
def test_undo_past_dice_the_table_saw_rolls_new_dice_and_the_save_replays_it():
    """Undoing Ann's absorb asks it again on the same dice (they came before it); undoing once more takes
    back her defense, which came before the dice: she may concede now, so the dice from here are new."""
    t = table(SIX_BOXES)
    t.fresh_seed = lambda: 12345
    t.play.dice.force(1, 0)
    q = answer_until(t, lambda q: asked(q, "absorb"))
    before = [dict(e) for e in t.log.entries]
    t.answer(Seat("player", "ann"), q.seq, Choose(q.proposal + 1))
    t.advance()
    t.command(GM, Command("undo"))
    assert t.log.entries == before and not any("new dice" in line.text for line in t.feed)
    assert asked(t.advance(), "absorb")
    t.command(GM, Command("undo"))  # the defense that went by itself, before the dice
    assert any("new dice from here" in line.text for line in t.feed)
    assert t.log.entries[-1] == {"gm": {"power": "dice", "args": ["12345"]}}
    q = t.advance()
    assert asked(q, "respond") and Concede() in t.play.pending.options
    # the dice from here are the fresh seed's, not the ones the table saw
    expected = tuple(np.random.default_rng(12345).integers(-1, 2, size=(_BLOCK, 4))[0].tolist())
    again = Table(SessionLog.from_json(json.loads(json.dumps(t.log.to_json()))), autopilot=ap.Autopilot())
    assert t.play.dice.roll() == expected
    assert again.play.dice.roll() == expected  # the save keeps the new dice's seed


# -- a compel a player proposes is paid from that player's fate points (003:1124-1126) ----------------
def test_a_player_who_proposes_a_compel_offers_their_own_fate_point():
    from fate_env.live.commands import from_words
    t = Table(SessionLog("warehouse", None, 5, {}), autopilot=ap.Autopilot())
    t.advance()
    c = t.play
    trouble = next(a for a in c.aspects.values() if a.owner == "landon" and a.role == "trouble")
    before = {cid: c.f[cid].fate_points for cid in ("landon", "zird")}
    t.command(GM, Command("compel", {"who": "landon", "aspect": f"#{trouble.id}", "by": "zird"}))  # as the web sends it
    assert any("Zird the Arcane's player compels Landon" in line.text for line in t.feed)
    q = t.advance()
    assert q.kind == "compel" and q.owner == "landon"
    t.answer(Seat("player", "landon"), q.seq, Accept())
    assert (c.f["landon"].fate_points, c.f["zird"].fate_points) == (before["landon"] + 1, before["zird"] - 1)
    assert t.log.entries[-1] == {"gm": {"power": "compel", "args": ["landon", str(trouble.id), "by", "zird"]}}
    again = Table(SessionLog.from_json(json.loads(json.dumps(t.log.to_json()))), autopilot=ap.Autopilot())
    assert again.play.f["zird"].fate_points == before["zird"] - 1  # the save replays who paid
    t.command(GM, from_words("compel", ["landon", f"#{trouble.id}", "by", "zird", "refuse"]))  # typed with its answer
    assert (c.f["landon"].fate_points, c.f["zird"].fate_points) == (before["landon"], before["zird"] - 1)
    refused = from_words("compel", ["landon", f"#{trouble.id}", "by", "zird", "refuse"])
    assert refused.fields == {"who": "landon", "aspect": f"#{trouble.id}", "by": "zird", "refuse": True}
    with pytest.raises(ValueError, match="cannot propose a compel on landon"):
        t.command(GM, from_words("compel", ["landon", f"#{trouble.id}", "by", "og"]))  # an NPC: the GM's own


# -- compels the NPCs' side proposes, at a GM gate (003:1124-1130; 003:2027-2028) --------------------
def _offers(compels=True, seed=5):
    return Table(SessionLog("warehouse", None, seed, {}, "auto"), autopilot=ap.Autopilot(compels=compels))


def _to_offer(t: Table):
    """Play the warehouse as a table would until the first proposed compel."""
    for _ in range(400):
        q = t.advance()
        if q is None or q.kind == "offer":
            return q
        seat, answer, _ = answer_as_a_table(t)
        t.answer(seat, q.seq, answer)
    return None


def test_the_npcs_propose_a_compel_of_a_pcs_trouble_the_gm_offers_it_and_the_player_accepts():
    from fate_env.live.answers import Refuse
    from fate_env.live.refusals import Refused
    t = _offers()
    q = _to_offer(t)
    assert q is not None and q.owner is None  # the GM's question
    pc = q.actor
    a = t.play.aspect(q.aspect)
    assert a.owner == pc and a.role == "trouble" and q.names == [a.name]
    assert t.play.pending.kind == "turn" and t.play.pending.actor == pc  # before the PC's turn
    with pytest.raises(Refused):
        t.answer(Seat("player", pc), q.seq, Accept())  # not the player's to offer
    pool, points = t.play.t.gm_pool, t.play.f[pc].fate_points
    t.answer(GM, q.seq, Accept())
    c = t.advance()
    assert (c.kind, c.owner, c.aspect) == ("compel", pc, a.id)
    t.answer(Seat("player", pc), c.seq, Accept())
    assert t.play.f[pc].fate_points == points + 1 and t.play.t.gm_pool == pool  # the GM's compels are free
    assert t.log.entries[-1] == {"gm": {"power": "compel", "args": [pc, str(a.id)]}}
    assert t.advance().kind == "decision"  # the turn it came before; no second proposal this exchange
    seat, answer, _ = answer_as_a_table(t)
    t.answer(seat, t.question.seq, answer)
    with pytest.raises(Refused):
        t.answer(GM, c.seq, Refuse())  # stale


def test_a_proposal_the_gm_lets_go_changes_nothing_and_is_not_made_again():
    from fate_env.live.answers import Refuse
    t = _offers()
    q = _to_offer(t)
    entries, points = len(t.log.entries), {c: f.fate_points for c, f in t.play.f.items()}
    t.answer(GM, q.seq, Refuse())
    assert len(t.log.entries) == entries and {c: f.fate_points for c, f in t.play.f.items()} == points
    later = _to_offer(t)
    assert later is None or later.aspect != q.aspect


def test_no_proposals_unless_the_table_asks_for_them():
    t = _offers(compels=False)
    assert _to_offer(t) is None and t.finished


def test_compel_candidates_are_the_trouble_then_consequences_worst_first():
    t = _offers()
    e = t.play
    pc = next(c for c, f in e.f.items() if not f.sheet.is_npc and f.sheet.trouble)
    trouble = next(a.id for a in e.t.aspects.values() if a.owner == pc and a.role == "trouble")
    assert ap.compel_candidate(e, pc, set())[0] == trouble
    assert ap.compel_candidate(e, pc, {trouble}) is None  # no consequence yet


def test_the_settings_file_and_the_flag_turn_proposals_on():
    assert ap.from_dict({"compels": "offer"}, "x").compels and not ap.from_dict({}, "x").compels
    assert ap.with_flags(ap.Autopilot(), compels=True).compels
    with pytest.raises(ap.AutopilotError, match="compels: expected offer"):
        ap.from_dict({"compels": "yes"}, "x")
