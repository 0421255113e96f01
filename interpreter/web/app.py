"""The web table: a Starlette application serving the lobby, the table page, and one websocket per seat.

Routes:

- `GET /` the lobby, `GET /room/{id}` the table (its token in the address's fragment, which the browser
  never sends to a server or a log), `GET /replay` a saved match step by step; the pages are static files.
- `GET /api/games`: the games, their options with docs, the bots.
- `GET /api/games/{key}/rules`: a game's rulebook (interpreter/rulebook/) as plain data, for the Rules dialog.
- `POST /api/rooms`: make a room (`Rooms.create`); the answer holds each person's token, once.
- `POST /api/rooms/{id}/record`: the match record (table/record.py) for the holders of tokens.
- `POST /api/replay`: one step of a record, as a seat saw it.
- `WS /ws`: `hello` with the room and a token, then `move`s; the server sends `state` after every change.

Every refusal is a JSON object {"error": "...", "errors": [one line each]}; no traceback reaches a client.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..dsl.limits import DEFAULT_LIMITS, Limits
from ..engine.errors import GameError
from ..table.record import BadRecord
from .catalog import Entry, bots_info, game_info, load_catalog, option_info, option_text, rulebook_info
from .durable import Durable
from .guard import MAX_RECORD, MAX_REQUEST, BadMessage, Bucket, load_json, socket_message, tokens_of, whole
from .limits import Caps, Gate, Refused, client_of
from .origin import Allowed, OriginCheck
from .pool import Pool, TooSlow, cap_bots, room_work
from .records import room_record
from .replays import Replays
from .rooms import Listener, Room, RoomRefused, Rooms, inline
from .store import Store

STATIC = Path(__file__).parent / "static"
MAX_SOCKETS_PER_SEAT = 4  # a seat open on a phone, a laptop and a spare tab; every socket costs a view per move
HEADERS = [(b"content-security-policy", b"default-src 'self'; img-src 'self' data:; connect-src 'self'; "
                                        b"frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
           (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
           (b"x-frame-options", b"DENY"), (b"cache-control", b"no-store")]


def refused(*lines: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": " ".join(lines), "errors": list(lines)}, status_code=status)


class Headers:
    """Adds the page's security headers to every HTTP answer (the pages load only their own files)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + HEADERS
            await send(message)
        await self.app(scope, receive, send_with)


class Table:
    """The application's state: the games, the rooms, the checked replays, the request buckets, the caps and
    the worker pool."""

    def __init__(self, catalog: dict[str, Entry], rooms: Rooms, *, socket_rate: float, socket_burst: float,
                 sweep_every: float, caps: Caps | None = None, pool: Pool | None = None) -> None:
        self.catalog = catalog
        self.gate = Gate(caps or Caps())
        self.pool = pool or Pool()
        self.replays = Replays(self.pool)
        self.rooms = rooms
        self.socket_rate = socket_rate
        self.socket_burst = socket_burst
        self.sweep_every = sweep_every
        self.buckets: dict[str, Bucket] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    def allow(self, request: Request) -> bool:
        """Requests that cost work (rooms, records, replays) from one address: 5 a second, bursts of 40."""
        host = request.client.host if request.client else "?"
        if len(self.buckets) > 10_000:
            self.buckets.clear()
        return self.buckets.setdefault(host, Bucket(5.0, 40.0)).take()

    def start_bots(self, room: Room) -> None:
        if room.bot_to_move() is None:
            return
        if room.work is inline:  # a room made otherwise than through the lobby's request
            room.work = room_work(self.pool, room, "?")
        task = asyncio.get_running_loop().create_task(room.run_bots(self.rooms.bot_delay))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def sweep(self) -> None:
        for room in self.rooms.sweep():
            for ls in list(room.listeners):
                with contextlib.suppress(Exception):
                    await ls.send({"type": "closed", "error": "this room was closed (finished or idle)"})
                with contextlib.suppress(Exception):
                    await ls.close()
            room.listeners.clear()


async def _body(request: Request, limit: int) -> Any:
    return load_json(await _raw(request, limit), limit)


