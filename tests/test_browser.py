"""The web table in a real headless Chromium (Debian's `chromium`, driven by Playwright): whole matches clicked
through the page against bots, two browsers playing each other, hot-seat, saving and replaying in the page.

The server runs in a thread of this process on a free port (cardsmith.web.background), so the tests can
compare what the page shows with the room's state."""

from __future__ import annotations

import json
import random
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")

from cardsmith.table.record import MatchRecord  # noqa: E402
from cardsmith.web import create_app  # noqa: E402
from cardsmith.web.background import running  # noqa: E402
from cardsmith.web.catalog import load_catalog  # noqa: E402

CHROMIUM = shutil.which("chromium")
pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.web,
              pytest.mark.skipif(CHROMIUM is None,
                                 reason="Debian's chromium is not installed (apt-get install chromium)")]

SEEN_MOVE = "() => document.body.dataset.over === 'yes' || document.querySelector('[data-move-id]') !== null"


def wait_for(page: Any, predicate: str, arg: Any = None, timeout: float = 30.0) -> None:
    """Poll `predicate` (a JavaScript function) in the page. Playwright's own wait_for_function evaluates its
    text with eval() while polling, which the table's Content-Security-Policy forbids, as it should."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(predicate, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"the page never met {predicate}")
        page.wait_for_timeout(15)


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Any]]:
    app = create_app(catalog=load_catalog(["stichln", "schwimmen", "kuhn-poker"]), bot_delay=0.0)
    with running(app) as url:
        yield url, app.state.table.rooms


PAGE_ERRORS: list[str] = []


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture(autouse=True)
def no_script_errors() -> Iterator[None]:
    """Every page of a test is watched: an error thrown by the page's scripts fails the test."""
    PAGE_ERRORS.clear()
    yield
    assert not PAGE_ERRORS, PAGE_ERRORS


def watched(page: Any) -> Any:
    page.on("pageerror", lambda e: PAGE_ERRORS.append(f"{page.url}: {e}"))
    page.on("console", lambda m: m.type == "error" and PAGE_ERRORS.append(f"{page.url}: {m.text}"))
    return page


def open_table(browser: Any, url: str, game: str, players: int, seats: list[str], options: dict[str, str],
               seed: int) -> tuple[Any, list[str]]:
    """Set a table up in the lobby as a person would; the page and each person's link."""
    page = watched(browser.new_page(viewport={"width": 1200, "height": 900}))
    page.goto(f"{url}/?game={game}")
    page.wait_for_selector("#seat-0-kind")
    page.fill("#players", str(players))
    page.dispatch_event("#players", "change")
    for name, value in options.items():
        page.fill(f"#option-{name}", value)
    for k, who in enumerate(seats):
        if who == "person":
            page.select_option(f"#seat-{k}-kind", "person")
        else:
            page.select_option(f"#seat-{k}-kind", "bot")
            page.fill(f"#seat-{k}-spec", who)
    page.fill("#seed", str(seed))
    page.click("#create")
    page.wait_for_selector("#links:not([hidden])")
    links = [a.get_attribute("href") for a in page.query_selector_all(".seat-link")]
    return page, [x for x in links if x]


def room_of(link: str, rooms: Any) -> Any:
    return rooms.get(link.split("/room/")[1].split("#")[0])


def click_a_move(page: Any, rng: random.Random) -> None:
    """Click one of the legal moves shown (a card or a button) and wait for the table to change."""
    moves = page.locator("[data-move-id]")
    n = moves.count()
    assert n > 0
    version = page.evaluate("document.body.dataset.version")
    moves.nth(rng.randrange(n)).click()
    wait_for(page, "v => document.body.dataset.version !== v", version)


def play_to_the_end(page: Any, rng: random.Random, limit: int = 600) -> int:
    clicks = 0
    while True:
        wait_for(page, SEEN_MOVE)
        if page.evaluate("document.body.dataset.over") == "yes":
            return clicks
        click_a_move(page, rng)
        clicks += 1
        assert clicks < limit, "the match did not end"


