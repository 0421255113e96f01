"""'Did you mean ...?' hints whose total cost per run is bounded.

Every unknown key or name gets a suggestion from `closest`. `difflib` compares the word with each
candidate at a cost that grows with both lengths, so a hostile file with tens of thousands of
unknown names among tens of thousands of declared ones would spend hours on hints. `closest` gives
the same answer as `difflib.get_close_matches(word, candidates, n=1)` for an ordinary file, and
bounds the work of one run (`new_run`, called once per compiled file):

- candidates that differ too much in length to reach the cutoff are skipped without comparing them
  (difflib drops them too, after a first look);
- names longer than `MAX_NAME` characters get no suggestion, and only the first `MAX_CANDIDATES`
  candidates are looked at;
- each comparison is charged `len(word) * len(candidate) + COMPARE` (difflib's cost, about half a
  microsecond a unit) and a run may spend `BUDGET`; a lookup that would overspend gets no suggestion
  (its diagnostic is unchanged otherwise: the allowed keys, or no hint).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from contextvars import ContextVar
from itertools import islice

MAX_NAME = 100  # characters in a word or candidate that is compared
MAX_CANDIDATES = 5_000  # candidates looked at for one word
BUDGET = 2_000_000  # comparison cost per run: about a second in the worst case
COMPARE = 30  # the fixed cost of comparing with one candidate
CUTOFF = 0.6  # difflib's default: how alike a suggestion must be


class _Run:
    __slots__ = ("left",)

    def __init__(self) -> None:
        self.left = BUDGET


_RUN: ContextVar[_Run | None] = ContextVar("suggestion_budget", default=None)


def new_run() -> None:
    """Start a fresh budget (once per rule file compiled)."""
    _RUN.set(_Run())


def _run() -> _Run:
    run = _RUN.get()
    if run is None:
        run = _Run()
        _RUN.set(run)
    return run


def closest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate most like `word` (as difflib judges), or None if none is close or the budget is spent."""
    run = _run()
    n = len(word)
    if n == 0 or n > MAX_NAME or run.left <= 0:
        return None
    near: set[str] = set()
    cost = 0
    for c in islice(candidates, MAX_CANDIDATES):
        cost += 1  # looking at it
        m = len(c)
        # difflib's real_quick_ratio: 2 * min / (n + m) is an upper bound of the similarity.
        if 0 < m <= MAX_NAME and 2.0 * min(n, m) / (n + m) >= CUTOFF and c not in near:
            near.add(c)
            cost += n * m + COMPARE
    run.left -= cost
    if run.left < 0 or not near:
        return None
    found = difflib.get_close_matches(word, near, n=1, cutoff=CUTOFF)
    return found[0] if found else None


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """'did you mean 'x'?' for the closest candidate, or None."""
    found = closest(word, candidates)
    return f"did you mean '{found}'?" if found is not None else None
