"""Seeds: a seeded state's chance stream, and the wide seeds that nobody can search.

A seeded state draws each shuffle and pick from `random.Random(s.rng)` and then replaces `s.rng` with a
number drawn from that generator (chance.py). Python's Random takes every bit of an int seed, but the number
passed on was 64 bits: a seat that saw two deals could search 2^64 chains instead of the seed's own bits.

A *wide* seed is 2^128 or more (`fresh()` gives 2^128 plus 128 bits from the OS): its stream passes on 128
bits each time, kept wide, so every shuffle and pick draws from 128 unguessable bits. Every narrower seed
(all seeds ever given by a person or recorded: the command line and the lobby take up to 2^63 - 1) chains
64 bits as before, so a seed deals exactly the matches it always dealt.
"""

from __future__ import annotations

import hashlib
import random
import secrets

WIDE = 1 << 128  # a seed at or above this is wide


def fresh() -> int:
    """A wide seed from the OS: 128 random bits (a 39-digit number)."""
    return WIDE | secrets.randbits(128)


def passed_on(r: random.Random, seed: int) -> int:
    """The seed of the next draw, drawn from `r`, the generator of the draw made from `seed`."""
    if seed >= WIDE:
        return WIDE | r.getrandbits(128)
    return r.getrandbits(64)


def derived(seed: int, tag: str, n: int) -> int:
    """A wide seed for `tag` and `n` (a bot's seat), from a wide seed: one-way (SHA-256), so nothing drawn
    from it (a random bot's moves) tells anything about `seed`."""
    h = hashlib.sha256(f"cardsmith {tag} {n} {seed}".encode()).digest()
    return WIDE | int.from_bytes(h[:16], "big")
