"""Information state strings worked out afresh, for several players at once.

A state read back from its serialization knows nothing of what its players perceived, so its strings come
from replaying the history; once one player's string was asked there, the next asked works out every other
player's in the same replay (infostate._replayed), and the observation lines of several players come from
one pass over the zones and variables (obstext.observation_lines_of). Over every bundled rule file, on
random matches with and without a seed: the lines of several players at once are each player's own, and a
state asked its players' strings in any order (some twice) gives each the string a state asked only that
player's gives.
"""

from __future__ import annotations

import random

import pytest
from cardsmith.engine.obstext import observation_lines, observation_lines_of
from cardsmith.engine.state import State
from conftest import FEATURE_CASES, GAME_CASES, game_for
from hypothesis import given, settings
from hypothesis import strategies as st

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
cases = pytest.mark.parametrize(("rule_file", "num_players"), GAME_CASES + FEATURE_CASES)
fewer = settings(max_examples=max(4, settings().max_examples // 3))


def states(rule_file: str, num_players: int, seed: int, steps: int, seeded: bool) -> list[State]:
    """The states of a random match, each after one more event (a chance outcome counts as one)."""
    g = game_for(rule_file, num_players)
    rng = random.Random(seed)
    s = State.initial(g, seed if seeded else None)
    out = [s]
    for _ in range(steps):
        if s.is_terminal():
            break
        options = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
        s = s.clone()
        s.apply_action(options[rng.randrange(len(options))])
        out.append(s)
    return out


@cases
@given(seed=SEEDS, steps=st.integers(0, 200), seeded=st.booleans(), order=SEEDS)
def test_the_lines_of_several_players_at_once_are_each_players_own(rule_file: str, num_players: int, seed: int,
                                                                   steps: int, seeded: bool, order: int) -> None:
    g = game_for(rule_file, num_players)
    for s in states(rule_file, num_players, seed, steps, seeded)[::7]:
        players = list(range(g.n))
        random.Random(order).shuffle(players)
        players = players[:random.Random(order).randint(1, g.n)]
        # Each from a state of its own, so the deal as it ended (`Ended.texts`) is worked out by each.
        many = g.deserialize_state(s.serialize())
        alone = g.deserialize_state(s.serialize())
        assert many._evaluating(observation_lines_of, players) == [
            alone._evaluating(observation_lines, p) for p in players]


@cases
@fewer
@given(seed=SEEDS, steps=st.integers(0, 200), seeded=st.booleans(), order=SEEDS)
def test_a_state_asked_its_players_strings_in_any_order_gives_each_its_own(rule_file: str, num_players: int,
                                                                           seed: int, steps: int, seeded: bool,
                                                                           order: int) -> None:
    g = game_for(rule_file, num_players)
    rng = random.Random(order)
    for s in states(rule_file, num_players, seed, steps, seeded)[::29]:
        text = s.serialize()
        asked = [rng.randrange(g.n) for _ in range(g.n + 2)]
        fresh = g.deserialize_state(text)
        for p in asked:
            assert fresh.information_state_string(p) == g.deserialize_state(text).information_state_string(p)
