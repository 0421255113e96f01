"""Steps and function bodies: the Python lines of a block of steps, and the functions the module is made of.

Steps are where the state changes, so this is where the generated code keeps the state well formed
whatever the rules compute (a seat stays a seat, a number stays within bounds, a list holds what its type
says) and where the budget is charged in statement context. `func` and `efunc` are the two shapes every
generated function takes, a block of steps or one returned expression; actions and the module are built
from them, so they live here, below both.
"""

from __future__ import annotations

from .. import abi, weights
from .. import ast as A
from .. import refs as R
from .. import types as T
from ..analysis import _static
from ..diagnostics import Span
from ..library import BIG
from ..optimize import invariants
from .expressions import ExpressionWriter, _takes_numbers

# `let` and `if ... then ... else` lifted into statements, one block inside another at most this deep.
TAIL_DEPTH = 8

# Return codes of compiled effect blocks (abi.py): a phase index (>= 0) means goto. Re-exported.
END_DEAL = abi.END_DEAL
# What a list variable holds, for the check of a value whose type the checker could not know.
LIST_KINDS = {T.CARD: "card", T.PLAYER: "player", T.NUM: "num", T.INT: "num", T.list_of(T.CARD): "cards"}


def _kind(t: T.Type | None) -> str:
    """How a logged value is shown: as a player, a card, a list of them, or plainly. (Here, below the module,
    which shows `report` values the same way: `log` steps need it too.)"""
    if t == T.PLAYER or t == T.CARD:
        return t.name
    if T.is_list(t) and (t.item == T.PLAYER or t.item == T.CARD):
        return f"list:{t.item.name}"
    if T.is_list(t) and t.item == T.list_of(T.CARD):
        return "list:cards"
    return "plain"


