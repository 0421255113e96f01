"""How the checker types calls: library functions by their signature, `define:` functions by
checking their body with the types of the arguments.

A `define:` function has no declared parameter types, so its body is checked at a call with that
call's argument types, once per distinct signature (the result is cached). Three bounds keep this
finite and fast on any file:

* at most MAX_SIGNATURES signatures per function; further calls share one check of the body with
  every parameter of unknown type (`any`);
* argument and result types are cut at TYPE_DEPTH levels of lists (`types.bounded`), so
  brackets added along a chain of calls cannot make new signatures without end;
* expressions may nest at most `4 * limits.expr_depth` levels deep counting the bodies of the
  functions they call (`analysis.nesting_depths`, C036 at the call that goes too deep), so the
  checker's own recursion is bounded whatever the file.

AST nodes of a body are shared by all its checks, and each check writes its types into them, so
after checking, `Checker.settle` re-annotates every function checked under several signatures
with the join of those signatures (see the contract in dsl/checker.py).
"""

from __future__ import annotations

from functools import reduce
from typing import Any

from . import ast as A
from . import refs as R
from . import types as T
from .check_context import CheckContext
from .diagnostics import Span
from .library import LIBRARY, Arg, LibFunc, Result
from .spec import FuncSpec
from .suggest import did_you_mean
from .text_order import keyed, refusal, refused

MAX_CALL_DEPTH = 100  # functions or procedures calling each other
MAX_SIGNATURES = 8  # distinct argument types checked per function
TYPE_DEPTH = 4  # levels of lists kept in the types of arguments and results


def _close(name: str, options: Any) -> str | None:
    return did_you_mean(name, options)  # bounded work per file, however many unknown names


def _args(n: int) -> str:
    return f"{n} argument{'' if n == 1 else 's'}"


