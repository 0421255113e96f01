"""Analyses of checked expressions, for the checker and the compiler.

Every walk here is iterative, or follows calls and nesting only to a fixed depth, and everything
that follows calls is memoized: a rule file can hold tens of thousands of functions calling each
other with expressions nested to the parser's limit, and none of these may take more than linear-ish
time or raise RecursionError. Answers cut short by a bound are the conservative ones ("dep", not
pure), which only cost speed.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from . import ast as A
from . import refs as R
from . import types as T
from .diagnostics import Span
from .library import names
from .spec import FuncSpec, GameSpec

STATEFUL_BUILTINS = {"active_players", "dealer", "current", "player", "deal_number", "turns", "team", "teams",
                     "phase"}
STATEFUL_LIBRARY = names(lambda f: f.stateful)


# ---------------------------------------------------------------- nesting through calls
def nesting_depths(functions: list[FuncSpec]) -> dict[str, int]:
    """For each function, how deep its body nests, counting the bodies of the functions it calls
    (a call at level k of a body adds the callee's depth from level k + 1). Calls are recognised by
    name, before checking; a cycle (an error, C011) is cut where it closes."""
    funcs = {f.name: f for f in functions if f.body is not None}
    own: dict[str, int] = {}
    calls: dict[str, list[tuple[int, str]]] = {}
    for name, f in funcs.items():
        assert f.body is not None
        best = 0
        found: list[tuple[int, str]] = []
        stack: list[tuple[A.Expr, int]] = [(f.body, 1)]
        while stack:
            n, level = stack.pop()
            best = max(best, level)
            if isinstance(n, A.Call) and n.func in funcs:
                found.append((level, n.func))
            stack.extend((c, level + 1) for c in list(n.iter_child_nodes()))
        own[name], calls[name] = best, found
    depth: dict[str, int] = {}
    callees = {name: [c for _, c in found] for name, found in calls.items()}
    for name in _postorder(funcs, callees.__getitem__):
        depth[name] = max([own[name]] + [lvl + depth.get(c, 0) for lvl, c in calls[name]])
    return depth


def _postorder(roots: Iterable[str], callees: Callable[[str], list[str]]) -> Iterator[str]:
    """Every function reachable from `roots`, each after the functions it calls (a call back into a
    function on the current path, a recursion the checker refuses elsewhere, is cut). Iterative: a rule
    file's call chains may be longer than Python's recursion limit."""
    seen: set[str] = set()  # on the path or done: either way not entered again
    for root in roots:
        if root in seen:
            continue
        path: list[tuple[str, int]] = [(root, 0)]
        seen.add(root)
        while path:
            name, i = path[-1]
            todo = callees(name)
            if i < len(todo):
                path[-1] = (name, i + 1)
                if todo[i] not in seen:
                    seen.add(todo[i])
                    path.append((todo[i], 0))
                continue
            path.pop()
            yield name


# ---------------------------------------------------------------- shuffles
def step_lists(spec: GameSpec) -> Iterator[list[A.Stmt]]:
    """Every block of steps of a rule file: procedures, effects, phase blocks and the match's."""
    for pr in spec.procedures:
        yield pr.body
    for a in spec.actions:
        yield a.effect
    for ph in spec.phases:
        yield from (ph.start, ph.after, ph.end)
    m = spec.match
    yield from (m.start, m.deal, m.end_deal)


def shuffled_zones(spec: GameSpec) -> frozenset[str]:
    """The zones some `shuffle` step names: in a state without a seed their cards may be in no order yet
    (interpreter/engine/chance.py), so code that reads their order must have it decided first."""
    out: set[str] = set()
    for steps in step_lists(spec):
        for st in steps:
            out.update(n.zone.name for n in A.walk(st) if isinstance(n, A.Shuffle))
    return frozenset(out)


# ---------------------------------------------------------------- state
def _direct_read(n: A.Expr, with_pack: bool) -> str | None:
    """What `n` reads of a match in progress, as words ("read zone 'pile'"), or None."""
    if isinstance(n, A.Name):
        ref = n.ref
        if isinstance(ref, R.Variable):
            return f"read variable '{ref.spec.name}'"
        if isinstance(ref, R.Zone):
            return f"read zone '{ref.spec.name}'"
        if isinstance(ref, R.Builtin) and (ref.name in STATEFUL_BUILTINS or (with_pack and ref.name == "pack")):
            return f"read '{ref.name}'"
    if isinstance(n, A.Call) and isinstance(n.ref, R.Library) and n.func in STATEFUL_LIBRARY:
        return f"call '{n.func}'"
    return None


def state_reads(e: A.Expr, with_pack: bool = True) -> list[tuple[Span, str]]:
    """Every place in `e` (not in the functions it calls) that reads the state, in file order."""
    out = []
    for n in A.walk(e):
        what = _direct_read(n, with_pack)
        if what is not None:
            out.append((n.span, what))
    return sorted(out, key=lambda x: (x[0].line, x[0].col))


def _callers(functions: list[FuncSpec]) -> dict[str, set[str]]:
    """For each function, the functions whose bodies call it (after checking)."""
    out: dict[str, set[str]] = {}
    for f in functions:
        if f.body is not None:
            for n in A.walk(f.body):
                if isinstance(n, A.Call) and isinstance(n.ref, R.UserFunction):
                    out.setdefault(n.func, set()).add(f.name)
    return out


def function_state_reads(functions: list[FuncSpec], with_pack: bool = True) -> dict[str, tuple[str, list[str]]]:
    """For each function that reads the state, directly or through the functions it calls: what
    it reads first, and the shortest chain of callees that leads there."""
    out: dict[str, tuple[str, list[str]]] = {}
    for f in functions:
        reads = state_reads(f.body, with_pack) if f.body is not None else []
        if reads:
            out[f.name] = (reads[0][1], [])
    _spread(out, _callers(functions))
    return out


def _spread(out: dict[str, tuple[str, list[str]]], callers: dict[str, set[str]]) -> None:
    """Give every caller of a function in `out` an entry too, breadth first (shortest chains)."""
    queue = list(out)
    for g in queue:
        what, via = out[g]
        for c in sorted(callers.get(g, ())):
            if c not in out:
                out[c] = (what, [g] + via)
                queue.append(c)


def pure_functions(spec: GameSpec) -> set[str]:
    """Functions whose result depends only on their arguments (no zone, variable or turn)."""
    a = _analysis(spec)
    if a.pure is None:
        a.pure = _pure(spec)
    return set(a.pure)


def _pure(spec: GameSpec) -> set[str]:
    impure = function_state_reads(spec.functions, with_pack=False)
    for f in spec.functions:
        if f.body is None:
            impure.setdefault(f.name, ("have no body", []))
    _spread(impure, _callers(spec.functions))
    return {f.name for f in spec.functions} - set(impure)


# ---------------------------------------------------------------- order analysis
# Is a function's value independent of the order of a list argument?
# "free": does not depend on the order; "bag": a list whose items (not order) are fixed; "bags": a list of
# lists whose items are bags and which is itself a bag of them (the subsets of a bag: which sublists there
# are is fixed, not their order nor the order inside each); "dep": anything else. Each kind includes the
# ones before it (a fixed list is a bag), so a value that may be either is the later one (`_worst`).
# What each library function gives of a bag, or of a bag of bags, is its record's `of_bag` and `of_bags`.
_KINDS = ("free", "bag", "bags", "dep")
ORDER_DEPTH = 150  # expression levels followed, through calls, before answering "dep"
ORDER_KINDS = 8  # distinct argument kinds followed into one function


class _Order(A.StrictVisitor):
    """What a function's value (or an expression's) keeps of the order of its list arguments: one of
    `_KINDS`, for the kinds of the local names in scope (`env`)."""

    covers = (A.Expr,)

    def __init__(self, funcs: dict[str, Any]):
        self.funcs = funcs
        self.memo: dict[tuple[str, tuple[str, ...]], str] = {}
        self.tried: dict[str, int] = {}
        self.active: set[str] = set()
        self.depth = 0
        self.cut = False  # the depth cut an answer short since the innermost call began
        self.pure: set[str] | None = None  # pure_functions, once computed

    def call(self, name: str, kinds: tuple[str, ...], top: bool = False) -> str:
        key = (name, kinds)
        if key in self.memo:
            return self.memo[key]
        g = self.funcs.get(name)
        if g is None or g.body is None or len(g.params) != len(kinds) or name in self.active:
            return "dep"
        if not top:
            if self.tried.get(name, 0) >= ORDER_KINDS:
                return "dep"
            self.tried[name] = self.tried.get(name, 0) + 1
        self.active.add(name)
        outer_cut, self.cut = self.cut, False
        try:
            r = "free" if self.kind(g.body, dict(zip(g.params, kinds))) == "free" else "dep"
        finally:
            self.active.discard(name)
        if not self.cut:  # an answer cut short by the depth may be better from a shallower call
            self.memo[key] = r
        self.cut = self.cut or outer_cut
        return r

    def kind(self, e: A.Expr, env: dict[str, str]) -> str:
        if self.depth >= ORDER_DEPTH:
            self.cut = True
            return "dep"
        self.depth += 1
        try:
            return self._kind(e, env)
        finally:
            self.depth -= 1

    def _kind(self, e: A.Expr, env: dict[str, str]) -> str:
        return (self._methods.get(type(e)) or self.method(type(e)))(self, e, env)  # type: ignore[no-any-return]

    def visit_Const(self, e: A.Const, env: dict[str, str]) -> str:
        return "free"

    def visit_Name(self, e: A.Name, env: dict[str, str]) -> str:
        return env.get(e.id, "free") if isinstance(e.ref, R.Local) else "free"

    def visit_Comp(self, e: A.Comp, env: dict[str, str]) -> str:
        it = self.kind(e.iter, env)
        # An item of a bag is a fixed value; an item of a bag of bags is a bag.
        inner = {**env, e.var: "bag" if it == "bags" else "free"}
        elem = self.kind(e.elem, inner)
        if it == "dep" or elem not in ("free", "bag") or (
                e.cond is not None and self.kind(e.cond, inner) != "free"):
            return "dep"
        # Bags made of the items, or the items' own values: a bag of them unless the list was fixed.
        return "bags" if elem == "bag" else "free" if it == "free" else "bag"

    def visit_Call(self, e: A.Call, env: dict[str, str]) -> str:
        first = self.kind(e.args[0], env) if e.args and not isinstance(e.args[0], A.Lambda) else "free"
        item = "bag" if first == "bags" else "free"  # what a `x => ...` function is given
        kinds = [first] + [self.kind(a.body, {**env, a.param: item}) if isinstance(a, A.Lambda)
                           else self.kind(a, env) for a in e.args[1:]]
        if all(k == "free" for k in kinds):
            return "free"
        if "dep" in kinds:
            return "dep"
        if isinstance(e.ref, R.Library):
            if any(k != "free" for k in kinds[1:]):
                return "dep"  # the order reaches a second argument or a function's value
            lib = e.ref.spec
            if first == "bags":
                return lib.of_bags
            if lib.signature.variadic and len(e.args) != 1:
                return "dep"  # max(a, b, ...): the order reaches a second argument
            return lib.of_bag
        if isinstance(e.ref, R.UserFunction):
            return self.call(e.func, tuple(kinds))
        return "dep"

    def visit_Compare(self, e: A.Compare, env: dict[str, str]) -> str:
        kinds = [self.kind(x, env) for x in [e.first] + [r for _, r in e.rest]]
        if all(k == "free" for k in kinds):
            return "free"
        # `x in bag` does not care about order; anything else compared with a bag does.
        if len(e.rest) == 1 and e.rest[0][0] in ("in", "notin") and kinds[0] == "free" and kinds[1] == "bag":
            return "free"
        return "dep"

    def visit_BinOp(self, e: A.BinOp, env: dict[str, str]) -> str:
        kl, kr = self.kind(e.left, env), self.kind(e.right, env)
        if e.op == "+" and T.is_list(e.ty):
            return _worst(kl, kr)  # joined lists: their items together
        return "free" if kl == kr == "free" else "dep"

    def visit_Let(self, e: A.Let, env: dict[str, str]) -> str:
        local = dict(env)
        for name, val in e.bindings:
            local[name] = self.kind(val, local)
        return self.kind(e.body, local)

    def visit_IfExpr(self, e: A.IfExpr, env: dict[str, str]) -> str:
        kinds = [self.kind(c, env) for c in (e.cond, e.then, e.other)]
        if kinds[0] == "free" and "dep" not in kinds[1:]:
            return _worst(*kinds[1:])
        return "free" if all(k == "free" for k in kinds) else "dep"

    def _all_free(self, e: A.Expr, env: dict[str, str]) -> str:
        """A value of its operands, each wholly: independent of the order only if each of them is."""
        kinds = [self.kind(c, env) for c in e.iter_child_nodes()]
        return "free" if all(k == "free" for k in kinds) else "dep"

    visit_BoolOp = visit_Not = visit_Neg = visit_Attr = visit_Index = visit_ListLit = _all_free

    def _dep(self, e: A.Expr, env: dict[str, str]) -> str:
        return "dep"

    # A function on its own is the argument of no call here; an inlined body is made after this analysis.
    visit_Lambda = visit_Inline = _dep


def _worst(*kinds: str) -> str:
    return max(kinds, key=_KINDS.index)


# One analysis per (checked) spec, shared by all its functions: a function called from many others
# is analysed once per kind of argument, not once per caller, and purity is worked out once.
_ANALYSES: dict[int, tuple[weakref.ref[GameSpec], _Order]] = {}


def _analysis(spec: GameSpec) -> _Order:
    hit = _ANALYSES.get(id(spec))
    if hit is not None and hit[0]() is spec:
        return hit[1]
    for k in [k for k, (ref, _) in _ANALYSES.items() if ref() is None]:
        _ANALYSES.pop(k, None)
    a = _Order({g.name: g for g in spec.functions})
    _ANALYSES[id(spec)] = (weakref.ref(spec), a)
    return a


def order_free_params(spec: GameSpec, f: Any) -> set[str]:
    a = _analysis(spec)
    out = set()
    for p in f.params:
        if f.body is not None and a.call(f.name, tuple("bag" if q == p else "free" for q in f.params),
                                         top=True) == "free":
            out.add(p)
    return out


# ---------------------------------------------------------------- small walks
def _conjuncts(e: A.Expr) -> list[A.Expr]:
    out: list[A.Expr] = []
    stack = [e]
    while stack:
        n = stack.pop()
        if isinstance(n, A.BoolOp) and n.op == "and":
            stack.extend(reversed(n.values))
        else:
            out.append(n)
    return out


def _locals_used(e: A.Expr) -> set[str]:
    """Local names read anywhere in e (over-approximated: shadowing is ignored)."""
    return {n.id for n in A.walk(e) if isinstance(n, A.Name) and isinstance(n.ref, R.Local)}


def _cheap(e: A.Expr) -> bool:
    """True if an expression is too cheap to be worth memoizing (no loops, no calls that loop)."""
    for n in A.walk(e):
        if isinstance(n, A.Comp | A.Lambda | A.Let):
            return False
        if isinstance(n, A.Call) and not (isinstance(n.ref, R.Library) and n.ref.spec.cheap):
            return False
    return True


def called_outside(spec: GameSpec, pure: set[str]) -> set[str]:
    """Names of user functions called somewhere other than inside a pure function."""
    found: set[str] = set()
    seen: set[int] = set()
    stack: list[Any] = [spec]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, A.Call) and isinstance(obj.ref, R.UserFunction):
            found.add(obj.func)
        if isinstance(obj, (list, tuple)):
            stack.extend(x for x in obj if isinstance(x, (list, tuple)) or hasattr(x, "__dataclass_fields__"))
        elif hasattr(obj, "__dataclass_fields__"):
            if isinstance(obj, FuncSpec) and obj.name in pure and isinstance(obj.body, A.Expr):
                continue  # the body of a pure function
            for name in obj.__dataclass_fields__:
                if name not in ("ty", "ref", "span"):
                    v = getattr(obj, name)
                    if isinstance(v, (list, tuple)) or hasattr(v, "__dataclass_fields__"):
                        stack.append(v)
    return found


