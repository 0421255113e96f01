"""Observations hide what they should: permuting the cards a player cannot see
among their places leaves that player's observation unchanged.

Run over every bundled rule file at every allowed player count, at random
points of random matches.
"""

from __future__ import annotations

import random

import pytest
from cardsmith.engine.observation import _zone_viewers
from cardsmith.engine.state import State
from conftest import FEATURE_CASES, GAME_CASES, GAMES_DIR, game_for, play_random
from hypothesis import given
from hypothesis import strategies as st


def hidden_places(s: State, player: int) -> list[tuple[int, int]]:
    """(zone, position) of every card the player cannot see."""
    places: list[tuple[int, int]] = []
    for zi, cards in enumerate(s.z):
        viewers = _zone_viewers(s, zi)
        if viewers is not None and player not in viewers:
            places.extend((zi, i) for i in range(len(cards)))
    return places


def permute_hidden(s: State, player: int, rng: random.Random) -> State:
    t = s.clone()
    places = hidden_places(t, player)
    cards = [t.z[zi][i] for zi, i in places]
    rng.shuffle(cards)
    for (zi, i), c in zip(places, cards):
        t.z[zi][i] = c
        t.loc[c] = zi
    t.legal = None
    return t


@pytest.mark.parametrize("rule_file,num_players", GAME_CASES + FEATURE_CASES)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 400), shuffle_seed=st.integers(0, 2**31))
def test_observation_ignores_hidden_cards(rule_file: str, num_players: int, seed: int, steps: int,
                                          shuffle_seed: int) -> None:
    s = play_random(rule_file, num_players, seed, steps)
    prng = random.Random(shuffle_seed)
    for p in range(s.game.n):
        if not hidden_places(s, p):
            continue
        before = s.observation(p)
        after = permute_hidden(s, p, prng).observation(p)
        assert before == after, f"P{p}'s observation changed when hidden cards were permuted"


@pytest.mark.parametrize("rule_file,num_players", GAME_CASES + FEATURE_CASES)
def test_observation_shows_own_hand_and_counts_of_others(rule_file: str, num_players: int) -> None:
    g = game_for(rule_file, num_players)
    s = State.initial(g, 11)
    for p in range(g.n):
        obs = s.observation(p)
        for zi, name in enumerate(g.zone_names):
            viewers = _zone_viewers(s, zi)
            shown = obs["zones"][name]
            if viewers is None or p in viewers:
                assert shown == [g.card_names[c] for c in s.z[zi]]
            else:
                assert shown == len(s.z[zi])



def test_a_number_with_decimals_that_has_none_reads_as_a_whole_number() -> None:
    """A `number` variable holding 16.0 is shown as 16 (and 30.5 as 30.5), in the observation and its string:
    the same value reads the same however the rules reached it (16 + 0, 32 / 2), and the native backend,
    which keeps numbers with decimals as such, shows the same text."""
    from cardsmith.dsl import types as T
    from cardsmith.engine.observation import _show
    g = game_for(str(GAMES_DIR / "thirty-one.yaml"), 3)
    assert (_show(g, 16.0, T.NUM), _show(g, 30.5, T.NUM), _show(g, 16, T.NUM)) == (16, 30.5, 16)
    assert type(_show(g, 16.0, T.NUM)) is int and _show(g, 16.0, T.INT) == 16.0
    s = State.initial(g, 5)
    s.v[g.var_names.index("showdown")] = True  # the hands' values are shown to everyone
    vi = g.var_names.index("hand_points[0]")
    whole, decimal, half = s.clone(), s.clone(), s.clone()
    whole.v[vi], decimal.v[vi], half.v[vi] = 16, 16.0, 30.5
    assert whole.observation_string(1) == decimal.observation_string(1)
    assert whole.observation(1)["variables"]["hand_points[0]"] == 16
    assert "hand_points[0] = 16\n" in decimal.observation_string(1) + "\n"
    assert "hand_points[0] = 30.5\n" in half.observation_string(1) + "\n"
