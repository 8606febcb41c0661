"""The README's screenshots of the web table: the GM's page and a player's page, on the warehouse
(seed 5) at a player's turn (a decision of many options), taken by Debian's chromium through Playwright
(nothing downloaded).

    python scripts/web_screenshots.py [--out docs] [--answers 0] [--at turn|invoke|respond|absorb|offer|report] [--phone]

``--answers N`` answers N questions first (each by its proposal), then goes on to the next player's
question of the kind ``--at`` names (a turn, an invoke, a defense, a hit to take; ``offer``: the first compel the
NPCs' side proposes, the table playing with ``--compels``, shown on the GM's page and that PC's player's; ``report``:
the fight played to its end, each page scrolled to its report). Each page's file name says which; the
script prints how many buttons the question shows on each page (the rest are behind "more").

The server is the one ``serve`` runs (its budgets, Host check and headers); ``--phone`` adds each page
at a phone's size (390x844, its screen) as ``*_phone.png``, and at a turn the player's own sheet
(``web_player_sheet_phone.png``, the phone scrolled to it).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright  # noqa: E402

from fate_env.live import autopilot as ap  # noqa: E402
from fate_env.live.session import SessionSetup, open_session  # noqa: E402
from fate_env.web.host import TableHost  # noqa: E402
from fate_env.web.server import Links, listen, server  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, default=Path("docs"))
    p.add_argument("--answers", type=int, default=0)
    p.add_argument("--phone", action="store_true", help="also each page at 390x844, as its screen shows it (*_phone.png)")
    p.add_argument("--at", choices=("turn", "invoke", "respond", "absorb", "offer", "report"), default="turn",
                   help="the player's question to show")
    args = p.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("no chromium on this machine: apt-get install chromium")
    setup = SessionSetup("warehouse", 5, autosave=None, autopilot=ap.Autopilot(compels=args.at == "offer"))
    host = TableHost(lambda inp, out: open_session(setup, inp, out))
    s = host.session
    links = Links([c for c in s.play.f if c in s.humans and not s.play.f[c].sheet.is_npc])
    web = server(host, links, listen("127.0.0.1", 0))
    threading.Thread(target=web.run, daemon=True).start()
    host.start()
    while not web.started:
        time.sleep(0.01)
    base = f"http://127.0.0.1:{web.servers[0].sockets[0].getsockname()[1]}"
    gm = links.token("gm")
    answered = 0
    while True:  # N answers in, then on to a player's turn
        with urllib.request.urlopen(f"{base}/api/{gm}/state") as r:
            q = json.loads(r.read())["question"]
        if args.at == "report" and q is None and host.session.table.finished:
            break
        if args.at == "report" and q is None:
            time.sleep(0.05)
            continue
        if (args.at != "report" and q is None) or (answered >= args.answers and q["kind"] == "decision" and q["decision"] == args.at
                         and not q["for_npc"]) or (args.at == "offer" and q["kind"] == "offer"):
            break
        answer = ({"answer": "choose", "number": q["proposal"]} if q["kind"] == "decision" and q["proposal"]
                  else {"answer": "accept"} if q["kind"] in ("gate", "compel") else {"answer": "auto"})
        req = urllib.request.Request(f"{base}/api/{gm}/answer", method="POST",
                                     headers={"Content-Type": "application/json"},
                                     data=json.dumps({"seq": q["seq"], **answer}).encode())
        urllib.request.urlopen(req).read()
        answered += 1
    pc = next(seat.pc for seat in links.seats.values() if seat.role == "player" and host.prompt and
              seat.pc == host.prompt.owner) if host.prompt and host.prompt.owner else (
        q["actor"] if q is not None and q["kind"] == "offer" else "cynere")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=ARGS)
        sizes = [("", {"width": 1280, "height": 900}, False)]
        if args.phone:
            sizes.append(("_phone", {"width": 390, "height": 844}, False))  # what the phone's screen shows
        for suffix, viewport, whole in sizes:
            for seat, token in (("gm", gm), ("player", links.token("player", pc))):
                page = browser.new_page(viewport=viewport)
                page.goto(f"{base}/t/{token}")
                page.wait_for_selector("#map .zone")
                page.wait_for_selector("#ask[data-seq]")
                if args.at == "report":
                    page.wait_for_selector("#reporttext h1")
                    page.evaluate("document.getElementById('reporttext').scrollIntoView()")
                time.sleep(0.3)
                name = args.out / f"web_{seat}{'' if args.at == 'turn' else '_' + args.at}{suffix}.png"
                page.screenshot(path=str(name), full_page=whole)
                shown = page.locator("#choices button:visible").count()
                print(f"wrote {name} ({shown} buttons shown for the question)")
                if seat == "player" and suffix == "_phone" and args.at == "turn":  # their own sheet, under the question
                    page.evaluate("document.getElementById('mine').scrollIntoView(); scrollBy(0, -80)")  # below the header
                    time.sleep(0.2)
                    sheet = args.out / "web_player_sheet_phone.png"
                    page.screenshot(path=str(sheet))
                    print(f"wrote {sheet} (the player's own sheet)")
        browser.close()
    web.should_exit = True
    host.stop()


if __name__ == "__main__":
    main()
