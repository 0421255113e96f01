"""Checks of `strategies:`: each rule names actions of the game, its `when` is a condition and its `max` or
`min` a number, both over the state as the acting seat sees it and the parameters the named actions share.

A part of `Checker` (dsl/checker.py), a class of its own over the shared context (dsl/check_context.py),
run after the actions are checked (their parameters' types are known).
"""

from __future__ import annotations

from typing import Any

from . import ast as A
from . import types as T
from .calls import _close
from .check_context import CheckContext, Typer
from .spec import ActionSpec, StrategyRule


class StrategyChecker:
    """Checks the strategies over the shared context, typing their expressions with `typer`."""

    def __init__(self, ctx: CheckContext, typer: Typer) -> None:
        self.ctx = ctx
        self.typer = typer

    def check(self) -> None:
        ctx, typer = self.ctx, self.typer
        by_name = {a.name: a for a in ctx.spec.actions}
        for st in ctx.spec.strategies:
            for rule in st.rules:
                named: list[ActionSpec] = []
                for name, span in rule.actions:
                    a = by_name.get(name)
                    if a is not None:
                        named.append(a)
                    elif name not in ctx.spec.broken and "actions" not in ctx.spec.malformed:
                        ctx.err("C006", span, f"unknown action '{name}'", _close(name, ctx.actions))
                if rule.actions and not named:
                    continue
                pool = named if rule.actions else ctx.spec.actions
                shared = shared_params(pool)
                # A parameter of only some of the actions: known (so it is not "unknown"), and refused below.
                partial = {p.name: [a.name for a in pool if any(q.name == p.name for q in a.params)]
                           for a in pool for p in a.params if p.name not in shared}
                with ctx.scope({**{n: T.ANY for n in partial}, **shared}):
                    if rule.when is not None:
                        typer.want(rule.when, typer.expr(rule.when), T.BOOL, "'when'")
                    if rule.best is not None:
                        key, e = rule.best
                        typer.want(e, typer.expr(e), T.NUM, f"'{key}'")
                for read in (rule.when, rule.best[1] if rule.best else None):
                    for n in A.walk(read) if read is not None else []:
                        if isinstance(n, A.Name) and n.id in partial:
                            ctx.err("C019", n.span, f"'{n.id}' is a parameter of {', '.join(partial[n.id])} only",
                                    "a rule about several actions reads only the parameters they all have, "
                                    "with the same type; give this one a rule of its own")


def shared_params(actions: list[ActionSpec]) -> dict[str, Any]:
    """The parameters every one of `actions` has, with the same type: what a rule over them may read."""
    if not actions:
        return {}
    out: dict[str, Any] = {}
    for p in actions[0].params:
        ty = T.elem(getattr(p.domain, "ty", T.ANY) or T.ANY)
        if all(any(q.name == p.name and T.elem(getattr(q.domain, "ty", T.ANY) or T.ANY) == ty for q in a.params)
               for a in actions[1:]):
            out[p.name] = ty
    return out


def rule_actions(rule: StrategyRule, actions: list[ActionSpec]) -> list[ActionSpec]:
    """The actions a rule is about: those it names, or every action of the game."""
    names = {n for n, _ in rule.actions}
    return [a for a in actions if a.name in names] if rule.actions else list(actions)
