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

**Chance nodes in a history.** A lazily dealt match decides one card per chance node, and a card decided is
one of the block a shuffle left undecided, so a run of a shuffle gives at most the pack less one outcome
(eagerly too: a node per position but the last), and a run of a pick one. Where the rule file shuffles and
picks only in `match: start` and `match: deal` (and the procedures they call), outside `for` steps, and its
deals are bounded (`over_when: true`, `max_deals`, `over_when: deal_number >= N`), that counts them. Else
each shuffle or pick is charged to the step budget of the step it runs in, so a step meets at most
`limits.steps` of them: `(actions + 1) * limits.steps`, a bound far above any real match.
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
    cached = game.__dict__.get("_max_chance_nodes")
    if cached is None:
        cached = game.__dict__["_max_chance_nodes"] = _chance_in_match(game)
        if cached is None:
            cached = game.__dict__["_max_chance_nodes"] = (game.action_limit + 1) * game.limits.steps
    return int(cached)


class _Open(Exception):
    """A shuffle or pick the count cannot see the number of runs of."""


def _chance_in_match(game: Any) -> int | None:
    """The chance outcomes of a match, where the rule file shuffles and picks only in `match: start` and
    `match: deal` (and the procedures they call), outside any `for` step, and its deals are bounded. Each run
    of a shuffle gives at most one outcome per card of its zone but the last (lazily or eagerly), so at most
    the pack less one, and each run of a pick one. None: not so."""
    spec = game.spec
    m = spec.match
    procs = {p.name: p.body for p in spec.procedures}
    try:
        # Every other list of statements in the rule file (actions, phases, the end of a deal, ...), with the
        # procedures it calls, must run no shuffle or pick.
        mine = {id(m.start), id(m.deal)} | {id(b) for b in procs.values()}
        others = [b for b in _stmt_lists(spec) if id(b) not in mine]
        if _count(others, procs, loops_ok=True) != (0, 0):
            return None
        deals = _deals(game)
        if deals is None:
            return None
        s0, p0 = _count([m.start], procs)
        s1, p1 = _count([m.deal], procs)
    except _Open:
        return None
    per_shuffle = max(game.num_cards - 1, 0)
    return int(s0 * per_shuffle + p0 + deals * (s1 * per_shuffle + p1))


def _stmt_lists(x: Any) -> Any:
    """Every outermost list of statements inside x (a rule file's spec), not looking into statements."""
    stack = [x]
    while stack:
        y = stack.pop()
        if isinstance(y, (list, tuple)):
            if y and all(isinstance(i, A.Stmt) for i in y):
                yield y  # the list itself (its identity tells a procedure's body from the others)
            else:
                stack.extend(y)
        elif isinstance(y, dict):
            stack.extend(y.values())
        elif is_dataclass(y) and not isinstance(y, (type, A.Expr, A.Stmt)):
            stack.extend(getattr(y, f.name) for f in fields(y))


def _count(blocks: list[Any], procs: dict[str, list[A.Stmt]], loops_ok: bool = False) -> tuple[int, int]:
    """(shuffles, picks) that one run of these blocks may run, both branches of an `if` counted, the
    procedures called followed (the checker refuses recursion). A shuffle or pick in a `for` is _Open,
    unless `loops_ok` (only whether there is any is asked then)."""
    shuffles = picks = 0
    stack: list[tuple[Any, bool]] = [(b, False) for b in blocks]
    while stack:
        x, looped = stack.pop()
        if isinstance(x, list):
            stack.extend((y, looped) for y in x)
        elif isinstance(x, (A.Shuffle, A.Pick)):
            if looped and not loops_ok:
                raise _Open
            if isinstance(x, A.Shuffle):
                shuffles += 1
            else:
                picks += 1
        elif isinstance(x, A.If):
            stack += [(x.then, looped), (x.other, looped)]
        elif isinstance(x, A.For):
            stack.append((x.body, True))
        elif isinstance(x, A.Do):
            stack.append((procs.get(x.proc, []), looped))
    return shuffles, picks


def _deals(game: Any) -> int | None:
    """The most deals of a match, where `match` says it: `over_when: true`, `max_deals`, or
    `over_when: deal_number >= N` with N a number, an option or a constant."""
    m = game.spec.match
    bounds = [m.max_deals] if m.max_deals is not None else []
    w = m.over_when
    if isinstance(w, A.Const) and w.value is True:
        bounds.append(1)
    elif isinstance(w, A.Compare) and len(w.rest) == 1 and w.rest[0][0] == ">=" \
            and isinstance(w.first, A.Name) and w.first.id == "deal_number":
        n = _fixed(game, w.rest[0][1])
        if n is not None:
            bounds.append(max(n, 1))
    return min(bounds) if bounds else None


def _fixed(game: Any, e: Any) -> int | None:
    if isinstance(e, A.Const):
        v = e.value
    elif isinstance(e, A.Name) and isinstance(e.ref, R.Option):
        v = game.options.get(e.ref.name)
    elif isinstance(e, A.Name) and isinstance(e.ref, R.Constant):
        v = game.spec.constants.get(e.ref.name, (None,))[0]
    else:
        return None
    return v if type(v) is int else None


def outcomes_exceeded(game: Any, n: int) -> str:
    """The message of a pick from n values, more than `bounds: outcomes` declares."""
    return (f"'pick' from {count_of(n, 'value')}, more than the {game.declared.outcomes:,} that 'outcomes' of the "
            f"match's 'bounds' declares")
