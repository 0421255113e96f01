"""The expression language's types and how they combine.

A type is a small frozen value, hashable and equal by value: a `Prim` (the constants INT ... ANY below),
`ListOf(item)`, `MapOf(key, value)` (a table), or, only where the checker reads a name before it is
indexed, `PerPlayer(item)` / `PerTeam(item)`; `Fn(param, result)` records a lambda's type. Players are seat
numbers and so mix with ints; suits, ranks and choice values are text at run time and mix with 'str'.
`show` gives the words messages use; `Prim.name` the spelling records and generated code use ('int', 'num').
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeGuard


@dataclass(frozen=True, slots=True)
class Prim:
    """A type without parts: its `name` is the spelling runtime checks and records use."""
    name: str

    def show(self) -> str:
        return _PRIM_WORDS[self.name]


@dataclass(frozen=True, slots=True)
class ListOf:
    item: Type

    def show(self) -> str:
        inner = self.item
        if inner == ListOf(CARD):
            return "lists of cards"
        if inner == ANY:
            return "list"
        return _PLURALS.get(inner) or f"list of {inner.show()}"


@dataclass(frozen=True, slots=True)
class MapOf:
    key: Type
    value: Type

    def show(self) -> str:
        return f"table of {self.value.show()}"


@dataclass(frozen=True, slots=True)
class PerPlayer:
    """A per-player variable or zone named without its index (checked at the index)."""
    item: Type

    def show(self) -> str:
        return f"{self.item.show()} per player"


@dataclass(frozen=True, slots=True)
class PerTeam:
    """A per-team variable named without its index."""
    item: Type

    def show(self) -> str:
        return f"{self.item.show()} per team"


@dataclass(frozen=True, slots=True)
class Fn:
    """A lambda (`x => ...`): its parameter's and its result's types."""
    param: Type
    result: Type

    def show(self) -> str:
        return "function"


Type = Prim | ListOf | MapOf | PerPlayer | PerTeam | Fn

INT, NUM, BOOL, STR, CARD, PLAYER, SUIT, RANK, NONE, ANY = (
    Prim("int"), Prim("num"), Prim("bool"), Prim("str"), Prim("card"), Prim("player"), Prim("suit"),
    Prim("rank"), Prim("none"), Prim("any"))
PRIMS = {t.name: t for t in (INT, NUM, BOOL, STR, CARD, PLAYER, SUIT, RANK, NONE, ANY)}
NUMERIC = frozenset({INT, NUM, PLAYER})
TEXTUAL = frozenset({STR, SUIT, RANK})

_PRIM_WORDS = {"int": "int", "num": "number", "bool": "bool", "str": "text", "card": "card", "player": "player",
               "suit": "suit", "rank": "rank", "none": "none", "any": "any value"}
_PLURALS: dict[Type, str] = {CARD: "cards", PLAYER: "players", SUIT: "suits", RANK: "ranks"}


def list_of(t: Type) -> ListOf:
    return ListOf(t)


def is_list(t: object) -> TypeGuard[ListOf]:
    return type(t) is ListOf


def is_map(t: object) -> TypeGuard[MapOf]:
    return type(t) is MapOf


def card_lists(t: Type) -> bool:
    """A list of lists of cards (melds on the table, the values of a parameter with `ids`)."""
    return is_list(t) and is_list(t.item) and t.item.item in (CARD, ANY, NONE)


def elem(t: Type | None) -> Type:
    """The items' type of a list type; 'any value' for anything else (None: an expression not checked)."""
    if is_list(t):
        return t.item
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
        return compatible(a.item, b.item)
    if is_map(a) and is_map(b):
        return compatible(a.key, b.key) and compatible(a.value, b.value)
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
        return ListOf(join(a.item, b.item))
    return ANY


def bounded(t: Type, depth: int) -> Type:
    """`t` with lists (and tables) more than `depth` levels deep cut to 'any value' at that level.

    Argument and result types key the checker's per-call checks of functions; without a bound a
    chain of functions that each wrap a value in brackets would make new types without end.
    """
    if depth <= 0 and (is_list(t) or is_map(t)):
        return ANY
    if is_list(t):
        return ListOf(bounded(t.item, depth - 1))
    if is_map(t):
        return MapOf(bounded(t.key, depth - 1), bounded(t.value, depth - 1))
    return t


def show(t: Type) -> str:
    """The words a message uses for a value of type t ('number', 'cards', 'table of int')."""
    return t.show()


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
        return ListOf(ANY if t == NONE else t)
    if isinstance(v, dict):
        k: Type = NONE
        val: Type = NONE
        for kk, vv in v.items():
            k = join(k, of_value(kk))
            val = join(val, of_value(vv))
        return MapOf(ANY if k == NONE else k, ANY if val == NONE else val)
    return ANY

