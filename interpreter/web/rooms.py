"""Rooms: one match each, held by the server alone.

A room holds the Game and the State (made with a seed, with its log); each seat is a person, known by an
unguessable token, or a bot, given a `SeatView` only. Everything a seat is sent is built by `TableView` for
that seat plus the room's public description (`public()`): never from the state directly, so a card the
rules hide from a seat cannot reach its socket.

Nothing here knows about HTTP: `app.py` turns requests into these calls and `RoomRefused` into JSON errors.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import secrets
import time
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ..bots import BadBotSpec, BotSpec, SeatView, make_bot, parse_bots, seat_seed, strategy_names
from ..bots.spec import FILE_CAPS, check_bots
from ..dsl.diagnostics import clipped
from ..engine import seeds
from ..engine.errors import GameError, RuleError
from ..engine.game import Game
from ..engine.state import State
from ..table.view import TableView, perceived_log
from .catalog import Entry, option_info, option_text

MAX_NAME = 24
MAX_SEED = 2**63 - 1
# Bots a browser may put at a table: a search that thinks for minutes per move would hold a core for every
# room that asks for it, so the parameters that buy time are capped below the command line's ranges: the same
# caps as a save file's bots get (`play --resume`), one table in bots/spec.py.
BOT_CAPS: dict[str, int] = FILE_CAPS


class RoomRefused(GameError):
    """A request the table refuses; the message is for the person who sent it (one line each)."""

    def __init__(self, *lines: str, status: int = 400) -> None:
        super().__init__("\n".join(lines))
        self.lines = list(lines)
        self.status = status


@dataclass
class Seat:
    name: str
    token: str | None = None  # a person's seat
    spec: BotSpec | None = None  # a bot's seat
    bot: Any = None

    @property
    def is_bot(self) -> bool:
        return self.spec is not None


Send = Callable[[dict[str, Any]], Awaitable[None]]
# Runs a room's rule work (a move, a bot's decision, the views): the web table gives each room one that uses
# its worker pool with a wall-clock cap (web/pool.py); alone, a room runs it where it is called.
Work = Callable[[Callable[[], Any]], Awaitable[Any]]


async def inline(fn: Callable[[], Any]) -> Any:
    return fn()


@dataclass(eq=False)
class Listener:
    """One open connection, watching one seat."""
    seat: int
    send: Send
    close: Callable[[], Awaitable[None]]


@dataclass(eq=False)
class Room:
    id: str
    entry: Entry
    game: Game
    seed: int
    seats: list[Seat]
    options: dict[str, str]
    state: State = field(init=False)
    table: TableView = field(init=False)
    created: float = field(default_factory=time.monotonic)
    last_active: float = field(default_factory=time.monotonic)
    finished_at: float | None = None
    error: str | None = None  # a rule error stopped the match: what every player may see of it
    version: int = 0
    listeners: set[Listener] = field(default_factory=set)
    # Lines about the bots' own play for the log (a resampler that gave up), each with the length of the
    # state's log when it was made: shown to every seat, between the events of the match.
    notes: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    work: Work = field(default=inline, repr=False)
    # Writes the room to the store (web/durable.py); a move it cannot write is refused and undone.
    persist: Callable[[Room], None] | None = None

    def __post_init__(self) -> None:
        self.state = State.initial(self.game, self.seed, log=True)
        self.table = TableView(self.game, [s.name for s in self.seats])

    # ------------------------------------------------------------ what a seat is sent
    def public(self) -> dict[str, Any]:
        """What anyone at the table may know of the room: the game, its rules help, the seats."""
        sp = self.game.spec
        opts = option_info(self.entry.compiled)
        for o in opts:
            o["value"] = option_text(self.game.options.get(o["name"]))
        return {"id": self.id, "game": {"key": self.entry.key, "name": sp.name, "summary": sp.summary,
                                        "players": self.game.n, "options": opts},
                "seats": [{"seat": k, "name": s.name, "bot": str(s.spec) if s.spec else None}
                          for k, s in enumerate(self.seats)],
                "error": self.error}

    def view(self, seat: int) -> dict[str, Any]:
        v = self.table.view(self.state, seat)
        if self.notes:
            log, names, out, start = self.state.log or [], self.table.names, [], 0
            for at, note in self.notes:
                out += perceived_log(self.game, log[start:at], seat, names)
                out.append(note)
                start = at
            v["log"] = out + perceived_log(self.game, log[start:], seat, names)
        return v

    def message(self, seat: int) -> dict[str, Any]:
        return {"type": "state", "version": self.version, "room": self.public(), "view": self.view(seat)}

    # ------------------------------------------------------------ seats and moves
    def seat_of(self, token: Any) -> int | None:
        if not isinstance(token, str) or not 8 <= len(token) <= 128:
            return None
        found = None
        for k, s in enumerate(self.seats):  # every seat compared, in constant time each
            if s.token is not None and hmac.compare_digest(s.token.encode(), token.encode()):
                found = k
        return found

    @property
    def over(self) -> bool:
        return self.state.is_terminal() or self.error is not None

    def move(self, seat: int, action: int) -> None:
        """Play `action` for `seat`, or refuse it (RoomRefused) and change nothing."""
        if self.error is not None:
            raise RoomRefused("the match was stopped by a rule error")
        s = self.state
        if s.is_terminal():
            raise RoomRefused("the match is over")
        if s.current_player() != seat:
            raise RoomRefused(f"it is not {self.seats[seat].name}'s turn")
        if action not in self.legal():
            raise RoomRefused(f"action {action} is not a legal move now")
        self._apply(action)

    def legal(self) -> list[int]:
        try:
            return self.state.legal_actions()
        except RuleError as e:
            self._broken(e)
            self.saved()
            return []

    def _apply(self, action: int) -> None:
        before = (self.state.clone(), self.error, self.finished_at, self.last_active, len(self.notes)) \
            if self.persist is not None else None
        try:
            self.state.apply_action(action)
        except RuleError as e:
            self._broken(e)
        self.version += 1
        self.last_active = time.monotonic()
        if self.over and self.finished_at is None:
            self.finished_at = time.monotonic()
        if before is not None and not self.saved():
            self.state, self.error, self.finished_at, self.last_active, kept = before
            del self.notes[kept:]
            self.version -= 1
            raise RoomRefused("the server could not save this move; try again", status=503)

    def saved(self) -> bool:
        """Write the room to the store, if it has one; False if that failed."""
        if self.persist is None:
            return True
        try:
            self.persist(self)
        except Exception:  # the store's error: the move is not accepted
            return False
        return True

    def _broken(self, e: RuleError) -> None:
        # A rule error's players' text shows only what every player may see (the designer's view is not sent).
        self.error = clipped(" ".join(e.render().split()), 500)
        if self.finished_at is None:
            self.finished_at = time.monotonic()

    def bot_to_move(self) -> int | None:
        if self.over:
            return None
        p = self.state.current_player()
        return p if 0 <= p < len(self.seats) and self.seats[p].is_bot else None

    def bot_choice(self, seat: int) -> int:
        """The bot's move at `seat` (run in a worker thread while the room's lock is held)."""
        bot = self.seats[seat].bot
        action = int(bot.choose(SeatView(self.state, seat)))
        text = resampling_note(bot)
        if text is not None:
            self.notes.append((len(self.state.log or []), {"event": "bot", "player": seat, "text": text}))
        return action

    def play_bot(self, seat: int, action: int) -> None:
        if self.bot_to_move() == seat and action in self.legal():
            self._apply(action)
        else:  # a bot that answers with an illegal move is a bug: stop rather than play on a wrong state
            self.error = f"the bot at seat {seat} chose an illegal move"
            self.saved()

    async def broadcast(self) -> None:
        listeners = list(self.listeners)
        try:  # the views run rule code (legal moves, observations): built as the room's work
            messages = await self.work(lambda: [self.message(ls.seat) for ls in listeners])
        except RoomRefused:  # stopped past its cap: the room's error says so, sent when the room next speaks
            return
        for ls, m in zip(listeners, messages):
            try:
                await ls.send(m)
            except Exception:  # a connection that went away: it is dropped, the room plays on
                self.listeners.discard(ls)

    async def run_bots(self, delay: float = 0.0) -> None:
        """Let the bots play until a person is to move or the match is over, each move sent to everyone. A task
        of its own, whose exceptions nobody awaits: a failure that is no rule error stops the match with a
        line every seat sees, never a table that silently waits for a bot forever."""
        try:
            await self._run_bots(delay)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a bug: said to the seats and on the server's stderr
            traceback.print_exc()
            self.error = f"the bots stopped: {type(e).__name__}; the match cannot go on"
            with contextlib.suppress(Exception):
                await self.broadcast()

    async def _run_bots(self, delay: float) -> None:
        while True:
            async with self.lock:
                p = self.bot_to_move()
                if p is None:
                    return
                try:
                    action = await self.work(partial(self.bot_choice, p))
                except RuleError as e:
                    self._broken(e)
                    self.saved()
                    action = -1
                except RoomRefused:  # stopped past the table's cap per move (self.error says so)
                    action = -1
                if action >= 0:
                    try:
                        await self.work(partial(self.play_bot, p, action))
                    except RuleError as e:
                        self._broken(e)
                        self.saved()
                    except RoomRefused:  # past the cap per move, or the store failed: the bots stop here
                        await self.broadcast()
                        return
                await self.broadcast()
            if delay:
                await asyncio.sleep(delay)


def resampling_note(bot: Any) -> str | None:
    """What a player can read of a bot's last decision whose resampler gave up, or None."""
    failed = int(getattr(bot, "last_failed", 0))
    if getattr(bot, "last_blind", False) and getattr(bot, "last_timed_out", False):
        return "ran out of its time before it found an arrangement of the hidden cards that fits what it saw, " \
            "so it chose this move at random"
    if getattr(bot, "last_blind", False):
        return "found no arrangement of the hidden cards that fits what it saw, so it chose this move at random" + \
            (f" (the resampler gave up {failed:,} time{'s' * (failed != 1)})" if failed else "")
    if failed:
        return f"the resampler gave up on {failed:,} arrangement{'s' * (failed != 1)} of the hidden cards; " \
            "this move searched the others"
    return None


