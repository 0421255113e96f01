"""games/oh-hell.yaml plays as OpenSpiel's `oh_hell`, with its default parameters and with others.

Seeded random matches are played in both at once: every chance outcome and every move is drawn from
OpenSpiel's state and given to both, mapped between the two numberings, and at every step the player to
act, the chance outcomes and the legal moves are the same; once the cards are dealt, the hands and the
trump card are the same; at the end both are over and their returns are equal.

The numberings: OpenSpiel's card id is rank * num_suits + suit (suits C, D, S, H; ranks from the 2 up)
and its bid of n is the action num_cards + n; cardsmith's cards are numbered in pack order, and its
actions are `bid N` and `play CARD` (their text gives the bid or the card). OpenSpiel's chance nodes are
the number of tricks (outcome k for k tricks, 1 to the most the pack allows, or only the fixed number),
the positions of the rule file's first `pick` from the same list; then the dealer (outcome = seat), as
its second `pick` from `players`; then one node per card dealt, to P0, P1, ... and last the trump card,
each offering the cards not dealt yet. The rule file shuffles the whole pack, a chance node per position
from the top down, and deals from the top in the same order, so its first nodes are OpenSpiel's deal,
card for card; its remaining nodes order the undealt cards, which nobody sees, and OpenSpiel has no such
nodes: their outcomes are drawn from the same random stream and checked to be the undealt cards. When
every card is dealt (3 players, 17 tricks) the shuffle's last card is forced: a chance node in OpenSpiel
only, with one outcome.

OpenSpiel's parameters are the rule file's options: num_suits, num_cards_per_suit (cards_per_suit),
num_tricks_fixed (hand_size, 0 for random), off_bid_penalty and points_per_trick; the house rules `hook`
and `made_bid_bonus` keep OpenSpiel's values (their other values are tested in tests/scenarios/oh-hell.yaml).

By default 500 matches at the default parameters and a share of that at each of the others; more with
OH_HELL_GAMES=N (`OH_HELL_GAMES=10000 python -m pytest tests/test_oh_hell_openspiel.py`: 10,000 at the
defaults).
"""

from __future__ import annotations

import os
import random
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from cardsmith.engine.errors import BadOption  # noqa: E402
from cardsmith.engine.game import Game  # noqa: E402
from cardsmith.engine.state import State  # noqa: E402
from conftest import ROOT, compiled  # noqa: E402
from openspiel_cards import Numbering, config_id, deal_card, load_both  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.rl]

GAMES = int(os.environ.get("OH_HELL_GAMES", "500"))
SUITS = ["clubs", "diamonds", "spades", "hearts"]
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
OS_RANKS = "23456789TJQKA"
OS_SUITS = "CDSH"

# (players, OpenSpiel's parameters other than the defaults, share of GAMES played with them).
CONFIGS: list[tuple[int, dict[str, Any], float]] = [
    (3, {}, 1.0),
    (4, {}, 0.1),
    (5, {}, 0.1),
    (6, {}, 0.1),
    (7, {}, 0.1),
    (3, {"num_tricks_fixed": 17}, 0.05),  # every card dealt
    (4, {"num_tricks_fixed": 1}, 0.05),
    (3, {"off_bid_penalty": True, "points_per_trick": 2}, 0.1),
    (5, {"off_bid_penalty": True, "num_tricks_fixed": 6}, 0.05),
    (4, {"points_per_trick": 0}, 0.05),
    (3, {"num_suits": 2, "num_cards_per_suit": 7}, 0.05),
    (5, {"num_suits": 3, "num_cards_per_suit": 2}, 0.05),
    (3, {"num_suits": 1, "num_cards_per_suit": 13}, 0.05),  # no suit to follow but the one
    (7, {"num_suits": 4, "num_cards_per_suit": 2}, 0.05),
]
OPTION_OF = {"num_suits": "num_suits", "num_cards_per_suit": "cards_per_suit", "num_tricks_fixed": "hand_size",
             "off_bid_penalty": "off_bid_penalty", "points_per_trick": "points_per_trick"}


