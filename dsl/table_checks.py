"""How the checker checks what is worked out when the table is set up, before any match.

Option defaults and bounds, constraints, card properties, the pack's `when`/`where`, the ranges of
number parameters and the `ids` of parameters over lists of cards (which may read the pack, built before
them) are computed once per game (a player count and its options), without a state: they
may read what is fixed for the game (options, constants, `num_players`, `players`, `suits`, `ranks`)
and call the `define:` functions that read nothing else, directly or through the functions they call
(C037; C005 for a number parameter's range). Options are set in the order they are listed, so a default
or a bound may not read, even through a function, an option listed at or below it (C035).

A part of `Checker` (dsl/checker.py), a class of its own over the shared context (dsl/check_context.py); the
decisions are made here, after every expression is checked, so the compiler only builds what was accepted.
"""

from __future__ import annotations

from . import ast as A
from . import refs as R
from . import types as T
from .analysis import _direct_read, function_state_reads, latest_options, through
from .check_context import CheckContext, Typer
from .spec import OptionSpec

KNOWN = "constants, num_players, players, suits and ranks"
OPTION_TYPES = {"int": T.INT, "bool": T.BOOL, "choice": T.STR}
PARAM_KINDS: dict[T.Type, str] = {T.CARD: "card", T.PLAYER: "player", T.SUIT: "suit", T.RANK: "rank", T.BOOL: "bool",
               T.INT: "int", T.STR: "str"}


def _names(xs: list[str]) -> str:
    return ", ".join(repr(x) for x in xs)


