"""Optimizations on the checked AST, for the conditions of actions (`when`).

A plain rule file asks, for every card in hand, `may_play(player, card)`, a function that asks
`led_suit()` and `holds_suit(p, led_suit())` again for each card, though neither depends on the card.
Two passes make that cost what a hand-written engine pays:

* **Inlining** (`inline`): a call of a small `define:` function whose arguments are plain (names and
  constants) is replaced by the function's body with the arguments put in for the parameters. The body
  keeps its spans: the compiler writes it on lines of its own (an `A.Inline` node), so a rule error in it
  is still reported inside the function. Not inlined: functions that call themselves (directly or not),
  memoized pure functions (their memo is worth more), functions whose result the engine checks
  (numbers that may grow, values of unknown type), bodies bigger than `INLINE_SIZE` nodes, bodies that
  bind a name an argument uses (capture), and calls more than `INLINE_DEPTH` inlinings deep.
* **Loop-invariant caching** (`invariants`): in the condition tested for each value of an action's
  parameter, the largest sub-expressions that read neither that parameter nor any later one are worked
  out at most once per loop: the compiler keeps each in a local, empty before the loop, and fills it the
  first time the condition reaches it. Expressions have no side effects and the state does not change
  while legal actions are listed, so the value is the same; and since it is filled where it was first
  needed, an expression the old code never reached (after `and`, in an `if` branch) is still never
  worked out, and one that fails fails at the same point.

Neither changes what a rule file means. The step budget still bounds every loop (the compiler charges
each value of a parameter the size of its conditions, inlined bodies included), and
tests/test_optimize.py plays every bundled game with and without these passes and compares every step.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from . import ast as A
from . import types as T
from . import weights
from .spec import FuncSpec

INLINE_SIZE = 120  # AST nodes in a body that may be inlined
INLINE_DEPTH = 4  # inlinings inside inlined bodies


def _binders(e: A.Expr) -> set[str]:
    """Names bound inside e (lambda parameters, comprehension variables, let names)."""
    out: set[str] = set()
    for n in _nodes(e):
        if isinstance(n, A.Lambda):
            out.add(n.param)
        elif isinstance(n, A.Comp):
            out.add(n.var)
        elif isinstance(n, A.Let):
            out.update(name for name, _ in n.bindings)
    return out


def _nodes(e: A.Expr) -> list[A.Expr]:
    out: list[A.Expr] = []
    stack: list[Any] = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, A.Node):
            if isinstance(x, A.Expr):
                out.append(x)
            for f in dataclasses.fields(x):
                if f.name not in ("span", "ty", "ref"):
                    stack.append(getattr(x, f.name))
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
    return out


def _locals(e: A.Expr) -> set[str]:
    return {n.id for n in _nodes(e) if isinstance(n, A.Name) and n.ref is not None and n.ref[0] == "local"}


def _plain(arg: A.Expr) -> bool:
    return isinstance(arg, A.Const) or isinstance(arg, A.Name) and arg.ref is not None


def _substitute(e: Any, params: dict[str, A.Expr]) -> Any:
    """A copy of e with each parameter name replaced by (a copy of) its argument; checked types and
    references kept."""
    if isinstance(e, A.Name) and e.ref == ("local", e.id) and e.id in params:
        return copy.copy(params[e.id])
    if isinstance(e, A.Node):
        new = copy.copy(e)
        for f in dataclasses.fields(e):
            if f.name not in ("span", "ty", "ref"):
                setattr(new, f.name, _substitute(getattr(e, f.name), params))
        return new
    if isinstance(e, list):
        return [_substitute(x, params) for x in e]
    if isinstance(e, tuple):
        return tuple(_substitute(x, params) for x in e)
    return e


class Inliner:
    """Decides which functions may be inlined, once per game, and inlines their calls in an expression."""

    def __init__(self, functions: list[FuncSpec], memoized: set[str], checked: set[str]):
        self.funcs = {f.name: f for f in functions if f.body is not None}
        calls = {name: {n.func for n in _nodes(body) if isinstance(n, A.Call) and n.ref is not None
                        and n.ref[0] == "user"} for name, body in self.bodies().items()}
        self.ok: set[str] = set()
        for name, f in self.funcs.items():
            assert f.body is not None
            if name in memoized or name in checked or f.body.ty == T.ANY or weights.size(f.body) > INLINE_SIZE:
                continue
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
        if not (e.ref is not None and e.ref[0] == "user" and e.func in self.ok and all(_plain(a) for a in e.args)):
            return None
        f = self.funcs[e.func]
        assert f.body is not None
        used = set().union(*(_locals(a) for a in e.args)) if e.args else set()
        if used & _binders(f.body):
            return None
        node = A.Inline(f.body.span, e.func, _substitute(f.body, dict(zip(f.params, e.args))))
        node.ty = e.ty
        return node

    def _walk(self, e: Any, depth: int) -> Any:
        if isinstance(e, A.Call) and depth < INLINE_DEPTH:
            node = self.call(e)
            if node is not None:
                node.body = self._walk(node.body, depth + 1)
                return node
        if isinstance(e, A.Node):
            new = copy.copy(e)
            for fd in dataclasses.fields(e):
                if fd.name not in ("span", "ty", "ref"):
                    setattr(new, fd.name, self._walk(getattr(e, fd.name), depth))
            return new
        if isinstance(e, list):
            return [self._walk(x, depth) for x in e]
        if isinstance(e, tuple):
            return tuple(self._walk(x, depth) for x in e)
        return e


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


def _free_locals(e: A.Expr) -> set[str]:
    """Local names e reads that e does not bind itself."""
    out: set[str] = set()
    stack: list[tuple[Any, frozenset[str]]] = [(e, frozenset())]
    while stack:
        x, bound = stack.pop()
        if isinstance(x, A.Name):
            if x.ref is not None and x.ref[0] == "local" and x.id not in bound:
                out.add(x.id)
        elif isinstance(x, A.Lambda):
            stack.append((x.body, bound | {x.param}))
        elif isinstance(x, A.Comp):
            stack.append((x.iter, bound))
            inner = bound | {x.var}
            stack.append((x.elem, inner))
            if x.cond is not None:
                stack.append((x.cond, inner))
        elif isinstance(x, A.Let):
            inner = bound
            for name, val in x.bindings:
                stack.append((val, inner))
                inner = inner | {name}
            stack.append((x.body, inner))
        elif isinstance(x, A.Node):
            for f in dataclasses.fields(x):
                if f.name not in ("span", "ty", "ref"):
                    stack.append((getattr(x, f.name), bound))
        elif isinstance(x, (list, tuple)):
            stack.extend((y, bound) for y in x)
    return out


def _worth(e: A.Expr) -> bool:
    """Worth a cache: it calls something or reads more than a name, a constant or one table entry."""
    if isinstance(e, (A.Const, A.Name)):
        return False
    return any(isinstance(n, A.Call | A.Inline | A.Comp) for n in _nodes(e)) or weights.size(e) > 3


def invariants(cond: A.Expr, varying: set[str], in_loop: bool = True) -> list[A.Expr]:
    """The largest sub-expressions of `cond` that read none of the `varying` locals (nor a variable of a
    comprehension around them) and are worth keeping, reachable without entering a scope where a local
    cannot be set (a lambda or a let; a comprehension's condition and item can set one, its list cannot).
    `in_loop`: `cond` itself runs once per value of a loop, so its own sub-expressions count; otherwise
    only those inside its comprehensions do (elsewhere a kept value would be used once)."""
    found: list[A.Expr] = []
    stack: list[tuple[A.Expr, frozenset[str], bool]] = [(cond, frozenset(varying), in_loop)]
    while stack:
        n, vary, looped = stack.pop()
        if looped and not _free_locals(n) & vary:
            if _worth(n):
                found.append(n)
            continue
        if isinstance(n, A.Comp):
            inner = vary | {n.var}
            stack.append((n.elem, inner, True))
            if n.cond is not None:
                stack.append((n.cond, inner, True))
            continue
        if isinstance(n, _OPEN):
            kids: list[A.Expr] = []
            for f in dataclasses.fields(n):
                if f.name in ("span", "ty", "ref"):
                    continue
                v = getattr(n, f.name)
                if isinstance(v, A.Expr):
                    kids.append(v)
                elif isinstance(v, list):
                    for x in v:
                        if isinstance(x, A.Expr):
                            kids.append(x)
                        elif isinstance(x, tuple):
                            kids.extend(y for y in x if isinstance(y, A.Expr))
            if isinstance(n, A.Call):
                kids = [k for k in kids if not isinstance(k, A.Lambda)]  # a lambda is a scope of its own
            stack.extend((k, vary, looped) for k in reversed(kids))
    return found
