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
        if s["over"] or (s["question"] and s["question"]["seq"] != seq and not s["busy"]):
            return s
        time.sleep(0.02)
    raise AssertionError(f"question {seq} was never answered")


PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

#: what a page's text must never hold (issue 75): a terminal's marks and a count's "(s)"; a bracket other
#: than the dice's own ("dice [+ - 0 +]"); stress boxes listed by value ("boxes 1, 1" reads as box 1 twice);
#: an aspect's terminal handle (#12); shouting
TERMINAL_TOKENS = {"an arrow": r"=>|->|<-", "a rule of dashes": r"(^|\s)--(\s|$)", "a rule of equals": r"==",
                   "'vs'": r"\bvs\b", "a count's (s)": r"\w\(s\)", "a bracket": r"\[(?![-+0 ]+\])",
                   "boxes by value": r"stress box(es)? \d+(, \d+)+", "a handle": r"#\d+",
                   "shouting": r"\b(TAKEN OUT|CONCEDES)\b",
                   "one of many": r"(?<![\d.+-])1 (more )?(options|aspects|exchanges|shifts|fights|stress boxes|victories|fate points)\b"}


def ids_and_tokens(text: str, scene) -> list[str]:
    """What in a page's ``text`` is an id or a terminal token: each character's, zone's and side's id that
    is not also its name (as a whole word, case kept: "cynere" is an id, "Cynere" the name), and the
    TERMINAL_TOKENS."""
    import re
    from fate_env.content.narrate import side_words
    bad = []
    said = " ".join([scene.title, scene.description, *(c.name for c in scene.characters), *(z.name for z in scene.zones),
                     *(a for c in scene.characters for a in c.aspects), *(a.name for a in scene.aspects)])
    named = {**{c.id: c.name for c in scene.characters}, **{z.id: z.name for z in scene.zones},
             **{sd: side_words(scene, sd).removeprefix("the ") for sd in scene.sides}}
    for key, name in named.items():
        word = rf"(?<![\w/]){re.escape(key)}(?![\w/])"
        if key != name and not re.search(word, said) and re.search(word, text):  # "dock" in "Loading dock" is a word
            bad.append(f"the id {key!r}")
    for what, pattern in TERMINAL_TOKENS.items():
        found = re.search(pattern, text, re.M)
        if found:
            bad.append(f"{what}: ...{text[max(0, found.start() - 40):found.end() + 40]!r}...")
    return bad


def sideways(page) -> list[str]:
    """The elements that stick out past the window's right edge (a page that scrolls sideways): none."""
    return page.evaluate("""() => document.documentElement.scrollWidth <= window.innerWidth ? [] :
        [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(0, 5).map((e) => `${e.tagName}#${e.id}.${e.className} ${e.textContent.slice(0, 60)}`)""")


def click_the_proposal(page, seq) -> int:
    """Answer question ``seq`` on ``page`` by its proposal, step by step (an invoke: the aspect, then how
    and who pays). Returns the number of clicks; each is on a button the page shows, never a typed line."""
    clicks = tries = 0
    while page.get_attribute("#ask", "data-seq") == str(seq) and clicks < 4 and tries < 20:
        tries += 1
        target = page.locator("#choices button.choice.proposed").first
        if not target.count():
            target = page.locator("#choices button.choice").first
        try:
            target.click(timeout=2000)
        except sync_api.Error:  # redrawn under the click (the next step, or the next question): look again
            continue
        clicks += 1
        page.wait_for_timeout(50)
    return clicks


