"""Budget charges moved to where they are cheap: the walks an expression is sure to make over lists known
before it runs, charged once, in statement context, before it runs.

The step budget (interpreter/engine/budget.py) charges each walk of a list its items times the size of the
code run per item. In an expression that is a call of `_it` as the walk starts; in statement context it is
an inline `_S[0] -= n`, which costs far less. A walk may be charged before the expression runs, with the
same amount, when both hold:

* it is sure to run, once: it is not inside a comprehension's item or condition, a `x => ...` function,
  a branch of `if ... then ... else`, an operand of `and`/`or` after the first, or a comparison after its
  second operand (Python stops a chain of comparisons at the first false one);
* the length of its list is known before the expression runs, and reading it cannot fail: a parameter or
  a name of an earlier step (not one the expression binds itself), `players`, `pack`, `suits`, `ranks`, a
  zone or a list variable, of a seat given by a name typed player, `player`, `current` or `dealer`, a
  list written out (`[a, b]`), or `+` of such lists.

Expressions change nothing, so the list has the same length when the walk starts; the total charged is
what the walk would have charged. A rule error the expression meets before that walk now comes with the
walk already charged, which only matters when the budget runs out there: the move is stopped by R004
instead of by that error, at the same step.
"""

from __future__ import annotations

from .. import abi, weights
from .. import ast as A
from .. import refs as R
from .. import types as T
from ..library import Cost

_STATIC = {"players": "PLAYERS", "pack": "PACK", "suits": "SUITS", "ranks": "RANKS"}
_SEATS = {"player": "s.actor", "current": "s.cur", "dealer": "s.dealer"}


def _seat(e: A.Expr, bound: frozenset[str]) -> str | None:
    if isinstance(e, A.Name) and e.ty == T.PLAYER:
        if isinstance(e.ref, R.Local) and e.id not in bound:
            return f"l_{e.id}"
        if isinstance(e.ref, R.Builtin):
            return _SEATS.get(e.ref.name)
    return None


def stable(e: A.Expr, bound: frozenset[str]) -> str | None:
    """The code of list `e` if it is known before the expression runs and reading it cannot fail (`bound`:
    the names the expression binds on the way there); else None."""
    if isinstance(e, A.Name):
        ref = e.ref
        if isinstance(ref, R.Local):
            return None if e.id in bound else f"l_{e.id}"
        if isinstance(ref, R.Builtin):
            return _STATIC.get(ref.name)
        if isinstance(ref, R.Zone) and not ref.spec.per_player:
            return f"s.z[{abi.zone(ref.spec.name)}]"
        if isinstance(ref, R.Variable) and not (ref.spec.per_player or ref.spec.per_team) and T.is_list(ref.spec.ty):
            return f"s.v[{abi.var(ref.spec.name)}]"
        return None
    if isinstance(e, A.Index) and isinstance(e.obj, A.Name):
        ref, seat = e.obj.ref, _seat(e.index, bound)
        if seat is None:
            return None
        if isinstance(ref, R.Zone) and ref.spec.per_player:
            return f"s.z[{abi.zone(ref.spec.name)} + {seat}]"
        if isinstance(ref, R.Variable) and ref.spec.per_player and T.is_list(ref.spec.ty):
            return f"s.v[{abi.var(ref.spec.name)} + {seat}]"
    return None


def size(e: A.Expr, bound: frozenset[str], depth: int = 0) -> str | None:
    """The code of the number of items of list `e` if it is known before the expression runs: a `stable`
    list's length, the items of `[a, b]`, the sum for `+` of two such lists; else None."""
    if isinstance(e, A.ListLit):
        return str(len(e.items))
    if isinstance(e, A.BinOp) and e.op == "+" and T.is_list(e.left.ty) and T.is_list(e.right.ty) and depth < 8:
        left, right = size(e.left, bound, depth + 1), size(e.right, bound, depth + 1)
        return f"({left} + {right})" if left is not None and right is not None else None
    code = stable(e, bound)
    return f"len({code})" if code is not None else None


def _built(e: A.Expr) -> bool:
    """A list of plain values the expression builds itself, which a walk of it does not charge again
    (expressions.py `_charged`)."""
    return weights.flat_list(e.ty) and isinstance(e, A.Comp | A.ListLit)


