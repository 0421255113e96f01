"""Helpers the compiled rule code calls to change a state.

They keep three invariants cheap: every card sits in exactly one zone
(`s.loc[card]` says which), zones are ordered bottom to top, and `s.by[card]`
remembers who last moved the card.
"""

from __future__ import annotations

from typing import Any

from dsl.library import RuleRuntimeError, _short

from .chance import pick as _pick
from .chance import shuffle as _shuffle


def _move1(s: Any, c: int, dest: int, bottom: bool) -> None:
    z = s.z
    z[s.loc[c]].remove(c)
    if bottom:
        z[dest].insert(0, c)
    else:
        z[dest].append(c)
    s.loc[c] = dest
    s.by[c] = s.actor


def _move(s: Any, cards: Any, dest: int, bottom: bool) -> None:
    if type(cards) is int:
        _move1(s, cards, dest, bottom)
        return
    if not cards:
        return
    z, loc, by, actor = s.z, s.loc, s.by, s.actor
    src = loc[cards[0]]
    if cards is z[src] and src != dest:
        # Moving a whole zone: hand the list over instead of card by card.
        moved = cards
        z[src] = []
        for c in moved:
            loc[c] = dest
            by[c] = actor
        if bottom:
            z[dest] = moved + z[dest]
        else:
            z[dest].extend(moved)
        return
    if len(cards) == len(loc) and len(set(cards)) == len(loc):
        # Gathering the whole pack (the start of a deal): rebuild everything at once.
        kept = z[dest]
        rest = [c for c in cards if loc[c] != dest]
        for zi in range(len(z)):
            if z[zi]:
                z[zi] = []
        z[dest] = rest + kept if bottom else kept + rest
        s.loc = [dest] * len(loc)
        s.by = [actor] * len(loc)
        return
    if len(cards) < 6:
        # Putting cards at the bottom one by one would reverse them: go last to first.
        todo = list(dict.fromkeys(cards))
        for c in reversed(todo) if bottom else todo:
            _move1(s, c, dest, bottom)
        return
    # Many cards from anywhere (gathering the pack): rebuild each source once.
    moving = list(dict.fromkeys(cards))
    gone = set(moving)
    for zi in {loc[c] for c in moving}:
        z[zi] = [c for c in z[zi] if c not in gone]
    for c in moving:
        loc[c] = dest
        by[c] = actor
    if bottom:
        z[dest] = moving + z[dest]
    else:
        z[dest].extend(moving)


def _take_top(s: Any, src: int) -> int:
    pile = s.z[src]
    if not pile:
        raise RuleRuntimeError(f"cannot deal from zone '{s.game.zone_names[src]}': it is empty")
    return pile.pop()


def _deal(s: Any, n: int, src: int, dest: int) -> None:
    z, loc, by, actor = s.z, s.loc, s.by, s.actor
    for _ in range(n):
        c = _take_top(s, src)
        z[dest].append(c)
        loc[c] = dest
        by[c] = actor


def _deal_each(s: Any, n: int, src: int, base: int) -> None:
    """Deal n cards to every active player, one at a time, from the dealer's left."""
    order = []
    p = s.dealer
    for _ in range(s.game.n):
        p = _next_active(s, p)
        if p in order:
            break
        order.append(p)
    z, loc, by, actor = s.z, s.loc, s.by, s.actor
    k = len(order)
    pile = z[src]
    total = n * k
    if total <= 0:
        return
    if total > len(pile):
        raise RuleRuntimeError(f"cannot deal {n} cards to each of {k} players from zone "
                               f"'{s.game.zone_names[src]}': it holds {len(pile)}")
    # The cards in the order they come off the top, then every k-th to one player.
    popped = pile[len(pile) - total:][::-1]
    del pile[len(pile) - total:]
    for j, p in enumerate(order):
        got = popped[j::k]
        zi = base + p
        z[zi].extend(got)
        for c in got:
            loc[c] = zi
            by[c] = actor


def _next_active(s: Any, p: int) -> int:
    out = s.out
    n = len(out)
    for k in range(1, n + 1):
        q = (p + k) % n
        if not out[q]:
            return q
    return p


def _prev_active(s: Any, p: int) -> int:
    out = s.out
    n = len(out)
    for k in range(1, n + 1):
        q = (p - k) % n
        if not out[q]:
            return q
    return p


def _active(s: Any) -> list[int]:
    out = s.out
    return [p for p in range(len(out)) if not out[p]]


def _eliminate(s: Any, p: int) -> None:
    if not s.out[p]:
        s.out = s.out[:]
        s.out[p] = True
        if s.log is not None:
            s.log.append(("eliminated", p))


def _fmt(s: Any, value: Any, kind: str) -> str:
    g = s.game
    if value is None:
        return "none"
    if kind == "player":
        return g.player_name(value)
    if kind == "card":
        return g.card_names[value]
    if kind == "list:player":
        return ", ".join(g.player_name(p) for p in value) or "nobody"
    if kind == "list:card":
        return ", ".join(g.card_names[c] for c in value) or "no cards"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _shown(s: Any, value: Any, kind: str) -> Any:
    """A value for a report: players and cards by name, numbers and text as they are."""
    if kind == "plain" or value is None:
        return value
    return _fmt(s, value, kind)


def _log(s: Any, text: str, *values: tuple[Any, str]) -> None:
    parts = text.split("{}")
    out = parts[0]
    for (v, kind), rest in zip(values, parts[1:]):
        out += _fmt(s, v, kind) + rest
    s.log.append(("announce", out))


def _want_player(s: Any, v: Any, what: str) -> int:
    """A rule's value that must name a seat (the first player of a phase, the next dealer)."""
    if type(v) is not int or not 0 <= v < s.game.n:
        raise RuleRuntimeError(f"{what} must give a player (0 to {s.game.n - 1}), not {_kind(v)}")
    return v


def _want_players(s: Any, v: Any, what: str) -> Any:
    """A rule's value that must be a list of seats (who sees a zone, the winners)."""
    if type(v) is not list or not all(type(p) is int and 0 <= p < s.game.n for p in v):
        raise RuleRuntimeError(f"{what} must give a list of players (0 to {s.game.n - 1}), not {_kind(v)}")
    return v


def _kind(v: Any) -> str:
    return "none" if v is None else _short(v)  # the rules' word for None


HELPERS = {
    "_pick": _pick, "_move1": _move1, "_move": _move, "_deal": _deal, "_deal_each": _deal_each, "_shuffle": _shuffle,
    "_next_active": _next_active, "_active": _active, "_eliminate": _eliminate, "_log": _log,
    "_want_player": _want_player, "_want_players": _want_players,
}
