"""A seat's page in a real headless Chromium while `cardsmith serve --store` is killed with SIGKILL and started
again: the page's link still works, shows the table exactly as before, and the match plays on (issue 32,
part 5)."""

from __future__ import annotations

import random
import shutil
import signal
import time
from pathlib import Path
from typing import Any

import pytest

httpx = pytest.importorskip("httpx", reason="the test extra (httpx) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")
from test_serve_restart import free_port, server  # noqa: E402

CHROMIUM = shutil.which("chromium")
pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.web,
              pytest.mark.skipif(CHROMIUM is None,
                                 reason="Debian's chromium is not installed (apt-get install chromium)")]

YOUR_TURN = "() => document.querySelector('[data-move-id]') !== null"


def wait_for(page: Any, predicate: str, arg: Any = None, timeout: float = 30.0) -> None:
    """Poll `predicate` in the page (the table's Content-Security-Policy forbids Playwright's own eval)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(predicate, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"the page never met {predicate}")
        page.wait_for_timeout(20)


def click_a_move(page: Any, rng: random.Random) -> None:
    moves = page.locator("[data-move-id]")
    version = page.evaluate("document.body.dataset.version")
    moves.nth(rng.randrange(moves.count())).click()
    wait_for(page, "v => document.body.dataset.version !== v", version)


def shown(page: Any) -> tuple[str, str]:
    return page.evaluate("document.body.dataset.version"), page.inner_text("#table")


def test_a_seat_s_page_shows_the_same_table_after_kill_9_and_a_restart(tmp_path: Path) -> None:
    store, port, rng = tmp_path / "tmp.db", free_port(), random.Random(3)
    url = f"http://127.0.0.1:{port}"
    errors: list[str] = []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.on("pageerror", lambda e: errors.append(str(e)))
        with server(store, port) as p:
            d = httpx.post(f"{url}/api/rooms", json={"game": "schwimmen", "players": 2,
                                                     "seats": [{"name": "Cy"}, {"bot": "random"}]}).json()
            link = f"{url}/room/{d['room']}#token={d['seats'][0]['token']}"
            page.goto(link)
            for _ in range(3):
                wait_for(page, YOUR_TURN)
                click_a_move(page, rng)
            wait_for(page, YOUR_TURN)  # the bot has answered: the table waits for Cy
            before = shown(page)
            p.send_signal(signal.SIGKILL)
            p.wait(timeout=30)
        with server(store, port):
            # A page opened anew from the link shows the same; the open page reconnects by itself.
            fresh = browser.new_page(viewport={"width": 1200, "height": 900})
            fresh.goto(link)
            wait_for(fresh, YOUR_TURN)
            assert shown(fresh) == before
            assert shown(page) == before
            click_a_move(fresh, rng)  # the match plays on
            wait_for(page, "v => document.body.dataset.version !== v", before[0])
        browser.close()
    assert not errors, errors


def test_a_match_dealt_from_128_bits_is_saved_and_replayed_in_the_page(tmp_path: Path) -> None:
    """The record's seed, a 39-digit number, crosses the page as written (a JavaScript number would round it,
    and the server would refuse the record)."""
    import json

    from cardsmith.table.record import MatchRecord

    store, port, rng = tmp_path / "tmp.db", free_port(), random.Random(4)
    url = f"http://127.0.0.1:{port}"
    errors: list[str] = []
    with sync_api.sync_playwright() as pw, server(store, port):
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1200, "height": 900}, accept_downloads=True)
        page.on("pageerror", lambda e: errors.append(str(e)))
        r = httpx.post(f"{url}/api/rooms", json={"game": "kuhn-poker", "players": 2,
                                                 "seats": [{"name": "Cy"}, {"bot": "random"}]})
        assert r.status_code == 200, r.text
        d = r.json()
        page.goto(f"{url}/room/{d['room']}#token={d['seats'][0]['token']}")
        while True:
            wait_for(page, "() => document.body.dataset.over === 'yes' || "
                           "document.querySelector('[data-move-id]') !== null")
            if page.evaluate("document.body.dataset.over") == "yes":
                break
            click_a_move(page, rng)
        with page.expect_download() as dl:
            page.click("#save-button")
        saved = tmp_path / "match.json"
        dl.value.save_as(saved)
        rec = MatchRecord.from_json(json.loads(saved.read_text()))
        assert rec.seed is not None and rec.seed >= 2**128
        page.click("#replay-button")
        page.wait_for_url(f"{url}/replay")
        wait_for(page, "() => document.body.dataset.step === '0'")
        page.click("#last")
        wait_for(page, f"() => document.body.dataset.step === '{rec.decisions}'")
        assert page.evaluate("document.getElementById('notice').hidden")
        browser.close()
    assert not errors, errors
