"""Rollout policies for `ismcts`: how an iteration plays the match out past the tree.

A rollout plays in the world the iteration searches: a determinization the bot drew from its own seat's
information (`SeatView.resample`), never the real state. Every seat in it plays that world as it lies, as
OpenSpiel's rollout evaluators do, so a policy that reads another seat's cards reads cards the bot itself
dealt. Nothing there is hidden from the bot that the real state hides.

- `random`: a uniform choice, the classic: cheap, and blind to what a move is worth.
- `first`: the lowest-numbered legal action (deterministic, for tests and demos).
- `greedy`: one step of lookahead for the seat to act, valued as the `greedy` bot values it (`by`).
- a strategy of the rule file (`strategies:`): the seat to act plays that style.

Each policy returns the action and the steps it played to choose it (a greedy choice plays every legal action
once), which the bot counts as search work when it weighs drawing another world.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from .errors import BadBotSpec
from .greedy import value_after, value_of
from .strategy import StrategyBot

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.state import State

Policy = Callable[["State", list[int]], tuple[int, int]]
ROLLOUTS = ("random", "first", "greedy")


def rollout_names(game: Game) -> list[str]:
    """What `rollout=` may name for this game: the built-in policies and the rule file's strategies."""
    return [*ROLLOUTS, *(s.name for s in game.spec.strategies)]


def policy(name: str, game: Game, rng: random.Random, by: str = "") -> Policy:
    """The rollout policy `name` (checked against `rollout_names`), drawing its choices from `rng`."""
    if by and name != "greedy":
        raise BadBotSpec(f"ismcts: by is for rollout=greedy (what the greedy rollout maximises), not rollout={name}")
    if name == "random":
        return lambda s, legal: (legal[rng.randrange(len(legal))], 0)
    if name == "first":
        return lambda s, legal: (legal[0], 0)
    if name == "greedy":
        return _greedy(value_of(game, by, "ismcts"), rng)
    if name in (s.name for s in game.spec.strategies):
        return _strategy(StrategyBot(rng, game=game, seat=0, strategy=name))
    names = rollout_names(game)
    raise BadBotSpec(f"ismcts: rollout must be one of {', '.join(names)}, not '{name}'")


def _greedy(value: Callable[..., float], rng: random.Random) -> Policy:
    def choose(s: State, legal: list[int]) -> tuple[int, int]:
        if len(legal) == 1:
            return legal[0], 0
        who = s.current_player()
        best, top = -math.inf, []
        for a in legal:
            v = value_after(s, a, value, who)
            if v > best:
                best, top = v, [a]
            elif v == best:
                top.append(a)
        return top[rng.randrange(len(top))], len(legal)
    return choose


def _strategy(bot: StrategyBot) -> Policy:
    def choose(s: State, legal: list[int]) -> tuple[int, int]:
        if len(legal) == 1:
            return legal[0], 0
        # the seat to act is the `player` the strategy's expressions read, as in StrategyBot
        return s.evaluating_as(s.cur, bot.decide, legal), 1
    return choose