@cache
def games(players: int, items: tuple[tuple[str, Any], ...]) -> tuple[Game, Any]:
    """cardsmith's game and OpenSpiel's for a player count and OpenSpiel's parameters."""
    return load_both("oh-hell.yaml", "oh_hell", OPTION_OF, players, dict(items))


CARDS = Numbering(tuple(SUITS), tuple(RANKS), OS_SUITS, OS_RANKS, rank_major=True, suit_first=True)


def os_card(name: str, num_suits: int) -> int:
    """OpenSpiel's id of a card named as cardsmith names it ('10 of clubs'), in a pack of the first suits."""
    return replace(CARDS, suits=CARDS.suits[:num_suits]).id(name)


class Mapping:
    """cardsmith's card ids and action ids as OpenSpiel's."""

    def __init__(self, g: Game, ref_game: Any) -> None:
        suits = ref_game.get_parameters()["num_suits"]
        self.num_cards = len(g.card_names)
        self.card = {c: os_card(name, suits) for c, name in enumerate(g.card_names)}
        self.action: dict[int, int] = {}
        for a in range(g.num_distinct_actions()):
            label, arg = g.action_to_string(None, a).split(" ", 1)
            self.action[a] = self.num_cards + int(arg) if label == "bid" else os_card(arg, suits)
        self.back = {v: k for k, v in self.action.items()}
        fixed = ref_game.get_parameters()["num_tricks_fixed"]
        most = (self.num_cards - 1) // ref_game.num_players()
        # The rule file's trick_counts(): the outcome of OpenSpiel's first chance node at each position.
        self.trick_counts = [fixed] if fixed > 0 else list(range(1, most + 1))


def test_card_ids_and_actions_match_openspiels() -> None:
    for players, params, _ in CONFIGS:
        g, ref_game = games(players, tuple(params.items()))
        m = Mapping(g, ref_game)
        assert sorted(m.card.values()) == list(range(ref_game.max_chance_outcomes())), config_id(players, params)
        ref = ref_game.new_initial_state()
        ref.apply_action(ref.chance_outcomes()[0][0])
        ref.apply_action(0)  # once the dealer is chosen, actions print as cards
        for c, name in enumerate(g.card_names):
            assert ref.action_to_string(m.card[c]) == CARDS.text_of(name)
        # Every OpenSpiel action is one of the rule file's: the cards, and the bids 0 to the most tricks.
        assert sorted(m.action.values()) == list(range(ref_game.num_distinct_actions())), config_id(players, params)


def test_the_game_declares_openspiels_returns() -> None:
    assert pyspiel.load_game("oh_hell").get_parameters() == {
        "num_cards_per_suit": 13, "num_suits": 4, "num_tricks_fixed": -1, "off_bid_penalty": False, "players": 3,
        "points_per_trick": 1}
    for players, params, _ in CONFIGS:
        g, ref_game = games(players, tuple(params.items()))
        assert ref_game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
        assert not g.zero_sum and g.utility_sum is None
        assert (g.min_utility, g.max_utility) == (ref_game.min_utility(), ref_game.max_utility()), \
            config_id(players, params)


