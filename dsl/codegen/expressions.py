"""Expressions: the Python code of one checked expression, with the step budget's charges and the checks
the checker's types could not make unnecessary.

This is the half of code generation that returns text rather than writing lines (only the charges of a
walk in statement context, `_charge_line` and `_walked`, write), so a scenario's probe (`compile_probe`)
can compile one expression with no module around it. The state it keeps is only what expressions share
across one module: the writer, the inliner and its depth, the sub-expressions kept in locals while a loop
or a body is compiled, and the counter that makes local names unique.
"""

from __future__ import annotations

import string
from collections.abc import Iterator
from contextlib import contextmanager

from .. import abi, weights
from .. import ast as A
from .. import refs as R
from .. import types as T
from ..diagnostics import Span
from ..library import Cost, LibFunc, names
from ..optimize import INLINE_DEPTH, Inliner
from .charges import hoisted
from .writer import CLOSE, END, MID, OPEN, POP, PUSH, _Writer, plain

# Nodes whose code cannot fail (a constant, a name, a lambda itself) or that are placed otherwise (an inlined
# body has lines of its own): not marked for the positions map.
_UNMARKED = (A.Const, A.Name, A.Lambda, A.Inline)
# Library functions of one list that read every item of it (charged for the items).
WALKS = names(lambda f: f.cost in (Cost.WALK, Cost.WALK_NESTED))
# Library functions whose result may be much larger than their input (charged for what they build).
BUILDS = names(lambda f: f.cost is Cost.BUILD)
_FIELDS = string.Formatter()


def _numeric_kind(t: T.Type | None) -> bool:
    """A value of this type may carry a number (or any value) into a function."""
    if T.is_list(t):
        return _numeric_kind(T.elem(t))
    return t in (T.INT, T.NUM, T.PLAYER, T.ANY, T.NONE, None) or T.is_map(t)


def _takes_numbers(body: A.Expr, params: list[str]) -> bool:
    """True if a function's body reads a parameter that may hold numbers: only then can calls of it feed
    each other a growing number."""
    names = {p[2:] for p in params if p.startswith("l_")}
    return any(isinstance(n, A.Name) and n.ref == R.Local(n.id) and n.id in names and _numeric_kind(n.ty)
               for n in A.walk(body))


def _costly(t: T.Type | None) -> bool:
    """Comparing a value of this type may walk a list: a list, or a value of unknown type."""
    return T.is_list(t) or t == T.ANY


