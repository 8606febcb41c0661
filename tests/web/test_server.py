"""`fate-npc serve`: play's live table behind a real server on the loopback, driven over HTTP as the
pages drive it, with typed answers and commands. Every answer is checked by the model the terminal
uses; a stale, foreign or malformed one is refused with the reason and changes nothing; the log is
play's."""

from __future__ import annotations

import io
import json
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install -e '.[web]')")

from fate_env.live import autopilot as ap  # noqa: E402
from fate_env.live.session import Session, SessionLog, SessionSetup, finish_session, open_session, run_session  # noqa: E402
from fate_env.web.host import TableHost  # noqa: E402
from fate_env.web.server import Links, listen  # noqa: E402
from fate_env.web.server import server as make_server  # noqa: E402


@contextmanager
def table(scene="duel", seed=1, resume=None, save=None, autosave=None, dice="auto", autopilot=None, controls=None):
    """A hosted session and a real server on 127.0.0.1 (a free port), stopped at the end."""
    setup = SessionSetup(scene, seed, controls or {}, dice, save, resume, autosave=autosave,
                         autopilot=autopilot or ap.Autopilot())
    host = TableHost(lambda inp, out: open_session(setup, inp, out))
    pcs = [c for c in host.session.play.f if c in host.session.humans and not host.session.play.f[c].sheet.is_npc]
    links = Links(pcs)
    # the server serve runs: its budgets, its Host check, its headers
    server = make_server(host, links, listen("127.0.0.1", 0))
    thread = threading.Thread(target=server.run, daemon=True)
    host.start()
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        client = Client(f"http://127.0.0.1:{port}", links)
        client.server = server  # its connection budget, for the flood tests
        yield client, host
    finally:
        server.should_exit = True
        host.stop()
        thread.join(timeout=10)
        finish_session(host.session, save, io.StringIO())  # as serve does when it stops
        host.session.release()