@pytest.mark.timed  # it bounds the clicks per answer: no other test beside it
def test_a_whole_duel_by_clicks_on_a_phone_and_a_desktop_with_gm_powers_undo_save_and_resume(browser, tmp_path):
    save = tmp_path / "saved.json"
    with table(save=str(save)) as (c, host):
        gm_token, player_token = c.token("gm"), c.token("player", "cynere")
        scene = host.table.scene
        gm = browser.new_page(viewport=DESKTOP)
        player = browser.new_page(viewport=PHONE)
        gm.goto(f"{c.base}/t/{gm_token}")
        player.goto(f"{c.base}/t/{player_token}")
        gm.wait_for_selector("#cards .card")
        # the cards read like a Fate sheet: aspects, skills, stunts, stress, fate points
        card = player.locator("#mine .card[data-id='cynere']")  # the player's own sheet, under the question
        for words in ("aspects", "high concept: ", "trouble: ", "skills", "fight", "stunts", "flawless parry — +2 to fight",
                      "stress", "consequences", "fate points", "refresh 3"):
            assert words in card.inner_text().lower(), words
        # within the first screen and a half of the phone's page (issue 75): not below the log and the map
        assert player.evaluate("document.querySelector('#mine .card').getBoundingClientRect().top + scrollY") < 1.5 * 844
        # a GM power from the GM's page, a form of typed fields: a fate point for Cynere, said at once
        gm.select_option("#powerkind", "fp")
        gm.select_option("#powerfields [name='who']", "cynere")
        gm.fill("#powerfields [name='n']", "1")
        gm.click("#powerapply")
        gm.wait_for_selector("#narration:has-text('(GM) Cynere gains 1 fate point')")
        assert "spectator" not in player.inner_text("#seat")
        clicks = undone = gates = invokes = keyboard = stepped = answers = player_clicks = rolls_shown = 0
        seen_boost = seen_free = False
        state = c.settled(gm_token)
        while not state["over"] and clicks < 300:
            q = state["question"]
            shown = f"#ask[data-seq='{q['seq']}']"  # the page has drawn this question (a click answers it)
            gm.wait_for_selector(shown)
            player.wait_for_selector(shown)
            # every boost and free invoke in play is on the page, on a card or a situation aspect
            for a in state["scene"]["situation"]:
                if a["kind"] == "boost" or a["free"]:
                    text = player.inner_text("#aspects")
                    assert a["name"] in text, (a, text)
                    seen_boost |= a["kind"] == "boost"
                    seen_free |= bool(a["free"]) and "free:" in text
            for card in state["scene"]["cards"]:
                for a in card["aspects"]:
                    if a["free"]:
                        assert "free:" in player.inner_text(f".card[data-id='{card['id']}']")
                        seen_free = True
            for page in (gm, player):  # table words, names not ids, in every line either page shows
                assert not ids_and_tokens(page.inner_text("body"), scene), ids_and_tokens(page.inner_text("body"), scene)
            if q["kind"] == "gate":
                context = gm.inner_text("#context")
                assert "wants to" in context and "Why:" in context  # the gate shows the move and its reason
                gates += 1
                clicks += click_the_proposal(gm, q["seq"])
            else:
                assert c.get(player_token)["question"]["yours"], q
                if q["kind"] == "decision":  # at most eight buttons before "more" (a step, never the cross product)
                    assert player.locator("#choices > button").count() <= 8, player.inner_text("#choices")
                if q["decision"] == "invoke":
                    invokes += 1
                if q["decision"] in ("invoke", "respond"):  # the roll it is about, beside the question
                    about = player.inner_text("#context .roll")
                    assert (" dice " in about and " = " in about) if q["decision"] == "invoke" else " attacks " in about
                    rolls_shown += 1
                if q["decision"] == "absorb":
                    assert "-shift hit" in player.inner_text("#context")
                # the player's question is in view on the phone (never scrolled off the top)
                assert player.evaluate("document.getElementById('ask').getBoundingClientRect().top") >= -1
                focused = player.evaluate("document.activeElement.closest('#ask') !== null")
                if q["kind"] == "decision" and q["decision"] == "turn" and focused and keyboard < 2:
                    player.keyboard.press("Enter")  # the first choice has the focus: the proposal, by keyboard
                    keyboard += 1
                    clicks += 1
                    player_clicks += 1
                else:
                    took = click_the_proposal(player, q["seq"])
                    stepped += q["decision"] == "invoke" and took == 1  # the proposed invoke in one tap
                    clicks += took
                    player_clicks += took
                answers += 1
            state = _wait_for_change(c, gm_token, q["seq"])
            if clicks in (3, 4) and not player.is_closed():  # the player reloads mid-fight: the question pending now
                player.reload()
            if 8 <= clicks <= 9 and not hasattr(player, "_renewed"):  # a dropped connection: back on a new tab
                player.close()
                player = browser.new_page(viewport=PHONE)
                player._renewed = True
                player.goto(f"{c.base}/t/{player_token}")
            if clicks >= 6 and not undone and state["question"] and state["question"]["kind"] != "name":
                entries = len(host.session.log.entries)
                gm.click("#powerbuttons button:has-text('Undo')")
                gm.wait_for_selector("#narration:has-text('the last answer is undone')")
                assert len(host.session.log.entries) < entries
                undone = 1
                state = c.settled(gm_token)
            if clicks >= 10 and not save.exists() and state["question"] and state["question"]["kind"] != "name":
                gm.click("#powerbuttons button:has-text('Save')")  # where the server was told: a page names no file
                gm.wait_for_selector(f"#narration:has-text('saved to {save}')")
                saved_entries = list(host.session.log.entries)
                __import__("shutil").copy(save, tmp_path / "mid.json")  # the save at this point (serve rewrites it at the end)
                state = c.settled(gm_token)
            assert not sideways(player) and not sideways(gm), (sideways(player), sideways(gm))
        assert state["over"], f"not over after {clicks} clicks"
        assert gates and invokes and stepped and undone and keyboard, (gates, invokes, stepped, undone, keyboard)
        assert player_clicks / answers <= 1.2, (player_clicks, answers)
        assert rolls_shown >= invokes  # the player's taps per answer
        assert seen_boost and seen_free, (seen_boost, seen_free)
        gm.wait_for_selector("#status:has-text('the fight is over')")
        assert "Winner:" in gm.inner_text("#narration")
        # the report is a page to read (issue 75): headings, the table of who fought, lists; no Markdown marks
        for page in (gm, player):
            page.wait_for_selector("#reporttext h1")
            shown = page.inner_text("#reporttext")
            assert page.locator("#reporttext table th").count() >= 5 and page.locator("#reporttext h2").count() >= 3
            assert "**" not in shown and "| ---" not in shown and "\n# " not in "\n" + shown, shown[:300]
            sizes = page.evaluate("""() => [...document.querySelectorAll('#reporttext td, #reporttext li')]
                .map((e) => parseFloat(getComputedStyle(e).fontSize))""")
            assert sizes and min(sizes) >= 12, min(sizes)
            assert page.get_attribute("#download", "href").endswith("/report")  # the Markdown, to keep
            assert not ids_and_tokens(page.inner_text("body"), scene), ids_and_tokens(page.inner_text("body"), scene)
    with table(resume=str(tmp_path / "mid.json")) as (c2, host2):
        assert host2.session.log.entries == saved_entries
        page = browser.new_page(viewport=PHONE)
        page.goto(f"{c2.base}/t/{c2.token('gm')}")
        page.wait_for_selector("#cards .card")
        assert page.locator("#question").inner_text()  # a question is waiting, shown on the resumed table


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
        gm.wait_for_selector("#aspects .sit, #cards .card")
        gm.wait_for_selector("#cards .card[data-id='cynere'] .fp:has-text('5 fate points')")
        apply("move", who="og", zone="dock")
        gm.wait_for_selector("#map .zone[data-zone='dock'] .who:has-text('Og')")
        assert host.session.play.f["og"].zone == "dock"
        apply("aspect", name="Thick Smoke", zone="gallery")
        gm.wait_for_selector("#map .zone[data-zone='gallery'] .zone-aspect:has-text('Thick Smoke')")
        powers = [e["gm"]["power"] for e in host.session.log.entries if "gm" in e]
        assert powers == ["fp", "move", "aspect"]
        apply("rating", who="og", skill="Figth", n="5")  # a typo: refused with the reason, nothing applied
        gm.wait_for_selector("#refused:has-text('Figth')")
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
        body = json.dumps({"seq": host.prompt.seq, "answer": "choose", "number": 1})
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


