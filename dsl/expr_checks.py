"""How the checker types expressions: `Checker.expr`, one method per kind of node.

A part of `Checker` (dsl/checker.py) over the shared context of dsl/check_context.py; calls are typed in
dsl/calls.py, team indexes in dsl/steps.py.
"""

from __future__ import annotations

from . import ast as A
from . import refs as R
from . import types as T
from .calls import _close
from .check_context import BUILTIN_VALUES, CARD_ATTRS, CheckContext
from .library import LIBRARY
from .text_order import refusal, refused


class ExprChecker(CheckContext):
    """Types expressions, one `visit_` method per kind of node (`expr` is the entry point)."""

    def want(self, e: A.Expr, got: T.Type, want: T.Type, what: str) -> None:
        if not T.compatible(got, want):
            self.err("C001", e.span, f"{what} must be {T.show(want)}, not {T.show(got)}")
        elif want == T.INT and got == T.NUM:
            lit = _literal_number(e)
            if lit is not None:  # an int is a number, but 2.5 is no position, count or bound
                self.err("C001", e.span, f"{what} must be a whole number, not {lit}")

    def expr(self, e: A.Expr, perplayer: bool = False) -> T.Type:
        """The type of e, recorded in e.ty. `perplayer`: e may name a per-player variable or zone
        (it is indexed). Two frames per level of nesting (this and the node's handler): the
        checker recurses on nesting, and `max_nesting` is set so that it fits in Python's stack."""
        self.nesting += 1
        try:
            t = (self._methods.get(type(e)) or self.method(type(e)))(self, e)  # no frame spent on visit()
        finally:
            self.nesting -= 1
        if not perplayer and isinstance(t, T.PerPlayer | T.PerTeam):
            name = e.id if isinstance(e, A.Name) else "this"
            if isinstance(t, T.PerTeam):
                self.err("C012", e.span, f"'{name}' is kept per team: write {name}[t], e.g. {name}[team[p]]")
            else:
                self.err("C012", e.span, f"'{name}' is kept per player: write {name}[p]")
            t = T.ANY
        e.ty = t
        return t

    def generic_visit(self, node: A.Node) -> T.Type:
        raise AssertionError(type(node))  # pragma: no cover  (every kind of expression has its method)

    def visit_Const(self, e: A.Const) -> T.Type:
        return T.NONE if e.value is None else T.of_value(e.value)

    def visit_Lambda(self, e: A.Lambda) -> T.Type:
        self.err("C017", e.span, "a function 'x => ...' can only be an argument of max_by, sort_by, ...")
        return T.ANY

    def visit_Let(self, e: A.Let) -> T.Type:
        with self.scope({}):
            for i, (name, val) in enumerate(e.bindings):
                self.declare(name, self.expr(val), e.names[i] if i < len(e.names) else val.span)
            return self.expr(e.body)

    def visit_IfExpr(self, e: A.IfExpr) -> T.Type:
        self.want(e.cond, self.expr(e.cond), T.BOOL, "the condition")
        return T.join(self.expr(e.then), self.expr(e.other))

    def visit_BoolOp(self, e: A.BoolOp) -> T.Type:
        for v in e.values:
            self.want(v, self.expr(v), T.BOOL, f"each side of '{e.op}'")
        return T.BOOL

    def visit_Not(self, e: A.Not) -> T.Type:
        self.want(e.value, self.expr(e.value), T.BOOL, "'not'")
        return T.BOOL

    def visit_Neg(self, e: A.Neg) -> T.Type:
        t = self.expr(e.value)
        self.want(e.value, t, T.NUM, "'-'")
        return T.INT if t in (T.INT, T.PLAYER) else T.NUM

    def visit_ListLit(self, e: A.ListLit) -> T.Type:
        et: T.Type = T.NONE
        for it in e.items:
            et = T.join(et, self.expr(it))
        return T.list_of(T.ANY if et == T.NONE else et)

    def visit_Comp(self, e: A.Comp) -> T.Type:
        it = self.expr(e.iter)
        if not T.is_list(it) and it != T.ANY:
            self.err("C004", e.iter.span, f"'for ... in' needs a list, not {T.show(it)}")
        with self.scope({}):
            self.declare(e.var, T.elem(it), e.var_span or e.span)
            if e.cond is not None:
                self.want(e.cond, self.expr(e.cond), T.BOOL, "the 'if' filter")
            return T.list_of(self.expr(e.elem))

    def visit_Name(self, e: A.Name) -> T.Type:
        n = e.id
        lt = self.local(n)
        if lt is not None:
            e.ref = R.Local(n)
            return lt
        if n in BUILTIN_VALUES:
            e.ref = R.Builtin(n)
            return BUILTIN_VALUES[n][0]
        if n in self.options:
            o = self.options[n]
            e.ref = R.Option(n)
            return {"int": T.INT, "bool": T.BOOL, "choice": T.STR}[o.kind]
        if n in self.consts:
            e.ref = R.Constant(n)
            return self.consts[n][1]
        if n in self.vars:
            v = self.vars[n]
            e.ref = R.Variable(v)
            if v.per_player:
                return T.PerPlayer(v.ty)
            if v.per_team:
                return T.PerTeam(v.ty)
            return v.ty
        if n in self.zones:
            z = self.zones[n]
            e.ref = R.Zone(z)
            if z.per_player:
                return T.PerPlayer(T.list_of(T.CARD))
            return T.list_of(T.CARD)
        if n in self.spec.broken:
            e.ref = R.Broken(n)
            return T.ANY
        if n in self.funcs or n in LIBRARY:
            self.err("C018", e.span, f"'{n}' is a function: call it as {n}(...)")
            return T.ANY
        if self.spec.malformed & {"options", "constants", "zones", "variables"}:
            e.ref = R.Broken(n)
            return T.ANY  # the name may be declared in the section that could not be read
        if self._global_names is None:  # made once: a file may have thousands of unknown names
            self._global_names = list(BUILTIN_VALUES) + list(self.options) + list(self.consts) + list(
                self.vars) + list(self.zones)
        hint = _close(n, [k for s in self.scopes for k in s] + self._global_names)
        if n in self.suits or n in self.ranks:
            hint = (f"suits and ranks are written as text: '{n}' (YAML drops quotes that start a value: "
                    f"quote the whole expression, e.g. \"c.suit == '{n}'\")")
        self.err("C019", e.span, f"unknown name '{n}'", hint)
        return T.ANY

    def visit_Attr(self, e: A.Attr) -> T.Type:
        t = self.expr(e.obj)
        if t not in (T.CARD, T.ANY):
            self.err("C023", e.span, f"'.{e.name}' reads a card's property, but this is {T.show(t)}",
                     "only cards have properties")
            return T.ANY
        if e.name in CARD_ATTRS:
            return CARD_ATTRS[e.name]
        if e.name in self.props:
            return self.props[e.name]
        if e.name in self.spec.broken:
            return T.ANY
        self.err("C024", e.span, f"cards have no property '{e.name}'",
                 _close(e.name, list(CARD_ATTRS) + list(self.props)) or
                 f"properties: {', '.join(list(CARD_ATTRS) + list(self.props))}")
        return T.ANY

    def visit_Index(self, e: A.Index) -> T.Type:
        t = self.expr(e.obj, perplayer=True)
        it = self.expr(e.index)
        if isinstance(t, T.PerPlayer):
            self.want(e.index, it, T.PLAYER, "the player index")
            return t.item
        if isinstance(t, T.PerTeam):
            self._team_index(e.index, e.obj.id if isinstance(e.obj, A.Name) else "this", it)
            return t.item
        if T.is_list(t):
            self.want(e.index, it, T.INT, "a list index")
            return T.elem(t)
        if T.is_map(t):
            self.want(e.index, it, t.key, "the table key")
            return t.value
        if t != T.ANY:
            self.err("C025", e.span, f"{T.show(t)} cannot be indexed with [...]")
        return T.ANY

    def visit_BinOp(self, e: A.BinOp) -> T.Type:
        lt, rt = self.expr(e.left), self.expr(e.right)
        if e.op == "+" and (T.is_list(lt) or T.is_list(rt)):
            if not (T.is_list(lt) and T.is_list(rt)) and T.ANY not in (lt, rt):
                self.err("C026", e.span, f"cannot add {T.show(lt)} and {T.show(rt)}",
                         "to add one item to a list, put it in brackets: xs + [x]")
            return T.join(lt, rt) if T.is_list(lt) and T.is_list(rt) else T.list_of(T.ANY)
        for side, t in ((e.left, lt), (e.right, rt)):
            if not T.compatible(t, T.NUM) or t == T.NONE:
                self.err("C026", side.span, f"'{e.op}' needs numbers, not {T.show(t)}")
                return T.ANY
        if e.op == "/":
            return T.NUM
        if lt in (T.INT, T.PLAYER) and rt in (T.INT, T.PLAYER):
            return T.INT
        return T.NUM if T.ANY not in (lt, rt) else T.ANY

    def visit_Compare(self, e: A.Compare) -> T.Type:
        left = e.first
        lt = self.expr(left)
        for op, right in e.rest:
            rt = self.expr(right)
            if op in ("in", "notin"):
                if not T.is_list(rt) and rt != T.ANY:
                    self.err("C027", right.span, f"'in' needs a list on its right, not {T.show(rt)}")
                else:
                    self._literal_check(left, T.elem(rt))
                    if not T.compatible(lt, T.elem(rt)):
                        self.err("C027", e.span, f"a {T.show(lt)} is never in {T.show(rt)}")
            else:
                self._literal_check(left, rt)
                self._literal_check(right, lt)
                self._phase_check(left, right)
                self._phase_check(right, left)
                if not T.compatible(lt, rt):
                    self.err("C027", e.span, f"cannot compare {T.show(lt)} with {T.show(rt)}")
                elif op not in ("==", "!=") and (lt == T.BOOL or rt == T.BOOL):
                    self.err("C027", e.span, f"'{op}' does not order true/false")
                elif op not in ("==", "!=") and (r := refused(self.spec, left, right)):
                    self.err("C041", e.span, *refusal(f"'{op}'", *r))
            left, lt = right, rt
        return T.BOOL

    def _phase_check(self, e: A.Expr, other: A.Expr) -> None:
        """`phase == 'tricks'`: the text must name a phase (a typo would make the test always false)."""
        if isinstance(e, A.Const) and isinstance(e.value, str) and isinstance(other, A.Name) \
                and isinstance(other.ref, R.Builtin) and other.ref.name == "phase":
            names = [ph.name for ph in self.spec.phases]
            if e.value not in names:
                self.err("C028", e.span, f"'{e.value}' is not a phase of the game",
                         _close(e.value, names) or f"phases: {', '.join(names)}")

    def _literal_check(self, e: A.Expr, against: T.Type) -> None:
        """'hearts' compared with a suit must be a suit of the deck (likewise ranks)."""
        if isinstance(e, A.Const) and isinstance(e.value, str):
            pool = self.suits if against == T.SUIT else self.ranks if against == T.RANK else None
            if pool is not None and e.value not in pool:
                word = against.show()  # 'suit' or 'rank'
                self.err("C028", e.span, f"'{e.value}' is not a {word} of the deck",
                         _close(e.value, pool) or f"{word}s: {self._listing(word)}")
        elif isinstance(e, A.ListLit):
            for it in e.items:
                self._literal_check(it, T.elem(against) if T.is_list(against) else against)

    def _team_index(self, index: A.Expr, name: str, t: T.Type | None = None) -> None:
        """The index of a per-team variable is a team number. Players and numbers mix, so a seat would pass as
        one: score[p] would silently read the team numbered like p's seat, not p's team."""
        t = self.expr(index) if t is None else t
        if t == T.PLAYER:
            self.err("C001", index.span, f"'{name}' is kept per team: its index is a team number, not a player",
                     f"write {name}[team[p]] for the team of player p")
        else:
            self.want(index, t, T.INT, "the team index")


def _literal_number(e: A.Expr) -> str | None:
    """The text of a literal fractional number (2.5, -0.5), or None."""
    sign = ""
    if isinstance(e, A.Neg):
        sign, e = "-", e.value
    if isinstance(e, A.Const) and isinstance(e.value, float):
        return f"{sign}{e.value!r}"
    return None
