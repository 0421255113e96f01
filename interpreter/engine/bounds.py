"""Bounds OpenSpiel asks a game for: the outcomes of one chance node and the length of a history.

A chance node is a position of a shuffle (its outcomes are cards of the zone: at most the pack) or a
`pick` (its outcomes are positions in the list it picks from). A pick from players has at most as many
outcomes as seats and one from cards at most the pack; a pick from any other list is bounded only by
what one move may build, the step budget (the game's `limits.steps`), and then that is the bound.

A history holds at most `limits.actions` player actions (the match stops with R003 past them), and each
step at most `limits.steps` chance outcomes (each outcome is a unit of a move's budget: a shuffle charges
its cards, a pick its list, which was charged as it was built). So the length bound is far above any
real match: it is a bound, not the longest match.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from ..dsl import ast as A
from ..dsl import types as T


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


def max_chance_outcomes(game: Any) -> int:
    cached = game.__dict__.get("_max_chance")
    if cached is not None:
        return int(cached)
    bound = game.num_cards
    for p in _picks(game.spec):
        kind = T.elem(getattr(p.options, "ty", None))
        bound = max(bound, game.n if kind == T.PLAYER else game.num_cards if kind == T.CARD else game.limits.steps)
    game.__dict__["_max_chance"] = bound
    return bound


def max_game_length(game: Any) -> int:
    limits = game.limits
    return limits.actions + (limits.actions + 1) * limits.steps
