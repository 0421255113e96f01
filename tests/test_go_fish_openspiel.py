"""games/go-fish.yaml plays as OpenSpiel's `go_fish`, with its default parameters and with others.

Seeded random matches are played in both at once, every move drawn from OpenSpiel's legal moves and
given to both, mapped between the two numberings; at every decision the player to act and the legal
moves are the same, and the hands, the books and the pool hold the same ranks; at the end both are over
and their returns are equal.

The numberings: OpenSpiel knows cards only by rank (0 for a, 1 for b, ...; suits are copies), and its
ask of `target` for `rank` is the action target * ranks + rank; cardsmith's ranks are listed from the 2
up, so OpenSpiel's rank r is the rank at position r, and its actions are `ask for RANK, PLAYER` (their
text gives both; at the defaults the ids are OpenSpiel's).

The chance: OpenSpiel draws each card when it is dealt or fished, a chance node whose outcomes are the
ranks left in the pool, each as likely as its cards there; the deal gives P0 its whole hand first, then
P1, and so on. The rule file shuffles the pool before the deal and deals from the top; a state made
without a seed deals a shuffled zone lazily, a chance node per card as it comes off the top, whose
outcomes are the cards left in the pool, equally likely; a card fished, or drawn by a player with no
cards, is a `pick` from the pool when it happens (a chance node whose outcomes are the positions in the
pool zone, equally likely). So the two have a chance node at the same moments: each of OpenSpiel's must
offer exactly the ranks of the cards the rule file's offers, each with its share of them as its chance;
the test draws the rule file's outcome at random and gives OpenSpiel its rank. One exception: the deal
lays down books as they are dealt and deals on to make up the hands, so how many cards it deals depends
on the cards dealt; the rule file's chance nodes of one step are the cards a first run of the step needed
(interpreter/engine/chance.py), and when the real cards make fewer books it may ask for a few more cards
than it deals, whose order in the pool is then decided. The test gives those at random, in the deal only.

OpenSpiel's parameters are the rule file's options: ranks (num_ranks), suits (num_suits), initial_cards
(hand_size; OpenSpiel's -1 is the rule file's computed default), ask_after_empty_draw, end_on_first_out
and most_books_wins; the house rules `catch_asks_again` and `turn_to_asked` keep OpenSpiel's values
(their other values are tested in tests/scenarios/go-fish.yaml). Where OpenSpiel's rules break down the
rule file goes its own way, and the test shows both: most_books_wins off with end_on_first_out off gives
everyone -1/(players - 1) in OpenSpiel, and the rule file refuses it; a pack too small for the hands
leaves OpenSpiel a chance node without outcomes, and the rule file deals smaller hands; a last hand
emptied by a book in the deal leaves OpenSpiel's P0 no legal move, and the rule file's empty-handed
player draws. With ten players the hands take 50 of the 52 cards, and a book dealt to one of the first
nine (a few matches in a thousand) needs more cards than are left: OpenSpiel's deal then stops at a chance
node without outcomes, while the rule file's deal stops with its pool empty and the match goes on; the
test compares the two up to there and counts those matches.

By default 300 matches at the default parameters and a share of that at each of the others; more with
GO_FISH_GAMES=N (`GO_FISH_GAMES=10000 python -m pytest tests/test_go_fish_openspiel.py`: 10,000 at the
defaults and 5,500 at the other settings).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from functools import cache
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from cardsmith.engine.errors import BadOption  # noqa: E402
from cardsmith.engine.game import Game  # noqa: E402
from cardsmith.engine.state import State  # noqa: E402
from conftest import ROOT, compiled  # noqa: E402
from openspiel_cards import config_id, load_both  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.rl]

GAMES = int(os.environ.get("GO_FISH_GAMES", "300"))
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]

# (players, OpenSpiel's parameters other than the defaults, share of GAMES played with them).
CONFIGS: list[tuple[int, dict[str, Any], float]] = [
    (2, {}, 1.0),
    (3, {}, 0.05),
    (4, {}, 0.05),
    (6, {}, 0.03),
    (10, {}, 0.03),  # five cards each leave two in the pool
    (2, {"ask_after_empty_draw": False}, 0.05),
    (4, {"ask_after_empty_draw": False}, 0.03),
    (2, {"end_on_first_out": True}, 0.05),
    (4, {"end_on_first_out": True}, 0.03),
    (2, {"end_on_first_out": True, "most_books_wins": False}, 0.05),
    (3, {"end_on_first_out": True, "most_books_wins": False, "ask_after_empty_draw": False}, 0.03),
    (2, {"initial_cards": 5}, 0.03),
    (3, {"initial_cards": 7}, 0.03),
    (2, {"suits": 2}, 0.03),  # books of pairs: many are laid down while the hands are dealt
    (3, {"suits": 3, "ranks": 9}, 0.03),
    (2, {"ranks": 7, "initial_cards": 5}, 0.03),
]
OPTION_OF = {"ranks": "num_ranks", "suits": "num_suits", "initial_cards": "hand_size",
             "ask_after_empty_draw": "ask_after_empty_draw", "end_on_first_out": "end_on_first_out",
             "most_books_wins": "most_books_wins"}


@cache
def games(players: int, items: tuple[tuple[str, Any], ...]) -> tuple[Game, Any]:
    """cardsmith's game and OpenSpiel's for a player count and OpenSpiel's parameters."""
    return load_both("go-fish.yaml", "go_fish", OPTION_OF, players, dict(items))


