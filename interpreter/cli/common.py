"""What the commands share when they run: the game a command names, its table options, player counts in words."""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Callable, Sequence

from ..dsl.diagnostics import RuleFileError, count_of
from ..dsl.pipeline import compile_file
from ..engine.backends import default_backend
from ..engine.bundled import resolve
from ..engine.errors import GameError
from ..engine.game import Game
from ..engine.text import say


def options(pairs: Sequence[str] | None) -> dict[str, str]:
    """--option NAME=VALUE flags as a mapping."""
    out: dict[str, str] = {}
    for p in pairs or []:
        if "=" not in p:
            raise GameError(f"--option takes NAME=VALUE, not '{p}'")
        k, v = p.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def backend_of(args: argparse.Namespace) -> str:
    """The backend a command runs on: its --backend, else $CARDSMITH_BACKEND, else the command's default
    (python where the command has no --backend)."""
    chosen: str | None = getattr(args, "backend", None)
    if chosen is not None:
        return chosen
    if not hasattr(args, "backend_default"):
        return "python"
    return default_backend(str(args.backend_default))


def instance(args: argparse.Namespace) -> Game:
    """The game a command's GAME, --players and --option name, within its --max-... limits, on its backend
    (`backend_of`). A game that runs in Python where `auto` was asked for says why on stderr, once a command
    (`backend_notes`, shared by the copies of the command's arguments that load its games again)."""
    path = resolve(args.game)
    players: int | None = args.players
    table = options(args.option)
    loaded = compile_file(path, args.limits)
    if not loaded.ok or loaded.game is None:
        raise RuleFileError(loaded.diagnostics, loaded.sources)
    spec = loaded.game.spec
    n = players if players is not None else spec.min_players
    backend = backend_of(args)
    if backend == "python":
        return Game(loaded.game, n, table)
    from ..native.backend import NativeFallback, load_backend
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NativeFallback)  # said below, once, as the command's own line
        g = load_backend(path, loaded.game, n, table, args.limits, backend, on_build=_building(spec.name))
    note = g.backend_note
    said: set[str] = getattr(args, "backend_notes", set())
    if note is not None and note not in said:
        said.add(note)
        say(f"cardsmith: {note}", file=sys.stderr)
    return g


def terminal() -> bool:
    return sys.stderr.isatty()


def _building(name: str) -> Callable[[str], None]:
    """What a command says on a terminal when a native build starts, once: the first run of a game on a machine
    waits seconds for the compiler (the binding's first build, more), and says why before it does."""
    said = False

    def tell(what: str) -> None:
        nonlocal said
        if not said and terminal():
            said = True
            say(f"cardsmith: building {name} for the native backend (once: the next runs find it built)",
                file=sys.stderr)
    return tell


def players(lo: int, hi: int) -> str:
    """A game's player counts: '1 player', '4 players', '2-6 players'."""
    return count_of(lo, "player") if lo == hi else f"{lo:,}-{hi:,} players"