class ExpressionWriter(A.NodeVisitor):
    def __init__(self) -> None:
        self.w = _Writer()
        self.inliner: Inliner | None = None
        self.inline_depth = 0
        # While a condition of an action is compiled: sub-expressions kept once per loop (optimize.py),
        # by node id, and the local that keeps each, by the code it runs.
        self.cached: set[int] = set()
        self.cache_vars: dict[str, str] = {}
        self.uid = 0
        # Zones some `shuffle` names (analysis.shuffled_zones): in a state without a seed their order may not
        # be decided yet, so reading it goes through `_fz`, which decides it (interpreter/engine/chance.py).
        self.shuffled: frozenset[str] = frozenset()
        self._order_free: A.Expr | None = None  # a zone read whose order does not matter (`_unordered`)
        # Locals that hold a team number read from `teams` (a comprehension's or `for` step's variable
        # over it): the engine checked every team number when it was set, so `_team` need not again.
        self.team_vars: set[str] = set()
        # Comprehensions and library calls whose walk was charged before the expression ran (charges.py),
        # by node id, while the expression is compiled.
        self.precharged: set[int] = set()
        # While the list of a walk charged `w` per item is compiled: (its node id, w). A list whose own code
        # charges its items once (`range`, a join) takes the walk's charge into that one call (`_folded`).
        self.fold: tuple[int, int] | None = None

    def _zone_code(self, e: A.Expr, name: str, index: str) -> str:
        """The cards of zone `e`, in order: a shuffled zone's order is decided first."""
        if name in self.shuffled and e is not self._order_free:
            return f"_fz(s, {index})"
        return f"s.z[{index}]"

    def _unordered(self, e: A.Expr) -> str:
        """`e` where the order of a zone it names does not matter (how many cards, moving them all)."""
        self._order_free = e
        try:
            return self.ex(e)
        finally:
            self._order_free = None

    @staticmethod
    def _zone_named(e: A.Expr) -> str | None:
        """The zone `e` names (`stock`, `hand[p]`), or None."""
        if isinstance(e, A.Name) and isinstance(e.ref, R.Zone):
            return e.ref.spec.name
        if isinstance(e, A.Index) and isinstance(e.obj, A.Name) and isinstance(e.obj.ref, R.Zone) and \
                e.obj.ref.spec.per_player:
            return e.obj.ref.spec.name
        return None

    def _zone_index(self, e: A.Expr) -> str:
        """The code of the index into the state's zones of the zone `e` names."""
        name = self._zone_named(e)
        assert name is not None
        return f"{abi.zone(name)} + {self._seat(e.index)}" if isinstance(e, A.Index) else abi.zone(name)

    def ex(self, e: A.Expr) -> str:
        code = (self._methods.get(type(e)) or self.method(type(e)))(self, e)  # no frame spent on visit()
        if not isinstance(e, _UNMARKED):
            # Marked with its span: the writer records where this node's code stands (writer.OPEN).
            self.w.nodes.append(e.span)
            code = f"{OPEN}{len(self.w.nodes) - 1}{MID}{code}{CLOSE}"
        if self.cached and id(e) in self.cached:
            key = plain(code)  # the same code, whatever the marks, shares one local
            var = self.cache_vars.get(key)
            if var is None:
                # Numbered across the whole module: the loops of one action's parameters nest.
                self.uid += 1
                var = self.cache_vars[key] = f"_h{self.uid}"
            return f"({var} if {var} is not MISS else ({var} := {code}))"
        return code

    def generic_visit(self, node: A.Node) -> str:
        raise AssertionError(type(node))  # pragma: no cover  (every kind of expression has its method)

    def visit_Inline(self, e: A.Inline) -> str:
        self.w.marks.append(e.span)
        return f"({PUSH}{len(self.w.marks) - 1}{END}{self.ex(e.body)}{POP})"

    def visit_Const(self, e: A.Const) -> str:
        return repr(e.value)

    def visit_Attr(self, e: A.Attr) -> str:
        table = abi.card_table(e.name) if e.name in abi.CARD_FIELDS else abi.property_table(e.name)
        return f"{table}[{self._card(e.obj)}]"

    def visit_Index(self, e: A.Index) -> str:
        o = e.obj
        ref = o.ref if isinstance(o, A.Name) else None
        if isinstance(ref, R.Variable | R.Zone) and ref.spec.per_player:
            if isinstance(ref, R.Variable):
                return f"s.v[{abi.var(ref.spec.name)} + {self._seat(e.index)}]"
            return self._zone_code(e, ref.spec.name, f"{abi.zone(ref.spec.name)} + {self._seat(e.index)}")
        if isinstance(ref, R.Variable) and ref.spec.per_team:
            return f"s.v[{abi.var(ref.spec.name)} + {self._team(e.index)}]"
        if ref == R.Builtin("team"):
            return f"s.team[{self._seat(e.index)}]"
        return f"{self.ex(o)}[{self.ex(e.index)}]"

    def visit_Lambda(self, e: A.Lambda) -> str:
        with self.binding(e.param, over=None):
            return f"(lambda l_{e.param}: {self.ex(e.body)})"

    def visit_Let(self, e: A.Let) -> str:
        with self.binding(*[name for name, _ in e.bindings], over=None):
            out = self.ex(e.body)
        for k in range(len(e.bindings) - 1, -1, -1):
            name, val = e.bindings[k]
            # each value sees the names bound before it
            with self.binding(*[n for n, _ in e.bindings[:k]], over=None):
                out = f"(lambda l_{name}: {out})({self.ex(val)})"
        return out

    @contextmanager
    def binding(self, *names: str, over: A.Expr | None) -> Iterator[None]:
        """While code in the scope of new local `names` is written: a name bound to the items of `teams`
        (`over`) holds a checked team number; any other binding hides an outer one of that name."""
        saved = set(self.team_vars)
        is_teams = isinstance(over, A.Name) and over.ref == R.Builtin("teams")
        for name in names:
            if is_teams:
                self.team_vars.add(name)
            else:
                self.team_vars.discard(name)
        try:
            yield
        finally:
            self.team_vars = saved

    def visit_IfExpr(self, e: A.IfExpr) -> str:
        return f"({self.ex(e.then)} if {self.ex(e.cond)} else {self.ex(e.other)})"

    def visit_Compare(self, e: A.Compare) -> str:
        parts = [self._charged(e.first) if _costly(e.first.ty) else self.ex(e.first)]
        for op, r in e.rest:
            parts.append("not in" if op == "notin" else op)
            # `in` walks its list; comparing lists walks them: both charge the items
            parts.append(self._charged(r) if (op in ("in", "notin") or _costly(r.ty)) and id(r) not in self.precharged
                         else self.ex(r))
        return "(" + " ".join(parts) + ")"

    def visit_BoolOp(self, e: A.BoolOp) -> str:
        return "(" + f" {e.op} ".join(self.ex(v) for v in e.values) + ")"

    def visit_Not(self, e: A.Not) -> str:
        return f"(not {self.ex(e.value)})"

    def visit_Neg(self, e: A.Neg) -> str:
        return f"(-{self.ex(e.value)})"

    def visit_ListLit(self, e: A.ListLit) -> str:
        return "[" + ", ".join(self.ex(i) for i in e.items) + "]"

    def visit_Comp(self, e: A.Comp) -> str:
        with self.binding(e.var, over=e.iter):
            cond = f" if {self.ex(e.cond)}" if e.cond is not None else ""
            elem = self.ex(e.elem)
        if id(e) in self.precharged:
            return f"[{elem} for l_{e.var} in {self.ex(e.iter)}{cond}]"
        # _it charges the walk times the code run per item: nested loops cannot run away.
        work = weights.size(e.elem) + (weights.size(e.cond) if e.cond is not None else 0)
        return f"[{elem} for l_{e.var} in {self._walk_code(e.iter, work)}{cond}]"

    def _walk_code(self, e: A.Expr, work: int) -> str:
        """The code of list `e` charged `work` per item, as a walk does: in one call of `_it` with the
        charge its own code makes, where it makes one (`_folded`). A list kept in a local once per loop
        (optimize.py) is charged apart: its own code runs only the first time."""
        self.fold = (id(e), work) if not (self.cached and id(e) in self.cached) else None
        code = self.ex(e)
        if self.fold is None and not (self.cached and id(e) in self.cached):
            return code  # folded into its own charge
        self.fold = None
        return f"_it({code}, {work})"

    def _folded(self, e: A.Expr) -> str:
        """The extra argument of `_it` by which a list's own charge (its items, once) also pays for the walk
        about to run over it."""
        if self.fold is not None and self.fold[0] == id(e):
            work, self.fold = self.fold[1], None
            return f", {work + 1}"
        return ""

    def _hoist(self, e: A.Expr) -> str:
        """The charges of the walks `e` is sure to make over lists known before it runs (charges.py), as
        terms to add to a charge in statement context (" + len(l_h) * 2"); their code then charges nothing.
        Recorded by node id in `precharged`, which the caller empties once the expression is written."""
        terms = ""
        for node, size, work in hoisted(e):
            self.precharged.add(id(node))
            terms += f" + {size}" + (f" * {work}" if work != 1 else "")
        return terms

    def _charge_line(self, amount: str, span: Span | None = None) -> None:
        """Charge the budget in statement context, inline: this runs on every move, and a call costs more
        than the charge."""
        self.w.line(f"_S[0] -= {amount}", span)
        self.w.line("if _S[0] < 0: _over()")

    def _walked(self, e: A.Expr, work: int, span: Span) -> str:
        """Evaluate a list to loop over into a fresh local and charge its items times `work`; the local's name."""
        self.uid += 1
        name = f"_d{self.uid}"
        self.w.line(f"{name} = {self.ex(e)}", span)
        self._charge_line(f"len({name})" + (f" * {work}" if work != 1 else ""))
        return name

    def _charged(self, e: A.Expr, work: int = 1, code: str | None = None) -> str:
        """`e`, charged to the budget for its items (every nested item, unless it is a list of plain values).
        `code` is `e`'s code if the caller wrote it already: writing it again would double the compiler's work
        at every level of nesting."""
        if code is None:
            code = self.ex(e)
        if work == 1 and weights.flat_list(e.ty) and isinstance(e, A.Comp | A.ListLit):
            return code  # a list just built was charged for its items as it was built
        return f"{weights.charge_helper(e.ty)}({code}{f', {work}' if work != 1 else ''})"

    def _seat(self, e: A.Expr) -> str:
        """A player index into per-player zones and variables. A value typed player is a seat (the engine's
        players, checked variables, `left`/`right` modulo the count); any other number is checked, so
        `hand[num_players]` is a rule error, not another zone."""
        code = self.ex(e)
        return code if e.ty == T.PLAYER else f"_seat({code}, N)"

    def _team(self, e: A.Expr) -> str:
        """A team number indexing a per-team variable: checked to be 0 to N - 1, unless it was read from `team`
        (whose every value the engine checked when it was set)."""
        code = self.ex(e)
        read = isinstance(e, A.Index) and isinstance(e.obj, A.Name) and e.obj.ref == R.Builtin("team") or \
            isinstance(e, A.Name) and isinstance(e.ref, R.Local) and e.id in self.team_vars
        return code if read else f"_team({code}, N)"

    def _card(self, e: A.Expr) -> str:
        """A card index into the card tables: checked unless typed card (cards come only from the pack)."""
        code = self.ex(e)
        return code if e.ty == T.CARD else f"_card({code}, NC)"

    def visit_BinOp(self, e: A.BinOp) -> str:
        left, right = self.ex(e.left), self.ex(e.right)
        lt, rt = e.left.ty, e.right.ty
        if e.op == "+" and T.is_list(lt) and T.is_list(rt):
            if id(e) in self.precharged:
                return f"({left} + {right})"
            return f"_it({left} + {right}{self._folded(e)})"  # a joined list is charged for its items
        if weights.numeric(lt) and weights.numeric(rt):
            if e.op == "*":
                return f"f_mul({left}, {right})"  # numbers may not explode
            return f"({left} {e.op} {right})"
        # A value the checker could not type (a parameter called with different kinds of value): the helper
        # checks the kinds when the rule runs (Python's `*` and `%` on text would build anything) and a
        # list join is charged.
        fn = {"+": "f_add", "-": "f_sub", "*": "f_mul", "/": "f_div", "//": "f_floordiv", "%": "f_mod"}[e.op]
        return f"_itd({fn}({left}, {right}))" if e.op == "+" else f"{fn}({left}, {right})"

    def visit_Name(self, e: A.Name) -> str:
        ref = e.ref
        if isinstance(ref, R.Local):
            return f"l_{ref.name}"
        if isinstance(ref, R.Builtin):
            return {"players": "PLAYERS", "active_players": "_active(s)", "num_players": "N",
                    "suits": "SUITS", "ranks": "RANKS", "pack": "PACK", "dealer": "s.dealer",
                    "current": "s.cur", "player": "s.actor", "deal_number": "s.deal_no",
                    "turns": "s.turns", "teams": "_teams(s)", "phase": "PHASE_NAMES[s.phase]"}[ref.name]
        if isinstance(ref, R.Option):
            return abi.option(ref.name)
        if isinstance(ref, R.Constant):
            return abi.const(ref.name)
        if isinstance(ref, R.Variable):
            return f"s.v[{abi.var(ref.spec.name)}]"
        if isinstance(ref, R.Zone):
            return self._zone_code(e, ref.spec.name, abi.zone(ref.spec.name))
        raise AssertionError(ref)  # pragma: no cover

    def visit_Call(self, e: A.Call) -> str:
        ref = e.ref
        if isinstance(ref, R.UserFunction):
            f = ref.spec
            if self.inliner is not None and self.inline_depth < INLINE_DEPTH:
                # A call the passes before did not inline (a step's expression, an argument): inline it here.
                node = self.inliner.call(e)
                if node is not None:
                    self.inline_depth += 1
                    try:
                        return self.ex(node)
                    finally:
                        self.inline_depth -= 1
            return f"{abi.function(f.name)}(s{''.join(', ' + self.ex(a) for a in e.args)})"
        assert isinstance(ref, R.Library)
        lib = ref.spec
        name = lib.name
        if lib.emit is not None:
            return self._emit(lib, e)
        if name == "len" and self._zone_named(e.args[0]) is not None:
            return f"len({self._unordered(e.args[0])})"
        if name in ("last", "top") and self._zone_named(e.args[0]) in self.shuffled:
            # The top of a shuffled zone: only as many of its cards as are read are decided.
            count = "1" if name == "last" else self.ex(e.args[1])
            cards = f"_fz_top(s, {self._zone_index(e.args[0])}, {count})"
            if name == "last":
                return f"{ref.spec.py}({cards})"
            return f"{ref.spec.py}(_it({cards}), {count})"
        if name == "count" and len(e.args) == 2 and isinstance(e.args[1], A.Lambda):
            # Counted in a comprehension of its own: no call of the function per item. Charged as any
            # function applied to every item.
            lam = e.args[1]
            work = weights.size(lam.body)
            items = self.ex(e.args[0]) if id(e) in self.precharged else self._walk_code(e.args[0], work)
            with self.binding(lam.param, over=e.args[0]):
                test = self.ex(lam.body)
            return f"len([0 for l_{lam.param} in {items} if {test}])"
        lambdas = [a for a in e.args if isinstance(a, A.Lambda)]
        if lambdas and id(e) not in self.precharged:
            # A function applied to every item: charge the walk times the function's size.
            args = [self._walk_code(e.args[0], sum(weights.size(x.body) for x in lambdas))]
            args += [self.ex(a) for a in e.args[1:]]
        else:
            args = [self.ex(a) for a in e.args]
        if id(e) in self.precharged or lambdas:
            pass  # its walk was charged before the expression ran, or just above
        elif lib.cost in (Cost.WALK, Cost.WALK_NESTED) and len(e.args) == 1 or lib.cost is Cost.WALK_FIRST:
            # flatten walks every nested item: even a list of plain lists is charged for its items
            args[0] = self._charged(e.args[0], code=args[0]) if lib.cost is not Cost.WALK_NESTED else \
                f"{'_itl' if weights.nested_flat(e.args[0].ty) else '_itd'}({args[0]})"
        if lib.searches:
            args += ["_S", "_over"]  # the search charges its own steps as it runs (library_impl.f_packings)
        if lib.cost is Cost.BUILD:
            return f"{weights.charge_helper(e.ty)}({ref.spec.py}({', '.join(args)}))"
        return f"{ref.spec.py}({', '.join(args)})"

    def _emit(self, lib: LibFunc, e: A.Call) -> str:
        """A call compiled by its record's template: only the fields it names are computed, in their order."""
        assert lib.emit is not None
        code: dict[str, str] = {}
        for _, field, _, _ in _FIELDS.parse(lib.emit):
            if field is None or field in code:
                continue
            if field == "fold":
                code[field] = self._folded(e)
            else:
                arg = e.args[int(field[-1])]
                code[field] = self._seat(arg) if field.startswith("seat") else \
                    self._card(arg) if field.startswith("card") else self.ex(arg)
        return lib.emit.format(**code)