def test_the_same_packs_are_refused() -> None:
    """OpenSpiel refuses a pack of fewer cards than the players and one; so do the rule file's constraints,
    and its hand sizes run to the most OpenSpiel allows."""
    for players in range(3, 8):
        for suits in range(1, 5):
            for per_suit in range(2, 14):
                params = {"players": players, "num_suits": suits, "num_cards_per_suit": per_suit}
                try:
                    pyspiel.load_game("oh_hell", params)
                    refused = False
                except pyspiel.SpielError:
                    refused = True
                options = {"num_suits": suits, "cards_per_suit": per_suit}
                try:
                    g = Game(compiled(str(ROOT / "games" / "oh-hell.yaml")), players, options)
                except BadOption:
                    assert refused, params
                    continue
                assert not refused, params
                assert g.option_ranges["hand_size"] == (0, (suits * per_suit - 1) // players), params


def play_both(seed: int, g: Game, m: Mapping, ref_game: Any) -> tuple[int, int]:
    """One match in both, chance and moves drawn from `seed`; the number of tricks, and of bids made."""
    rng = random.Random(seed)
    ref = ref_game.new_initial_state()
    s = State.initial(g, None)
    n = ref_game.num_players()
    steps = 0
    checked_deal = False
    while not ref.is_terminal():
        where = f"seed {seed}, step {steps}"
        if ref.is_chance_node():
            outcomes = ref.chance_outcomes()
            if steps == 0:  # the number of tricks: positions of the pick from trick_counts()
                mine = s.chance_outcomes()
                assert sorted(m.trick_counts[i] for i, _ in mine) == sorted(a for a, _ in outcomes), where
                assert [p for _, p in mine] == pytest.approx([p for _, p in outcomes]), where
                i = rng.randrange(len(mine))
                s.apply_action(mine[i][0])
                ref.apply_action(m.trick_counts[mine[i][0]])
            elif steps == 1:  # the dealer: positions of the pick from players, the seats
                assert s.is_chance_node(), where
                mine = s.chance_outcomes()
                assert [a for a, _ in mine] == [a for a, _ in outcomes], where
                assert [p for _, p in mine] == pytest.approx([p for _, p in outcomes]), where
                d = rng.choice([a for a, _ in outcomes])
                s.apply_action(d)
                ref.apply_action(d)
            elif s.is_chance_node():  # a card dealt: the next card of the shuffle, from the top
                ref.apply_action(deal_card(s, ref, m.card, rng, where))
            else:  # the last card of the pack: forced in the rule file's shuffle
                assert len(outcomes) == 1, where
                ref.apply_action(outcomes[0][0])
        else:
            if s.is_chance_node():
                # The rest of the shuffle orders the cards OpenSpiel leaves undealt: exactly those.
                undealt = set(range(m.num_cards)) - set(ref.history()[2:])
                assert {m.card[c] for c, _ in s.chance_outcomes()} == undealt, where
                while s.is_chance_node():
                    s.apply_action(rng.choice(s.chance_outcomes())[0])
            if not checked_deal:
                dealt = ref.history()[2:]
                for p in range(n):
                    assert sorted(m.card[c] for c in s.zone_cards("hand", p)) == sorted(dealt[:-1][p::n]), where
                assert [m.card[c] for c in s.zone_cards("turned")] == [dealt[-1]], where
                assert s.dealer == ref.history()[1], where
                checked_deal = True
            assert not s.is_chance_node() and not s.is_terminal(), where
            assert s.current_player() == ref.current_player(), where
            assert sorted(m.action[a] for a in s.legal_actions()) == ref.legal_actions(), where
            a = rng.choice(ref.legal_actions())
            s.apply_action(m.back[a])
            ref.apply_action(a)
        steps += 1
    assert s.is_terminal(), f"seed {seed}"
    assert s.returns() == ref.returns(), f"seed {seed}"
    return ref.history()[0], sum(s.var("bid", p) == s.var("taken", p) for p in range(n))


@pytest.mark.parametrize(("players", "params", "share"), [pytest.param(*c, id=config_id(c[0], c[1])) for c in CONFIGS])
def test_random_matches_play_as_openspiel(players: int, params: dict[str, Any], share: float) -> None:
    g, ref_game = games(players, tuple(params.items()))
    m = Mapping(g, ref_game)
    count = max(3, round(GAMES * share))
    tricks = set()
    made = 0
    for seed in range(count):
        k, bids_made = play_both(seed, g, m, ref_game)
        tricks.add(k)
        made += bids_made
    if count >= 150:
        assert tricks == set(m.trick_counts)  # every number of tricks was dealt
        assert 0 < made < count * players  # some bids were made, some missed
