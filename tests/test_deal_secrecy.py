"""Deals nobody can reconstruct (issue 32, part 1): a room's or `play`'s deal follows from 128 bits of the OS,
every shuffle and pick of it from 128 bits too, and no seat is sent the seed (nor a bot's seed) before the
match ends. Seeds a person gives deal as they always did."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cardsmith.bots import seat_seed
from cardsmith.engine import seeds
from cardsmith.engine.state import State
from cardsmith.table.record import MatchRecord
from conftest import ROOT, game_for

WIDE = 2**128


def test_a_wide_seed_passes_128_bits_to_every_draw() -> None:
    g = game_for(str(ROOT / "games" / "stichln.yaml"), 3)
    seed = seeds.fresh()
    assert WIDE <= seed < 2 * WIDE
    s = State.initial(g, seed)
    assert s.rng is not None and s.rng >= WIDE  # the next shuffle's seed: 128 bits, not 64
    r = random.Random(0)
    chain = []
    while not s.is_terminal():
        s.apply_action(r.choice(s.legal_actions()))
        chain.append(s.rng)
    assert all(x >= WIDE for x in chain)  # every deal of the match drew from 128 bits
    # Two seeds alike in their low 64 bits deal otherwise from the first shuffle on.
    other = seed ^ (1 << 100)
    assert State.initial(g, other).serialize() != State.initial(g, seed).serialize()


def test_a_small_seed_chains_64_bits_as_before() -> None:
    r = random.Random(5)
    r.random()
    assert seeds.passed_on(r, 5) < 2**64
    assert seat_seed(5, 0) == (5 * 0x9E3779B97F4A7C15 + 0xBF58476D1CE4E5B9) % 2**64


def test_a_bot_s_seed_tells_nothing_of_a_wide_seed() -> None:
    seed = seeds.fresh()
    mine = [seat_seed(seed, k) for k in range(4)]
    assert len(set(mine)) == 4 and all(x >= WIDE for x in mine)
    # Not the affine map of small seeds, which its inverse would undo.
    assert all(x % 2**64 != (seed * 0x9E3779B97F4A7C15 + (k + 1) * 0xBF58476D1CE4E5B9) % 2**64
               for k, x in enumerate(mine))


# ------------------------------------------------------------------ the web table
starlette = pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from cardsmith.web import create_app  # noqa: E402
from cardsmith.web.catalog import load_catalog  # noqa: E402

CATALOG = load_catalog(["stichln", "schwimmen", "kuhn-poker"])


@pytest.fixture
def client() -> Iterator[TestClient]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(catalog=CATALOG, bot_delay=0.0, socket_rate=1e4, socket_burst=1e4)) as c:
            yield c


def secrets_of(seed: int, bots: list[int]) -> list[str]:
    """The seed and the bots' seeds as a message could hold them: decimal and hexadecimal, the 128 random
    bits alone too."""
    out = []
    for x in [seed, seed - WIDE, *(seat_seed(seed, k) for k in bots)]:
        out += [str(x), f"{x:x}", f"{x:X}"]
    return out


def caught_up(ws: Any, room: Any, texts: list[str]) -> dict[str, Any]:
    """Read states until the socket has the room's present one and no bot is to move."""
    while True:
        text = ws.receive_text()
        texts.append(text)
        m = json.loads(text)
        assert m["type"] == "state", m
        if m["version"] == room.version and room.bot_to_move() is None:
            return dict(m)


def test_no_seat_is_sent_the_seed_before_the_end(client: TestClient) -> None:
    r = client.post("/api/rooms", json={"game": "stichln", "players": 3, "options": {"deals": "2"},
                                        "seats": [{"name": "Ann"}, {"name": "Bo"}, {"bot": "random"}]})
    assert r.status_code == 200
    d = r.json()
    room = client.app.state.table.rooms.get(d["room"])  # type: ignore[attr-defined]
    assert room.seed >= WIDE and room.seed.bit_length() == 129  # 128 bits of the OS, not 2^31 values
    texts = [r.text, client.get(f"/room/{d['room']}").text]
    rng = random.Random(1)
    with client.websocket_connect(f"/ws/{d['room']}") as ws0, client.websocket_connect(f"/ws/{d['room']}") as ws1:
        socks = [ws0, ws1]
        for k, ws in enumerate(socks):
            ws.send_json({"type": "hello", "room": d["room"], "token": d["seats"][k]["token"]})
        last = [caught_up(ws0, room, texts), caught_up(ws1, room, [])]
        chain = set()
        while not room.over:
            chain.add(room.state.rng)
            p = room.state.current_player()
            socks[p].send_json({"type": "move", "action": rng.choice(last[p]["view"]["moves"])["id"]})
            last = [caught_up(ws0, room, texts), caught_up(ws1, room, [])]
    assert len(texts) > 40 and room.state.deal_no == 2
    sent = "\n".join(texts)
    for secret in secrets_of(room.seed, [2]) + [str(x) for x in chain] + [f"{x:x}" for x in chain]:
        assert secret not in sent
    # Once the match is over, its record tells the seed.
    rec = MatchRecord.from_json(client.post(f"/api/rooms/{d['room']}/record",
                                            json={"tokens": [d["seats"][0]["token"]]}).json())
    assert rec.seed == room.seed


def test_a_running_match_s_record_holds_no_seed(client: TestClient) -> None:
    """A person alone with bots may save the running match; the record replays without the seed."""
    d = client.post("/api/rooms", json={"game": "schwimmen", "players": 3,
                                        "seats": [{"name": "Ann"}, {"bot": "random"}, {"bot": "first"}]}).json()
    room = client.app.state.table.rooms.get(d["room"])  # type: ignore[attr-defined]
    r = client.post(f"/api/rooms/{d['room']}/record", json={"tokens": [d["seats"][0]["token"]]})
    assert r.status_code == 200 and r.json()["seed"] is None and r.json()["source"] == "schwimmen"
    for secret in secrets_of(room.seed, [1, 2]):
        assert secret not in r.text
    got = client.post("/api/replay", json={"record": r.json(), "step": 10**6, "seat": 0})
    assert got.status_code == 200, got.text


# ------------------------------------------------------------------ the terminal table
@pytest.mark.slow
def test_play_deals_from_128_bits_and_shows_no_seed(tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    p = subprocess.run([sys.executable, "-m", "cardsmith", "play", "kuhn-poker", "--save", str(save)], cwd=ROOT,
                       input=b"q\n", capture_output=True, timeout=60, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert p.returncode == 0, p.stderr
    seed = json.loads(save.read_text())["seed"]  # the save file, the player's own, keeps it to resume by
    assert seed >= WIDE
    out = p.stdout.decode()
    for secret in secrets_of(seed, [1]):
        assert secret not in out
