"""Carrying a state forward: a state found for a player earlier in the match, extended to what the player
knows now.

A search bot draws its worlds at every decision. Where the player's information holds many small facts
(in a fishing game, every ask tells that the asker held the rank), a fresh search must satisfy all of them at once
and costs thousands of replayed steps late in a match; yet the worlds the bot drew at its last decision
already satisfy all but the few steps since. `carry` starts the search from such a world (the hint): its
history is replayed step by step while it fits what the player knows now, and the search goes on from
where it stops fitting, with the usual repairs, which may still exchange cards anywhere in the history.

Nothing of the real history is read here either: the hint is a state the resampler found from the same
player's information (a search bot holds no other), checked step by step against what the player knows
now. A hint from another match, or one that no longer fits, fits no step or few; the search then gives up
within its small budget (`CARRY_WORK`), and the caller tries another hint or draws a fresh state.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .search import Search

if TYPE_CHECKING:
    from ..state import State
    from .info import Info

# Steps replayed by one carried search after the hint's own replay. Where a hint does not extend at once,
# another one likely will: in a two-player fishing game, 72% of hints were extended within 500 steps and 77%
# within 2,000, so the bot tries more hints rather than spend more on one. And backtracking alone, not the
# descent (`Descent`), which found 68% and 87% at four times the steps.
CARRY_WORK = 500
MAX_SEED = 1_000_000  # (the hint's replay is bounded by the length of the history)


def carry(info: Info, p: int, rng: random.Random, hint: State) -> tuple[State | None, int]:
    """A state the player cannot tell from the real one, found by extending `hint` (None if the search gave
    up within CARRY_WORK), and the steps replayed."""
    search = Search(info, p, rng, MAX_SEED)
    whole = search.seed(hint)
    search.budget = search.work + CARRY_WORK
    if whole is not None:
        return whole, search.work
    if not search.frames:  # not even the start of the match fits: a hint from another match
        return None, search.work
    return search.run(), search.work
