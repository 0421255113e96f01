"""The step budget: how much work one move of the rules may do.

A rule file may come from a stranger, so every evaluation is bounded. The compiled rules charge a counter
(`steps[0]`, reset to the game's `limits.steps` before each move, each legal-action query and each observation):

* a loop (a `for` step, a comprehension, a library function given a `x => ...` function, the values of
  an action's parameter) charges its items times the size of the code it runs for each item;
* a call of a `define:` function or a procedure charges the size of its body, a phase entry or a new
  deal one unit;
* a library function or operator that reads, builds or copies a list charges its items (`_it` for a list
  of plain values, `_itl` for a list of lists of plain values, which charges the lists and their items,
  `_itd` for a list that may hold lists at any depth, which charges every nested item);
* moving, dealing and shuffling cards charges the cards moved;
* a library search (`packings`) charges each of its steps as it runs, given the counter itself: it may
  take many more steps than it returns lists.

`_itd` counts a list's nested items no further than the budget left (`deep_count`'s cap): a list may hold
one list many times, and its full count (10**10 for a comprehension's shared inner list) would be work
the budget never sees.

A charge may be made earlier than the work, never later than the work it pays for begins and never for
less: the compiler charges the walks an expression is sure to make over lists it can read beforehand
when the expression starts (dsl/codegen/charges.py), inline, where a call per walk would cost more than
the charge. So the work of one move is at most a fixed multiple of `limits.steps`, whatever the rules
do. When the counter runs out, `BudgetExceeded` stops the move and the engine reports a located rule
error (R004).
The memo tables of pure functions are bounded the same way, by the items they hold (`_remember`).

A memo keeps values, never a list the game still changes: a function given a zone (a player's hand) may
return it, and the zone changes with the next move, so what a memo stores is a copy (`snapshot`). The
engine changes only the zones' own lists in place; every list a rule builds or receives from a memo is
left as it is, so the stored copy can be handed out again and again without another.
"""

from __future__ import annotations

from typing import Any

from ..dsl import abi
from ..dsl.diagnostics import count_of
from ..dsl.library import BudgetExceeded
from ..dsl.limits import raise_hint

# Memoized results kept by one game instance, counted in items (a key's list items plus the result's): past
# this the memo tables are emptied, so memory stays bounded however many distinct hands the rules meet.
MEMO_ITEMS = 2_000_000
# A call whose key and result hold more items than this is computed but not remembered.
MEMO_ITEM_MAX = abi.MEMO_ITEM_MAX


def over(limit: int) -> BudgetExceeded:
    """The error of a move that used up its budget of `limit` steps."""
    return BudgetExceeded(f"the rules did more than {count_of(limit, 'unit')} of work in one move "
                          f"({raise_hint('steps', limit)})")


def deep_count(x: Any, cap: int | None = None) -> int:
    """Items in a value, counting the items of nested lists too (iteratively: nesting may be deep).

    With `cap`, the count stops as soon as it passes `cap` (a number above it is returned): a list may hold
    the same list many times over (`[inner for b in range(0, 100000)]`, which a comprehension builds for
    100,000 units), so its count may be 10**10 though it took little work to build. The work of a capped
    count is at most `cap` plus the items of one list."""
    if type(x) is not list:
        return len(x) if type(x) is str else 0
    n = 0
    stack = [x]
    while stack:
        xs = stack.pop()
        n += len(xs)
        if cap is not None and n > cap:
            return n
        # `list in map(type, xs)` looks for a nested list at C speed: most lists hold none
        if list in map(type, xs):
            stack += [y for y in xs if type(y) is list]
    return n


def snapshot(x: Any) -> Any:
    """A copy of a list and of the lists inside it, at any depth (iteratively: nesting may be deep); any
    other value as it is (cards, numbers and text do not change)."""
    if type(x) is not list:
        return x
    top = x[:]
    stack = [top]
    while stack:
        xs = stack.pop()
        if list in map(type, xs):
            for i, y in enumerate(xs):
                if type(y) is list:
                    xs[i] = y = y[:]
                    stack.append(y)
    return top


def charge(game: Any, n: int) -> None:
    """Charge `n` steps to a game's counter (`game.steps`, within `game.step_limit`)."""
    steps = game.steps
    steps[0] -= n
    if steps[0] < 0:
        raise over(game.step_limit)


def helpers(steps: list[int], limit: int, ns: dict[str, Any] | None = None) -> dict[str, Any]:
    """The charging functions the compiled code of one game instance calls, bound to its counter, which
    each move resets to `limit`, and the memo's helpers, bound to its namespace `ns`."""

    def _it(xs: Any, w: int = 1) -> Any:
        steps[0] -= len(xs) * w
        if steps[0] < 0:
            raise over(limit)
        return xs

    def _itd(x: Any, w: int = 1) -> Any:
        # counted no further than the budget left: past it the move stops anyway
        steps[0] -= (deep_count(x, max(steps[0], 0) // max(w, 1) + 1) or 1) * w
        if steps[0] < 0:
            raise over(limit)
        return x

    def _itl(x: Any, w: int = 1) -> Any:
        # A list of lists of plain values (by its checked type: combinations of cards, melds): its
        # deep_count, the lists and their items, counted at C speed.
        try:
            steps[0] -= (len(x) + sum(map(len, x)) or 1) * w
        except TypeError:  # an item that is not a list after all: counted the slow way
            steps[0] -= (deep_count(x, max(steps[0], 0) // max(w, 1) + 1) or 1) * w
        if steps[0] < 0:
            raise over(limit)
        return x

    memos: list[dict[Any, Any]] = []
    held = [0]

    def _remember(memo: dict[Any, Any], key: tuple[Any, ...], value: Any) -> None:
        # Runs on every memo miss: plain loops, no calls for the usual small keys and values.
        size = 1
        for k in key:
            if type(k) is tuple:
                size += len(k)
        if type(value) is list:
            size += deep_count(value, MEMO_ITEM_MAX)
        if size > MEMO_ITEM_MAX:
            return
        if type(value) is list:
            # the value as it is now: the list may be a zone, which the next move changes (module doc)
            value = snapshot(value)
        held[0] += size
        if held[0] > MEMO_ITEMS:
            for m in memos:
                m.clear()
            held[0] = size
        memo[key] = value

    def _judge(name: str, trial: list[int]) -> None:
        # `define:` function `name`, memoized, after its first abi.MEMO_TRIAL calls: the name the rules call
        # is bound from now on to the memo, or to the body if fewer than one call in 16 found its key (a
        # memo that is seldom met costs a key per call and fills the tables, which are then emptied for
        # all). The values are the same either way.
        if ns is not None:
            calls, misses = trial
            seldom = calls - misses < calls // 16
            ns[abi.function(name)] = ns[abi.function_body(name) if seldom else abi.memo_keyed(name)]

    def _over() -> None:
        raise over(limit)

    # `_S` is the counter itself: compiled statements charge it inline (`_S[0] -= n`), which costs less
    # than a call on the paths every move takes.
    return {"_it": _it, "_itd": _itd, "_itl": _itl, "_remember": _remember, "_judge": _judge, "MEMOS": memos,
            "_S": steps, "_over": _over}
