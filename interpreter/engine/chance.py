"""Chance: shuffles and `pick` are the only random events.

A state made with a seed resolves them itself (fast, reproducible), and notes what they drew in its history
(`SHUFFLED`: the zone's new order, `PICKED`: the index), so that its chance can be replayed as explicit
outcomes (interpreter/engine/resample). A state made without one stops at chance nodes, OpenSpiel style,
each outcome equally likely, in one of two ways:

* **Lazily** (`s.unfixed` is a dict: a state of `new_initial_state()` without a seed or a setup). A shuffle
  decides nothing: it marks the zone's cards as in no order yet (`unfixed[zone] = k`: the bottom k
  positions). A chance node comes when a card of such a zone is first needed: dealt or moved from its top,
  or its order read by a rule (`_fz`), or the zone seen by a player. Its outcomes are the cards not yet
  fixed; the card chosen takes the top unfixed position. So a match has one chance node per card that
  matters, as OpenSpiel deals. A pick is a chance node whose outcomes are the positions in its list.
* **Eagerly** (`s.unfixed` is None: replays of explicit histories, the resampler's searches, deals set up
  with fixed cards). A shuffle is a chance node per position, from the top down, the last one forced.

A lazy step cannot stop half-way and go on later, so it runs in rounds (`Draws`, state.py `_run`): it runs
to its end, taking each card it needs and has not been given in the zone's present order (a guess); the
cards it guessed are the next chance nodes; once they are given, it runs again from the state before it
with them. A pick it meets ends the guesses there (its outcomes are known only when the cards before it
are). Given outcomes are per zone: the n-th outcome of a zone is the card at its n-th position fixed from
the top, whether or not the step then takes it. A replayed history may give outcomes that are not
possible: those raise IllegalAction.
"""

from __future__ import annotations

import random
from typing import Any

from ..dsl.library import RuleRuntimeError
from .bounds import outcomes_exceeded
from .budget import charge
from .errors import BoundExceeded, IllegalAction
from .observation import NOBODY, RULE, _plan
from .seeds import passed_on
from .setup import force

# Tags of the history's entries (state.trail) for what a seeded state's chance drew; see history.py.
SHUFFLED = -10
PICKED = -11
# The key of picks among a lazy step's given outcomes (the others are zone numbers).
PICK = -1


class NeedChance(Exception):
    """Raised inside a step when the next chance outcome has not been given yet.

    `kind` says what the outcomes are: card ids for a shuffle, positions in the list for a pick."""

    def __init__(self, options: list[int], kind: str = "card", values: list[Any] | None = None):
        self.options = options
        self.kind = kind
        self.values = values  # a pick's: the items of its list, which the positions stand for


class Pending:
    """A state at a chance node: the state before the step (`base`) and its action (None: the start of the
    match), the outcomes possible now and what they are ("card" or "index"), and the outcomes the step has
    been given so far (`given`: a list in eager mode; in lazy mode (key, outcome) pairs, the key a zone or
    PICK). A lazy step also keeps the nodes its last run guessed (`guessed`: (key, options, the card
    guessed or a pick's items), options None for the next card of the same zone with nothing else changed),
    the one asked now (`at`), and how many of `given` that run had (`start`).
    `values`: a pick's items, which its outcomes (positions) stand for. Shared by clones: never changed, a
    new one is made for the next node."""

    __slots__ = ("base", "action", "options", "kind", "given", "guessed", "at", "start", "values")

    def __init__(self, base: Any, action: int | None, options: list[int], kind: str, given: Any,
                 guessed: list[tuple[int, list[int] | None, Any]] | None = None, at: int = 0, start: int = 0,
                 values: list[Any] | None = None):
        self.base = base
        self.action = action
        self.options = options
        self.kind = kind
        self.given = given
        self.guessed = guessed
        self.at = at
        self.start = start
        self.values = values

    def copy(self) -> Pending:
        """A copy for a clone: a state changes its own from one node of a step to the next (state.py)."""
        return Pending(self.base, self.action, self.options[:], self.kind, self.given[:], self.guessed, self.at,
                       self.start, self.values)


