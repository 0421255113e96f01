"""Static sizes of rule code, and the type facts the compiler's runtime checks rely on.

The step budget (interpreter/engine/budget.py) charges a loop its items times the size of the code it runs per
item, and a function call the size of its body, so that the budget bounds the work of a move whatever the
rules do. A size is the number of AST nodes; it is computed once per node (iteratively: code may nest
deeply) and cached.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from . import ast as A
from . import types as T

# Weakly keyed: an entry lives as long as its node (nodes hash by identity), so compiling many files keeps
# no dead trees alive and no entry outlives the node whose size it is.
_sizes: WeakKeyDictionary[A.Node, int] = WeakKeyDictionary()


def size(obj: Any) -> int:
    """AST nodes in a node, a list of statements, or a tuple of them (at least 1)."""
    node = isinstance(obj, A.Node)
    if node:
        hit = _sizes.get(obj)
        if hit is not None:
            return hit
    n = 0
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, A.Node):
            n += 1
            stack.extend(x.iter_child_nodes())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
    n = max(1, n)
    if node:
        _sizes[obj] = n
    return n


# Element types whose values are plain (not lists): comparing or hashing one costs one step.
FLAT = {T.INT, T.NUM, T.BOOL, T.STR, T.CARD, T.PLAYER, T.SUIT, T.RANK, T.NONE}


def flat_list(t: T.Type | None) -> bool:
    """True if a value of type t is a list of plain values, so walking it costs its length."""
    return T.is_list(t) and T.elem(t) in FLAT


def nested_flat(t: T.Type | None) -> bool:
    """True if a value of type t is a list of lists of plain values (combinations, melds), so walking it
    costs the lists and their items, which the runtime counts without looking into the items."""
    return T.is_list(t) and flat_list(T.elem(t))


def charge_helper(t: T.Type | None) -> str:
    """The budget helper (interpreter/engine/budget.py) that charges walking a list of type t: `_it` counts a
    list of plain values, `_itl` a list of such lists, `_itd` any nesting (it looks into every item)."""
    return "_it" if flat_list(t) else "_itl" if nested_flat(t) else "_itd"


def numeric(t: T.Type | None) -> bool:
    return t in (T.INT, T.NUM, T.PLAYER)
