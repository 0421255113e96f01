"""The web table (`cardsmith serve`, interpreter/web/) through Starlette's TestClient: the lobby, rooms, tokens,
that a seat is sent exactly TableView's view of it, every refusal of the table's security, saving and
replaying, and the cleaning of finished and idle rooms."""

from __future__ import annotations

import contextlib
import json
import random
import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's notice about httpx2
    from starlette.testclient import TestClient

from cardsmith.bots import SeatView  # noqa: E402
from cardsmith.engine.bundled import bundled_games  # noqa: E402
from cardsmith.engine.errors import GameError  # noqa: E402
from cardsmith.table.record import MatchRecord, replay  # noqa: E402
from cardsmith.table.view import TableView  # noqa: E402
from cardsmith.web import create_app  # noqa: E402
from cardsmith.web.catalog import load_catalog  # noqa: E402
from cardsmith.web.rooms import Room  # noqa: E402

pytestmark = [pytest.mark.web]

CATALOG = load_catalog()


@pytest.fixture
def client() -> Iterator[TestClient]:
    app = create_app(catalog=CATALOG, bot_delay=0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(app) as c:
            yield c


def rooms(c: TestClient) -> Any:
    return c.app.state.table.rooms  # type: ignore[attr-defined]


def make(c: TestClient, game: str = "stichln", players: int = 3, seats: list[dict[str, Any]] | None = None,
         **extra: Any) -> dict[str, Any]:
    seats = seats if seats is not None else [{"name": "Ann"}] + [{"bot": "random"}] * (players - 1)
    r = c.post("/api/rooms", json={"game": game, "players": players, "seats": seats, **extra})
    assert r.status_code == 200, r.text
    return r.json()


def token(d: dict[str, Any], seat: int) -> str:
    t = d["seats"][seat]["token"]
    assert t
    return str(t)


def roundtrip(x: Any) -> Any:
    return json.loads(json.dumps(x))


def expected(room: Room, seat: int) -> dict[str, Any]:
    """What seat `seat` must be sent: TableView's view, built here independently of the server."""
    names = [s.name for s in room.seats]
    return roundtrip(TableView(room.game, names).view(room.state, seat))


def hello(ws: Any, d: dict[str, Any], seat: int) -> dict[str, Any]:
    ws.send_json({"type": "hello", "room": d["room"], "token": token(d, seat)})
    m = ws.receive_json()
    assert m["type"] == "state", m
    return dict(m)


def until_turn_or_over(ws: Any, m: dict[str, Any]) -> dict[str, Any]:
    while not (m["view"]["your_turn"] or m["view"]["over"]):
        m = ws.receive_json()
        assert m["type"] == "state", m
    return m


def error_of(ws: Any, msg: Any) -> str:
    if isinstance(msg, str):
        ws.send_text(msg)
    else:
        ws.send_json(msg)
    m = ws.receive_json()
    assert m["type"] == "error", m
    return str(m["error"])


# ------------------------------------------------------------------ the lobby
def test_the_lobby_lists_every_game_with_its_options_docs_and_the_bots(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "lobby.js" in page.text
    data = client.get("/api/games").json()
    assert [g["key"] for g in data["games"]] == list(bundled_games())
    for g in data["games"]:
        assert g["summary"] and g["min_players"] <= g["max_players"]
        for o in g["options"]:
            assert o["doc"], (g["key"], o["name"])
    assert {"random", "first", "greedy", "ismcts"} <= {b["name"] for b in data["bots"]}
    schwimmen = next(g for g in data["games"] if g["key"] == "schwimmen")
    assert {s["name"] for s in schwimmen["strategies"]} == {"steady", "hasty"}
    for path in ("/room/anything", "/replay", "/static/cards.js", "/static/style.css"):
        r = client.get(path)
        assert r.status_code == 200
        assert "default-src 'self'" in r.headers["content-security-policy"]


@pytest.mark.slow
def test_each_game_s_rulebook_is_served_as_data_for_the_rules_dialog(client: TestClient) -> None:
    from cardsmith.rulebook import build_rulebook, to_json
    for key, entry in CATALOG.items():
        r = client.get(f"/api/games/{key}/rules")
        assert r.status_code == 200 and "default-src 'self'" in r.headers["content-security-policy"]
        assert r.json() == roundtrip(to_json(build_rulebook(entry.compiled, file_name=entry.path.name)))
        assert r.json()["title"] == entry.name and any(s["anchor"] == "match" for s in r.json()["sections"])
    r = client.get("/api/games/nosuch/rules")
    assert r.status_code == 404 and r.json()["error"] == "no such game here"


def test_the_command_line_chooses_the_games() -> None:
    app = create_app(["kuhn-poker", "games/stichln.yaml"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(app) as c:
            assert [g["key"] for g in c.get("/api/games").json()["games"]] == ["kuhn-poker", "stichln"]
            r = c.post("/api/rooms", json={"game": "schwimmen", "players": 2, "seats": [{}, {}]})
            assert r.status_code == 400 and "no game named 'schwimmen'" in r.json()["error"]


def test_creating_a_room_gives_each_person_an_unguessable_token(client: TestClient) -> None:
    d = make(client, seats=[{"name": "Ann"}, {"name": "Bo"}, {"bot": "ismcts(iterations=20)"}], seed=5)
    assert [s["name"] for s in d["seats"]] == ["Ann", "Bo", "P2 (ismcts)"]
    assert d["seats"][2]["token"] is None and d["seats"][2]["bot"] == "ismcts(iterations=20)"
    t0, t1 = token(d, 0), token(d, 1)
    assert t0 != t1 and len(t0) >= 32 and len(t1) >= 32
    room = rooms(client).get(d["room"])
    assert room.seed == 5 and room.state.log is not None
    assert d["public"] == room.public()
    assert d["public"]["game"]["summary"] and d["public"]["game"]["options"][0]["doc"]


@pytest.mark.parametrize("body, status, says", [
    ({"game": "nosuch", "players": 3, "seats": []}, 400, ["no game named 'nosuch'"]),
    ({"game": "stichln", "players": 9, "seats": []}, 400, ["Stichln takes 3 to 8 players"]),
    ({"game": "stichln", "players": "3", "seats": []}, 400, ["Stichln takes 3 to 8 players"]),
    ({"game": "stichln", "players": 3, "seats": [{}]}, 400, ["give each of the 3 seats a person or a bot"]),
    ({"game": "stichln", "players": 3, "options": {"deals": "99"}, "seats": [{}, {}, {}]}, 400, ["deals"]),
    ({"game": "stichln", "players": 3, "options": {"colour": "1"}, "seats": [{}, {}, {}]}, 400,
     ["unknown option 'colour'"]),
    ({"game": "stichln", "players": 3,
      "seats": [{"bot": "nosuch"}, {"bot": "ismcts(iterations=0)"}, {"bot": "random(x=1)"}]}, 400,
     ["seat 1: no bot named 'nosuch'", "seat 2: ismcts: iterations must be from 1",
      "seat 3: random has no parameter 'x'"]),
    ({"game": "stichln", "players": 3, "seats": [{"bot": "greedy(by=lives)"}, {"bot": "ismcts(by=points)"}, {}]},
     400, ["seat 1: greedy: by must name a number the rule file reports for each player: returns, points; "
           "not 'lives'", "seat 2: ismcts: by is for rollout=greedy"]),
    ({"game": "stichln", "players": 3, "seats": [{"bot": "ismcts(seconds=60)"}, {}, {}]}, 400,
     ["seat 1: ismcts: seconds of at most 10 at this table"]),
    ({"game": "stichln", "players": 3, "seats": [{"bot": "ismcts(carry=5000)"}, {}, {}]}, 400,
     ["seat 1: ismcts: carry of at most 2,000 at this table"]),
    ({"game": "stichln", "players": 3, "seed": -1, "seats": [{}, {}, {}]}, 400, ["the seed must be"]),
    ({"game": "stichln", "players": 3, "seats": [{"bot": "random"}] * 3}, 400, ["give at least one seat to a person"]),
    (["not", "an", "object"], 400, ["expected a JSON object"]),
])
def test_a_bad_room_request_gets_each_problem_on_a_line(client: TestClient, body: Any, status: int,
                                                        says: list[str]) -> None:
    r = client.post("/api/rooms", json=body)
    assert r.status_code == status
    errors = r.json()["errors"]
    assert len(errors) == len(says)
    for line, want in zip(errors, says):
        assert want in line
    assert not rooms(client).rooms


def test_a_request_that_is_not_json_or_too_large_is_refused(client: TestClient) -> None:
    r = client.post("/api/rooms", content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "the message is not JSON"
    # A form or text/plain POST (which another site's page could send without asking) is refused.
    r = client.post("/api/rooms", content=b'{"game": "stichln"}', headers={"content-type": "text/plain"})
    assert r.status_code == 400 and "application/json" in r.json()["error"]
    r = client.post("/api/rooms", content=b" " * 70_000, headers={"content-type": "application/json"})
    assert r.status_code == 400 and "at most 65,536 bytes" in r.json()["error"]
    assert not rooms(client).rooms


# ------------------------------------------------------------------ what a seat is sent
def test_a_seat_is_sent_exactly_its_table_view_and_the_public_room(client: TestClient) -> None:
    # People only: nothing moves but the moves sent here, so each message can be compared with the state.
    d = make(client, "schwimmen", 2, [{"name": "Ann"}, {"name": "Bo"}], seed=11)
    room = rooms(client).get(d["room"])
    rng = random.Random(1)
    with client.websocket_connect("/ws") as w0, client.websocket_connect("/ws") as w1:
        socks = {0: w0, 1: w1}
        last = {0: hello(w0, d, 0), 1: hello(w1, d, 1)}
        for moves in range(40):
            for seat in (0, 1):
                assert last[seat]["view"] == expected(room, seat)
                assert last[seat]["room"] == roundtrip(room.public())
                assert last[seat]["version"] == moves
                # The other person's hand is sent as a count only, until the match ends: the rules turn the
                # hands up when a deal ends.
                other = next(z for z in last[seat]["view"]["zones"] if z["name"] == "hand" and z["owner"] == 1 - seat)
                if last[seat]["view"]["over"]:
                    assert other["visible"] is True and len(other["cards"]) == 3
                else:
                    assert other["visible"] is False and other["cards"] is None
            if room.over:
                break
            p = room.state.current_player()
            assert last[p]["view"]["your_turn"] and not last[1 - p]["view"]["moves"]
            move = rng.choice(last[p]["view"]["moves"])
            socks[p].send_json({"type": "move", "action": move["id"], "version": last[p]["version"]})
            last = {seat: ws.receive_json() for seat, ws in socks.items()}
        assert moves > 10


def test_bots_play_until_a_person_is_to_move(client: TestClient) -> None:
    d = make(client, "stichln", 3, [{"bot": "random"}, {"bot": "first"}, {"name": "Ann"}], seed=2,
             options={"deals": "1"})
    room = rooms(client).get(d["room"])
    with client.websocket_connect("/ws") as ws:
        m = until_turn_or_over(ws, hello(ws, d, 2))
        assert room.state.current_player() == 2 and m["view"] == expected(room, 2)
        rng = random.Random(3)
        while not m["view"]["over"]:
            ws.send_json({"type": "move", "action": rng.choice(m["view"]["moves"])["id"]})
            m = until_turn_or_over(ws, ws.receive_json())
        assert m["view"]["returns"] == room.state.returns() and room.finished_at is not None
        assert any(e["event"] == "end_deal" for e in m["view"]["log"])


def _replayed(room: Room, history: list[tuple[int, int]]) -> Any:
    from cardsmith.engine.state import State
    # A resampled state's history is an explicit replay: every shuffle's outcomes at once (engine/chance.py).
    t = State.initial(room.game, None, log=True, lazy=False)
    for _who, a in history:
        t.apply_action(a)
    return t


MOVES = 600  # the moves of a match the wire's permutation test follows


@pytest.mark.slow
@pytest.mark.parametrize("key", list(CATALOG))
def test_what_a_seat_is_sent_does_not_change_when_hidden_cards_do(client: TestClient, key: str) -> None:
    """The permutation property on the wire: with the cards hidden from seat k dealt otherwise (consistently
    with all k saw), the message k is sent is the same text."""
    n = CATALOG[key].compiled.spec.min_players
    d = make(client, key, n, [{"name": f"S{k}"} for k in range(n)], seed=13)
    room = rooms(client).get(d["room"])
    rng = random.Random(key)
    checks = 0

    def check() -> bool:
        nonlocal checks
        k = rng.randrange(n)
        sent = json.dumps(room.message(k))
        real = room.state
        try:
            other = real.resample_from_infostate(k, rng)
        except GameError:  # late in a deal a seat may know almost every card: no other arrangement was found
            return False
        room.state = _replayed(room, other.full_history())
        try:
            assert json.dumps(room.message(k)) == sent
        finally:
            room.state = real
        checks += 1
        return True

    # A few points early in the match, the first move after each of the first deals ended (the message then
    # holds the deal's end as the seat saw it: hands turned up, values counted), and the end of the match,
    # with the result (each game's seeded match ends within MOVES).
    moves, ended = 0, 0
    while not room.over and moves <= MOVES:
        deals = room.state.deal_no
        if moves in (0, 3, 8, 15):
            check()
        room.move(room.state.current_player(), rng.choice(room.state.legal_actions()))
        moves += 1
        if room.state.deal_no != deals and ended < 3:
            ended += 1
            check()
    # At the end every card a seat saw may pin the others (Go Fish: every card is in a book): a few draws of
    # the resampler, each checked in full, for one state to compare with.
    assert room.over and any(check() for _ in range(4)), "the end of the match was not reached, or not checked"
    assert checks >= 2 + min(ended, 1)


# ------------------------------------------------------------------ security
def test_a_token_opens_only_its_own_seat(client: TestClient) -> None:
    d = make(client, seats=[{"name": "Ann"}, {"name": "Bo"}, {"bot": "random"}])
    other = make(client)
    with client.websocket_connect("/ws") as ws:
        assert "no such room" in error_of(ws, {"type": "hello", "room": d["room"], "token": "x" * 32})
        assert "no such room" in error_of(ws, {"type": "hello", "room": d["room"], "token": token(other, 0)})
        assert "no such room" in error_of(ws, {"type": "hello", "room": "nope", "token": token(d, 0)})
        assert "say hello first" in error_of(ws, {"type": "move", "action": 0})
        m = hello(ws, d, 1)
        assert m["view"]["seat"] == 1
        assert "already Bo's seat" in error_of(ws, {"type": "hello", "room": d["room"], "token": token(d, 0)})


def test_guessing_tokens_closes_the_connection(client: TestClient) -> None:
    d = make(client)
    with client.websocket_connect("/ws") as ws:
        for k in range(5):
            assert "no such room" in error_of(ws, {"type": "hello", "room": d["room"], "token": f"guess{k:04d}"})
        with pytest.raises(Exception):  # noqa: B017 - the server has closed the socket
            ws.receive_json()


def test_every_bad_move_gets_an_error_and_changes_nothing(client: TestClient) -> None:
    d = make(client, "schwimmen", 2, [{"name": "Ann"}, {"name": "Bo"}], seed=4)
    room = rooms(client).get(d["room"])
    with client.websocket_connect("/ws") as w0, client.websocket_connect("/ws") as w1:
        m0, m1 = hello(w0, d, 0), hello(w1, d, 1)
        mover, waiter = (w0, w1) if m0["view"]["your_turn"] else (w1, w0)
        mover_seat = 0 if mover is w0 else 1
        legal = [m["id"] for m in (m0 if mover is w0 else m1)["view"]["moves"]]
        illegal = next(a for a in range(room.game.num_actions) if a not in legal)
        before = (room.version, room.state.history(), room.state.serialize())
        cases = [
            (mover, {"type": "move", "action": legal[0], "seat": 1 - mover_seat}, "plays for"),  # another seat
            (waiter, {"type": "move", "action": legal[0]}, "not"),  # not its turn
            (mover, {"type": "move", "action": illegal}, f"action {illegal} is not a legal move now"),
            (mover, {"type": "move", "action": 10**30}, "whole number"),
            (mover, {"type": "move", "action": "0"}, "whole number"),
            (mover, {"type": "move", "action": True}, "whole number"),
            (mover, {"type": "move", "action": 1.5}, "whole number"),
            (mover, {"type": "move", "action": legal[0], "version": room.version + 7}, "has changed"),
            (mover, {"type": "move"}, "whole number"),
            (mover, {"type": "eval", "code": "__import__('os')"}, "message types are"),
            (mover, ["move", 0], "JSON object"),
            (mover, "not json at all", "not JSON"),
            (mover, '{"type": "move", "action": NaN}', "not JSON"),
            (mover, "[" * 1500 + "]" * 1500, "at most 2,048"),
            (mover, json.dumps({"type": "move", "action": 0, "pad": "x" * 5000}), "at most 2,048"),
        ]
        for ws, msg, says in cases:
            assert says in error_of(ws, msg), msg
        mover.send_bytes(b'{"type": "ping"}')
        assert mover.receive_json() == {"type": "error", "error": "send text messages holding JSON"}
        assert (room.version, room.state.history(), room.state.serialize()) == before
        # And a good move still plays.
        mover.send_json({"type": "move", "action": legal[0]})
        assert mover.receive_json()["version"] == before[0] + 1


def test_a_flood_of_messages_is_refused_then_the_connection_closed(client: TestClient) -> None:
    d = make(client, "schwimmen", 2, [{"name": "Ann"}, {"bot": "random"}])
    room = rooms(client).get(d["room"])
    with client.websocket_connect("/ws") as ws:
        hello(ws, d, 0)
        before = room.version
        for _ in range(200):
            ws.send_json({"type": "move", "action": 99999})
        answers = []
        with pytest.raises(Exception):  # noqa: B017 - closed by the server once the flood goes on
            while True:
                answers.append(ws.receive_json())
        assert all(a["type"] == "error" for a in answers)
        assert any("too many messages" in a["error"] for a in answers)
        assert answers[-1]["error"] == "too many messages: the connection is closed"
        assert room.version == before


def test_a_seat_opens_on_a_few_sockets_only(client: TestClient) -> None:
    d = make(client, "kuhn-poker", 2, [{"name": "Ann"}, {"bot": "random"}])
    with contextlib.ExitStack() as stack:
        socks = [stack.enter_context(client.websocket_connect("/ws")) for _ in range(5)]
        for ws in socks[:4]:
            hello(ws, d, 0)
        says = error_of(socks[4], {"type": "hello", "room": d["room"], "token": token(d, 0)})
        assert "open in 4 places already" in says
    assert not rooms(client).get(d["room"]).listeners


def test_requests_that_cost_work_are_limited_per_address(client: TestClient) -> None:
    d = make(client, "kuhn-poker", 2, [{"name": "Ann"}, {"bot": "random"}])
    codes = [client.post(f"/api/rooms/{d['room']}/record", json={"tokens": [token(d, 0)]}).status_code
             for _ in range(60)]
    assert codes[0] == 200 and 429 in codes


def test_another_site_s_page_cannot_open_a_socket(client: TestClient) -> None:
    with pytest.raises(Exception):  # noqa: B017 - refused before it is accepted
        with client.websocket_connect("/ws", headers={"origin": "http://evil.example"}) as ws:
            ws.receive_json()


# ------------------------------------------------------------------ saving and replaying
def play_out(room: Room) -> None:
    rng = random.Random(0)
    while not room.over:
        room.move(room.state.current_player(), rng.choice(room.state.legal_actions()))


def test_saving_a_match_shows_no_one_else_s_cards(client: TestClient) -> None:
    d = make(client, "schwimmen", 3, [{"name": "Ann"}, {"name": "Bo"}, {"bot": "random"}], seed=8)
    url = f"/api/rooms/{d['room']}/record"
    # The record holds the seed: while another person still plays, one seat alone may not have it.
    r = client.post(url, json={"tokens": [token(d, 0)]})
    assert r.status_code == 403 and "once it is over" in r.json()["error"]
    r = client.post(url, json={"tokens": [token(d, 0), "forged-token-0000"]})
    assert r.status_code == 403
    assert client.post(url, json={"tokens": "x"}).status_code == 400
    assert client.post("/api/rooms/nope/record", json={"tokens": [token(d, 0)]}).status_code == 404
    # The hot-seat screen holds every person's seat: it may save the running match.
    r = client.post(url, json={"tokens": [token(d, 0), token(d, 1)]})
    assert r.status_code == 200 and r.json()["result"] is None
    room = rooms(client).get(d["room"])
    play_out(room)
    r = client.post(url, json={"tokens": [token(d, 1)]})
    assert r.status_code == 200
    rec = MatchRecord.from_json(r.json())
    assert rec.seats == ["Ann", "Bo", "random"] and rec.seed == 8
    assert rec.result == {"winners": room.state.winners, "returns": room.state.returns()}
    assert replay(rec, room.game).serialize() == room.state.serialize()


def test_a_solo_player_may_save_a_running_match(client: TestClient) -> None:
    d = make(client, "schwimmen", 2, [{"name": "Ann"}, {"bot": "random"}])
    r = client.post(f"/api/rooms/{d['room']}/record", json={"tokens": [token(d, 0)]})
    assert r.status_code == 200 and MatchRecord.from_json(r.json()).players == 2


def test_a_record_is_replayed_step_by_step_as_a_seat_saw_it(client: TestClient) -> None:
    d = make(client, "stichln", 3, seed=6, options={"deals": "1"})
    room = rooms(client).get(d["room"])
    play_out(room)
    data = client.post(f"/api/rooms/{d['room']}/record", json={"tokens": [token(d, 0)]}).json()
    rec = MatchRecord.from_json(data)
    names = rec.seats
    for step, seat in ((0, 0), (5, 1), (rec.decisions, 2), (10**6, 0)):
        r = client.post("/api/replay", json={"record": data, "step": step, "seat": seat})
        assert r.status_code == 200, r.text
        got = r.json()
        k = min(step, rec.decisions)
        assert got["step"] == k and got["steps"] == rec.decisions
        want = TableView(room.game, names).view(replay(rec, room.game, k), seat)
        assert got["view"] == roundtrip(want)
    assert got["view"]["over"]
    assert [(o["name"], o["value"]) for o in got["room"]["game"]["options"]] == [("deals", "1")]
    bad = dict(data, sha256="0" * 64)
    r = client.post("/api/replay", json={"record": bad, "step": 0, "seat": 0})
    assert r.status_code == 400 and "does not have the rules" in r.json()["error"]
    history = [list(x) for x in data["history"]]
    first = next(i for i, (who, _a) in enumerate(history) if who >= 0)
    history[first][1] = 10**9
    r = client.post("/api/replay", json={"record": dict(data, history=history), "step": 1, "seat": 0})
    assert r.status_code == 400 and f"entry {first + 1} of the history" in r.json()["error"]
    r = client.post("/api/replay", json={"record": {"format": "x"}, "step": 0, "seat": 0})
    assert r.status_code == 400 and "not a cardsmith match record" in r.json()["error"]
    r = client.post("/api/replay", json={"record": data, "step": 0, "seat": 3})
    assert r.status_code == 400 and "seat must be from 0 to 2" in r.json()["error"]


# ------------------------------------------------------------------ cleaning up
def test_finished_and_idle_rooms_are_removed_and_their_sockets_told(client: TestClient) -> None:
    table = client.app.state.table  # type: ignore[attr-defined]
    finished = make(client, "stichln", 3, options={"deals": "1"})
    idle = make(client, "schwimmen", 2, [{"name": "Ann"}, {"name": "Bo"}])
    running = make(client, "schwimmen", 2, [{"name": "Ann"}, {"name": "Bo"}])
    play_out(table.rooms.get(finished["room"]))
    now = time.monotonic()
    table.rooms.get(idle["room"]).last_active = now - table.rooms.idle_ttl - 1
    table.rooms.get(finished["room"]).finished_at = now - table.rooms.finished_ttl - 1
    with client.websocket_connect("/ws") as ws:
        hello(ws, finished, 0)
        client.portal.call(table.sweep)  # type: ignore[union-attr]
        assert ws.receive_json() == {"type": "closed", "error": "this room was closed (finished or idle)"}
    assert set(table.rooms.rooms) == {running["room"]}
    r = client.post(f"/api/rooms/{idle['room']}/record", json={"tokens": [token(idle, 0)]})
    assert r.status_code == 404


def test_the_number_of_rooms_is_bounded() -> None:
    app = create_app(catalog=CATALOG, max_rooms=2, bot_delay=0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(app) as c:
            make(c, "kuhn-poker", 2)
            make(c, "kuhn-poker", 2)
            r = c.post("/api/rooms", json={"game": "kuhn-poker", "players": 2, "seats": [{}, {}]})
            assert r.status_code == 503 and "holds 2 rooms already" in r.json()["error"]


def test_a_bot_is_given_a_seat_view_only(client: TestClient) -> None:
    d = make(client, "kuhn-poker", 2, [{"name": "Ann"}, {"bot": "random"}], seed=1)
    room = rooms(client).get(d["room"])
    seen: list[Any] = []
    bot = room.seats[1].bot
    original = bot.choose
    bot.choose = lambda view: seen.append(view) or original(view)
    with client.websocket_connect("/ws") as ws:
        m = until_turn_or_over(ws, hello(ws, d, 0))
        while not m["view"]["over"]:
            ws.send_json({"type": "move", "action": m["view"]["moves"][0]["id"]})
            m = until_turn_or_over(ws, ws.receive_json())
    assert seen and all(isinstance(v, SeatView) and v.seat == 1 for v in seen)


# ------------------------------------------------------------------ the command
def test_serve_listens_on_this_machine_only_unless_told(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    import uvicorn
    from cardsmith.cli.main import build_parser, main
    from cardsmith.web.background import free_port

    assert build_parser().parse_args(["serve"]).port == 8000
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(kw))
    port = free_port()
    assert main(["serve", "kuhn-poker", "--port", str(port)]) == 0
    assert calls[-1]["host"] == "127.0.0.1" and calls[-1]["port"] == port
    assert f"http://127.0.0.1:{port}/" in capsys.readouterr().out
    port = free_port("0.0.0.0")
    assert main(["serve", "--host", "0.0.0.0", "--port", str(port)]) == 0
    assert calls[-1]["host"] == "0.0.0.0" and calls[-1]["port"] == port
    assert "open to the network" in capsys.readouterr().out


def test_serve_says_in_one_line_when_it_cannot_listen(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    from cardsmith.cli.main import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "kuhn-poker", "--port", str(port)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"cardsmith: error: cannot listen on 127.0.0.1:{port}: ") and err.count("\n") == 1
    assert "in use" in err


def test_serve_answers_bad_arguments_in_one_line(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from cardsmith.cli.main import main

    assert main(["serve", "nosuch"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cardsmith: error: no rule file or bundled game named 'nosuch'") and err.count("\n") == 1
    with pytest.raises(SystemExit) as e:
        main(["serve", "--port", "99999"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "must be at most 65,535" in err and err.count("\n") == 1
    # Without the web extra: one line saying which extra to install.
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert main(["serve"]) == 1
    assert capsys.readouterr().err == ("cardsmith: error: cardsmith serve needs the web extra: pip install "
                                       "'cardsmith[web]' (starlette and uvicorn)\n")


def test_a_rule_error_stops_the_room_with_a_message_for_every_seat(client: TestClient,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from cardsmith.engine.errors import RuleError

    d = make(client, "schwimmen", 2, [{"name": "Ann"}, {"name": "Bo"}], seed=2)
    room = rooms(client).get(d["room"])

    def broken(self: Any, action: int) -> None:
        raise RuleError("division by zero", None, code="R001")

    with client.websocket_connect("/ws") as w0, client.websocket_connect("/ws") as w1:
        m = {0: hello(w0, d, 0), 1: hello(w1, d, 1)}
        p = room.state.current_player()
        from cardsmith.engine.state import State
        monkeypatch.setattr(State, "apply_action", broken)
        (w0, w1)[p].send_json({"type": "move", "action": m[p]["view"]["moves"][0]["id"]})
        for ws in (w0, w1):
            got = ws.receive_json()
            assert "rule error: division by zero" in got["room"]["error"]
        assert room.over and room.finished_at is not None
        assert "stopped by a rule error" in error_of((w0, w1)[p], {"type": "move", "action": 0})
