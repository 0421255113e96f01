"""Optimizations on the checked AST: inlining and loop-invariant values.

A plain rule file asks, for every card in hand, `may_play(player, card)`, a function that asks
`led_suit()` and `holds_suit(p, led_suit())` again for each card, though neither depends on the card.
Two passes make that cost what a hand-written engine pays (the code generator, dsl/codegen/, applies
them to action conditions, the bodies of functions and the expressions of steps):

* **Inlining** (`Inliner`): a call of a small `define:` function whose arguments are plain (names and
  constants) is replaced by the function's body with the arguments put in for the parameters. The body
  keeps its spans: the code generator writes it on lines of its own (an `A.Inline` node), so a rule error
  in it is still reported inside the function. Not inlined: functions that call themselves (directly or
  not), memoized pure functions (their memo is worth more), functions whose result the engine checks
  (numbers that may grow, values of unknown type), bodies bigger than `INLINE_SIZE` nodes, bodies that
  bind a name an argument uses (capture), bodies that begin with `let` (their own function lifts the
  bindings into statements), calls more than `INLINE_DEPTH` inlinings deep, and anything past the
  module's `INLINE_BUDGET`.
* **Loop-invariant values** (`invariants`): in the condition tested for each value of an action's
  parameter, and in the item and condition of a comprehension, the largest sub-expressions that read
  neither the loop's variable nor any later one are worked out at most once per loop: the generated
  code keeps each in a local, empty before the loop, and fills it the first time the code reaches it.
  Expressions have no side effects and the state does not change while one expression (or one action's
  legal ids) is worked out, so the value is the same; and since it is filled where it was first needed,
  an expression the plain code never reached (after `and`, in an `if` branch) is still never worked
  out, and one that fails fails at the same point.

Neither changes what a rule file means. The step budget still bounds every loop (each value of a
parameter is charged the size of its conditions, inlined bodies included), and tests/test_optimize.py
plays every rule file of the repository with and without these passes and compares every step.
"""

from __future__ import annotations

import copy
from typing import Any

from . import ast as A
from . import refs as R
from . import types as T
from . import weights
from .spec import FuncSpec

INLINE_SIZE = 120  # AST nodes in a body that may be inlined
INLINE_DEPTH = 4  # inlinings inside inlined bodies
# AST nodes all inlined bodies of one module may add together: a function that calls another many times,
# which calls another many times, ... would otherwise multiply the code (a hostile file could make it
# exponential). Past this, calls stay calls.
INLINE_BUDGET = 20_000


class _Binders(A.StrictVisitor):
    """The names a node binds for the nodes below it (lambda parameters, comprehension variables, let names)."""

    covers = (A.Expr,)

    def visit_Lambda(self, n: A.Lambda) -> list[str]:
        return [n.param]

    def visit_Comp(self, n: A.Comp) -> list[str]:
        return [n.var]

    def visit_Let(self, n: A.Let) -> list[str]:
        return [name for name, _ in n.bindings]

    def _none(self, n: A.Expr) -> list[str]:
        return []

    visit_Const = visit_Name = visit_Attr = visit_Index = visit_Call = visit_IfExpr = visit_BinOp = _none
    visit_Compare = visit_BoolOp = visit_Not = visit_Neg = visit_ListLit = visit_Inline = _none


_BINDERS = _Binders()


def _binders(e: A.Expr) -> set[str]:
    """Names bound inside e (lambda parameters, comprehension variables, let names)."""
    out: set[str] = set()
    for n in A.walk(e):
        out.update(_BINDERS.visit(n))
    return out


def _locals(e: A.Expr) -> set[str]:
    return {n.id for n in A.walk(e) if isinstance(n, A.Name) and isinstance(n.ref, R.Local)}


def _plain(arg: A.Expr) -> bool:
    return isinstance(arg, A.Const) or isinstance(arg, A.Name) and arg.ref is not None


def _substitute(e: Any, params: dict[str, A.Expr]) -> Any:
    """A copy of e with each parameter name replaced by (a copy of) its argument; checked types and
    references kept."""
    if isinstance(e, A.Name) and e.ref == R.Local(e.id) and e.id in params:
        return copy.copy(params[e.id])
    return e.map_children(lambda c: _substitute(c, params))


class Inliner:
    """Decides which functions may be inlined, once per game, and inlines their calls in an expression."""

    def __init__(self, functions: list[FuncSpec], memoized: set[str], checked: set[str]):
        self.funcs = {f.name: f for f in functions if f.body is not None}
        calls = {name: {n.func for n in A.walk(body) if isinstance(n, A.Call)
                        and isinstance(n.ref, R.UserFunction)} for name, body in self.bodies().items()}
        self.ok: set[str] = set()
        self.left = INLINE_BUDGET  # nodes that inlining may still add to the module
        for name, f in self.funcs.items():
            assert f.body is not None
            if name in memoized or name in checked or f.body.ty == T.ANY or weights.size(f.body) > INLINE_SIZE:
                continue
            if isinstance(f.body, A.Let):
                continue  # its bindings read best, and cost least, as the statements of its own function
            if set(f.params) & _binders(f.body) or _reaches(calls, name):
                continue
            self.ok.add(name)

    def bodies(self) -> dict[str, A.Expr]:
        return {name: f.body for name, f in self.funcs.items() if f.body is not None}

    def inline(self, e: A.Expr, depth: int = 0) -> A.Expr:
        """e with the calls of inlinable functions replaced by their bodies (a new tree; e is unchanged)."""
        return self._walk(e, depth)

    def call(self, e: A.Call) -> A.Inline | None:
        """The call inlined (its body, not inlined further), or None if it may not be."""
        if not (isinstance(e.ref, R.UserFunction) and e.func in self.ok and all(_plain(a) for a in e.args)):
            return None
        f = self.funcs[e.func]
        assert f.body is not None
        used = set().union(*(_locals(a) for a in e.args)) if e.args else set()
        size = weights.size(f.body)
        if used & _binders(f.body) or size > self.left:
            return None
        self.left -= size
        node = A.Inline(f.body.span, e.func, _substitute(f.body, dict(zip(f.params, e.args))))
        node.ty = e.ty
        return node

    def _walk(self, e: Any, depth: int) -> Any:
        if isinstance(e, A.Call) and depth < INLINE_DEPTH:
            node = self.call(e)
            if node is not None:
                node.body = self._walk(node.body, depth + 1)
                return node
        return e.map_children(lambda c: self._walk(c, depth))


