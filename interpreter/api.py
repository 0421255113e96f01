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
         limits: Limits = DEFAULT_LIMITS, backend: str = "python") -> Game:
    """A game ready to play: `game` is a rule file's path or a bundled game's name (`bundled_games()`),
    `players` the number of seats, `options` the table options by name (values as in the rule file, or as
    text as on the command line). A rule file with errors raises RuleFileError (every problem, located);
    a bad player count or option value raises BadOption, and so does a table the rule file's `constraints:`
    refuse (a SetupRefused, whose message is the designer's). `limits` (a `cardsmith.Limits`) bound reading
    the file and what its rules may do while playing: raise them for a big game you trust.

    `backend`: "python" (the default), "native" (compiled to C++ and cached: cardsmith.native; raises a
    GameError saying why in one line where it cannot) or "auto" (native where it can, else Python with a
    one-line warning, also in `game.backend_note`); `game.backend` says which runs it."""
    if backend != "python":
        from .native.backend import check_backend
        check_backend(backend)
    path = resolve(str(game)) if isinstance(game, str) else game
    r = compile_file(path, limits)
    if not r.ok or r.game is None:
        raise RuleFileError(r.diagnostics, r.sources)
    if backend == "python":
        return Game(r.game, players, dict(options or {}))
    from .native.backend import load_backend
    return load_backend(path, r.game, players, dict(options or {}), limits, backend)


__all__ = ["Limits", "bundled_games", "load"]
