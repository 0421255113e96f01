"""Compile a checked `GameSpec` into Python source, then into one code object.

Like Jinja2's compiler, this writes Python text from our own AST and keeps a
line map from generated lines back to rule-file spans, so a runtime error
points at the rule that caused it. Rule text itself never reaches Python:
names become `l_<name>` / indices into state arrays, literals go through
`repr`, and the module runs with no builtins but the helpers we pass in.

The generated module is the same for every player count and option set; a
`GameInstance` (interpreter/) execs it in a namespace holding that
instance's tables (pack, card properties, zone and variable offsets).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
from .schema import ActionSpec, GameSpec, PhaseSpec

# Return codes of compiled effect blocks: a phase index (>= 0) means goto.
END_DEAL = -1


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


class _Writer:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.spans: dict[int, Span] = {}
        self.indent = 0

    def line(self, text: str, span: Span | None = None) -> None:
        self.lines.append("    " * self.indent + text)
        if span is not None:
            self.spans[len(self.lines)] = span


class Compiler:
    def __init__(self, spec: GameSpec, checker: Checker, diags: list[Diagnostic]):
        self.spec = spec
        self.ck = checker
        self.diags = diags
        self.w = _Writer()
        self.phase_index = {p.name: i for i, p in enumerate(spec.phases)}
        self.params: dict[str, list[ParamInfo]] = {}
        self.uid = 0

    # ------------------------------------------------------------ expressions
    def ex(self, e: A.Expr) -> str:
        if isinstance(e, A.Const):
            return repr(e.value)
        if isinstance(e, A.Name):
            return self._name(e)
        if isinstance(e, A.Attr):
            obj = self.ex(e.obj)
            if e.name in ("suit", "rank", "rank_index", "suit_index", "name"):
                return f"C_{e.name.upper()}[{obj}]"
            return f"P_{e.name}[{obj}]"
        if isinstance(e, A.Index):
            idx = self.ex(e.index)
            o = e.obj
            if isinstance(o, A.Name) and o.ref and o.ref[0] == "var" and o.ref[1].per_player:
                return f"s.v[V_{o.id} + {idx}]"
            if isinstance(o, A.Name) and o.ref and o.ref[0] == "zone" and o.ref[1].per_player:
                return f"s.z[Z_{o.id} + {idx}]"
            return f"{self.ex(o)}[{idx}]"
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
            if e.op == "*":
                return f"f_mul({self.ex(e.left)}, {self.ex(e.right)})"  # numbers may not explode
            if e.op == "+" and T.is_list(e.ty):
                return f"_it({self.ex(e.left)} + {self.ex(e.right)})"  # nor lists
            return f"({self.ex(e.left)} {e.op} {self.ex(e.right)})"
        if isinstance(e, A.Compare):
            parts = [self.ex(e.first)]
            for op, r in e.rest:
                parts.append("not in" if op == "notin" else op)
                parts.append(self.ex(r))
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
            # _it charges the walk to the step budget: nested loops cannot run away.
            return f"[{self.ex(e.elem)} for l_{e.var} in _it({self.ex(e.iter)}){cond}]"
        raise AssertionError(type(e))  # pragma: no cover

    def _name(self, e: A.Name) -> str:
        kind, detail = e.ref
        if kind == "local":
            return f"l_{detail}"
        if kind == "builtin":
            return {"players": "PLAYERS", "active_players": "_active(s)", "num_players": "N",
                    "suits": "SUITS", "ranks": "RANKS", "pack": "PACK", "dealer": "s.dealer",
                    "current": "s.cur", "player": "s.actor", "deal_number": "s.deal_no",
                    "turns": "s.turns"}[detail]
        if kind == "option":
            return f"O_{detail}"
        if kind == "const":
            return f"K_{detail}"
        if kind == "var":
            return f"s.v[V_{detail.name}]"
        if kind == "zone":
            return f"s.z[Z_{detail.name}]"
        raise AssertionError(kind)  # pragma: no cover

    def _call(self, e: A.Call) -> str:
        kind, f = e.ref
        args = [self.ex(a) for a in e.args]
        if kind == "user":
            return f"fn_{f.name}(s{''.join(', ' + a for a in args)})"
        special = {
            "left": "(({0} + 1) % N)", "right": "(({0} - 1) % N)", "next_active": "_next_active(s, {0})",
            "is_active": "(not s.out[{0}])", "played_by": "s.by[{0}]",
        }
        if f.name in special:
            return special[f.name].format(*args)
        if any(isinstance(a, A.Lambda) for a in e.args) and args:
            args[0] = f"_it({args[0]})"  # a function applied to every item: charge the walk
        return f"{f.py}({', '.join(args)})"

    # ------------------------------------------------------------ statements
    def block(self, stmts: list[A.Stmt]) -> None:
        if not stmts:
            self.w.line("pass")
        for s in stmts:
            self.stmt(s)

    def _zone(self, z: A.ZoneRef) -> str:
        if z.ref.per_player:
            return f"Z_{z.name} + {self.ex(z.index)}" if z.index is not None else f"Z_{z.name}"
        return f"Z_{z.name}"

    def stmt(self, s: A.Stmt) -> None:
        w = self.w
        sp = s.span
        if isinstance(s, A.Assign):
            val = self.ex(s.value)
            kind, v = s.ref
            if kind == "builtin":
                target = {"dealer": "s.dealer", "current": "s.cur"}[v]
            else:
                target = f"s.v[V_{v.name}" + (f" + {self.ex(s.index)}]" if s.index is not None else "]")
            if s.op == "=":
                if kind == "var" and T.is_list(v.ty):
                    val = f"list({val})"
                w.line(f"{target} = {val}", sp)
            elif kind == "var" and T.is_list(v.ty):
                sign = "+" if s.op == "+=" else "-"
                if sign == "+":
                    w.line(f"{target} = {target} + list({val})", sp)
                else:
                    w.line(f"_rm = {val}; {target} = [x for x in {target} if x not in _rm]", sp)
            else:
                w.line(f"{target} {s.op} {val}", sp)
        elif isinstance(s, A.LetStmt):
            # A list named in steps is a snapshot: later moves must not change it.
            val = self.ex(s.value)
            w.line(f"l_{s.name} = {'list(' + val + ')' if T.is_list(s.value.ty) else val}", sp)
        elif isinstance(s, A.Pick):
            w.line(f"l_{s.name} = _pick(s, {self.ex(s.options)})", sp)
        elif isinstance(s, A.Move):
            fn = "_move1" if s.cards.ty == T.CARD else "_move"
            w.line(f"{fn}(s, {self.ex(s.cards)}, {self._zone(s.dest)}, {s.bottom!r})", sp)
        elif isinstance(s, A.Deal):
            if s.dest.ref.per_player and s.dest.index is None:
                w.line(f"_deal_each(s, {self.ex(s.count)}, {self._zone(s.src)}, Z_{s.dest.name})", sp)
            else:
                w.line(f"_deal(s, {self.ex(s.count)}, {self._zone(s.src)}, {self._zone(s.dest)})", sp)
        elif isinstance(s, A.Shuffle):
            w.line(f"_shuffle(s, {self._zone(s.zone)})", sp)
        elif isinstance(s, A.Goto):
            w.line(f"return {self.phase_index[s.phase]}", sp)
        elif isinstance(s, A.EndDeal):
            w.line(f"return {END_DEAL}", sp)
        elif isinstance(s, A.Eliminate):
            w.line(f"_eliminate(s, {self.ex(s.player)})", sp)
        elif isinstance(s, A.Do):
            args = "".join(", " + (f"list({self.ex(a)})" if T.is_list(a.ty) else self.ex(a)) for a in s.args)
            w.line(f"_r = pr_{s.proc}(s{args})", sp)
            w.line("if _r is not None: return _r")
        elif isinstance(s, A.Log):
            vals = "".join(f", ({self.ex(v)}, {_kind(v.ty)!r})" for v in s.values)
            w.line(f"if s.log is not None: _log(s, {s.text!r}{vals})", sp)
        elif isinstance(s, A.If):
            w.line(f"if {self.ex(s.cond)}:", sp)
            w.indent += 1
            self.block(s.then)
            w.indent -= 1
            if s.other:
                w.line("else:")
                w.indent += 1
                self.block(s.other)
                w.indent -= 1
        elif isinstance(s, A.For):
            w.line(f"for l_{s.var} in list(_it({self.ex(s.iter)})):", sp)
            w.indent += 1
            self.block(s.body)
            w.indent -= 1
        else:  # pragma: no cover
            raise AssertionError(type(s))

    def func(self, name: str, params: list[str], body: list[A.Stmt], span: Span) -> None:
        self.w.line(f"def {name}(s{''.join(', l_' + p for p in params)}):", span)
        self.w.indent += 1
        self.block(body)
        self.w.indent -= 1
        self.w.line("")

    def efunc(self, name: str, params: list[str], e: A.Expr, want: tuple[str, str] | None = None) -> None:
        """A function returning `e`; `want` = (helper, what) checks the value where the engine needs a
        player or a list of players (`none` passes the checker, which cannot know it will be there)."""
        self.w.line(f"def {name}({', '.join(params)}):", e.span)
        if name.startswith(("fn_", "fi_")):
            self.w.line("    _tick()")  # calls count against the step budget too
        if want is None:
            self.w.line(f"    return {self.ex(e)}", e.span)
        else:
            self.w.line(f"    return {want[0]}(s, {self.ex(e)}, {want[1]!r})", e.span)
        self.w.line("")

    # ------------------------------------------------------------ actions
    def _param_info(self, a: ActionSpec) -> list[ParamInfo]:
        out = []
        for p in a.params:
            et = T.elem(p.domain.ty)
            kind = {T.CARD: "card", T.PLAYER: "player", T.SUIT: "suit", T.RANK: "rank", T.BOOL: "bool",
                    T.INT: "int", T.STR: "str"}.get(et, "card")
            info = ParamInfo(p.name, kind, p.span)
            if kind == "str":
                d = p.domain
                if isinstance(d, A.ListLit) and all(isinstance(i, A.Const) for i in d.items):
                    info.values = [i.value for i in d.items if isinstance(i, A.Const)]
                elif isinstance(d, A.Name) and d.ref and d.ref[0] == "const":
                    info.values = [str(x) for x in self.spec.constants[d.id][0]]
                else:
                    self.diags.append(Diagnostic("C005", d.span, f"parameter '{p.name}' ranges over text: "
                                                 "give the choices as a list, e.g. ['high', 'low']"))
            elif kind == "int":
                d = p.domain
                if isinstance(d, A.Call) and d.func == "range" and len(d.args) == 2 and all(
                        _static(x) for x in d.args):
                    lo, hi = f"pb_{self.uid}_lo", f"pb_{self.uid}_hi"
                    self.uid += 1
                    self.efunc(lo, [], d.args[0])
                    self.efunc(hi, [], d.args[1])
                    info.bounds = (lo, hi)
                else:
                    self.diags.append(Diagnostic("C005", d.span, f"number parameter '{p.name}' must range "
                                                 "over range(a, b) with a and b fixed for the game "
                                                 "(numbers, options, constants, num_players)"))
            out.append(info)
        return out

    def action(self, a: ActionSpec) -> None:
        infos = self._param_info(a)
        self.params[a.name] = infos
        w = self.w
        # legal_<a>(s, out): append every legal id of this action. Each conjunct of
        # `when` is tested as soon as the parameters it reads are bound, so a test
        # on the trick alone runs once, not once per card in hand.
        conjuncts = _conjuncts(a.when) if a.when is not None else []
        names = [p.name for p in a.params]
        levels: dict[int, list[A.Expr]] = {}
        level = 0
        for c in conjuncts:
            used = _locals_used(c)
            # Never before an earlier conjunct: `and` guards what follows it.
            level = max([level] + [names.index(n) + 1 for n in used if n in names])
            levels.setdefault(level, []).append(c)
        w.line(f"def legal_{a.name}(s, out):", a.span)
        w.indent += 1
        if levels.get(0):
            w.line(f"if not ({' and '.join(self.ex(c) for c in levels[0])}): return", levels[0][0].span)
        enc_terms = []
        for i, (p, info) in enumerate(zip(a.params, infos)):
            w.line(f"for l_{p.name} in {self.ex(p.domain)}:", p.domain.span)
            w.indent += 1
            idx = {"card": f"l_{p.name}", "player": f"l_{p.name}", "suit": f"SUIT_POS[l_{p.name}]",
                   "rank": f"RANK_POS[l_{p.name}]", "bool": f"(1 if l_{p.name} else 0)",
                   "int": f"(l_{p.name} - LO_{a.name}[{i}])", "str": f"VAL_{a.name}[{i}][l_{p.name}]"}[info.kind]
            if info.kind == "int":
                w.line(f"if not 0 <= {idx} < RADIX_{a.name}[{i}]: continue")
            if info.kind == "str":
                w.line(f"if l_{p.name} not in VAL_{a.name}[{i}]: continue")
            if levels.get(i + 1):
                w.line(f"if not ({' and '.join(self.ex(c) for c in levels[i + 1])}): continue",
                       levels[i + 1][0].span)
            enc_terms.append(idx if i == 0 else f"{idx} * STRIDE_{a.name}[{i}]")
        enc = " + ".join(enc_terms) if enc_terms else "0"
        w.line(f"out.append(OFF_{a.name} + {enc})")
        w.indent = 0
        w.line("")
        # decode_<a>(k) -> tuple of parameter values
        w.line(f"def decode_{a.name}(k):")
        w.indent += 1
        vals = []
        for i, info in enumerate(infos):
            w.line(f"k, i{i} = divmod(k, RADIX_{a.name}[{i}])")
            vals.append({"card": f"i{i}", "player": f"i{i}", "suit": f"SUITS[i{i}]", "rank": f"RANKS[i{i}]",
                         "bool": f"i{i} == 1", "int": f"LO_{a.name}[{i}] + i{i}",
                         "str": f"VALS_{a.name}[{i}][i{i}]"}[info.kind])
        w.line("return (" + "".join(v + ", " for v in vals) + ")")
        w.indent = 0
        w.line("")
        self.func(f"eff_{a.name}", [p.name for p in a.params], a.effect, a.span)
        # run_<a>(s, k): decode inline and run the effect (the engine's hot path).
        w.line(f"def run_{a.name}(s, k):", a.span)
        w.indent += 1
        for i, (p, val) in enumerate(zip(a.params, vals)):
            if len(infos) == 1 and infos[0].kind in ("card", "player"):
                w.line(f"l_{p.name} = k")
                break
            w.line(f"k, i{i} = divmod(k, RADIX_{a.name}[{i}])")
            w.line(f"l_{p.name} = {val}")
        self.block(a.effect)
        w.indent = 0
        w.line("")

    def phase(self, i: int, ph: PhaseSpec) -> None:
        if ph.first is not None:
            self.efunc(f"first_{i}", ["s"], ph.first, ("_want_player", f"'first' of phase '{ph.name}'"))
        self.func(f"start_{i}", [], ph.start, ph.span)
        self.func(f"after_{i}", [], ph.after, ph.span)
        self.func(f"end_{i}", [], ph.end, ph.span)
        names = [n for n, _ in ph.actions]
        w = self.w
        w.line(f"def phlegal_{i}(s):")
        w.line("    out = []")
        for n in names:
            w.line(f"    legal_{n}(s, out)")
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
                self.efunc(f"optdef_{o.name}", [], o.default)
        for p in sp.properties:
            if p.expr is not None:
                self.efunc(f"prop_{p.name}", ["l_rank", "l_suit", "l_rank_index", "l_suit_index"], p.expr)
        for i, e in enumerate(sp.pack):
            if e.when is not None:
                self.efunc(f"pack_when_{i}", [], e.when)
            if e.where is not None:
                self.efunc(f"pack_where_{i}", ["l_card"], e.where)
        for z in sp.zones:
            if isinstance(z.visible, A.Expr):
                self.efunc(f"vis_zone_{z.name}", ["s", "l_owner"], z.visible,
                           ("_want_players", f"'visible' of zone '{z.name}'"))
        for v in sp.variables:
            if v.initial is not None:
                self.efunc(f"init_{v.name}", ["s", "l_owner"], v.initial)
            if isinstance(v.visible, A.Expr):
                self.efunc(f"vis_var_{v.name}", ["s", "l_owner"], v.visible,
                           ("_want_players", f"'visible' of variable '{v.name}'"))
        # Memoize the pure functions that the rules call from outside other pure
        # functions: their callees are then computed once per distinct argument anyway.
        pure = {f.name for f in sp.functions if f.name in pure_functions(sp) and f.body is not None
                and not _cheap(f.body)} & called_outside(sp, pure_functions(sp))
        for f in sp.functions:
            if f.body is None:
                continue
            params = ["s"] + [f"l_{p}" for p in f.params]
            if f.name not in pure:
                self.efunc(f"fn_{f.name}", params, f.body)
                continue
            # A function that reads no state is memoized on its arguments: hand
            # values and rankings are asked for again and again with the same cards.
            self.efunc(f"fi_{f.name}", params, f.body)
            # A list argument whose order cannot change the result is sorted in the
            # key, so the 3! orders of one hand share one entry.
            free = order_free_params(sp, f)
            key = "(" + "".join(
                (f"(tuple(sorted(l_{p})) if type(l_{p}) is list else l_{p}), " if p in free else
                 f"(tuple(l_{p}) if type(l_{p}) is list else l_{p}), ") for p in f.params) + ")"
            w.line(f"M_{f.name} = {{}}")
            w.line(f"def fn_{f.name}({', '.join(params)}):", f.span)
            w.line(f"    k = {key}")
            w.line("    try:")
            w.line(f"        r = M_{f.name}.get(k, MISS)")
            w.line("    except TypeError:")
            w.line(f"        return fi_{f.name}({', '.join(params)})")
            w.line("    if r is MISS:")
            w.line(f"        if len(M_{f.name}) > MEMO_LIMIT: M_{f.name}.clear()")
            w.line(f"        r = M_{f.name}[k] = fi_{f.name}({', '.join(params)})")
            w.line("    return r")
            w.line("")
        for pr in sp.procedures:
            self.func(f"pr_{pr.name}", pr.params, pr.body, pr.span)
        for a in sp.actions:
            self.action(a)
        for i, ph in enumerate(sp.phases):
            self.phase(i, ph)
        m = sp.match
        self.func("match_start", [], m.start, m.span)
        self.func("match_deal", [], m.deal, m.span)
        self.func("match_end_deal", [], m.end_deal, m.span)
        wants = {"next_dealer": ("_want_player", "'next_dealer'"), "winners": ("_want_players", "'winners'")}
        for name, me in (("next_dealer", m.next_dealer), ("over_when", m.over_when), ("winners", m.winners)):
            if me is not None:
                self.efunc(f"match_{name}", ["s"], me, wants.get(name))
        for k, (_, re_) in enumerate(m.report):
            self.efunc(f"report_{k}", ["s", "l_p"], re_)
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
                            [_kind(e.ty) for _, e in m.report])


MEMO_LIMIT = 200_000


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
    e = parser.parse(text, "expression", locate, diags)
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


def compile_spec(spec: GameSpec, checker: Checker, diags: list[Diagnostic]) -> CompiledGame | None:
    return Compiler(spec, checker, diags).module()
