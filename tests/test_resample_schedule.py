"""The resampler's searches in turn (`schedule` in interpreter/engine/resample/__init__.py)."""

from __future__ import annotations

from cardsmith.engine.resample import MAX_WORK, MORE_RESTARTS, PER_STEP, RESTARTS, SCOUT, schedule, share
from cardsmith.engine.resample.descent import Descent
from cardsmith.engine.resample.search import Search

SHARE = MAX_WORK // RESTARTS


def test_the_ways_scout_then_take_turns_with_whole_shares() -> None:
    assert [schedule(k) for k in range(6)] == [(Descent, SCOUT), (Search, SCOUT), (Descent, SHARE),
                                               (Search, SHARE), (Descent, SHARE), (Search, SHARE)]
    # As far as each other, or less than twice as far: the turns stay as they were.
    assert schedule(3, {Descent: 40, Search: 20}) == (Search, SHARE)
    assert schedule(2, {Descent: 20, Search: 39}) == (Descent, SHARE)


def test_a_way_that_got_less_than_half_as_far_cedes_its_turn() -> None:
    """Go Fish: backtracking alone fits a few steps of a history the descent fits most of (every ask holds a
    count that only the descent's exchanges mend); its whole shares go to the descent, and the other way
    round where the descent is the one that strays."""
    assert schedule(3, {Descent: 53, Search: 9}) == (Descent, SHARE)
    assert schedule(5, {Descent: 53, Search: 26}) == (Descent, SHARE)
    assert schedule(2, {Descent: 3, Search: 40}) == (Search, SHARE)
    # The scouts run whatever the reach: each way is tried once.
    assert schedule(1, {Descent: 53}) == (Search, SCOUT)


def test_a_short_history_gets_shorter_shares_and_more_of_them() -> None:
    """The searches that find a hard state do so early in their share, earlier the shorter the history: a
    short one's shares are shorter (more fresh starts in the same work), a long one's whole."""
    assert share(None) == SHARE == share(10_000)
    assert share(1) == MAX_WORK // MORE_RESTARTS < SHARE
    assert share(55) == 55 * PER_STEP < SHARE  # the 2-player Go Fish state of tests/test_table_view.py
    assert schedule(2, None, 55) == (Descent, 55 * PER_STEP)
    assert schedule(0, None, 55) == (Descent, SCOUT)  # the scouts are the same
