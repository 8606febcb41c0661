"""The web table in a real headless browser (Debian's chromium, driven by Playwright's Python client
pointed at the system browser: nothing is downloaded). A whole duel is played by clicks: the player's
page clicks its PC's proposed option, the GM's page accepts the gates; the player reloads mid-fight
and later comes back on a new tab; the GM uses a power, undoes, saves (only where the server was
told), and the save resumes on a new server with the same fight."""

from __future__ import annotations

import os
import shutil
import time

import pytest

REQUIRED = bool(os.environ.get("FATE_REQUIRE_BROWSER"))  # set by CI (.ci/run): nothing here may be skipped
if not REQUIRED:
    pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
    pytest.importorskip("playwright.sync_api", reason="Playwright's Python client is not installed")
from playwright import sync_api  # noqa: E402
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None and REQUIRED:  # CI (.ci/run) installs it: missing is a failure
    raise RuntimeError("FATE_REQUIRE_BROWSER is set but there is no chromium (apt-get install chromium)")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine (apt-get install chromium)")

from test_server import table  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


def _wait_for_change(c, gm, seq, timeout=20):
    end = time.time() + timeout
    while time.time() < end:
        s = c.get(gm)
        if s["over"] or (s["prompt"] and s["prompt"]["seq"] != seq):
            return s
        time.sleep(0.02)
    raise AssertionError(f"prompt {seq} was never answered")


def test_a_whole_duel_by_clicks_with_a_gm_power_undo_save_and_resume(browser, tmp_path):
    save = tmp_path / "saved.json"
    with table(save=str(save)) as (c, host):
        gm_token, player_token = c.token("gm"), c.token("player", "cynere")
        gm = browser.new_page()
        player = browser.new_page()
        gm.goto(f"{c.base}/t/{gm_token}")
        player.goto(f"{c.base}/t/{player_token}")
        gm.wait_for_selector("#panel:has-text('exchange')")
        # a GM power from the GM's page: a fate point for Cynere, said in the narration
        gm.fill("#line", "/fp cynere +1")
        gm.click("#typed button")
        gm.wait_for_selector("#narration:has-text('(GM) Cynere gains 1 fate point')")
        assert "a spectator" not in player.inner_text("#seat")
        clicks = undone = 0
        state = c.settled(gm_token)
        while not state["over"] and clicks < 300:
            p = state["prompt"]
            shown = f"#prompt[data-seq='{p['seq']}']"  # the page has drawn this prompt (a click answers it)
            gm.wait_for_selector(shown)
            player.wait_for_selector(shown)
            if p["kind"] == "gate":
                gm.locator("button.option", has_text="Accept").click()
            elif p["kind"] == "decision":
                player.locator("button.option.proposed").first.click()
            else:  # naming a PC's consequence: the suggestion (an empty line, as Enter)
                assert p["kind"] == "name" and c.get(player_token)["prompt"]["yours"], p
                player.fill("#line", "")
                player.click("#typed button")
            clicks += 1
            state = _wait_for_change(c, gm_token, p["seq"])
            if clicks == 3:  # the player reloads the page mid-fight: it draws the prompt pending now
                player.reload()
            if clicks == 8:  # the player's connection drops (the tab is closed) and they come back on a new one
                player.close()
                player = browser.new_page()
                player.goto(f"{c.base}/t/{player_token}")
            if clicks == 6 and not undone:  # the GM takes the table's last answer back
                entries = len(host.session.log.entries)
                gm.fill("#line", "/undo")
                gm.click("#typed button")
                gm.wait_for_selector("#narration:has-text('(the last answer is undone)')")
                assert len(host.session.log.entries) < entries
                undone = 1
                state = c.settled(gm_token)
            if clicks == 10:  # saved from the GM's page, where the server was told (a page names no file)
                gm.fill("#line", "/save /tmp/elsewhere.json")
                gm.click("#typed button")
                gm.wait_for_selector("#narration:has-text('the web table saves only where the server was told')")
                state = c.settled(gm_token)
                gm.wait_for_selector(f"#prompt[data-seq='{state['prompt']['seq']}']")
                gm.fill("#line", "/save")
                gm.click("#typed button")
                gm.wait_for_selector(f"#narration:has-text('saved to {save}')")
                saved_entries = list(host.session.log.entries)
                __import__("shutil").copy(save, tmp_path / "mid.json")  # the save at this point (serve rewrites it at the end)
                state = c.settled(gm_token)
        assert state["over"], f"not over after {clicks} clicks"
        assert not __import__("os").path.exists("/tmp/elsewhere.json")
        gm.wait_for_selector("#status:has-text('the fight is over')")
        assert "Winner:" in gm.inner_text("#narration")
    with table(resume=str(tmp_path / "mid.json")) as (c2, host2):
        assert host2.session.log.entries == saved_entries
        page = browser.new_page()
        page.goto(f"{c2.base}/t/{c2.token('gm')}")
        page.wait_for_selector("#panel:has-text('exchange')")
        assert page.locator("#question").inner_text()  # a prompt is waiting, shown on the resumed table


