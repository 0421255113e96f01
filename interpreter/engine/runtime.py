"""Helpers the compiled rule code calls to change a state.

They keep three invariants cheap: every card sits in exactly one zone
(`s.loc[card]` says which), zones are ordered bottom to top, and `s.by[card]`
remembers who last moved the card.
"""

from __future__ import annotations

from typing import Any

from ..dsl import abi
from ..dsl import types as T
from ..dsl.diagnostics import count_of
from ..dsl.library import BIG, RuleRuntimeError, _short
from . import chance
from .budget import charge
from .chance import before_bottom, fix_all, fix_top, fix_upto, shrink

# The helpers of `pick` and `shuffle` steps are chance's.
_pick = chance.pick
_shuffle = chance.shuffle

# A list kept in a variable longer than this triggers the check of all list variables together.
_HELD_CHECK = 1_000


# Zones whose order is not decided yet (a shuffled zone in a state without a seed, `s.unfixed`: zone -> the
# bottom k positions in no order; chance.py) are kept so by every move: a card leaving the block shrinks it,
# a whole zone moved carries it along, a deal from the top decides each card as it comes off. What would
# put the block anywhere but at the bottom of its zone (cards slid under it) decides it first.


def _move1(s: Any, c: int, dest: int, bottom: bool) -> None:
    z = s.z
    un = s.unfixed
    if un and (s.loc[c] in un or (bottom and dest in un)):
        _unfix_leaving(s, c, dest, bottom)
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
    charge(s.game, len(cards))
    z, loc, by, actor = s.z, s.loc, s.by, s.actor
    src = loc[cards[0]]
    if s.unfixed:
        _unfix_moving(s, cards, src, dest, bottom)
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
    if cards is s.game.pack or (len(cards) == len(loc) and len(set(cards)) == len(loc)):
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


def _unfix_leaving(s: Any, c: int, dest: int, bottom: bool) -> None:
    """Card c is about to move (to the bottom of dest, or its top): keep the undecided blocks right."""
    if bottom and dest in s.unfixed:
        before_bottom(s, dest)
    src = s.loc[c]
    k = s.unfixed.get(src)
    if k is not None and s.z[src].index(c) < k:
        shrink(s, src, k - 1)


def _unfix_moving(s: Any, cards: list[int], src: int, dest: int, bottom: bool) -> None:
    """Cards are about to move to dest (see `_move`): keep the undecided blocks right."""
    un = s.unfixed
    z = s.z
    if bottom and dest in un:
        before_bottom(s, dest)
        un = s.unfixed
    if cards is z[src] and src != dest:
        k = un.get(src)
        if k is None:
            return
        if not bottom and z[dest]:
            fix_all(s, src)  # the block would sit above the destination's cards
            return
        rest = {x: v for x, v in un.items() if x != src}
        rest[dest] = k
        s.unfixed = rest
        return
    if cards is s.game.pack or (len(cards) == len(s.loc) and len(set(cards)) == len(s.loc)):
        # The whole pack gathered: the destination keeps its cards where they are, the others are emptied.
        s.unfixed = {dest: un[dest]} if dest in un else {}
        return
    if len(cards) > 5:
        # Many cards at once: each zone's block loses the cards it held.
        gone = set(cards)
        for zi, k in list(un.items()):
            left = k - sum(1 for c in z[zi][:k] if c in gone)
            if left != k:
                shrink(s, zi, left)
    # Fewer go one by one through _move1.


def _take_top(s: Any, src: int) -> int:
    pile = s.z[src]
    if not pile:
        raise RuleRuntimeError(f"cannot deal from zone '{s.game.zone_names[src]}': it is empty")
    un = s.unfixed
    if un and src in un and len(pile) <= un[src]:
        fix_top(s, src)  # the top card is dealt: now it is decided
    return pile.pop()


def _deal(s: Any, n: int, src: int, dest: int) -> None:
    if n > 0:
        charge(s.game, min(n, len(s.z[src]) + 1))
    z, loc, by, actor = s.z, s.loc, s.by, s.actor
    if n == 1 and z[src] and not s.unfixed:
        c = z[src].pop()  # one card off a zone in order: the usual deal of a card at a time
        z[dest].append(c)
        loc[c] = dest
        by[c] = actor
        return
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
        raise RuleRuntimeError(f"cannot deal {count_of(n, 'card')} to each of {count_of(k, 'player')} from zone "
                               f"'{s.game.zone_names[src]}': it holds {len(pile)}")
    charge(s.game, total)
    if s.unfixed and src in s.unfixed:
        fix_upto(s, src, total)  # the cards dealt, decided from the top down
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


# Active players take part in the current deal: not eliminated from the match (`s.out`) and not sitting
# this deal out (`s.sit`, cleared when the next deal starts).


