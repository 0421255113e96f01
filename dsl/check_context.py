"""The state every part of the checker shares, and the reporting and scoping they all use.

The checker's parts share this one context. The steps (steps.py), the tables and static contexts
(table_checks.py) and the strategies (strategy_checks.py) are classes of their own, given the context and a
`Typer` (the expression checker). The expressions (expr_checks.py) and calls (calls.py), which call each other
at every level of nesting, are the bases of `Checker` over the context: the methods one calls in the other
are declared here for the type checker only, never stubbed at run time, so the order of `Checker`'s bases
cannot make one part shadow another (tests/test_checker_parts.py checks it).

`Symbols` is what a finished check leaves for the compiled game: the named things and the types of the
functions' checks, copied, so a later check (a scenario's probe) runs on a fresh context made from it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, Self

from . import ast as A
from . import types as T
from .diagnostics import Diagnostic, Span
from .library import FIRST_LIBRARY, LIBRARY
from .limits import Limits
from .parser import KEYWORDS
from .spec import ActionSpec, FuncSpec, GameSpec, OptionSpec, PhaseSpec, ProcSpec, VarSpec, ZoneSpec

BUILTIN_VALUES: dict[str, tuple[T.Type, str]] = {
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
    "phase": (T.STR, "the name of the current phase"),
    "team": (T.PerPlayer(T.INT), "each player's team number this deal, team[p] (assignable: team[p] = t)"),
    "teams": (T.list_of(T.INT), "the team numbers players have now, smallest first"),
}
CARD_ATTRS: dict[str, T.Type] = {"suit": T.SUIT, "rank": T.RANK, "rank_index": T.INT, "suit_index": T.INT,
                              "name": T.STR}

RESERVED = set(BUILTIN_VALUES) | (set(LIBRARY) & FIRST_LIBRARY) | {"owner"} | set(KEYWORDS)


@dataclass(frozen=True)
class Symbols:
    """What checking a rule file found, kept by the compiled game (`CompiledGame.symbols`) once the check is
    over: the named things and the types of the functions' checks. Read-only; a later check of an expression
    against the game (a scenario's probe) runs a fresh checker made from it (`Checker.from_symbols`), so it
    never writes into what another probe reads."""

    spec: GameSpec
    limits: Limits
    zones: Mapping[str, ZoneSpec]
    vars: Mapping[str, VarSpec]
    funcs: Mapping[str, FuncSpec]
    procs: Mapping[str, ProcSpec]
    actions: Mapping[str, ActionSpec]
    phases: Mapping[str, PhaseSpec]
    props: Mapping[str, T.Type]
    depths: Mapping[str, int]
    proc_depths: Mapping[str, int]
    proc_args: Mapping[str, Sequence[T.Type]]
    # The checks of the functions' bodies: result type by (name, argument types), the argument types each
    # was checked with, and the join of its results.
    func_cache: Mapping[tuple[str, tuple[T.Type, ...]], T.Type]
    signatures: Mapping[str, Sequence[tuple[T.Type, ...]]]
    results: Mapping[str, T.Type]


class Typer(Protocol):
    """What a part checked apart from `Checker` (steps.py, table_checks.py, strategy_checks.py) needs of the
    expression checker."""

    def expr(self, e: A.Expr, perplayer: bool = False) -> T.Type: ...
    def want(self, e: A.Expr, got: T.Type, want: T.Type, what: str) -> None: ...
    def _team_index(self, index: A.Expr, name: str, t: T.Type | None = None) -> None: ...


class CheckContext(A.NodeVisitor):
    """The checker's shared state: the rule file's named things, the scopes of local names, the function
    checks' caches, and the diagnostics."""

    options: dict[str, OptionSpec]
    consts: dict[str, tuple[Any, T.Type]]

    def __init__(self, spec: GameSpec, diags: list[Diagnostic], limits: Limits):
        self.spec = spec
        self.limits = limits
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
        self.props: dict[str, T.Type] = {}
        self.scopes: list[dict[str, T.Type]] = []
        self.call_stack: list[str] = []
        self.proc_depths: dict[str, int] = {}  # how deep the chain of procedures below each one goes
        self._global_names: list[str] | None = None
        self._listings: dict[str, str] = {}
        self.nesting = 0  # expression levels on the path being checked, through calls
        self.max_nesting = 4 * limits.expr_depth
        self.depths: dict[str, int] = {}  # analysis.nesting_depths
        self.func_cache: dict[tuple[str, tuple[T.Type, ...]], T.Type] = {}
        self.signatures: dict[str, list[tuple[T.Type, ...]]] = {}  # per function, in the order checked
        self.results: dict[str, T.Type] = {}  # per function, the join of its results
        # Calls not entered because the callee alone nests too deeply.
        self.skipped: list[tuple[Span, str]] = []
        self.settling = False
        self.proc_args: dict[str, list[T.Type]] = {}
        self.suits = set(spec.suits)
        self.ranks = set(spec.ranks)
        # The names of special cards (outside suits x ranks) count as ranks.
        for e in spec.pack:
            if e.card:
                self.ranks.add(e.card)

    def symbols(self) -> Symbols:
        """A copy of what the check found (for the compiled game): later checks do not change it. (Plain
        dicts, typed read-only: a compiled game may be deep-copied, which a mappingproxy refuses.)"""
        return Symbols(self.spec, self.limits, dict(self.zones), dict(self.vars), dict(self.funcs),
                       dict(self.procs), dict(self.actions), dict(self.phases), dict(self.props),
                       dict(self.depths), dict(self.proc_depths),
                       {k: list(v) for k, v in self.proc_args.items()},
                       dict(self.func_cache), {k: list(v) for k, v in self.signatures.items()},
                       dict(self.results))

    @classmethod
    def from_symbols(cls, sym: Symbols, diags: list[Diagnostic]) -> Self:
        """A fresh checker that knows what a finished check found, reporting into `diags`: for checking one
        more expression against the game (compile_probe)."""
        c = cls(sym.spec, diags, sym.limits)
        c.zones, c.vars, c.funcs, c.procs = dict(sym.zones), dict(sym.vars), dict(sym.funcs), dict(sym.procs)
        c.actions, c.phases, c.props = dict(sym.actions), dict(sym.phases), dict(sym.props)
        c.depths, c.proc_depths = dict(sym.depths), dict(sym.proc_depths)
        c.proc_args = {k: list(v) for k, v in sym.proc_args.items()}
        c.func_cache, c.results = dict(sym.func_cache), dict(sym.results)
        c.signatures = {k: list(v) for k, v in sym.signatures.items()}
        return c

    # ------------------------------------------------------------ reporting
    def err(self, code: str, span: Span, msg: str, hint: str | None = None) -> None:
        key = (code, span, msg)
        if key in self._seen:
            return
        self._seen.add(key)
        self.diags.append(Diagnostic(code, span, msg, hint))

    @contextmanager
    def scope(self, names: Mapping[str, T.Type]) -> Iterator[None]:
        self.scopes.append(dict(names))
        try:
            yield
        finally:
            self.scopes.pop()

    def local(self, name: str) -> T.Type | None:
        for s in reversed(self.scopes):
            if name in s:
                return s[name]
        return None

    def declare(self, name: str, ty: T.Type, span: Span) -> None:
        kind = ("a library function" if name in FIRST_LIBRARY and name in LIBRARY
                else "a built-in value" if name in BUILTIN_VALUES else "a word of the language" if name in RESERVED
                else "a variable" if name in self.vars else "a zone" if name in self.zones
                else "an option" if name in self.options else None)
        if kind is not None:
            self.err("C020", span, f"'{name}' is already {kind}", "choose another name for the local value")
        elif self.local(name) is not None:
            # Rebinding would let a loop grow a value step by step (let x = [x]) without bound.
            self.err("C020", span, f"'{name}' is already a local name here",
                     "choose another name; a local name keeps one value while it is in scope")
        self.scopes[-1][name] = ty

    def _listing(self, kind: str) -> str:
        """The deck's suits or ranks for a hint, at most 30 of them, in the deck's order: ranks lowest first as
        `ranks:` lists them (then the special cards, in pack order), which is how a designer reads them;
        sorted as text, '10' would come before '7' and 'A' before 'J'."""
        if kind not in self._listings:
            if kind == "rank":
                names = list(dict.fromkeys(self.spec.ranks + [e.card for e in self.spec.pack if e.card]))
            else:
                names = list(dict.fromkeys(self.spec.suits))
            more = f", ... ({len(names):,} in all)" if len(names) > 30 else ""
            self._listings[kind] = ", ".join(names[:30]) + more
        return self._listings[kind]

    if TYPE_CHECKING:  # the methods one part calls in another, declared for the type checker only
        def expr(self, e: A.Expr, perplayer: bool = False) -> T.Type: ...
        def want(self, e: A.Expr, got: T.Type, want: T.Type, what: str) -> None: ...
        def visit_Call(self, e: A.Call) -> T.Type: ...
        def user_call(self, f: FuncSpec, arg_types: list[T.Type], span: Span, root: bool = False) -> T.Type: ...
