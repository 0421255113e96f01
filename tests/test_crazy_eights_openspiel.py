"""games/crazy-eights.yaml plays as OpenSpiel's `crazy_eights`, with its default parameters and others.

Seeded random matches are played in both at once: every chance outcome and every move is drawn from
OpenSpiel's state and given to both, mapped between the two numberings, and at every step the chance
outcomes (with their probabilities), the player to act and the legal moves are the same; at every
decision the position is too, as OpenSpiel's observation string of the player to act tells it (that
player's hand, the top card of the discard pile, the suit to follow, every player's number of cards,
the direction of play); at the end both are over and their returns are equal.

The numberings. OpenSpiel's card id is rank * 4 + suit (suits C, D, H, S; ranks 2 to A); its moves are
the card to play (0 to 51), draw 52, pass 53 and the suit an eight names, 54 + suit. cardsmith's cards
are numbered in pack order (with two packs, the second copy of a card is `2 of clubs #2`, the same card
for OpenSpiel) and its actions are `play CARD`, `draw`, `draw the twos` (OpenSpiel's draw when twos are
owed), `pass` and `name SUIT`; their text gives the card or the suit.

The chance nodes. OpenSpiel's first chance node is the dealer, outcome 52 + seat; the rule file's
`pick d from players` has the seat as its outcome, and the two are compared and given one outcome. Then
OpenSpiel deals each card as a chance node of its own, when it is dealt or drawn, its outcomes the kinds
of card left with their share of the stock; the rule file shuffles the stock (one chance node per
position from the top down, each offering the cards not placed yet), deals from the top and draws from
the top. So the rule file's chance comes first: the test draws the shuffle's outcomes, and then gives
OpenSpiel, node by node, the card the rule file dealt or drew there:
* the deal: OpenSpiel's k-th deal node and the shuffle's k-th node offer the same cards with the same
  chances, and get the same card;
* the card turned up: the rule file turns up the first card from the top that is not an eight (and
  shuffles the stock again if it passed eights); OpenSpiel is given those eights one by one (each a
  node of its own that puts the eight back), then the card turned up; its outcomes at each of these
  nodes are the cards left in the rule file's stock;
* a draw (one card, or all the twos owed): OpenSpiel's outcomes at each node are the cards the rule
  file's stock held before that card was drawn, and it is given the card the rule file drew (the new
  cards of the hand, in the order drawn). With `reshuffle`, the rule file's stock is refilled from the
  discard pile and shuffled when it runs out (chance nodes of the rule file only, drawn by the test);
  OpenSpiel's stock is refilled with the same cards.
After each move the stock the test followed is the stock the rules hold.

By default 400 matches at the default parameters and 26 at each other setting; CRAZY_EIGHTS_GAMES=N
plays N and N // 15 (`CRAZY_EIGHTS_GAMES=10000 python -m pytest tests/test_crazy_eights_openspiel.py`).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from cardsmith.engine.game import Game  # noqa: E402
from cardsmith.engine.state import State  # noqa: E402
from conftest import ROOT, compiled  # noqa: E402
from openspiel_cards import Numbering  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.rl]

GAMES = int(os.environ.get("CRAZY_EIGHTS_GAMES", "400"))
OTHER_GAMES = max(1, GAMES // 15)
PATH = str(ROOT / "games" / "crazy-eights.yaml")
SUITS = ["clubs", "diamonds", "hearts", "spades"]
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
OS_RANKS = "23456789TJQKA"
OS_SUITS = "CDHS"
DRAW, PASS, NOMINATE, DEALER = 52, 53, 54, 52
EIGHT = RANKS.index("8")

# OpenSpiel's parameters that are rules are the rule file's options of the same names.
DEFAULTS = {"max_draw_cards": 5, "max_turns": 100, "reshuffle": False, "use_special_cards": False}
SETTINGS: list[tuple[int, dict[str, Any]]] = [
    (2, {}), (3, {}), (4, {}), (6, {}), (9, {}), (15, {}),
    (5, {"max_draw_cards": 1}), (3, {"max_draw_cards": 3}), (4, {"max_draw_cards": 20}),
    (5, {"max_turns": 10}), (2, {"max_turns": 1}),
    (5, {"reshuffle": True}), (2, {"reshuffle": True, "max_turns": 300}),
    (5, {"use_special_cards": True}), (2, {"use_special_cards": True}), (3, {"use_special_cards": True}),
    (7, {"use_special_cards": True, "reshuffle": True}),
    (4, {"use_special_cards": True, "reshuffle": True, "max_draw_cards": 2, "max_turns": 200}),
]


CARDS = Numbering(tuple(SUITS), tuple(RANKS), OS_SUITS, OS_RANKS, rank_major=True, suit_first=True)
os_card = CARDS.id  # OpenSpiel's id of a card named as cardsmith names it ('10 of clubs', '10 of clubs #2')


class Mapping:
    """cardsmith's card ids and action ids as OpenSpiel's."""

    def __init__(self, g: Game) -> None:
        self.card = {c: os_card(name) for c, name in enumerate(g.card_names)}
        self.action: dict[int, int] = {}
        for a in range(g.num_distinct_actions()):
            text = g.action_to_string(None, a)
            if text.startswith("play "):
                self.action[a] = os_card(text[len("play "):])
            elif text.startswith("name "):
                self.action[a] = NOMINATE + SUITS.index(text[len("name "):])
            else:
                self.action[a] = {"draw": DRAW, "draw the twos": DRAW, "pass": PASS}[text]


def crazy_eights(players: int, options: dict[str, Any] | None = None) -> Game:
    return Game(compiled(PATH), players, options or {})


def test_card_and_action_ids_match_openspiels() -> None:
    for players, decks in ((5, 1), (6, 2)):
        g = crazy_eights(players)
        ref = pyspiel.load_game("crazy_eights", {"players": players}).new_initial_state()
        m = Mapping(g)
        assert sorted(Counter(m.card.values()).items()) == [(c, decks) for c in range(52)]
        for c, name in enumerate(g.card_names):
            assert ref.action_to_string(0, m.card[c]) == f"Play {CARDS.text_of(name)}"
        for a, b in m.action.items():
            text = g.action_to_string(None, a)
            if b >= DRAW:
                expected = f"Nominate suit {OS_SUITS[SUITS.index(text[5:])]}" if text.startswith("name ") \
                    else text.split()[0].capitalize()
                assert ref.action_to_string(0, b) == expected, text
        assert set(m.action.values()) == set(range(pyspiel.load_game("crazy_eights").num_distinct_actions()))


def test_the_game_declares_openspiels_parameters_and_returns() -> None:
    ref = pyspiel.load_game("crazy_eights")
    assert ref.get_parameters() == {"players": 5, **DEFAULTS}
    assert {o.name: o.default for o in compiled(PATH).spec.options if o.name in DEFAULTS} == DEFAULTS
    assert ref.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    for players, decks in ((5, 1), (6, 2)):
        g = crazy_eights(players)
        assert not g.zero_sum and g.utility_sum is None
        assert g.max_utility == ref.max_utility() == 0.0
        # OpenSpiel declares -544 a pack (50 an eight, 10 a court card, face values); its scoring charges
        # the card's number plus 2 for a 2 to 10, so a large hand can pass that: the rule file declares
        # minus the whole pack's penalty, 952 a pack.
        assert g.min_utility == -952.0 * decks
        assert g.min_utility <= pyspiel.load_game("crazy_eights", {"players": players}).min_utility()


# ------------------------------------------------------------------ matches in both


def choose(rng: random.Random, outcomes: list[tuple[int, float]]) -> int:
    return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]


def close(xs: list[float], ys: list[float]) -> bool:
    """Equal chances (pytest.approx, called at every chance node, would be a quarter of the run)."""
    return len(xs) == len(ys) and all(abs(x - y) < 1e-9 for x, y in zip(xs, ys))


def by_card(m: Mapping, cards: list[int], probabilities: list[float]) -> dict[int, float]:
    """A chance node's cards as OpenSpiel's: each kind of card with the sum of its copies' chances."""
    out: dict[int, float] = {}
    for c, p in zip(cards, probabilities):
        out[m.card[c]] = out.get(m.card[c], 0.0) + p
    return out