def _reaches(calls: dict[str, set[str]], start: str) -> bool:
    """True if `start` calls itself, directly or through other functions."""
    seen: set[str] = set()
    stack = list(calls.get(start, ()))
    while stack:
        g = stack.pop()
        if g == start:
            return True
        if g not in seen:
            seen.add(g)
            stack.extend(calls.get(g, ()))
    return False


# ---------------------------------------------------------------- loop-invariant sub-expressions
# Nodes through which a sub-expression is still evaluated in the condition's own scope: a cached value can
# be stored from there (not from inside a lambda, a comprehension or a let, which compile to nested scopes).
_OPEN = (A.BoolOp, A.Not, A.IfExpr, A.Compare, A.BinOp, A.Neg, A.Index, A.Attr, A.Call, A.ListLit, A.Inline)


class _Facts(A.StrictVisitor):
    """Per node of one expression, worked out in one post-order pass (so the search below is linear in
    the size of the expression, however big inlining made it): the local names it reads that it does
    not bind itself, whether it calls or loops, and its size."""

    covers = (A.Expr,)

    def __init__(self, root: A.Expr):
        self.free: dict[int, frozenset[str]] = {}
        self.busy: dict[int, bool] = {}
        self.size: dict[int, int] = {}
        stack: list[tuple[A.Expr, bool]] = [(root, False)]
        while stack:
            n, done = stack.pop()
            kids = list(n.iter_child_nodes())
            if not done:
                stack.append((n, True))
                stack.extend((k, False) for k in kids)
                continue
            free: frozenset[str] = frozenset().union(*(self.free[id(k)] for k in kids)) if kids else frozenset()
            self.free[id(n)] = (self._methods.get(type(n)) or self.method(type(n)))(self, n, free)
            self.busy[id(n)] = isinstance(n, A.Call | A.Inline | A.Comp) or any(self.busy[id(k)] for k in kids)
            self.size[id(n)] = 1 + sum(self.size[id(k)] for k in kids)

    # Each method: the free names of a node, given those of its children together (`below`).
    def visit_Name(self, n: A.Name, below: frozenset[str]) -> frozenset[str]:
        return frozenset({n.id}) if isinstance(n.ref, R.Local) else below

    def visit_Lambda(self, n: A.Lambda, below: frozenset[str]) -> frozenset[str]:
        return self.free[id(n.body)] - {n.param}

    def visit_Comp(self, n: A.Comp, below: frozenset[str]) -> frozenset[str]:
        inner = self.free[id(n.elem)] | (self.free[id(n.cond)] if n.cond is not None else frozenset())
        return self.free[id(n.iter)] | (inner - {n.var})

    def visit_Let(self, n: A.Let, below: frozenset[str]) -> frozenset[str]:
        free = self.free[id(n.body)]
        for name, val in reversed(n.bindings):
            free = (free - {name}) | self.free[id(val)]
        return free

    def _below(self, n: A.Expr, below: frozenset[str]) -> frozenset[str]:
        return below  # binds nothing

    visit_Const = visit_Attr = visit_Index = visit_Call = visit_IfExpr = visit_BinOp = visit_Compare = _below
    visit_BoolOp = visit_Not = visit_Neg = visit_ListLit = visit_Inline = _below


def invariants(cond: A.Expr, varying: set[str], in_loop: bool = True) -> list[A.Expr]:
    """The largest sub-expressions of `cond` that read none of the `varying` locals (nor a variable of a
    comprehension around them) and are worth keeping, reachable without entering a scope where a local
    cannot be set (a lambda or a let; a comprehension's condition and item can set one, its list cannot).
    `in_loop`: `cond` itself runs once per value of a loop, so its own sub-expressions count; otherwise
    only those inside its comprehensions do (elsewhere a kept value would be used once). Worth keeping:
    it calls or loops, or is more than a name, a constant or one table entry."""
    facts = _Facts(cond)
    found: list[A.Expr] = []
    stack: list[tuple[A.Expr, frozenset[str], bool]] = [(cond, frozenset(varying), in_loop)]
    while stack:
        n, vary, looped = stack.pop()
        if looped and not facts.free[id(n)] & vary:
            if not isinstance(n, (A.Const, A.Name)) and (facts.busy[id(n)] or facts.size[id(n)] > 3):
                found.append(n)
            continue
        if isinstance(n, A.Comp):
            inner = vary | {n.var}
            stack.append((n.elem, inner, True))
            if n.cond is not None:
                stack.append((n.cond, inner, True))
            continue
        if isinstance(n, _OPEN):
            kids = list(n.iter_child_nodes())
            if isinstance(n, A.Call):
                kids = [k for k in kids if not isinstance(k, A.Lambda)]  # a lambda is a scope of its own
            stack.extend((k, vary, looped) for k in reversed(kids))
    return found
