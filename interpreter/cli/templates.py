"""The kinds of game `cardsmith new` starts from (cli/new.py): what each template plays and for how many.

Kept apart from new.py, which writes the files, because `cardsmith new --help` shows them and every run of
`cardsmith` builds every command's parser (commands.py): this module imports nothing heavy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    what: str  # the kind of game it starts
    rules: str  # its rules in a line, for the help
    min_players: int  # the player counts its pack and hand sizes allow
    max_players: int
    seats: int  # the player count of its scenarios and of the commands suggested, without --players


KINDS: dict[str, Kind] = {
    "trick": Kind("a trick-taking game", "follow suit, the highest card of the suit led wins, a point a trick",
                  3, 6, 4),
    "shedding": Kind("a shedding game", "match the top card's suit or rank or draw; first to empty the hand wins",
                     2, 6, 3),
    "exchange": Kind("a commerce game", "swap with a face-up centre for the best hand in one suit; knock to end",
                     2, 6, 3),
    "rummy": Kind("a rummy game", "draw, lay down sets and runs, discard; first to empty the hand wins", 2, 4, 2),
    "fishing": Kind("a fishing game", "ask a player for a rank, take their cards or draw; books of four", 2, 6, 3),
}
DEFAULT = "trick"
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,39}")
NAME_RULE = "a letter, then letters, digits, '-' or '_' (at most 40 in all)"
