"""Which card attributes a pure function's value depends on: memo keys that forget the rest of a card.

A hand evaluation rarely needs to know which cards it holds, only their ranks (runs, pairs, books) or
their values (fifteens, pips) or their suits (flushes). If a pure function reads the cards of a parameter
only through attributes (`c.value`, `c.rank`, `c.suit`, a property), never compares, sorts, hashes or
counts on the cards themselves, and returns no card, then its value is the same for two arguments whose
cards agree, position by position, on those attributes. Its memo key may then hold, for each card, the
number of its class (cards with the same values of those attributes share a class; the engine builds
the table per game: `abi.card_class`). The ten ways to hold a 5, a 10 and three kings then share one
memo entry.

The analysis is a taint walk over the checked AST: a value is tainted if it may be, or hold, a card of a
projected parameter. Tainted values may only be read through attributes, taken apart by position
(`first`, `top`, `g[0]`, a comprehension's or a `x => ...` function's item, `subsets`, ...) or measured
(`len`, `count`); everything else (comparing, `in`, `unique`, `sort`, arithmetic, truth, `sum`,
`max`, an index of a table) is a use of the card itself, and the answer is "no projection". Calls of
other functions are followed with the taint of their arguments (memoized per function and taint, to a
fixed depth, as `analysis._Order` does); an answer cut short is "no projection", which only costs speed.
"""

from __future__ import annotations

import weakref

from . import ast as A
from . import refs as R
from . import types as T
from .analysis import _cheap, called_outside, order_free_params, pure_functions
from .library import LIBRARY, Result, names
from .spec import FuncSpec, GameSpec

PROJECTION_DEPTH = 150  # expression levels followed, through calls, before answering "no projection"
PROJECTION_MASKS = 8  # distinct taints of the arguments followed into one function

# Library functions whose result is the tainted list's items (or some of them, or lists of them), by
# position: the same positions give the same classes.
_ITEMS = names(lambda f: f.of_items == "items")
# Library functions that apply a `x => ...` function to each item: the function's value must be clean;
# the result is a count (clean) or items chosen by those values (tainted as the list).
_BY_KEY = {f.name: f.signature.result not in (Result.INT, Result.NUM) for f in LIBRARY.values()
           if f.signature.takes_function}
# Library functions that never see a tainted value's cards: their result is clean.
_MEASURES = names(lambda f: f.of_items == "measure")

_FIELDS = {"rank": "rank", "rank_index": "rank", "suit": "suit", "suit_index": "suit"}
_PROPERTY_LOCALS = {"rank": "rank", "rank_index": "rank", "suit": "suit", "suit_index": "suit"}


class _Identity(Exception):
    """A card of a projected parameter is used as itself: no projection."""


