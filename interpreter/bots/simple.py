"""The simplest players: a uniform random choice, and the lowest-numbered legal action."""

from __future__ import annotations

import random
from typing import Any


class RandomBot:
    """A uniform choice among the legal actions."""

    name = "random"

    def __init__(self, rng: random.Random, **_: Any) -> None:
        self.rng = rng

    def choose(self, view: Any) -> int:
        la = view.legal_actions()
        return int(la[self.rng.randrange(len(la))])


class FirstBot:
    """Always the lowest-numbered legal action: deterministic, handy for demos."""

    name = "first"

    def __init__(self, rng: random.Random, **_: Any) -> None:
        self.rng = rng

    def choose(self, view: Any) -> int:
        return int(view.legal_actions()[0])
