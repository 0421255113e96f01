"""Compile a checked `GameSpec` into Python source, then into one code object.

Like Jinja2's compiler, this writes Python text from our own AST and keeps a
line map from generated lines back to rule-file spans, so a runtime error
points at the rule that caused it. Rule text itself never reaches Python:
names become `l_<name>` / indices into state arrays, literals go through
`repr`, and the module runs with no builtins but the helpers we pass in.

The generated module is the same for every player count and option set; a
`Game` (interpreter/) execs it in a namespace holding that
instance's tables (pack, card properties, zone and variable offsets).
Every name the module defines for the runtime, and every name it reads from
the runtime, comes from `abi.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import abi, weights
from . import ast as A
from . import types as T
from .analysis import (  # noqa: F401  (re-exported: the analyses used to live here)
    STATEFUL_BUILTINS,
    STATEFUL_LIBRARY,
    _cheap,
    _conjuncts,
    _expr_nodes,
    _locals_used,
    _static,
    called_outside,
    order_free_params,
    pure_functions,
)
from .checker import Checker
from .diagnostics import Diagnostic, Span
from .library import BIG
from .limits import DEFAULT_LIMITS, Limits
from .optimize import INLINE_DEPTH, Inliner, invariants
from .spec import ActionSpec, GameSpec, PhaseSpec

# Return codes of compiled effect blocks (abi.py): a phase index (>= 0) means goto. Re-exported.
END_DEAL = abi.END_DEAL
MEMO_ITEM_MAX = abi.MEMO_ITEM_MAX
# Library functions of one list that read every item of it (charged for the items).
WALKS = {"sum", "max", "min", "sort", "reverse", "unique", "flatten", "any", "all"}
# What a list variable holds, for the check of a value whose type the checker could not know.
LIST_KINDS = {T.CARD: "card", T.PLAYER: "player", T.NUM: "num", T.INT: "num"}


def _numeric_kind(t: Any) -> bool:
    """A value of this type may carry a number (or any value) into a function."""
    if T.is_list(t):
        return _numeric_kind(T.elem(t))
    return t in (T.INT, T.NUM, T.PLAYER, T.ANY, T.NONE, None) or T.is_map(t)


def _takes_numbers(body: A.Expr, params: list[str]) -> bool:
    """True if a function's body reads a parameter that may hold numbers: only then can calls of it feed
    each other a growing number."""
    names = {p[2:] for p in params if p.startswith("l_")}
    return any(isinstance(n, A.Name) and n.ref == ("local", n.id) and n.id in names and _numeric_kind(n.ty)
               for n in _expr_nodes(body))


def _costly(t: Any) -> bool:
    """Comparing a value of this type may walk a list: a list, or a value of unknown type."""
    return T.is_list(t) or t == T.ANY


@dataclass
class ParamInfo:
    name: str
    kind: str  # card, player, suit, rank, bool, int, str
    span: Span
    values: list[Any] | None = None  # str: literal choices
    bounds: tuple[str, str] | None = None  # int: generated functions giving lo, hi


@dataclass
class CompiledGame:
    spec: GameSpec
    code: Any  # code object of the generated module
    source: str
    line_map: dict[int, Span]
    filename: str
    params: dict[str, list[ParamInfo]] = field(default_factory=dict)
    phase_index: dict[str, int] = field(default_factory=dict)
    checker: Checker | None = None
    report_kinds: list[str] = field(default_factory=list)
    # The texts of the rule file and the files it extends, by name: a rule error shows its line from here.
    sources: dict[str, str] = field(default_factory=dict)
    # The generated functions whose block of steps is empty (phase `start`/`after`, ...): the engine skips them.
    empty: frozenset[str] = frozenset()
    # The limits the file was read and checked within; a `Game` of it runs within them unless given others.
    limits: Limits = DEFAULT_LIMITS


# In an expression's code, where an inlined body starts (PUSH, the index of its span, END) and where it ends
# (POP): the writer breaks the line there, so the body's code has lines, and spans, of its own.
PUSH, END, POP = "\x00", "\x01", "\x00-\x01"


class _Writer:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.spans: dict[int, Span] = {}
        self.indent = 0
        self.marks: list[Span] = []  # spans named by PUSH marks

    def line(self, text: str, span: Span | None = None) -> None:
        if PUSH in text:
            self._lines(text, span)
            return
        self.lines.append("    " * self.indent + text)
        if span is not None:
            self.spans[len(self.lines)] = span

    def _lines(self, text: str, span: Span | None) -> None:
        """A line whose code holds inlined bodies: one physical line per stretch of one span (inside the
        brackets an inlined body is written in, so Python reads it as one expression)."""
        stack = [span]
        pad = "    " * (self.indent + 2)
        first, *rest = text.split(PUSH)
        self.lines.append("    " * self.indent + first)
        if span is not None:
            self.spans[len(self.lines)] = span
        for part in rest:
            mark, _, code = part.partition(END)
            if mark == "-":
                stack.pop()
            else:
                stack.append(self.marks[int(mark)])
            self.lines.append(pad + code)
            if stack[-1] is not None:
                self.spans[len(self.lines)] = stack[-1]


class Compiler:
    def __init__(self, spec: GameSpec, checker: Checker, diags: list[Diagnostic], optimize: bool = True):
        self.spec = spec
        self.ck = checker
        self.diags = diags
        self.optimize = optimize
        self.inliner: Inliner | None = None
        self.inline_depth = 0
        # While a condition of an action is compiled: sub-expressions kept once per loop (optimize.py),
        # by node id, and the local that keeps each, by the code it runs.
        self.cached: set[int] = set()
        self.cache_vars: dict[str, str] = {}
        self.w = _Writer()
        self.phase_index = {p.name: i for i, p in enumerate(spec.phases)}
        self.params: dict[str, list[ParamInfo]] = {}
        self.uid = 0
        self.empty: set[str] = set()

    # ------------------------------------------------------------ expressions
    def ex(self, e: A.Expr) -> str:
        if self.cached and id(e) in self.cached:
            code = self._ex(e)
            var = self.cache_vars.get(code)
            if var is None:
                # Numbered across the whole module: the loops of one action's parameters nest.
                self.uid += 1
                var = self.cache_vars[code] = f"_h{self.uid}"
            return f"({var} if {var} is not MISS else ({var} := {code}))"
        return self._ex(e)

    def _ex(self, e: A.Expr) -> str:
        if isinstance(e, A.Inline):
            self.w.marks.append(e.span)
            return f"({PUSH}{len(self.w.marks) - 1}{END}{self.ex(e.body)}{POP})"
        if isinstance(e, A.Const):
            return repr(e.value)
        if isinstance(e, A.Name):
            return self._name(e)
        if isinstance(e, A.Attr):
            table = abi.card_table(e.name) if e.name in abi.CARD_FIELDS else abi.property_table(e.name)
            return f"{table}[{self._card(e.obj)}]"
        if isinstance(e, A.Index):
            o = e.obj
            if isinstance(o, A.Name) and o.ref and o.ref[0] in ("var", "zone") and o.ref[1].per_player:
                arr, base = ("s.v", abi.var(o.id)) if o.ref[0] == "var" else ("s.z", abi.zone(o.id))
                return f"{arr}[{base} + {self._seat(e.index)}]"
            if isinstance(o, A.Name) and o.ref and o.ref[0] == "var" and o.ref[1].per_team:
                return f"s.v[{abi.var(o.id)} + {self._team(e.index)}]"
            if isinstance(o, A.Name) and o.ref == ("builtin", "team"):
                return f"s.team[{self._seat(e.index)}]"
            return f"{self.ex(o)}[{self.ex(e.index)}]"
        if isinstance(e, A.Call):
            return self._call(e)
        if isinstance(e, A.Lambda):
            return f"(lambda l_{e.param}: {self.ex(e.body)})"
        if isinstance(e, A.Let):
            out = self.ex(e.body)
            for name, val in reversed(e.bindings):
                out = f"(lambda l_{name}: {out})({self.ex(val)})"
            return out
        if isinstance(e, A.IfExpr):
            return f"({self.ex(e.then)} if {self.ex(e.cond)} else {self.ex(e.other)})"
        if isinstance(e, A.BinOp):
            return self._binop(e)
        if isinstance(e, A.Compare):
            parts = [self._charged(e.first) if _costly(e.first.ty) else self.ex(e.first)]
            for op, r in e.rest:
                parts.append("not in" if op == "notin" else op)
                # `in` walks its list; comparing lists walks them: both charge the items
                parts.append(self._charged(r) if op in ("in", "notin") or _costly(r.ty) else self.ex(r))
            return "(" + " ".join(parts) + ")"
        if isinstance(e, A.BoolOp):
            return "(" + f" {e.op} ".join(self.ex(v) for v in e.values) + ")"
        if isinstance(e, A.Not):
            return f"(not {self.ex(e.value)})"
        if isinstance(e, A.Neg):
            return f"(-{self.ex(e.value)})"
        if isinstance(e, A.ListLit):
            return "[" + ", ".join(self.ex(i) for i in e.items) + "]"
        if isinstance(e, A.Comp):
            cond = f" if {self.ex(e.cond)}" if e.cond is not None else ""
            # _it charges the walk times the code run per item: nested loops cannot run away.
            work = weights.size(e.elem) + (weights.size(e.cond) if e.cond is not None else 0)
            return f"[{self.ex(e.elem)} for l_{e.var} in _it({self.ex(e.iter)}, {work}){cond}]"
        raise AssertionError(type(e))  # pragma: no cover

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
        read = isinstance(e, A.Index) and isinstance(e.obj, A.Name) and e.obj.ref == ("builtin", "team")
        return code if read else f"_team({code}, N)"

    def _card(self, e: A.Expr) -> str:
        """A card index into the card tables: checked unless typed card (cards come only from the pack)."""
        code = self.ex(e)
        return code if e.ty == T.CARD else f"_card({code}, NC)"

    def _binop(self, e: A.BinOp) -> str:
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

    def _name(self, e: A.Name) -> str:
        kind, detail = e.ref
        if kind == "local":
            return f"l_{detail}"
        if kind == "builtin":
            return {"players": "PLAYERS", "active_players": "_active(s)", "num_players": "N",
                    "suits": "SUITS", "ranks": "RANKS", "pack": "PACK", "dealer": "s.dealer",
                    "current": "s.cur", "player": "s.actor", "deal_number": "s.deal_no",
                    "turns": "s.turns", "teams": "_teams(s)"}[detail]
        if kind == "option":
            return abi.option(detail)
        if kind == "const":
            return abi.const(detail)
        if kind == "var":
            return f"s.v[{abi.var(detail.name)}]"
        if kind == "zone":
            return f"s.z[{abi.zone(detail.name)}]"
        raise AssertionError(kind)  # pragma: no cover

    def _call(self, e: A.Call) -> str:
        kind, f = e.ref
        if kind == "user":
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
        name = f.name
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
        args = [self.ex(a) for a in e.args]
        lambdas = [a for a in e.args if isinstance(a, A.Lambda)]
        if lambdas:
            # A function applied to every item: charge the walk times the function's size.
            args[0] = f"_it({args[0]}, {sum(weights.size(x.body) for x in lambdas)})"
        elif name in WALKS and len(e.args) == 1 or name in ("index_of", "top", "bottom"):
            args[0] = self._charged(e.args[0]) if name != "flatten" else f"_itd({args[0]})"
        return f"{f.py}({', '.join(args)})"

    # ------------------------------------------------------------ statements
    def block(self, stmts: list[A.Stmt]) -> None:
        if not stmts:
            self.w.line("pass")
        for s in stmts:
            self.stmt(s)

    def _zone(self, z: A.ZoneRef) -> str:
        if z.ref.per_player and z.index is not None:
            return f"{abi.zone(z.name)} + {self._seat(z.index)}"
        return abi.zone(z.name)

    def stmt(self, s: A.Stmt) -> None:
        w = self.w
        sp = s.span
        if isinstance(s, A.Assign):
            self._assign(s)
        elif isinstance(s, A.LetStmt):
            # A list named in steps is a snapshot: later moves must not change it (the copy is charged).
            val = self._sx(s.value)
            w.line(f"l_{s.name} = {'_it(list(' + val + '))' if T.is_list(s.value.ty) else val}", sp)
        elif isinstance(s, A.Pick):
            w.line(f"l_{s.name} = _pick(s, {self.ex(s.options)})", sp)
        elif isinstance(s, A.Move):
            t = s.cards.ty
            if t == T.CARD:
                w.line(f"_move1(s, {self._sx(s.cards)}, {self._zone(s.dest)}, {s.bottom!r})", sp)
            else:
                # A value of unknown type must be a card or a list of cards of the pack (-1 would be the last).
                cards = self.ex(s.cards) if T.is_list(t) and T.elem(t) == T.CARD else f"_cards(s, {self.ex(s.cards)})"
                w.line(f"_move(s, {cards}, {self._zone(s.dest)}, {s.bottom!r})", sp)
        elif isinstance(s, A.Deal):
            if s.dest.ref.per_player and s.dest.index is None:
                w.line(f"_deal_each(s, {self.ex(s.count)}, {self._zone(s.src)}, {abi.zone(s.dest.name)})", sp)
            else:
                w.line(f"_deal(s, {self.ex(s.count)}, {self._zone(s.src)}, {self._zone(s.dest)})", sp)
        elif isinstance(s, A.Shuffle):
            w.line(f"_shuffle(s, {self._zone(s.zone)})", sp)
        elif isinstance(s, A.Goto):
            w.line(f"return {self.phase_index[s.phase]}", sp)
        elif isinstance(s, A.EndDeal):
            w.line(f"return {END_DEAL}", sp)
        elif isinstance(s, A.Eliminate):
            w.line(f"_eliminate(s, {self._seat(s.player)})", sp)
        elif isinstance(s, A.SitOut):
            w.line(f"_sit_out(s, {self._seat(s.player)})", sp)
        elif isinstance(s, A.Do):
            args = "".join(", " + (f"_it(list({self.ex(a)}))" if T.is_list(a.ty) else self.ex(a)) for a in s.args)
            w.line(f"_r = {abi.procedure(s.proc)}(s{args})", sp)
            w.line("if _r is not None: return _r")
        elif isinstance(s, A.Log):
            vals = "".join(f", ({self.ex(v)}, {_kind(v.ty)!r})" for v in s.values)
            w.line(f"if s.log is not None: _log(s, {s.text!r}{vals})", sp)
        elif isinstance(s, A.If):
            w.line(f"if {self._sx(s.cond)}:", sp)
            w.indent += 1
            self.block(s.then)
            w.indent -= 1
            if s.other:
                w.line("else:")
                w.indent += 1
                self.block(s.other)
                w.indent -= 1
        elif isinstance(s, A.For):
            # Each item runs the body once: the walk is charged times the body's size.
            items = self._walked(s.iter, weights.size(s.body), sp)
            w.line(f"for l_{s.var} in list({items}):", sp)
            w.indent += 1
            self.block(s.body)
            w.indent -= 1
        else:  # pragma: no cover
            raise AssertionError(type(s))

    def _sx(self, e: A.Expr) -> str:
        """The code of an expression a step evaluates: with small functions inlined, and what its
        comprehensions ask again and again kept in locals, emptied on a line of their own before the step
        (optimize.py; nothing changes the state while one expression is evaluated)."""
        if self.inliner is None:
            return self.ex(e)
        e = self.inliner.inline(e)
        self.cached = {id(x) for x in invariants(e, set(), in_loop=False)}
        try:
            code = self.ex(e)
            kept = list(self.cache_vars.values())
        finally:
            self.cached, self.cache_vars = set(), {}
        if kept:
            self.w.line(f"{' = '.join(kept)} = MISS")
        return code

    def _assign(self, s: A.Assign) -> None:
        """Assignments keep the state well formed whatever the rules compute: a seat stays a seat, a card a
        card, a number within +-10**18, and a list the items its type says (checked when the checker could
        not know the value's type), charged for its items and within the items all lists may hold."""
        w = self.w
        sp = s.span
        kind, v = s.ref
        vt = s.value.ty
        val = self._sx(s.value)
        if s.ref == ("builtin", "team"):
            assert s.index is not None
            w.line(f"_set_team(s, {self._seat(s.index)}, {val})", sp)
            return
        if kind == "builtin":
            target = {"dealer": "s.dealer", "current": "s.cur"}[v]
            new = val if s.op == "=" else f"{target} {s.op[0]} {val}"
            if s.op == "=" and s.value.ty == T.PLAYER:
                w.line(f"{target} = {new}", sp)  # a value typed player is a seat already
            else:
                w.line(f"{target} = _want_player(s, {new}, {repr(chr(39) + v + chr(39))})", sp)
            return
        if s.index is not None:
            w.line(f"_i = {abi.var(v.name)} + {self._team(s.index) if v.per_team else self._seat(s.index)}", sp)
            target = "s.v[_i]"
            slot = "_i"
        else:
            slot = abi.var(v.name)
            target = f"s.v[{slot}]"
        ty = v.ty
        if T.is_list(ty):
            kind_ = LIST_KINDS.get(T.elem(ty))
            trusted = T.is_list(vt) and T.elem(vt) == T.elem(ty) and kind_ != "num"
            check = "None" if trusted else repr(kind_)
            if s.op == "+=":
                w.line(f"{target} = _extend_list(s, {target}, {val}, {check}, {slot})", sp)
                return
            new = val if s.op == "=" else f"_without(s, {target}, {val})"
            w.line(f"{target} = _keep_list(s, {new}, {'None' if s.op == '-=' else check}, {slot})", sp)
            return
        new = val if s.op == "=" else f"{target} {s.op[0]} {val}" if weights.numeric(vt) else \
            f"{'f_add' if s.op == '+=' else 'f_sub'}({target}, {val})"
        if ty in (T.INT, T.NUM) and weights.numeric(vt) and _static(s.value):
            # A fixed amount: the number grows at most by that much per step of work (never doubles).
            w.line(f"{target} = {new}", sp)
        elif ty in (T.INT, T.NUM) and weights.numeric(vt):
            w.line(f"_v = {new}", sp)
            w.line(f"if _v is not None and not {-BIG} <= _v <= {BIG}: f_num(_v)")
            w.line(f"{target} = _v")
        elif vt == ty or vt == T.NONE or (T.compatible(vt, ty) and ty in T.TEXTUAL and vt in T.TEXTUAL):
            w.line(f"{target} = {new}", sp)
        else:
            w.line(f"{target} = _keep(s, {new}, {str(ty)!r})", sp)

    def func(self, name: str, params: list[str], body: list[A.Stmt], span: Span, charged: bool = False) -> None:
        """A block of steps as a function of the state. `charged`: a call costs the body's size (procedures,
        as functions do). An empty block is recorded, so the engine need not call it."""
        if not body:
            self.empty.add(name)
        self.w.line(f"def {name}(s{''.join(', l_' + p for p in params)}):", span)
        self.w.indent += 1
        if charged:
            self._charge_line(str(weights.size(body)))
        self.block(body)
        self.w.indent -= 1
        self.w.line("")

    def efunc(self, name: str, params: list[str], e: A.Expr, want: tuple[str, str] | None = None,
              user: bool = False) -> None:
        """A function returning `e`; `want` = (helper, what) checks the value where the engine needs a
        player or a list of players (`none` passes the checker, which cannot know it will be there);
        `user`: a `define:` function, whose result is checked where it may carry a growing number.
        Each evaluation is charged its size; a function without the state (an option default, a card
        property, the pack) gets `s=None`, so that no rule can reach a state that is not there."""
        w = self.w
        if "s" not in params:
            params = params + ["s=None"]
        w.line(f"def {name}({', '.join(params)}):", e.span)
        w.indent += 1
        kept: list[str] = []
        if user and self.inliner is not None:
            # The body with small functions inlined, and what its comprehensions ask again and again kept
            # once per call (optimize.py); charged the size of all the code it may run.
            e = self.inliner.inline(e)
            self._charge_line(str(weights.size(e)))
            self.cached = {id(x) for x in invariants(e, set(), in_loop=False)}
            try:
                code = self.ex(e)
                kept = list(self.cache_vars.values())
            finally:
                self.cached, self.cache_vars = set(), {}
            if kept:
                w.line(f"{' = '.join(kept)} = MISS")
        else:
            self._charge_line(str(weights.size(e)))
            code = self.ex(e)
        w.indent -= 1
        if want is not None:
            w.line(f"    return {want[0]}(s, {code}, {want[1]!r})", e.span)
        elif user and e.ty in (T.INT, T.NUM) and _takes_numbers(e, params):
            # A number leaving a function stays within +-10**18: calls cannot double it without end. (A
            # function of cards, suits and ranks alone computes a bounded expression of bounded values.)
            w.line(f"    _r = {code}", e.span)
            w.line(f"    if _r is not None and not {-BIG} <= _r <= {BIG}: f_num(_r)")
            w.line("    return _r")
        elif user and e.ty == T.ANY:
            w.line(f"    return f_num({code})", e.span)
        else:
            w.line(f"    return {code}", e.span)
        w.line("")

    # ------------------------------------------------------------ actions
    def _param_info(self, a: ActionSpec) -> list[ParamInfo]:
        out = []
        for p in a.params:
            et = T.elem(p.domain.ty)
            kind = {T.CARD: "card", T.PLAYER: "player", T.SUIT: "suit", T.RANK: "rank", T.BOOL: "bool",
                    T.INT: "int", T.STR: "str"}.get(et, "card")
            info = ParamInfo(p.name, kind, p.span)
            # The checker accepted the domain's shape (C005): names listed, or range(a, b) fixed for the game.
            d = p.domain
            if kind == "str":
                if isinstance(d, A.ListLit):
                    info.values = [i.value for i in d.items if isinstance(i, A.Const)]
                elif isinstance(d, A.Name):
                    info.values = [str(x) for x in self.spec.constants[d.id][0]]
            elif kind == "int" and isinstance(d, A.Call):
                lo, hi = abi.param_bound(self.uid, "lo"), abi.param_bound(self.uid, "hi")
                self.uid += 1
                self.efunc(lo, [], d.args[0])
                self.efunc(hi, [], d.args[1])
                info.bounds = (lo, hi)
            out.append(info)
        return out

    def action(self, a: ActionSpec) -> None:
        infos = self._param_info(a)
        self.params[a.name] = infos
        w = self.w
        # legal_<a>(s, out): append every legal id of this action. Each conjunct of
        # `when` is tested as soon as the parameters it reads are bound, so a test
        # on the trick alone runs once, not once per card in hand.
        when = a.when
        if when is not None and self.inliner is not None:
            when = self.inliner.inline(when)
        conjuncts = _conjuncts(when) if when is not None else []
        names = [p.name for p in a.params]
        levels: dict[int, list[A.Expr]] = {}
        level = 0
        for c in conjuncts:
            used = _locals_used(c)
            # Never before an earlier conjunct: `and` guards what follows it.
            level = max([level] + [names.index(n) + 1 for n in used if n in names])
            levels.setdefault(level, []).append(c)
        off, radix, stride = abi.action_offset(a.name), abi.action_radix(a.name), abi.action_stride(a.name)
        low, digit, value = abi.action_low(a.name), abi.action_digit(a.name), abi.action_values(a.name)
        # The encoding is interpreter/engine/codec.py's, written inline: its tables, read by their abi names.
        w.line(f"def {abi.legal(a.name)}(s, out):", a.span)
        w.indent += 1
        if levels.get(0):
            w.line(f"if not ({' and '.join(self.ex(c) for c in levels[0])}): return", levels[0][0].span)
        enc_terms = []
        for i, (p, info) in enumerate(zip(a.params, infos)):
            # Each value of a parameter is charged with the conditions tested for it: three parameters of
            # 10,000 values each cannot enumerate 10**12 actions.
            work = 1 + sum(weights.size(c) for c in levels.get(i + 1, []))
            cond, kept = self._condition(levels.get(i + 1, []), set(names[i:]))
            if i == 0 and len(a.params) == 1 and work == 1:
                # One parameter, no condition on it: one append per value, once per question (the list
                # itself was charged when it was built). Every other loop is charged for its values.
                w.line(f"for l_{p.name} in {self.ex(p.domain)}:", p.domain.span)
            else:
                values = self._walked(p.domain, work, p.domain.span)
                if kept:
                    w.line(f"{' = '.join(kept)} = MISS")  # filled when the condition first needs each
                w.line(f"for l_{p.name} in {values}:", p.domain.span)
            w.indent += 1
            idx = {"card": f"l_{p.name}", "player": f"l_{p.name}", "suit": f"SUIT_POS[l_{p.name}]",
                   "rank": f"RANK_POS[l_{p.name}]", "bool": f"(1 if l_{p.name} else 0)",
                   "int": f"(l_{p.name} - {low}[{i}])", "str": f"{digit}[{i}][l_{p.name}]"}[info.kind]
            if info.kind == "int":
                w.line(f"if not 0 <= {idx} < {radix}[{i}]: continue")
            if info.kind == "str":
                w.line(f"if l_{p.name} not in {digit}[{i}]: continue")
            if cond is not None:
                w.line(f"if not ({cond}): continue", levels[i + 1][0].span)
            enc_terms.append(idx if i == 0 else f"{idx} * {stride}[{i}]")
        enc = " + ".join(enc_terms) if enc_terms else "0"
        w.line(f"out.append({off} + {enc})")
        w.indent = 0
        w.line("")
        # run_<a>(s, k): decode inline and run the effect (the engine's hot path).
        w.line(f"def {abi.run(a.name)}(s, k):", a.span)
        w.indent += 1
        for i, (p, info) in enumerate(zip(a.params, infos)):
            if len(infos) == 1 and info.kind in ("card", "player"):
                w.line(f"l_{p.name} = k")
                break
            w.line(f"k, i{i} = divmod(k, {radix}[{i}])")
            val = {"card": f"i{i}", "player": f"i{i}", "suit": f"SUITS[i{i}]", "rank": f"RANKS[i{i}]",
                   "bool": f"i{i} == 1", "int": f"{low}[{i}] + i{i}", "str": f"{value}[{i}][i{i}]"}[info.kind]
            w.line(f"l_{p.name} = {val}")
        self.block(a.effect)
        w.indent = 0
        w.line("")

    def _condition(self, conds: list[A.Expr], varying: set[str]) -> tuple[str | None, list[str]]:
        """The code of the conditions tested for each value of a parameter, with the sub-expressions that read
        none of the `varying` parameters kept in locals (optimize.invariants); and those locals."""
        if not conds:
            return None, []
        if self.optimize:
            self.cached = {id(x) for c in conds for x in invariants(c, varying)}
            self.cache_vars = {}
        try:
            code = " and ".join(self.ex(c) for c in conds)
            return code, list(self.cache_vars.values())
        finally:
            self.cached = set()
            self.cache_vars = {}

    def phase(self, i: int, ph: PhaseSpec) -> None:
        if ph.first is not None:
            self.efunc(abi.phase_first(i), ["s"], ph.first, ("_want_player", f"'first' of phase '{ph.name}'"))
        self.func(abi.phase_start(i), [], ph.start, ph.span)
        self.func(abi.phase_after(i), [], ph.after, ph.span)
        self.func(abi.phase_end(i), [], ph.end, ph.span)
        names = [n for n, _ in ph.actions]
        w = self.w
        w.line(f"def {abi.phase_legal(i)}(s):")
        w.line("    out = []")
        for n in names:
            w.line(f"    {abi.legal(n)}(s, out)")
        if len(names) > 1 or any(self.spec.actions[k].params for k in range(len(self.spec.actions))
                                 if self.spec.actions[k].name in names):
            w.line("    out.sort()")
        w.line("    return out")
        w.line("")

    # ------------------------------------------------------------ module
    def module(self) -> CompiledGame | None:
        sp = self.spec
        w = self.w
        w.line("# generated by cardsmith from a checked rule file; do not edit")
        for o in sp.options:
            if isinstance(o.default, A.Expr):
                self.efunc(abi.option_default(o.name), [], o.default)
            if o.min_expr is not None:
                self.efunc(abi.option_bound(o.name, "min"), [], o.min_expr)
            if o.max_expr is not None:
                self.efunc(abi.option_bound(o.name, "max"), [], o.max_expr)
        for i, c in enumerate(sp.constraints):
            self.efunc(abi.constraint(i), [], c.cond)
        for p in sp.properties:
            if p.expr is not None:
                self.efunc(abi.property_fn(p.name), ["l_rank", "l_suit", "l_rank_index", "l_suit_index"], p.expr)
        for i, e in enumerate(sp.pack):
            if e.when is not None:
                self.efunc(abi.pack_when(i), [], e.when)
            if e.where is not None:
                self.efunc(abi.pack_where(i), ["l_card"], e.where)
        for z in sp.zones:
            if isinstance(z.visible, A.Expr):
                self.efunc(abi.zone_visible(z.name), ["s", "l_owner"], z.visible,
                           ("_want_players", f"'visible' of zone '{z.name}'"))
        if sp.teams is not None:
            self.efunc(abi.TEAMS_OF, ["s", "l_p"], sp.teams)
        for v in sp.variables:
            if v.initial is not None:
                self.efunc(abi.initial(v.name), ["s", "l_owner"], v.initial)
            if isinstance(v.visible, A.Expr):
                self.efunc(abi.var_visible(v.name), ["s", "l_owner"], v.visible,
                           ("_want_players", f"'visible' of variable '{v.name}'"))
        # Memoize the pure functions that the rules call from outside other pure
        # functions: their callees are then computed once per distinct argument anyway.
        pure = {f.name for f in sp.functions if f.name in pure_functions(sp) and f.body is not None
                and not _cheap(f.body)} & called_outside(sp, pure_functions(sp))
        if self.optimize:
            checked = {f.name for f in sp.functions if f.body is not None and (f.body.ty in (T.INT, T.NUM) and
                       _takes_numbers(f.body, [f"l_{p}" for p in f.params]))}
            self.inliner = Inliner(sp.functions, pure, checked)
        for f in sp.functions:
            if f.body is None:
                continue
            params = ["s"] + [f"l_{p}" for p in f.params]
            fn, fi, memo = abi.function(f.name), abi.function_body(f.name), abi.memo(f.name)
            if f.name not in pure:
                self.efunc(fn, params, f.body, user=True)
                continue
            # A function that reads no state is memoized on its arguments: hand
            # values and rankings are asked for again and again with the same cards.
            self.efunc(fi, params, f.body, user=True)
            # A list argument whose order cannot change the result is sorted in the
            # key, so the 3! orders of one hand share one entry.
            free = order_free_params(sp, f)
            w.line(f"{memo} = {{}}")
            w.line(f"MEMOS.append({memo})")
            w.line(f"def {fn}({', '.join(params)}):", f.span)
            w.indent += 1
            # Building the key walks the list arguments: charged, like any walk.
            for name in f.params:
                w.line(f"if type(l_{name}) is list:")
                # Too big to remember (budget.MEMO_ITEM_MAX): computed, and charged, without a key.
                w.line(f"    if len(l_{name}) > {MEMO_ITEM_MAX}: return {fi}({', '.join(params)})")
                w.line(f"    _S[0] -= len(l_{name})")
                w.line(f"    _k_{name} = tuple({'sorted(' if name in free else '('}l_{name}))")
                w.line("else:")
                w.line(f"    _k_{name} = l_{name}")
            if f.params:
                w.line("if _S[0] < 0: _over()")
            w.indent -= 1
            w.line(f"    k = ({''.join(f'_k_{p}, ' for p in f.params)})")
            w.line("    try:")
            w.line(f"        r = {memo}.get(k, MISS)")
            w.line("    except TypeError:")
            w.line(f"        return {fi}({', '.join(params)})")
            w.line("    if r is MISS:")
            w.line(f"        r = {fi}({', '.join(params)})")
            w.line(f"        _remember({memo}, k, r)")
            w.line("    return r")
            w.line("")
        for pr in sp.procedures:
            self.func(abi.procedure(pr.name), pr.params, pr.body, pr.span, charged=True)
        for a in sp.actions:
            self.action(a)
        for i, ph in enumerate(sp.phases):
            self.phase(i, ph)
        m = sp.match
        self.func(abi.MATCH_START, [], m.start, m.span)
        self.func(abi.MATCH_DEAL, [], m.deal, m.span)
        self.func(abi.MATCH_END_DEAL, [], m.end_deal, m.span)
        if m.next_dealer is not None:
            self.efunc(abi.MATCH_NEXT_DEALER, ["s"], m.next_dealer, ("_want_player", "'next_dealer'"))
        if m.over_when is not None:
            self.efunc(abi.MATCH_OVER_WHEN, ["s"], m.over_when)
        if m.winners is not None:
            self.efunc(abi.MATCH_WINNERS, ["s"], m.winners, ("_want_players", "'winners'"))
        for k, (_, re_) in enumerate(m.report):
            self.efunc(abi.report(k), ["s", "l_p"], re_)
        if m.returns is not None:
            # The engine checks each value (a finite number within the bounds): State._returns.
            self.efunc(abi.MATCH_RETURNS, ["s", "l_p"], m.returns.value)
            for key, b in (("min", m.returns.min), ("max", m.returns.max)):
                if b is not None:
                    self.efunc(abi.returns_bound(key), [], b)
        source = "\n".join(w.lines) + "\n"
        filename = f"<cardsmith {sp.file}>"
        try:
            code = compile(source, filename, "exec")
        except (SyntaxError, RecursionError, MemoryError) as e:
            # Python's own nesting limits; the schema's step-depth check (S029) should stop a file first.
            line = getattr(e, "lineno", None) or 0
            near = max((n for n in w.spans if n <= line), default=None)
            span = w.spans[near] if near is not None else sp.root_span
            reason = getattr(e, "msg", None) or type(e).__name__
            self.diags.append(Diagnostic("S029", span, f"the rules here are nested too deeply to compile ({reason})",
                                         "move inner steps into a procedure or a `define:` function"))
            return None
        return CompiledGame(sp, code, source, dict(w.spans), filename, self.params, self.phase_index, self.ck,
                            [_kind(e.ty) for _, e in m.report], empty=frozenset(self.empty), limits=self.ck.limits)


def _kind(t: object) -> str:
    """How a logged value is shown: as a player, a card, a list of them, or plainly."""
    if t in (T.PLAYER, T.CARD):
        return str(t)
    if T.is_list(t) and T.elem(t) in (T.PLAYER, T.CARD):
        return f"list:{T.elem(t)}"
    return "plain"


def compile_probe(game: CompiledGame, text: str, locate: Any, diags: list[Diagnostic]) -> Any:
    """Compile one expression against a game (scenario checks, tools): a code object
    for `lambda s: <expr>` to eval in the instance namespace, or None with diagnostics."""
    typed = compile_probe_typed(game, text, locate, diags)
    return typed[0] if typed is not None else None


def compile_probe_typed(game: CompiledGame, text: str, locate: Any, diags: list[Diagnostic]) -> Any:
    """Like compile_probe, but returns (code, checked type) so results can be shown by type."""
    from . import parser
    e = parser.parse(text, "expression", locate, diags, game.limits)
    if e is None or game.checker is None:
        return None
    n = len(diags)
    with game.checker.scope({}):
        game.checker.diags = diags
        game.checker.expr(e)
    if len(diags) > n:
        return None
    src = Compiler(game.spec, game.checker, diags).ex(e)
    return compile(f"lambda s: {src}", game.filename, "eval"), e.ty


def compile_spec(spec: GameSpec, checker: Checker, diags: list[Diagnostic],
                 optimize: bool = True) -> CompiledGame | None:
    """The compiled module of a checked spec; `optimize=False` leaves out dsl/optimize.py's passes."""
    return Compiler(spec, checker, diags, optimize).module()