class _Projection(A.StrictVisitor):
    """Which attributes of the cards of tainted values an expression reads, and whether its value is tainted
    (holds such cards): one method per kind of expression, for the taints of the local names in scope."""

    covers = (A.Expr,)

    def __init__(self, funcs: dict[str, FuncSpec]):
        self.funcs = funcs
        self.memo: dict[tuple[str, tuple[bool, ...]], tuple[bool, frozenset[str]] | None] = {}
        self.tried: dict[str, int] = {}
        self.active: set[str] = set()
        self.depth = 0
        self.attrs: set[str] = set()

    def call(self, name: str, mask: tuple[bool, ...], top: bool = False) -> tuple[bool, frozenset[str]] | None:
        """(is the value tainted, the attributes read of tainted cards) for a call of `name` whose
        arguments are tainted as `mask` says; None if a card is used as itself."""
        key = (name, mask)
        if key in self.memo:
            return self.memo[key]
        g = self.funcs.get(name)
        if g is None or g.body is None or len(g.params) != len(mask) or name in self.active:
            return None
        if not top:
            if self.tried.get(name, 0) >= PROJECTION_MASKS:
                return None
            self.tried[name] = self.tried.get(name, 0) + 1
        self.active.add(name)
        outer = self.attrs
        self.attrs = set()
        try:
            tainted = self.taint(g.body, dict(zip(g.params, mask)))
            r: tuple[bool, frozenset[str]] | None = (tainted, frozenset(self.attrs))
        except _Identity:
            r = None
        finally:
            self.active.discard(name)
            inner, self.attrs = self.attrs, outer
        self.attrs |= inner
        self.memo[key] = r
        return r

    def taint(self, e: A.Expr, env: dict[str, bool]) -> bool:
        if self.depth >= PROJECTION_DEPTH:
            raise _Identity  # too deep to follow: the safe answer
        self.depth += 1
        try:
            return self._taint(e, env)
        finally:
            self.depth -= 1

    def _clean(self, e: A.Expr, env: dict[str, bool]) -> None:
        if self.taint(e, env):
            raise _Identity

    def _taint(self, e: A.Expr, env: dict[str, bool]) -> bool:
        return (self._methods.get(type(e)) or self.method(type(e)))(self, e, env)  # type: ignore[no-any-return]

    def visit_Const(self, e: A.Const, env: dict[str, bool]) -> bool:
        return False

    def visit_Name(self, e: A.Name, env: dict[str, bool]) -> bool:
        return env.get(e.id, False) if isinstance(e.ref, R.Local) else False

    def visit_Attr(self, e: A.Attr, env: dict[str, bool]) -> bool:
        if self.taint(e.obj, env):
            self.attrs.add(e.name)
        return False

    def visit_Index(self, e: A.Index, env: dict[str, bool]) -> bool:
        self._clean(e.index, env)
        return self.taint(e.obj, env)

    def visit_Comp(self, e: A.Comp, env: dict[str, bool]) -> bool:
        inner = {**env, e.var: self.taint(e.iter, env)}
        if e.cond is not None:
            self._clean(e.cond, inner)
        return self.taint(e.elem, inner)

    def visit_Let(self, e: A.Let, env: dict[str, bool]) -> bool:
        local = dict(env)
        for name, val in e.bindings:
            local[name] = self.taint(val, local)
        return self.taint(e.body, local)

    def visit_IfExpr(self, e: A.IfExpr, env: dict[str, bool]) -> bool:
        self._clean(e.cond, env)
        return self.taint(e.then, env) | self.taint(e.other, env)

    def visit_ListLit(self, e: A.ListLit, env: dict[str, bool]) -> bool:
        return any([self.taint(x, env) for x in e.items])

    def visit_BinOp(self, e: A.BinOp, env: dict[str, bool]) -> bool:
        left, right = self.taint(e.left, env), self.taint(e.right, env)
        if (left or right) and not (e.op == "+" and T.is_list(e.ty)):
            raise _Identity
        return left or right

    def visit_Inline(self, e: A.Inline, env: dict[str, bool]) -> bool:
        return self.taint(e.body, env)

    def visit_Call(self, e: A.Call, env: dict[str, bool]) -> bool:
        return self._call(e, env)

    def _used(self, e: A.Expr, env: dict[str, bool]) -> bool:
        """Clean operands give a clean value; a card compared, tested for truth or negated is used as
        itself (a function outside a call: its body alike)."""
        for c in e.iter_child_nodes():
            self._clean(c, env)
        return False

    visit_Compare = visit_BoolOp = visit_Not = visit_Neg = visit_Lambda = _used

    def _call(self, e: A.Call, env: dict[str, bool]) -> bool:
        if isinstance(e.ref, R.UserFunction):
            mask = tuple(self.taint(a, env) for a in e.args)
            if not any(mask):
                return False
            r = self.call(e.func, mask)
            if r is None:
                raise _Identity
            self.attrs |= r[1]
            return r[0]
        if not isinstance(e.ref, R.Library):
            raise _Identity  # pragma: no cover  (every call is checked)
        name = e.func
        lists = e.args[0] if e.args else None
        items = self.taint(lists, env) if lists is not None and not isinstance(lists, A.Lambda) else False
        rest = e.args[1:]
        for a in rest:
            if isinstance(a, A.Lambda):
                if name not in _BY_KEY:
                    raise _Identity
                self._clean(a.body, {**env, a.param: items})
            else:
                self._clean(a, env)
        if not items:
            return False
        if name in _BY_KEY and any(isinstance(a, A.Lambda) for a in rest):
            return _BY_KEY[name]
        if name in _MEASURES and not rest:
            return False
        if name in _ITEMS:
            return True
        raise _Identity


