"""cardsmith: a rules language for card games, and the engine that runs it.

    import cardsmith
    game = cardsmith.load("my-game.yaml", players=4)   # a rule file's path, or a bundled game's name
    state = game.new_initial_state(seed=7)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    print(state.returns())

`docs/python.md` describes the whole interface. The package is built by capability: `cardsmith.dsl` (the
language: rule file -> checked, compiled game), `cardsmith.engine` (the runtime: Game and State), and on
top of the engine `cardsmith.bots`, `cardsmith.scenario`, `cardsmith.table` and `cardsmith.cli`.
"""

from .api import bundled_games, load
from .dsl.diagnostics import RuleFileError
from .dsl.limits import DEFAULT_LIMITS, Limits
from .engine.errors import AmbiguousAction, BadOption, GameError, IllegalAction, RuleError
from .engine.game import Game, load_game
from .engine.setup import BadSetup, Deal, Setup
from .engine.state import CHANCE, TERMINAL, State

__all__ = ["CHANCE", "DEFAULT_LIMITS", "TERMINAL", "AmbiguousAction", "BadOption", "BadSetup", "Deal", "Game",
           "GameError", "IllegalAction", "Limits", "RuleError", "RuleFileError", "Setup", "State", "bundled_games",
           "load", "load_game"]
