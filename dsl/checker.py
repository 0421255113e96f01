"""Static checks: every name resolved, every call's arity and types, every goto.

The checker walks the `GameSpec`, records on each AST node what its names
refer to (`ref`) and its type (`ty`), and reports every problem it finds.
User functions are checked at each call with the argument types of that call
(they have no type annotations), and may not call themselves.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from . import ast as A
from . import types as T
from .diagnostics import Diagnostic, Span
from .library import LIBRARY, LibFunc
from .parser import KEYWORDS
from .schema import ActionSpec, FuncSpec, GameSpec, PhaseSpec, ProcSpec, VarSpec, ZoneSpec
from .suggest import did_you_mean

BUILTIN_VALUES: dict[str, tuple[Any, str]] = {
    "players": (T.list_of(T.PLAYER), "every seat, 0 to num_players - 1"),
    "active_players": (T.list_of(T.PLAYER), "seats still in the match, clockwise from seat 0"),
    "num_players": (T.INT, "the number of players"),
    "suits": (T.list_of(T.SUIT), "the deck's suits, in the order declared"),
    "ranks": (T.list_of(T.RANK), "the deck's ranks, lowest first"),
    "pack": (T.list_of(T.CARD), "every card in play this game"),
    "dealer": (T.PLAYER, "the dealer of the current deal"),
    "current": (T.PLAYER, "the player whose turn it is"),
    "player": (T.PLAYER, "the player taking the action (in 'after' and 'end': who acted last)"),
    "deal_number": (T.INT, "1 for the first deal of the match, 2 for the second, ..."),
    "turns": (T.INT, "turns already taken in the current round phase"),
}
ASSIGNABLE_BUILTINS = {"dealer", "current"}
MAX_CALL_DEPTH = 100  # functions or procedures calling each other
CARD_ATTRS: dict[str, Any] = {"suit": T.SUIT, "rank": T.RANK, "rank_index": T.INT, "suit_index": T.INT,
                              "name": T.STR}
RESERVED = set(BUILTIN_VALUES) | set(LIBRARY) | {"owner"} | set(KEYWORDS)


def _close(name: str, options: Any) -> str | None:
    return did_you_mean(name, options)


class Checker:
    def __init__(self, spec: GameSpec, diags: list[Diagnostic]):
        self.spec = spec
        self.diags = diags
        self._seen: set[tuple[str, Span, str]] = set()
        self.options = {o.name: o for o in spec.options}
        self.consts = {k: (v, T.of_value(v)) for k, (v, _) in spec.constants.items()}
        self.zones: dict[str, ZoneSpec] = {}
        self.vars: dict[str, VarSpec] = {}
        self.funcs: dict[str, FuncSpec] = {}
        self.procs: dict[str, ProcSpec] = {}
        self.actions: dict[str, ActionSpec] = {}
        self.phases: dict[str, PhaseSpec] = {}
        self.props: dict[str, Any] = {}
        self.scopes: list[dict[str, Any]] = []
        self.call_stack: list[str] = []
        self.func_cache: dict[tuple[str, tuple[str, ...]], Any] = {}
        self.proc_args: dict[str, list[Any]] = {}
        self.suits = set(spec.suits)
        self.ranks = set(spec.ranks)
        # The names of special cards (outside suits x ranks) count as ranks.
        for e in spec.pack:
            if e.card:
                self.ranks.add(e.card)

    # ------------------------------------------------------------ reporting
    def err(self, code: str, span: Span, msg: str, hint: str | None = None) -> None:
        key = (code, span, msg)
        if key in self._seen:
            return
        self._seen.add(key)
        self.diags.append(Diagnostic(code, span, msg, hint))

    @contextmanager
    def scope(self, names: dict[str, Any]) -> Iterator[None]:
        self.scopes.append(dict(names))
        try:
            yield
        finally:
            self.scopes.pop()

    def local(self, name: str) -> Any:
        for s in reversed(self.scopes):
            if name in s:
                return s[name]
        return None

    def declare(self, name: str, ty: Any, span: Span) -> None:
        kind = ("a library function" if name in LIBRARY else "a built-in value" if name in BUILTIN_VALUES
                else "a word of the language" if name in RESERVED else "a variable" if name in self.vars
                else "a zone" if name in self.zones else "an option" if name in self.options else None)
        if kind is not None:
            self.err("C020", span, f"'{name}' is already {kind}", "choose another name for the local value")
        self.scopes[-1][name] = ty

    # ------------------------------------------------------------ declarations
    def check(self) -> None:
        sp = self.spec
        self._names_unique()
        for p in sp.properties:
            self.props[p.name] = self._property_type(p)
        for k, o in enumerate(sp.options):
            if isinstance(o.default, A.Expr):
                later = {x.name for x in sp.options[k:]}
                for n in _names_in(o.default):
                    if n in later:
                        self.err("C035", o.default.span, f"the default of option '{o.name}' reads option '{n}', "
                                 "which is not set yet", "an option's default may read only the options above it")
                with self.scope({}):
                    t = self.expr(o.default)
                want = {"int": T.INT, "bool": T.BOOL, "choice": T.STR}[o.kind]
                self.want(o.default, t, want, f"default of option '{o.name}'")
        self._deck()
        for z in sp.zones:
            if isinstance(z.visible, A.Expr):
                with self.scope({"owner": T.PLAYER} if z.per_player else {}):
                    self.want(z.visible, self.expr(z.visible), T.list_of(T.PLAYER), "'visible'")
        for v in sp.variables:
            if v.initial is not None:
                with self.scope({"owner": T.PLAYER} if v.per_player else {}):
                    t = self.expr(v.initial)
                if not T.compatible(t, v.ty):
                    self.err("C001", v.initial.span, f"initial value of '{v.name}' is {T.show(t)}, "
                             f"but '{v.name}' holds {T.show(v.ty)}")
            if isinstance(v.visible, A.Expr):
                with self.scope({"owner": T.PLAYER} if v.per_player else {}):
                    self.want(v.visible, self.expr(v.visible), T.list_of(T.PLAYER), "'visible'")
        for f in sp.functions:
            if f.body is not None and not f.params:
                self.user_call(f, [], f.span)
        for f in sp.functions:
            self._params_free(f.params, f.span, "function", f.name)
        for pr in sp.procedures:
            self._params_free(pr.params, pr.span, "procedure", pr.name)
        for a in sp.actions:
            self._action(a)
        self._distinct_texts()
        for ph in sp.phases:
            self._phase(ph)
        if not sp.phases and "phases" not in sp.missing_sections:
            self.err("C030", sp.spans.get("phases", sp.root_span), "the game has no phases")
        m = sp.match
        with self.scope({}):
            self.block(m.start)
        with self.scope({}):
            self.block(m.deal)
        with self.scope({}):
            self.block(m.end_deal)
        if not m.deal:
            self.err("C031", m.span, "'match: deal' is empty", "it must deal the cards and 'goto' a phase")
        for e, want, what in ((m.next_dealer, T.PLAYER, "'next_dealer'"), (m.over_when, T.BOOL, "'over_when'"),
                              (m.winners, T.list_of(T.PLAYER), "'winners'")):
            if e is not None:
                with self.scope({}):
                    self.want(e, self.expr(e), want, what)
        for _, e in m.report:
            with self.scope({"p": T.PLAYER}):
                self.expr(e)
        self._procedures()
        for where, block in (("'match: start'", m.start), ("'match: end_deal'", m.end_deal)):
            for st in _walk_stmts(block):
                if isinstance(st, A.Goto | A.EndDeal):
                    self.err("C033", st.span, f"{where} cannot '{'goto' if isinstance(st, A.Goto) else 'end deal'}'",
                             "phases start from 'match: deal'; a deal ends with 'end deal' in a phase")
        for f in sp.functions:
            if f.body is not None and f.params and not any(k[0] == f.name for k in self.func_cache):
                # Never called: still check it, with parameters of unknown type.
                self.user_call(f, [T.ANY] * len(f.params), f.span)

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
                    self.err("C021", it.span, f"{kind} '{it.name}' has the name of a built-in",
                             "built-ins: " + ", ".join(sorted(BUILTIN_VALUES)))
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

    def _property_type(self, p: Any) -> Any:
        if p.by in ("rank", "suit"):
            valid = self.ranks if p.by == "rank" else self.suits
            for k, span in p.table_spans.items():
                if k not in valid:
                    self.err("C002", span, f"'{k}' is not a {p.by} of the deck",
                             _close(k, valid) or f"{p.by}s: {', '.join(sorted(valid))}")
            t: Any = T.NONE
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
                if et not in (T.CARD, T.PLAYER, T.SUIT, T.RANK, T.BOOL, T.INT, T.STR, T.ANY):
                    self.err("C005", prm.domain.span, f"parameter '{prm.name}' ranges over {T.show(t)}; "
                             "actions take cards, players, suits, ranks, numbers, true/false or names")
                self.declare(prm.name, et, prm.span)
            if a.when is not None:
                self.want(a.when, self.expr(a.when), T.BOOL, "'when'")
            self.block(a.effect)

    def _distinct_texts(self) -> None:
        """Two actions that print alike ('play A of clubs, high') cannot be told apart in
        logs, scenario files or at the table."""
        seen: dict[tuple[str, tuple[str, ...]], ActionSpec] = {}
        for a in self.spec.actions:
            shape = (a.label or a.name, tuple(T.show(T.elem(p.domain.ty)) for p in a.params))
            if shape in seen:
                other = seen[shape]
                self.err("C034", a.span, f"actions '{other.name}' and '{a.name}' print alike: "
                         f"'{shape[0]}' with {', '.join(shape[1]) or 'no parameters'}",
                         "give one a different label, or merge them into one action")
            else:
                seen[shape] = a

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
                self.block(block)

    # ------------------------------------------------------------ statements
    def block(self, stmts: list[A.Stmt]) -> None:
        with self.scope({}):
            for s in stmts:
                self.stmt(s)

    def stmt(self, s: A.Stmt) -> None:
        if isinstance(s, A.Assign):
            self._assign(s)
        elif isinstance(s, A.LetStmt):
            t = self.expr(s.value)
            self.declare(s.name, t, s.span)
        elif isinstance(s, A.Pick):
            t = self.expr(s.options)
            if not T.is_list(t) and t != T.ANY:
                self.err("C004", s.options.span, f"'pick' chooses from a list, not {T.show(t)}")
            self.declare(s.name, T.elem(t), s.span)
        elif isinstance(s, A.Move):
            t = self.expr(s.cards)
            if not (t in (T.CARD, T.ANY) or (T.is_list(t) and T.elem(t) in (T.CARD, T.ANY))):
                self.err("C008", s.cards.span, f"'move' needs a card or a list of cards, not {T.show(t)}")
            self.zone(s.dest, need_index=True)
        elif isinstance(s, A.Deal):
            self.want(s.count, self.expr(s.count), T.INT, "the number of cards to deal")
            self.zone(s.src, need_index=True)
            self.zone(s.dest, need_index=False)
        elif isinstance(s, A.Shuffle):
            self.zone(s.zone, need_index=True)
        elif isinstance(s, A.Goto):
            if s.phase not in self.phases and s.phase not in self.spec.broken and self.phases:
                self.err("C007", s.span, f"unknown phase '{s.phase}'", _close(s.phase, self.phases))
        elif isinstance(s, A.EndDeal):
            pass
        elif isinstance(s, A.Log):
            for v in s.values:
                self.expr(v)
            if s.text.count("{}") != len(s.values):
                self.err("C032", s.span, f"the message has {s.text.count('{}')} '{{}}' but "
                         f"{len(s.values)} value(s) follow it")
        elif isinstance(s, A.Eliminate):
            self.want(s.player, self.expr(s.player), T.PLAYER, "'eliminate'")
        elif isinstance(s, A.Do):
            pr = self.procs.get(s.proc)
            if pr is None and (s.proc in self.spec.broken or "procedures" in self.spec.malformed):
                return
            if pr is None:
                self.err("C009", s.span, f"unknown procedure '{s.proc}'", _close(s.proc, self.procs))
                return
            if len(s.args) != len(pr.params):
                self.err("C010", s.span, f"procedure '{s.proc}' takes {_args(len(pr.params))}, "
                         f"got {len(s.args)}")
            types = [self.expr(a) for a in s.args]
            if len(types) == len(pr.params):
                old = self.proc_args.get(pr.name)
                self.proc_args[pr.name] = types if old is None else [T.join(x, y) for x, y in zip(old, types)]
            self._proc_recursion(pr, s.span)
        elif isinstance(s, A.If):
            self.want(s.cond, self.expr(s.cond), T.BOOL, "'if'")
            self.block(s.then)
            self.block(s.other)
        elif isinstance(s, A.For):
            t = self.expr(s.iter)
            if not T.is_list(t) and t != T.ANY:
                self.err("C004", s.iter.span, f"'for' needs a list, not {T.show(t)}")
            with self.scope({}):
                self.declare(s.var, T.elem(t), s.span)
                self.block(s.body)

    def _params_free(self, params: list[str], span: Span, kind: str, name: str) -> None:
        for p in params:
            if p in RESERVED or p in self.vars or p in self.zones or p in self.options or p in self.consts:
                self.err("C020", span, f"parameter '{p}' of {kind} '{name}' hides a name of the game",
                         "choose another parameter name")

    def _procedures(self) -> None:
        """Check procedures callers first, each with the joined types its calls pass."""
        order: list[str] = []
        seen: set[str] = set()
        for root in self.procs:
            # Depth-first without recursion: a chain of procedures may be long.
            stack: list[tuple[str, bool]] = [(root, False)]
            while stack:
                name, done = stack.pop()
                if done:
                    order.append(name)
                    continue
                if name in seen:
                    continue
                seen.add(name)
                stack.append((name, True))
                for st in _walk_stmts(self.procs[name].body):
                    if isinstance(st, A.Do) and st.proc in self.procs and st.proc not in seen:
                        stack.append((st.proc, False))
        for name in reversed(order):
            pr = self.procs[name]
            types = self.proc_args.get(name, [T.ANY] * len(pr.params))
            with self.scope(dict(zip(pr.params, types))):
                self.block(pr.body)

    def _proc_recursion(self, pr: ProcSpec, span: Span) -> None:
        if len(self.call_stack) >= MAX_CALL_DEPTH:
            self.err("C036", span, f"procedures call each other more than {MAX_CALL_DEPTH} deep",
                     "flatten the chain of procedures")
            return
        if pr.name in self.call_stack:
            self.err("C011", span, f"procedure '{pr.name}' calls itself",
                     "procedures and functions may not be recursive, so every rule ends")
            return
        self.call_stack.append(pr.name)
        try:
            for st in _walk_stmts(pr.body):
                if isinstance(st, A.Do) and st.proc in self.procs:
                    self._proc_recursion(self.procs[st.proc], st.span)
        finally:
            self.call_stack.pop()

    def _assign(self, s: A.Assign) -> None:
        vt = self.expr(s.value)
        if s.name in ASSIGNABLE_BUILTINS and s.index is None:
            s.ref = ("builtin", s.name)
            target: Any = T.PLAYER
        elif s.name in self.vars:
            v = self.vars[s.name]
            s.ref = ("var", v)
            target = v.ty
            if v.per_player and s.index is None:
                self.err("C012", s.span, f"'{s.name}' is kept per player: write {s.name}[p]")
            elif not v.per_player and s.index is not None:
                self.err("C012", s.span, f"'{s.name}' is a single value, not one per player")
            if s.index is not None:
                self.want(s.index, self.expr(s.index), T.PLAYER, "the player index")
        elif s.name in self.spec.broken:
            return
        else:
            hint = _close(s.name, list(self.vars) + list(ASSIGNABLE_BUILTINS))
            if s.name in BUILTIN_VALUES or s.name in self.zones or s.name in self.options:
                hint = "only variables, 'dealer' and 'current' can be assigned; cards move with 'move'"
            self.err("C013", s.span, f"cannot assign to '{s.name}': it is not a variable", hint)
            return
        if s.op != "=" and target not in T.NUMERIC and not T.is_list(target):
            self.err("C014", s.span, f"'{s.op}' needs a number or list variable; '{s.name}' holds "
                     f"{T.show(target)}")
        elif not T.compatible(vt, target):
            self.err("C001", s.value.span, f"'{s.name}' holds {T.show(target)}, not {T.show(vt)}")

    def zone(self, z: A.ZoneRef, need_index: bool) -> None:
        zs = self.zones.get(z.name)
        if zs is None and (z.name in self.spec.broken or "zones" in self.spec.malformed):
            return
        if zs is None:
            self.err("C015", z.span, f"unknown zone '{z.name}'", _close(z.name, self.zones))
            return
        z.ref = zs
        if zs.per_player and z.index is None and need_index:
            self.err("C016", z.span, f"zone '{z.name}' belongs to each player: write {z.name}[p]")
        if not zs.per_player and z.index is not None:
            self.err("C016", z.span, f"zone '{z.name}' is shared: it takes no player index")
        if z.index is not None:
            self.want(z.index, self.expr(z.index), T.PLAYER, "the player index")

    # ------------------------------------------------------------ expressions
    def want(self, e: A.Expr, got: Any, want: Any, what: str) -> None:
        if not T.compatible(got, want):
            self.err("C001", e.span, f"{what} must be {T.show(want)}, not {T.show(got)}")

    def expr(self, e: A.Expr) -> Any:
        t = self._expr(e)
        if isinstance(t, tuple) and t[0] == "perplayer":
            name = e.id if isinstance(e, A.Name) else "this"
            self.err("C012", e.span, f"'{name}' is kept per player: write {name}[p]")
            t = T.ANY
        e.ty = t
        return t

    def _expr(self, e: A.Expr) -> Any:
        if isinstance(e, A.Const):
            v = e.value
            return T.NONE if v is None else T.of_value(v)
        if isinstance(e, A.Name):
            return self._name(e)
        if isinstance(e, A.Attr):
            return self._attr(e)
        if isinstance(e, A.Index):
            return self._index(e)
        if isinstance(e, A.Call):
            return self._call(e)
        if isinstance(e, A.Lambda):
            self.err("C017", e.span, "a function 'x => ...' can only be an argument of max_by, sort_by, ...")
            return T.ANY
        if isinstance(e, A.Let):
            with self.scope({}):
                for name, val in e.bindings:
                    self.declare(name, self.expr(val), val.span)
                return self.expr(e.body)
        if isinstance(e, A.IfExpr):
            self.want(e.cond, self.expr(e.cond), T.BOOL, "the condition")
            return T.join(self.expr(e.then), self.expr(e.other))
        if isinstance(e, A.BinOp):
            return self._binop(e)
        if isinstance(e, A.Compare):
            return self._compare(e)
        if isinstance(e, A.BoolOp):
            for v in e.values:
                self.want(v, self.expr(v), T.BOOL, f"each side of '{e.op}'")
            return T.BOOL
        if isinstance(e, A.Not):
            self.want(e.value, self.expr(e.value), T.BOOL, "'not'")
            return T.BOOL
        if isinstance(e, A.Neg):
            t = self.expr(e.value)
            self.want(e.value, t, T.NUM, "'-'")
            return T.INT if t in (T.INT, T.PLAYER) else T.NUM
        if isinstance(e, A.ListLit):
            et: Any = T.NONE
            for it in e.items:
                et = T.join(et, self.expr(it))
            return T.list_of(T.ANY if et == T.NONE else et)
        if isinstance(e, A.Comp):
            it = self.expr(e.iter)
            if not T.is_list(it) and it != T.ANY:
                self.err("C004", e.iter.span, f"'for ... in' needs a list, not {T.show(it)}")
            with self.scope({}):
                self.declare(e.var, T.elem(it), e.span)
                if e.cond is not None:
                    self.want(e.cond, self.expr(e.cond), T.BOOL, "the 'if' filter")
                return T.list_of(self.expr(e.elem))
        raise AssertionError(type(e))  # pragma: no cover

    def _name(self, e: A.Name) -> Any:
        n = e.id
        lt = self.local(n)
        if lt is not None:
            e.ref = ("local", n)
            return lt
        if n in BUILTIN_VALUES:
            e.ref = ("builtin", n)
            return BUILTIN_VALUES[n][0]
        if n in self.options:
            o = self.options[n]
            e.ref = ("option", n)
            return {"int": T.INT, "bool": T.BOOL, "choice": T.STR}[o.kind]
        if n in self.consts:
            e.ref = ("const", n)
            return self.consts[n][1]
        if n in self.vars:
            v = self.vars[n]
            e.ref = ("var", v)
            if v.per_player:
                return ("perplayer", v.ty)
            return v.ty
        if n in self.zones:
            z = self.zones[n]
            e.ref = ("zone", z)
            if z.per_player:
                return ("perplayer", T.list_of(T.CARD))
            return T.list_of(T.CARD)
        if n in self.spec.broken:
            e.ref = ("broken", n)
            return T.ANY
        if n in self.funcs or n in LIBRARY:
            self.err("C018", e.span, f"'{n}' is a function: call it as {n}(...)")
            return T.ANY
        if self.spec.malformed & {"options", "constants", "zones", "variables"}:
            e.ref = ("broken", n)
            return T.ANY  # the name may be declared in the section that could not be read
        known = [k for s in self.scopes for k in s] + list(BUILTIN_VALUES) + list(self.options) + list(
            self.consts) + list(self.vars) + list(self.zones)
        hint = _close(n, known)
        if n in self.suits or n in self.ranks:
            hint = (f"suits and ranks are written as text: '{n}' (YAML drops quotes that start a value: "
                    f"quote the whole expression, e.g. \"c.suit == '{n}'\")")
        self.err("C019", e.span, f"unknown name '{n}'", hint)
        return T.ANY

    def _attr(self, e: A.Attr) -> Any:
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

    def _index(self, e: A.Index) -> Any:
        t = self._expr(e.obj)
        e.obj.ty = t
        it = self.expr(e.index)
        if isinstance(t, tuple) and t[0] == "perplayer":
            self.want(e.index, it, T.PLAYER, "the player index")
            return t[1]
        if T.is_list(t):
            self.want(e.index, it, T.INT, "a list index")
            return T.elem(t)
        if T.is_map(t):
            self.want(e.index, it, t[1], "the table key")
            return t[2]
        if t != T.ANY:
            self.err("C025", e.span, f"{T.show(t)} cannot be indexed with [...]")
        return T.ANY

    def _binop(self, e: A.BinOp) -> Any:
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

    def _compare(self, e: A.Compare) -> Any:
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
                if not T.compatible(lt, rt):
                    self.err("C027", e.span, f"cannot compare {T.show(lt)} with {T.show(rt)}")
                elif op not in ("==", "!=") and (lt == T.BOOL or rt == T.BOOL):
                    self.err("C027", e.span, f"'{op}' does not order true/false")
            left, lt = right, rt
        return T.BOOL

    def _literal_check(self, e: A.Expr, against: Any) -> None:
        """'hearts' compared with a suit must be a suit of the deck (likewise ranks)."""
        if isinstance(e, A.Const) and isinstance(e.value, str):
            pool = self.suits if against == T.SUIT else self.ranks if against == T.RANK else None
            if pool is not None and e.value not in pool:
                self.err("C028", e.span, f"'{e.value}' is not a {against} of the deck",
                         _close(e.value, pool) or f"{against}s: {', '.join(sorted(pool))}")
        elif isinstance(e, A.ListLit):
            for it in e.items:
                self._literal_check(it, T.elem(against) if T.is_list(against) else against)

    # ------------------------------------------------------------ calls
    def _call(self, e: A.Call) -> Any:
        if self.local(e.func) is not None:
            self.err("C018", e.span, f"'{e.func}' is a value, not a function")
            return T.ANY
        if e.func in self.funcs:
            f = self.funcs[e.func]
            e.ref = ("user", f)
            if len(e.args) != len(f.params):
                self.err("C010", e.span, f"'{f.name}' takes {_args(len(f.params))}, got {len(e.args)}")
                return T.ANY
            ats = [self._arg(a) for a in e.args]
            return self.user_call(f, ats, e.span)
        lib = LIBRARY.get(e.func)
        if lib is None and (e.func in self.spec.broken or "define" in self.spec.malformed):
            for a in e.args:
                self._arg(a)
            return T.ANY
        if lib is None:
            self.err("C009", e.span, f"unknown function '{e.func}'",
                     _close(e.func, list(LIBRARY) + list(self.funcs)) or "see docs/language.md for the library")
            for a in e.args:
                self._arg(a)
            return T.ANY
        e.ref = ("lib", lib)
        if not lib.min_args <= len(e.args) <= lib.max_args:
            n = _args(lib.min_args) if lib.min_args == lib.max_args else f"{lib.min_args} to {lib.max_args} arguments"
            self.err("C010", e.span, f"'{lib.name}' takes {n}, got {len(e.args)}")
            return T.ANY
        return self._lib_call(lib, e)

    def _arg(self, a: A.Expr) -> Any:
        if isinstance(a, A.Lambda):
            self.err("C017", a.span, "a function 'x => ...' can only be an argument of max_by, sort_by, ...")
            return T.ANY
        return self.expr(a)

    def _lambda(self, a: A.Expr, param: Any) -> Any:
        if not isinstance(a, A.Lambda):
            self.err("C017", a.span, "expected a function here, written 'x => expression'")
            self.expr(a)
            return T.ANY
        with self.scope({}):
            self.declare(a.param, param, a.span)
            t = self.expr(a.body)
        a.ty = ("fn", param, t)
        return t

    def _lib_call(self, lib: LibFunc, e: A.Call) -> Any:
        sig = lib.sig
        args = e.args
        if sig == "max":
            if len(args) == 1:
                t = self._arg(args[0])
                if not T.is_list(t) and t != T.ANY:
                    self.err("C029", args[0].span, f"'{lib.name}' of one value needs a list, not {T.show(t)}")
                    return T.ANY
                return T.elem(t)
            out: Any = T.NONE
            for a in args:
                t = self._arg(a)
                if T.is_list(t) or (t not in T.NUMERIC and t not in (T.ANY, T.NONE)):
                    self.err("C029", a.span, f"'{lib.name}' of several values needs numbers, not {T.show(t)}")
                out = T.join(out, t)
            return out
        params, result = sig.split("->")
        kinds = params.split(",")
        lt: Any = T.ANY
        for i, a in enumerate(args):
            k = kinds[i].rstrip("?")
            if k == "F":
                rt = self._lambda(a, T.elem(lt))
                if lib.name in ("count",):
                    self.want(a, rt, T.BOOL, f"the function given to '{lib.name}'")
                continue
            t = self._arg(a)
            if k.startswith("L"):
                lt = t
                if not T.is_list(t) and t != T.ANY:
                    self.err("C029", a.span, f"'{lib.name}' needs a list, not {T.show(t)}")
                    lt = T.list_of(T.ANY)
                elif k == "L[N]" and not T.compatible(T.elem(t), T.NUM):
                    self.err("C029", a.span, f"'{lib.name}' needs a list of numbers, not {T.show(t)}")
                elif k == "L[B]" and not T.compatible(T.elem(t), T.BOOL):
                    self.err("C029", a.span, f"'{lib.name}' needs a list of true/false, not {T.show(t)}")
                elif k == "LL" and not T.is_list(T.elem(t)) and T.elem(t) != T.ANY:
                    self.err("C029", a.span, f"'{lib.name}' needs a list of lists, not {T.show(t)}")
            else:
                want = {"I": T.INT, "N": T.NUM, "P": T.PLAYER, "C": T.CARD, "B": T.BOOL, "X": T.ANY,
                        "E": T.elem(lt)}[k]
                self.want(a, t, want, f"argument {i + 1} of '{lib.name}'")
        if result == "E":
            if lib.name == "sum":
                return T.INT if T.elem(lt) in (T.INT, T.PLAYER) else T.NUM
            return T.elem(lt)
        if result == "L":
            return lt
        if result == "LL":
            return T.list_of(lt)
        if result == "LI":
            return T.list_of(T.INT)
        if lib.name == "abs" and args:
            return args[0].ty if args[0].ty in (T.INT, T.NUM) else T.NUM
        return {"I": T.INT, "N": T.NUM, "P": T.PLAYER, "B": T.BOOL}[result]

    def user_call(self, f: FuncSpec, arg_types: list[Any], span: Span) -> Any:
        key = (f.name, tuple(T.show(t) for t in arg_types))
        if key in self.func_cache:
            return self.func_cache[key]
        if f.name in self.call_stack:
            self.err("C011", span, f"function '{f.name}' calls itself",
                     "functions may not be recursive, so every rule ends")
            return T.ANY
        if f.body is None:
            return T.ANY
        if len(self.call_stack) >= MAX_CALL_DEPTH:
            self.err("C036", span, f"functions call each other more than {MAX_CALL_DEPTH} deep",
                     "flatten the chain of functions")
            return T.ANY
        self.call_stack.append(f.name)
        saved = self.scopes
        self.scopes = [dict(zip(f.params, arg_types))]
        try:
            t = self.expr(f.body)
        finally:
            self.scopes = saved
            self.call_stack.pop()
        self.func_cache[key] = t
        return t


def _args(n: int) -> str:
    return f"{n} argument{'' if n == 1 else 's'}"


def _names_in(e: A.Expr) -> set[str]:
    out: set[str] = set()
    stack: list[object] = [e]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Name):
            out.add(n.id)
        if isinstance(n, A.Node):
            for v in vars(n).values():
                if isinstance(v, A.Node):
                    stack.append(v)
                elif isinstance(v, list):
                    stack.extend(x for x in v if isinstance(x, A.Node))
                    stack.extend(y for x in v if isinstance(x, tuple) for y in x if isinstance(y, A.Node))
    return out


def _walk_stmts(stmts: list[A.Stmt]) -> Iterator[A.Stmt]:
    for s in stmts:
        yield s
        if isinstance(s, A.If):
            yield from _walk_stmts(s.then)
            yield from _walk_stmts(s.other)
        elif isinstance(s, A.For):
            yield from _walk_stmts(s.body)


def check(spec: GameSpec, diags: list[Diagnostic]) -> Checker:
    c = Checker(spec, diags)
    c.check()
    return c
