"""The table's options when a game is set up: the values given or the defaults, the ranges of int options
worked out for the player count (`max: =52 // num_players`), and the rule file's `constraints:`. game.py
imports this module; options.py, above game.py, adds the ranges of a compiled game's options.

Options are set in the order they are listed: a bound or a computed default sees the options above it
(the checker makes sure it reads no other, C035). A value given out of its range, or a table the
constraints refuse, is the user's problem (`BadOption`, `SetupRefused`, one clear line); a default out of
its range, a bound that fails or a range with no value is the rule file's (`RuleError`, located).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..dsl import abi
from ..dsl import ast as A
from ..dsl.diagnostics import count_of
from ..dsl.library import _short
from ..dsl.spec import OptionSpec
from .errors import BadOption, RuleError, SetupRefused, describe_failure, failure_code

if TYPE_CHECKING:
    from .game import Game


def set_options(g: Game, given: dict[str, Any]) -> dict[str, Any]:
    """Every option's value for game `g` (its namespace gets each as `O_<name>` as soon as it is set);
    `g.option_ranges` gets the range of each int option."""
    specs = {o.name: o for o in g.spec.options}
    for k in given:
        if k not in specs:
            known = ", ".join(specs) or "none"
            raise BadOption(f"unknown option '{k}' for {g.spec.name} (options: {known})")
    out: dict[str, Any] = {}
    g.option_ranges = {}
    for o in g.spec.options:
        bounds = _range(g, o) if o.kind == "int" else None
        players = g.n if o.min_expr is not None or o.max_expr is not None else None
        if bounds is not None:
            g.option_ranges[o.name] = bounds
        if o.name in given:
            v = parse_option_value(o, given[o.name], bounds, players)
        elif isinstance(o.default, A.Expr):
            try:
                v = g.ns[abi.option_default(o.name)]()
            except (Exception, MemoryError) as e:  # a rule error while computing a default
                message, detail = describe_failure(e)
                raise RuleError(f"default of option '{o.name}' failed: {message}", o.span,
                                code=failure_code(e), detail=detail) from None
            try:
                v = parse_option_value(o, v, bounds, players)
            except BadOption as e:
                raise RuleError(f"the computed default of option '{o.name}' is out of range: {e}",
                                o.span) from None
        else:
            v = o.default
            if bounds is not None and players is not None and not bounds[0] <= v <= bounds[1]:
                raise RuleError(f"the default {v} of option '{o.name}' is not between {bounds[0]} and {bounds[1]} "
                                f"with {count_of(g.n, 'player')}", o.span)
        out[o.name] = v
        g.ns[abi.option(o.name)] = v
    return out


def _range(g: Game, o: OptionSpec) -> tuple[int, int]:
    lo = o.min if o.min_expr is None else _bound(g, o, "min", o.min_expr)
    hi = o.max if o.max_expr is None else _bound(g, o, "max", o.max_expr)
    assert lo is not None and hi is not None
    if lo > hi:
        raise RuleError(f"option '{o.name}' has no allowed value with {count_of(g.n, 'player')}: 'min' {lo} is "
                        f"above 'max' {hi}", o.span, "allow fewer players, or bounds that meet for every count")
    return lo, hi


def _bound(g: Game, o: OptionSpec, key: str, e: A.Expr) -> int:
    v = g._call(g.ns[abi.option_bound(o.name, key)], e.span)
    if type(v) is not int:
        raise RuleError(f"'{key}' of option '{o.name}' must be a whole number", e.span, detail=_short(v))
    return v


def check_constraints(g: Game) -> None:
    """Refuse the table if a constraint says so, with the designer's message."""
    for i, c in enumerate(g.spec.constraints):
        held = bool(g._call(g.ns[abi.constraint(i)], c.cond.span))
        if held == c.refuse:
            raise SetupRefused(c.message, c.span)


_WHOLE = re.compile(r"[+-]?[0-9]{1,4000}\Z")  # int() itself refuses more than 4,300 digits


def parse_option_value(o: Any, raw: Any, bounds: tuple[int, int] | None = None, players: int | None = None) -> Any:
    """Check and convert one option value given by a user (text or YAML value). `bounds`: an int option's
    range when it was worked out for `players` players (default: its written min and max)."""
    if o.kind == "int":
        lo, hi = bounds if bounds is not None else (o.min, o.max)
        v: int | None = None
        if isinstance(raw, int) and not isinstance(raw, bool):
            v = raw
        elif isinstance(raw, float) and raw.is_integer():
            v = int(raw)
        elif isinstance(raw, str) and _WHOLE.match(raw.strip()):
            # Digits 0-9 only: int() would also take '٣', '1_000' and a number thousands of digits long.
            v = int(raw.strip())
        if v is None or not (lo <= v <= hi):
            with_players = f" with {count_of(players, 'player')}" if players is not None else ""
            raise BadOption(f"option '{o.name}' takes a whole number from {lo} to {hi}{with_players}, not {raw!r}")
        return v
    if o.kind == "bool":
        if isinstance(raw, bool):
            return raw
        text = str(raw).lower()
        if text in ("yes", "true", "on", "1"):
            return True
        if text in ("no", "false", "off", "0"):
            return False
        raise BadOption(f"option '{o.name}' takes yes or no, not {raw!r}")
    text = str(raw)
    if text not in o.values:
        raise BadOption(f"option '{o.name}' takes one of {', '.join(o.values)}, not {raw!r}")
    return text