def _next_active(s: Any, p: int) -> int:
    out, sit = s.out, s.sit
    n = len(out)
    g = s.game
    if out is g.none_out and sit is g.all_seated:
        return (p + 1) % n  # everyone takes part
    for k in range(1, n + 1):
        q = (p + k) % n
        if not out[q] and not sit[q]:
            return q
    return p


def _prev_active(s: Any, p: int) -> int:
    out, sit = s.out, s.sit
    n = len(out)
    for k in range(1, n + 1):
        q = (p - k) % n
        if not out[q] and not sit[q]:
            return q
    return p


def _next_in_match(s: Any, p: int) -> int:
    """The next player clockwise who is still in the match, sitting out this deal or not (the dealer's seat
    passes to a player who sat out the deal that ends)."""
    out = s.out
    n = len(out)
    for k in range(1, n + 1):
        q = (p + k) % n
        if not out[q]:
            return q
    return p


def _active(s: Any) -> list[int]:
    out, sit = s.out, s.sit
    g = s.game
    if out is g.none_out and sit is g.all_seated:
        return g.seats[:]  # everyone takes part
    return [p for p in range(len(out)) if not out[p] and not sit[p]]


def _is_active(s: Any, p: int) -> bool:
    return not s.out[p] and not s.sit[p]


def _eliminate(s: Any, p: int) -> None:
    if not s.out[p]:
        s.out = s.out[:]
        s.out[p] = True
        if s.log is not None:
            s.log.append(("eliminated", p))


def _sit_out(s: Any, p: int) -> None:
    """p takes no part in the rest of this deal: skipped like an eliminated player until the next deal starts."""
    if not s.sit[p]:
        s.sit = s.sit[:]  # shared between clones until written
        s.sit[p] = True
        if s.log is not None:
            s.log.append(("sits_out", p))


def _team(v: Any, n: int) -> int:
    """A team number: 0 to n - 1, enough for every seat on a team of its own (and a slot of a per-team variable)."""
    if type(v) is int and 0 <= v < n:
        return v
    raise RuleRuntimeError(f"a team must be a number from 0 to {n - 1}", f"got {_kind(v)}")


def _set_team(s: Any, p: int, t: Any) -> None:
    t = _team(t, s.game.n)
    if s.team[p] != t:
        s.team = s.team[:]  # shared between clones until written
        s.team[p] = t
        if s.log is not None:
            s.log.append(("team", p, t))


def _teammates(s: Any, p: int) -> list[int]:
    team = s.team
    charge(s.game, len(team))
    mine = team[p]
    return [q for q in range(len(team)) if team[q] == mine and q != p]


def _teams(s: Any) -> list[int]:
    team, g = s.team, s.game
    charge(g, len(team))
    seen = g.teams_seen
    if seen[0] is team:  # the same list, never written in place (`_set_team` copies): the same teams
        return seen[1]
    out = sorted(set(team))
    g.teams_seen = (team, out)
    return out


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
    if kind == "list:cards":
        return ", ".join("[" + ", ".join(g.card_names[c] for c in xs) + "]" for xs in value) or "none"
    if isinstance(value, float) and value.is_integer() and -BIG <= value <= BIG:
        return str(int(value))
    if type(value) is list and (len(value) > 200 or any(type(x) is list for x in value)):
        return _short(value, 200)  # a value the rules built may be huge or nested without end
    return str(value)


def _shown(s: Any, value: Any, kind: str) -> Any:
    """A value for a report: players and cards by name, numbers and text as they are. A report is printed and
    written as JSON, so a value of unknown type must be plain: a number, text, true/false, or a list of them."""
    if kind != "plain":
        return None if value is None else _fmt(s, value, kind)
    if value is None or type(value) in (int, float, str, bool):
        return _plain(value)
    if type(value) is list and len(value) <= 1000 and all(x is None or type(x) in (int, float, str, bool)
                                                          for x in value):
        return [_plain(x) for x in value]
    raise RuleRuntimeError("a report must give a number, text, true/false or a short list of them",
                           f"got {_short(value)}")


def _plain(v: Any) -> Any:
    """A number fit for JSON (not infinite, not 'not a number')."""
    if type(v) is float and not -BIG <= v <= BIG:
        raise RuleRuntimeError("a report gave a number out of range", f"got {_short(v)}")
    return v


