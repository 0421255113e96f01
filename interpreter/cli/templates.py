"""The kinds of game `cardsmith new` starts from (cli/new.py): what each template plays and for how many.

Kept apart from new.py, which writes the files, because `cardsmith new --help` shows them and every run of
`cardsmith` builds every command's parser (commands.py): this module imports nothing heavy.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources


@dataclass(frozen=True)
class Kind:
    what: str  # the kind of game it starts
    rules: str  # its rules in a line, for the help
    min_players: int  # the player counts its pack and hand sizes allow
    max_players: int
    seats: int  # the player count of its scenarios and of the commands suggested, without --players


def _kinds() -> tuple[dict[str, Kind], str]:
    """The templates' table (templates/kinds.json, package data beside the templates): which kinds there are is
    data, like the templates themselves, so the command names none."""
    data = json.loads(resources.files(__package__.rpartition(".")[0]).joinpath("templates", "kinds.json").read_text())
    return {name: Kind(**k) for name, k in data["kinds"].items()}, data["default"]


KINDS, DEFAULT = _kinds()
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,39}")
NAME_RULE = "a letter, then letters, digits, '-' or '_' (at most 40 in all)"
