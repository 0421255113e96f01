"""`cardsmith serve --store` as a real process: three matches (people and bots) played over HTTP and websockets,
the server killed with SIGKILL in the middle of them, started again on the same store; every seat's link
works and shows exactly what it showed (issue 32, part 5)."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT

httpx = pytest.importorskip("httpx", reason="the test extra (httpx) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is not installed")
ws_client = pytest.importorskip("websockets.sync.client", reason="the websockets library is not installed")

pytestmark = [pytest.mark.slow, pytest.mark.web]

GAMES = ("stichln", "schwimmen", "kuhn-poker")
ROOMS = [("stichln", [{"name": "Ann"}, {"name": "Bo"}, {"bot": "random"}]),
         ("schwimmen", [{"name": "Cy"}, {"bot": "first"}, {"bot": "random"}]),
         ("schwimmen", [{"name": "Di"}, {"name": "Ed"}])]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(store: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    p = subprocess.Popen([sys.executable, "-m", "cardsmith", "serve", *GAMES, "--port", str(port), "--store",
                          str(store)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert p.poll() is None, p.communicate()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        yield p
    finally:
        if p.poll() is None:
            p.kill()
        p.communicate(timeout=30)


def seat_message(port: int, room: str, token: str) -> dict[str, Any]:
    """What a seat's page is sent when it connects: the room's state as that seat sees it."""
    with ws_client.connect(f"ws://127.0.0.1:{port}/ws/{room}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "room": room, "token": token}))
        m = json.loads(ws.recv(timeout=10))
        assert m["type"] == "state", m
        return dict(m)


def move(port: int, room: str, token: str, rng: random.Random) -> bool:
    """The seat makes a move if it is its turn; whether it did."""
    with ws_client.connect(f"ws://127.0.0.1:{port}/ws/{room}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "room": room, "token": token}))
        m = json.loads(ws.recv(timeout=10))
        if not m["view"]["your_turn"]:
            return False
        ws.send(json.dumps({"type": "move", "action": rng.choice(m["view"]["moves"])["id"],
                            "version": m["version"]}))
        m = json.loads(ws.recv(timeout=10))
        assert m["type"] == "state", m
        return True


def every_seat(port: int, made: list[dict[str, Any]]) -> dict[tuple[str, int], Any]:
    return {(d["room"], s["seat"]): seat_message(port, d["room"], s["token"])
            for d in made for s in d["seats"] if s["token"]}


def settled(port: int, made: list[dict[str, Any]]) -> dict[tuple[str, int], Any]:
    """Every seat's message once no bot is moving any more (the same twice, a second apart)."""
    before = every_seat(port, made)
    while True:
        time.sleep(1.0)
        now = every_seat(port, made)
        if now == before:
            return now
        before = now


def test_kill_9_in_the_middle_of_three_matches_loses_nothing(tmp_path: Path) -> None:
    store, port, rng = tmp_path / "tmp.db", free_port(), random.Random(5)
    with server(store, port) as p:
        made = []
        for game, seats in ROOMS:
            r = httpx.post(f"http://127.0.0.1:{port}/api/rooms", json={"game": game, "players": len(seats),
                                                                      "seats": seats}, timeout=10)
            assert r.status_code == 200, r.text
            made.append(r.json())
        for d in made:
            moved, deadline = 0, time.monotonic() + 60
            while moved < 4 and time.monotonic() < deadline:
                turn = [s for s in d["seats"] if s["token"] and move(port, d["room"], s["token"], rng)]
                moved += len(turn)
                if not turn:
                    time.sleep(0.2)  # a bot is thinking (the server waits 0.4 s between bot moves)
            assert moved >= 4
        before = settled(port, made)
        assert not any(m["view"]["over"] for m in before.values())
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=30)
    with server(store, port):
        after = every_seat(port, made)
    assert after == before
    assert len(after) == 5 and len({m["version"] for m in after.values()}) > 1