def test_a_map_of_nine_zones_stays_readable_on_a_phone(browser, tmp_path):
    """Nine zones with borders, blocks and aspects: every zone box on the page, none overlapping another,
    nothing wider than the phone, and each border's words written once."""
    import yaml

    from conftest import ROOT
    scene = yaml.safe_load((ROOT / "configs" / "scenes" / "duel.yaml").read_text())
    names = ["Gate", "Courtyard", "Well", "Stables", "Great Hall", "Kitchens", "Cellar", "Chapel", "Tower Stair"]
    scene["zones"] = [{"id": f"z{i}", "name": n} for i, n in enumerate(names)]
    scene["borders"] = [{"between": [f"z{a}", f"z{b}"], **extra} for a, b, extra in
                        [(0, 1, {}), (1, 2, {}), (1, 3, {"difficulty": 1, "aspect": "Mud to the Knees"}), (1, 4, {}),
                         (4, 5, {}), (5, 6, {"difficulty": 2, "aspect": "Rotten Trapdoor"}), (4, 7, {}), (7, 8, {}),
                         (4, 8, {"blocks_ranged": True})]]
    scene["aspects"] = [{"name": "Slick Marble Steps", "zone": "z4"}, {"name": "Crowd of Onlookers"},
                        {"name": "Mud to the Knees"}, {"name": "Rotten Trapdoor"}]
    for c in scene["characters"].values():
        c["zone"] = "z4"
    path = tmp_path / "castle.yaml"
    path.write_text(yaml.safe_dump(scene))
    with table(str(path)) as (c, host):
        page = browser.new_page(viewport=PHONE)
        page.goto(f"{c.base}/t/{c.token('spectator')}")
        page.wait_for_selector("#map .zone[data-zone='z8']")
        boxes = page.evaluate("""[...document.querySelectorAll('#map .zone')].map((e) => {
            const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })""")
        assert len(boxes) == 9
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)  # no overlap
        assert not sideways(page), sideways(page)
        text = page.inner_text("#map")
        assert text.count("Rotten Trapdoor") == 1 and text.count("Mud to the Knees") == 1 and "blocks shots" in text
        assert page.locator("#map svg line").count() == 9


