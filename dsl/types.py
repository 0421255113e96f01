"""The expression language's types and how they combine.

Types are plain values: the strings below, or ("list", T) and ("map", K, V).
Players are seat numbers and so mix with ints; suits, ranks and choice
values are text at run time and mix with 'str'.
"""

from __future__ import annotations

from typing import Any

INT, NUM, BOOL, STR, CARD, PLAYER, SUIT, RANK, NONE, ANY = (
    "int", "num", "bool", "str", "card", "player", "suit", "rank", "none", "any")
NUMERIC = {INT, NUM, PLAYER}
TEXTUAL = {STR, SUIT, RANK}

Type = Any


def list_of(t: Type) -> Type:
    return ("list", t)


def is_list(t: Type) -> bool:
    return isinstance(t, tuple) and t[0] == "list"


def is_map(t: Type) -> bool:
    return isinstance(t, tuple) and t[0] == "map"


def card_lists(t: Type) -> bool:
    """A list of lists of cards (melds on the table, the values of a parameter with `ids`)."""
    return is_list(t) and is_list(t[1]) and t[1][1] in (CARD, ANY, NONE)


def elem(t: Type) -> Type:
    if is_list(t):
        return t[1]
    return ANY


def compatible(a: Type, b: Type) -> bool:
    if a == b or a == ANY or b == ANY:
        return True
    if a == NONE or b == NONE:
        return True
    if a in NUMERIC and b in NUMERIC:
        return True
    if a in TEXTUAL and b in TEXTUAL:
        return True
    if is_list(a) and is_list(b):
        return compatible(a[1], b[1])
    if is_map(a) and is_map(b):
        return compatible(a[1], b[1]) and compatible(a[2], b[2])
    return False


def join(a: Type, b: Type) -> Type:
    """The type of a value that is either an `a` or a `b`."""
    if a == b:
        return a
    if a == NONE:
        return b
    if b == NONE:
        return a
    if a == ANY or b == ANY:
        return ANY
    if a in NUMERIC and b in NUMERIC:
        return NUM if NUM in (a, b) else INT
    if a in TEXTUAL and b in TEXTUAL:
        return STR
    if is_list(a) and is_list(b):
        return list_of(join(a[1], b[1]))
    return ANY


def bounded(t: Type, depth: int) -> Type:
    """`t` with lists (and tables) more than `depth` levels deep cut to 'any value' at that level.

    Argument and result types key the checker's per-call checks of functions; without a bound a
    chain of functions that each wrap a value in brackets would make new types without end.
    """
    if depth <= 0 and (is_list(t) or is_map(t)):
        return ANY
    if is_list(t):
        return list_of(bounded(t[1], depth - 1))
    if is_map(t):
        return ("map", bounded(t[1], depth - 1), bounded(t[2], depth - 1))
    return t


def show(t: Type) -> str:
    if is_list(t):
        inner = t[1]
        if inner == ("list", CARD):
            return "lists of cards"
        return {CARD: "cards", PLAYER: "players", SUIT: "suits", RANK: "ranks"}.get(
            inner, f"list of {show(inner)}") if inner != ANY else "list"
    if is_map(t):
        return f"table of {show(t[2])}"
    return {INT: "int", NUM: "number", BOOL: "bool", STR: "text", CARD: "card", PLAYER: "player",
            SUIT: "suit", RANK: "rank", NONE: "none", ANY: "any value"}.get(t, str(t))


def of_value(v: Any) -> Type:
    """Type of a plain YAML value (constants)."""
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return INT
    if isinstance(v, float):
        return NUM
    if isinstance(v, str):
        return STR
    if v is None:
        return NONE
    if isinstance(v, list):
        t: Type = NONE
        for x in v:
            t = join(t, of_value(x))
        return list_of(ANY if t == NONE else t)
    if isinstance(v, dict):
        k: Type = NONE
        val: Type = NONE
        for kk, vv in v.items():
            k = join(k, of_value(kk))
            val = join(val, of_value(vv))
        return ("map", ANY if k == NONE else k, ANY if val == NONE else val)
    return ANY
