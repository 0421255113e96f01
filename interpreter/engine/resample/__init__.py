"""Resampling: a full state one player cannot tell from the real one, for search with hidden information.

The method, for any rule file (docs/architecture.md, "Resampling from an information state"):

1. Replay the state's history once to learn what the player knows, and only that: who acted at each step,
   the action as the player saw it (its own and the public ones in full, a `secret:` one by its public
   text), and the player's observation after each step. Nothing else of the real history is kept: not its
   chance outcomes, not where any card was, not the hidden part of a secret action.
2. Build a history step by step from that alone. Each step's chance is drawn afresh (a seed from the
   random numbers run on the step), a secret action is any legal action with the same public text. A step
   is kept if its action is legal and the player's observation after it is the one the player had.
3. Repair what fails before giving up on it. A card the player must see at a place (its observation) or
   that a public action uses is swapped, in the shuffle it last went through, with a card the player has
   not seen since that shuffle: the card at the place, or one whose place makes the action legal. The
   history from that shuffle on is replayed and checked again. An action refused because other cards
   force another choice (a suit to follow) gets those cards exchanged away, one at a time (`Descent`); one
   that names no card (a rank asked for) gets a card of the acting player exchanged for one elsewhere.
4. What no swap mends (who leads, a lost life, a deal a hand ended at once) is a descent (`Descent`):
   cards the player has not seen are exchanged, within one shuffle of the history (mostly those whose cards
   are still in play): two, three in a cycle, or all the unseen cards of two places at once; half the time
   a card the step is about (moved by it, seen differently after it, held by a player it names) with
   another. Exchanges are first tried on a copy of the state before the step, which costs a step where
   the replay from the shuffle costs the steps between: a count that differs (cards handed over, who acts
   next) is mended by the first exchange of a card the step is about after which the step fits and still
   fits after the replay (`_shift`), and each random exchange is the best of a few so tried. An exchange
   is kept if the steps before still fit and the step comes no further from what the
   player saw (`_gap`), and now and then (`NOISE`) even if it comes further, so that a near miss does not
   hold the descent. It runs each time the step fails and once more before the step is given up. Past
   that, a depth-first search: the step's next choice, then the steps before it; and past a share of the
   budget, a fresh search (`RESTARTS`). Searches take turns with and without the forced-choice repair and
   the descent, the descent first; a way whose last search got less than half as far as the other's cedes
   its turn (`schedule`).

The constraint layer runs first (`constraints`, with `matching`): the same steps, but a card the player
saw, a card a public action used and a card another seat's public action rules out are kept as per-card
facts on the positions of a shuffle, and a repair deals the shuffle again under every fact so far (a
random deal that is found whenever one exists). The searches above go on from the history it built if it
gives up within its budget (`DEALS`): they are for what per-card facts cannot say (counts, scores,
another seat's secret choice).

Modules: `info` (step 1), `search` (steps 2 and 3, and the backtracking), `descent` (step 4),
`constraints` and `matching` (the constraint layer); this one runs the searches. `carry` extends a
state found earlier in the match to what the player knows now, for a search bot whose fresh states are
dear.

The result depends on the player's information state and the random numbers only, since nothing else of
the real history is read; so a search bot built on it cannot cheat. Tries and replayed steps are bounded;
past the bounds a GameError says so, and the real state is never returned. The states found are
consistent, not drawn exactly from the posterior: the search keeps the first consistent history.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

from ..errors import GameError
from ..history import mark
from .carry import carry
from .constraints import Deals
from .descent import Descent
from .info import Info
from .search import Search

if TYPE_CHECKING:
    from ..state import State

# The bounds of one resample, in replayed steps (a measure that does not depend on the machine). MAX_WORK is
# what a failure may cost: 30-45 s on a 2-core machine. Three times the 400,000 steps it was, in shares of
# the same size: a fishing game's hardest states are found in the second or third 400,000 (CHANGELOG), and
# every other state as before, at the same cost; a bot with a wall-clock cap stops sooner (`until`).
# MAX_TRIES only keeps the loop finite.
MAX_TRIES = 10_000
MAX_WORK = 1_200_000  # steps replayed over all tries
# A search gets at most MAX_WORK // RESTARTS before a fresh one starts (why: `schedule`), and less for a short
# history: PER_STEP replayed steps per step of the history, at least MAX_WORK // MORE_RESTARTS. The searches
# that find a hard state do so early in their share or not at all, and how early grows with the history, whose
# every replayed exchange costs the steps between a shuffle and the step (docs/design/resampling.md, 6).
RESTARTS = 24
MORE_RESTARTS = 39
PER_STEP = 560
SCOUT = 6_000  # steps of a first, scouting search of each kind (0: none; why: `schedule`)
# Steps of the constraint layer's search before the others. It finds most states of most games in a few
# hundred steps; where it does not, the facts it cannot express (counts, scores) are what is missing, and
# the other searches, which go on from its history, are the better use of the rest.
DEALS = 6_000


def share(steps: int | None) -> int:
    """The work of one search after the scouts, for a history of `steps` steps (None: the longest share)."""
    whole = MAX_WORK // RESTARTS
    return whole if steps is None else max(MAX_WORK // MORE_RESTARTS, min(whole, PER_STEP * steps))


def schedule(k: int, reached: dict[type[Search], int] | None = None,
             steps: int | None = None) -> tuple[type[Search], int]:
    """The k-th search: its kind and its share of the work.

    Restarts: a search that went wrong early rarely recovers, and a fresh one often finds a state fast. They
    take turns at two ways: with the descent, for states that almost no deal fits as drawn (and it costs
    little where one does: it runs only when a step fails), and backtracking alone, which finds some states
    the descent strays from. Each way first scouts with a small share (`SCOUT`), the descent first, then
    they take turns with whole shares. Most states of most games are found by the first scout; a trick game
    whose descent strays is found by the backtracking scout instead of after a whole failed
    share of the descent (5x less time over 40 such states, the others unchanged, measured alternately), and
    a state only a long descent finds still gets whole shares after the scouts."""
    if SCOUT:
        if k < 2:
            return (Descent, Search)[k], SCOUT
        k -= 2
    kind: type[Search] = Search if k % 2 else Descent
    if reached and len(reached) == 2:
        # A way whose last search got less than half as far through the history as the other's last one
        # cedes its share: in a fishing game, where every step holds a count the backtracking alone cannot
        # mend, it fits a few steps where the descent fits most of them, and half the work went to it.
        other = Descent if kind is Search else Search
        if 2 * reached[kind] < reached[other]:
            kind = other
    return kind, share(steps)


def resample(s: State, p: Any, rng: Any) -> State:
    return resample_with_work(s, p, rng)[0]


class OutOfTime(GameError):
    """The resampler stopped at its caller's deadline (`until`) before it found a state: not a state the
    player's information rules out, but a search cut short."""