def guessed_node(base: Any, action: int | None, given: list[tuple[int, int]],
                 guessed: list[tuple[int, list[int] | None, Any]], at: int, start: int) -> Pending:
    """The chance node of the `at`-th guess of a lazy run that had `start` of the outcomes `given`: its
    outcomes are the cards the run found there, with the cards it guessed before in the same zone put back
    and the ones given since taken out. (The next card of the same zone with nothing else changed, whose
    options the guess left out, is the node before it but the outcome given there: State._chance.)"""
    key, options, items = guessed[at]
    if key == PICK:
        return Pending(base, action, options or [], "index", given, guessed, at, start, items)
    assert options is not None
    took = {g for k, _, g in guessed[:at] if k == key}
    real = {c for k, c in given[start:] if k == key}
    return Pending(base, action, sorted((set(options) | took) - real), "card", given, guessed, at, start)


class Draws:
    """The chance of one run of a lazy step: the outcomes given so far, per zone (PICK: the picks), how many
    of each the run has used, and the nodes it guessed it needs beyond them, as (zone or PICK, options)."""

    __slots__ = ("given", "used", "guessed", "picks_open", "last_k")

    def __init__(self, given: dict[int, list[int]]) -> None:
        self.given = given
        self.used: dict[int, int] = {}
        self.guessed: list[tuple[int, list[int] | None, Any]] = []
        self.picks_open = True  # no card guessed yet: a pick met now is the next chance node
        self.last_k = 0  # the size of the undecided block of the last guess

    def take(self, key: int) -> int | None:
        """The next given outcome of `key`, or None."""
        xs = self.given.get(key)
        if xs is None:
            return None
        i = self.used.get(key, 0)
        if i >= len(xs):
            return None
        self.used[key] = i + 1
        return xs[i]

    def leftover(self) -> list[tuple[int, int]]:
        """The given card outcomes the run did not use, zone by zone in order."""
        return [(zi, c) for zi, xs in self.given.items() if zi != PICK for c in xs[self.used.get(zi, 0):]]


def _rng(s: Any) -> random.Random:
    """The generator of a seeded state's next draw, seeded from the state's seed, which the draw replaces.
    Seeding is most of its cost (a Mersenne Twister's whole state), and a generator kept to be reseeded
    saves nothing and could be shared between threads."""
    return random.Random(s.rng)


def pick(s: Any, options: Any) -> Any:
    n = len(options)
    if n == 0:
        raise RuleRuntimeError("'pick' from an empty list")
    bound = s.game.declared.outcomes
    if bound is not None and n > bound:
        raise BoundExceeded(outcomes_exceeded(s.game, n))
    if s.rng is not None:
        r = _rng(s)
        i = r.randrange(n)
        s.rng = passed_on(r, s.rng)
        s.trail = (s.trail, PICKED, i)
        return options[i]
    d = s.draws
    if d is not None:
        i = d.take(PICK)
        if i is None:
            if d.picks_open:
                d.guessed.append((PICK, list(range(n)), list(options)))
            raise NeedChance(list(range(n)), "index", list(options))
        if type(i) is not int or not 0 <= i < n:
            raise IllegalAction(f"chance outcome {i!r} is not possible here (a pick from {n} values)")
        return options[i]
    q = s.chance_queue
    if s.chance_pos >= len(q):
        raise NeedChance(list(range(n)), "index", list(options))
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
    if s.unfixed is not None:
        # Lazily: nothing is decided until a card is needed.
        if len(zone) > 1:
            s.unfixed = {**s.unfixed, zi: len(zone)}
        elif zi in s.unfixed:
            s.unfixed = {k: v for k, v in s.unfixed.items() if k != zi}
        return
    # A deal set up with fixed cards (engine/setup.py): positions that must hold a given card.
    stack = s.stack
    forced = stack.forced() if stack is not None else None
    if s.rng is not None:
        # Sorting by independent uniform keys gives a uniform permutation, and
        # costs half of random.shuffle's per-card Python loop.
        r = _rng(s)
        rr = r.random
        keys = {c: rr() for c in zone}
        zone.sort(key=keys.__getitem__)
        s.rng = passed_on(r, s.rng)
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


# ---------------------------------------------------------------- lazy dealing