class StatementWriter(ExpressionWriter):
    def __init__(self, phase_index: dict[str, int]) -> None:
        super().__init__()
        self.phase_index = phase_index
        self.empty: set[str] = set()

    def block(self, stmts: list[A.Stmt]) -> None:
        if not stmts:
            self.w.line("pass")
        for s in stmts:
            self.stmt(s)

    def _zone(self, z: A.ZoneRef) -> str:
        assert z.ref is not None  # checked
        if z.ref.per_player and z.index is not None:
            return f"{abi.zone(z.name)} + {self._seat(z.index)}"
        return abi.zone(z.name)

    def stmt(self, s: A.Stmt) -> None:
        (self._methods.get(type(s)) or self.method(type(s)))(self, s)  # a visit_ method; no frame on visit()

    def visit_LetStmt(self, s: A.LetStmt) -> None:
        # A list named in steps is a snapshot: later moves must not change it (the copy is charged). A list
        # the step builds itself (`[c for c in ...]`, `[a, b]`) is new already: nothing else holds it.
        val = self._sx(s.value)
        copy = T.is_list(s.value.ty) and not isinstance(s.value, A.Comp | A.ListLit)
        self.w.line(f"l_{s.name} = {'_it(list(' + val + '))' if copy else val}", s.span)

    def visit_Pick(self, s: A.Pick) -> None:
        # A pick is uniform over the positions of its list: a zone's order, if not decided yet, need not be.
        self.w.line(f"l_{s.name} = _pick(s, {self._unordered(s.options)})", s.span)

    def visit_Move(self, s: A.Move) -> None:
        t = s.cards.ty
        if t == T.CARD:
            self.w.line(f"_move1(s, {self._sx(s.cards)}, {self._zone(s.dest)}, {s.bottom!r})", s.span)
        else:
            # A value of unknown type must be a card or a list of cards of the pack (-1 would be the last).
            # A whole zone moved keeps its cards' order undecided, if it is (interpreter/engine/runtime.py).
            self._order_free = s.cards if self._zone_named(s.cards) is not None else None
            try:
                cards = self._sx(s.cards)
            finally:
                self._order_free = None
            cards = cards if T.is_list(t) and T.elem(t) == T.CARD else f"_cards(s, {cards})"
            self.w.line(f"_move(s, {cards}, {self._zone(s.dest)}, {s.bottom!r})", s.span)

    def visit_Deal(self, s: A.Deal) -> None:
        assert s.dest.ref is not None  # checked
        if s.dest.ref.per_player and s.dest.index is None:
            self.w.line(f"_deal_each(s, {self.ex(s.count)}, {self._zone(s.src)}, {abi.zone(s.dest.name)})", s.span)
        else:
            self.w.line(f"_deal(s, {self.ex(s.count)}, {self._zone(s.src)}, {self._zone(s.dest)})", s.span)

    def visit_Shuffle(self, s: A.Shuffle) -> None:
        self.w.line(f"_shuffle(s, {self._zone(s.zone)})", s.span)

    def visit_Goto(self, s: A.Goto) -> None:
        self.w.line(f"return {abi.phase_number(s.phase)}", s.span)

    def visit_EndDeal(self, s: A.EndDeal) -> None:
        self.w.line(f"return {abi.END_DEAL_NAME}", s.span)

    def visit_Eliminate(self, s: A.Eliminate) -> None:
        self.w.line(f"_eliminate(s, {self._seat(s.player)})", s.span)

    def visit_SitOut(self, s: A.SitOut) -> None:
        self.w.line(f"_sit_out(s, {self._seat(s.player)})", s.span)

    def visit_Do(self, s: A.Do) -> None:
        args = "".join(", " + (f"_it(list({self.ex(a)}))" if T.is_list(a.ty) and not isinstance(a, A.Comp | A.ListLit)
                               else self.ex(a)) for a in s.args)
        self.w.line(f"_r = {abi.procedure(s.proc)}(s{args})", s.span)
        self.w.line("if _r is not None: return _r")

    def visit_Log(self, s: A.Log) -> None:
        vals = "".join(f", ({self.ex(v)}, {_kind(v.ty)!r})" for v in s.values)
        self.w.line(f"if s.log is not None: _log(s, {s.text!r}{vals})", s.span)

    def visit_If(self, s: A.If) -> None:
        w = self.w
        w.line(f"if {self._sx(s.cond)}:", s.span)
        w.indent += 1
        self.block(s.then)
        w.indent -= 1
        if s.other:
            w.line("else:")
            w.indent += 1
            self.block(s.other)
            w.indent -= 1

    def visit_For(self, s: A.For) -> None:
        # Each item runs the body once: the walk is charged times the body's size.
        w = self.w
        items = self._walked(s.iter, weights.size(s.body), s.span)
        w.line(f"for l_{s.var} in list({items}):", s.span)
        w.indent += 1
        with self.binding(s.var, over=s.iter):
            self.block(s.body)
        w.indent -= 1

    def _sx(self, e: A.Expr) -> str:
        """The code of an expression a step evaluates: with small functions inlined, and what its
        comprehensions ask again and again kept in locals, emptied on a line of their own before the step
        (optimize.py; nothing changes the state while one expression is evaluated)."""
        if self.inliner is not None:
            inlined = self.inliner.inline(e)
            if self._order_free is e:
                # The inliner makes a new tree: the zone read whose order does not matter (`visit_Move`) is its
                # copy now, or the optimized compile would decide a shuffled zone's order the plain one leaves.
                self._order_free = inlined
            e = inlined
            self.cached = {id(x) for x in invariants(e, set(), in_loop=False)}
        try:
            # The walks the step's expression is sure to make over lists known already: charged here, inline.
            early = self._hoist(e)
            code = self.ex(e)
            kept = list(self.cache_vars.values())
        finally:
            self.cached, self.cache_vars, self.precharged = set(), {}, set()
        if early:
            self._charge_line(early.removeprefix(" + "), e.span)
        if kept:
            self.w.line(f"{' = '.join(kept)} = MISS")
        return code

    def visit_Assign(self, s: A.Assign) -> None:
        """Assignments keep the state well formed whatever the rules compute: a seat stays a seat, a card a
        card, a number within +-10**18, and a list the items its type says (checked when the checker could
        not know the value's type), charged for its items and within the items all lists may hold."""
        w = self.w
        sp = s.span
        ref = s.ref
        vt = s.value.ty
        val = self._sx(s.value)
        if ref == R.Builtin("team"):
            assert s.index is not None
            w.line(f"_set_team(s, {self._seat(s.index)}, {val})", sp)
            return
        if isinstance(ref, R.Builtin):
            target = {"dealer": "s.dealer", "current": "s.cur"}[ref.name]
            new = val if s.op == "=" else f"{target} {s.op[0]} {val}"
            if s.op == "=" and s.value.ty == T.PLAYER:
                w.line(f"{target} = {new}", sp)  # a value typed player is a seat already
            else:
                w.line(f"{target} = _want_player(s, {new}, {repr(chr(39) + ref.name + chr(39))})", sp)
            return
        assert isinstance(ref, R.Variable)
        v = ref.spec
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
        elif vt == ty or vt == T.NONE or (ty in T.TEXTUAL and vt in T.TEXTUAL):
            w.line(f"{target} = {new}", sp)
        else:
            assert isinstance(ty, T.Prim), ty  # a list variable was kept above; no other kind of variable exists
            w.line(f"{target} = _keep(s, {new}, {ty.name!r})", sp)  # the runtime reads the type's name

    def func(self, name: str, params: list[str], body: list[A.Stmt], span: Span, charged: bool = False,
             optional: bool = False) -> None:
        """A block of steps as a function of the state. `charged`: a call costs the body's size (procedures,
        as functions do). An empty block is recorded, so the engine need not call it; `optional`: it is then
        not written at all."""
        if not body:
            self.empty.add(name)
            if optional:
                return
        self.w.line(f"def {name}(s{''.join(', l_' + p for p in params)}):", span)
        self.w.indent += 1
        if charged:
            self._charge_line(str(weights.size(body)))
        self.block(body)
        self.w.indent -= 1
        self.w.line("")

    def _lifted_body(self, e: A.Expr, params: list[str], question: bool) -> None:
        """The body of a `define:` function, optimized (optimize.py): small functions inlined, what its
        comprehensions ask again and again kept once per call, and its `let` bindings and `if ... then
        ... else` in tail position lifted into statements (cel-python's idea), so the code reads like a
        function a person writes and each binding has a line (and a span) of its own. It is charged the
        size of all the code it may run."""
        w = self.w
        e = self.inliner.inline(e) if self.inliner is not None else e
        # Charged on entry: the size of the code, and the walks it is sure to make over its parameters.
        self._charge_line(str(weights.size(e)) + self._hoist(e))
        start = len(w.lines)  # the locals kept below are emptied here, once their names are known
        self.cached = {id(x) for x in invariants(e, set(), in_loop=False)}
        try:
            self._tail(e, e.ty == T.ANY, 0)
            kept = list(self.cache_vars.values())
        finally:
            self.cached, self.cache_vars, self.precharged = set(), {}, set()
        if kept:
            w.insert(start, f"{' = '.join(kept)} = MISS")
        if e.ty in (T.INT, T.NUM) and _takes_numbers(e, params):
            # A number leaving a function stays within +-10**18: calls cannot double it without end.
            w.line(f"if _r is not None and not {-BIG} <= _r <= {BIG}: f_num(_r)")
        if question:
            w.line("if _q is not None: _q[_k] = _r")
        w.line("return _r")
        w.indent -= 1
        w.line("")

    def _tail(self, e: A.Expr, checked: bool, depth: int) -> None:
        """Statements that set `_r` to the value of `e`: a `let` in tail position becomes assignments, an
        `if ... then ... else` an `if` statement (to a fixed depth: Python nests at most 20 blocks)."""
        w = self.w
        if isinstance(e, A.Let) and depth < TAIL_DEPTH:
            for name, val in e.bindings:
                w.line(f"l_{name} = {self.ex(val)}", val.span)
            self._tail(e.body, checked, depth + 1)
        elif isinstance(e, A.IfExpr) and depth < TAIL_DEPTH:
            w.line(f"if {self.ex(e.cond)}:", e.cond.span)
            w.indent += 1
            self._tail(e.then, checked, depth + 1)
            w.indent -= 1
            w.line("else:")
            w.indent += 1
            self._tail(e.other, checked, depth + 1)
            w.indent -= 1
        else:
            code = self.ex(e)
            w.line(f"_r = f_num({code})" if checked else f"_r = {code}", e.span)

    def efunc(self, name: str, params: list[str], e: A.Expr, want: tuple[str, str] | None = None,
              user: bool = False, question: bool = False) -> None:
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
        if question:
            # While the engine asks one question of an unchanging state (the end of a match: who won, the
            # returns), a function of the state gives the same value for the same arguments: remembered in
            # the question's table `QM[0]` (None between questions).
            args = "".join(f", {x}" for x in params if x != "s")
            w.line("_q = QM[0]")
            w.line("if _q is not None:")
            w.line(f"    _k = ({name!r}{args or ','})")
            w.line("    try:")
            w.line("        return _q[_k]")
            w.line("    except KeyError:")
            w.line("        pass")
            w.line("    except TypeError:  # an argument that cannot be a key (a list)")
            w.line("        _q = None")
        if user and self.inliner is not None:
            self._lifted_body(e, params, question)
            return
        self._charge_line(str(weights.size(e)) + self._hoist(e))
        try:
            code = self.ex(e)
        finally:
            self.precharged = set()
        w.indent -= 1
        if want is not None:
            w.line(f"    _r = {want[0]}(s, {code}, {want[1]!r})", e.span)
        elif user and e.ty in (T.INT, T.NUM) and _takes_numbers(e, params):
            # A number leaving a function stays within +-10**18: calls cannot double it without end. (A
            # function of cards, suits and ranks alone computes a bounded expression of bounded values.)
            w.line(f"    _r = {code}", e.span)
            w.line(f"    if _r is not None and not {-BIG} <= _r <= {BIG}: f_num(_r)")
        elif user and e.ty == T.ANY:
            w.line(f"    _r = f_num({code})", e.span)
        else:
            w.line(f"    _r = {code}", e.span)
        if question:
            w.line("    if _q is not None: _q[_k] = _r")
        w.line("    return _r")
        w.line("")