class Mapping:
    """cardsmith's cards as OpenSpiel's ranks, and its action ids as OpenSpiel's."""

    def __init__(self, g: Game, ref_game: Any) -> None:
        self.ranks = ref_game.get_parameters()["ranks"]
        self.rank = [RANKS.index(name.split(" of ")[0]) for name in g.card_names]
        self.action: dict[int, int] = {}
        for a in range(g.num_distinct_actions()):
            label, args = g.action_to_string(None, a).split(" for ", 1)
            assert label == "ask", label
            rank, target = args.split(", ")
            r = RANKS.index(rank)
            if r < self.ranks:  # the ranks cut from the pack are never asked for
                self.action[a] = int(target.removeprefix("P")) * self.ranks + r
        self.back = {v: k for k, v in self.action.items()}


def test_actions_match_openspiels() -> None:
    for players, params, _ in CONFIGS:
        g, ref_game = games(players, tuple(params.items()))
        m = Mapping(g, ref_game)
        # Every OpenSpiel ask is one of the rule file's (asking oneself is never legal in either).
        assert sorted(m.action.values()) == list(range(players * m.ranks)), config_id(players, params)
        assert Counter(m.rank) == {r: ref_game.get_parameters()["suits"] for r in range(m.ranks)}
    # At the defaults the ids are the same: the rank varies fastest, as in OpenSpiel.
    g, ref_game = games(2, ())
    assert all(a == b for a, b in Mapping(g, ref_game).action.items())
    assert ref_game.new_initial_state().action_to_string(0, 13 + 5) == "1f"  # P1 for the sixth rank, the 7
    assert g.action_to_string(0, 13 + 5) == "ask for 7, P1"


def test_the_game_declares_openspiels_returns() -> None:
    assert pyspiel.load_game("go_fish").get_parameters() == {
        "ask_after_empty_draw": True, "end_on_first_out": False, "initial_cards": -1, "most_books_wins": True,
        "players": 2, "ranks": 13, "suits": 4}
    for players, params, _ in CONFIGS:
        g, ref_game = games(players, tuple(params.items()))
        assert ref_game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
        assert g.zero_sum and g.utility_sum == 0
        assert (g.min_utility, g.max_utility) == (ref_game.min_utility(), ref_game.max_utility())


def test_hand_size_defaults_to_openspiels_initial_cards() -> None:
    for players in (2, 3, 10):
        g = Game(compiled(str(ROOT / "games" / "go-fish.yaml")), players)
        assert g.options["hand_size"] == (7 if players == 2 else 5)


