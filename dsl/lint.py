"""Warnings: what a rule file declares but nothing uses, and what nothing can reach (W001-W009); a name the
library gained after the file could use it (W011); a property table's text that reads as a formula (W012).

A warning is a located `Diagnostic` of severity "warning". The game still runs: these are the designer's
lint, shown by `cardsmith validate` only (and made errors by `validate --strict`). They are worked out on
a checked spec without errors, where every name's `ref` is resolved: with errors, a misspelt name would
make the thing it meant look unused.

What "used" means for each kind of thing:

* an option, a zone: named by any expression or statement of the file (a zone only dealt to is used, and
  the first zone, which holds every card when the match starts; an option read only by `show:` or a
  constraint is used);
* a variable: read by an expression, or shown at the tables (its `show` is not `false` and its `visible`
  not `nobody`, so players read it); assigning it, `+=` included, is not reading it;
* a function, a procedure: called from the rules, not only from functions or procedures that are
  themselves never used (nor from its own body);
* a phase: entered by a `goto` or `then` of `match: deal`, of a phase that is entered, or of an action
  such a phase lists (through the procedures they run);
* an action: listed by a phase that is entered.

What is used is counted in every part of the file, unreachable phases included: a phase nothing enters
is one warning, not one more for each name only it mentions. Every walk is iterative and linear in the
size of the file.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from . import ast as A
from . import refs as R
from .analysis import _postorder
from .checker import FIRST_LIBRARY
from .diagnostics import Diagnostic, Span
from .library import LIBRARY
from .limits import DEFAULT_LIMITS
from .spec import FuncSpec, GameSpec, ProcSpec, VarSpec

LISTED = 4  # names given in a hint at most


def _listed(names: Iterable[str]) -> str:
    ns = sorted(names)
    more = f" and {len(ns) - LISTED} more" if len(ns) > LISTED else ""
    return ", ".join(f"'{n}'" for n in ns[:LISTED]) + more


@dataclass
class _Uses(A.NodeVisitor):
    """What one part of the file (a function's body, a procedure's, or everything else) names: `add` is given
    every node of it (`_nodes`), and the kinds that name something declared record it."""

    read: set[int] = field(default_factory=set)  # ids of the variable and zone specs read
    written: set[int] = field(default_factory=set)  # ids of the variable specs assigned
    options: set[str] = field(default_factory=set)
    calls: set[str] = field(default_factory=set)  # `define:` functions called
    does: set[str] = field(default_factory=set)  # procedures run

    def add(self, n: A.Node) -> None:
        (self._methods.get(type(n)) or self.method(type(n)))(self, n)

    def generic_visit(self, node: A.Node) -> None:
        pass  # names nothing declared (its children are given to `add` too)

    def visit_Name(self, n: A.Name) -> None:
        ref = n.ref
        if isinstance(ref, R.Variable | R.Zone):
            self.read.add(id(ref.spec))
        elif isinstance(ref, R.Option):
            self.options.add(ref.name)

    def visit_ZoneRef(self, n: A.ZoneRef) -> None:
        if n.ref is not None:
            self.read.add(id(n.ref))

    def visit_Assign(self, n: A.Assign) -> None:
        if isinstance(n.ref, R.Variable):
            self.written.add(id(n.ref.spec))

    def visit_Call(self, n: A.Call) -> None:
        if isinstance(n.ref, R.UserFunction):
            self.calls.add(n.func)

    def visit_Do(self, n: A.Do) -> None:
        self.does.add(n.proc)


def _nodes(obj: Any) -> Iterator[A.Node]:
    """Every AST node held anywhere in `obj` (a spec, a section, a list), each with the nodes below it."""
    stack: list[Any] = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, A.Node):
            yield from A.walk(o)
        elif isinstance(o, list | tuple):
            stack.extend(o)
        elif hasattr(o, "__dataclass_fields__") and not isinstance(o, Span):
            stack.extend(getattr(o, f) for f in o.__dataclass_fields__ if f not in ("ty", "ref", "span"))


def _uses(obj: Any) -> _Uses:
    u = _Uses()
    for n in _nodes(obj):
        u.add(n)
    return u


def _gotos(stmts: list[A.Stmt]) -> tuple[set[str], set[str]]:
    """The phases `stmts` go to, and the procedures they run."""
    phases: set[str] = set()
    procs: set[str] = set()
    for n in _nodes(stmts):
        if isinstance(n, A.Goto):
            phases.add(n.phase)
        elif isinstance(n, A.Do):
            procs.add(n.proc)
    return phases, procs


class Linter:
    def __init__(self, spec: GameSpec):
        self.spec = spec
        self.out: list[Diagnostic] = []

    def warn(self, code: str, span: Span, msg: str, hint: str | None = None) -> None:
        self.out.append(Diagnostic(code, span, msg, hint, severity="warning"))

    def run(self) -> list[Diagnostic]:
        sp = self.spec
        funcs = {f.name: f for f in sp.functions}
        procs = {p.name: p for p in sp.procedures}
        rest = [getattr(sp, f) for f in sp.__dataclass_fields__ if f not in ("functions", "procedures")]
        top = _uses(rest)
        own = {f"f {f.name}": _uses(f.body) for f in sp.functions}
        own.update({f"p {p.name}": _uses(p.body) for p in sp.procedures})
        everything = [top, *own.values()]
        self._options({o for u in everything for o in u.options})
        read = {i for u in everything for i in u.read}
        written = {i for u in everything for i in u.written}
        self._zones(read)
        self._variables(read, written)
        self._callables(top, own, funcs, procs)
        self._phases(procs)
        self._library_names()
        self._text_formulas()
        return self.out

    # ------------------------------------------------------------ a formula kept as text
    def _text_formulas(self) -> None:
        """W012: a text value of a `by_rank`/`by_suit` table (or its default) that reads as an expression of
        the property's names (`rank_index + 1`): a table's values are kept as written, so it is the text,
        and `c.value == 5` is just false. Text that merely parses (a word, `Q-K` of names nothing defines)
        is text as meant."""
        sp = self.spec
        known = {"rank", "suit", "rank_index", "suit_index", "num_players"} | {o.name for o in sp.options} | set(
            sp.constants) | {p.name for p in sp.properties}
        for p in sp.properties:
            if p.by not in ("rank", "suit"):
                continue
            texts = [(f"'{k}'", v, p.value_spans.get(k)) for k, v in p.table.items()]
            texts.append(("'default'", p.default, p.default_span))
            for where, value, span in texts:
                if span is not None and isinstance(value, str) and _formula(value, span, known):
                    self.warn("W012", span, f"the value of {where} in property '{p.name}' is kept as the text "
                              f"'{value}', not computed: a 'by_{p.by}' table gives values as written",
                              f"to compute it, write the whole property as an expression: {p.name}: \"if "
                              f"{p.by} == ... then ... else {value}\"; or write the number itself")

    # ------------------------------------------------------------ names the library gained later
    def _library_names(self) -> None:
        """W011: a name of the file that the library gained after the language's first release (checker.py,
        FIRST_LIBRARY). The file's name wins, so the file loads as it did before the library had it; the
        warning says which meaning the name has."""
        sp = self.spec
        named: list[tuple[str, str, Span]] = [(k, x.name, x.span) for k, xs in (
            ("option", sp.options), ("zone", sp.zones), ("variable", sp.variables), ("function", sp.functions),
            ("procedure", sp.procedures)) for x in xs]
        named += [("constant", name, span) for name, (_, span) in sp.constants.items()]
        for kind, name, span in named:
            lib = LIBRARY.get(name)
            if lib is None or name in FIRST_LIBRARY:
                continue
            if kind == "function":
                self.warn("W011", span, f"function '{name}' hides the library function '{name}': {name}(...) "
                          "in this file calls this function",
                          f"rename it to use the library's {name}(...) too, which gives {lib.doc}")
            else:
                self.warn("W011", span, f"{kind} '{name}' has the name of the library function '{name}': "
                          f"'{name}' in this file is this {kind}, and {name}(...) still calls the library",
                          "rename it to tell them apart")

    # ------------------------------------------------------------ declarations nothing uses
    def _options(self, used: set[str]) -> None:
        for o in self.spec.options:
            if o.name not in used:
                self.warn("W001", o.span, f"option '{o.name}' is never used",
                          "no rule reads it, so setting it changes nothing: read it (in a rule, a 'when', "
                          "'show:' or a constraint) or remove it")

    def _zones(self, read: set[int]) -> None:
        # The first zone holds every card when the match starts: the engine deals to it.
        for z in self.spec.zones[1:]:
            if id(z) not in read:
                self.warn("W002", z.span, f"zone '{z.name}' is never used",
                          "no rule moves cards to it, deals from it or reads it: remove it")

    def _variables(self, read: set[int], written: set[int]) -> None:
        for v in self.spec.variables:
            if id(v) in read or _shown(v):
                continue
            why = "'visible: nobody'" if v.visible == "nobody" else "'show: false'"
            if id(v) in written:
                self.warn("W003", v.span, f"variable '{v.name}' is set but never read",
                          f"no rule reads it and the tables do not show it ({why}): read it or remove it")
            else:
                self.warn("W003", v.span, f"variable '{v.name}' is never used",
                          f"no rule sets or reads it and the tables do not show it ({why}): remove it")

    def _callables(self, top: _Uses, own: dict[str, _Uses], funcs: dict[str, FuncSpec],
                   procs: dict[str, ProcSpec]) -> None:
        """Functions and procedures used from the rules, through the ones they call; the others are warned
        about, naming who calls them, if anyone does. Keys: 'f NAME' for a function, 'p NAME' a procedure."""
        callees = {key: [f"f {c}" for c in sorted(u.calls)] + [f"p {d}" for d in sorted(u.does)]
                   for key, u in own.items()}
        roots = [f"f {c}" for c in sorted(top.calls)] + [f"p {d}" for d in sorted(top.does)]
        used = set(_postorder(roots, lambda key: callees.get(key, [])))
        callers: dict[str, set[str]] = {}
        for key, called in callees.items():
            for c in called:
                if c != key:
                    callers.setdefault(c, set()).add(key[2:])
        for f in funcs.values():
            if f"f {f.name}" not in used:
                by = callers.get(f"f {f.name}")
                self.warn("W004", f.span, f"function '{f.name}' is never called" if not by else
                          f"function '{f.name}' is called only by {_listed(by)}, which nothing uses",
                          "remove it" + (f" (and {_listed(by)})" if by else "") + ", or call it where it matters")
        for p in procs.values():
            if f"p {p.name}" not in used:
                by = callers.get(f"p {p.name}")
                self.warn("W005", p.span, f"procedure '{p.name}' is never run" if not by else
                          f"procedure '{p.name}' is run only by {_listed(by)}, which nothing uses",
                          "remove it" + (f" (and {_listed(by)})" if by else "") + f", or run it with 'do "
                          f"{p.name}(...)' where it matters")

    # ------------------------------------------------------------ what no phase reaches
    def _phases(self, procs: dict[str, ProcSpec]) -> None:
        """Phases entered from 'match: deal', and the actions they list. One graph of phases, actions and
        procedures ('ph NAME', 'a NAME', 'p NAME'), each node's steps walked once: a phase leads to the
        actions it lists, and each of them to the phases and procedures its steps go to and run."""
        sp = self.spec
        edges: dict[str, list[str]] = {}

        def steps(key: str, stmts: list[A.Stmt], more: Iterable[str] = ()) -> None:
            phases, run = _gotos(stmts)
            edges[key] = [f"ph {x}" for x in sorted(phases)] + [f"p {x}" for x in sorted(run)] + list(more)

        for name, pr in procs.items():
            steps(f"p {name}", pr.body)
        for a in sp.actions:
            steps(f"a {a.name}", a.effect)
        for ph in sp.phases:
            steps(f"ph {ph.name}", ph.start + ph.after + ph.end,
                  [f"a {n}" for n, _ in ph.actions] + ([f"ph {ph.then[0]}"] if ph.then is not None else []))
        steps("deal", sp.match.deal)
        # The phases 'match: deal' enters, itself or through the procedures it runs (a procedure's edges
        # lead to phases and procedures only).
        first = {k for k in _postorder(["deal"], lambda k: edges.get(k, []) if not k.startswith("ph ") else [])
                 if k.startswith("ph ")}
        if not first:
            if sp.match.deal:  # an empty deal is an error (C031)
                self.warn("W009", sp.match.deal_span or sp.match.span, "'match: deal' never enters a phase",
                          "no 'goto' in it or in the procedures it runs, so no player ever acts: end it with "
                          "'goto' the first phase")
            return  # every phase is out of reach: W009 says why, once
        reached = set(_postorder(["deal"], lambda k: edges.get(k, [])))
        for ph in sp.phases:
            if f"ph {ph.name}" not in reached:
                self.warn("W008", ph.span, f"phase '{ph.name}' is never entered",
                          f"no 'goto {ph.name}' or 'then: {ph.name}' is reached from 'match: deal': go to it "
                          "from a phase that is entered, or remove it")
        listed: dict[str, list[str]] = {}
        for ph in sp.phases:
            for name, _ in ph.actions:
                listed.setdefault(name, []).append(ph.name)
        for a in sp.actions:
            where = listed.get(a.name)
            if not where:
                self.warn("W006", a.span, f"action '{a.name}' is in no phase's 'actions'",
                          "no player can ever take it: list it in a phase's 'actions', or remove it")
            elif f"a {a.name}" not in reached:
                self.warn("W007", a.span, f"action '{a.name}' is listed only by phases never entered "
                          f"({_listed(where)})", "no player can ever take it: enter one of them, or remove it")


def _shown(v: VarSpec) -> bool:
    """Whether the tables show the variable to some player, who then reads it."""
    return v.show is not False and v.visible != "nobody"


def _formula(text: str, span: Span, known: set[str]) -> bool:
    """Whether `text` reads as an expression that computes something: more than a name or a constant, and
    reading a name of `known`, a card's attribute or a function, or only numbers (`2 * 5`)."""
    from . import parser  # the grammar's tables are loaded on the first expression of a file anyway
    e = parser.parse(text, "expression", lambda line, col: span, [], DEFAULT_LIMITS)
    if e is None or isinstance(e, A.Name | A.Const):
        return False
    names = [n for n in A.walk(e) if isinstance(n, A.Name)]
    return any(isinstance(n, A.Call | A.Attr) for n in A.walk(e)) or not names or any(
        n.id in known for n in names)


def lint(spec: GameSpec) -> list[Diagnostic]:
    """The warnings of a checked spec without errors, in no particular order (rendering sorts them)."""
    return Linter(spec).run()


def unreachable_actions(diags: list[Diagnostic]) -> set[Span]:
    """Where the actions are that `lint` already found no player can take (W006, W007)."""
    return {d.span for d in diags if d.code in ("W006", "W007")}
