"""The compiler put together: `Compiler` writes the whole module of a checked `GameSpec` and compiles it
into one code object, a `CompiledGame`.

Like Jinja2's compiler, code generation writes Python text from our own AST and keeps a line map from
generated lines back to rule-file spans, so a runtime error points at the rule that caused it. Rule text
itself never reaches Python: names become `l_<name>` / indices into state arrays, literals go through
`repr`, and the module runs with no builtins but the helpers we pass in.

The generated module is the same for every player count and option set; a `Game` (interpreter/) execs it
in a namespace holding that instance's tables (pack, card properties, zone and variable offsets). Every
name the module defines for the runtime, and every name it reads from the runtime, comes from `abi.py`.

The stages below this module each own one kind of code (writer.py lines and spans, expressions.py
expressions, statements.py steps and function bodies, actions.py actions); this one owns only the order
of the module and what is decided for the whole spec: which functions are memoized, what the inliner may
inline, and the result handed to the engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .. import abi
from .. import ast as A
from .. import types as T
from ..analysis import _cheap, called_outside, order_free_params, pure_functions, shuffled_zones
from ..checker import Checker, Symbols
from ..diagnostics import Diagnostic, Span
from ..limits import DEFAULT_LIMITS, Limits
from ..optimize import Inliner
from ..projection import card_params, class_tables, memo_plan
from ..spec import FuncSpec, GameSpec, PhaseSpec
from ..strategy_checks import rule_actions
from .actions import ActionWriter, ParamInfo
from .expressions import _takes_numbers
from .reach import reach
from .statements import _kind
from .writer import Position, _Writer, plain

MEMO_ITEM_MAX = abi.MEMO_ITEM_MAX
_WORD = re.compile(r"\w+")


@dataclass
class CompiledGame:
    spec: GameSpec
    code: Any  # code object of the generated module
    source: str
    line_map: dict[int, Span]  # generated line -> the rule-file span of the code on it
    filename: str
    params: dict[str, list[ParamInfo]] = field(default_factory=dict)
    phase_index: dict[str, int] = field(default_factory=dict)
    # What the check found (names, types of the functions' checks), read-only: a probe checks against it.
    symbols: Symbols | None = None
    report_kinds: list[str] = field(default_factory=list)
    # The texts of the rule file and the files it extends, by name: a rule error shows its line from here.
    sources: dict[str, str] = field(default_factory=dict)
    # The generated functions whose block of steps is empty (phase `start`/`after`, ...): the engine skips them.
    empty: frozenset[str] = frozenset()
    # The limits the file was read and checked within; a `Game` of it runs within them unless given others.
    limits: Limits = DEFAULT_LIMITS
    # Where the code of each AST node stands in `source` (writer.Position): a rule error is located at the
    # innermost node around the instruction that failed (interpreter/engine/errors.py, span_of).
    positions: list[Position] = field(default_factory=list)
    # The `define:` functions the rules never call (inlined wherever they are used), compiled apart and run
    # after `code` in the same namespace, for scenario checks and tools that call one by name. Their lines
    # are numbered on from the module's, so `line_map` and `positions` cover them.
    spare: Any = None
    spare_source: str = ""
    # For each generated function, the zones, phases and card helpers it may reach (reach.py).
    reach: dict[str, frozenset[str]] = field(default_factory=dict)

    @property
    def checker(self) -> Symbols | None:
        """The old name of `symbols` (tools read `funcs`, `signatures` and `spec` from it)."""
        return self.symbols


class Compiler(ActionWriter):
    def __init__(self, spec: GameSpec, checker: Checker, diags: list[Diagnostic], optimize: bool = True) -> None:
        super().__init__(spec, optimize)
        self.shuffled = shuffled_zones(spec)
        self.ck = checker
        self.diags = diags

    def openspiel(self, sp: GameSpec) -> None:
        """`openspiel:`: each expression as a function (abi.openspiel_action, abi.openspiel_block); the engine's
        layout.py calls them."""
        os_ = sp.openspiel
        assert os_ is not None
        by_name = {a.name: a for a in sp.actions}
        for name, (e, _) in os_.actions.items():
            if name in by_name:
                self.efunc(abi.openspiel_action(name), [f"l_{p.name}" for p in by_name[name].params], e)
        if os_.num_actions is not None:
            self.efunc(abi.OPENSPIEL_NUM_ACTIONS, [], os_.num_actions)
        if os_.card is not None:
            self.efunc(abi.OPENSPIEL_CARD, ["l_c"], os_.card)
        for tensor, blocks in (("observation", os_.observation), ("information_state", os_.information_state)):
            for k, b in enumerate(blocks):
                self.efunc(abi.openspiel_block(tensor, k, "size"), [], b.size)
                if b.width is not None:
                    self.efunc(abi.openspiel_block(tensor, k, "width"), [], b.width)
                if b.kind != "moves":
                    assert b.value is not None
                    each = [f"l_{b.each[0]}"] if b.each is not None else []
                    self.efunc(abi.openspiel_block(tensor, k, "value"), ["s", "l_p", *each], b.value)
                    if b.each is not None:
                        self.efunc(abi.openspiel_block(tensor, k, "each"), ["s", "l_p"], b.each[1])
                    continue
                for name, _ in b.actions:
                    a = by_name.get(name)
                    if a is None:
                        continue
                    params = ["s", "l_p", "l_index", "l_id", *[f"l_{p.name}" for p in a.params]]
                    for part, pe in (("at", b.at), ("bit", b.bit), ("when", b.when)):
                        if pe is not None:
                            self.efunc(abi.openspiel_move(tensor, k, part, name), params, pe)

    def phase(self, ph: PhaseSpec) -> None:
        if ph.first is not None:
            self.efunc(abi.phase_first(ph.name), ["s"], ph.first, ("_want_player", f"'first' of phase '{ph.name}'"))
        self.func(abi.phase_start(ph.name), [], ph.start, ph.span, optional=True)
        self.func(abi.phase_after(ph.name), [], ph.after, ph.span, optional=True)
        self.func(abi.phase_end(ph.name), [], ph.end, ph.span)
        names = [n for n, _ in ph.actions]
        w = self.w
        w.line(f"def {abi.phase_legal(ph.name)}(s):")
        w.line("    out = []")
        for n in names:
            w.line(f"    {abi.legal(n)}(s, out)")
        if len(names) > 1 or any(self.spec.actions[k].params for k in range(len(self.spec.actions))
                                 if self.spec.actions[k].name in names):
            w.line("    out.sort()")
        w.line("    return out")
        w.line("")

    def user_function(self, f: FuncSpec, pure: set[str], classes: dict[str, int] | None = None) -> None:
        """A `define:` function; one that reads no state and is worth it (`pure`: see `memo_plan`) is memoized
        on its arguments. `classes`: for each function whose memo key keeps only some attributes of its
        cards (`projection`), the number of the table of card classes its key reads."""
        sp, w = self.spec, self.w
        assert f.body is not None
        params = ["s"] + [f"l_{p}" for p in f.params]
        fn, fi, memo = abi.function(f.name), abi.function_body(f.name), abi.memo(f.name)
        if f.name not in pure:
            self.efunc(fn, params, f.body, user=True,
                       question=self.optimize and f.name not in pure_functions(sp))
            return
        # A function that reads no state is memoized on its arguments: hand
        # values and rankings are asked for again and again with the same cards.
        self.efunc(fi, params, f.body, user=True)
        # A list argument whose order cannot change the result is sorted in the
        # key, so the 3! orders of one hand share one entry.
        free = order_free_params(sp, f)
        keyed, trial = abi.memo_keyed(f.name), abi.memo_trial(f.name)
        w.line(f"{memo} = {{}}")
        w.line(f"MEMOS.append({memo})")
        w.line(f"{trial} = [0, 0]")
        # On trial: the first calls are counted, then the engine rebinds the name to the memo, or to the body
        # if the memo was seldom met (a key of cards in the order dealt, asked once per deal).
        w.line(f"def {fn}({', '.join(params)}):", f.span)
        w.line(f"    {trial}[0] += 1")
        w.line(f"    if {trial}[0] == {abi.MEMO_TRIAL}:")
        w.line(f"        _judge({f.name!r}, {trial})")
        w.line(f"    return {keyed}({', '.join(params)})")
        w.line("")
        w.line(f"def {keyed}({', '.join(params)}):", f.span)
        w.indent += 1
        projected = card_params(f) if classes is not None and f.name in classes else {}
        if projected:
            assert classes is not None
            self._class_keys(f, projected, abi.card_class(classes[f.name]), free, fi, params)
        # Building the key walks the list arguments: charged, like any walk.
        for name in f.params:
            if name in projected:
                continue
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
        w.line(f"        {trial}[1] += 1")
        w.line("    return r")
        w.line("")

    def _class_keys(self, f: FuncSpec, projected: dict[str, Any], table: str, free: set[str], fi: str,
                    params: list[str]) -> None:
        """The memo key of each card parameter as its cards' classes (`table`): the attributes the function
        reads and nothing else of the cards, so hands alike in them share an entry. A value that is not a
        card after all (`none`, which the checker lets pass as one) has no class: computed without a key."""
        w = self.w
        w.line("_ok = True")
        w.line("try:")
        for name in projected:
            if projected[name] == T.CARD:
                w.line(f"    _k_{name} = {table}[l_{name}]")
                continue
            # Longer than a key may hold: computed, not kept. Else charged for its items, like any key.
            w.line(f"    if len(l_{name}) > {MEMO_ITEM_MAX}:")
            w.line("        _ok = False")
            w.line("    else:")
            w.line(f"        _S[0] -= len(l_{name})")
            keys = f"[{table}[_c] for _c in l_{name}]"
            w.line(f"        _k_{name} = tuple({'sorted(' + keys + ')' if name in free else keys})")
        w.line("except (IndexError, TypeError):")
        w.line("    _ok = False")
        w.line(f"if not _ok: return {fi}({', '.join(params)})")

    # ------------------------------------------------------------ module
    def module(self) -> CompiledGame | None:
        sp = self.spec
        w = self.w
        w.line("# generated by cardsmith from a checked rule file; do not edit")
        # What a block of steps returns for `goto` and `end deal` (read by the engine: interpreter/engine/state.py).
        w.line(f"{abi.END_DEAL_NAME} = {abi.END_DEAL}")
        for i, ph in enumerate(sp.phases):
            w.line(f"{abi.phase_number(ph.name)} = {i}")
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
        for kind, things in (("zone", sp.zones), ("var", sp.variables)):
            for x in things:
                if isinstance(x.show, A.Expr):
                    self.efunc(abi.shown(kind, x.name), [], x.show)
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
        classes: dict[str, int] | None = None
        if self.optimize:
            # Also memoized: functions whose key may forget part of each card (projection.py).
            plan = memo_plan(sp)
            pure = set(plan)
            number = {attrs: i for i, attrs in enumerate(class_tables(sp))}
            classes = {name: number[attrs] for name, attrs in plan.items() if attrs is not None}
        if self.optimize:
            checked = {f.name for f in sp.functions if f.body is not None and (f.body.ty in (T.INT, T.NUM) and
                       _takes_numbers(f.body, [f"l_{p}" for p in f.params]))}
            self.inliner = Inliner(sp.functions, pure, checked)
        # Each function is written apart; only those the rules call go into the module (an inlined function
        # nothing else calls would be dead code there). The others are compiled apart (`spare`), for scenario
        # checks and tools that call a `define:` function by name.
        main = self.w
        blocks: dict[str, _Writer] = {}
        for f in sp.functions:
            if f.body is not None:
                self.w = blocks[f.name] = _Writer()
                self.user_function(f, pure, classes)
        self.w = w = main
        at = len(w.lines)
        for pr in sp.procedures:
            self.func(abi.procedure(pr.name), pr.params, pr.body, pr.span, charged=True)
        for a in sp.actions:
            self.action(a)
        for ph in sp.phases:
            self.phase(ph)
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
        if m.bounds is not None:
            for key, b in (("actions", m.bounds.actions), ("outcomes", m.bounds.outcomes)):
                if b is not None:
                    self.efunc(abi.match_bound(key), [], b)
        for st in sp.strategies:
            for i, rule in enumerate(st.rules):
                for a in rule_actions(rule, sp.actions):
                    params = ["s"] + [f"l_{p.name}" for p in a.params]
                    if rule.when is not None:
                        self.efunc(abi.strategy_when(st.name, i, a.name), params, rule.when)
                    if rule.best is not None:
                        self.efunc(abi.strategy_best(st.name, i, a.name), params, rule.best[1])
        if sp.openspiel is not None:
            self.openspiel(sp)
        kept = _called(blocks, w.lines)
        for name in reversed([n for n in blocks if n in kept]):
            w.splice(at, blocks[name])
        spare = _Writer()
        for name in [n for n in blocks if n not in kept]:
            spare.splice(len(spare.lines), blocks[name])
        source = "\n".join(w.lines) + "\n"
        filename = f"<cardsmith {sp.file}>"
        try:
            code = compile(source, filename, "exec")
            # Numbered on from the module's last line, so that one line map covers both.
            spare_code = compile("\n" * len(w.lines) + "\n".join(spare.lines) + "\n", filename, "exec") \
                if spare.lines else None
        except (SyntaxError, RecursionError, MemoryError) as e:
            # Python's own nesting limits; the schema's step-depth check (S029) should stop a file first.
            line = getattr(e, "lineno", None) or 0
            near = max((n for n in w.spans if n <= line), default=None)
            span = w.spans[near] if near is not None else sp.root_span
            reason = getattr(e, "msg", None) or type(e).__name__
            self.diags.append(Diagnostic("S029", span, f"the rules here are nested too deeply to compile ({reason})",
                                         "move inner steps into a procedure or a `define:` function"))
            return None
        n = len(w.lines)
        w.splice(n, spare)  # for the line map and positions only: the text of the module ends at line n
        return CompiledGame(sp, code, source, dict(w.spans), filename, self.params, self.phase_index,
                            self.ck.symbols(),
                            [_kind(e.ty) for _, e in m.report], empty=frozenset(self.empty), limits=self.ck.limits,
                            positions=list(w.positions), spare=spare_code,
                            spare_source="\n".join(spare.lines) + "\n" if spare.lines else "",
                            reach=reach(source))


def _called(blocks: dict[str, _Writer], lines: list[str]) -> set[str]:
    """The `define:` functions (written apart, in `blocks`) that the module's other lines call, directly or
    through one another. A name in a string counts too: keeping a function is always safe."""
    by_name = {abi.function(name): name for name in blocks}
    out: set[str] = set()
    todo = [by_name[t] for t in _WORD.findall("\n".join(lines)) if t in by_name]
    while todo:
        name = todo.pop()
        if name not in out:
            out.add(name)
            todo += [by_name[t] for t in _WORD.findall("\n".join(blocks[name].lines)) if t in by_name]
    return out


def compile_probe(game: CompiledGame, text: str, locate: Any, diags: list[Diagnostic]) -> Any:
    """Compile one expression against a game (scenario checks, tools): a code object
    for `lambda s: <expr>` to eval in the instance namespace, or None with diagnostics."""
    typed = compile_probe_typed(game, text, locate, diags)
    return typed[0] if typed is not None else None


def compile_probe_typed(game: CompiledGame, text: str, locate: Any, diags: list[Diagnostic]) -> Any:
    """Like compile_probe, but returns (code, checked type) so results can be shown by type."""
    from .. import parser
    e = parser.parse(text, "expression", locate, diags, game.limits)
    if e is None or game.symbols is None:
        return None
    n = len(diags)
    checker = Checker.from_symbols(game.symbols, diags)  # fresh: probes never share a checker's state
    with checker.scope({}):
        checker.expr(e)
    # A probe's value is shown and compared with what the scenario writes, so ranks or suits ordered as text
    # there are seen, not a silent trap: C041 (dsl/text_order.py) does not apply (`sort` of a set of suits).
    if any(d.code != "C041" for d in diags[n:]):
        return None
    del diags[n:]
    src = plain(Compiler(game.spec, checker, diags).ex(e))
    return compile(f"lambda s: {src}", game.filename, "eval"), e.ty


def compile_spec(spec: GameSpec, checker: Checker, diags: list[Diagnostic],
                 optimize: bool = True) -> CompiledGame | None:
    """The compiled module of a checked spec; `optimize=False` leaves out dsl/optimize.py's passes."""
    return Compiler(spec, checker, diags, optimize).module()
