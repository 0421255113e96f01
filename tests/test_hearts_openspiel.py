"""games/hearts.yaml plays as OpenSpiel's `hearts` with its default parameters.

Seeded random matches are played in both at once: every chance outcome and every move is drawn from
OpenSpiel's state and given to both, mapped between the two numberings, and at every step the player to
act, the chance outcomes and the legal moves are the same; at the end both are over and their returns
are equal.

The numberings: OpenSpiel's card id is rank * 4 + suit (suits C, D, H, S; ranks 2 to A); cardsmith's
cards are numbered in pack order, and its actions are `pass CARD` and `play CARD` (their text gives the
card). OpenSpiel's first chance node is the pass direction (0 no pass, 1 left, 2 across, 3 right), as
the positions of the rule file's `pick` from `[hold, left, across, right]`; then it deals 52 cards one
chance node each, to P0, P1, P2, P3, P0, ... The rule file's shuffle is 51 chance nodes from the top
card down (the last card is forced) and its deal starts left of the dealer, P3, so with P0: the 52nd
card is a chance node in OpenSpiel only, with one outcome.

By default 200 matches; more with HEARTS_GAMES=N (`HEARTS_GAMES=2000 python -m pytest
tests/test_hearts_openspiel.py`), as tests/test_openspiel.py takes OPENSPIEL_SIMS.
"""

from __future__ import annotations

import os
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from cardsmith.engine.game import Game  # noqa: E402
from cardsmith.engine.state import State  # noqa: E402
from conftest import ROOT, compiled  # noqa: E402
from openspiel_cards import Numbering, deal_card  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.rl]

GAMES = int(os.environ.get("HEARTS_GAMES", "200"))
SUITS = ["clubs", "diamonds", "hearts", "spades"]
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
OS_RANKS = "23456789TJQKA"
OS_SUITS = "CDHS"


def hearts() -> Game:
    return Game(compiled(str(ROOT / "games" / "hearts.yaml")), 4)


CARDS = Numbering(tuple(SUITS), tuple(RANKS), OS_SUITS, OS_RANKS, rank_major=True)
os_card = CARDS.id  # OpenSpiel's id of a card named as cardsmith names it ('10 of clubs')


class Mapping:
    """cardsmith's card ids and action ids as OpenSpiel's (card ids for the deal, the passes and the play)."""

    def __init__(self, g: Game) -> None:
        self.card = {c: os_card(name) for c, name in enumerate(g.card_names)}
        self.action: dict[int, tuple[str, int]] = {}
        for a in range(g.num_distinct_actions()):
            label, card = g.action_to_string(None, a).split(" ", 1)
            self.action[a] = (label, os_card(card))
        self.back = {v: k for k, v in self.action.items()}


def test_card_ids_match_openspiel_card_strings() -> None:
    g = hearts()
    ref = pyspiel.load_game("hearts").new_initial_state()
    ref.apply_action(0)  # after the pass direction, actions print as cards
    m = Mapping(g)
    assert sorted(m.card.values()) == list(range(52))
    for c, name in enumerate(g.card_names):
        assert ref.action_to_string(m.card[c]) == CARDS.text_of(name)
    assert sorted(m.action.values()) == sorted((kind, c) for kind in ("pass", "play") for c in range(52))


def test_the_game_declares_openspiels_returns() -> None:
    g = hearts()
    ref = pyspiel.load_game("hearts")
    assert ref.get_parameters() == {
        "avoid_all_tricks_bonus": False, "can_lead_any_club": False, "can_lead_hearts_instead_of_qs": False,
        "jd_bonus": False, "must_break_hearts": True, "no_pts_on_first_trick": True, "pass_cards": True,
        "qs_breaks_hearts": True}
    assert ref.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert not g.zero_sum and g.utility_sum is None
    # OpenSpiel's bounds leave room for its bonus options (0 to 36); the default rules give 0 to 26.
    assert (g.min_utility, g.max_utility) == (0.0, 26.0)
    assert ref.min_utility() <= g.min_utility and g.max_utility <= ref.max_utility()


def play_both(seed: int, g: Game, m: Mapping, ref_game: object) -> tuple[list[float], int, bool]:
    """One match in both, moves drawn from `seed`; the returns, the pass direction and whether the moon was shot."""
    rng = random.Random(seed)
    ref = ref_game.new_initial_state()  # type: ignore[attr-defined]
    s = State.initial(g, None)
    steps = 0
    direction = -1
    while not ref.is_terminal():
        where = f"seed {seed}, step {steps}"
        if ref.is_chance_node():
            outcomes = ref.chance_outcomes()
            if steps == 0:  # the pass direction: positions of the pick
                assert s.is_chance_node(), where
                assert sorted(s.chance_outcomes()) == sorted(outcomes), where
                direction = rng.choice([a for a, _ in outcomes])
                s.apply_action(direction)
                ref.apply_action(direction)
            elif s.is_chance_node():
                ref.apply_action(deal_card(s, ref, m.card, rng, where))
            else:  # the last card of the deal: forced in the rule file's shuffle
                assert len(outcomes) == 1, where
                ref.apply_action(outcomes[0][0])
        else:
            assert not s.is_chance_node() and not s.is_terminal(), where
            assert s.current_player() == ref.current_player(), where
            kind = "pass" if len(ref.history()) < 53 + 12 and direction != 0 else "play"
            mine = {m.action[a] for a in s.legal_actions()}
            assert mine == {(kind, a) for a in ref.legal_actions()}, where
            a = rng.choice(ref.legal_actions())
            s.apply_action(m.back[(kind, a)])
            ref.apply_action(a)
        steps += 1
    assert s.is_terminal(), f"seed {seed}"
    assert s.returns() == ref.returns(), f"seed {seed}"
    return s.returns(), direction, 26.0 in ref.returns() and sum(ref.returns()) == 26.0


def test_random_matches_play_as_openspiel() -> None:
    g = hearts()
    m = Mapping(g)
    ref_game = pyspiel.load_game("hearts")
    directions = set()
    moons = 0
    for seed in range(GAMES):
        _, d, moon = play_both(seed, g, m, ref_game)
        directions.add(d)
        moons += moon
    if GAMES >= 200:
        assert directions == {0, 1, 2, 3}  # every pass direction was played
        assert moons >= 1  # and the moon was shot (with seed 165)
