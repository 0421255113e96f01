"""Checks of `openspiel:` (dsl/schema_openspiel.py): every action has an OpenSpiel id, a whole number of its
parameters; the sizes are whole numbers; each tensor block's expression is of the seat `p` and gives what its
kind writes; a `moves` block names actions of the game and reads the parameters they share.

A part of `Checker` (dsl/checker.py) over the shared context, run after the actions are checked.
"""

from __future__ import annotations

from typing import Any

from . import ast as A
from . import types as T
from .calls import _close
from .check_context import CheckContext, Typer
from .spec import ActionSpec, TensorBlock
from .strategy_checks import shared_params

# What each kind of block may be given, said in its message.
_ONE = (T.INT, T.NUM, T.PLAYER, T.CARD, T.NONE, T.ANY)
_WANTS = {
    "one_hot": (_ONE, "a number, a player or a card"),
    "cards": ((T.CARD, T.list_of(T.CARD), T.ANY), "a card or a list of cards"),
    "numbers": ((T.INT, T.NUM, T.PLAYER, T.list_of(T.INT), T.list_of(T.NUM), T.ANY), "a number or a list of numbers"),
    "thermometer": ((T.INT, T.NUM, T.ANY), "a number"),
}


def param_types(a: ActionSpec) -> dict[str, Any]:
    return {p.name: T.elem(getattr(p.domain, "ty", T.ANY) or T.ANY) for p in a.params}


class OpenSpielChecker:
    def __init__(self, ctx: CheckContext, typer: Typer) -> None:
        self.ctx = ctx
        self.typer = typer

    def check(self) -> None:
        ctx, typer = self.ctx, self.typer
        os_ = ctx.spec.openspiel
        if os_ is None:
            return
        by_name = {a.name: a for a in ctx.spec.actions}
        for name, (e, span) in os_.actions.items():
            a = by_name.get(name)
            if a is None:
                self._unknown(name, span)
                continue
            with ctx.scope(param_types(a)):
                self._kind(e, typer.expr(e), (T.INT, T.CARD, T.ANY), f"the OpenSpiel id of '{name}'",
                           "a whole number or a card")
        if "actions" not in ctx.spec.malformed:
            for a in ctx.spec.actions:
                # An action a variant adds (`extends:`, another file) leaves the layout it inherits without an
                # id for it: the variant still loads, and only asking for the layout says so (engine/layout.py).
                if a.name not in os_.actions and a.span.file == os_.span.file:
                    ctx.err("C042", os_.actions_span or os_.span,
                            f"'openspiel' gives no OpenSpiel id for the action '{a.name}'",
                            f"add it under 'actions': {a.name}: EXPRESSION (a whole number of its parameters)")
        fixed: list[tuple[A.Expr | None, str, dict[str, T.Type]]] = [
            (os_.num_actions, "'num_actions'", {}), (os_.card, "'card' of 'openspiel'", {"c": T.CARD})]
        for fe, what, scope in fixed:
            if fe is not None:
                with ctx.scope(scope):
                    typer.want(fe, typer.expr(fe), T.INT, what)
        for block in os_.observation + os_.information_state:
            self._block(block, by_name)

    def _unknown(self, name: str, span: Any) -> None:
        ctx = self.ctx
        if name not in ctx.spec.broken and "actions" not in ctx.spec.malformed:
            ctx.err("C006", span, f"unknown action '{name}'", _close(name, ctx.actions))

    def _block(self, b: TensorBlock, by_name: dict[str, ActionSpec]) -> None:
        ctx, typer = self.ctx, self.typer
        with ctx.scope({}):
            typer.want(b.size, typer.expr(b.size), T.INT, "'size'")
            if b.width is not None:
                typer.want(b.width, typer.expr(b.width), T.INT, "'width'")
        if b.kind == "moves":
            named = []
            for name, span in b.actions:
                a = by_name.get(name)
                if a is None:
                    self._unknown(name, span)
                else:
                    named.append(a)
            bound = {"p": T.PLAYER, "index": T.INT, "id": T.INT, **shared_params(named)}
            with ctx.scope(bound):
                for e, want, what in ((b.at, T.INT, "'at'"), (b.when, T.BOOL, "'when'")):
                    if e is not None:
                        typer.want(e, typer.expr(e), want, what)
                if b.bit is not None:
                    self._kind(b.bit, typer.expr(b.bit), (T.INT, T.CARD, T.ANY), "'bit'", "a number or a card")
            return
        names: dict[str, Any] = {"p": T.PLAYER}
        if b.each is not None:
            var, items, _ = b.each
            with ctx.scope(names):
                t = typer.expr(items)
            if not T.is_list(t) and t != T.ANY:
                ctx.err("C001", items.span, f"'for' of a tensor block must be a list, not {T.show(t)}")
            names[var] = T.elem(t)
        assert b.value is not None
        with ctx.scope(names):
            allowed, words = _WANTS[b.kind]
            self._kind(b.value, typer.expr(b.value), allowed, f"'{b.kind}'", words)

    def _kind(self, e: Any, got: T.Type, allowed: tuple[T.Type, ...], what: str, words: str) -> None:
        if T.is_list(got) and any(T.is_list(t) for t in allowed) and T.elem(got) in (T.ANY, T.NONE):
            return  # a list of nothing known yet (`[]`): its items are checked when it is written
        if not any(got == t for t in allowed):
            self.ctx.err("C001", e.span, f"{what} must be {words}, not {T.show(got)}")
