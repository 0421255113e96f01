"""The record of a room's match, as the server keeps it and as a seat may have it.

The server's own copy (the store's) holds everything, the seed included. A copy sent to a seat holds the
seed only once the match is over: until then the seed would tell every card still to be dealt (the chance
outcomes dealt so far replay the match without it). Neither holds the server's path to a served rule file:
a bundled game is recorded by its name, a served file by its file name (`cardsmith replay` finds it in the
folder it is run from; the web replay finds the rules by the record's SHA-256).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.bundled import bundled_game
from ..table.record import MatchRecord, record_match

if TYPE_CHECKING:
    from .catalog import Entry
    from .rooms import Room


def recorded_source(entry: Entry) -> str:
    """How a record names the rule file: a bundled game's name, or a served file's name without its folder."""
    return _source(entry.key, str(entry.path), entry.source)


@functools.lru_cache(maxsize=1024)  # a record is made at every move: the bundled games' table costs 2 ms
def _source(key: str, path: str, source: str) -> str:
    bundled = bundled_game(key)
    if bundled is not None and Path(bundled).resolve() == Path(path).resolve():
        return key  # served by its name or its path: the same file
    return Path(source).name


def room_record(room: Room, *, whole: bool = False) -> MatchRecord:
    """The room's record so far: `whole` (the server's copy) keeps the seed while the match runs."""
    s = room.seats
    rec = record_match(room.state, recorded_source(room.entry), [str(x.spec) if x.spec else x.name for x in s],
                       [x.is_bot for x in s], sha256=room.entry.sha256)
    if not whole and not room.over:
        rec.seed = None
    return rec