def check_the_end(page: Any, room: Any) -> None:
    summary = page.locator("#summary")
    assert summary.is_visible() and "End of deal" in summary.inner_text()
    result = page.locator("#result")
    text = result.inner_text()
    assert "The match is over" in text
    names = [s.name for s in room.seats]
    winners = room.state.winners
    if len(winners) == 1:
        assert f"{names[winners[0]]} wins" in text
    for v in room.state.returns():
        assert (str(int(v)) if float(v).is_integer() else str(round(v, 3))) in text


def test_a_trick_game_against_bots_in_the_page(browser: Any, server: tuple[str, Any], tmp_path: Path) -> None:
    url, rooms = server
    lobby, links = open_table(browser, url, "stichln", 3, ["person", "random", "random"], {"deals": "1"}, seed=4)
    page = watched(browser.new_page(viewport={"width": 1200, "height": 900}))
    page.goto(links[0])
    wait_for(page, SEEN_MOVE)
    room = room_of(links[0], rooms)
    # The other seats' hands are backs with counts; the rules help shows the summary and the options' docs.
    assert page.locator('.player[data-seat="1"] [data-zone="hand"] svg.card.back').count() == 1
    page.click("#rules-button")
    rules = page.locator("#rules")
    assert room.game.spec.summary.split()[0] in rules.inner_text()
    assert "number of deals in the match" in rules.inner_text() and "deals = 1" in rules.inner_text()
    # Below them, the game's rulebook (cardsmith explain), with links that move within the dialog only.
    wait_for(page, "() => document.getElementById('rules').dataset.rulebook === 'shown'")
    text = rules.inner_text()
    assert "Where the cards lie" in text and "The end of the match" in text and "choose minus (choose_minus)" in text
    address = page.url
    rules.locator("a.rulebook-link", has_text="tricks").first.click()
    assert page.url == address  # the address keeps the seat's token
    rules.locator("button").click()
    clicks = play_to_the_end(page, random.Random(1))
    assert clicks >= 5 and room.state.is_terminal()
    check_the_end(page, room)
    # Save: the download is the match record.
    with page.expect_download() as dl:
        page.click("#save-button")
    saved = tmp_path / "match.json"
    dl.value.save_as(saved)
    rec = MatchRecord.from_json(json.loads(saved.read_text()))
    assert rec.result is not None and rec.result["returns"] == room.state.returns()
    # Replay in the page, step by step.
    page.click("#replay-button")
    page.wait_for_url(f"{url}/replay")
    wait_for(page, "() => document.body.dataset.step === '0'")
    assert f"move 0 of {rec.decisions}" in page.inner_text("#step")
    page.click("#next")
    wait_for(page, "() => document.body.dataset.step === '1'")
    page.click("#last")
    wait_for(page, f"() => document.body.dataset.step === '{rec.decisions}'")
    assert "The match is over" in page.inner_text("#result")
    # The replay shows the deal as it ended too; in a trick game the hands are played out, nothing face down.
    assert "End of deal 1" in page.inner_text("#summary") and page.locator("#summary svg.card.back").count() == 0
    assert page.locator('#summary tr[data-seat="1"] [data-zone="minus"] svg.card').count() == 1
    lobby.close()
    page.close()


def summary_cards(page: Any, seat: int) -> list[str]:
    """The cards the end-of-deal panel shows in `seat`'s row."""
    return page.eval_on_selector_all(f'#summary tr[data-seat="{seat}"] svg.card:not(.back)',
                                     "cs => cs.map(c => c.dataset.card)")


def test_a_rule_file_s_text_is_only_text_in_the_rules_dialog(browser: Any, tmp_path: Path) -> None:
    """A rule file's name, summary, labels, docs and comments holding markup are shown as text in the page."""
    from test_explain import HOSTILE, hostile
    app = create_app(catalog=load_catalog([str(hostile(tmp_path))]), bot_delay=0.0)
    with running(app) as url:
        lobby, links = open_table(browser, url, "hostile", 2, ["person", "random"], {}, seed=1)
        page = watched(browser.new_page())
        page.goto(links[0])
        wait_for(page, SEEN_MOVE)
        page.click("#rules-button")
        wait_for(page, "() => document.getElementById('rules').dataset.rulebook === 'shown'")
        text = page.inner_text("#rules")
        for raw in (HOSTILE["game"], HOSTILE["comment"], "<i>lab</i>|"):
            assert raw in text, raw
        assert page.evaluate("document.querySelectorAll('#rules script, #rules img, #rules i, #rules b').length") == 0
        lobby.close()
        page.close()