def test_the_first_player_out_needs_the_game_to_end_there() -> None:
    """OpenSpiel gives everyone -1/(players - 1) when neither ends the game; the rule file ends the game on the
    first out unless told not to, and refuses to be told."""
    ref_game = pyspiel.load_game("go_fish", {"most_books_wins": False})
    rng = random.Random(0)
    ref = ref_game.new_initial_state()
    while not ref.is_terminal():
        if ref.is_chance_node():
            ref.apply_action(rng.choice([a for a, _ in ref.chance_outcomes()]))
        else:
            ref.apply_action(rng.choice(ref.legal_actions()))
    assert ref.returns() == [-1.0, -1.0]
    path = str(ROOT / "games" / "go-fish.yaml")
    assert Game(compiled(path), 2, {"most_books_wins": False}).options["end_on_first_out"] is True
    with pytest.raises(BadOption, match="must end on the first out"):
        Game(compiled(path), 2, {"most_books_wins": False, "end_on_first_out": False})


def test_hands_leave_a_card_in_the_pool() -> None:
    """OpenSpiel deals 7 or 5 cards whatever the pack, and from an empty pool its chance node has no outcomes;
    the rule file deals smaller hands from a smaller pack, and refuses hands that leave no card in the pool."""
    path = str(ROOT / "games" / "go-fish.yaml")
    assert Game(compiled(path), 10).options["hand_size"] == 5  # 50 of the 52 cards
    with pytest.raises(BadOption, match="from 1 to 5 with 10 players"):
        Game(compiled(path), 10, {"hand_size": 6})
    assert Game(compiled(path), 2, {"num_ranks": 3}).options["hand_size"] == 5  # 12 cards: 5 each, 2 left
    ref = pyspiel.load_game("go_fish", {"players": 2, "ranks": 3}).new_initial_state()
    for i in range(12):  # no book: P0 gets a b c a b c a, P1 the other five
        ref.apply_action(i % 3)
    assert ref.is_chance_node() and ref.chance_outcomes() == [] and sum(ref.player_cards()[1]) == 5


def chance_both(s: State, ref: Any, m: Mapping, rng: random.Random, where: str) -> None:
    """A card dealt or drawn in both: OpenSpiel offers the ranks of the cards the rule file's chance node
    offers, each with its share of them; a card drawn at random from the rule file's node, and its rank to
    OpenSpiel. A card dealt is a card of the pool (the one that comes off its top); a card drawn is a
    position in the pool zone (`chance_values` gives the card at each)."""
    assert s.is_chance_node(), where
    mine = s.chance_outcomes()
    assert [p for _, p in mine] == pytest.approx([1 / len(mine)] * len(mine)), where
    cards = s.chance_values()
    if ref.phase() == pyspiel.go_fish.Phase.DEAL:
        assert cards == [c for c, _ in mine], where
    else:
        assert [i for i, _ in mine] == list(range(len(cards))), where
        assert sorted(cards) == sorted(set(cards)), where
    k = rng.randrange(len(cards))
    outcomes = ref.chance_outcomes()
    left = Counter(m.rank[c] for c in cards)
    assert sorted(left) == [a for a, _ in outcomes], where
    assert [left[a] / len(cards) for a, _ in outcomes] == pytest.approx([p for _, p in outcomes]), where
    s.apply_action(mine[k][0])
    ref.apply_action(m.rank[cards[k]])


def test_a_last_hand_emptied_by_a_book_in_the_deal() -> None:
    """When the hands are as big as a book, the last player's last card can make a book of the whole hand.
    With two players OpenSpiel then leaves P0 to ask with nobody to ask: not over, and no legal action.
    The rule file applies its own rule for a turn with nobody to ask: the empty-handed player draws, and
    then asks."""
    g, ref_game = games(2, (("ranks", 5), ("initial_cards", 4)))
    m = Mapping(g, ref_game)
    for seed in range(1000):
        s = State.initial(g, None)
        ref = ref_game.new_initial_state()
        rng = random.Random(seed)
        while ref.is_chance_node():
            chance_both(s, ref, m, rng, f"seed {seed}")
        if ref.player_books()[1] == 1 and sum(ref.player_cards()[1]) == 0:
            break
    else:
        pytest.fail("no deal in 1000 gave P1 a book of its whole hand")
    assert not ref.is_terminal() and ref.current_player() == 0 and ref.legal_actions() == []
    # In the rule file P1 draws a card of the pool, then asks.
    pool = s.chance_values()
    assert s.is_chance_node() and [i for i, _ in s.chance_outcomes()] == list(range(len(pool))) and len(pool) == 12
    s.apply_action(0)
    assert rank_counts(s.zone_cards("hand", 0), m) == list(ref.player_cards()[0])
    assert len(s.zone_cards("books", 1)) == 4
    assert s.zone_cards("hand", 1) == [pool[0]]
    assert sorted(s.zone_cards("pool")) == sorted(pool[1:])
    assert s.current_player() == 1 and s.legal_actions()