async def _raw(request: Request, limit: int) -> bytes:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        # A form or a text/plain POST from another site is refused: JSON needs the browser's CORS check.
        raise BadMessage("send the request as application/json")
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > limit):
        raise BadMessage(f"a request of at most {limit:,} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise BadMessage(f"a request of at most {limit:,} bytes")
    return bytes(data)


def create_app(games: list[str] | None = None, *, catalog: dict[str, Entry] | None = None,
               limits: Limits = DEFAULT_LIMITS, max_rooms: int = 64, finished_ttl: float = 1800.0,
               idle_ttl: float = 30 * 60.0, bot_delay: float = 0.4, socket_rate: float = 10.0,
               socket_burst: float = 30.0, sweep_every: float = 60.0, caps: Caps | None = None,
               move_seconds: float = 30.0, bot_seconds: float = 5.0, workers: int = 8,
               allowed: Allowed | None = None, store: str | Path | None = None) -> Starlette:
    """The web table for `games` (bundled names or rule-file paths; default every bundled game).

    `bot_delay` seconds pass between bot moves so people can follow them; finished rooms are removed after
    `finished_ttl` seconds, rooms nobody moved in after `idle_ttl`; a socket may send `socket_rate` messages
    a second (bursts of `socket_burst`). `caps` bound what one client and the server hold (web/limits.py);
    rule work runs in `workers` threads, each move stopped after `move_seconds`, a bot's search after
    `bot_seconds` (web/pool.py); `allowed` are the Host names and origins answered (web/origin.py; None: any
    Host, an Origin only its own). With `store`, a SQLite file, every room is written there as each move is
    accepted, and the rooms it holds come back when the server starts (web/durable.py)."""
    cat = catalog if catalog is not None else load_catalog(games, limits)
    rooms = Rooms(cat, max_rooms=max_rooms, finished_ttl=finished_ttl, idle_ttl=idle_ttl, bot_delay=bot_delay)
    table = Table(cat, rooms, socket_rate=socket_rate, socket_burst=socket_burst, sweep_every=sweep_every,
                  caps=caps, pool=Pool(workers=workers, move_seconds=move_seconds))
    gate, pool = table.gate, table.pool

    def page(name: str) -> Any:
        async def serve(request: Request) -> Response:
            return FileResponse(STATIC / name)
        return serve

    async def api_games(request: Request) -> Response:
        return JSONResponse({"games": [game_info(e) for e in cat.values()], "bots": bots_info()})

    async def api_rules(request: Request) -> Response:
        entry = cat.get(request.path_params["key"])
        if entry is None:
            return refused("no such game here", status=404)
        # Made once per game (a tenth of a second at most for the bundled games), off the event loop.
        try:
            return JSONResponse(await pool.run(lambda: rulebook_info(entry), aux=True))
        except TooSlow:
            return refused("this game's rulebook takes too long to make", status=503)

    async def api_create(request: Request) -> Response:
        if not table.allow(request):
            return refused("too many requests; wait a moment", status=429)
        client = client_of(request.client.host if request.client else None)
        try:
            body = await _body(request, MAX_REQUEST)
            gate.check_room(client, rooms.rooms)
            room = await pool.run(lambda: rooms.create(body))
        except BadMessage as e:
            return refused(str(e))
        except Refused as e:
            return refused(e.line, status=e.status)
        except TooSlow:
            return refused(f"setting this table up ran longer than {pool.move_seconds:g} s, this table's cap per "
                           "move", status=400)
        except RoomRefused as e:
            return refused(*e.lines, status=e.status)
        gate.room_made(client, room.id)
        room.work = room_work(pool, room, client)
        cap_bots(room, bot_seconds)
        table.start_bots(room)
        return JSONResponse({"room": room.id, "public": room.public(),
                             "seats": [{"seat": k, "name": s.name, "bot": str(s.spec) if s.spec else None,
                                        "token": s.token} for k, s in enumerate(room.seats)]})

    async def api_record(request: Request) -> Response:
        if not table.allow(request):
            return refused("too many requests; wait a moment", status=429)
        room = rooms.get(request.path_params["room"])
        try:
            tokens = tokens_of(await _body(request, MAX_REQUEST))
        except BadMessage as e:
            return refused(str(e))
        if room is None:
            return refused("no such room (it may have been closed)", status=404)
        seats = [room.seat_of(t) for t in tokens]
        if any(s is None for s in seats):
            return refused("a token that is not a seat of this room", status=403)
        people = {k for k, s in enumerate(room.seats) if not s.is_bot}
        if not room.over and not people <= set(seats):
            # The record holds the seed, so every hidden card: while others still play, it would show theirs.
            return refused("a match with other people at the table can be saved once it is over (the record "
                           "holds the whole deal)", status=403)
        async with room.lock:
            rec = await room.work(lambda: room_record(room))
        name = f"{room.entry.key}-{room.id}.json"
        return JSONResponse(rec.to_json(), headers={"content-disposition": f'attachment; filename="{name}"'})

    async def api_replay(request: Request) -> Response:
        if not table.allow(request):
            return refused("too many requests; wait a moment", status=429)
        try:
            key, body, rec = await table.replays.read(await _raw(request, MAX_RECORD), MAX_RECORD)
            if not whole(body.get("step")) or not whole(body.get("seat")):
                raise BadMessage("expected {\"record\": {...}, \"step\": N, \"seat\": K}")
        except (BadMessage, BadRecord) as e:
            return refused(str(e))
        entry = next((e for e in cat.values() if e.sha256 == rec.sha256), None)
        if entry is None:
            return refused(f"this server does not have the rules of {rec.game!r} that the match was played by "
                           "(no game here has the record's SHA-256)")
        seat, step = body["seat"], max(0, min(body["step"], rec.decisions))
        if not 0 <= seat < rec.players:
            return refused(f"the seat must be from 0 to {rec.players - 1}")
        try:
            g, view = await table.replays.view(key, rec, entry, step, seat)
        except GameError as e:  # BadRecord, a bad option, or a rule error met while replaying
            return refused(" ".join(str(e).split()))
        opts = option_info(entry.compiled)
        for o in opts:
            o["value"] = option_text(g.options.get(o["name"]))
        meta = {"game": {"key": entry.key, "name": g.spec.name, "summary": g.spec.summary, "players": g.n,
                         "options": opts},
                "seats": [{"seat": k, "name": s, "bot": None if rec.bots is None else rec.bots[k]}
                          for k, s in enumerate(rec.seats)]}
        return JSONResponse({"type": "replay", "steps": rec.decisions, "step": step, "seat": seat,
                             "room": meta, "view": view})

    async def socket(ws: WebSocket) -> None:
        origin = ws.headers.get("origin")
        if origin is not None and urlsplit(origin).netloc != ws.headers.get("host"):
            await ws.close(code=1008)  # another site's page may not play for a seat
            return
        client = client_of(ws.client.host if ws.client else None)
        try:
            gate.open_socket(client)
        except Refused as e:
            # Accepted, told and closed with the line as the reason (a refusal before the handshake is an HTTP
            # 403 the page cannot read, and costs the server as much: the handshake's parsing is done by then).
            await ws.accept()
            await ws.send_json({"type": "error", "error": e.line})
            await ws.close(code=e.code, reason=e.line)
            return
        await ws.accept()
        try:
            await _play(ws)
        finally:
            gate.close_socket(client)

    async def _play(ws: WebSocket) -> None:
        bucket = Bucket(table.socket_rate, table.socket_burst)
        room: Room | None = None
        listener: Listener | None = None
        strikes = bad_hellos = 0

        async def error(text: str) -> None:
            await ws.send_json({"type": "error", "error": text})

        try:
            while True:
                try:
                    m = await asyncio.wait_for(ws.receive(), gate.caps.hello_seconds if listener is None
                                               else gate.caps.idle_socket_seconds)
                except TimeoutError:
                    line = ("no hello within {:g} s: the connection is closed" if listener is None else
                            "nothing sent for {:g} s: the connection is closed; reload the page to play on").format(
                        gate.caps.hello_seconds if listener is None else gate.caps.idle_socket_seconds)
                    await error(line)
                    await ws.close(code=1008, reason=line)
                    break
                if m["type"] == "websocket.disconnect":
                    break
                if not bucket.take():
                    strikes += 1
                    if strikes > 3 * table.socket_burst:
                        await error("too many messages: the connection is closed")
                        await ws.close(code=1008)
                        break
                    await error("too many messages: this one was ignored; wait a moment")
                    continue
                try:
                    msg = socket_message(m.get("text"))
                except BadMessage as e:
                    await error(str(e))
                    continue
                if msg["type"] == "ping":
                    await ws.send_json({"type": "pong"})
                elif msg["type"] == "hello":
                    if listener is not None and room is not None:
                        await error(f"this connection is already {room.seats[listener.seat].name}'s seat")
                        continue
                    # /ws/{room}: the room is in the address, for a proxy to route by; the hello must agree.
                    at = ws.path_params.get("room")
                    found = rooms.get(msg["room"]) if at is None or at == msg["room"] else None
                    seat = found.seat_of(msg["token"]) if found is not None else None
                    if found is None or seat is None:
                        bad_hellos += 1
                        await error("no such room, or the token is not one of its seats")
                        if bad_hellos >= 5:
                            await ws.close(code=1008)
                            break
                        continue
                    if sum(1 for ls in found.listeners if ls.seat == seat) >= MAX_SOCKETS_PER_SEAT:
                        await error(f"{found.seats[seat].name}'s seat is open in {MAX_SOCKETS_PER_SEAT} places "
                                    "already; close one of them first")
                        continue
                    room, listener = found, Listener(seat, ws.send_json, ws.close)
                    async with room.lock:
                        room.listeners.add(listener)
                        try:
                            await ws.send_json(await room.work(partial(room.message, seat)))
                        except RoomRefused as e:
                            await error(str(e))
                else:
                    if room is None or listener is None:
                        await error("say hello first, with the room and your seat's token")
                        continue
                    if rooms.get(room.id) is not room:
                        await error("this room was closed")
                        continue
                    if "seat" in msg and msg["seat"] != listener.seat:
                        await error(f"this link plays for {room.seats[listener.seat].name} only")
                        continue
                    async with room.lock:
                        if "version" in msg and msg["version"] != room.version:
                            await error("the table has changed since that move was shown; choose again")
                            continue
                        try:
                            await room.work(partial(room.move, listener.seat, msg["action"]))
                        except RoomRefused as e:
                            await error(str(e))
                            if room.error is None:
                                continue
                        await room.broadcast()
                    table.start_bots(room)
        except WebSocketDisconnect:
            pass
        finally:
            if room is not None and listener is not None:
                room.listeners.discard(listener)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async def janitor() -> None:
            while True:
                await asyncio.sleep(table.sweep_every)
                await table.sweep()
        kept = Store(store) if store is not None else None
        if kept is not None:
            for room in Durable(kept).attach(rooms):
                room.work = room_work(pool, room, "?")  # the client who made it is not kept
                table.start_bots(room)
        task = asyncio.get_running_loop().create_task(janitor())
        try:
            yield
        finally:
            task.cancel()
            for t in list(table.tasks):
                t.cancel()
            pool.shutdown()
            if kept is not None:
                kept.close()

    routes = [
        Route("/", page("index.html")),
        Route("/room/{room}", page("table.html")),
        Route("/replay", page("replay.html")),
        Route("/api/games", api_games),
        Route("/api/games/{key}/rules", api_rules),
        Route("/api/rooms", api_create, methods=["POST"]),
        Route("/api/rooms/{room}/record", api_record, methods=["POST"]),
        Route("/api/replay", api_replay, methods=["POST"]),
        WebSocketRoute("/ws", socket),
        WebSocketRoute("/ws/{room}", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.table = table
    app.add_middleware(OriginCheck, allowed=allowed)
    app.add_middleware(Headers)  # outermost: the checks' refusals get the headers too
    return app
