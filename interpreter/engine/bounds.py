"""Bounds OpenSpiel asks a game for: the outcomes of one chance node and the length of a match.

**Chance outcomes.** A chance node is a card of a shuffled zone (its outcomes are cards of the zone: at most
the pack) or a `pick` (its outcomes are positions in the list it picks from). Analysis bounds a pick from
players by the seats, one from cards by the pack, one from a list written out (a list literal, or a constant
list) by its length. Any other pick is bounded by the rule file's `match: bounds: outcomes` where it declares
one (a pick from a longer list stops the match with R005, chance.py), else only by what one move may build,
the step budget (`limits.steps`), and then that is the bound.

**Game length.** OpenSpiel's `max_game_length` counts player decisions; chance outcomes are not in it
(they are in `max_chance_nodes_in_history`). No analysis bounds the player actions of a rule file in
general (any phase may repeat, a bid may be made again, a deal redealt), so the bound is the rule file's
`match: bounds: actions` where it declares one, else the action limit (`limits.actions`, R003 past it).
A declared bound lowers the action limit of the game itself (`Game.action_limit`): a match that goes past it
stops with R005, on both backends (the native one is given the same limit and its refusal is explained by
the Python backend's error).

**Chance nodes in a history.** A lazily dealt match decides one card per chance node, and each shuffle or
pick is charged to the step budget of the step it runs in (a shuffle its cards, a pick its list, built
within the step), so a step meets at most `limits.steps` of them: `(actions + 1) * limits.steps`, a bound far
above any real match.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from ..dsl import abi
from ..dsl import ast as A
from ..dsl import refs as R
from ..dsl import types as T
from ..dsl.diagnostics import count_of
from ..dsl.library import _short
from .errors import RuleError, describe_failure, failure_code


@dataclass(frozen=True)
class Declared:
    """The values of a rule file's `match: bounds` at one player count and options (None: not declared)."""
    actions: int | None = None
    outcomes: int | None = None


def _picks(spec: Any) -> list[A.Pick]:
    """Every `pick` statement of a rule file, found by walking its spec (iteratively: nesting may be deep)."""
    found: list[A.Pick] = []
    seen: set[int] = set()
    stack: list[Any] = [spec]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
            continue
        if isinstance(x, dict):
            stack.extend(x.values())
            continue
        if not is_dataclass(x) or isinstance(x, type) or id(x) in seen:
            continue
        seen.add(id(x))
        if isinstance(x, A.Pick):
            found.append(x)
        if isinstance(x, A.Expr):
            continue  # a pick is a statement; expressions hold none
        for f in fields(x):
            stack.append(getattr(x, f.name))
    return found


def declare(game: Any) -> None:
    """Work out the rule file's `match: bounds` for this game (options known) and lower its action limit to
    the declared one. A value that is not a whole number of 1 or more is a rule error at the value."""
    b = game.spec.match.bounds
    values: dict[str, int | None] = {"actions": None, "outcomes": None}
    for key in values:
        e = getattr(b, key) if b is not None else None
        if e is not None:
            values[key] = _value(game, e, key)
    game.declared = Declared(values["actions"], values["outcomes"])
    if values["actions"] is not None:
        game.action_limit = min(game.action_limit, values["actions"])


def _value(game: Any, e: A.Expr, key: str) -> int:
    try:
        v = game.ns[abi.match_bound(key)]()
    except (Exception, MemoryError) as exc:  # a rule error while computing the bound
        message, detail = describe_failure(exc)
        raise RuleError(f"'{key}' of 'bounds' failed: {message}", e.span, code=failure_code(exc),
                        detail=detail) from None
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if type(v) is not int or v < 1:
        raise RuleError(f"'{key}' of 'bounds' must be a whole number of 1 or more", e.span, detail=f"got {_short(v)}")
    return v


def pick_bound(game: Any, p: A.Pick) -> int | None:
    """What analysis bounds the outcomes of this pick by (None: nothing it can see)."""
    o = p.options
    kind = T.elem(getattr(o, "ty", None))
    if kind == T.PLAYER:
        return int(game.n)
    if kind == T.CARD:
        return int(game.num_cards)
    if isinstance(o, A.ListLit):
        return len(o.items)
    if isinstance(o, A.Name) and isinstance(o.ref, R.Constant):
        value = game.spec.constants.get(o.ref.name, (None,))[0]
        if isinstance(value, (list, tuple)):
            return len(value)
    return None


def open_picks(game: Any) -> list[A.Pick]:
    """The picks analysis does not bound (the rule file's `bounds: outcomes` then does, if it declares it)."""
    return [p for p in _picks(game.spec) if pick_bound(game, p) is None]


def max_chance_outcomes(game: Any) -> int:
    cached = game.__dict__.get("_max_chance")
    if cached is not None:
        return int(cached)
    bound = game.num_cards
    for p in _picks(game.spec):
        k = pick_bound(game, p)
        if k is None:
            k = game.declared.outcomes if game.declared.outcomes is not None else game.limits.steps
        bound = max(bound, k)
    game.__dict__["_max_chance"] = bound
    return int(bound)


def max_game_length(game: Any) -> int:
    """The most player actions of a match: the declared bound, else the action limit (both are enforced)."""
    return int(game.action_limit)


def max_chance_nodes_in_history(game: Any) -> int:
    return (game.action_limit + 1) * game.limits.steps


def outcomes_exceeded(game: Any, n: int) -> str:
    """The message of a pick from n values, more than `bounds: outcomes` declares."""
    return (f"'pick' from {count_of(n, 'value')}, more than the {game.declared.outcomes:,} that 'outcomes' of the "
            f"match's 'bounds' declares")
