"""The table's options: their values and constraints when a game is set up (option_values.py, which game.py
imports), and the ranges of a compiled game's int options at a player count (a question that sets a Game up, so
it lives here, above game.py)."""

from __future__ import annotations

from typing import Any

from ..dsl.compiler import CompiledGame
from .errors import GameError
from .game import Game
from .option_values import check_constraints, parse_option_value, set_options

__all__ = ["check_constraints", "option_ranges", "parse_option_value", "set_options"]


def option_ranges(compiled: CompiledGame, num_players: int,
                  given: dict[str, Any] | None = None) -> dict[str, tuple[int, int]] | None:
    """The range of each int option at this player count with these options (the defaults for the others),
    whether or not the constraints accept the table; None if the game cannot be set up so."""
    try:
        return Game(compiled, num_players, given, constraints=False).option_ranges
    except GameError:
        return None
