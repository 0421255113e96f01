"""A load test of the web table (`cardsmith serve`): many rooms at human pace while one client abuses each cap.

    python benchmarks/web_load.py [--rooms N] [--seconds T] [--game GAME] [--abusers rooms,sockets,flood,slow,replays]

Everything is on 127.0.0.1: the server runs in a child process (this script with --serve), and each client
connects from an address of its own in 127.0.0.0/8 (Linux answers on all of them), so the per-address caps
see them as different clients. Bounded in count and time: N rooms (200 by default) of 2 people and 2 random
bots playing GAME (hearts) for T seconds (60) after they are set up, each person moving 0.5 to 1.5 s after
its turn comes; one observer asks for the lobby (GET /api/games) every 0.5 s. The abusers, each from its own
address, meanwhile:

- make rooms as fast as they are answered (the cap on rooms per address and per minute);
- open 1,050 websockets that never say hello (the sockets per address, the hello timeout);
- flood one socket with messages (the rate per socket);
- play moves of a served rule file that each take seconds of pure-Python work (the worker pool), in as many
  rooms as they may make;
- post 5 MB request bodies to /api/replay (the size cap, the replay workers).

Reported: move latency (a person's move to that person's next state), p50/p99/max; the lobby's latency;
the refusals each abuser got, by their one-line reason; and whether the lobby and every move answered
within 1 s. The server's caps are the defaults except the total rooms a minute and the rooms open at once,
raised to let N rooms be made in the first seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import os
import platform
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SLOW = """\
game: Slow
players: 2
deck:
  suits: [a, b]
  ranks: ['1', '2', '3']
zones:
  stock: {}
  hand: {per_player: true}
variables:
  n: {type: number}
define:
  work(k): sum([i % 7 for i in range(0, k)])
actions:
  go: {}
phases:
  main:
    actions: [go]
    after:
      - for: j in range(0, 300)
        do: [n = work(90000 + j)]
      - end deal
match:
  deal:
    - move pack to stock
    - goto main
  over_when: deal_number >= 50
  winners: players