def rank_counts(cards: list[int], m: Mapping) -> list[int]:
    counts = [0] * m.ranks
    for c in cards:
        counts[m.rank[c]] += 1
    return counts


def same_hands(s: State, ref: Any, m: Mapping, where: str) -> None:
    suits = ref.get_game().get_parameters()["suits"]
    for p in range(ref.num_players()):
        assert rank_counts(s.zone_cards("hand", p), m) == list(ref.player_cards()[p]), where
        assert len(s.zone_cards("books", p)) == suits * ref.player_books()[p], where


def play_both(seed: int, g: Game, m: Mapping, ref_game: Any) -> tuple[list[float] | None, int]:
    """One match in both, chance and moves drawn from `seed`; the returns (None if OpenSpiel's deal ran its pool
    dry), and the number of empty draws."""
    rng = random.Random(seed)
    ref = ref_game.new_initial_state()
    s = State.initial(g, None)
    steps = 0
    empty_draws = 0
    deal_end = -1  # the first decision, once the deal is over
    while not ref.is_terminal():
        where = f"seed {seed}, step {steps}"
        if ref.is_chance_node():
            empty_draws += ref.phase() == pyspiel.go_fish.Phase.EMPTY_DRAW
            outcomes = ref.chance_outcomes()
            if not outcomes:
                # OpenSpiel's deal ran out of cards (books dealt need cards to make them up): it can go no
                # further. The rule file's deal gave out the same cards, and stopped with its pool empty.
                assert ref.phase() == pyspiel.go_fish.Phase.DEAL and not s.zone_cards("pool"), where
                assert not s.is_chance_node() and not s.is_terminal(), where
                same_hands(s, ref, m, where)
                return None, empty_draws
            chance_both(s, ref, m, rng, where)
            if not ref.is_chance_node() and deal_end < 0:
                deal_end = steps + 1
        else:
            while steps == deal_end and s.is_chance_node():
                # Cards the deal's first run needed and the real one did not deal: their order in the pool.
                s.apply_action(rng.choice(s.chance_outcomes())[0])
            assert not s.is_chance_node() and not s.is_terminal(), where
            assert s.current_player() == ref.current_player(), where
            assert rank_counts(s.zone_cards("pool"), m) == list(ref.pool()), where
            same_hands(s, ref, m, where)
            assert sorted(m.action[a] for a in s.legal_actions()) == ref.legal_actions(), where
            a = rng.choice(ref.legal_actions())
            s.apply_action(m.back[a])
            ref.apply_action(a)
        steps += 1
    assert s.is_terminal(), f"seed {seed}"
    assert s.returns() == ref.returns(), f"seed {seed}"
    return s.returns(), empty_draws


@pytest.mark.parametrize(("players", "params", "share"), [pytest.param(*c, id=config_id(c[0], c[1])) for c in CONFIGS])
def test_random_matches_play_as_openspiel(players: int, params: dict[str, Any], share: float) -> None:
    g, ref_game = games(players, tuple(params.items()))
    m = Mapping(g, ref_game)
    count = max(3, round(GAMES * share))
    winners: set[tuple[int, ...]] = set()
    empty_draws = 0
    dry = 0
    for seed in range(count):
        returns, e = play_both(seed, g, m, ref_game)
        if returns is None:
            dry += 1
        else:
            winners.add(tuple(p for p in range(players) if returns[p] > 0))
        empty_draws += e
    # OpenSpiel's pool runs dry only where the hands take nearly all the pack (ten players) and a book is dealt.
    assert dry == 0 or (players == 10 and dry < count / 20), dry
    if not params and count >= 100:
        assert winners >= {(0,), (1,)}  # either seat won
        if players == 2:
            assert empty_draws > 0  # and players ran out of cards and drew
        else:
            assert any(len(w) > 1 for w in winners)  # and ties shared the win
