"""Expressions: the Python code of one checked expression, with the step budget's charges and the checks
the checker's types could not make unnecessary.

This is the half of code generation that returns text rather than writing lines (only the charges of a
walk in statement context, `_charge_line` and `_walked`, write), so a scenario's probe (`compile_probe`)
can compile one expression with no module around it. The state it keeps is only what expressions share
across one module: the writer, the inliner and its depth, the sub-expressions kept in locals while a loop
or a body is compiled, and the counter that makes local names unique.
"""

from __future__ import annotations

from typing import Any

from .. import abi, weights
from .. import ast as A
from .. import refs as R
from .. import types as T
from ..diagnostics import Span
from ..optimize import INLINE_DEPTH, Inliner
from .writer import CLOSE, END, MID, OPEN, POP, PUSH, _Writer, plain

# Nodes whose code cannot fail (a constant, a name, a lambda itself) or that are placed otherwise (an inlined
# body has lines of its own): not marked for the positions map.
_UNMARKED = (A.Const, A.Name, A.Lambda, A.Inline)
# Library functions of one list that read every item of it (charged for the items).
WALKS = {"sum", "max", "min", "sort", "reverse", "unique", "flatten", "any", "all"}
# Library functions whose result may be much larger than their input (charged for what they build).
BUILDS = {"combinations", "subsets", "packings"}


def _numeric_kind(t: Any) -> bool:
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


def _costly(t: Any) -> bool:
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
        return f"(lambda l_{e.param}: {self.ex(e.body)})"

    def visit_Let(self, e: A.Let) -> str:
        out = self.ex(e.body)
        for name, val in reversed(e.bindings):
            out = f"(lambda l_{name}: {out})({self.ex(val)})"
        return out

    def visit_IfExpr(self, e: A.IfExpr) -> str:
        return f"({self.ex(e.then)} if {self.ex(e.cond)} else {self.ex(e.other)})"

    def visit_Compare(self, e: A.Compare) -> str:
        parts = [self._charged(e.first) if _costly(e.first.ty) else self.ex(e.first)]
        for op, r in e.rest:
            parts.append("not in" if op == "notin" else op)
            # `in` walks its list; comparing lists walks them: both charge the items
            parts.append(self._charged(r) if op in ("in", "notin") or _costly(r.ty) else self.ex(r))
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
        cond = f" if {self.ex(e.cond)}" if e.cond is not None else ""
        # _it charges the walk times the code run per item: nested loops cannot run away.
        work = weights.size(e.elem) + (weights.size(e.cond) if e.cond is not None else 0)
        return f"[{self.ex(e.elem)} for l_{e.var} in _it({self.ex(e.iter)}, {work}){cond}]"

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

    def _charged(self, e: A.Expr, work: int = 1) -> str:
        """`e`, charged to the budget for its items (every nested item, unless it is a list of plain values)."""
        if work == 1 and weights.flat_list(e.ty) and isinstance(e, A.Comp | A.ListLit):
            return self.ex(e)  # a list just built was charged for its items as it was built
        helper = "_it" if weights.flat_list(e.ty) else "_itd"
        return f"{helper}({self.ex(e)}{f', {work}' if work != 1 else ''})"

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
        read = isinstance(e, A.Index) and isinstance(e.obj, A.Name) and e.obj.ref == R.Builtin("team")
        return code if read else f"_team({code}, N)"

    def _card(self, e: A.Expr) -> str:
        """A card index into the card tables: checked unless typed card (cards come only from the pack)."""
        code = self.ex(e)
        return code if e.ty == T.CARD else f"_card({code}, NC)"

    def visit_BinOp(self, e: A.BinOp) -> str:
        left, right = self.ex(e.left), self.ex(e.right)
        lt, rt = e.left.ty, e.right.ty
        if e.op == "+" and T.is_list(lt) and T.is_list(rt):
            return f"_it({left} + {right})"  # a joined list is charged for its items
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
        name = ref.spec.name
        if name in ("left", "right"):
            return f"(({self.ex(e.args[0])} {'+' if name == 'left' else '-'} 1) % N)"
        if name == "next_active":
            return f"_next_active(s, {self._seat(e.args[0])})"
        if name == "is_active":
            return f"_is_active(s, {self._seat(e.args[0])})"
        if name == "sitting_out":
            return f"s.sit[{self._seat(e.args[0])}]"
        if name == "teammates":
            return f"_teammates(s, {self._seat(e.args[0])})"
        if name == "played_by":
            return f"s.by[{self._card(e.args[0])}]"
        if name == "range":
            return f"_it(f_range({self.ex(e.args[0])}, {self.ex(e.args[1])}))"
        if name == "len" and self._zone_named(e.args[0]) is not None:
            return f"len({self._unordered(e.args[0])})"
        if name in ("last", "top") and self._zone_named(e.args[0]) in self.shuffled:
            # The top of a shuffled zone: only as many of its cards as are read are decided.
            count = "1" if name == "last" else self.ex(e.args[1])
            cards = f"_fz_top(s, {self._zone_index(e.args[0])}, {count})"
            if name == "last":
                return f"{ref.spec.py}({cards})"
            return f"{ref.spec.py}(_it({cards}), {count})"
        args = [self.ex(a) for a in e.args]
        lambdas = [a for a in e.args if isinstance(a, A.Lambda)]
        if lambdas:
            # A function applied to every item: charge the walk times the function's size.
            args[0] = f"_it({args[0]}, {sum(weights.size(x.body) for x in lambdas)})"
        elif name in WALKS and len(e.args) == 1 or name in ("index_of", "top", "bottom"):
            args[0] = self._charged(e.args[0]) if name != "flatten" else f"_itd({args[0]})"
        if name in BUILDS:
            return f"_itd({ref.spec.py}({', '.join(args)}))"
        return f"{ref.spec.py}({', '.join(args)})"
