"""Screenshots of the web table for docs/table.md: the lobby, and each bundled game a few moves in, seen by
seat 0 playing against random bots.

    python docs/table/shoot.py [GAME...]     # writes docs/table/<game>.png and docs/table/lobby.png

Needs the web and test extras and Debian's chromium; the matches are seeded, so a run gives the same tables.
"""

from __future__ import annotations

import random
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from cardsmith.web import create_app
from cardsmith.web.background import running
from cardsmith.web.catalog import load_catalog
from playwright.sync_api import sync_playwright

OUT = Path(__file__).resolve().parent
MOVES = 4  # moves seat 0 makes before the picture: the table is dealt and some cards are out
# Then on until its moves show a card to click or a move with parameters (what each part of it is), if that
# comes within this many more moves.
MORE = 20
RICH = "() => document.querySelector('svg.card.playable, button.move .param') !== null"
SHOWN = "() => document.body.dataset.over === 'yes' || document.querySelector('[data-move-id]') !== null"


def wait_for(page: Any, predicate: str, arg: Any = None) -> None:
    deadline = time.monotonic() + 30
    while not page.evaluate(predicate, arg):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the page never met {predicate}")
        page.wait_for_timeout(20)


def shoot(games: list[str]) -> None:
    catalog = load_catalog()
    keys = games or list(catalog)
    app = create_app(catalog=catalog, bot_delay=0.0)
    with running(app) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{url}/?game=thirty-one" if "thirty-one" in catalog else url)
        page.wait_for_selector("#seat-0-kind")
        page.screenshot(path=str(OUT / "lobby.png"), full_page=True)
        for key in keys:
            n = catalog[key].compiled.spec.min_players
            seats = [{"name": "Ann"}] + [{"bot": "random"}] * (n - 1)
            r = page.request.post(f"{url}/api/rooms", data={"game": key, "players": n, "seats": seats, "seed": 5})
            d = r.json()
            page.goto(f"{url}/room/{d['room']}#token={d['seats'][0]['token']}")
            rng = random.Random(key)
            for k in range(MOVES + MORE):
                wait_for(page, SHOWN)
                if page.evaluate("document.body.dataset.over") == "yes" or (k >= MOVES and page.evaluate(RICH)):
                    break
                moves = page.locator("[data-move-id]")
                version = page.evaluate("document.body.dataset.version")
                moves.nth(rng.randrange(moves.count())).click()
                wait_for(page, "v => document.body.dataset.version !== v", version)
            wait_for(page, SHOWN)
            page.screenshot(path=str(OUT / f"{key}.png"), full_page=True)
            print(f"{key}.png")
        browser.close()


if __name__ == "__main__":
    shoot(sys.argv[1:])