def observed(text: str) -> tuple[Counter[int], int, int, list[int], str | None]:
    """OpenSpiel's observation string: the hand, the previous card and suit, every player's number of
    cards (from the observer round), and the direction (with special cards)."""
    lines = text.splitlines()
    hand: Counter[int] = Counter()
    for suit, line in enumerate(lines[1:5]):
        row = line[len("Suit C: "):]
        for ch in row:
            if ch != " ":
                hand[OS_RANKS.index(ch) * 4 + suit] += 1
    card = lines[5].split(": ")[1]
    previous = OS_RANKS.index(card[1]) * 4 + OS_SUITS.index(card[0])
    suit = OS_SUITS.index(lines[6].split(": ")[1])
    counts = [int(x) for x in lines[7].split(": ")[1].removesuffix(" cards.").split(", ")]
    direction = lines[8].split(" is ")[1] if len(lines) > 8 else None
    return hand, previous, suit, counts, direction


class Both:
    """One match in both engines, moves and chance drawn from one seed."""

    def __init__(self, seed: int, g: Game, m: Mapping, ref_game: Any, options: dict[str, Any]) -> None:
        self.rng = random.Random(seed)
        self.g, self.m, self.n = g, m, g.num_players()
        self.options = {**DEFAULTS, **options}
        self.ref = ref_game.new_initial_state()
        self.s = State.initial(g, None)
        self.seed = seed
        self.steps = 0
        self.eights_turned = 0  # eights OpenSpiel turned up and put back

    def where(self) -> str:
        return f"seed {self.seed}, step {self.steps}"

    def play(self) -> tuple[list[float], str]:
        """Plays to the end; the returns and how the match ended."""
        self.deal()
        while not self.ref.is_terminal():
            self.decision()
            self.steps += 1
        assert self.s.is_terminal(), self.where()
        assert self.s.returns() == self.ref.returns(), self.where()
        if any(len(self.s.zone_cards("hand", p)) == 0 for p in range(self.n)):
            how = "out"
        elif self.s.var("plays") >= self.options["max_turns"]:
            how = "max_turns"
        else:
            how = "passes"
        return self.s.returns(), how

    def shuffles(self) -> tuple[list[int], list[dict[int, float]]]:
        """The rule file's chance nodes up to its next decision, drawn here: the outcomes, and what each
        node offered (as OpenSpiel's cards with their chances)."""
        drawn: list[int] = []
        offers: list[dict[int, float]] = []
        while self.s.is_chance_node():
            mine = self.s.chance_outcomes()
            offers.append(by_card(self.m, [c for c, _ in mine], [p for _, p in mine]))
            drawn.append(choose(self.rng, mine))
            self.s.apply_action(drawn[-1])
        return drawn, offers

    def give(self, card: int, stock: Counter[int]) -> None:
        """OpenSpiel's chance node: its outcomes are the cards of `stock` with their shares; it gets `card`."""
        where = self.where()
        assert self.ref.is_chance_node(), where
        stock = +stock  # the kinds of card left
        total = sum(stock.values())
        got = dict(self.ref.chance_outcomes())
        assert got.keys() == stock.keys(), where
        assert close([got[a] for a in sorted(got)], [stock[a] / total for a in sorted(got)]), where
        self.ref.apply_action(card)

    def deal(self) -> None:
        """The dealer, the rule file's shuffle and deal, and the same deal given to OpenSpiel."""
        s, ref, m, where = self.s, self.ref, self.m, self.where()
        outcomes = ref.chance_outcomes()  # the dealer
        mine = s.chance_outcomes()
        assert [i for i, _ in mine] == sorted(a - DEALER for a, _ in outcomes), where
        assert close([p for _, p in mine], [p for _, p in sorted(outcomes)]), where
        a = choose(self.rng, outcomes)
        s.apply_action(a - DEALER)
        ref.apply_action(a)
        drawn, offers = self.shuffles()  # the shuffle from the top down, and a reshuffle after eights
        pack = len(self.g.card_names)
        order = drawn[:pack - 1]
        order += sorted(set(range(pack)) - set(order))  # the last card, which the shuffle's nodes leave
        dealt = self.n * (7 if self.n == 2 else 5)
        for k in range(dealt):  # node by node: the same cards offered, the same card given
            got = dict(ref.chance_outcomes())
            assert got.keys() == offers[k].keys(), where
            assert close([got[a] for a in sorted(got)], [offers[k][a] for a in sorted(got)]), where
            ref.apply_action(m.card[order[k]])
        stock = Counter(m.card[c] for c in order[dealt:])
        k = dealt
        while m.card[order[k]] // 4 == EIGHT:  # an eight on top: OpenSpiel puts it back and turns again
            self.give(m.card[order[k]], stock)
            self.eights_turned += 1
            k += 1
        self.give(m.card[order[k]], stock)
        assert s.zone_cards("discard") == [order[k]], where
        stock[m.card[order[k]]] -= 1
        assert +stock == Counter(m.card[c] for c in s.zone_cards("stock")), where

    def decision(self) -> None:
        s, ref, m, where = self.s, self.ref, self.m, self.where()
        assert not s.is_chance_node() and not s.is_terminal() and not ref.is_chance_node(), where
        p = ref.current_player()
        assert s.current_player() == p, where
        legal = ref.legal_actions()
        assert {m.action[a] for a in s.legal_actions()} == set(legal), where
        self.position(p)
        a = self.rng.choice(legal)
        stock = Counter(m.card[c] for c in s.zone_cards("stock"))
        discard = s.zone_cards("discard")
        held = len(s.zone_cards("hand", p))
        s.apply_action(next(b for b in s.legal_actions() if m.action[b] == a))
        self.shuffles()  # a stock refilled from the discard pile (reshuffle) is shuffled
        ref.apply_action(a)
        drawn = s.zone_cards("hand", p)[held:] if a == DRAW else []
        for c in drawn:  # OpenSpiel deals each card drawn: the card the rule file drew
            self.give(m.card[c], stock)
            stock[m.card[c]] -= 1
            if not +stock and self.options["reshuffle"]:
                stock = Counter(m.card[d] for d in discard[:-1])
        assert not ref.is_chance_node(), where  # as many cards drawn in both
        if drawn:
            assert +stock == Counter(m.card[c] for c in s.zone_cards("stock")), where

    def position(self, p: int) -> None:
        """What the player to act sees in OpenSpiel is what the rule file holds."""
        s, m, where = self.s, self.m, self.where()
        hand, previous, suit, counts, direction = observed(self.ref.observation_string(p))
        assert Counter(m.card[c] for c in s.zone_cards("hand", p)) == hand, where
        top = s.zone_cards("discard")[-1]
        assert m.card[top] == previous, where
        named = s.var("named_suit")
        assert (SUITS.index(named) if named is not None else m.card[top] % 4) == suit, where
        assert [len(s.zone_cards("hand", (p + i) % self.n)) for i in range(self.n)] == counts, where
        if self.options["use_special_cards"]:
            assert direction == ("clockwise" if s.var("reversed") else "counterclockwise"), where