def _walk(e: A.Call) -> tuple[A.Expr, int] | None:
    """The list a library call walks for a flat charge, and the work per item; None if it charges otherwise."""
    if not isinstance(e.ref, R.Library) or not e.args:
        return None
    lambdas = [a for a in e.args if isinstance(a, A.Lambda)]
    if lambdas:
        return e.args[0], sum(weights.size(x.body) for x in lambdas)
    # A walk of the list argument, charged for its items (not flatten's, charged for every nested item): the
    # charge moves if the list's items are plain values.
    cost = e.ref.spec.cost
    if ((cost is Cost.WALK and len(e.args) == 1 or cost is Cost.WALK_FIRST)
            and weights.flat_list(e.args[0].ty) and not _built(e.args[0])):
        return e.args[0], 1
    return None


def hoisted(e: A.Expr) -> list[tuple[A.Expr, str, int]]:
    """The walks `e` is sure to make over lists whose length is known before it runs: (the node whose code
    charges the walk: a comprehension, a library call, a join of lists, the list an `in` looks through;
    the code of the list's length; the work per item), in no particular order. Iterative: code may nest
    deeply."""
    return _Hoist().run(e)


class _Hoist(A.StrictVisitor):
    """The search of `hoisted`: each method records the walks a node makes itself and pushes the parts of it
    that are sure to run once when it does, with the names bound on the way there."""

    covers = (A.Expr,)

    def __init__(self) -> None:
        self.found: list[tuple[A.Expr, str, int]] = []
        self.stack: list[tuple[A.Expr, frozenset[str]]] = []

    def run(self, e: A.Expr) -> list[tuple[A.Expr, str, int]]:
        seen: set[int] = set()
        twice: set[int] = set()  # a node met twice would run twice: left as it is
        stack = self.stack
        stack.append((e, frozenset()))
        while stack:
            n, bound = stack.pop()
            if id(n) in seen:
                twice.add(id(n))
                continue
            seen.add(id(n))
            (self._methods.get(type(n)) or self.method(type(n)))(self, n, bound)
        return [f for f in self.found if id(f[0]) not in twice]

    def visit_Comp(self, n: A.Comp, bound: frozenset[str]) -> None:
        code = size(n.iter, bound)
        if code is not None:
            work = weights.size(n.elem) + (weights.size(n.cond) if n.cond is not None else 0)
            self.found.append((n, code, work))
        self.stack.append((n.iter, bound))  # the item and the condition run once per item, if at all

    def visit_Lambda(self, n: A.Lambda, bound: frozenset[str]) -> None:
        pass  # runs once per item, if at all

    def visit_BoolOp(self, n: A.BoolOp, bound: frozenset[str]) -> None:
        self.stack.append((n.values[0], bound))

    def visit_IfExpr(self, n: A.IfExpr, bound: frozenset[str]) -> None:
        self.stack.append((n.cond, bound))

    def visit_Compare(self, n: A.Compare, bound: frozenset[str]) -> None:
        op, right = n.rest[0]
        if op in ("in", "notin") and weights.flat_list(right.ty) and not _built(right):
            code = size(right, bound)
            if code is not None:
                self.found.append((right, code, 1))
        self.stack.extend([(n.first, bound), (right, bound)])

    def visit_Let(self, n: A.Let, bound: frozenset[str]) -> None:
        inner = bound
        for name, val in n.bindings:
            self.stack.append((val, inner))
            inner = inner | {name}
        self.stack.append((n.body, inner))

    def visit_Call(self, n: A.Call, bound: frozenset[str]) -> None:
        walk = _walk(n)
        code = size(walk[0], bound) if walk is not None else None
        if walk is not None and code is not None:
            self.found.append((n, code, walk[1]))
        self._every_part(n, bound)

    def visit_BinOp(self, n: A.BinOp, bound: frozenset[str]) -> None:
        if n.op == "+" and T.is_list(n.left.ty) and T.is_list(n.right.ty):
            code = size(n, bound)  # a join, charged for its items
            if code is not None:
                self.found.append((n, code, 1))
        self._every_part(n, bound)

    def _every_part(self, n: A.Expr, bound: frozenset[str]) -> None:
        """Every part runs once, when the node does (a function given to a call: once per item, if at all)."""
        self.stack.extend((c, bound) for c in n.iter_child_nodes() if not isinstance(c, A.Lambda))

    visit_Const = visit_Name = visit_Attr = visit_Index = visit_Not = visit_Neg = visit_ListLit = _every_part
    visit_Inline = _every_part