class Client:
    def __init__(self, base: str, links: Links):
        self.base, self.links = base, links

    def token(self, role, pc=None):
        return self.links.token(role, pc)

    def get(self, token, what="state"):
        with urllib.request.urlopen(f"{self.base}/api/{token}/{what}", timeout=10) as r:
            return json.loads(r.read())

    def answer(self, token, seq, answer, **fields) -> tuple[int, dict]:
        return self.post(token, {"seq": seq, "answer": answer, **fields})

    def command(self, token, command, **fields) -> tuple[int, dict]:
        return self.post(token, {"command": command, **fields}, "command")

    def post(self, token, body: bytes | dict, what="answer") -> tuple[int, dict]:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        req = urllib.request.Request(f"{self.base}/api/{token}/{what}", data=data, method="POST",
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def settled(self, token, after: int = -1, timeout: float = 20) -> dict:
        """The state once the session waits again (or is over)."""
        end = time.time() + timeout
        while time.time() < end:
            s = self.get(token)
            if (s["question"] is not None or s["over"]) and s["version"] >= after and not s["busy"]:
                return s
            time.sleep(0.02)
        raise AssertionError("the session did not settle")


def as_a_table_would(c: Client, gm: str, player: str, q: dict) -> tuple[str, dict, str]:
    """(who answers, the typed answer, the line a terminal would type for it): the player takes its
    PC's proposal, the GM accepts the NPCs' moves, a consequence keeps its suggested name."""
    mine = c.get(player)["question"]
    if mine and mine["yours"] and mine["kind"] == "decision":
        if mine["proposal"]:
            return player, {"answer": "choose", "number": mine["proposal"]}, str(mine["proposal"])
        return player, {"answer": "auto"}, "auto"
    if q["kind"] == "name":
        return (player if mine and mine["yours"] else gm), {"answer": "auto"}, ""
    return gm, {"answer": "accept"}, ""


def play_through(c: Client, gm: str, player: str, limit: int = 400) -> list[str]:
    """Answer every question as a table would; returns the lines a terminal would have typed, in order."""
    sent = []
    s = c.settled(gm)
    while not s["over"] and len(sent) < limit:
        q = s["question"]
        who, answer, line = as_a_table_would(c, gm, player, q)
        status, body = c.post(who, {"seq": q["seq"], **answer})
        assert status == 200, body
        sent.append(line)
        s = c.settled(gm, body["version"])
    return sent


def test_a_duel_played_over_http_gives_play_s_log(tmp_path):
    with table(save=str(tmp_path / "web.json")) as (c, host):
        gm, player = c.token("gm"), c.token("player", "cynere")
        sent = play_through(c, gm, player)
        assert c.get(gm)["over"] and any("Winner:" in text for _, text in c.get(gm)["feed"])
        web_log = host.session.log.entries
    # the same answers typed at a terminal give the same log, entry for entry
    term = run_session(SessionSetup("duel", 1, autosave=None, autopilot=ap.Autopilot()),
                       io.StringIO("".join(t + "\n" for t in sent)), io.StringIO())
    assert term.log.entries == web_log
    # and the web's save resumes in play
    resumed = Session(SessionLog.load(str(tmp_path / "web.json")), io.StringIO(""), io.StringIO())
    assert json.dumps(resumed.play.log()) == json.dumps(term.play.log())


def test_who_may_answer_what(tmp_path):
    with table() as (c, host):
        gm, player, spectator = c.token("gm"), c.token("player", "cynere"), c.token("spectator")
        s = c.settled(gm)
        seq = s["question"]["seq"]
        assert c.answer(spectator, seq, "choose", number=1) == (403, {"ok": False,
                                                                      "error": "a spectator's page answers nothing"})
        status, body = c.command(player, "end")
        assert status == 403 and "the GM's commands need the GM's link" in body["error"]
        assert c.get(spectator)["question"]["items"] == []  # a spectator sees no menu to click
        status, body = c.answer(player, seq + 5, "choose", number=1)
        assert status == 409 and "no longer pending" in body["error"]
        assert c.get(gm)["question"]["seq"] == seq  # the refused answers left the question pending
        before = list(host.session.log.entries)
        for bad, code in ((b"not json", 400), (json.dumps({"seq": seq}).encode(), 400),
                          (json.dumps({"seq": "1", "answer": "choose", "number": 1}).encode(), 400),
                          (json.dumps({"seq": seq, "answer": "choose", "number": "1"}).encode(), 400),
                          (json.dumps({"seq": seq, "answer": "choose", "number": 999}).encode(), 400),
                          (json.dumps({"seq": seq, "answer": "say", "text": "1"}).encode(), 400),
                          (json.dumps({"seq": seq, "answer": "choose", "number": 1, "x": 1}).encode(), 400),
                          (json.dumps({"command": "fp", "who": "cynere", "n": "+5"}).encode(), 400),
                          (json.dumps({"seq": seq, "answer": "x" * 3000}).encode(), 413)):
            status, body = c.post(player, bad, "command" if b"command" in bad else "answer")
            if b"command" in bad:  # a command from a player's link is refused before it is read
                assert status == 403
                continue
            assert status == code and body["ok"] is False and body["error"], (bad[:40], status, body)
        assert host.session.log.entries == before  # nothing refused changed anything
        with pytest.raises(urllib.error.HTTPError) as e:
            c.get("not-a-token")
        assert e.value.code == 404


def test_two_answers_to_one_prompt_apply_once():
    with table() as (c, host):
        gm, player = c.token("gm"), c.token("player", "cynere")
        seq = c.settled(gm)["question"]["seq"]
        results = []
        threads = [threading.Thread(target=lambda who=who: results.append(c.answer(who, seq, "choose", number=1)))
                   for who in (gm, player, gm, player)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(code for code, _ in results) == [200, 409, 409, 409]
        c.settled(gm, max(b.get("version", 0) for _, b in results))
        assert sum(1 for e in host.session.log.entries if "decision" in e and e.get("by") is None) == 1


def test_the_server_stopped_and_resumed_goes_on_where_it_was(tmp_path):
    auto = tmp_path / "auto.json"
    with table(autosave=str(auto)) as (c, host):
        gm, player = c.token("gm"), c.token("player", "cynere")
        play_through(c, gm, player, limit=3)
        entries = list(host.session.log.entries)
    with table(resume=str(auto), autosave=str(tmp_path / "again.json")) as (c, host):
        assert host.session.log.entries == entries
        assert c.settled(c.token("gm"))["question"] is not None


def test_serve_refuses_what_play_refuses_in_one_line(capsys):
    from fate_env.cli import main
    assert main(["serve", "duel", "--gates", "bogus"]) != 0
    assert "--gates: no gate 'bogus'" in capsys.readouterr().err
    assert main(["serve"]) != 0
    assert "serve: expected a SCENE" in capsys.readouterr().err


def test_only_the_gm_s_page_gets_the_players_links_with_qr_codes():
    with table() as (c, host):
        links = c.get(c.token("gm"))["links"]
        player = c.token("player", "cynere")
        assert [l["name"] for l in links] == ["Cynere", "spectators"]
        assert links[0]["url"].endswith(f"/t/{player}") and links[0]["url"].startswith(c.base)
        assert links[0]["qr"].startswith("data:image/svg+xml")
        assert "links" not in c.get(player) and "links" not in c.get(c.token("spectator"))


def test_the_snapshot_carries_the_map_and_a_card_per_character():
    with table("warehouse", 5) as (c, host):
        scene = c.get(c.token("spectator"))["scene"]
        assert [z["id"] for z in scene["zones"]] == ["floor_west", "floor_east", "gallery", "dock"]
        assert {"a": "floor_east", "b": "gallery", "difficulty": 2, "aspect": "Ladder Access Only",
                "blocks_ranged": False} in scene["borders"]
        cards = {card["id"]: card for card in scene["cards"]}
        assert set(cards) == {ch.id for ch in host.session.scene.characters}
        assert cards["cynere"]["fate_points"] == 3 and cards["og"]["fate_points"] is None
        assert [a["name"] for a in cards["cynere"]["aspects"]][:2] == ["Infamous Girl with Sword", "Tempted by Shiny Things"]
        assert cards["archer"]["zone"] == "gallery"


def test_a_page_cannot_choose_where_the_session_is_saved(tmp_path):
    save = tmp_path / "told.json"
    with table(save=str(save)) as (c, host):
        gm = c.token("gm")
        c.settled(gm)
        status, body = c.command(gm, "save", file=str(tmp_path / "chosen.json"))
        assert status == 400 and "/save takes no such field" in body["error"]  # no field names a file
        assert not (tmp_path / "chosen.json").exists()
        status, body = c.command(gm, "save")
        s = c.settled(gm, body["version"])
        assert save.exists() and any(f"saved to {save}" in text for _, text in s["feed"])


def test_a_save_from_play_resumes_on_the_web(tmp_path):
    save = tmp_path / "from_play.json"
    term = run_session(SessionSetup("duel", 1, save=str(save), autosave=None, autopilot=ap.Autopilot()),
                       io.StringIO("1\n" * 3), io.StringIO())
    with table(resume=str(save)) as (c, host):
        assert host.session.log.entries == term.log.entries
        assert c.settled(c.token("gm"))["question"] is not None


def test_the_gm_overriding_an_npc_gets_its_options_with_the_npc_s_choice_marked():
    with table() as (c, host):
        gm, player = c.token("gm"), c.token("player", "cynere")
        s = c.settled(gm)
        while s["question"]["kind"] != "gate":  # to the first GM gate (the duel's: a fate point past the budget)
            _, answer, _ = as_a_table_would(c, gm, player, s["question"])
            status, body = c.answer(gm, s["question"]["seq"], **answer)
            s = c.settled(gm, body["version"])
        gate = s["question"]
        assert gate["move"] and gate["reason"] and gate["gate"]  # the gate says the move and why
        status, body = c.answer(gm, gate["seq"], "override")
        s = c.settled(gm, body["version"])
        p = s["question"]
        assert p["kind"] == "decision" and p["actor"] == "blade" and p["yours"] and p["for_npc"]
        assert sum(o["proposed"] for o in p["items"]) == 1
        assert c.get(player)["question"]["yours"] is False  # the player cannot answer the GM's choice



def test_a_player_rolls_their_own_dice_on_their_page_and_the_report_comes_at_the_end():
    with table(dice="physical") as (c, host):
        gm, player = c.token("gm"), c.token("player", "cynere")
        s = c.settled(gm)
        req = urllib.request.Request(f"{c.base}/api/{gm}/report")
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(req, timeout=10)
        assert e.value.code == 409  # no report before the end
        rolled = 0
        while not s["over"]:
            p = s["question"]
            if p["kind"] == "dice":
                assert p["actor"] == "cynere" and c.get(player)["question"]["yours"]
                status, body = c.answer(c.token("spectator"), p["seq"], "dice", faces=[1, 1, 1, 1])
                assert status == 403
                status, body = c.answer(player, p["seq"], "dice", faces=[1, 0, 2, 1])
                assert status == 400 and "faces" in body["error"]
                status, body = c.answer(player, p["seq"], "dice", faces=[1, 0, -1, 1])
                rolled += 1
            else:
                who, answer, _ = as_a_table_would(c, gm, player, p)
                status, body = c.answer(who, p["seq"], **answer)
            assert status == 200, body
            s = c.settled(gm, body["version"])
        assert rolled and all(e.get("dice") in (None, [[1, 0, -1, 1]]) or all(f == [1, 0, -1, 1] for f in e["dice"])
                              for e in host.session.log.entries)
        with urllib.request.urlopen(f"{c.base}/api/{player}/report", timeout=10) as r:
            text = r.read().decode()
            assert r.headers["Content-Disposition"] == 'attachment; filename="fight-report.md"'
        assert text.startswith("# ") and "## Who fought" in text


def test_the_map_shows_a_block_while_it_stands_and_not_once_it_is_cleared():
    """A block on a border (003:2300-2345) is on the map as the border's aspect and difficulty while
    it stands; cleared in the fight, the border is drawn as it was without it."""
    from conftest import DUO, make_scene

    from fate_env.content.narrate import Narrator
    from fate_env.live.state_panel import data
    from fate_env.rules import blocks
    from fate_env.rules.engine import start
    apart = {"hero": DUO["hero"], "brute": {**DUO["brute"], "zone": "hall"}}
    scene = make_scene(apart, zones=("room", "hall"), first="hero",
                       borders=[{"between": ["room", "hall"], "block": {"name": "Vat of Acid", "rating": 3, "weapon": 4}}])
    engine = start(scene, seed=0)
    narrator = Narrator(scene)
    assert data(engine, narrator)["borders"] == [{"a": "room", "b": "hall", "difficulty": 3, "aspect": "Vat of Acid",
                                                  "blocks_ranged": False}]
    blocks.clear(engine, scene.borders[0])
    assert data(engine, narrator)["borders"] == [{"a": "room", "b": "hall", "difficulty": 0, "aspect": None,
                                                  "blocks_ranged": False}]


def test_only_the_gm_s_page_gets_what_the_power_forms_offer():
    with table("warehouse", 5) as (c, host):
        gm = c.get(c.token("gm"))["gm"]
        from fate_env.live.session import load_library
        assert gm["library"] == sorted(load_library()) and len(gm["library"]) > 3
        assert gm["reserves"] == [{"id": r.id, "name": r.name} for r in host.session.scene.reserves]
        assert {"Fight", "Shoot", "Athletics"} <= set(gm["skills"])
        assert "gm" not in c.get(c.token("player", "cynere")) and "gm" not in c.get(c.token("spectator"))


def test_a_hidden_aspect_is_on_the_gms_page_and_on_no_players(tmp_path):
    """aspects[].hidden (003:854-867): the GM's state lists it, marked hidden; a player's and a
    spectator's have no trace of its name."""
    import yaml
    from fate_env.content.scenes import config_dir
    data = yaml.safe_load((config_dir() / "scenes" / "duel.yaml").read_text())
    data.setdefault("aspects", []).append({"name": "Trapdoor Under The Rug", "hidden": True})
    path = tmp_path / "duel_hidden.yaml"
    path.write_text(yaml.safe_dump(data))
    with table(scene=str(path)) as (client, host):
        gm = client.get(client.token("gm"))
        found = [a for a in gm["scene"]["situation"] if a["name"] == "Trapdoor Under The Rug"]
        assert found and found[0]["hidden"] is True
        for pc in client.links.pcs:
            raw = json.dumps(client.get(client.token("player", pc)))
            assert "Trapdoor" not in raw
        assert "Trapdoor" not in json.dumps(client.get(client.token("spectator")))


def test_a_rehearsal_s_wait_is_shown_on_the_pages_while_it_runs(monkeypatch):
    """The smugglers' first decision comes after Cynere's answer: their rehearsal runs inside that change.
    While it runs, the pages are told (an event on the stream) and their state shows the line saying so,
    the NPCs playing, and no question; once it is done the table settles as before."""
    import agents.learned as learned
    import agents.rehearsal as rehearsal
    monkeypatch.setattr(learned, "_LINES", {})
    with table("warehouse", 4, controls={"smugglers": "learned"}) as (c, host):
        gm = c.token("gm")
        s = c.settled(gm)
        before = s["version"]
        assert s["question"]["owner"] == "cynere" and not any("rehears" in t for _, t in s["feed"])
        seen, events = [], []
        real = rehearsal.rehearse

        def watched(*args, **kw):
            seen.append(c.get(c.token("spectator")))  # over HTTP, from another thread, while it waits
            end = time.time() + 10
            while len(events) < 2 and time.time() < end:  # the stream told the page, before the wait ends
                time.sleep(0.01)
            return real(*args, **kw)
        monkeypatch.setattr(rehearsal, "rehearse", watched)

        def listen_():
            with urllib.request.urlopen(f"{c.base}/api/{gm}/events", timeout=20) as r:
                for raw in r:
                    if raw.startswith(b"data: "):
                        events.append(int(raw[6:]))
                    if len(events) == 3:
                        return
        ear = threading.Thread(target=listen_, daemon=True)
        ear.start()
        end = time.time() + 10
        while not events and time.time() < end:  # the stream's first event: the version it found
            time.sleep(0.01)
        status, body = c.post(c.token("player", "cynere"), {"seq": s["question"]["seq"], "answer": "auto"})
        assert status == 200, body
        after = c.settled(gm, body["version"])
        ear.join(timeout=20)
        assert len(seen) == 1
        mid = seen[0]
        assert mid["busy"] and mid["question"] is None and before < mid["version"] < after["version"]
        assert "tries this scene out for the smugglers before it plays" in mid["feed"][-1][1]
        assert events == [before, mid["version"], after["version"]]
        texts = [t for _, t in after["feed"]]
        ahead = next(i for i, t in enumerate(texts) if "tries this scene out" in t)
        assert ahead < next(i for i, t in enumerate(texts) if "rehearsed this scene" in t)