def fix_top(s: Any, zi: int) -> None:
    """Decide the card at the top undecided position of zone `zi` (which has an undecided block of two cards
    or more): `fix_upto` for one card, written out, since dealing a card at a time calls it for each."""
    k = s.unfixed[zi]
    zone = s.z[zi]
    d = s.draws
    assert d is not None, "an undecided zone is dealt from only during a step"
    given = d.given.get(zi)
    i = d.used.get(zi, 0)
    if given is None or i >= len(given):
        g = d.guessed
        c = zone[k - 1]
        follows = bool(g) and g[-1][0] == zi and d.last_k == k + 1
        g.append((zi, None if follows else zone[:k], c))
        d.last_k = k
        d.picks_open = False
    else:
        c = given[i]
        d.used[zi] = i + 1
        j = _index(zone, c, k)
        if j < 0:  # passed over (see fix_upto): the general way
            d.used[zi] = i
            fix_upto(s, zi, len(zone) - k + 1)
            return
        zone[k - 1], zone[j] = zone[j], zone[k - 1]
    shrink(s, zi, k - 1)


def fix_upto(s: Any, zi: int, n: int) -> None:
    """Decide the top n cards of zone zi, from the top down: each the zone's next given outcome, else a guess,
    the card there now (an outcome that is not among its undecided cards now, when a step whose draws depend
    on the cards it drew went otherwise than the run that asked for it, is passed over)."""
    k = s.unfixed.get(zi)
    zone = s.z[zi]
    low = max(len(zone) - n, 1)  # the lowest position to decide (a last card alone is in order)
    if k is None or low >= k:
        return
    d = s.draws
    assert d is not None, "an undecided zone is dealt from only during a step"
    given = d.given.get(zi, ())
    i = d.used.get(zi, 0)
    guessed = d.guessed
    while k > low:
        j = -1
        while j < 0 and i < len(given):
            c = given[i]
            i += 1
            j = _index(zone, c, k)
        if j < 0:
            c = zone[k - 1]
            j = k - 1
            # The zone's next card with only the last guess gone since: its options follow from that node's.
            follows = bool(guessed) and guessed[-1][0] == zi and d.last_k == k + 1
            guessed.append((zi, None if follows else zone[:k], c))
            d.last_k = k
            d.picks_open = False
        zone[k - 1], zone[j] = zone[j], zone[k - 1]
        k -= 1
    d.used[zi] = i
    shrink(s, zi, k)


def _index(zone: list[int], c: Any, k: int) -> int:
    try:
        return zone.index(c, 0, k)
    except (ValueError, TypeError):
        return -1


def shrink(s: Any, zi: int, k: int) -> None:
    """The unfixed block of zone zi is now its bottom k cards (none left for k < 2: one card is in order)."""
    if k >= 2:
        s.unfixed = {**s.unfixed, zi: k}
    else:
        s.unfixed = {z: v for z, v in s.unfixed.items() if z != zi}


def fix_all(s: Any, zi: int) -> None:
    """Decide the whole order of zone zi, top down."""
    fix_upto(s, zi, len(s.z[zi]))


def apply_leftover(s: Any, leftover: list[tuple[int, int]]) -> None:
    """Outcomes given for a zone that the run did not take: each fixes the zone's next position, if the card
    is still among its unfixed ones (a step whose draws depend on the cards it draws may take fewer)."""
    for zi, c in leftover:
        k = s.unfixed.get(zi)
        if k is None:
            continue
        zone = s.z[zi]
        j = _index(zone, c, k)
        if j >= 0:
            zone[k - 1], zone[j] = zone[j], zone[k - 1]
            shrink(s, zi, k - 1)


def fix_seen(s: Any) -> None:
    """At the end of a lazy step: decide the zones a player may see now or a query may read the order of
    (`game.queried_zones`), so that no observation or query ever meets an undecided order."""
    g = s.game
    zplan = _plan(g)[0]
    for zi in list(s.unfixed):
        if zi in s.unfixed and (zi in g.queried_zones or _seen(s, zplan[zi])):
            fix_all(s, zi)


def _seen(s: Any, plan: tuple[str, int, int | None, Any]) -> bool:
    _, how, owner, rule = plan
    if how == NOBODY:
        return False
    if how == RULE:
        return bool(rule(s, owner))
    return True  # everyone, or its owner


def before_bottom(s: Any, zi: int) -> None:
    """Cards are about to go under zone zi: its unfixed block, which must stay at the bottom, is decided."""
    if zi in s.unfixed:
        fix_all(s, zi)