def test_a_compel_the_npcs_propose_is_offered_by_the_gm_and_answered_on_the_player_s_phone(browser):
    """003:1124-1130 at the GM's gate (--compels): the GM's page shows the proposal and why, the player's
    page only that the GM considers one; offered, the player's phone asks accept or refuse, and the
    accepted compel is a fate point on the PC's card."""
    from fate_env.live import autopilot as ap
    with table("warehouse", 5, autopilot=ap.Autopilot(compels=True)) as (c, host):
        gm_token = c.token("gm")
        q = c.get(gm_token)["question"]
        assert q["kind"] == "offer" and q["owner"] is None  # before Cynere's first turn
        pc = q["actor"]
        points = host.session.play.f[pc].fate_points
        gm = browser.new_page(viewport=PHONE)
        gm.goto(f"{c.base}/t/{gm_token}")
        gm.wait_for_selector(f"#ask[data-seq='{q['seq']}']")
        assert q["aspect_name"] in gm.inner_text("#ask") and "Why:" in gm.inner_text("#ask")
        player = browser.new_page(viewport=PHONE)
        player.goto(f"{c.base}/t/{c.token('player', pc)}")
        player.wait_for_selector(f"#ask[data-seq='{q['seq']}']")
        assert "considers a compel" in player.inner_text("#ask") and not player.locator("#choices button").count()
        gm.click("#choices button:has-text('Offer the compel')")
        s = _wait_for_change(c, gm_token, q["seq"])
        compel = s["question"]
        assert compel["kind"] == "compel" and compel["owner"] == pc
        player.wait_for_selector(f"#ask[data-seq='{compel['seq']}'] >> text=Accept (gain a fate point)")
        assert sideways(player) == []
        player.click("#choices button:has-text('Accept (gain a fate point)')")
        _wait_for_change(c, gm_token, compel["seq"])
        assert host.session.play.f[pc].fate_points == points + 1
        assert host.session.log.entries[-1]["gm"]["power"] == "compel"


