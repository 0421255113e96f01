"""Work the budget's own counting could miss: a search that does more steps than it returns, and a list
that holds the same list many times (issue 32, part 6). The attack files are in tests/attacks/
(budget_packings_search.yaml, budget_comprehension_shared_inner.yaml)."""

from __future__ import annotations

import pytest
from cardsmith.dsl.library import BudgetExceeded, f_packings
from cardsmith.engine import budget
from test_budget import _units


def test_packings_charges_every_step_of_its_search() -> None:
    """300 groups that share an item: 301 choices, but the search takes 45,451 steps, each charged as it
    runs (a unit, and the items it tests), not only the lists it returns."""
    plain = _units('"n = 0"', "unused(x): x")
    units = _units('"n = len(packings([[0, k + 1] for k in range(0, 300)]))"', "unused(x): x") - plain
    assert units > 45_451


def test_packings_stops_when_the_budget_runs_out_inside_its_search() -> None:
    steps = [10_000]
    calls = []

    def over() -> None:
        calls.append(steps[0])
        raise BudgetExceeded("over")

    with pytest.raises(BudgetExceeded):
        f_packings([[0, k + 1] for k in range(300)], steps, over)
    assert calls == [steps[0]] and -2_000 < steps[0] < 0  # stopped at the step that ran out, not after


def test_packings_without_a_counter_is_unchanged() -> None:
    assert f_packings([[1, 2], [2, 3], [3, 4]]) == [[], [[3, 4]], [[2, 3]], [[1, 2]], [[1, 2], [3, 4]]]


def _shared(n: int) -> list[list[list[int]]]:
    inner = [[1] for _ in range(n)]
    return [inner for _ in range(n)]  # n lists that are one list: n * n * 2 items counted


def test_a_capped_count_stops_once_it_passes_its_cap() -> None:
    x = _shared(300)
    assert budget.deep_count(x) == 300 + 300 * 600
    capped = budget.deep_count(x, 5000)
    assert 5000 < capped <= 5000 + 300
    assert budget.deep_count(x, 10**7) == budget.deep_count(x)


def test_a_list_holding_one_list_many_times_is_refused_counting_no_further_than_the_budget() -> None:
    """`[[1] for i in range(0, 100000) for j in range(0, 100000)]` holds its inner list 100,000 times: 10**10
    items to count. `_itd` counts no further than the budget left, so it refuses at once (the full count
    took 340 s); under the budget it charges what it always did."""
    steps = [1_000_000]
    h = budget.helpers(steps, 1_000_000)
    with pytest.raises(BudgetExceeded):
        h["_itd"](_shared(2000), 3)  # 8,002,000 items (the full count of the attack's list would take 340 s)
    assert steps[0] > -3 * 2000  # counted to the budget left and one list more, not to 8 million
    fits = _shared(100)
    steps[0] = 1_000_000
    h["_itd"](fits, 3)
    assert steps[0] == 1_000_000 - 3 * budget.deep_count(fits)
