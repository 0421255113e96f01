"""Static checks: every name resolved, every call's arity and types, every goto.

The checker walks the `GameSpec`, records on each AST node what its names
refer to (`ref`) and its type (`ty`), and reports every problem it finds.
User functions are checked at each call with the argument types of that call
(they have no type annotations; dsl/calls.py), and may not call themselves.
Expressions are typed in dsl/expr_checks.py, calls in dsl/calls.py, steps (statements) in dsl/steps.py, the
tables and static contexts in dsl/table_checks.py and strategies in dsl/strategy_checks.py: parts of `Checker`,
one per concern, each a class over the shared context of dsl/check_context.py (none stubs another's methods,
so the order of the bases decides nothing).

What the compiler may rely on after `check()` without errors:

* every expression node's `ty` holds for every evaluation of that node. A
  `define:` function checked under several argument signatures has its body
  annotated under their join (`types.join` per parameter, `any` where they
  disagree), so a node that sees a number in one call and a list in another
  is typed `any`, and the compiler must then emit code that works for any
  value (runtime-checked helpers) rather than type-specific code;
* every call of a `define:` function has `ref = refs.UserFunction(FuncSpec)`, and
  every name its `ref`;
* static contexts (option defaults and bounds, constraints, card properties,
  pack `when`/`where`) read no state and no `pack`, and call only `define:`
  functions that read neither, through any callee (C037; dsl/table_checks.py):
  they are compiled without the state `s`; a default or bound calls no
  function reading an option not set yet (C035);
* a text parameter's domain is a list of literal names or a constant, a
  number parameter's is `range(a, b)` with `a`, `b` fixed for the game in
  the same sense (C005); a parameter with `ids` ranges over lists of cards,
  and its `ids` are lists of cards fixed for the game, `pack` allowed (C040,
  C037); a parameter over lists of cards has `ids` (C040);
* no local name is bound twice in one scope chain (C020), so a loop cannot
  rebind a local to grow a value;
* expressions nest at most `4 * limits.expr_depth` levels counting the bodies
  of the functions they call (C036), so recursive walks of the AST, through
  calls, stay within Python's stack.
"""

from __future__ import annotations

from typing import Any

from . import ast as A
from . import types as T
from .analysis import nesting_depths
from .calls import CallChecker, _close
from .check_context import BUILTIN_VALUES, CARD_ATTRS, RESERVED, CheckContext, Symbols
from .deck import check_tables
from .diagnostics import Diagnostic, Span
from .expr_checks import ExprChecker
from .library import FIRST_LIBRARY, LIBRARY
from .limits import Limits
from .openspiel_checks import OpenSpielChecker
from .spec import ActionSpec, GameSpec, ParamSpec, PhaseSpec, PropertySpec
from .steps import ASSIGNABLE_BUILTINS, StepChecker, _walk_stmts
from .strategy_checks import StrategyChecker
from .table_checks import TableChecker
from .types import card_lists

__all__ = ["ASSIGNABLE_BUILTINS", "BUILTIN_VALUES", "CARD_ATTRS", "FIRST_LIBRARY", "RESERVED", "Checker", "Symbols",
           "check"]



