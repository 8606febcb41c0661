"""A hostile table, driven at random (issue 72): a stateful property test (hypothesis) against a real
server on the loopback. Every seat (the GM, Cynere's player, the spectators, a stranger with a made-up
token) sends typed answers and GM commands, well-formed or not, stale or current: compels on hidden and
known aspects, fate points to 0 and below, refusals, undo, reinforcements and removals, pause, go,
step and override. After every request:

* no answer is a 5xx;
* a refused request changed nothing (the log, fate points, the GM pool, the question, the events);
* the table has a question or is over;
* no aspect hidden in the scene and not yet discovered is named in anything a seat but the GM's reads
  (the snapshot with its feed and question, the report)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install -e '.[web]')")

from hypothesis import HealthCheck, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule  # noqa: E402
from conftest import HIDDEN, hidden_duel  # noqa: E402
from test_server import table  # noqa: E402

from fate_env.live import autopilot as ap  # noqa: E402
from fate_env.live.seats import Seat  # noqa: E402
from fate_env.rules import events as ev  # noqa: E402

SEATS = ("gm", "cynere", "spectator", "stranger")
PLAYER = Seat("player", "cynere")


#: aspect handles the commands name: a character aspect, the hidden one (found by name at run time), junk
ASPECTS = st.sampled_from(["#1", "#3", "HIDDEN", "#999", "Slick", "#0"])
WHO = st.sampled_from(["cynere", "blade", "nobody", "Cyn"])
COMMANDS = st.one_of(
    st.builds(lambda who, aspect, refuse: {"command": "compel", "who": who, "aspect": aspect,
                                           **({"refuse": True} if refuse else {})}, WHO, ASPECTS, st.booleans()),
    st.builds(lambda who, n: {"command": "fp", "who": who, "n": n}, WHO, st.integers(-6, 4)),
    st.sampled_from([{"command": name} for name in ("undo", "pause", "go", "step", "override", "save")]),
    st.sampled_from([{"command": "add", "who": "Thug: minor, Fight 1, side: rival"},
                     {"command": "add", "who": "thug"}, {"command": "remove", "who": "blade"},
                     {"command": "takeover", "who": "blade"}, {"command": "release", "who": "blade"},
                     {"command": "concede", "who": "blade"}, {"command": "move", "who": "cynere", "zone": "fountain"},
                     {"command": "aspect", "name": "Smoke Everywhere"}, {"command": "rating", "who": "blade",
                                                                         "skill": "Fight", "n": 1}]),
    st.builds(lambda aspect: {"command": "unaspect", "aspect": aspect}, ASPECTS),
    st.builds(lambda aspect: {"command": "name", "aspect": aspect, "name": "Bruised Ribs"}, ASPECTS),
    st.sampled_from([{"command": "end"}, {"command": "nope"}, {"command": ["undo"]}, {"command": "fp", "who": 3, "n": "x"}]),
)
ANSWERS = st.one_of(
    st.builds(lambda n: {"answer": "choose", "number": n}, st.integers(-1, 30)),
    st.sampled_from([{"answer": a} for a in ("auto", "accept", "refuse", "override")]),
    st.builds(lambda text, n: {"answer": "name", "text": text, **({"number": n} if n else {})},
              st.sampled_from(["", "Bruised Ribs", "/end", "x" * 90]), st.integers(0, 3)),
    st.builds(lambda faces: {"answer": "dice", "faces": faces}, st.lists(st.integers(-2, 2), max_size=5)),
    st.sampled_from([{"answer": ["choose"]}, {"answer": {"a": 1}}, {"answer": "choose", "number": True},
                     {"answer": "accept", "extra": 1}]),
)


@pytest.fixture(scope="module")
def scene_file(tmp_path_factory):
    return hidden_duel(tmp_path_factory.mktemp("hostile"))


def test_a_hostile_table_never_breaks_never_half_applies_and_never_tells_what_is_hidden(scene_file, tmp_path):
    runs: list[None] = []

    class HostileTable(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            runs.append(None)  # each example saves to a file of its own (an existing --save is never replaced)
            self._table = table(scene_file, 1, save=str(tmp_path / f"save{len(runs)}.json"), autopilot=ap.Autopilot())
            self.c, self.host = self._table.__enter__()
            self.tokens = {"gm": self.c.token("gm"), "cynere": self.c.token("player", "cynere"),
                           "spectator": self.c.token("spectator"), "stranger": "A" * 24}
            self.hidden_id = next(a.id for a in self.host.table.play.t.aspects.values() if a.name == HIDDEN)

        def teardown(self) -> None:
            self._table.__exit__(None, None, None)

        def fingerprint(self) -> tuple:
            t = self.host.table
            q = t.question
            return (json.dumps(t.log.entries), {c: f.fate_points for c, f in t.play.f.items()}, t.play.t.gm_pool,
                    None if q is None else (q.seq, q.kind), len(t.play.events), t.autopilot.paused)

        def send(self, seat: str, body: dict, route: str) -> None:
            if "aspect" in body and body["aspect"] == "HIDDEN":
                body = {**body, "aspect": f"#{self.hidden_id}"}
            before = self.fingerprint()
            status, reply = self.c.post(self.tokens[seat], body, route)
            assert status < 500, (seat, route, body, status, reply)
            if status != 200:
                assert self.fingerprint() == before, (seat, route, body, status, reply)
            else:
                self.c.settled(self.tokens["gm"], reply["version"])

        @rule(seat=st.sampled_from(SEATS), body=ANSWERS, seq=st.sampled_from(["now", "stale", "junk"]))
        def answer(self, seat, body, seq):
            now = self.c.settled(self.tokens["gm"])["question"]
            number = {"now": now["seq"] if now else 0, "stale": (now["seq"] - 1) if now else 0, "junk": "7"}[seq]
            self.send(seat, {"seq": number, **body}, "answer")

        @rule(seat=st.sampled_from(SEATS), body=COMMANDS)
        def command(self, seat, body):
            self.send(seat, body, "command")

        @rule()
        def the_table_answers_as_a_table_would(self):
            """Now and then the right seat answers the question as proposed, so the fight moves on."""
            q = self.c.settled(self.tokens["gm"])["question"]
            if q is None:
                return
            seat = "cynere" if q["owner"] == "cynere" else "gm"
            answer = {"answer": "accept"} if q["kind"] in ("gate", "offer", "compel") else {"answer": "auto"}
            self.send(seat, {"seq": q["seq"], **answer}, "answer")

        @invariant()
        def a_question_or_the_end(self):
            s = self.c.settled(self.tokens["gm"])
            assert s["question"] is not None or s["over"], s["feed"][-5:]

        @invariant()
        def hidden_stays_hidden(self):
            if any(type(e) is ev.AspectRevealed and e.name == HIDDEN for e in self.host.table.play.events):
                return  # discovered: named like any other aspect from then on
            for seat in ("cynere", "spectator"):
                seen = json.dumps(self.c.get(self.tokens[seat]))
                assert HIDDEN not in seen, (seat, [line for line in seen.split("],") if HIDDEN in line][:3])
            report = self.host.report(PLAYER)
            assert report is None or HIDDEN not in report

    HostileTable.TestCase.settings = settings(max_examples=12, stateful_step_count=25, deadline=None,
                                              suppress_health_check=list(HealthCheck))
    HostileTable.TestCase().runTest()