def test_schwimmen_against_a_bot_in_the_page(browser: Any, server: tuple[str, Any]) -> None:
    url, rooms = server
    lobby, links = open_table(browser, url, "schwimmen", 2, ["person", "random"], {}, seed=7)
    page = watched(browser.new_page(viewport={"width": 1200, "height": 900}))
    page.goto(links[0])
    room = room_of(links[0], rooms)
    rng = random.Random(2)
    clicks = 0
    ends_seen = 0
    while True:
        wait_for(page, SEEN_MOVE)
        if page.evaluate("document.body.dataset.over") == "yes":
            break
        panel = page.locator("#summary details")
        if not ends_seen and panel.count():
            # A deal has ended and this seat has not moved since: the panel is open with the opponent's three
            # cards turned up, as the opponent held them then.
            assert panel.get_attribute("open") is not None
            ended = room.state.observation(1)["deal_end"]
            assert page.get_attribute("#summary", "data-deal") == str(ended["deal"])
            held = ended["zones"]["hand[1]"]
            assert len(held) == 3 and sorted(summary_cards(page, 1)) == sorted(held)
            assert len(summary_cards(page, 0)) == 3 and "lives" in page.inner_text("#summary")
            ends_seen = ended["deal"]
            click_a_move(page, rng)
            clicks += 1
            # After this seat's first move in the next deal the panel is closed; a click opens it again.
            if page.get_attribute("#summary", "data-deal") == str(ends_seen) and not room.over:
                assert page.locator("#summary details").get_attribute("open") is None
                page.click("#summary summary")
                assert page.locator("#summary details").get_attribute("open") is not None
            continue
        click_a_move(page, rng)
        clicks += 1
        assert clicks < 600, "the match did not end"
    assert clicks > 3 and room.state.is_terminal() and ends_seen
    check_the_end(page, room)
    # The last deal's panel (no next deal follows it) shows the opponent's hand as the match ended.
    assert sorted(summary_cards(page, 1)) == sorted(room.state.observation(1)["zones"]["hand[1]"])
    # The end-of-deal summary shows the lives and says who is out.
    summary = page.inner_text("#summary")
    assert "lives" in summary
    out = [e[1] for e in room.state.log if e[0] == "eliminated"]
    assert out and f"{room.seats[out[-1]].name} is out of the match" in summary
    lobby.close()
    page.close()


def test_two_browsers_play_each_other_and_a_bot(browser: Any, server: tuple[str, Any]) -> None:
    url, rooms = server
    lobby, links = open_table(browser, url, "schwimmen", 3, ["person", "person", "random"], {}, seed=3)
    assert len(links) == 2
    contexts = [browser.new_context(viewport={"width": 1000, "height": 800}) for _ in links]
    pages = [watched(c.new_page()) for c in contexts]
    for page, link in zip(pages, links):
        page.goto(link)
        wait_for(page, "() => document.body.dataset.version !== undefined")
    room = room_of(links[0], rooms)
    rng = random.Random(5)
    clicks = [0, 0]
    for _ in range(2000):
        if room.over:
            break
        p = room.state.current_player()
        if p not in (0, 1):
            pages[0].wait_for_timeout(20)
            continue
        page = pages[p]
        wait_for(page, SEEN_MOVE)
        if page.evaluate("document.body.dataset.over") == "yes":
            break
        # The other person's hand is never drawn face up on this page.
        assert page.locator(f'.player[data-seat="{1 - p}"] [data-zone="hand"] svg.card.back').count() == 1
        assert pages[1 - p].locator("[data-move-id]").count() == 0
        click_a_move(page, rng)
        clicks[p] += 1
    assert room.state.is_terminal() and min(clicks) > 0
    for page in pages:
        wait_for(page, "() => document.body.dataset.over === 'yes'")
        check_the_end(page, room)
    for c in contexts:
        c.close()
    lobby.close()


