"""No match lost (issue 32, part 5): the rooms in SQLite (web/store.py, web/durable.py), written as each move is
accepted and brought back with the same links and views; the websocket route that carries the room."""

from __future__ import annotations

import json
import random
import sqlite3
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cardsmith.web import create_app  # noqa: E402
from cardsmith.web.catalog import load_catalog  # noqa: E402
from cardsmith.web.durable import Durable  # noqa: E402
from cardsmith.web.rooms import RoomRefused, Rooms  # noqa: E402
from cardsmith.web.store import Store, StoreError  # noqa: E402

pytestmark = [pytest.mark.web]

CATALOG = load_catalog(["stichln", "schwimmen", "kuhn-poker"])
SEATS = {"stichln": [{"name": "Ann"}, {"name": "Bo"}, {"bot": "random"}],
         "schwimmen": [{"name": "Cy"}, {"bot": "first"}],
         "kuhn-poker": [{"name": "Di"}, {"name": "Ed"}]}


def views(rooms: Rooms) -> dict[tuple[str, int], Any]:
    """What every seat of every room is sent now."""
    return {(rid, k): json.loads(json.dumps(room.message(k))) for rid, room in rooms.rooms.items()
            for k in range(len(room.seats))}


def play_some(rooms: Rooms, moves: int, rng: random.Random) -> None:
    for room in rooms.rooms.values():
        for _ in range(moves):
            p = room.bot_to_move()
            if room.over:
                break
            if p is not None:
                room.play_bot(p, room.bot_choice(p))
            else:
                p = room.state.current_player()
                room.move(p, rng.choice(room.legal()))


def test_the_store_brings_back_every_room_as_it_was(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    store = Store(db)
    rooms = Rooms(CATALOG)
    assert Durable(store).attach(rooms) == []
    made = {key: rooms.create({"game": key, "players": len(seats), "seats": seats}) for key, seats in SEATS.items()}
    play_some(rooms, 7, random.Random(3))
    before = views(rooms)
    tokens = {r.id: [s.token for s in r.seats] for r in made.values()}
    with pytest.raises(StoreError, match="in use by another table server"):
        Store(db)  # one server at a time
    store.close()
    again = Rooms(CATALOG)
    back = Durable(Store(db)).attach(again)
    assert sorted(r.id for r in back) == sorted(tokens)
    assert views(again) == before
    for rid, toks in tokens.items():
        room = again.get(rid)
        assert [s.token for s in room.seats] == toks
        assert all(room.seat_of(t) == k for k, t in enumerate(toks) if t is not None)
    # The rooms play on, and go on being kept.
    play_some(again, 3, random.Random(4))
    assert views(again) != before


def test_a_move_the_store_cannot_write_is_refused_and_undone(tmp_path: Path) -> None:
    store = Store(tmp_path / "rooms.db")
    rooms = Rooms(CATALOG)
    Durable(store).attach(rooms)
    room = rooms.create({"game": "kuhn-poker", "players": 2, "seats": SEATS["kuhn-poker"]})
    before = room.message(0)
    store.db.execute("PRAGMA query_only = ON")  # every write fails from here
    with pytest.raises(RoomRefused, match="could not save this move") as e:
        room.move(room.state.current_player(), room.legal()[0])
    assert e.value.status == 503
    assert room.message(0) == before and room.version == 0


def test_a_closed_room_leaves_the_store(tmp_path: Path) -> None:
    db = tmp_path / "rooms.db"
    store = Store(db)
    rooms = Rooms(CATALOG, idle_ttl=10.0)
    Durable(store).attach(rooms)
    room = rooms.create({"game": "kuhn-poker", "players": 2, "seats": SEATS["kuhn-poker"]})
    assert [r[0] for r in store.rows()] == [room.id]
    rooms.sweep(now=room.last_active + 11)
    assert store.rows() == []


def test_a_store_that_is_no_store_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "x.db"
    bad.write_text("not a database, just text " * 100)
    with pytest.raises(StoreError, match="is not a cardsmith table store"):
        Store(bad)
    with sqlite3.connect(tmp_path / "other.db") as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        db.execute("INSERT INTO meta VALUES ('schema', '99')")
    with pytest.raises(StoreError, match="of schema 99; this cardsmith reads schema 1"):
        Store(tmp_path / "other.db")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(catalog=CATALOG, bot_delay=0.0, store=tmp_path / "t.db")) as c:
            yield c


def test_the_socket_s_address_carries_its_room(client: TestClient) -> None:
    d = client.post("/api/rooms", json={"game": "kuhn-poker", "players": 2, "seats": SEATS["kuhn-poker"]}).json()
    other = client.post("/api/rooms", json={"game": "kuhn-poker", "players": 2, "seats": SEATS["kuhn-poker"]}).json()
    hello = {"type": "hello", "room": d["room"], "token": d["seats"][0]["token"]}
    with client.websocket_connect(f"/ws/{d['room']}") as ws:
        ws.send_json(hello)
        m = ws.receive_json()
        assert m["type"] == "state" and m["room"]["id"] == d["room"]
    with client.websocket_connect(f"/ws/{other['room']}") as ws:  # a hello for another room than the address's
        ws.send_json(hello)
        assert ws.receive_json() == {"type": "error", "error": "no such room, or the token is not one of its seats"}


def test_rooms_come_back_when_the_app_starts_on_the_same_store(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(catalog=CATALOG, bot_delay=0.0, store=db)) as c:
            d = c.post("/api/rooms", json={"game": "schwimmen", "players": 2, "seats": SEATS["schwimmen"]}).json()
            with c.websocket_connect(f"/ws/{d['room']}") as ws:
                ws.send_json({"type": "hello", "room": d["room"], "token": d["seats"][0]["token"]})
                m = ws.receive_json()
                ws.send_json({"type": "move", "action": m["view"]["moves"][0]["id"]})
                m = ws.receive_json()
                while m["view"]["your_turn"] is False and not m["view"]["over"]:
                    m = ws.receive_json()
        with TestClient(create_app(catalog=CATALOG, bot_delay=0.0, store=db)) as c:
            with c.websocket_connect(f"/ws/{d['room']}") as ws:
                ws.send_json({"type": "hello", "room": d["room"], "token": d["seats"][0]["token"]})
                assert ws.receive_json() == m


def test_serve_says_where_it_keeps_the_rooms_and_a_bad_store_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import uvicorn
    from cardsmith.cli.main import main
    from cardsmith.web.background import free_port

    calls: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(app))
    db = tmp_path / "rooms.db"
    assert main(["serve", "kuhn-poker", "--port", str(free_port()), "--store", str(db)]) == 0
    assert f"  rooms kept in {db}\n" in capsys.readouterr().out and db.exists()
    assert db.stat().st_mode & 0o077 == 0  # seeds and tokens: the owner's only
    assert main(["serve", "kuhn-poker", "--port", str(free_port()), "--no-store"]) == 0
    assert "  rooms kept in memory only (--no-store)\n" in capsys.readouterr().out
    bad = tmp_path / "text.db"
    bad.write_text("not a database, just text " * 100)
    assert main(["serve", "kuhn-poker", "--port", str(free_port()), "--store", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"cardsmith: error: the store {bad} is not a cardsmith table store") and err.count("\n") == 1
    assert len(calls) == 2
