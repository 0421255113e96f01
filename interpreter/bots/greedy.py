"""`greedy`: one step of lookahead, valued by the rule file's own numbers.

For each legal action, the bot plays it on a masked copy of the state (what its seat sees, the rest drawn at
random: engine/masked.py) and reads what the seat would have: its returns if the match ended, or else the
value `by` names, evaluated for the seat:

- a numeric `report:` line of the rule file, by its label (`greedy(by=hand)` for a line `hand: hand_value(...)`);
- `returns`: the rule file's `match: returns` expression, read as if the match ended now.

By default `by` is `returns` if the file has `match: returns`, else its first numeric report. The action with
the highest value is played (ties drawn from the bot's seed). It costs a copy and a step per legal action:
cheap enough for simulations, and a better sparring partner than `random` where the numbers mean something
mid-match. Where they do not (a report that only the end of a deal fills in), it plays like `random`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..dsl import types as T
from ..engine.errors import GameError, IllegalAction
from .errors import BadBotSpec

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.state import State
    from .view import SeatView


class GreedyBot:
    name = "greedy"

    def __init__(self, rng: random.Random, *, game: Game, seat: int, by: str = "") -> None:
        self.rng = rng
        self.seat = seat
        self.game = game
        self.value = value_of(game, by)

    def choose(self, view: SeatView) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        m = view.masked(self.rng)
        best, top = -math.inf, []
        for a in legal:
            v = value_after(m, a, self.value, self.seat)
            if v > best:
                best, top = v, [a]
            elif v == best:
                top.append(a)
        return int(top[self.rng.randrange(len(top))])


def value_of(game: Game, by: str, bot: str = "greedy") -> Callable[[State, int], Any]:
    """The value `by` names, as a function of a state and a seat (see the module's docstring); `bot` names
    who asks, for the message if it names nothing."""
    numeric = [(label, fn) for (label, fn, _kind, _span), (_, e) in zip(game.reports, game.spec.match.report)
               if T.compatible(getattr(e, "ty", T.ANY), T.NUM)]
    has_returns = game.spec.match.returns is not None
    if not by:
        by = "returns" if has_returns or not numeric else numeric[0][0]
    if by == "returns":
        if has_returns:
            return game.returns_fn  # type: ignore[no-any-return]
        return lambda s, p: 1.0 / len(s.winners) if s.winners and p in s.winners else 0.0
    for label, fn in numeric:
        if label == by:
            return fn  # type: ignore[no-any-return]
    labels = ", ".join(["returns"] + [label for label, _ in numeric])
    raise BadBotSpec(f"{bot}: by must name a number the rule file reports for each player: {labels}; "
                     f"not '{by}'")


def value_after(s: State, a: int, value: Callable[[State, int], Any], seat: int) -> float:
    """What `seat` has after `a` is played on a copy of `s`: its returns if that ends the match, else `value`."""
    t = s.clone()
    try:
        t.apply_action(a)
        if t.is_terminal():
            return float(t.returns()[seat])
        v = t._evaluating(value, seat)
    except (IllegalAction, GameError):
        # A masked copy is not always a state the rules allow (a hidden card may sit where it could not): an
        # action that fails there is valued like no other.
        return -math.inf
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) else -math.inf
