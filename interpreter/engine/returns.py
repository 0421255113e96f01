"""A match's result as numbers: `match: returns` when the rule file gives it, else the winners' share.

`setup` fixes, per game instance, what OpenSpiel's game information needs (`min_utility`,
`max_utility`, `zero_sum`, `utility_sum`) and the name the numbers are shown under; `final_returns`
works the numbers out once, when the match ends, and checks them: a value that is not a finite number,
lies outside the declared bounds, or breaks `zero_sum: yes` is a rule error at `returns`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ..dsl import abi
from ..dsl.library import RuleRuntimeError, _short
from .errors import RuleError, describe_failure, failure_code

if TYPE_CHECKING:
    from ..dsl.spec import ReturnsSpec
    from .game import Game
    from .state import State

# Returns that should add up to 0 may miss by this much (relative to their size): decimals add up inexactly.
ZERO_SUM_TOLERANCE = 1e-9


def _number(v: Any) -> bool:
    return (type(v) is int or type(v) is float) and math.isfinite(v)


def setup(game: Game) -> None:
    """The game's utility attributes; the bounds of `returns` are evaluated here, with the options known."""
    r: ReturnsSpec | None = game.spec.match.returns
    game.returns_spec = r
    if r is None:
        # The winners' share: 1/k to each of k winners. Constant-sum (1) only when there are winners, and a
        # match may end with none, so it is not declared constant-sum.
        game.returns_name = "returns"
        game.min_utility, game.max_utility = 0.0, 1.0
        game.zero_sum = False
        game.utility_sum = None
        game.returns_fn = None
        return
    game.returns_name = r.name
    game.returns_fn = game.ns[abi.MATCH_RETURNS]
    lo = _bound(game, r.min, "min")
    hi = _bound(game, r.max, "max")
    if lo is not None and hi is not None and lo > hi and r.min is not None:
        raise RuleError("the 'min' of 'returns' is above its 'max'", r.min.span,
                        detail=f"min {_shown(lo)}, max {_shown(hi)}")
    if r.zero_sum and ((lo is not None and lo > 0) or (hi is not None and hi < 0)):
        raise RuleError("'returns' with 'zero_sum: yes' must allow 0 between its 'min' and 'max'", r.span,
                        detail=f"min {_shown(lo)}, max {_shown(hi)}")
    game.min_utility, game.max_utility = lo, hi
    game.zero_sum = r.zero_sum
    game.utility_sum = 0.0 if r.zero_sum else None


def _bound(game: Game, e: Any, key: str) -> float | None:
    if e is None:
        return None
    try:
        v = game.ns[abi.returns_bound(key)]()
    except (Exception, MemoryError) as exc:  # a rule error while computing the bound
        message, detail = describe_failure(exc)
        raise RuleError(f"the '{key}' of 'returns' failed: {message}", e.span, code=failure_code(exc),
                        detail=detail) from None
    if not _number(v):
        raise RuleError(f"the '{key}' of 'returns' must be a number", e.span, detail=f"got {_short(v)}")
    return float(v)


def _shown(v: float | None) -> str:
    if v is None:
        return "none"
    return str(int(v)) if v.is_integer() else str(v)


def final_returns(s: State) -> list[float]:
    """Each seat's result when the match is over (called once, after `winners`)."""
    g = s.game
    n = g.n
    if g.returns_fn is None:
        w = set(s.winners)
        return [1.0 / len(w) if p in w else 0.0 for p in range(n)]
    r = g.returns_spec
    assert r is not None
    out: list[float] = []
    lo, hi = g.min_utility, g.max_utility
    for p in range(n):
        v = g.returns_fn(s, p)
        if not _number(v):
            raise _fail(r, "'returns' must give a finite number for each player",
                        f"{g.player_name(p)}: got {_short(v)}")
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            raise _fail(r, f"'returns' gave a value outside its bounds ({_shown(lo)} to {_shown(hi)})",
                        f"{g.player_name(p)}: {_short(v)}")
        out.append(float(v))
    if r.zero_sum and abs(math.fsum(out)) > ZERO_SUM_TOLERANCE * max(1.0, math.fsum(abs(x) for x in out)):
        raise _fail(r, "'returns' must add up to 0 ('zero_sum: yes')",
                    ", ".join(f"{g.player_name(p)} {_shown(x)}" for p, x in enumerate(out)))
    return out


def _fail(r: ReturnsSpec, message: str, detail: str) -> RuleRuntimeError:
    # The message may reach any player; the values (which can tell hidden cards) stay in the detail.
    e = RuleRuntimeError(message, detail)
    e.at = r.value.span
    return e