"""
SLOW_STEPS = 2_000_000_000
ABUSERS = ("rooms", "sockets", "flood", "slow", "replays")
CONNECTIONS = 128  # open connections per address (as `cardsmith serve`)
WARM_UP = 3.0  # seconds the abusers have to start before the measures begin


def serve(port: int, games: list[str], rooms: int) -> None:
    """The server (the child process)."""
    import dataclasses

    import uvicorn
    from cardsmith.dsl.limits import DEFAULT_LIMITS
    from cardsmith.web import create_app
    from cardsmith.web.accept import capped_protocols
    from cardsmith.web.catalog import load_catalog
    from cardsmith.web.limits import Caps
    from cardsmith.web.pool import prefer_the_loop

    cat = load_catalog(games, dataclasses.replace(DEFAULT_LIMITS, steps=SLOW_STEPS))
    app = create_app(catalog=cat, max_rooms=rooms + 64, caps=Caps(rooms_per_minute_total=rooms + 200))
    prefer_the_loop()  # as `cardsmith serve` does
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="error", ws_max_size=16 * 1024,
                **(capped_protocols(CONNECTIONS) if os.environ.get("WEB_LOAD_NO_ACCEPT_CAP") is None else {}))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


class Load:
    def __init__(self, base: str, game: str, seconds: float) -> None:
        self.base = base
        self.url = base.replace("http", "ws") + "/ws"
        self.game = game
        self.seconds = seconds
        self.moves: list[float] = []
        self.lobby: list[float] = []
        self.lobby_at: list[float] = []  # when each lobby request was sent, in seconds from the start
        self.refusals: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        self.stop = 0.0
        self.errors: collections.Counter[str] = collections.Counter()
        self.made: dict[int, tuple[str, Any]] = {}  # rooms are made first (all of them), then played

    def client(self, addr: str) -> Any:
        import httpx
        return httpx.AsyncClient(base_url=self.base, timeout=60,
                                 transport=httpx.AsyncHTTPTransport(local_address=addr))

    async def ws(self, addr: str) -> Any:
        import websockets.asyncio.client as wsc
        return await wsc.connect(self.url, local_addr=(addr, 0), open_timeout=60, max_size=2**24)

    # ------------------------------------------------------------ the people
    async def person(self, addr: str, d: dict[str, Any], seat: int) -> None:
        rng = random.Random(seat * 7919 + hash(d["room"]))
        async with await self.ws(addr) as ws:
            await ws.send(json.dumps({"type": "hello", "room": d["room"], "token": d["seats"][seat]["token"]}))
            m = json.loads(await ws.recv())
            while time.monotonic() < self.stop:
                if m.get("type") == "state" and m["view"]["over"]:
                    return
                if m.get("type") == "state" and m["view"]["your_turn"]:
                    await asyncio.sleep(rng.uniform(0.5, 1.5))  # a person's pace
                    t = time.monotonic()
                    await ws.send(json.dumps({"type": "move", "action": rng.choice(m["view"]["moves"])["id"],
                                              "version": m["version"]}))
                    while True:  # this person's next state (or a refusal) answers the move
                        m = json.loads(await asyncio.wait_for(ws.recv(), 60))
                        if m.get("type") in ("state", "error"):
                            break
                    self.moves.append(time.monotonic() - t)
                    if m.get("type") == "error":
                        self.errors[f"move: {m['error']}"] += 1
                    continue
                try:
                    m = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, self.stop - time.monotonic())))
                except TimeoutError:
                    return

    async def observer(self) -> None:
        async with self.client("127.0.9.1") as h:
            while time.monotonic() < self.stop:
                t = time.monotonic()
                r = await h.get("/api/games")
                self.lobby.append(time.monotonic() - t)
                self.lobby_at.append(t - self.stop + self.seconds)
                if r.status_code != 200:
                    self.errors[f"lobby: {r.status_code}"] += 1
                await asyncio.sleep(0.5)

    # ------------------------------------------------------------ the abusers
    async def room_filler(self) -> None:
        async with self.client("127.0.10.1") as h:
            body = {"game": self.game, "players": 4, "seats": [{"name": "X"}] + [{"bot": "random"}] * 3}
            while time.monotonic() < self.stop:
                r = await h.post("/api/rooms", json=body)
                self.refusals["room filler"][f"{r.status_code} {r.json().get('error', 'made')}"] += 1
                await asyncio.sleep(0.05)

    async def silent_sockets(self) -> None:
        async def one() -> None:
            try:
                ws = await self.ws("127.0.10.2")
            except Exception as e:
                self.refusals["1,050 silent sockets"][f"not opened: {type(e).__name__}"] += 1
                return
            with contextlib.suppress(Exception):
                while True:
                    await ws.recv()
            self.refusals["1,050 silent sockets"][f"closed {ws.close_code}: {ws.close_reason}"] += 1
        await asyncio.gather(*(one() for _ in range(1050)))

    async def flooder(self) -> None:
        async with await self.ws("127.0.10.3") as ws:
            with contextlib.suppress(Exception):
                for _ in range(2000):
                    await ws.send('{"type": "ping"}')
                while True:
                    m = json.loads(await ws.recv())
                    self.refusals["message flood"][m.get("error", m["type"])] += 1
            self.refusals["message flood"][f"closed {ws.close_code}"] += 1

    async def slow_mover(self) -> None:
        addr = "127.0.10.4"
        async with self.client(addr) as h:
            made = []
            for _ in range(12):
                r = await h.post("/api/rooms", json={"game": "slow", "players": 2,
                                                     "seats": [{"name": "A"}, {"name": "B"}]})
                if r.status_code != 200:
                    self.refusals["slow moves"][f"{r.status_code} {r.json()['error']}"] += 1
                else:
                    made.append(r.json())

        async def play(d: dict[str, Any]) -> None:
            async with await self.ws(addr) as a, await self.ws(addr) as b:
                socks = [a, b]
                for k, ws in enumerate(socks):
                    await ws.send(json.dumps({"type": "hello", "room": d["room"], "token": d["seats"][k]["token"]}))
                views = [json.loads(await ws.recv()) for ws in socks]
                while time.monotonic() < self.stop:
                    k = next((k for k, v in enumerate(views) if v["view"]["your_turn"]), None)
                    if k is None:
                        return
                    await socks[k].send(json.dumps({"type": "move", "action": views[k]["view"]["moves"][0]["id"]}))
                    t = time.monotonic()
                    views = [json.loads(await asyncio.wait_for(ws.recv(), 120)) for ws in socks]
                    self.refusals["slow moves"][f"a move took {time.monotonic() - t:.0f} s"] += 1
        with contextlib.suppress(Exception):
            await asyncio.gather(*(play(d) for d in made))

    async def big_replays(self) -> None:
        junk = b'{"record": {"format": "cardsmith-match", "pad": "' + b"x" * (5 * 1024 * 1024 - 100) + b'"}}'
        async with self.client("127.0.10.5") as h:
            while time.monotonic() < self.stop:
                r = await h.post("/api/replay", content=junk, headers={"content-type": "application/json"})
                self.refusals["5 MB replays"][f"{r.status_code} {r.json()['error'][:70]}"] += 1
                await asyncio.sleep(0.1)

    async def run(self, rooms: int, abuse: list[str]) -> float:
        self.stop = time.monotonic() + 3600
        await asyncio.gather(*(self.room_setup(k) for k in range(rooms)))
        # Each abuser in a process of its own, as another machine would be: its own work does not slow the
        # clients measured here. They start (Python's imports) before the measures do.
        procs = [await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--abuse", k, "--port", self.base.rsplit(":", 1)[1], "--game", self.game,
            "--seconds", str(self.seconds + WARM_UP), stdout=asyncio.subprocess.PIPE) for k in abuse]
        await asyncio.sleep(WARM_UP if abuse else 0)
        set_up = time.monotonic()
        self.stop = set_up + self.seconds
        await asyncio.gather(self.observer(), *(self.room_play(k) for k in range(rooms)))
        for proc in procs:
            out, _ = await proc.communicate()
            with contextlib.suppress(ValueError):
                self.refusals.update({who: collections.Counter(c) for who, c in json.loads(out).items()})
        return set_up

    async def abuse(self, kind: str) -> None:
        """One abuser, for `seconds` (the child process of --abuse)."""
        self.stop = time.monotonic() + self.seconds
        kinds = {"rooms": self.room_filler, "sockets": self.silent_sockets, "flood": self.flooder,
                 "slow": self.slow_mover, "replays": self.big_replays}
        await kinds[kind]()

    async def room_setup(self, k: int) -> None:
        addr = f"127.0.{1 + k // 200}.{1 + k % 200}"
        seats = [{"name": "Ann"}, {"bot": "random"}, {"name": "Bo"}, {"bot": "random"}]
        async with self.client(addr) as h:
            r = await h.post("/api/rooms", json={"game": self.game, "players": 4, "seats": seats})
        if r.status_code != 200:
            self.errors[f"room not made: {r.json().get('error')}"] += 1
        else:
            self.made[k] = (addr, r.json())

    async def room_play(self, k: int) -> None:
        if k in self.made:
            addr, d = self.made[k]
            await asyncio.gather(*(self.person(addr, d, s) for s in (0, 2)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rooms", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--game", default="hearts")
    ap.add_argument("--abusers", default=",".join(ABUSERS),
                    help=f"which abusers run, of {','.join(ABUSERS)} (default: all; '' for none)")
    ap.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--abuse", choices=ABUSERS, help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--games", nargs="*", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if not 1 <= a.rooms <= 1000 or not 1 <= a.seconds <= 600:
        ap.error("from 1 to 1,000 rooms, for 1 to 600 seconds")
    abusers = [k for k in a.abusers.split(",") if k]
    if any(k not in ABUSERS for k in abusers):
        ap.error(f"the abusers are {', '.join(ABUSERS)}")
    if a.serve:
        serve(a.serve, a.games, a.rooms)
        return 0
    if a.abuse:
        load = Load(f"http://127.0.0.1:{a.port}", a.game, a.seconds)
        asyncio.run(load.abuse(a.abuse))
        print(json.dumps(load.refusals))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        slow = Path(tmp) / "slow.yaml"
        slow.write_text(SLOW)
        port = free_port()
        proc = subprocess.Popen([sys.executable, __file__, "--serve", str(port), "--rooms", str(a.rooms),
                                 "--games", a.game, str(slow)])
        try:
            deadline = time.monotonic() + 60
            while True:
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
                if time.monotonic() > deadline or proc.poll() is not None:
                    print("the server did not start", file=sys.stderr)
                    return 1
                time.sleep(0.2)
            load = Load(f"http://127.0.0.1:{port}", a.game, a.seconds)
            t0 = time.monotonic()
            set_up = asyncio.run(load.run(a.rooms, abusers))
            report(a, load, set_up - t0)
        finally:
            proc.terminate()
            proc.wait(10)
    worst = max(load.lobby + load.moves, default=0.0)
    return 0 if worst < 1.0 else 1


def report(a: argparse.Namespace, load: Load, setup: float) -> None:
    ms = 1000.0
    print(f"machine: {platform.node()}, {os.cpu_count()} cores, {platform.python_implementation()} "
          f"{platform.python_version()}; load average {os.getloadavg()[0]:.1f} at the end; "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"{a.rooms} rooms of {a.game} (2 people, 2 random bots) made in {setup:.1f} s (with the abusers' start), "
          f"played for {a.seconds:g} s"
          f"; abusers: {a.abusers or 'none'}")
    print(f"moves by people: {len(load.moves):,}; latency p50 {pct(load.moves, 0.5) * ms:.0f} ms, "
          f"p99 {pct(load.moves, 0.99) * ms:.0f} ms, max {max(load.moves, default=0) * ms:.0f} ms")
    print(f"lobby (GET /api/games): {len(load.lobby):,}; latency p50 {pct(load.lobby, 0.5) * ms:.0f} ms, "
          f"p99 {pct(load.lobby, 0.99) * ms:.0f} ms, max {max(load.lobby, default=0) * ms:.0f} ms"
          + (f" (sent {load.lobby_at[load.lobby.index(max(load.lobby))]:.1f} s in)" if load.lobby else ""))
    for who, counts in load.refusals.items():
        print(f"{who}:")
        for line, n in counts.most_common(6):
            print(f"  {n:>6,}  {line}")
    for line, n in load.errors.most_common(6):
        print(f"  error {n:>6,}  {line}")
    worst = max(load.lobby + load.moves, default=0.0)
    print(f"every lobby request and move answered within 1 s: {'yes' if worst < 1.0 else 'no'} "
          f"(the slowest {worst * ms:.0f} ms)")


if __name__ == "__main__":
    sys.exit(main())
