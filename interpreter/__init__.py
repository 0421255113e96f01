"""The cardsmith runtime: game instances, states, chance, observations, bots and the CLI."""

from .engine import CHANCE, TERMINAL, State
from .errors import GameError, IllegalAction, RuleError
from .instance import GameInstance, load_game

__all__ = ["CHANCE", "TERMINAL", "GameError", "GameInstance", "IllegalAction", "RuleError", "State",
           "load_game"]