def resample_with_work(s: State, p: Any, rng: Any, until: float | None = None) -> tuple[State, int]:
    """The resampled state and the steps replayed to find it (a search bot weighs that against its
    playouts to decide how many states to draw, in a measure that does not depend on the machine).

    `until`: a `time.monotonic()` deadline, for a caller that must answer in time (a bot at the web table);
    past it no new search starts and OutOfTime is raised. One search's share is the most it runs over (about
    2 s on a 2-core machine). None, the default, leaves the result a function of the seed alone."""
    info, r = _start(s, p, rng)
    # The constraint layer first (constraints.py): most states are found by it; the history it built, as far
    # as it fits, seeds the first of the other searches.
    first = Deals(info, p, r, DEALS)
    found = first.run()
    work = first.work
    if found is not None and (state := _found(s, first, found, info, r)) is not None:
        return state, work
    reached: dict[type[Search], int] = {}
    for k in range(MAX_TRIES):
        if work >= MAX_WORK:
            break
        if until is not None and time.monotonic() >= until:
            raise OutOfTime(f"stopped at its time limit after {work:,} replayed steps, before it found a state "
                            f"{s.game.player_name(p)} cannot tell from this one")
        kind, budget = schedule(k, reached, len(info.views))
        search = kind(info, p, r, min(MAX_WORK - work, budget))
        if k == 0 and found is None:
            search.frames = first.frames
        found = search.run()
        work += search.work
        reached[kind] = search.reached
        if found is not None and (state := _found(s, search, found, info, r)) is not None:
            return state, work
    raise GameError(not_found(s.game, p, work, first.stuck))


def not_found(g: Any, p: int, work: int, card: int | None) -> str:
    """Why a resample failed: the work it did and, where the constraint layer knows it, the card with no place."""
    return (f"found no state {g.player_name(p)} cannot tell from this one in {work:,} replayed steps; its "
            "information rules out almost every arrangement of the cards it has not seen" + stuck_note(g, p, card))


def stuck_note(g: Any, p: int, card: int | None) -> str:
    """What the constraint layer can say of a failure: the card its last failed deal had no place for."""
    if card is None:
        return ""
    return f" (the last deal tried had no place for the {g.card_names[card]} that fits what {g.player_name(p)} saw)"


def _found(s: State, search: Search, found: State, info: Info, r: random.Random) -> State | None:
    if info.lazy_tail:
        # At a chance node of a state that deals lazily: the step taken again, lazily (Search).
        if search.lazy_found is not None or search.taken_lazily(search.last):
            assert search.lazy_found is not None
            return search.lazy_found
        return None
    return _finish(s, found, r)


def carry_with_work(s: State, p: Any, rng: Any, hint: State) -> tuple[State | None, int]:
    """A state found as `resample_with_work` finds one, but by extending `hint`, a state the resampler found
    for the same player earlier in the match (carry.py); None if that fails within a small budget, and the
    steps replayed either way."""
    info, r = _start(s, p, rng)
    if hint.game is not s.game or info.lazy_tail:
        return None, 0
    found, work = carry(info, p, r, hint)
    return (None if found is None else _finish(s, found, r)), work


def _start(s: State, p: Any, rng: Any) -> tuple[Info, random.Random]:
    """What player p knows of s (step 1), and the random numbers; a GameError for what cannot be resampled."""
    g = s.game
    if s.setup is not None:
        # Resampling redraws hidden cards as chance outcomes of the history; a setup fixed some of them
        # outside it (and may have set variables and moved cards after the deal's steps).
        raise GameError("resample_from_infostate() is not available for a state set up with fixed cards "
                        "(Setup); start from game.new_initial_state() without a setup")
    if type(p) is not int or not 0 <= p < g.n:
        raise GameError(f"no player {p!r}: the seats are 0 to {g.n - 1}")
    if isinstance(rng, random.Random):
        r = rng
    elif type(rng) is int:
        r = random.Random(rng)
    else:
        raise GameError(f"resampling takes a random.Random or a whole number as its seed, not {type(rng).__name__}")
    return s._evaluating(Info, p), r


def _finish(s: State, found: State, r: random.Random) -> State:
    if s.rng is not None:
        # The real state's seed holds its future shuffles: the new state draws its own.
        seed = r.getrandbits(64)
        found.reseed(seed)
    elif s.unfixed is not None and found.unfixed is None:
        # The real state deals lazily (chance.py): so does the new one, from the same blocks, whose cards'
        # order, drawn by the search, it forgets (nobody saw it).
        mark(found, tuple(sorted(s.unfixed.items())))
    return found


__all__ = ["OutOfTime", "carry_with_work", "resample", "resample_with_work"]