def _name(raw: Any, default: str) -> str:
    if raw is None or raw == "":
        return default
    if not isinstance(raw, str):
        raise RoomRefused("a seat's name must be text")
    name = " ".join(raw.split())
    if not name or not name.isprintable():
        return default
    return name[:MAX_NAME]


def _bot_spec(text: Any, game: Game, where: str) -> BotSpec:
    if not isinstance(text, str) or not text.strip():
        raise RoomRefused(f"{where}: name a bot, like random or ismcts(iterations=400)")
    if len(text) > 200:
        raise RoomRefused(f"{where}: a bot spec of at most 200 characters")
    try:
        specs = parse_bots(text, strategies=strategy_names(game))
        check_bots(specs, game)
    except BadBotSpec as e:
        raise RoomRefused(f"{where}: {e}") from None
    if len(specs) != 1:
        raise RoomRefused(f"{where}: one bot per seat, not {len(specs)}")
    spec = specs[0]
    for key, value in spec.params:
        cap = BOT_CAPS.get(key)
        if cap is not None and value > cap:
            raise RoomRefused(f"{where}: {spec.name}: {key} of at most {cap:,} at this table")
    return spec


class Rooms:
    """Every room of the server, with their limits and the cleaning of finished and idle ones."""

    def __init__(self, catalog: dict[str, Entry], *, max_rooms: int = 64, finished_ttl: float = 1800.0,
                 idle_ttl: float = 30 * 60.0, bot_delay: float = 0.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.catalog = catalog
        self.rooms: dict[str, Room] = {}
        self.max_rooms = max_rooms
        self.finished_ttl = finished_ttl
        self.idle_ttl = idle_ttl
        self.bot_delay = bot_delay
        self.clock = clock
        # The store's hooks (web/durable.py): write a room (each move too), and remove a closed one.
        self.persist: Callable[[Room], None] | None = None
        self.forget: Callable[[str], None] | None = None

    def create(self, request: Any) -> Room:
        """A room from the lobby's request: {game, players, options: {name: text}, seats: [{bot: spec} or
        {name: text}], seed?}. Every problem is refused with its own line."""
        if not isinstance(request, dict):
            raise RoomRefused("expected a JSON object")
        key = request.get("game")
        entry = self.catalog.get(key) if isinstance(key, str) else None
        if entry is None:
            raise RoomRefused(f"no game named {clipped(str(request.get('game')), 40)!r} here; the games: "
                              f"{', '.join(self.catalog)}")
        sp = entry.compiled.spec
        n = request.get("players", sp.min_players)
        if type(n) is not int or not sp.min_players <= n <= sp.max_players:
            raise RoomRefused(f"{sp.name} takes {sp.min_players} to {sp.max_players} players")
        raw_opts = request.get("options") or {}
        if not isinstance(raw_opts, dict) or not all(isinstance(k, str) and isinstance(v, (str, int, bool))
                                                     for k, v in raw_opts.items()):
            raise RoomRefused("options must be an object of option names and values")
        options = {k: option_text(v) for k, v in raw_opts.items() if not (isinstance(v, str) and v.strip() == "")}
        seed = request.get("seed")
        if seed is None:
            seed = seeds.fresh()  # 128 bits from the OS (engine/seeds.py): no seat can search for it
        elif type(seed) is not int or not 0 <= seed <= MAX_SEED:
            raise RoomRefused(f"the seed must be a whole number from 0 to {MAX_SEED}")
        try:
            game = Game(entry.compiled, n, options)
        except GameError as e:
            raise RoomRefused(" ".join(str(e).split())) from None
        seats = self._seats(request.get("seats"), game)
        self.sweep()
        if len(self.rooms) >= self.max_rooms:
            raise RoomRefused(f"this table server holds {self.max_rooms} rooms already; try again later", status=503)
        room_id = secrets.token_urlsafe(9)
        for k, s in enumerate(seats):
            if s.spec is not None:
                s.bot = make_bot(s.spec, game, k, seat_seed(seed, k))
        try:
            room = Room(room_id, entry, game, seed, seats, options)
        except RuleError as e:
            raise RoomRefused(f"the match cannot start: {' '.join(e.render().split())}") from None
        room.persist = self.persist
        if not room.saved():
            raise RoomRefused("the server could not save the room; try again later", status=503)
        self.rooms[room_id] = room
        return room

    def _seats(self, raw: Any, game: Game) -> list[Seat]:
        n = game.n
        if not isinstance(raw, list) or len(raw) != n:
            raise RoomRefused(f"give each of the {n} seats a person or a bot")
        seats, errors = [], []
        for k, item in enumerate(raw):
            where = f"seat {k + 1}"
            try:
                if not isinstance(item, dict):
                    raise RoomRefused(f"{where}: expected {{\"bot\": spec}} or {{\"name\": text}}")
                default = game.player_name(k)
                if item.get("bot") is not None:
                    spec = _bot_spec(item["bot"], game, where)
                    seats.append(Seat(_name(item.get("name"), f"{default} ({spec.name})"), spec=spec))
                else:
                    seats.append(Seat(_name(item.get("name"), default), token=secrets.token_urlsafe(24)))
            except RoomRefused as e:
                errors.extend(e.lines)
        if errors:
            raise RoomRefused(*errors)
        if all(s.is_bot for s in seats):
            # Nobody could open the room: its bots would play a whole match for no one.
            raise RoomRefused("give at least one seat to a person")
        return seats

    def get(self, room_id: Any) -> Room | None:
        return self.rooms.get(room_id) if isinstance(room_id, str) else None

    def find(self, token: Any) -> tuple[Room, int] | None:
        """The room and seat a token belongs to."""
        for room in self.rooms.values():
            seat = room.seat_of(token)
            if seat is not None:
                return room, seat
        return None

    def sweep(self, now: float | None = None) -> list[Room]:
        """Remove the rooms finished longer than `finished_ttl` ago and those idle longer than `idle_ttl`."""
        now = self.clock() if now is None else now
        gone = [r for r in list(self.rooms.values())  # (a list first: a worker may be adding a room)
                if (r.finished_at is not None and now - r.finished_at > self.finished_ttl)
                or now - r.last_active > self.idle_ttl]
        for r in gone:
            self.rooms.pop(r.id, None)  # (a worker making a room may sweep at the same time)
            if self.forget is not None:
                self.forget(r.id)
        return gone