class Checker(ExprChecker, CallChecker):
    def __init__(self, spec: GameSpec, diags: list[Diagnostic], limits: Limits):
        CheckContext.__init__(self, spec, diags, limits)  # not super(): the bases' order is no contract
        self.steps = StepChecker(self, self)

    # ------------------------------------------------------------ declarations
    def check(self) -> None:
        sp = self.spec
        self._names_unique()
        self.depths = nesting_depths(sp.functions)
        for p in sp.properties:
            self.props[p.name] = self._property_type(p)
        for k, o in enumerate(sp.options):
            if isinstance(o.default, A.Expr):
                later = {x.name for x in sp.options[k:]}
                for n in {n.id for n in A.walk(o.default) if isinstance(n, A.Name)}:
                    if n in later:
                        self.err("C035", o.default.span, f"the default of option '{o.name}' reads option '{n}', "
                                 "which is not set yet", "an option's default may read only the options above it")
                with self.scope({}):
                    t = self.expr(o.default)
                want = {"int": T.INT, "bool": T.BOOL, "choice": T.STR}[o.kind]
                self.want(o.default, t, want, f"default of option '{o.name}'")
        tables = TableChecker(self, self)
        tables.table_types()
        self._deck()
        for z in sp.zones:
            if isinstance(z.visible, A.Expr):
                with self.scope({"owner": T.PLAYER} if z.per_player else {}):
                    self.want(z.visible, self.expr(z.visible), T.list_of(T.PLAYER), "'visible'")
        if sp.teams is not None:
            with self.scope({"p": T.PLAYER}):
                self.want(sp.teams, self.expr(sp.teams), T.INT, "'teams'")
        for v in sp.variables:
            owner = {"owner": T.PLAYER} if v.per_player else {"owner": T.INT} if v.per_team else {}
            if v.initial is not None:
                with self.scope(owner):
                    t = self.expr(v.initial)
                if not T.compatible(t, v.ty):
                    self.err("C001", v.initial.span, f"initial value of '{v.name}' is {T.show(t)}, "
                             f"but '{v.name}' holds {T.show(v.ty)}")
            if isinstance(v.visible, A.Expr):
                with self.scope(owner):
                    self.want(v.visible, self.expr(v.visible), T.list_of(T.PLAYER), "'visible'")
        for f in sp.functions:
            if f.body is not None and not f.params:
                self.user_call(f, [], f.span, root=True)
        for f in sp.functions:
            self._params_free(f.params, f.span, "function", f.name)
        for pr in sp.procedures:
            self._params_free(pr.params, pr.span, "procedure", pr.name)
        for a in sp.actions:
            self._action(a)
        self._distinct_texts()
        for ph in sp.phases:
            self._phase(ph)
        StrategyChecker(self, self).check()
        OpenSpielChecker(self, self).check()
        if not sp.phases and "phases" not in sp.missing_sections:
            self.err("C030", sp.spans.get("phases", sp.root_span), "the game has no phases")
        m = sp.match
        with self.scope({}):
            self.steps.block(m.start)
        with self.scope({}):
            self.steps.block(m.deal)
        with self.scope({}):
            self.steps.block(m.end_deal)
        if not m.deal:
            self.err("C031", m.span, "'match: deal' is empty", "it must deal the cards and 'goto' a phase")
        ends: list[tuple[A.Expr | None, T.Type, str]] = [
            (m.next_dealer, T.PLAYER, "'next_dealer'"), (m.over_when, T.BOOL, "'over_when'"),
            (m.winners, T.list_of(T.PLAYER), "'winners'")]
        for e, wanted, what in ends:
            if e is not None:
                with self.scope({}):
                    self.want(e, self.expr(e), wanted, what)
        for _, e in m.report:
            with self.scope({"p": T.PLAYER}):
                self.expr(e)
        self._returns()
        self._bounds()
        self.steps.procedures()
        for where, block in (("'match: start'", m.start), ("'match: end_deal'", m.end_deal)):
            for st in _walk_stmts(block):
                if isinstance(st, A.Goto | A.EndDeal):
                    self.err("C033", st.span, f"{where} cannot '{'goto' if isinstance(st, A.Goto) else 'end deal'}'",
                             "phases start from 'match: deal'; a deal ends with 'end deal' in a phase")
        self.steps.undone_by_deals(m.start)
        for f in sp.functions:
            if f.body is not None and f.name not in self.signatures:
                # Never called (or only where the call nests too deeply): still check it, with
                # parameters of unknown type.
                self.user_call(f, [T.ANY] * len(f.params), f.span, root=True)
        if self.skipped and not any(d.code == "C036" for d in self.diags):  # pragma: no cover - a safeguard
            span, name = self.skipped[0]
            self.err("C036", span, f"expressions nest more than {self.max_nesting} levels deep here, counting the "
                     f"body of '{name}' and of the functions it calls")
        tables.static_contexts()
        tables.param_domains()
        self.settle()

    def _returns(self) -> None:
        """`match: returns`: a number for each seat `p`; its bounds numbers fixed for the game (read in
        `_static_contexts`)."""
        r = self.spec.match.returns
        if r is None:
            return
        with self.scope({"p": T.PLAYER}):
            self.want(r.value, self.expr(r.value), T.NUM, "'returns'")
        for b, what in ((r.min, "'min' of 'returns'"), (r.max, "'max' of 'returns'")):
            if b is not None:
                with self.scope({}):
                    self.want(b, self.expr(b), T.NUM, what)

    def _bounds(self) -> None:
        """`match: bounds`: numbers fixed for the game (read in `_static_contexts`); whole numbers of 1 or more,
        which the engine checks when it sets the game up."""
        b = self.spec.match.bounds
        if b is None:
            return
        for e, what in ((b.actions, "'actions' of 'bounds'"), (b.outcomes, "'outcomes' of 'bounds'")):
            if e is not None:
                with self.scope({}):
                    self.want(e, self.expr(e), T.NUM, what)

    def _names_unique(self) -> None:
        sp = self.spec
        seen: dict[str, tuple[str, Span]] = {}
        groups: list[tuple[str, list[Any]]] = [
            ("option", sp.options), ("zone", sp.zones), ("variable", sp.variables),
            ("function", sp.functions), ("procedure", sp.procedures), ("action", sp.actions),
            ("phase", sp.phases)]
        for kind, items in groups:
            for it in items:
                if it.name in RESERVED and kind not in ("action", "phase"):
                    if it.name in LIBRARY:
                        self.err("C021", it.span, f"{kind} '{it.name}' has the name of a library function",
                                 f"{it.name}(...) in the library gives {LIBRARY[it.name].doc}; choose another name")
                    elif it.name in BUILTIN_VALUES:
                        self.err("C021", it.span, f"{kind} '{it.name}' has the name of a built-in",
                                 "built-ins: " + ", ".join(sorted(BUILTIN_VALUES)))
                    else:
                        self.err("C021", it.span, f"{kind} '{it.name}' is a word of the language",
                                 "'owner' is the player a zone or value belongs to, in 'visible' and 'initial'; "
                                 "choose another name" if it.name == "owner" else "choose another name")
                    continue
                if it.name in seen and kind not in ("action", "phase"):
                    k0, s0 = seen[it.name]
                    self.err("C022", it.span, f"{kind} '{it.name}' has the same name as the {k0} at line "
                             f"{s0.line}")
                    continue
                if kind not in ("action", "phase"):
                    seen[it.name] = (kind, it.span)
        for name, (_, span) in sp.constants.items():
            if name in seen or name in RESERVED:
                self.err("C022", span, f"constant '{name}' clashes with another name")
        self.zones = {z.name: z for z in sp.zones}
        self.vars = {v.name: v for v in sp.variables}
        self.funcs = {f.name: f for f in sp.functions}
        self.procs = {p.name: p for p in sp.procedures}
        for a in sp.actions:
            if a.name in self.actions:
                self.err("C022", a.span, f"action '{a.name}' is defined twice")
            self.actions[a.name] = a
        for ph in sp.phases:
            self.phases[ph.name] = ph


    def _property_type(self, p: PropertySpec) -> T.Type:
        if p.by in ("rank", "suit"):
            valid = self.ranks if p.by == "rank" else self.suits
            for k, span in p.table_spans.items():
                if k not in valid:
                    self.err("C002", span, f"'{k}' is not a {p.by} of the deck",
                             _close(k, valid) or f"{p.by}s: {self._listing(p.by)}")
            t: T.Type = T.NONE
            for v in list(p.table.values()) + ([p.default] if p.default is not None else []):
                t = T.join(t, T.of_value(v))
            return T.ANY if t == T.NONE else t
        if p.by == "const":
            return T.of_value(p.default)
        with self.scope({"rank": T.RANK, "suit": T.SUIT, "rank_index": T.INT, "suit_index": T.INT}):
            assert p.expr is not None
            return self.expr(p.expr)

    def _deck(self) -> None:
        sp = self.spec
        if not sp.suits and not any(e.card for e in sp.pack):
            self.err("C003", sp.spans.get("deck.suits", sp.spans.get("deck", sp.root_span)), "the deck has no suits")
        if not sp.ranks and not any(e.card for e in sp.pack):
            self.err("C003", sp.spans.get("deck.ranks", sp.spans.get("deck", sp.root_span)), "the deck has no ranks")
        for e in sp.pack:
            for s in e.suits or []:
                if s not in self.suits:
                    self.err("C002", e.span, f"pack names unknown suit '{s}'", _close(s, self.suits))
            for r in e.ranks or []:
                if r not in self.ranks:
                    self.err("C002", e.span, f"pack names unknown rank '{r}'", _close(r, self.ranks))
            if e.when is not None:
                with self.scope({}):
                    self.want(e.when, self.expr(e.when), T.BOOL, "'when'")
            if e.where is not None:
                with self.scope({"card": T.CARD}):
                    self.want(e.where, self.expr(e.where), T.BOOL, "'where'")
        check_tables(sp, self.err)

    def _action(self, a: ActionSpec) -> None:
        with self.scope({}):
            for prm in a.params:
                t = self.expr(prm.domain)
                if t == T.ANY:
                    t = T.list_of(T.ANY)
                elif not T.is_list(t):
                    self.err("C004", prm.domain.span, f"parameter '{prm.name}' must range over a list "
                             f"(cards in a zone, players, suits, range(a, b), ...), not {T.show(t)}")
                    t = T.list_of(T.ANY)
                et = T.elem(t)
                if prm.ids is not None:
                    et = self._card_lists_param(a, prm, t)
                elif card_lists(t):
                    self.err("C040", prm.domain.span, f"parameter '{prm.name}' ranges over lists of cards: give "
                             "'ids', the fixed list of every value it can take",
                             f"write {prm.name}: {{from: \"...\", ids: \"...\"}}; a value's action id is its "
                             "position in 'ids'")
                    et = T.list_of(T.CARD)
                elif et not in (T.CARD, T.PLAYER, T.SUIT, T.RANK, T.BOOL, T.INT, T.STR, T.ANY):
                    self.err("C005", prm.domain.span, f"parameter '{prm.name}' ranges over {T.show(t)}; "
                             "actions take cards, players, suits, ranks, numbers, true/false or names")
                self.declare(prm.name, et, prm.span)
            if a.when is not None:
                self.want(a.when, self.expr(a.when), T.BOOL, "'when'")
            self.steps.block(a.effect)

    def _card_lists_param(self, a: ActionSpec, prm: ParamSpec, t: T.Type) -> T.Type:
        """A parameter with `ids`: its values and its ids are lists of cards (C040); the type of its value."""
        ids = prm.ids
        assert ids is not None
        if ids is not prm.domain:
            ti = self.expr(ids)
            if not card_lists(ti) and ti != T.ANY:
                self.err("C040", ids.span, f"'ids' of parameter '{prm.name}' must be a list of lists of cards, "
                         f"not {T.show(ti)}", "e.g. combinations(pack, 2), or lists built with comprehensions")
        if not card_lists(t) and t != T.list_of(T.ANY):
            what = "'from'" if ids is not prm.domain else "'ids'"
            self.err("C040", prm.domain.span, f"{what} of parameter '{prm.name}' must give lists of cards, not "
                     f"{T.show(t)}", "'ids' is for a parameter whose value is several cards at once; a parameter "
                     "over cards, players or numbers is written as its domain alone")
        return T.list_of(T.CARD)

    def _distinct_texts(self) -> None:
        """Two actions that print alike ('play A of clubs, high') cannot be told apart in logs, scenario
        files or at the table when both can be legal at once. Only the actions of the current phase can be
        legal, so two that no phase offers together are read apart by the phase: a `bid` of each round."""
        alike: dict[tuple[str, tuple[str, ...]], list[ActionSpec]] = {}
        for a in self.spec.actions:
            shape = (a.label or a.name, tuple(T.show(T.elem(p.domain.ty)) for p in a.params))
            alike.setdefault(shape, []).append(a)
        shape_of = {a.name: shape for shape, group in alike.items() if len(group) > 1 for a in group}
        for ph in self.spec.phases:
            # The first action of each shape this phase lists, to name beside a later one.
            listed: dict[tuple[str, tuple[str, ...]], str] = {}
            for name, span in ph.actions:
                same = shape_of.get(name)
                if same is None:
                    continue
                other = listed.setdefault(same, name)
                if other != name:
                    self.err("C034", span, f"actions '{other}' and '{name}' print alike ('{same[0]}' with "
                             f"{', '.join(same[1]) or 'no parameters'}), and phase '{ph.name}' offers both",
                             "give one a different label, merge them into one action, or offer them in "
                             "different phases")

    def _phase(self, ph: PhaseSpec) -> None:
        for name, span in ph.actions:
            if name not in self.actions and name not in self.spec.broken and "actions" not in self.spec.malformed:
                self.err("C006", span, f"unknown action '{name}'", _close(name, self.actions))
        if ph.then is not None and ph.then[0] not in self.phases:
            self.err("C007", ph.then[1], f"unknown phase '{ph.then[0]}'", _close(ph.then[0], self.phases))
        if ph.first is not None:
            with self.scope({}):
                self.want(ph.first, self.expr(ph.first), T.PLAYER, "'first'")
        for block in (ph.start, ph.after, ph.end):
            with self.scope({}):
                self.steps.block(block)

    # ------------------------------------------------------------ statements (see dsl/steps.py)
    def _params_free(self, params: list[str], span: Span, kind: str, name: str) -> None:
        for p in params:
            if p in RESERVED or p in self.vars or p in self.zones or p in self.options or p in self.consts:
                self.err("C020", span, f"parameter '{p}' of {kind} '{name}' hides a name of the game",
                         "choose another parameter name")


def check(spec: GameSpec, diags: list[Diagnostic], limits: Limits) -> Checker:
    c = Checker(spec, diags, limits)
    c.check()
    return c
