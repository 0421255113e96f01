"""Rooms kept in a store (web/store.py) and brought back from it after a restart, crash or `kill -9`.

A room's row is its public parts (game, options, seats), its people's tokens, its bots' specs and notes, and
its match record with the seed (web/records.py, the server's copy). Bringing it back replays the record on
the same rules (the rules' SHA-256 must match: other rules could read the same ids as other moves), so each
seat is sent exactly the view it was sent before; the room keeps its id and tokens, so every link still
works. A bot is made afresh from its seat's seed: its moves to come may differ from the ones it would have
made, which nobody can tell.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from ..bots import make_bot, seat_seed, strategy_names
from ..bots.spec import parse_bot
from ..engine.errors import GameError
from ..engine.game import Game
from ..table.record import MatchRecord, replay
from .catalog import Entry
from .records import room_record
from .rooms import Room, Rooms, Seat
from .store import Store


def row_of(room: Room) -> dict[str, Any]:
    return {"game": room.entry.key, "sha256": room.entry.sha256, "players": room.game.n, "options": room.options,
            "seed": room.seed, "error": room.error, "notes": [[at, note] for at, note in room.notes],
            "over": room.finished_at is not None,
            "seats": [{"name": s.name, "token": s.token, "bot": str(s.spec) if s.spec else None} for s in room.seats]}


class Durable:
    """The hooks that keep `rooms` in `store`."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def attach(self, rooms: Rooms) -> list[Room]:
        """Bring back every room the store holds into `rooms`, then keep each in the store; the rooms back."""
        back = []
        for room_id, row, record, version, updated in self.store.rows():
            try:
                room = restored(rooms.catalog, room_id, row, record, version, updated)
            except (GameError, KeyError, TypeError, ValueError) as e:
                # Left in the store, untouched: the same server with its rules back brings it back.
                print(f"cardsmith: the room {room_id} cannot come back: {' '.join(str(e).split())}",
                      file=sys.stderr)
                continue
            room.persist = self.save
            rooms.rooms[room_id] = room
            back.append(room)
        rooms.persist = self.save
        rooms.forget = self.store.drop
        return back

    def save(self, room: Room) -> None:
        self.store.put(room.id, row_of(room), room_record(room, whole=True).to_json(), room.version)


def restored(catalog: dict[str, Entry], room_id: str, row: dict[str, Any], record: dict[str, Any],
             version: int, updated: float) -> Room:
    entry = catalog.get(row["game"])
    if entry is None:
        raise GameError(f"this server does not offer the game {row['game']!r}")
    if entry.sha256 != row["sha256"]:
        raise GameError(f"the rules of {row['game']!r} have changed since (another SHA-256)")
    game = Game(entry.compiled, row["players"], dict(row["options"]))
    rec = MatchRecord.from_json(record)
    seed = int(row["seed"])
    seats = []
    for k, s in enumerate(row["seats"]):
        if s["bot"] is not None:
            spec = parse_bot(s["bot"], strategy_names(game))
            seats.append(Seat(s["name"], spec=spec, bot=make_bot(spec, game, k, seat_seed(seed, k))))
        else:
            seats.append(Seat(s["name"], token=s["token"]))
    room = Room(room_id, entry, game, seed, seats, dict(row["options"]))
    room.state = replay(rec, game)
    room.version = version
    room.error = row["error"]
    room.notes = [(int(at), note) for at, note in row["notes"]]
    # The clocks go on from the wall time the row was written: an idle room is closed as if never stopped.
    room.last_active = time.monotonic() - max(0.0, time.time() - updated)
    if row["over"] or room.over:
        room.finished_at = room.last_active
    return room
