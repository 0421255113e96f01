"""Players that need no human: a uniform random bot and a first-legal-action bot."""

from __future__ import annotations

import random
from typing import Any, Protocol


class Bot(Protocol):
    def choose(self, state: Any) -> int: ...


class RandomBot:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, state: Any) -> int:
        la = state.legal_actions()
        return la[self.rng.randrange(len(la))]


class FirstBot:
    """Always the lowest-numbered legal action: deterministic, handy for demos."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, state: Any) -> int:
        return int(state.legal_actions()[0])


BOTS: dict[str, Any] = {"random": RandomBot, "first": FirstBot}