def test_a_hidden_aspect_is_marked_on_the_gm_s_map_and_absent_from_a_player_s(browser, tmp_path):
    """aspects[].hidden (003:854-867) in the pages themselves: the GM's map and list say it is
    hidden from the players; a player's page at phone size has no trace of it."""
    import yaml
    from fate_env.content.scenes import config_dir
    data = yaml.safe_load((config_dir() / "scenes" / "duel.yaml").read_text())
    zone = data["zones"][0]["id"]
    data.setdefault("aspects", []).append({"name": "Trapdoor Under The Rug", "zone": zone, "hidden": True})
    path = tmp_path / "duel_hidden.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    with table(scene=str(path)) as (c, host):
        gm = browser.new_page(viewport=DESKTOP)
        gm.goto(f"{c.base}/t/{c.token('gm')}")
        gm.wait_for_selector("#map .zone-aspect:has-text('Trapdoor Under The Rug (hidden)')")
        assert "hidden from the players" in gm.inner_text("#aspects")
        pc = c.links.pcs[0]
        player = browser.new_page(viewport=PHONE)
        player.goto(f"{c.base}/t/{c.token('player', pc)}")
        player.wait_for_selector("#map .zone")
        assert "Trapdoor" not in player.content()


@pytest.mark.timed  # it reads each page as the next question lands: no other test beside it
def test_whose_turn_it_is_shows_in_the_tab_a_buzz_and_a_pause_everyone_sees(browser):
    """Issue 75's "is it my turn?": the player's tab title says so (the GM's does not, for the player's
    question), an optional buzz (a checkbox kept on the device) vibrates the phone once per new question;
    the GM's page marks the player's question as theirs and answers it only after a deliberate click; a
    pause by the GM is shown on every page."""
    with table() as (c, host):
        gm_token, player_token = c.token("gm"), c.token("player", "cynere")
        gm = browser.new_page(viewport=DESKTOP)
        player = browser.new_page(viewport=PHONE)
        player.add_init_script("window.buzzes = 0; navigator.vibrate = () => { window.buzzes += 1; return true; };")
        gm.goto(f"{c.base}/t/{gm_token}")
        player.goto(f"{c.base}/t/{player_token}")
        player.wait_for_selector("#cards .card")
        player.check("#buzz")
        state = c.settled(gm_token)
        seen_player_q = 0  # the player's questions: the first answered on the phone, the next by the GM for them
        answered_for = 0
        for _ in range(40):
            if state["over"]:
                break
            q = state["question"]
            shown = f"#ask[data-seq='{q['seq']}']"
            gm.wait_for_selector(shown)
            player.wait_for_selector(shown)
            if q["kind"] == "gate":
                assert not player.title().startswith("● Your move")
                assert gm.title().startswith("● Your move")
                click_the_proposal(gm, q["seq"])
            else:
                assert player.title().startswith("● Your move"), player.title()
                assert not gm.title().startswith("● Your move"), gm.title()
                assert "Waiting for Cynere's player" in gm.inner_text("#question")
                assert gm.locator("#choices button.choice").count() == 1  # only "Answer for ...": nothing live
                seen_player_q += 1
                if seen_player_q == 2:  # the GM answers for the player, deliberately
                    gm.click("#choices button:has-text(\"Answer for Cynere's player\")")
                    gm.wait_for_selector("#choices button.choice.proposed")
                    click_the_proposal(gm, q["seq"])
                    answered_for += 1
                else:
                    click_the_proposal(player, q["seq"])
            state = _wait_for_change(c, gm_token, q["seq"])
            if seen_player_q and answered_for:
                break
        assert seen_player_q and answered_for
        assert player.evaluate("window.buzzes") >= 1  # the player's second question buzzed (the box checked by then)
        gm.click("#powerbuttons button:has-text('Pause')")
        for page in (gm, player):
            page.wait_for_selector("#status:has-text('paused by the GM')")


#: what a page's text and tap targets must measure (issue 75): text of 12 px or more, targets 44 px tall or more
SIZES = """() => {
  const seen = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 &&
                        getComputedStyle(e).visibility !== 'hidden'; };
  const small = [...document.querySelectorAll('body *')].filter((e) => seen(e) &&
      [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()) &&
      parseFloat(getComputedStyle(e).fontSize) < 12)
    .map((e) => `${e.tagName}.${e.className} ${getComputedStyle(e).fontSize} ${e.textContent.trim().slice(0, 30)}`);
  const short = [...document.querySelectorAll('button, select, input:not([type=checkbox]), summary, #buzzbox')]
    .filter((e) => seen(e) && e.getBoundingClientRect().height < 43.5)
    .map((e) => `${e.tagName}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().height)}px ${e.textContent.trim().slice(0, 30)}`);
  return {small: small.slice(0, 6), short: short.slice(0, 6)};
}"""