class CallChecker(CheckContext):
    """Types calls: of the library (from its records' signatures) and of `define:` functions, each checked
    with the argument types of its calls."""

    # ------------------------------------------------------------ calls
    def _resolve(self, e: A.Call) -> FuncSpec | LibFunc | None:
        """What e calls (recorded in e.ref), or None after reporting why it cannot be called."""
        if self.local(e.func) is not None:
            self.err("C018", e.span, f"'{e.func}' is a value, not a function")
            return None
        if e.func in self.funcs:
            f = self.funcs[e.func]
            e.ref = R.UserFunction(f)
            if len(e.args) != len(f.params):
                self.err("C010", e.span, f"'{f.name}' takes {_args(len(f.params))}, got {len(e.args)}")
                return None
            return f
        lib = LIBRARY.get(e.func)
        if lib is None and (e.func in self.spec.broken or "define" in self.spec.malformed):
            for a in e.args:
                self._arg(a)
            return None
        if lib is None:
            self.err("C009", e.span, f"unknown function '{e.func}'",
                     _close(e.func, list(LIBRARY) + list(self.funcs)) or "see docs/language.md for the library")
            for a in e.args:
                self._arg(a)
            return None
        e.ref = R.Library(lib)
        if not lib.min_args <= len(e.args) <= lib.max_args:
            n = _args(lib.min_args) if lib.min_args == lib.max_args else f"{lib.min_args} to {lib.max_args} arguments"
            self.err("C010", e.span, f"'{lib.name}' takes {n}, got {len(e.args)}")
            return None
        return lib

    def _arg(self, a: A.Expr) -> T.Type:
        # Inlined where calls nest deeply (`self.expr(a) if not isinstance(a, A.Lambda) else ...`):
        # every frame per level of nesting counts against Python's stack.
        if isinstance(a, A.Lambda):
            self.err("C017", a.span, "a function 'x => ...' can only be an argument of max_by, sort_by, ...")
            return T.ANY
        return self.expr(a)

    def _lambda(self, a: A.Expr, param: T.Type) -> T.Type:
        if not isinstance(a, A.Lambda):
            self.err("C017", a.span, "expected a function here, written 'x => expression'")
            self.expr(a)
            return T.ANY
        self.nesting += 1  # the lambda is a level of its own (analysis.nesting_depths counts it)
        try:
            with self.scope({}):
                self.declare(a.param, param, a.span)
                t = self.expr(a.body)
        finally:
            self.nesting -= 1
        a.ty = T.Fn(param, t)
        return t

    def visit_Call(self, e: A.Call) -> T.Type:
        # One frame between a call and its arguments' checks: calls nest deeply.
        lib = self._resolve(e)
        if lib is None:
            return T.ANY
        if isinstance(lib, FuncSpec):
            ats = []
            for a in e.args:  # a loop, not a comprehension: a comprehension is one more frame
                ats.append(self.expr(a) if not isinstance(a, A.Lambda) else self._arg(a))
            return self.user_call(lib, ats, e.span)
        sig = lib.signature
        args = e.args
        if sig.variadic:
            if len(args) == 1:
                t = self.expr(args[0]) if not isinstance(args[0], A.Lambda) else self._arg(args[0])
                if not T.is_list(t) and t != T.ANY:
                    self.err("C029", args[0].span, f"'{lib.name}' of one value needs a list, not {T.show(t)}")
                    return T.ANY
                if r := refused(self.spec, args[0]):
                    self.err("C041", e.span, *refusal(f"'{lib.name}'", *r))
                return T.elem(t)
            out: T.Type = T.NONE
            for a in args:
                t = self.expr(a) if not isinstance(a, A.Lambda) else self._arg(a)
                if T.is_list(t) or (t not in T.NUMERIC and t not in (T.ANY, T.NONE)):
                    self.err("C029", a.span, f"'{lib.name}' of several values needs numbers, not {T.show(t)}")
                out = T.join(out, t)
            return out
        params = sig.params
        lt: T.Type = T.ANY
        for i, a in enumerate(args):
            k = params[i].kind
            if k.is_function:
                rt = self._lambda(a, T.elem(lt))
                if k is Arg.PREDICATE:
                    self.want(a, rt, T.BOOL, f"the function given to '{lib.name}'")
                elif keyed(lib.name) and isinstance(a, A.Lambda) and (r := refused(self.spec, a.body)):
                    self.err("C041", a.body.span, *refusal(f"the key of '{lib.name}'", *r, keyed=True))
                continue
            t = self.expr(a) if not isinstance(a, A.Lambda) else self._arg(a)
            if k.is_list:
                lt = t
                if not T.is_list(t) and t != T.ANY:
                    self.err("C029", a.span, f"'{lib.name}' needs a list, not {T.show(t)}")
                    lt = T.list_of(T.ANY)
                elif k is Arg.NUMBERS and not T.compatible(T.elem(t), T.NUM):
                    self.err("C029", a.span, f"'{lib.name}' needs a list of numbers, not {T.show(t)}")
                elif k is Arg.BOOLS and not T.compatible(T.elem(t), T.BOOL):
                    self.err("C029", a.span, f"'{lib.name}' needs a list of true/false, not {T.show(t)}")
                elif k is Arg.LISTS and not T.is_list(T.elem(t)) and T.elem(t) != T.ANY:
                    self.err("C029", a.span, f"'{lib.name}' needs a list of lists, not {T.show(t)}")
            else:
                want = T.elem(lt) if k is Arg.ITEM else _ARG_TYPES[k]
                self.want(a, t, want, f"argument {i + 1} of '{lib.name}'")
        if lib.name == "sort" and (r := refused(self.spec, args[0])):
            self.err("C041", e.span, *refusal("'sort'", *r))
        return _result(sig.result, lt, args)

    # ------------------------------------------------------------ define: functions
    def user_call(self, f: FuncSpec, arg_types: list[T.Type], span: Span, root: bool = False) -> T.Type:
        """The result type of calling f with these argument types, checking its body if needed.
        `root`: f is checked on its own (never called, or without parameters), not at a call."""
        if self.settling:
            return self.results.get(f.name, T.ANY)
        if not root:
            d = self.depths.get(f.name, 0)
            if d > self.max_nesting:
                self.skipped.append((span, f.name))
                return T.ANY  # too deep on its own: reported inside f, which is checked by itself
            if self.nesting + d > self.max_nesting:
                self.err("C036", span, f"expressions nest more than {self.max_nesting} levels deep here, counting "
                         f"the body of '{f.name}' and of the functions it calls",
                         "compute a part first with 'let', or flatten the chain of functions; if the file is "
                         "trusted, --max-expr-depth N raises the limit to 4N")
                return T.ANY
        ats = tuple(T.bounded(t, TYPE_DEPTH) for t in arg_types)
        key = (f.name, ats)
        if key in self.func_cache:
            return self.func_cache[key]
        if f.name in self.call_stack:
            self.err("C011", span, f"function '{f.name}' calls itself",
                     "functions may not be recursive, so every rule ends")
            return T.ANY
        if f.body is None:
            return T.ANY
        sigs = self.signatures.setdefault(f.name, [])
        if len(sigs) >= MAX_SIGNATURES:
            # Enough kinds of argument: one check with unknown parameters serves every other call.
            ats = (T.ANY,) * len(f.params)
            key = (f.name, ats)
            if key in self.func_cache:
                return self.func_cache[key]
        if len(self.call_stack) >= MAX_CALL_DEPTH:
            self.err("C036", span, f"functions call each other more than {MAX_CALL_DEPTH} deep",
                     "flatten the chain of functions")
            return T.ANY
        self.call_stack.append(f.name)
        saved = self.scopes
        self.scopes = [dict(zip(f.params, ats))]
        try:
            t = T.bounded(self.expr(f.body), TYPE_DEPTH)
        finally:
            self.scopes = saved
            self.call_stack.pop()
        sigs.append(ats)
        self.func_cache[key] = t
        self.results[f.name] = T.join(self.results.get(f.name, T.NONE), t)
        return t

    def settle(self) -> None:
        """Leave in every function body the types that hold for all of its calls: a body checked
        under several signatures is annotated once more under their join (per parameter; `any`
        where they disagree). That pass reports nothing (each signature was checked precisely)
        and does not enter callees: a call's type there is the join of the callee's results."""
        saved = (self.diags, self._seen, self.scopes)
        self.diags, self._seen, self.settling = [], set(), True
        try:
            for f in self.spec.functions:
                sigs = self.signatures.get(f.name, [])
                if f.body is None or len(sigs) < 2:
                    continue
                joined = tuple(reduce(T.join, column) for column in zip(*sigs))
                if joined == sigs[-1]:
                    continue  # the last check, whose types the nodes hold, was already this one
                self.scopes = [dict(zip(f.params, joined))]
                self.expr(f.body)
        finally:
            self.diags, self._seen, self.scopes = saved
            self.settling = False