def play_matches(players: int, options: dict[str, Any], games: int, seed0: int) -> Counter[str]:
    """How the matches ended, and in how many OpenSpiel turned up an eight first ('eights')."""
    g = crazy_eights(players, options)
    m = Mapping(g)
    ref_game = pyspiel.load_game("crazy_eights", {"players": players, **options})
    seen: Counter[str] = Counter()
    for seed in range(seed0, seed0 + games):
        both = Both(seed, g, m, ref_game, options)
        _, how = both.play()
        seen[how] += 1
        seen["eights"] += both.eights_turned > 0
    return seen


def test_random_matches_play_as_openspiel() -> None:
    seen = play_matches(5, {}, GAMES, 0)
    assert seen["out"] + seen["passes"] + seen["max_turns"] == GAMES
    if GAMES >= 300:
        # Both ways a game with the default rules ends were played, a player out of cards and a round of
        # passes with the stock empty (five players never play a hundred cards), and some deals turned
        # up an eight first.
        assert seen["out"] and seen["passes"] and seen["eights"], seen


@pytest.mark.parametrize(("players", "options"), SETTINGS, ids=[
    f"{n}p-" + ("-".join(f"{k}={v}" for k, v in o.items()) or "defaults") for n, o in SETTINGS])
def test_random_matches_play_as_openspiel_at_other_settings(players: int, options: dict[str, Any]) -> None:
    seen = play_matches(players, options, OTHER_GAMES, 1000)
    assert seen["out"] + seen["passes"] + seen["max_turns"] == OTHER_GAMES