def _static(e: A.Expr) -> bool:
    """True if the expression's value is fixed for a whole game (no state)."""
    stack = [e]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Const):
            continue
        if isinstance(n, A.Name):
            if not (isinstance(n.ref, R.Option | R.Constant) or n.ref == R.Builtin("num_players")):
                return False
        elif isinstance(n, A.BinOp | A.Neg | A.IfExpr | A.Compare | A.Index):
            stack.extend(list(n.iter_child_nodes()))
        else:
            return False
    return True


# ---------------------------------------------------------------- options read through calls
def latest_options(functions: list[FuncSpec], order: dict[str, int]) -> dict[str, tuple[int, str, str | None]]:
    """For each function that reads an option, directly or through the functions it calls: the one listed
    last (its position in `order`, its name) and the callee it is read through (None: its own body).

    An option is worked out when the table is set up, in the order the options are listed, so a default
    or a bound may call a function only if everything the function reads is already set. Follows checked
    calls (`Call.ref`); a cycle (an error, C011) is cut where it closes. One walk of every body, then one
    visit of every call: linear."""
    funcs = {f.name: f for f in functions if f.body is not None}
    own: dict[str, tuple[int, str, str | None]] = {}
    calls: dict[str, list[str]] = {}
    for name, f in funcs.items():
        assert f.body is not None
        found: dict[str, None] = {}
        for n in A.walk(f.body):
            if isinstance(n, A.Name) and isinstance(n.ref, R.Option) and n.id in order:
                if name not in own or order[n.id] > own[name][0]:
                    own[name] = (order[n.id], n.id, None)
            elif isinstance(n, A.Call) and isinstance(n.ref, R.UserFunction) and n.func in funcs:
                found[n.func] = None
        calls[name] = list(found)
    out: dict[str, tuple[int, str, str | None]] = {}
    for name in _postorder(funcs, calls.__getitem__):
        best = own.get(name)
        for g in calls[name]:
            hit = out.get(g)
            if hit is not None and (best is None or hit[0] > best[0]):
                best = (hit[0], hit[1], g)
        if best is not None:
            out[name] = best
    return out


def through(reads: dict[str, tuple[int, str, str | None]], name: str, limit: int = 4) -> list[str]:
    """The callees between function `name` and the option `latest_options` says it reads, first ones first."""
    chain: list[str] = []
    via = reads[name][2]
    while via is not None and via not in chain and len(chain) < limit:
        chain.append(via)
        via = reads[via][2] if via in reads else None
    return chain
