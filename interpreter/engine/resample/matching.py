"""Cards to places under per-card facts: a random assignment that always finds one when one exists.

Each card has a domain, the places it may take (positions of a shuffle); each place takes one card. A
consistent deal is a perfect matching of the bipartite graph card-place. `assign` takes the cards in
random order, each to a random free place of its domain; where none is free, an augmenting path moves
cards placed before it, each within its own domain, to make room (the check that the cards
so far can all be placed). No path means no deal fits the facts (Hall's condition fails): `NoDeal` names
the card that had nowhere to go. The deals drawn are consistent and random, not uniform over all
consistent deals.
"""

from __future__ import annotations

import random


class NoDeal(Exception):
    """No deal fits the facts: `card` had nowhere to go (its domain, or every place it could take, held by
    cards whose own domains leave them no other)."""

    def __init__(self, card: int):
        super().__init__(card)
        self.card = card


def _augment(c: int, dom: dict[int, list[int]], owner: dict[int, int], seen: set[int],
             banned: set[int]) -> bool:
    """Give card c a place by an augmenting path (places in `banned` are not taken or moved)."""
    stack: list[tuple[int, int]] = [(c, 0)]  # (card, next index in its domain): an iterative DFS
    path: list[tuple[int, int]] = []  # (card, place) taken on the way down
    while stack:
        card, k = stack[-1]
        places = dom[card]
        if k >= len(places):
            stack.pop()
            if path:
                path.pop()
            continue
        stack[-1] = (card, k + 1)
        q = places[k]
        if q in seen or q in banned:
            continue
        seen.add(q)
        other = owner.get(q)
        path.append((card, q))
        if other is None:
            for x, y in path:
                owner[y] = x
            return True
        stack.append((other, 0))
    return False


def assign(domains: dict[int, set[int]], rng: random.Random, keep: dict[int, int] | None = None) -> dict[int, int]:
    """A random place for each card (card -> place), each from its domain and no two the same; NoDeal if
    there is none. With `keep` (card -> place), a card whose place there is in its domain and free takes
    it: a deal mended under new facts changes what they ask and, where it can, little else."""
    dom = {c: sorted(d) for c, d in domains.items()}  # (augmenting paths need no random order)
    order = list(dom)
    rng.shuffle(order)
    owner: dict[int, int] = {}  # place -> card
    for c in order:
        k = keep.get(c) if keep is not None else None
        if k is not None and k in domains[c] and k not in owner:
            owner[k] = c
            continue
        free = [q for q in dom[c] if q not in owner]
        if free:
            owner[free[rng.randrange(len(free))]] = c
        elif not _augment(c, dom, owner, set(), set()):
            raise NoDeal(c)
    return {c: q for q, c in owner.items()}
