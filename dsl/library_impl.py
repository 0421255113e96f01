"""The Python helpers compiled rule code calls: the library functions' implementations and the checked
arithmetic.

The helpers raise `RuleRuntimeError` with a plain message when a rule asks for the impossible (the maximum of
nothing); the engine adds the location. What each library function is (its signature, cost, docs) is its
record in library.py, which names the helper here.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .diagnostics import Span


class RuleRuntimeError(Exception):
    """A rule did something impossible while the game ran.

    The message (`str(e)`) may reach any player, so it names what failed but never a value the rules
    computed: a value can hold or reveal cards hidden from that player. The values go in `detail`, which
    only the designer's own tools show (`cardsmith run`, `validate --deep`, scenario files).
    """

    def __init__(self, message: str, detail: str | None = None):
        super().__init__(message)
        self.detail = detail
        # Where the failure belongs in the rule file when no compiled line of the rules was running (the
        # engine's own work: entering a phase, checking a report's value); the engine sets it.
        self.at: Span | None = None


class BudgetExceeded(RuleRuntimeError):
    """The rules did more work in one move than the step budget allows (`--max-steps`)."""


# ---------------------------------------------------------------- helpers used by compiled code


def f_max(*args: Any) -> Any:
    xs = args[0] if len(args) == 1 else args
    if not xs:
        raise RuleRuntimeError("max() of an empty list")
    return max(xs)


def f_min(*args: Any) -> Any:
    xs = args[0] if len(args) == 1 else args
    if not xs:
        raise RuleRuntimeError("min() of an empty list")
    return min(xs)


def f_max_by(xs: Sequence[Any], key: Callable[[Any], Any]) -> Any:
    if not xs:
        raise RuleRuntimeError("max_by() of an empty list")
    return max(xs, key=key)


def f_min_by(xs: Sequence[Any], key: Callable[[Any], Any]) -> Any:
    if not xs:
        raise RuleRuntimeError("min_by() of an empty list")
    return min(xs, key=key)


def f_all_max_by(xs: Sequence[Any], key: Callable[[Any], Any]) -> list[Any]:
    if not xs:
        return []
    keys = [key(x) for x in xs]
    best = max(keys)
    return [x for x, k in zip(xs, keys) if k == best]


def f_all_min_by(xs: Sequence[Any], key: Callable[[Any], Any]) -> list[Any]:
    if not xs:
        return []
    keys = [key(x) for x in xs]
    best = min(keys)
    return [x for x, k in zip(xs, keys) if k == best]


def f_first(xs: Sequence[Any]) -> Any:
    if not xs:
        raise RuleRuntimeError("first() of an empty list")
    return xs[0]


def f_last(xs: Sequence[Any]) -> Any:
    if not xs:
        raise RuleRuntimeError("last() of an empty list")
    return xs[-1]


def f_top(xs: Sequence[Any], n: int) -> list[Any]:
    if type(n) is not int or n < 0:
        raise RuleRuntimeError("top() of a negative number of items", f"top(..., {_short(n)})")
    return list(xs[len(xs) - n:]) if n else []


def f_bottom(xs: Sequence[Any], n: int) -> list[Any]:
    if type(n) is not int or n < 0:
        raise RuleRuntimeError("bottom() of a negative number of items", f"bottom(..., {_short(n)})")
    return list(xs[:n])


def f_count(xs: Sequence[Any], pred: Callable[[Any], Any] | None = None) -> int:
    if pred is None:
        return len(xs)
    return sum(1 for x in xs if pred(x))


def f_sort_by(xs: Iterable[Any], key: Callable[[Any], Any]) -> list[Any]:
    return sorted(xs, key=key)


def f_group_by(xs: Iterable[Any], key: Callable[[Any], Any]) -> list[list[Any]]:
    groups: dict[Any, list[Any]] = {}
    for x in xs:
        groups.setdefault(key(x), []).append(x)
    return list(groups.values())


def f_unique(xs: Iterable[Any]) -> list[Any]:
    if type(xs) is not list:
        xs = list(xs)
    if list not in map(type, xs):  # no list among the items (looked for at C speed): plain values hash
        return list(dict.fromkeys(xs))
    # Lists of lists (melds): compared as the values they hold, as `==` compares them.
    seen: set[Any] = set()
    out = []
    for x in xs:
        key = _frozen(x)
        if key not in seen:
            seen.add(key)
            out.append(x)
    return out


def _frozen(x: Any) -> Any:
    return tuple(_frozen(y) for y in x) if isinstance(x, list) else x


def f_index_of(xs: Sequence[Any], x: Any) -> int:
    try:
        return list(xs).index(x)
    except ValueError:
        return -1


BIG = 10**18
_NUMBERS = (int, float)


def _numbers(op: str, a: Any, b: Any) -> None:
    """Arithmetic is on numbers only: Python's `*` and `%` on text or lists build strings and lists of any
    size ('%999999999d' % 1, 'ab' * 10**9) before a budget could stop them."""
    if not isinstance(a, _NUMBERS) or not isinstance(b, _NUMBERS):
        raise RuleRuntimeError(f"'{op}' needs two numbers", f"got {_short(a)} and {_short(b)}")


def f_mul(a: Any, b: Any) -> Any:
    _numbers("*", a, b)
    r = a * b
    if not -BIG <= r <= BIG:
        raise RuleRuntimeError("a number grew beyond 10**18", f"{_short(a)} * {_short(b)}")
    return r


def f_add(a: Any, b: Any) -> Any:
    """`+` on values whose type the checker could not know: two numbers, or two lists (charged by the caller)."""
    if type(a) is list and type(b) is list:
        return a + b
    _numbers("+", a, b)
    return a + b


def f_sub(a: Any, b: Any) -> Any:
    _numbers("-", a, b)
    return a - b


def f_div(a: Any, b: Any) -> Any:
    _numbers("/", a, b)
    if b == 0:
        raise RuleRuntimeError("division by zero")
    return a / b


def f_floordiv(a: Any, b: Any) -> Any:
    _numbers("//", a, b)
    if b == 0:
        raise RuleRuntimeError("division by zero")
    return a // b


def f_mod(a: Any, b: Any) -> Any:
    _numbers("%", a, b)
    if b == 0:
        raise RuleRuntimeError("modulo by zero")
    return a % b


def f_num(v: Any) -> Any:
    """A number about to be kept (in a variable, or returned by a function) stays within +-10**18, so no
    loop can double it into a number whose every addition costs more than the budget counts."""
    t = type(v)
    if (t is int or t is float) and not -BIG <= v <= BIG:
        raise RuleRuntimeError("a number left the range -10**18 to 10**18", f"got {_short(v)}")
    return v


def f_at(xs: Any, i: Any) -> Any:
    try:
        return xs[i]
    except (IndexError, KeyError, TypeError):
        raise RuleRuntimeError("a list position that does not exist", f"no entry {_short(i)} in {_short(xs)}") \
            from None


_COMMA, _CLOSE = object(), object()  # markers on _short's stack


def _short(v: Any, width: int = 60) -> str:
    """A value as short text for a designer's message: bounded in length and nesting (a value the rules built
    may be nested thousands deep, which Python's repr cannot print), and cheap whatever its size."""
    out: list[str] = []
    size = 0
    stack: list[Any] = [v]
    while stack and size <= width:
        x = stack.pop()
        if x is _COMMA:
            piece = ", "
        elif x is _CLOSE:
            piece = "]"
        elif type(x) in (list, tuple):
            piece = "["
            stack.append(_CLOSE)
            items = list(x[: width // 2 + 1])
            for k, item in enumerate(reversed(items)):
                stack.append(item)
                if k < len(items) - 1:
                    stack.append(_COMMA)
        elif x is None:
            piece = "none"
        elif isinstance(x, bool):
            piece = "true" if x else "false"
        elif isinstance(x, str):
            piece = repr(x[: width + 1])
        elif isinstance(x, (int, float)):
            piece = repr(x) if -BIG <= x <= BIG else ("a huge number" if x == x else "not a number")
        else:
            piece = type(x).__name__
        out.append(piece)
        size += len(piece)
    text = "".join(out)
    return text if size <= width and not stack else text[: width - 3] + "..."


MAX_RANGE = 100_000  # numbers in one range()


def f_range(a: int, b: int) -> list[int]:
    if type(a) is not int or type(b) is not int:
        raise RuleRuntimeError("range() needs two whole numbers", f"range({_short(a)}, {_short(b)})")
    if b - a > MAX_RANGE:
        raise RuleRuntimeError(f"range() of more than {MAX_RANGE:,} numbers")
    return list(range(a, b))


def f_floor(x: Any) -> int:
    return int(x // 1)


def f_ceil(x: Any) -> int:
    return int(-((-x) // 1))


def f_flatten(xss: Iterable[Iterable[Any]]) -> list[Any]:
    return [x for xs in xss for x in xs]


# The combination functions build lists that grow exponentially with their input: each refuses, before
# building anything, a result of more than this many lists (the compiled code then charges what it built).
MAX_COMBINATIONS = 100_000


def f_combinations(xs: Sequence[Any], k: Any) -> list[list[Any]]:
    if type(k) is not int or k < 0:
        raise RuleRuntimeError("combinations() needs a whole number of items, 0 or more", f"got {_short(k)}")
    if k > len(xs):
        return []
    if math.comb(len(xs), k) > MAX_COMBINATIONS:
        raise RuleRuntimeError(f"combinations() of more than {MAX_COMBINATIONS:,} lists",
                               f"{len(xs)} items taken {k} at a time")
    return [list(c) for c in itertools.combinations(xs, k)]


def f_subsets(xs: Sequence[Any]) -> list[list[Any]]:
    if 2 ** len(xs) > MAX_COMBINATIONS:
        raise RuleRuntimeError(f"subsets() of more than {MAX_COMBINATIONS:,} lists", f"a list of {len(xs)} items")
    return [list(c) for k in range(len(xs) + 1) for c in itertools.combinations(xs, k)]


def f_packings(groups: Sequence[Sequence[Any]], steps: list[int] | None = None,
               over: Callable[[], None] | None = None) -> list[list[Any]]:
    """Every choice of groups that share no item, the groups in their order; the empty choice first.

    The search may visit many more of its steps than it finds choices (400 groups that all share an item
    have 401 choices and about 80,000 steps), and its steps do the work: compiled code passes the step
    budget's counter (`steps`, and `over`, which raises the budget's error), charged as the search runs, a
    unit per step and the items it looks at, so the budget stops it within its limits whatever it finds."""
    if len(groups) > 400:  # the search recurses once per group
        raise RuleRuntimeError("packings() of more than 400 groups", f"{len(groups)} groups")
    if steps is not None:
        steps[0] -= len(groups) + sum(map(len, groups))  # the sets built below
        if steps[0] < 0 and over is not None:
            over()
    try:
        sets = [frozenset(g) for g in groups]
    except TypeError:
        raise RuleRuntimeError("packings() needs groups of cards, players, numbers or text") from None
    out: list[list[Any]] = []
    chosen: list[Any] = []
    # a step's charge: a unit, the items of group i it tests and joins (and at the end the choice it copies,
    # at most the items used), with the items used so far
    cost = [1 + len(s) for s in sets] + [1]
    counter = steps if steps is not None else [BIG]

    def go(i: int, used: frozenset[Any]) -> None:
        counter[0] -= cost[i] + len(used)
        if counter[0] < 0 and over is not None:
            over()
        if i == len(groups):
            if len(out) >= MAX_COMBINATIONS:
                raise RuleRuntimeError(f"packings() of more than {MAX_COMBINATIONS:,} lists",
                                       f"{len(groups)} groups")
            out.append(list(chosen))
            return
        go(i + 1, used)
        if not sets[i] & used:
            chosen.append(list(groups[i]))
            go(i + 1, used | sets[i])
            chosen.pop()

    go(0, frozenset())
    return out


def f_reverse(xs: Iterable[Any]) -> list[Any]:
    return list(reversed(list(xs)))
