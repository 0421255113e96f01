"""Ranks and suits ordered as text (C041). They are text at run time, and text puts '10' before '9' and 'A'
before 'K', which is seldom the deck's order. The checker refuses to order a value whose type holds a rank
or a suit (`<`, `max`, `sort`, the key of `min_by`/`sort_by`...) when text orders the deck's ranks or suits
otherwise than the deck lists them (special cards, rank_index -1, below every rank), and points to
`rank_index` and `suit_index`, the places in the deck's lists. A deck whose text order is its own order
(ranks '1' to '6', suits clubs, diamonds, hearts, spades) is ordered as before, with the same meaning, so
a file that loaded keeps loading where nothing changes for it. Equality (`==`, `in`, `unique`,
`group_by`) is not an order and is never refused. A scenario's `eval` probe may order them: its value is
shown (dsl/codegen/module.py `compile_probe_typed`).

A value whose type is text (a `text` variable that was set to a rank) is text: it orders as text.
"""

from __future__ import annotations

from . import ast as A
from . import types as T
from .spec import GameSpec

# The library functions that order the keys their function gives (`max`, `min` and `sort` order their list).
_KEYED = frozenset({"max_by", "min_by", "all_max_by", "all_min_by", "sort_by"})


def unordered(t: T.Type | None) -> str | None:
    """'rank' or 'suit' if a value of type t holds one (itself, or in a list at any depth), else None."""
    for _ in range(16):  # types are cut at a few levels of lists (calls.TYPE_DEPTH)
        if t == T.RANK or t == T.SUIT:
            return "rank" if t == T.RANK else "suit"
        if not T.is_list(t):
            return None
        t = T.elem(t)
    return None


def _kinds(e: A.Expr) -> list[str]:
    """'rank' and 'suit' as values of a checked expression hold them, looking through the lists it builds,
    whose type may have joined a rank with other text (`[c.suit, c.rank]` is a list of text) or with a
    number (any)."""
    found: list[str] = []
    stack = [e]
    for _ in range(256):  # bounded: a key is a small expression
        if not stack:
            break
        x = stack.pop()
        kind = unordered(x.ty)
        if kind is not None:
            found.append(kind)
        elif isinstance(x, A.ListLit):
            stack += x.items
        elif isinstance(x, A.Comp):
            stack.append(x.elem)
        elif isinstance(x, A.IfExpr):
            stack += [x.then, x.other]
        elif isinstance(x, A.Let):
            stack.append(x.body)
    return found


def refused(spec: GameSpec, *values: A.Expr) -> tuple[str, tuple[str, str]] | None:
    """The kind ('rank' or 'suit') the values hold that text orders otherwise than the deck, with two of
    them as `inversion` gives them; None if ordering the values means what it always meant."""
    for e in values:
        for kind in _kinds(e):
            pair = inversion(spec, kind)
            if pair is not None:
                return kind, pair
    return None


def inversion(spec: GameSpec, kind: str) -> tuple[str, str] | None:
    """Two of the deck's ranks (or suits), the lower first, that text orders the other way; None if text
    orders them all as the deck does (ranks ['1', '2', '3'], suits [clubs, diamonds, hearts, spades]):
    such a deck's ranks or suits may be ordered, as before, with the same meaning. Special cards (jokers)
    have rank_index -1: below every rank."""
    if kind == "rank":
        names = list(dict.fromkeys([e.card for e in spec.pack if e.card] + list(spec.ranks)))
    else:
        names = list(dict.fromkeys(spec.suits))
    for a, b in zip(names, names[1:]):
        if b < a:
            return a, b
    return None


def refusal(what: str, kind: str, pair: tuple[str, str], keyed: bool = False) -> tuple[str, str]:
    """The message and hint of C041: `what` orders values holding a `kind` ('rank' or 'suit') whose text order
    differs from the deck's (`pair`: the deck's lower one, then the one text puts first)."""
    low, high = pair
    index = f"{kind}_index"
    msg = f"{what} would order {kind}s as text, where '{high}' comes before '{low}', not as the deck lists them"
    how = f"the key c => c.{index}" if keyed else f"c.{index}"
    return msg, (f"order by {how}, the {kind}'s place in the deck's '{kind}s' (0 first); {kind}s are no longer "
                 "ordered as text (CHANGELOG.md)")


def keyed(name: str) -> bool:
    """A library function that orders the keys its function gives."""
    return name in _KEYED