def _fields_read(spec: GameSpec, attr: str) -> set[str]:
    """Which of a card's rank and suit an attribute depends on."""
    if attr in _FIELDS:
        return {_FIELDS[attr]}
    for p in spec.properties:
        if p.name == attr:
            if p.by in ("rank", "suit"):
                return {p.by}
            if p.by == "const" or p.expr is None:
                return set()
            return {_PROPERTY_LOCALS[n.id] for n in A.walk(p.expr)
                    if isinstance(n, A.Name) and isinstance(n.ref, R.Local) and n.id in _PROPERTY_LOCALS}
    return {"rank", "suit"}  # `name`: the card itself


def card_params(f: FuncSpec) -> dict[str, T.Type]:
    """The parameters of f that hold a card or a list of cards, with that type (the checked type of the
    body's names: the join of every call's argument)."""
    kinds: dict[str, T.Type | None] = {}
    if f.body is not None:
        for n in A.walk(f.body):
            if isinstance(n, A.Name) and isinstance(n.ref, R.Local) and n.id in f.params:
                kinds.setdefault(n.id, n.ty)
    return {p: t for p in f.params if (t := kinds.get(p)) is not None and t in (T.CARD, T.list_of(T.CARD))}


def projection(spec: GameSpec, f: FuncSpec) -> tuple[str, ...] | None:
    """The card attributes f's value depends on, in a fixed order, if its card parameters (`card_params`)
    may be keyed by those attributes alone and that forgets the rank or the suit of a card; else None."""
    return _projection(spec, f, _Projection({g.name: g for g in spec.functions}))


def _projection(spec: GameSpec, f: FuncSpec, a: _Projection) -> tuple[str, ...] | None:
    params = card_params(f)
    if not params or f.body is None:
        return None
    r = a.call(f.name, tuple(p in params for p in f.params), top=True)
    if r is None or r[0]:
        return None  # a card used as itself, or returned
    fields: set[str] = set()
    for attr in r[1]:
        fields |= _fields_read(spec, attr)
    if fields >= {"rank", "suit"}:
        return None  # a class would be a card: nothing to share
    return tuple(sorted(r[1]))


# ---------------------------------------------------------------- the memo plan of a spec
_PLANS: dict[int, tuple[weakref.ref[GameSpec], dict[str, tuple[str, ...] | None]]] = {}


def memo_plan(spec: GameSpec) -> dict[str, tuple[str, ...] | None]:
    """The `define:` functions the optimizing compiler memoizes, each with the card attributes its memo key
    keeps (`projection`), or None for a key of the cards themselves. A pure function that is not too
    cheap to be worth it is memoized if the rules call it from outside pure functions (inside one, the
    caller's memo already spares its work), or if a projection lets it share entries across hands its
    caller's key tells apart: it has a projection and a list of cards whose order cannot matter, so its
    key is the sorted classes of the cards (the fifteens of a hand depend on its cards' values only,
    whatever their order). A key of classes in order is seldom met twice, and one card's test is cheaper
    done than looked up."""
    hit = _PLANS.get(id(spec))
    if hit is not None and hit[0]() is spec:
        return hit[1]
    for k in [k for k, (ref, _) in _PLANS.items() if ref() is None]:
        _PLANS.pop(k, None)
    pure = pure_functions(spec)
    outside = called_outside(spec, pure)
    a = _Projection({g.name: g for g in spec.functions})
    plan: dict[str, tuple[str, ...] | None] = {}
    for f in spec.functions:
        if f.name not in pure or f.body is None or _cheap(f.body):
            continue
        proj = _projection(spec, f, a)
        if f.name in outside or proj is not None and any(
                kind == T.list_of(T.CARD) for p, kind in card_params(f).items() if p in order_free_params(spec, f)):
            plan[f.name] = proj
    _PLANS[id(spec)] = (weakref.ref(spec), plan)
    return plan


def class_tables(spec: GameSpec) -> list[tuple[str, ...]]:
    """The sets of card attributes memo keys are projected on, in a fixed order: the engine builds table
    `abi.card_class(i)` for the i-th (each card's class: cards alike in those attributes share one)."""
    return sorted({p for p in memo_plan(spec).values() if p is not None})