def test_text_and_tap_targets_are_big_enough_and_the_invoke_s_steps_keep_the_focus(browser):
    """Every visible text of both pages at 12 px or more and every button, field and "more" 44 px tall or more,
    on a phone and a desktop, through a fight's questions; choosing an invoke's aspect moves the focus to the
    next step's first button, never to the page's body."""
    with table() as (c, host):
        gm_token, player_token = c.token("gm"), c.token("player", "cynere")
        pages = {}
        for name, size in (("gm", DESKTOP), ("gm phone", PHONE), ("player", PHONE), ("player desktop", DESKTOP)):
            pages[name] = browser.new_page(viewport=size)
            pages[name].goto(f"{c.base}/t/{gm_token if name.startswith('gm') else player_token}")
        player = pages["player"]
        state = c.settled(gm_token)
        stepped = 0
        for _ in range(60):
            if state["over"]:
                break
            q = state["question"]
            for name, page in pages.items():
                page.wait_for_selector(f"#ask[data-seq='{q['seq']}']")
                got = page.evaluate(SIZES)
                assert not got["small"] and not got["short"], (name, q["kind"], got)
            if q["kind"] == "gate":
                click_the_proposal(pages["gm"], q["seq"])
            elif q["decision"] == "invoke" and player.locator("#choices button.choice.aspect").count():
                player.locator("#choices button.choice.aspect").first.click()
                if player.get_attribute("#ask", "data-seq") == str(q["seq"]) and player.locator(
                        "#choices button:has-text('Back to the aspects')").count():
                    assert player.evaluate("document.activeElement.closest('#choices') !== null"), "focus lost"
                    stepped += 1
                    got = player.evaluate(SIZES)
                    assert not got["small"] and not got["short"], got
                    click_the_proposal(player, q["seq"])
            else:
                click_the_proposal(player, q["seq"])
            state = _wait_for_change(c, gm_token, q["seq"])
        assert stepped, "an invoke was answered in steps"


def test_every_page_of_a_warehouse_fight_reads_in_table_words_with_names_not_ids(browser):
    """Issue 75: a whole `serve warehouse --seed 5` fight (three PCs, five NPCs, stress boxes, consequences,
    concessions, takings-out), answered as a table would; at every question the GM's page, each player's
    phone and a spectator's page hold no id and no terminal token (TERMINAL_TOKENS), and each character's
    consequences are named for them and the hit (no two share a name)."""
    from test_server import as_a_table_would
    with table(scene="warehouse", seed=5) as (c, host):
        scene = host.table.scene
        gm = c.token("gm")
        pcs = [cs.id for cs in scene.characters if cs.kind == "pc"]
        pages = {"gm": browser.new_page(viewport=DESKTOP), "spectator": browser.new_page(viewport=PHONE)}
        pages["gm"].goto(f"{c.base}/t/{gm}")
        pages["spectator"].goto(f"{c.base}/t/{c.token('spectator')}")
        for pc in pcs:
            pages[pc] = browser.new_page(viewport=PHONE)
            pages[pc].goto(f"{c.base}/t/{c.token('player', pc)}")
        checked = 0
        for _ in range(300):
            state = c.settled(gm)
            if state["over"]:
                break
            q = state["question"]
            for name, page in pages.items():
                page.wait_for_selector(f"#ask[data-seq='{q['seq']}']")
                bad = ids_and_tokens(page.inner_text("body"), scene)
                assert not bad, (name, q["kind"], q.get("decision"), bad)
            checked += 1
            owner = next((pc for pc in pcs if (c.get(c.token("player", pc))["question"] or {}).get("yours")), pcs[0])
            who, answer, _ = as_a_table_would(c, gm, c.token("player", owner), q)
            c.answer(who, q["seq"], **answer)
        assert state["over"] and checked > 40, checked
        pages["gm"].wait_for_selector("#reporttext h1")
        for name, page in pages.items():
            page.wait_for_selector("#reporttext h1")
            assert not ids_and_tokens(page.inner_text("body"), scene), (name, ids_and_tokens(page.inner_text("body"), scene))
        carried = [a.name for a in host.table.play.t.aspects.values() if a.kind == "consequence"]
        assert len(carried) >= 4 and len(set(carried)) == len(carried), carried
