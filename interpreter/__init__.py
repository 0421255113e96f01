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

The names below are imported when first used (PEP 562), so `import cardsmith` reads no grammar, compiler or
engine until a game is loaded (docs/performance.md, "Start-up"); `from cardsmith import Game` works as ever.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .api import bundled_games, load
    from .dsl.diagnostics import RuleFileError
    from .dsl.limits import DEFAULT_LIMITS, Limits
    from .engine.errors import AmbiguousAction, BadOption, GameError, IllegalAction, RuleError
    from .engine.game import Game, load_game
    from .engine.setup import BadSetup, Deal, Setup
    from .engine.state import CHANCE, TERMINAL, State

# Each public name and the module that defines it.
_HOMES = {
    "bundled_games": ".api", "load": ".api",
    "RuleFileError": ".dsl.diagnostics",
    "DEFAULT_LIMITS": ".dsl.limits", "Limits": ".dsl.limits",
    "AmbiguousAction": ".engine.errors", "BadOption": ".engine.errors", "GameError": ".engine.errors",
    "IllegalAction": ".engine.errors", "RuleError": ".engine.errors",
    "Game": ".engine.game", "load_game": ".engine.game",
    "BadSetup": ".engine.setup", "Deal": ".engine.setup", "Setup": ".engine.setup",
    "CHANCE": ".engine.state", "TERMINAL": ".engine.state", "State": ".engine.state",
}

__all__ = ["CHANCE", "DEFAULT_LIMITS", "TERMINAL", "AmbiguousAction", "BadOption", "BadSetup", "Deal", "Game",
           "GameError", "IllegalAction", "Limits", "RuleError", "RuleFileError", "Setup", "State", "bundled_games",
           "load", "load_game"]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home, __name__), name)
    globals()[name] = value  # the next lookup does not come here
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