def _log(s: Any, text: str, *values: tuple[Any, str]) -> None:
    parts = text.split("{}")
    out = parts[0]
    # The message again with each seat it names kept as a number, so a table can print the names its
    # players chose instead of P0 (only when a seat is named: most messages name none).
    pieces: list[str | int] | None = None
    for (v, kind), rest in zip(values, parts[1:]):
        shown = _fmt(s, v, kind)
        if v is not None and kind in ("player", "list:player") and (kind == "player" or v):
            if pieces is None:
                pieces = [out]
            seats = [v] if kind == "player" else v
            for i, p in enumerate(seats):
                pieces += [", "] if i else []
                pieces.append(p)
            pieces.append(rest)
        elif pieces is not None:
            pieces.append(shown + rest)
        out += shown + rest
    charge(s.game, len(out))  # a log line is kept: its length is work
    s.log.append(("announce", out) if pieces is None else ("announce", out, tuple(pieces)))


def _want_player(s: Any, v: Any, what: str) -> int:
    """A rule's value that must name a seat (the first player of a phase, the next dealer)."""
    if type(v) is not int or not 0 <= v < s.game.n:
        raise RuleRuntimeError(f"{what} must give a player (0 to {s.game.n - 1})", f"got {_kind(v)}")
    return v


def _want_players(s: Any, v: Any, what: str) -> Any:
    """A rule's value that must be a list of seats (who sees a zone, the winners)."""
    if type(v) is not list or not all(type(p) is int and 0 <= p < s.game.n for p in v):
        raise RuleRuntimeError(f"{what} must give a list of players (0 to {s.game.n - 1})", f"got {_kind(v)}")
    return v


# ---------------------------------------------------------------- values the checker could not type
# A value reaches these when its type was not known when the rules were checked (a function's parameter
# called with different kinds of value). They keep the state well formed: an index stays inside its
# table (Python would read hand[-1] as the last zone of all), a variable holds what its type says.


def _seat(v: Any, n: int) -> int:
    if type(v) is int and 0 <= v < n:
        return v
    raise RuleRuntimeError(f"a player must be a seat from 0 to {n - 1}", f"got {_kind(v)}")


def _card(v: Any, nc: int) -> int:
    if type(v) is int and 0 <= v < nc:
        return v
    raise RuleRuntimeError("this is not a card of the pack", f"got {_kind(v)}")


def _all_of(xs: list[Any], types: set[type], lo: Any, hi: Any) -> bool:
    """Every item has one of `types` and lies in lo..hi (C-speed checks: this runs on every list kept)."""
    return not xs or (set(map(type, xs)) <= types and lo <= min(xs) and max(xs) <= hi)


_ITEM: dict[str, tuple[set[type], str]] = {
    "card": ({int}, "cards of the pack"), "player": ({int}, "players"), "num": ({int, float}, "numbers"),
    "cards": ({list}, "lists of cards of the pack")}


def _card_lists(xs: list[Any], nc: int) -> bool:
    """Every item is a list of cards of the pack (a `card_lists` variable)."""
    return all(type(x) is list and _all_of(x, {int}, 0, nc - 1) for x in xs)


def _cards(s: Any, v: Any) -> Any:
    """What `move` was given, when its type was not known: a card, or a list of cards of the pack."""
    if type(v) is int:
        return _card(v, s.game.num_cards)
    if type(v) is not list or not _all_of(v, {int}, 0, s.game.num_cards - 1):
        raise RuleRuntimeError("'move' needs a card or a list of cards of the pack", f"got {_kind(v)}")
    return v


_NUMBERS = (T.INT.name, T.NUM.name)


def _keep(s: Any, v: Any, ty: str) -> Any:
    """A value of unknown type about to be kept in a variable of type `ty` (a `types.Prim`'s name: generated
    code holds plain literals)."""
    if v is None:
        return v
    g = s.game
    if ty == T.CARD.name:
        return _card(v, g.num_cards)
    if ty == T.PLAYER.name:
        return _seat(v, g.n)
    ok = (type(v) in (int, float) and -BIG <= v <= BIG) if ty in _NUMBERS else \
        type(v) is bool if ty == T.BOOL.name else type(v) is str
    if not ok:
        raise RuleRuntimeError(f"a variable of type {ty} cannot hold this value", f"got {_kind(v)}")
    return v