class TableChecker:
    """Checks the tables and static contexts over the shared context, typing expressions with `typer`."""

    def __init__(self, ctx: CheckContext, typer: Typer) -> None:
        self.ctx = ctx
        self.typer = typer
        self._state_reads: dict[str, tuple[str, list[str]]] | None = None  # function_state_reads, once needed
        self._match_reads: dict[str, tuple[str, list[str]]] | None = None  # the same, `pack` allowed

    def _reads(self) -> dict[str, tuple[str, list[str]]]:
        """analysis.function_state_reads, worked out at the first call of a `define:` function met here."""
        if self._state_reads is None:
            self._state_reads = function_state_reads(self.ctx.spec.functions)
        return self._state_reads

    # ------------------------------------------------------------ types
    def table_types(self) -> None:
        """Option bounds are whole numbers, constraints true/false (their reads are checked at the end)."""
        for o in self.ctx.spec.options:
            for bound, key in ((o.min_expr, "min"), (o.max_expr, "max")):
                if bound is not None:
                    with self.ctx.scope({}):
                        self.typer.want(bound, self.typer.expr(bound), T.INT, f"'{key}' of option '{o.name}'")
        for c in self.ctx.spec.constraints:
            with self.ctx.scope({}):
                self.typer.want(c.cond, self.typer.expr(c.cond), T.BOOL, f"'{'refuse' if c.refuse else 'require'}'")
        shows = [z.show for z in self.ctx.spec.zones] + [v.show for v in self.ctx.spec.variables]
        for show in shows:
            if isinstance(show, A.Expr):
                with self.ctx.scope({}):
                    self.typer.want(show, self.typer.expr(show), T.BOOL, "'show'")

    # ------------------------------------------------------------ what a fixed expression may read
    def _fixed_problem(self, e: A.Expr, params: frozenset[str] = frozenset()) -> tuple[A.Expr, str] | None:
        """The first thing in `e` that is not fixed for the game, as (node, words: "read zone 'pile'"),
        or None. `params`: local names bound outside `e`."""
        for n in A.walk(e):
            words = self._node_problem(n, params)
            if words is not None:
                return n, words
        return None

    def _node_problem(self, n: A.Expr, params: frozenset[str], with_pack: bool = True) -> str | None:
        """What node `n` itself reads that is not fixed for the game, in words, or None. `with_pack`: the pack
        counts (it is being built); else it is fixed like the options (the ids of a parameter come after it)."""
        direct = _direct_read(n, with_pack=with_pack)
        if direct is not None:
            return direct
        if isinstance(n, A.Name) and n.ref == R.Local(n.id) and n.id in params:
            return f"read parameter '{n.id}'"
        if isinstance(n, A.Call) and isinstance(n.ref, R.UserFunction):
            if not with_pack:
                if self._match_reads is None:
                    self._match_reads = function_state_reads(self.ctx.spec.functions, with_pack=False)
                r = self._match_reads.get(n.func)
            else:
                r = self._reads().get(n.func)
            if r is not None:
                verb, rest = r[0].split(" ", 1)
                via = f" (through {_names(r[1])})" if r[1] else ""
                return f"call '{n.func}', which{via} {verb}s {rest}"
        return None

    def static_contexts(self) -> None:
        """Option defaults and bounds, constraints, card properties and pack conditions are worked out
        while a game is set up, before any match: they are compiled without the state, so they may not
        read it (C037), nor read an option that is not set yet (C035)."""
        sp = self.ctx.spec
        places: list[tuple[A.Expr, str, str, str]] = []
        for o in sp.options:
            if isinstance(o.default, A.Expr):
                places.append((o.default, f"the default of option '{o.name}' is worked out before the game starts",
                               "it", f"a default can read the options above it, {KNOWN}"))
            for bound, key in ((o.min_expr, "min"), (o.max_expr, "max")):
                if bound is not None:
                    places.append((bound, f"'{key}' of option '{o.name}' is worked out before the game starts",
                                   "it", f"a bound can read the options above it, {KNOWN}"))
        for c in sp.constraints:
            places.append((c.cond, "a constraint is checked before the game starts", "it",
                            f"a constraint can read options, {KNOWN}"))
        for kind, things in (("zone", sp.zones), ("variable", sp.variables)):
            for x in things:
                if isinstance(x.show, A.Expr):
                    places.append((x.show, f"'show' of {kind} '{x.name}' is fixed for the whole game", "it",
                                   f"'show' can read options, {KNOWN}"))
        for p in sp.properties:
            if p.expr is not None:
                places.append((p.expr, f"card property '{p.name}' is fixed for the whole game", "it",
                               f"a property can read rank, suit, rank_index, suit_index, options, {KNOWN}"))
        for entry in sp.pack:
            for cond, key, extra in ((entry.when, "when", ""), (entry.where, "where", "card, ")):
                if cond is not None:
                    places.append((cond, "the pack is fixed for the whole game", f"'{key}'",
                                   f"'{key}' can read {extra}options, {KNOWN}"))
        ret = sp.match.returns
        for b, key in ((ret.min, "min"), (ret.max, "max")) if ret is not None else ():
            if b is not None:
                places.append((b, "the bounds of 'returns' are fixed for the whole game", f"'{key}'",
                               f"'{key}' can read options, {KNOWN}"))
        mb = sp.match.bounds
        for b, key in ((mb.actions, "actions"), (mb.outcomes, "outcomes")) if mb is not None else ():
            if b is not None:
                places.append((b, "the match's 'bounds' are fixed for the whole game", f"'{key}'",
                               f"'{key}' can read options, {KNOWN}"))
        for e, what, subject, hint in places:
            # Every place that reads the match, not only the first: each is a line to fix.
            for n in A.walk(e):
                words = self._node_problem(n, frozenset())
                if words is not None:
                    self.ctx.err("C037", n.span, f"{what}: {subject} cannot {words}", hint)
        self._option_order()

    def _option_order(self) -> None:
        """A default or a bound calls no function that reads an option not set yet (C035). Names read
        directly are checked by `Checker.check`, before the names are resolved."""
        sp = self.ctx.spec
        order = {o.name: k for k, o in enumerate(sp.options)}
        latest: dict[str, tuple[int, str, str | None]] | None = None
        for k, o in enumerate(sp.options):
            for e, what in ((o.default, "the default"), (o.min_expr, "'min'"), (o.max_expr, "'max'")):
                if not isinstance(e, A.Expr):
                    continue
                if what != "the default":
                    for n in A.walk(e):
                        if isinstance(n, A.Name) and n.ref == R.Option(n.id) and order.get(n.id, -1) >= k:
                            self.ctx.err("C035", n.span, f"{what} of option '{o.name}' reads option '{n.id}', which is "
                                     "not set yet", "an option's bounds may read only the options above it")
                for n in A.walk(e):
                    if not (isinstance(n, A.Call) and isinstance(n.ref, R.UserFunction)):
                        continue
                    latest = latest_options(sp.functions, order) if latest is None else latest
                    hit = latest.get(n.func)
                    if hit is not None and hit[0] >= k:
                        chain = through(latest, n.func)
                        via = f" (through {_names(chain)})" if chain else ""
                        self.ctx.err("C035", n.span, f"{what} of option '{o.name}' calls '{n.func}', which{via} reads "
                                 f"option '{hit[1]}', not set yet",
                                 f"{'a default' if what == 'the default' else 'a bound'} may read only the options "
                                 "above it, also through functions")

    # ------------------------------------------------------------ action parameters
    def param_domains(self) -> None:
        """Action values are numbered once per game: a text parameter lists its names, and a number
        parameter ranges over range(a, b) with a and b fixed for the game (C005)."""
        for a in self.ctx.spec.actions:
            names = frozenset(p.name for p in a.params)
            for p in a.params:
                if p.ids is not None:
                    # Every place, as in `_static_contexts`: the list is worked out once per game.
                    for n in A.walk(p.ids):
                        words = self._node_problem(n, names, with_pack=False)
                        if words is not None:
                            self.ctx.err("C037", n.span, f"the ids of parameter '{p.name}' are fixed for the whole "
                                     f"game: they cannot {words}", f"'ids' can read options, pack, {KNOWN}; the "
                                     "values a turn offers come from 'from'")
                    continue
                d = p.domain
                if not T.is_list(d.ty):
                    continue  # reported as C004
                kind = PARAM_KINDS.get(T.elem(d.ty))
                if kind == "str" and not (isinstance(d, A.ListLit) and all(isinstance(i, A.Const) for i in d.items)
                                          or isinstance(d, A.Name) and isinstance(d.ref, R.Constant)):
                    self.ctx.err("C005", d.span, f"parameter '{p.name}' ranges over text: give the choices as a list, "
                             "e.g. ['high', 'low']")
                elif kind == "int" and isinstance(d, A.ListLit) and all(isinstance(i, A.Const) for i in d.items) \
                        or kind == "int" and isinstance(d, A.Name) and isinstance(d.ref, R.Constant):
                    self._listed_numbers(p.name, d)
                elif kind == "int" and not (isinstance(d, A.Call) and d.func == "range" and len(d.args) != 2):
                    # (range with another number of arguments is C010)
                    message = (f"number parameter '{p.name}' must range over range(a, b) with a and b fixed for the "
                               "game (numbers, options, constants, num_players), or over a list of numbers written "
                               "out: [0, 2, 5], or a constant holding one")
                    if not (isinstance(d, A.Call) and d.func == "range" and len(d.args) == 2
                            and isinstance(d.ref, R.Library)):
                        self.ctx.err("C005", d.span, message)
                        continue
                    for x in d.args:
                        problem = self._fixed_problem(x, names)
                        if problem is not None:
                            self.ctx.err("C005", d.span, message, f"its bounds cannot {problem[1]}")
                            break


    def _listed_numbers(self, name: str, d: A.Expr) -> None:
        """A number parameter over listed numbers: each is an action of its own, so none may repeat."""
        values = [i.value for i in d.items if isinstance(i, A.Const)] if isinstance(d, A.ListLit) else \
            list(self.ctx.spec.constants[d.id][0]) if isinstance(d, A.Name) else []
        twice = next((v for k, v in enumerate(values) if v in values[:k]), None)
        if twice is not None:
            self.ctx.err("C005", d.span, f"parameter '{name}' lists the number {twice} twice",
                     "each value of a parameter is an action of its own: list each once")
        elif not values:
            self.ctx.err("C005", d.span, f"parameter '{name}' ranges over an empty list", "list at least one number")


def option_bounds_text(o: OptionSpec) -> str:
    """An int option's range as written: '1..10', '1..52 // num_players'."""
    lo = o.min_text or str(o.min)
    hi = o.max_text or str(o.max)
    return f"{lo}..{hi}"


def bounds_vary_with_players_only(o: OptionSpec) -> bool:
    """An int option's range is worked out for the player count, and reads no other option and calls no
    function (which could): its values at each player count are the whole story."""
    bounds = [e for e in (o.min_expr, o.max_expr) if e is not None]
    return bool(bounds) and not any(
        isinstance(n, A.Name) and isinstance(n.ref, R.Option)
        or isinstance(n, A.Call) and isinstance(n.ref, R.UserFunction) for e in bounds for n in A.walk(e))