_ARG_TYPES: dict[Arg, T.Type] = {Arg.INT: T.INT, Arg.NUM: T.NUM, Arg.PLAYER: T.PLAYER, Arg.CARD: T.CARD,
                                 Arg.BOOL: T.BOOL, Arg.ANY: T.ANY}
_RESULT_TYPES: dict[Result, T.Type] = {
    Result.INT: T.INT, Result.NUM: T.NUM, Result.PLAYER: T.PLAYER, Result.BOOL: T.BOOL,
    Result.INTS: T.list_of(T.INT), Result.PLAYERS: T.list_of(T.PLAYER)}


def _result(r: Result, lt: T.Type, args: list[A.Expr]) -> T.Type:
    """The type of a library call's value: `lt` is the type of its list argument."""
    if r is Result.ITEM:
        return T.elem(lt)
    if r is Result.SUM:
        return T.INT if T.elem(lt) in (T.INT, T.PLAYER) else T.NUM
    if r is Result.LIST:
        return lt
    if r is Result.FLAT:  # a list of lists of X is a list of X
        return T.elem(lt) if T.is_list(T.elem(lt)) else T.list_of(T.ANY)
    if r is Result.LISTS:
        return T.list_of(lt)
    if r is Result.SAME_NUMBER:
        t = args[0].ty
        return t if t is not None and (t == T.INT or t == T.NUM) else T.NUM
    return _RESULT_TYPES[r]
