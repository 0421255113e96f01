"""games/leduc-poker.yaml plays as OpenSpiel's `leduc_poker` with its default parameters.

Random matches are played in both at once, every move drawn from OpenSpiel's legal moves and given to
both; at every decision the player to act, the legal moves, each player's chips in the pot, the round,
the private cards and the public card are the same; at the end both are over and their returns (chips
won or lost) are equal.

The numberings are OpenSpiel's in both: its card id is rank * 2 + suit (J J Q Q K K), and the rule
file's pack lists the cards rank by rank, so a card's number is the same; its moves are fold 0, call 1
(a check with nothing to call) and raise 2, and the rule file declares `fold`, `call` and `raise` in
that order, so an action id is the same too.

The chance: OpenSpiel deals P0's card, P1's card, and after the first round the public card, a chance
node each whose outcomes are the cards left, equally likely. The rule file shuffles its stock and deals
from the top, P0 first (left of the dealer, P1), and the public card when the first round ends. Half
the matches are seeded (the rule file draws its own shuffle; OpenSpiel is given the cards it dealt);
the other half are made without a seed, so the rule file stops at chance nodes too, and the test draws
their outcomes: each of OpenSpiel's chance nodes must then offer the same cards at the same odds as the
rule file's chance node at the same position in the order they come, and the two have as many: a
state made without a seed deals a shuffled zone lazily, a chance node per card as it leaves the stock
(interpreter/engine/chance.py), so the rule file written the plain way has OpenSpiel's three (two when
a player folds in the first round).

By default 300 matches (150 of each kind); more with LEDUC_POKER_GAMES=N
(`LEDUC_POKER_GAMES=10000 python -m pytest tests/test_leduc_poker_openspiel.py`). Every match is played
to the end; a match that goes otherwise in the two is counted, and the test fails with the count and the
first few.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from functools import cache
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from cardsmith.engine.game import Game  # noqa: E402
from cardsmith.engine.state import State  # noqa: E402
from conftest import ROOT, compiled  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.rl]

GAMES = int(os.environ.get("LEDUC_POKER_GAMES", "300"))
STARTING_MONEY = 100  # OpenSpiel's stack: a player's chips in the pot are 100 less what they hold
NO_CARD = -10000  # OpenSpiel's card not dealt yet (kInvalidCard)


@cache
def games() -> tuple[Game, Any]:
    return Game(compiled(str(ROOT / "games" / "leduc-poker.yaml")), 2), pyspiel.load_game("leduc_poker")


def test_card_ids_are_openspiels() -> None:
    g, _ = games()
    assert g.card_names == ("J of spades", "J of hearts", "Q of spades", "Q of hearts", "K of spades", "K of hearts")
    ranks, suits = ["J", "Q", "K"], ["spades", "hearts"]
    for c, name in enumerate(g.card_names):
        rank, suit = name.split(" of ")
        assert c == ranks.index(rank) * 2 + suits.index(suit)  # OpenSpiel's 0 J1, 1 J2, 2 Q1, ... 5 K2


def test_action_ids_are_openspiels() -> None:
    g, ref_game = games()
    ref = ref_game.new_initial_state()
    assert g.num_distinct_actions() == ref_game.num_distinct_actions() == 3
    assert [g.action_to_string(None, a) for a in range(3)] == ["fold", "call", "raise"]
    assert [ref.action_to_string(0, a) for a in range(3)] == ["Fold", "Call", "Raise"]


def test_the_game_declares_openspiels_returns() -> None:
    g, ref_game = games()
    assert ref_game.get_parameters() == {"action_mapping": False, "players": 2, "starting_player": 0,
                                         "suit_isomorphism": False}
    assert ref_game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (g.min_utility, g.max_utility) == (ref_game.min_utility(), ref_game.max_utility()) == (-13.0, 13.0)
    assert g.zero_sum and g.utility_sum == 0 and g.returns_name == "chips"


def same_table(s: State, ref: Any, where: str) -> None:
    """The same player to act and legal moves, chips in the pot, round, private cards and public card."""
    assert not s.is_chance_node() and not s.is_terminal(), where
    assert s.current_player() == ref.current_player(), where
    assert s.legal_actions() == ref.legal_actions(), where
    assert [s.var("put", p) for p in range(2)] == [STARTING_MONEY - m for m in ref.money()], where
    assert s.var("round") == ref.round(), where
    assert [s.zone_cards("hand", p) for p in range(2)] == [[ref.private_card(p)] for p in range(2)], where
    public = ref.public_card()
    assert s.zone_cards("board") == ([] if public == NO_CARD else [public]), where


def dealt(s: State, ref: Any) -> int:
    """The card the rule file has dealt where OpenSpiel's chance node is to deal one: P0's, P1's or the public."""
    cards = ref.get_private_cards()
    if NO_CARD in cards:  # a private card not dealt yet: P0's first
        (card,) = s.zone_cards("hand", cards.index(NO_CARD))
        return card
    (card,) = s.zone_cards("board")
    return card


