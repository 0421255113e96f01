"""The Python entry points: load a rule file (a path or a bundled game's name) as a playable game."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .dsl.diagnostics import RuleFileError
from .dsl.limits import DEFAULT_LIMITS, Limits
from .dsl.pipeline import compile_file
from .engine.bundled import bundled_games, resolve
from .engine.game import Game


def load(game: str | Path, players: int, options: Mapping[str, Any] | None = None,
         limits: Limits = DEFAULT_LIMITS) -> Game:
    """A game ready to play: `game` is a rule file's path or a bundled game's name (`bundled_games()`),
    `players` the number of seats, `options` the table options by name (values as in the rule file, or as
    text as on the command line). A rule file with errors raises RuleFileError (every problem, located);
    a bad player count or option value raises BadOption, and so does a table the rule file's `constraints:`
    refuse (a SetupRefused, whose message is the designer's). `limits` (a `cardsmith.Limits`) bound reading
    the file and what its rules may do while playing: raise them for a big game you trust."""
    path = resolve(str(game)) if isinstance(game, str) else game
    r = compile_file(path, limits)
    if not r.ok or r.game is None:
        raise RuleFileError(r.diagnostics, r.sources)
    return Game(r.game, players, dict(options or {}))


__all__ = ["Limits", "bundled_games", "load"]