def test_hot_seat_hides_each_hand_behind_a_curtain(browser: Any, server: tuple[str, Any]) -> None:
    url, rooms = server
    lobby, _links = open_table(browser, url, "kuhn-poker", 2, ["person", "person"], {}, seed=1)
    hot = lobby.get_attribute("#hotseat-link", "href")
    page = watched(browser.new_page())
    page.goto(url + hot)
    rng = random.Random(0)
    seats_seen = set()
    while True:
        wait_for(page, "() => document.body.dataset.over === 'yes' || !document.getElementById('curtain').hidden")
        if page.evaluate("document.body.dataset.over") == "yes":
            break
        # Behind the curtain no card is on the screen.
        assert page.locator("#table svg.card").count() == 0
        assert "Pass the screen to" in page.inner_text("#curtain-text")
        page.click("#curtain-button")
        page.wait_for_selector("[data-move-id]")
        seats_seen.add(page.evaluate("document.body.dataset.seat"))
        click_a_move(page, rng)
    assert seats_seen == {"0", "1"}
    check_the_end(page, room_of(page.url, rooms))
    lobby.close()
    page.close()


def test_moves_and_values_of_several_cards_are_drawn_as_cards(browser: Any) -> None:
    """tests/games/melds.yaml: a pair given to the crib and a meld laid are buttons showing their cards, and the
    card_lists variables (the seat's own gifts, the melds on the table) groups of small cards."""
    from conftest import ROOT
    app = create_app(catalog=load_catalog([str(ROOT / "tests" / "games" / "melds.yaml")]), bot_delay=0.0)
    with running(app) as url:
        lobby, links = open_table(browser, url, "melds", 2, ["person", "layer"], {}, seed=5)
        page = watched(browser.new_page(viewport={"width": 1200, "height": 900}))
        page.goto(links[0])
        room = room_of(links[0], app.state.table.rooms)
        rng = random.Random(3)
        laid = False
        for _ in range(300):
            wait_for(page, SEEN_MOVE)
            if page.evaluate("document.body.dataset.over") == "yes":
                break
            buttons = page.locator("button.move[data-move-id]")
            texts = [buttons.nth(i).get_attribute("title") for i in range(buttons.count())]
            gives = [i for i, t in enumerate(texts) if t and t.startswith("give [")]
            lays = [i for i, t in enumerate(texts) if t and t.startswith("lay [")]
            if gives:
                # Each pair is one button with its two cards drawn small, as its text names them.
                b = buttons.nth(gives[0])
                shown = b.locator("svg.card.small").evaluate_all("cs => cs.map(c => c.dataset.card)")
                assert f"give [{', '.join(shown)}]" == texts[gives[0]]
                version = page.evaluate("document.body.dataset.version")
                b.click()
                wait_for(page, "v => document.body.dataset.version !== v", version)
                wait_for(page, SEEN_MOVE)
                mine = page.eval_on_selector_all('.player.me .vars .cardgroup svg.card',
                                                 "cs => cs.map(c => c.dataset.card)")
                assert mine == shown  # the seat's own `given`: one group, the two cards
                continue
            if lays:
                b = buttons.nth(lays[0])
                shown = b.locator("svg.card.small").evaluate_all("cs => cs.map(c => c.dataset.card)")
                assert f"lay [{', '.join(shown)}]" == texts[lays[0]] and len(shown) >= 3
                version = page.evaluate("document.body.dataset.version")
                b.click()
                wait_for(page, "v => document.body.dataset.version !== v", version)
                groups = page.eval_on_selector_all(".centre .vars .cardgroup",
                                                   "gs => gs.map(g => [...g.querySelectorAll('svg.card')]"
                                                   ".map(c => c.dataset.card))")
                assert shown in groups  # the melds on the table, list by list
                laid = True
                break
            click_a_move(page, rng)
        assert laid and not room.over, "no meld was laid in the page"
        lobby.close()
        page.close()