def test_the_gm_s_short_forms_apply_powers_and_the_map_follows(browser):
    """The GM's powers as forms whose fields offer what is in play: a fate point, a move and a new
    situation aspect, each seen at once in the narration, on the cards and on the map."""
    with table("warehouse", 5) as (c, host):
        gm = browser.new_page()
        gm.goto(f"{c.base}/t/{c.token('gm')}")
        gm.wait_for_selector("#map .zone[data-zone='dock']")
        assert "Ladder Access Only" in gm.inner_text("#map")  # the border's aspect, on the line between its zones

        def apply(power, **values):
            gm.select_option("#powerkind", power)
            for name, value in values.items():
                box = gm.locator(f"#powerfields [name='{name}']")
                if box.evaluate("e => e.tagName") == "SELECT":
                    box.select_option(value)
                else:
                    box.fill(value)
            gm.click("#powerapply")

        apply("fp", who="cynere", n="2")
        gm.wait_for_selector("#narration:has-text('(GM) Cynere gains 2 fate points')")
        gm.wait_for_selector("#cards .card:has-text('Cynere') >> text=fate points 5")
        apply("move", who="og", zone="dock")
        gm.wait_for_selector("#map .zone[data-zone='dock'] .who:has-text('Og')")
        assert host.session.play.f["og"].zone == "dock"
        apply("aspect", name="Thick Smoke", zone="gallery")
        gm.wait_for_selector("#map .zone[data-zone='gallery'] .zone-aspect:has-text('Thick Smoke')")
        powers = [e["gm"]["power"] for e in host.session.log.entries if "gm" in e]
        assert powers == ["fp", "move", "aspect"]
        apply("rating", who="og", skill="Figth", n="5")  # a typo: refused with the reason, nothing applied
        gm.wait_for_selector("#narration:has-text('Figth')")
        assert [e for e in host.session.log.entries if "gm" in e][-1]["gm"]["power"] == "aspect"


def test_a_page_on_another_origin_cannot_answer_for_a_player(browser, tmp_path):
    """A page on another loopback origin (127.0.0.2, its own server) makes the browser POST a player's
    answer here twice, as a no-cors fetch and as a form (what a foreign page can send without the
    table's permission); both are refused and nothing at the table changes."""
    import functools
    import http.server
    import json
    import threading

    from test_trust import fingerprint
    with table("warehouse", 5) as (c, host):
        c.settled(c.token("gm"))
        before = fingerprint(host)
        url = f"{c.base}/api/{c.token('player', host.prompt.owner)}/answer"
        body = json.dumps({"seq": host.prompt.seq, "text": "1"})
        (tmp_path / "evil.html").write_text(f"""<!doctype html><body>
<form id="f" method="POST" enctype="text/plain" action="{url}" target="sink">
<input name='{body[:-1]}, "x": "' value='"}}'></form><iframe name="sink"></iframe>
<script>
fetch({json.dumps(url)}, {{method: "POST", mode: "no-cors", body: {json.dumps(body)}}})
  .then(() => {{ document.title = "fetched"; document.getElementById("f").submit(); }},
        () => {{ document.title = "fetched"; document.getElementById("f").submit(); }});
</script></body>""")
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
        evil = http.server.ThreadingHTTPServer(("127.0.0.2", 0), handler)
        threading.Thread(target=evil.serve_forever, daemon=True).start()
        try:
            answers = []
            page = browser.new_page()
            page.on("response", lambda r: answers.append(r.status) if r.url == url else None)
            page.goto(f"http://127.0.0.2:{evil.server_address[1]}/evil.html")
            page.wait_for_function("document.title === 'fetched'")
            page.wait_for_timeout(1000)  # the form's POST lands in the frame
            assert answers and all(status in (403, 415) for status in answers), answers
            assert fingerprint(host) == before
        finally:
            evil.shutdown()
