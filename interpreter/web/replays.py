"""`POST /api/replay`: a record checked once, then stepped through from saved states.

The page sends the whole record with every step it shows. The first request reads it, checks every action
(table/record.py's `steps`, as `cardsmith replay` does) and keeps up to CHECKPOINTS of its states, evenly
spaced; a later step of the same record starts from the nearest kept state before it, so it costs at most
decisions / CHECKPOINTS moves, never a replay from the start. The work runs in the pool's `aux` workers with
a wall-clock cap (web/pool.py), and each record has its own Game, so replays share no step counter and need
no lock beyond their own record's.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ..engine.game import Game
from ..engine.history import CHANCE
from ..engine.state import State
from ..table.record import BadRecord, MatchRecord, steps
from ..table.view import TableView
from .catalog import Entry
from .guard import BadMessage, load_json
from .pool import Pool, TooSlow

CHECKPOINTS = 256  # states kept per record
KEPT = 8  # records kept (the most recently used)
REPLAY_SECONDS = 30.0  # a record's check at most


@dataclass
class Checked:
    """A record whose every action was checked, with its kept states."""
    rec: MatchRecord
    game: Game
    every: int  # a state kept each `every` decisions
    states: list[State]  # the state before decision k * every
    at: list[int]  # the history entry of that decision
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def state(self, step: int) -> State:
        """The state after the first `step` decisions, from the nearest kept state before it."""
        k = min(step // self.every, len(self.states) - 1)
        s, pos, hist = self.states[k].clone(), self.at[k], self.rec.history
        for _ in range(step - k * self.every):
            while hist[pos][0] == CHANCE:
                pos += 1
            s.apply_action(hist[pos][1])
            pos += 1
            while pos < len(hist) and hist[pos][0] == CHANCE:
                if self.rec.seed is None:  # a seedless record gives its chance outcomes; a seed draws them
                    s.apply_action(hist[pos][1])
                pos += 1
        return s


def check(rec: MatchRecord, game: Game) -> Checked:
    """Replay the whole record once, checked (BadRecord on the first wrong entry), keeping its states."""
    every = max(1, -(-rec.decisions // CHECKPOINTS))
    kept: list[State] = []
    last: State | None = None
    for i, s in enumerate(steps(rec, game)):
        if i % every == 0:
            kept.append(s)
        last = s
    assert last is not None
    if rec.result is not None:
        got = {"winners": list(last.winners), "returns": last.returns()} if last.terminal else None
        if got != rec.result:
            raise BadRecord(f"the replay ends otherwise than recorded: {got} instead of {rec.result}")
    players = [i for i, (who, _a) in enumerate(rec.history) if who != CHANCE]
    at = [players[k * every] if k * every < len(players) else len(rec.history) for k in range(len(kept))]
    return Checked(rec, game, every, kept, at)


class Replays:
    """The records checked lately, by the SHA-256 of their text."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.checked: OrderedDict[str, Checked] = OrderedDict()

    async def read(self, body: bytes, limit: int) -> tuple[str, Any, MatchRecord]:
        """The request's key, its JSON and its record, read in a worker (a record may be megabytes)."""
        def parse() -> tuple[str, Any, MatchRecord]:
            data = load_json(body, limit)
            if not isinstance(data, dict):
                raise BadMessage("expected {\"record\": {...}, \"step\": N, \"seat\": K}")
            rec = MatchRecord.from_json(data.get("record"))
            key = hashlib.sha256(json.dumps(data.get("record"), sort_keys=True).encode()).hexdigest()
            return key, data, rec
        return await self.pool.run(parse, aux=True)

    async def view(self, key: str, rec: MatchRecord, entry: Entry, step: int, seat: int) -> tuple[Game, Any]:
        """The record's game and `seat`'s view after `step` decisions; GameError if the record is wrong."""
        done = self.checked.get(key)
        if done is None:
            game = Game(entry.compiled, rec.players, dict(rec.options))
            try:
                done = await self.pool.run(lambda: check(rec, game), steps=game.steps, seconds=REPLAY_SECONDS,
                                           aux=True)
            except TooSlow:
                raise BadRecord(f"this record takes more than {REPLAY_SECONDS:g} s to check; the table replays "
                                "shorter ones") from None
            self.checked[key] = done
            while len(self.checked) > KEPT:
                self.checked.popitem(last=False)
        self.checked.move_to_end(key)
        async with done.lock:  # one step of a record at a time: its game's step counter is its own
            try:
                view = await self.pool.run(lambda: TableView(done.game, done.rec.seats).view(done.state(step), seat),
                                           steps=done.game.steps, seconds=REPLAY_SECONDS, aux=True)
            except TooSlow:
                raise BadRecord(f"this step takes more than {REPLAY_SECONDS:g} s to show") from None
        return done.game, view
