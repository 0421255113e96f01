"""The lowering of calls: `define` functions and the library (dsl/library.py), one IR node per library
function the native backend covers; any other is refused by name (`Unsupported`)."""

from __future__ import annotations

from typing import Any

from ..dsl import ast as A
from ..dsl import refs as R
from ..dsl import types as T
from .ir import IR, Frame, Unsupported, item_kind

# Library functions whose IR is (name, kind, *the arguments' IR) with the kind of the result.
SIMPLE = {"len": "i", "first": "i", "last": "i", "sort": "l", "reverse": "l", "unique": "l", "top": "l",
          "bottom": "l", "index_of": "i", "range": "l", "teammates": "l", "next_active": "i",
          "is_active": "i", "sitting_out": "i"}


def nn(e: A.Expr, x: IR) -> IR:
    """An operand of arithmetic that may be `none` (a player or a card): the wrong kind of value there."""
    return ("nn", "i", x) if x[1] == "i" and e.ty in (T.PLAYER, T.CARD) else x


class CallsMixin:
    """Part of `Lowering` (lower.py): what it reads of it is declared here."""

    n: int
    frame: Frame
    funcs: list[Any]

    def ex(self, e: A.Expr) -> IR:
        raise NotImplementedError

    def conv(self, x: IR, k: str) -> IR:
        raise NotImplementedError

    def func(self, spec: Any, kinds: list[str]) -> int:
        raise NotImplementedError

    def fold(self, how: str, arg: A.Expr, lam: A.Expr | None = None) -> IR:
        """A fold of a list (a comprehension's parts folded in): (fold, ty, how, slot, iter, cond, elem)."""
        if isinstance(arg, A.Comp) and lam is None:
            it = self.ex(arg.iter)
            old = self.frame.scoped(arg.var)
            k = item_kind(it)
            slot = self.frame.new(arg.var, k)
            cond = self.ex(arg.cond) if arg.cond is not None else None
            elem = self.ex(arg.elem)
            self.frame.restore(arg.var, old)
        else:
            it = self.ex(arg)
            k = item_kind(it)
            if lam is not None:
                assert isinstance(lam, A.Lambda)
                old = self.frame.scoped(lam.param)
                slot = self.frame.new(lam.param, k)
                body = self.ex(lam.body)
                self.frame.restore(lam.param, old)
            else:
                slot = self.frame.new(f"_f{id(arg)}", k)
                body = ("loc", k, slot)
            cond, elem = None, body
            if how == "count":  # each item that passes the test, or, without one, each item (library_impl)
                cond, elem = (body if lam is not None else None), ("ci", "i", 1)
        if elem[1] not in ("i", "f") and not (how.endswith("_by") and how != "sort_by" and elem[1] in ("l", "F")):
            raise Unsupported(f"{how}() of lists")  # lists are keys of max_by and the like only
        ty = "i"
        if how in ("sum", "max", "min"):
            ty = elem[1]
        elif how in ("max_by", "min_by"):
            ty = k
        elif how in ("all_max_by", "all_min_by", "sort_by"):
            ty = {"i": "l", "l": "L", "L": "P"}[k]
        return ("fold", ty, how, (k, slot), it, cond, elem)

    def x_Call(self, e: A.Call) -> IR:
        ref = e.ref
        if isinstance(ref, R.UserFunction):
            lowered = [self.ex(a) for a in e.args]
            fi = self.func(ref.spec, [a[1] for a in lowered])
            return ("call", self.funcs[fi].ret, fi, lowered)
        f, args = e.func, e.args
        if f in ("any", "all", "sum", "max", "min") and len(args) == 1:
            return self.fold(f, args[0])
        if f == "count":
            return self.fold("count", args[0], args[1] if len(args) > 1 else None)
        if f in ("max_by", "min_by", "all_max_by", "all_min_by", "sort_by"):
            return self.fold(f, args[0], args[1])
        if f == "played_by":
            return ("by", "i", self.ex(args[0]))
        if f in ("left", "right"):  # `(p + 1) % N`: `none` is the wrong kind of value there
            step = 1 if f == "left" else self.n - 1
            return ("mod", "i", ("add", "i", ("nn", "i", self.ex(args[0])), ("ci", "i", step)), ("ci", "i", self.n))
        if f in ("min", "max"):
            xs = [self.ex(a) for a in args]
            k = "f" if any(x[1] == "f" for x in xs) else "i"
            if "l" in (x[1] for x in xs):
                raise Unsupported(f"{f}() of lists")
            out = self.conv(xs[0], k)
            for x in xs[1:]:
                out = ("min2" if f == "min" else "max2", k, out, self.conv(x, k))
            return out
        if f == "abs":
            a = self.ex(args[0])
            return ("abs", a[1], a)
        if f in ("floor", "ceil"):
            return (f, "i", self.conv(self.ex(args[0]), "f"))
        if f in ("subsets", "combinations"):
            xs = [self.ex(a) for a in args]
            if xs[0][1] != "l":
                raise Unsupported(f"{f}() of lists of lists")
            return (f, "L", *xs)
        if f == "flatten":
            x = self.ex(args[0])
            if x[1] not in ("L", "P"):
                raise Unsupported("flatten() of a list of no lists")
            return (f, item_kind(x), x)
        if f == "packings":
            x = self.ex(args[0])
            if x[1] != "L":
                raise Unsupported("packings() of lists of lists of lists")
            return (f, "P", x)
        if f in SIMPLE:
            xs = [self.ex(a) for a in args]
            if f in ("len", "first", "last", "index_of", "reverse", "top", "bottom") and xs[0][1] != "l":
                if xs[0][1] in ("L", "P") and f in ("len", "first", "last", "index_of"):
                    return (f, "i" if f in ("len", "index_of") else item_kind(xs[0]), *xs)
                raise Unsupported(f"{f}() of a text or of lists of lists")
            return (f, SIMPLE[f], *xs)
        raise Unsupported(f"library function {f}")
