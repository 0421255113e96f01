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
from conftest import FEATURE_CASES, GAME_CASES, game_for, play_random
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