def play_both(seed: int, seeded: bool) -> tuple[str, list[float]]:
    """One match in both, moves (and, without a seed, chance outcomes) drawn from `seed`; how it ended
    ('fold 1', 'fold 2', 'showdown' or 'split') and the returns."""
    g, ref_game = games()
    rng = random.Random(seed)
    s = State.initial(g, seed if seeded else None)
    ref = ref_game.new_initial_state()
    mine: list[list[tuple[int, float]]] = []  # the rule file's chance nodes, in order
    theirs: list[list[tuple[int, float]]] = []  # OpenSpiel's
    steps = 0
    while not ref.is_terminal():
        where = f"{'seed' if seeded else 'no seed, rng'} {seed}, step {steps}"
        if s.is_chance_node():  # the rule file's shuffle or deal
            outcomes = s.chance_outcomes()
            mine.append(outcomes)
            s.apply_action(rng.choice([c for c, _ in outcomes]))
        elif ref.is_chance_node():
            outcomes = ref.chance_outcomes()
            theirs.append(outcomes)
            card = dealt(s, ref)
            assert card in [c for c, _ in outcomes], where
            ref.apply_action(card)
        else:
            same_table(s, ref, where)
            a = rng.choice(ref.legal_actions())
            s.apply_action(a)
            ref.apply_action(a)
        steps += 1
    where = f"{'seed' if seeded else 'no seed, rng'} {seed}, the end"
    assert s.is_terminal(), where
    assert s.returns() == ref.returns(), where
    if not seeded:  # OpenSpiel's chance nodes are the rule file's, outcome for outcome
        assert len(mine) == len(theirs), where
        for k, (a, b) in enumerate(zip(mine, theirs)):
            assert [c for c, _ in a] == [c for c, _ in b], f"{where}, chance node {k}"
            assert [p for _, p in a] == pytest.approx([p for _, p in b]), f"{where}, chance node {k}"
    folded = len(s.zone_cards("shown", 0)) == 0
    end = (f"fold {ref.round()}" if folded else "split" if s.returns() == [0.0, 0.0] else "showdown")
    return end, s.returns()


def test_random_matches_play_as_openspiel() -> None:
    failures: list[str] = []
    ends: Counter[str] = Counter()
    extremes: set[float] = set()
    for i in range(GAMES):
        seeded = i % 2 == 0
        try:
            end, returns = play_both(i // 2, seeded)
        except AssertionError as e:
            failures.append(" / ".join(str(e).splitlines()[:2]))  # where, and what differed
            continue
        ends[end] += 1
        extremes.add(abs(returns[0]))
    assert not failures, f"{len(failures)} of {GAMES} matches went otherwise in OpenSpiel: " + "; ".join(failures[:5])
    # The matches met every way a hand ends, and chips from the antes alone to a whole capped pot.
    if GAMES >= 300:
        assert set(ends) == {"fold 1", "fold 2", "showdown", "split"}, ends
        assert {1.0, 13.0} <= extremes, extremes