def _keep_list(s: Any, v: Any, kind: str | None, slot: int) -> list[Any]:
    """A list about to be kept in variable slot `slot`: a copy (lists are shared between clones), charged for
    its items; its items checked unless their type is known (`kind` None); and all list variables together
    within the game's `limits.held`, so no rule can grow the state without end."""
    if type(v) is not list:
        raise RuleRuntimeError("a list variable can hold only a list", f"got {_kind(v)}")
    g = s.game
    charge(g, len(v))
    if len(v) > _HELD_CHECK:  # before any work on the items: a list too big to keep is refused at once
        held = len(v) + sum(held_items(s.v[i]) for i in g.list_slots if i != slot)
        if held > g.limits.held:
            raise RuleRuntimeError(f"the list variables would hold more than {count_of(g.limits.held, 'item')} "
                                   f"({g.limits.hint('held')})")
    new = list(v)
    if kind == "cards" or slot in g.nested_slots:
        # A list of lists of cards: its cards count as items too, and each list is copied like the whole.
        if kind is not None and not _card_lists(new, g.num_cards):
            raise RuleRuntimeError(f"this list variable holds {_ITEM['cards'][1]} only", f"got {_kind(new)}")
        inner = sum(len(x) for x in new if type(x) is list)
        charge(g, inner)
        if len(v) + inner > _HELD_CHECK:
            held = len(v) + inner + sum(held_items(s.v[i]) for i in g.list_slots if i != slot)
            if held > g.limits.held:
                raise RuleRuntimeError(f"the list variables would hold more than "
                                       f"{count_of(g.limits.held, 'item')} ({g.limits.hint('held')})")
        return [list(x) if type(x) is list else x for x in new]
    if kind is not None and new:
        types, what = _ITEM[kind]
        hi = g.num_cards - 1 if kind == "card" else g.n - 1 if kind == "player" else BIG
        lo = -BIG if kind == "num" else 0
        if not _all_of(new, types, lo, hi) or (float in set(map(type, new)) and sum(new) != sum(new)):
            # (a sum of numbers within +-10**18 is 'not a number' only if one of them is)
            raise RuleRuntimeError(f"this list variable holds {what} only", f"got {_kind(new)}")
    return new


def held_items(v: Any) -> int:
    """The items a list variable's value holds: the lists of a `card_lists` variable count with their cards."""
    if type(v) is not list:
        return 0
    return len(v) + sum(len(x) for x in v if type(x) is list)


def _extend_list(s: Any, old: Any, extra: Any, kind: str | None, slot: int) -> list[Any]:
    """xs += ys: the items of xs were checked when it was kept, so only ys is checked; the copy is charged."""
    if type(old) is not list or type(extra) is not list:
        raise RuleRuntimeError("'+=' on a list needs a list", f"got {_kind(extra)}")
    _keep_list(s, extra, kind, -1)  # ys alone: its type and items
    return _keep_list(s, old + extra, None, slot)


def _without(s: Any, xs: Any, gone: Any) -> list[Any]:
    """xs -= gone: charged for both lists, and linear when the items can be hashed."""
    if type(xs) is not list or type(gone) is not list:
        raise RuleRuntimeError("'-=' on a list needs a list", f"got {_kind(gone)}")
    charge(s.game, len(xs) + len(gone))
    try:
        drop = set(gone)
    except TypeError:  # lists of lists
        charge(s.game, len(xs) * len(gone))
        return [x for x in xs if x not in gone]
    return [x for x in xs if x not in drop]


def _cards_id(s: Any, table: dict[tuple[int, ...], int], v: Any, param: str, action: str) -> int:
    """The position of list of cards `v` in the ids of parameter `param` (its digit in the action's id). A value
    that is not one of them has no id: a rule error, whose message names no card (any player may read it)."""
    if type(v) is list:
        charge(s.game, len(v))
        try:
            d = table.get(tuple(v))
        except TypeError:  # an item that cannot be a key: not a card
            d = None
        if d is not None:
            return d
    g = s.game
    shown = "[" + ", ".join(g.card_names[c] if type(c) is int and 0 <= c < g.num_cards else _short(c)
                            for c in v[:20]) + (", ..." if len(v) > 20 else "") + "]" if type(v) is list else _kind(v)
    raise RuleRuntimeError(f"a value of parameter '{param}' of '{action}' is not one of its ids",
                           f"got {shown}; values are compared with the ids as lists: the same cards in the same "
                           "order")


def _fz(s: Any, zi: int) -> list[int]:
    """Zone zi's cards, their order decided first if it is not yet (a shuffled zone of a state without a
    seed, during a step; read outside one, e.g. by a tool, the cards are in the order the shuffle found)."""
    un = s.unfixed
    if un and zi in un and s.draws is not None:
        fix_all(s, zi)
    return s.z[zi]  # type: ignore[no-any-return]


def _fz_top(s: Any, zi: int, n: Any) -> list[int]:
    """Zone zi's cards, the order of its top n decided first (see `_fz`)."""
    un = s.unfixed
    if un and zi in un and s.draws is not None and type(n) is int:
        fix_upto(s, zi, n)
    return s.z[zi]  # type: ignore[no-any-return]


def _kind(v: Any) -> str:
    return "none" if v is None else _short(v)  # the rules' word for None


# The helpers the generated code may call, by the names dsl/abi.py gives them (a name without its function
# here fails when the engine is imported).
HELPERS = {name: globals()[name] for name in abi.ENGINE_HELPERS}
