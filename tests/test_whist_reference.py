"""games/whist.yaml plays as tests/whist_reference.py, a Whist written by hand from the same rules.

OpenSpiel has no Whist, so the reference is a plain Python Whist written from the rules, not from the
rule file (see its docstring). Seeded random matches are played in both at once, from the same chance:
the first dealer drawn at the rule file's `pick` (its positions are the seats) is given to the reference
as its cut; each shuffle's cards, drawn node by node from the top of the stock down, are given to the
reference as the cards it deals, in the order it deals them (the rule file deals from the top of the
stock, so its nth card from the top is the nth card dealt; the shuffle's last card is forced, and the
reference's 52nd card is a node with one outcome). Each side deals, finds trumps and scores with its own
code. At every decision the player to act and the set of legal cards are the same; once a deal is dealt,
the scores of both sides, the dealer, each hand, the turned card and trumps are the same; at the end both
are over, with the same scores, winners and returns.

The rule file's options are the reference's settings: `target` (5, 7, 10) and `honours` (on, off), every
combination played. By default 400 matches at the defaults (target 5, honours) and a quarter of that at
each other setting, about 7 s; more with WHIST_GAMES=N (`WHIST_GAMES=10000 python -m pytest
tests/test_whist_reference.py`: 10,000 at the defaults and 2,500 at each of the five others).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from functools import cache

import pytest
from cardsmith.engine.game import Game
from cardsmith.engine.state import State
from conftest import ROOT, compiled
from whist_reference import CHANCE, SUITS, TERMINAL, Whist, card_name

pytestmark = [pytest.mark.slow]

GAMES = int(os.environ.get("WHIST_GAMES", "400"))

# (target, honours, share of GAMES played with them)
CONFIGS: list[tuple[int, bool, float]] = [
    (5, True, 1.0),
    (5, False, 0.25),
    (7, True, 0.25),
    (7, False, 0.25),
    (10, True, 0.25),
    (10, False, 0.25),
]


@cache
def whist(target: int, honours: bool) -> Game:
    return Game(compiled(str(ROOT / "games" / "whist.yaml")), 4, {"target": target, "honours": honours})


class Mapping:
    """The rule file's card ids and action ids as the reference's cards (both name cards as '10 of clubs')."""

    def __init__(self, g: Game) -> None:
        ref_id = {card_name(c): c for c in range(52)}
        self.card = {c: ref_id[name] for c, name in enumerate(g.card_names)}
        self.action: dict[int, int] = {}
        for a in range(g.num_distinct_actions()):
            label, card = g.action_to_string(None, a).split(" ", 1)
            assert label == "play"
            self.action[a] = ref_id[card]
        self.back = {v: k for k, v in self.action.items()}


def test_both_name_the_same_52_cards_and_every_action_plays_one() -> None:
    g = whist(5, True)
    m = Mapping(g)
    assert sorted(m.card.values()) == list(range(52))
    assert sorted(m.action.values()) == list(range(52))


def test_the_game_declares_its_returns() -> None:
    for target, honours, _ in CONFIGS:
        g = whist(target, honours)
        assert g.zero_sum and g.utility_sum == 0
        assert (g.min_utility, g.max_utility) == (-3.0, 3.0)
        assert g.returns_name == "game_points"


def scores(s: State) -> list[int]:
    """Each side's score, as every player sees it (kept on both partners)."""
    seen = s.observation(0)["variables"]
    assert (seen["score[0]"], seen["score[1]"]) == (seen["score[2]"], seen["score[3]"])
    return [seen["score[0]"], seen["score[1]"]]


def check_deal(s: State, ref: Whist, m: Mapping, where: str) -> None:
    """Once the cards are dealt: the same scores to start from, dealer, hands, turned card and trumps."""
    assert scores(s) == ref.score, where
    assert s.observation(0)["dealer"] == ref.dealer, where
    for p in range(4):
        assert sorted(m.card[c] for c in s.zone_cards("hand", p)) == ref.hand(p), where
    assert m.card[s.var("turned")] == ref.turned, where
    assert s.var("trump") == SUITS[ref.trump], where


def play_both(seed: int, g: Game, m: Mapping, target: int, honours: bool) -> Whist:
    """One match in both, chance and moves drawn from `seed`; the reference as it ended."""
    rng = random.Random(seed)
    s = State.initial(g, None)
    ref = Whist(target, honours)
    steps = 0
    while ref.current_player() != TERMINAL:
        where = f"target {target}, honours {honours}, seed {seed}, step {steps}"
        if ref.current_player() == CHANCE:
            outcomes = ref.legal_actions()
            if ref.phase == "cut":
                assert s.is_chance_node(), where
                assert sorted(a for a, _ in s.chance_outcomes()) == outcomes, where
                d = rng.choice(outcomes)
                s.apply_action(d)
                ref.apply(d)
            elif s.is_chance_node():
                mine = s.chance_outcomes()
                assert sorted(m.card[c] for c, _ in mine) == outcomes, where
                a = rng.choice(outcomes)
                s.apply_action(next(c for c, _ in mine if m.card[c] == a))
                ref.apply(a)
            else:  # the last card: forced in the rule file's shuffle
                assert len(outcomes) == 1, where
                ref.apply(outcomes[0])
                check_deal(s, ref, m, where)
        else:
            assert not s.is_chance_node() and not s.is_terminal(), where
            assert s.current_player() == ref.current_player(), where
            legal = ref.legal_actions()
            assert sorted(m.action[a] for a in s.legal_actions()) == legal, where
            a = rng.choice(legal)
            s.apply_action(m.back[a])
            ref.apply(a)
        steps += 1
    assert s.is_terminal(), f"seed {seed}"
    assert scores(s) == ref.score, f"seed {seed}"
    winners = s.observation(0)["winners"]
    assert sorted(winners) == [p for p in range(4) if p % 2 == ref.winning_side()], f"seed {seed}"
    assert s.returns() == ref.returns(), f"seed {seed}"
    return ref


@pytest.mark.parametrize(("target", "honours", "share"), CONFIGS,
                         ids=[f"target={t},honours={h}" for t, h, _ in CONFIGS])
def test_random_matches_play_as_the_reference(target: int, honours: bool, share: float) -> None:
    g = whist(target, honours)
    m = Mapping(g)
    games = max(1, int(GAMES * share))
    values: Counter[int] = Counter()
    events: Counter[str] = Counter()
    deals = 0
    for seed in range(games):
        ref = play_both(seed, g, m, target, honours)
        values[ref.value()] += 1
        events += ref.events
        deals += ref.deals
    if games >= 100:
        # Every value of a game was reached: a treble, a double and a single; and with honours, every rule
        # of their scoring came into play.
        assert set(values) == {1, 2, 3}, values
        assert deals > games  # matches of several deals
        if honours:
            assert set(events) == {"4 for honours", "2 for honours", "game won by honours",
                                   "honours held when tricks ended the game",
                                   "honours held one point short of game"}, events
        else:
            assert not events
