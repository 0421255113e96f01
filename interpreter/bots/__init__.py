"""Players that need no human, selectable by name with parameters (`spec.py`).

Every bot is given a `SeatView` (what its seat may know), never the state itself:

- `random` and `first` (`simple.py`): a uniform choice, or the lowest-numbered action;
- `ismcts` (`ismcts.py`): information-set Monte Carlo tree search over states resampled from the seat's
  information;
- a strategy of the rule file by its name (`strategy.py`): rules as data, read on a masked state.
"""

from __future__ import annotations

from .simple import FirstBot, RandomBot
from .spec import (
           BOTS,
           BadBotSpec,
           Bot,
           BotSpec,
           describe_bots,
           make_bot,
           parse_bots,
           resampling,
           seat_seed,
           strategy_names,
)
from .view import SeatView

__all__ = ["BOTS", "BadBotSpec", "Bot", "BotSpec", "FirstBot", "RandomBot", "SeatView", "describe_bots",
           "make_bot", "parse_bots", "resampling", "seat_seed", "strategy_names"]
