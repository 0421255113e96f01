"""A state as one seat may know it, with everything else arbitrary: for bots that read the state cheaply.

`masked(s, seat, rng)` copies `s` and then (1) deals the cards in places the seat cannot see (zones whose
`visible` rule leaves it out) out again among those places, in an order drawn from `rng` alone: the cards are
sorted first, so the real arrangement leaves no trace, and `played_by` of each reads as the seat itself;
(2) gives every variable the seat cannot see its initial value. What the seat sees is unchanged (and so is
`played_by` of the cards it sees, which no observation shows: it is what the seat saw happen, mostly).

Unlike `resample_from_infostate`, the copy need not be a state the history could have reached (a hidden
card may land in a hand that could not hold it): it costs a copy, not a search, and it is only for reading
(a strategy's conditions and rankings), never for playing on.

Two states the seat cannot tell apart by what it sees now give the same masked state for the same random
numbers (tests/test_strategies.py).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .observation import _var_viewers, _zone_viewers

if TYPE_CHECKING:
    from .state import State


def masked(s: State, seat: int, rng: random.Random) -> State:
    return s._evaluating(_masked, seat, rng)  # type: ignore[no-any-return]


def _masked(s: State, seat: int, rng: random.Random) -> State:
    g = s.game
    hidden_zones = [zi for zi in range(len(s.z)) if (v := _zone_viewers(s, zi)) is not None and seat not in v]
    hidden_vars = [vi for vi in range(len(s.v)) if (v := _var_viewers(s, vi)) is not None and seat not in v]
    # Nothing is to be drawn from it, and its history and log are not the seat's to read.
    t = s.reading_copy()
    places = [(zi, i) for zi in hidden_zones for i in range(len(t.z[zi]))]
    cards = sorted(t.z[zi][i] for zi, i in places)
    rng.shuffle(cards)
    for (zi, i), c in zip(places, cards):
        t.z[zi][i] = c
        t.loc[c] = zi
        t.by[c] = seat  # who last moved a card the seat cannot see (`played_by`) is not the seat's to know
    if hidden_vars:
        init = {i: (const, vo) for i, const, vo in g.var_init}
        for vi in hidden_vars:
            const, vo = init[vi]
            t.v[vi] = const if vo is None else g.initial_value(vo[0], t, vo[1])
    return t
