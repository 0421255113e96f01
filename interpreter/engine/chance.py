"""Chance: shuffles and `pick` are the only random events.

A state made with a seed resolves shuffles itself (fast, reproducible). A
state made without one stops at each shuffle as a chance node, OpenSpiel
style: `chance_outcomes()` lists the cards that can come next, one position
at a time, each equally likely.

A seeded state notes what its shuffles and picks drew in its history (`SHUFFLED`: the zone's new order,
`PICKED`: the index), so that its chance can be replayed as explicit outcomes (interpreter/engine/
resample.py). A replayed history may give outcomes that are not possible: those raise IllegalAction.
"""

from __future__ import annotations

import random
from typing import Any

from .budget import charge
from .errors import IllegalAction
from .setup import force

# Tags of the history's entries (state.trail) for what a seeded state's chance drew; see history.py.
SHUFFLED = -10
PICKED = -11


class NeedChance(Exception):
    """Raised inside a step when the next chance outcome has not been given yet.

    `kind` says what the outcomes are: card ids for a shuffle, positions in the
    list for a pick."""

    def __init__(self, options: list[int], kind: str = "card"):
        self.options = options
        self.kind = kind


def pick(s: Any, options: Any) -> Any:
    n = len(options)
    if n == 0:
        from ..dsl.library import RuleRuntimeError
        raise RuleRuntimeError("'pick' from an empty list")
    if s.rng is not None:
        r = random.Random(s.rng)
        i = r.randrange(n)
        s.rng = r.getrandbits(64)
        s.trail = (s.trail, PICKED, i)
        return options[i]
    q = s.chance_queue
    if s.chance_pos >= len(q):
        raise NeedChance(list(range(n)), "index")
    if s.trace is not None:
        s.trace.append(("pick", s.chance_pos, n))
    i = q[s.chance_pos]
    if type(i) is not int or not 0 <= i < n:
        raise IllegalAction(f"chance outcome {i!r} is not possible here (a pick from {n} values)")
    s.chance_pos += 1
    return options[i]


def shuffle(s: Any, zi: int) -> None:
    zone = s.z[zi]
    charge(s.game, len(zone))
    # A deal set up with fixed cards (engine/setup.py): positions that must hold a given card.
    stack = s.stack
    forced = stack.forced() if stack is not None else None
    if s.rng is not None:
        # Sorting by independent uniform keys gives a uniform permutation, and
        # costs half of random.shuffle's per-card Python loop.
        r = random.Random(s.rng)
        rr = r.random
        keys = {c: rr() for c in zone}
        zone.sort(key=keys.__getitem__)
        s.rng = r.getrandbits(64)
        if stack is not None:
            force(zone, forced or {})
            stack.seen.append(zone[:])
        s.trail = (s.trail, SHUFFLED, tuple(zone))
        return
    # Explicit chance: choose the card for each position from the top down. So the zone's new order is
    # the outcomes from the top, then the card left over, whatever its order before.
    q = s.chance_queue
    pinned = {c for p, c in forced.items() if p < len(zone) and c in zone} if forced else set()
    if s.trace is not None and len(zone) > 1:
        s.trace.append(("shuffle", s.chance_pos, tuple(zone)))
    for i in range(len(zone) - 1, 0, -1):
        if forced and i in forced and forced[i] in zone[: i + 1]:
            c = forced[i]  # no chance here: the setup fixed this card
            j = zone.index(c, 0, i + 1)
        else:
            if s.chance_pos >= len(q):
                raise NeedChance(sorted(c for c in zone[: i + 1] if c not in pinned))
            c = q[s.chance_pos]
            try:
                j = zone.index(c, 0, i + 1)
            except (ValueError, TypeError):
                raise IllegalAction(f"chance outcome {c!r} is not possible here (a card of the shuffled zone)") \
                    from None
            s.chance_pos += 1
        zone[i], zone[j] = zone[j], zone[i]
    if stack is not None:
        stack.seen.append(zone[:])
