"""How the checker checks steps (statements): `Checker.stmt` and the procedures they call.

A part of `Checker` (dsl/checker.py), a class of its own over the shared context (dsl/check_context.py).
"""

from __future__ import annotations

from collections.abc import Iterator

from . import ast as A
from . import refs as R
from . import types as T
from .calls import MAX_CALL_DEPTH, _args, _close
from .check_context import BUILTIN_VALUES, CheckContext, Typer
from .diagnostics import Span
from .spec import ProcSpec

ASSIGNABLE_BUILTINS = {"dealer", "current"}


class StepChecker(A.NodeVisitor):
    """Checks steps (statements), one `visit_` method per kind of step, and the procedures they call, over the
    shared context; their expressions are typed by `typer`."""

    def __init__(self, ctx: CheckContext, typer: Typer) -> None:
        self.ctx = ctx
        self.typer = typer

    def visit_Assign(self, s: A.Assign) -> None:
        vt = self.typer.expr(s.value)
        if s.name == "team":
            self._assign_team(s, vt)
            return
        if s.name in ASSIGNABLE_BUILTINS and s.index is None:
            s.ref = R.Builtin(s.name)
            target: T.Type = T.PLAYER
        elif s.name in self.ctx.vars:
            v = self.ctx.vars[s.name]
            s.ref = R.Variable(v)
            target = v.ty
            if v.per_player and s.index is None:
                self.ctx.err("C012", s.span, f"'{s.name}' is kept per player: write {s.name}[p]")
            elif v.per_team and s.index is None:
                self.ctx.err("C012", s.span, f"'{s.name}' is kept per team: write {s.name}[t], e.g. {s.name}[team[p]]")
            elif not v.per_player and not v.per_team and s.index is not None:
                self.ctx.err("C012", s.span, f"'{s.name}' is a single value, not one per player")
            if s.index is not None and v.per_team:
                self.typer._team_index(s.index, s.name)
            elif s.index is not None:
                self.typer.want(s.index, self.typer.expr(s.index), T.PLAYER, "the player index")
        elif s.name in self.ctx.spec.broken:
            return
        else:
            hint = _close(s.name, list(self.ctx.vars) + list(ASSIGNABLE_BUILTINS))
            if s.name in BUILTIN_VALUES or s.name in self.ctx.zones or s.name in self.ctx.options:
                hint = "only variables, 'dealer' and 'current' can be assigned; cards move with 'move'"
            self.ctx.err("C013", s.span, f"cannot assign to '{s.name}': it is not a variable", hint)
            return
        if s.op != "=" and target not in T.NUMERIC and not T.is_list(target):
            self.ctx.err("C014", s.span, f"'{s.op}' needs a number or list variable; '{s.name}' holds "
                     f"{T.show(target)}")
        elif not T.compatible(vt, target):
            self.ctx.err("C001", s.value.span, f"'{s.name}' holds {T.show(target)}, not {T.show(vt)}")

    def block(self, stmts: list[A.Stmt]) -> None:
        with self.ctx.scope({}):
            for s in stmts:
                self.stmt(s)

    def stmt(self, s: A.Stmt) -> None:
        (self._methods.get(type(s)) or self.method(type(s)))(self, s)  # a visit_ method; no frame on visit()

    def visit_LetStmt(self, s: A.LetStmt) -> None:
        self.ctx.declare(s.name, self.typer.expr(s.value), s.name_span or s.span)

    def visit_Pick(self, s: A.Pick) -> None:
        t = self.typer.expr(s.options)
        if not T.is_list(t) and t != T.ANY:
            self.ctx.err("C004", s.options.span, f"'pick' chooses from a list, not {T.show(t)}")
        self.ctx.declare(s.name, T.elem(t), s.name_span or s.span)

    def visit_Move(self, s: A.Move) -> None:
        t = self.typer.expr(s.cards)
        if not (t in (T.CARD, T.ANY) or (T.is_list(t) and T.elem(t) in (T.CARD, T.ANY))):
            self.ctx.err("C008", s.cards.span, f"'move' needs a card or a list of cards, not {T.show(t)}")
        self.zone(s.dest, need_index=True)

    def visit_Deal(self, s: A.Deal) -> None:
        self.typer.want(s.count, self.typer.expr(s.count), T.INT, "the number of cards to deal")
        self.zone(s.src, need_index=True)
        self.zone(s.dest, need_index=False)

    def visit_Shuffle(self, s: A.Shuffle) -> None:
        self.zone(s.zone, need_index=True)

    def visit_Goto(self, s: A.Goto) -> None:
        if s.phase not in self.ctx.phases and s.phase not in self.ctx.spec.broken and self.ctx.phases:
            self.ctx.err("C007", s.span, f"unknown phase '{s.phase}'", _close(s.phase, self.ctx.phases))

    def visit_EndDeal(self, s: A.EndDeal) -> None:
        pass

    def visit_Log(self, s: A.Log) -> None:
        for v in s.values:
            self.typer.expr(v)
        if s.text.count("{}") != len(s.values):
            self.ctx.err("C032", s.span, f"the message has {s.text.count('{}')} '{{}}' but "
                     f"{len(s.values)} value(s) follow it")

    def visit_Eliminate(self, s: A.Eliminate) -> None:
        self.typer.want(s.player, self.typer.expr(s.player), T.PLAYER, "'eliminate'")

    def visit_SitOut(self, s: A.SitOut) -> None:
        self.typer.want(s.player, self.typer.expr(s.player), T.PLAYER, "'sit out'")

    def visit_Do(self, s: A.Do) -> None:
        pr = self.ctx.procs.get(s.proc)
        if pr is None and (s.proc in self.ctx.spec.broken or "procedures" in self.ctx.spec.malformed):
            return
        if pr is None:
            self.ctx.err("C009", s.span, f"unknown procedure '{s.proc}'", _close(s.proc, self.ctx.procs))
            return
        if len(s.args) != len(pr.params):
            self.ctx.err("C010", s.span, f"procedure '{s.proc}' takes {_args(len(pr.params))}, "
                     f"got {len(s.args)}")
        types = [self.typer.expr(a) for a in s.args]
        if len(types) == len(pr.params):
            old = self.ctx.proc_args.get(pr.name)
            self.ctx.proc_args[pr.name] = types if old is None else [T.join(x, y) for x, y in zip(old, types)]
        self._proc_recursion(pr, s.span)

    def visit_If(self, s: A.If) -> None:
        self.typer.want(s.cond, self.typer.expr(s.cond), T.BOOL, "'if'")
        self.block(s.then)
        self.block(s.other)

    def visit_For(self, s: A.For) -> None:
        t = self.typer.expr(s.iter)
        if not T.is_list(t) and t != T.ANY:
            self.ctx.err("C004", s.iter.span, f"'for' needs a list, not {T.show(t)}")
        with self.ctx.scope({}):
            self.ctx.declare(s.var, T.elem(t), s.var_span or s.span)
            self.block(s.body)

    # ------------------------------------------------------------ teams (see docs/language.md#teams)
    def _assign_team(self, s: A.Assign, vt: T.Type) -> None:
        """team[p] = t: a team number for a player, until the deal ends."""
        s.ref = R.Builtin("team")
        if s.index is None:
            self.ctx.err("C012", s.span, "'team' is kept per player: write team[p] = t")
        else:
            self.typer.want(s.index, self.typer.expr(s.index), T.PLAYER, "the player index")
        if s.op != "=":
            self.ctx.err("C014", s.span, f"'{s.op}' cannot change a team: write team[p] = t with a team number")
        elif not T.compatible(vt, T.INT) or vt == T.NONE:
            self.ctx.err("C001", s.value.span, f"a team is a number from 0 to num_players - 1, not {T.show(vt)}")

    def undone_by_deals(self, start: list[A.Stmt]) -> None:
        """Teams and seats are set again when every deal starts: written in `match: start`, they do nothing
        (C039). Run after `start` is checked, which records what each assignment refers to."""
        for st in _walk_stmts(start):
            if isinstance(st, A.SitOut):
                self.ctx.err("C039", st.span, "'sit out' in 'match: start' does nothing: every player takes part in "
                         "each new deal", "sit a player out in 'match: deal' or in a phase, for that deal")
            elif isinstance(st, A.Assign) and st.ref == R.Builtin("team"):
                self.ctx.err("C039", st.span, "setting 'team' in 'match: start' does nothing: every deal starts "
                         "with the teams of 'players: teams'", "fixed partnerships go in 'players: teams'; "
                         "sides formed in play are set in 'match: deal' or later")

    def procedures(self) -> None:
        """Check procedures callers first, each with the joined types its calls pass."""
        order: list[str] = []
        seen: set[str] = set()
        for root in self.ctx.procs:
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
                for st in _walk_stmts(self.ctx.procs[name].body):
                    if isinstance(st, A.Do) and st.proc in self.ctx.procs and st.proc not in seen:
                        stack.append((st.proc, False))
        for name in reversed(order):
            pr = self.ctx.procs[name]
            types = self.ctx.proc_args.get(name, [T.ANY] * len(pr.params))
            with self.ctx.scope(dict(zip(pr.params, types))):
                self.block(pr.body)

    def _proc_recursion(self, pr: ProcSpec, span: Span) -> int:
        """Report a procedure that calls itself (C011) or a chain deeper than MAX_CALL_DEPTH (C036); the depth
        of the chain below `pr`. Each procedure is explored once (its depth remembered): a procedure calling
        the next one three times, twelve deep, is 12 explorations, not 3**12."""
        known = self.ctx.proc_depths.get(pr.name)
        if known is not None:
            if len(self.ctx.call_stack) + known >= MAX_CALL_DEPTH:
                self.ctx.err("C036", span, f"procedures call each other more than {MAX_CALL_DEPTH} deep",
                         "flatten the chain of procedures")
            return known
        if len(self.ctx.call_stack) >= MAX_CALL_DEPTH:
            self.ctx.err("C036", span, f"procedures call each other more than {MAX_CALL_DEPTH} deep",
                     "flatten the chain of procedures")
            return 0
        if pr.name in self.ctx.call_stack:
            self.ctx.err("C011", span, f"procedure '{pr.name}' calls itself",
                     "procedures and functions may not be recursive, so every rule ends")
            return 0
        self.ctx.call_stack.append(pr.name)
        deepest = 0
        try:
            for st in _walk_stmts(pr.body):
                if isinstance(st, A.Do) and st.proc in self.ctx.procs:
                    deepest = max(deepest, 1 + self._proc_recursion(self.ctx.procs[st.proc], st.span))
        finally:
            self.ctx.call_stack.pop()
        self.ctx.proc_depths[pr.name] = deepest
        return deepest

    def zone(self, z: A.ZoneRef, need_index: bool) -> None:
        zs = self.ctx.zones.get(z.name)
        if zs is None and (z.name in self.ctx.spec.broken or "zones" in self.ctx.spec.malformed):
            return
        if zs is None:
            self.ctx.err("C015", z.span, f"unknown zone '{z.name}'", _close(z.name, self.ctx.zones))
            return
        z.ref = zs
        if zs.per_player and z.index is None and need_index:
            self.ctx.err("C016", z.span, f"zone '{z.name}' belongs to each player: write {z.name}[p]")
        if not zs.per_player and z.index is not None:
            self.ctx.err("C016", z.span, f"zone '{z.name}' is shared: it takes no player index")
        if z.index is not None:
            self.typer.want(z.index, self.typer.expr(z.index), T.PLAYER, "the player index")


def _walk_stmts(stmts: list[A.Stmt]) -> Iterator[A.Stmt]:
    return A.statements(stmts)  # those inside `if`, `for` (any step holding steps) too, in file order
