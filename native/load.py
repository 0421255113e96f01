"""A `Game` of a rule file compiled without the optimizer (whose inlined bodies are Python-only), and its IR."""

from __future__ import annotations

from typing import Any

from cardsmith.dsl.pipeline import compile_file
from cardsmith.engine.bundled import resolve
from cardsmith.engine.game import Game
from lower import Program, lower


def plain_game(name: str, players: int, options: dict[str, Any] | None = None) -> Game:
    r = compile_file(resolve(name), optimize=False)
    assert r.game is not None, r.diagnostics
    return Game(r.game, players, dict(options or {}))


def program(name: str, players: int, options: dict[str, Any] | None = None) -> Program:
    return lower(plain_game(name, players, options))
