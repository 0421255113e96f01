"""Strategies written in the rule file (`strategies:`): playing styles as data, played by a bot of their name.

A strategy is a list of rules tried in order. A rule takes the legal actions it names (all of them if it
names none), keeps those for which its `when` holds, and if any are left, plays the best of them by its
`max` or `min` expression, or any of them; ties and choices are drawn from the bot's seed. If no rule has an
action, the bot chooses at random. `docs/language.md` ("Strategies") describes the section.

The expressions are read on a masked copy of the state (`engine/masked.py`): what the seat sees as it is,
the cards it cannot see dealt out again at random among the places it cannot see, the variables it cannot
see at their initial values. So a strategy that reads another player's hand reads random cards: a rule file
cannot write a bot that peeks.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..dsl import abi
from ..dsl.strategy_checks import rule_actions

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.state import State
    from .view import SeatView


@dataclass
class _Rule:
    actions: frozenset[int] | None  # action indexes, None: every action
    when: dict[int, Any]  # action index -> when(s, *params)
    best: dict[int, Any]  # action index -> the ranking value's function
    lowest: bool  # `min` (else `max`)


class StrategyBot:
    def __init__(self, rng: random.Random, *, game: Game, seat: int, strategy: str) -> None:
        self.rng = rng
        self.game = game
        self.seat = seat
        self.name = strategy
        spec = next(s for s in game.spec.strategies if s.name == strategy)
        index = {a.name: i for i, a in enumerate(game.spec.actions)}
        ns = game.ns
        self.rules: list[_Rule] = []
        for i, r in enumerate(spec.rules):
            acts = rule_actions(r, game.spec.actions)
            when = {index[a.name]: ns[abi.strategy_when(strategy, i, a.name)] for a in acts} if r.when else {}
            best = {index[a.name]: ns[abi.strategy_best(strategy, i, a.name)] for a in acts} if r.best else {}
            self.rules.append(_Rule(frozenset(index[a.name] for a in acts) if r.actions else None, when, best,
                                    r.best is not None and r.best[0] == "min"))

    def choose(self, view: SeatView) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        m = view.masked(self.rng)
        a = m.evaluating_as(self.seat, self.decide, legal)
        return int(a)

    def decide(self, m: State, legal: list[int]) -> int:
        """The strategy's choice among `legal` for the state's actor, reading `m` (a masked copy, or a rollout's
        world)."""
        codec = self.game.codec
        decoded = [(a, *codec.decode(a)) for a in legal]
        rng = self.rng
        for rule in self.rules:
            found = [(a, info.index, values) for a, info, values in decoded
                     if rule.actions is None or info.index in rule.actions]
            if rule.when:
                found = [(a, i, values) for a, i, values in found if rule.when[i](m, *values)]
            if not found:
                continue
            if rule.best:
                scored = [(rule.best[i](m, *values), a) for a, i, values in found]
                top = min(v for v, _ in scored) if rule.lowest else max(v for v, _ in scored)
                choices = [a for v, a in scored if v == top]
            else:
                choices = [a for a, _, _ in found]
            return choices[rng.randrange(len(choices))]
        return legal[rng.randrange(len(legal))]
