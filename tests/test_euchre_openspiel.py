"""games/euchre.yaml plays as OpenSpiel's `euchre`, with its default parameters and with the others.

Seeded random matches are played in both at once: every chance outcome and every move is drawn from
OpenSpiel's state and given to both, mapped between the two numberings, and at every step the player to
act, the chance outcomes and the legal moves are the same; after the deal both hold the same hands and
up card; at the end both are over and their returns are equal.

The numberings: OpenSpiel's card id is rank * 4 + suit (suits C, D, H, S; ranks 9 to A); cardsmith's
cards are numbered in pack order. OpenSpiel's actions are the cards (a discard or a card played), 24
pass, 25 to 28 a trump suit (clubs to spades: ordering up the up card in the first round, naming a suit
in the second), 29 alone and 30 with the partner; cardsmith's are `pass`, `order up` (`pick up` for the
dealer), `name SUIT`, `discard CARD`, `go alone`, `defend alone`, `play with partner` and `play CARD`,
so `order up` and `pick up` are 25 plus the up card's suit. OpenSpiel's first chance node is the dealer
(0 to 3), as the positions of the rule file's `pick d from players`; then it deals 20 cards one chance
node each, to the dealer first and on to the left, and a 21st, the up card. The rule file shuffles and
deals the top cards in the same order, then turns up the next; a state made without a seed deals a
shuffled pack lazily, a chance node per card as it is dealt, so its chance nodes are OpenSpiel's one for
one: the three cards left in the kitty, which nobody sees, are never ordered.

By default 1000 matches with the default parameters and 333 with each other setting of
allow_lone_defender and stick_the_dealer, and a tenth as many of each setting in which players pass
nine times in ten (to reach stick the dealer and deals everyone passes); EUCHRE_GAMES=N plays N, N/3
and N/10 (`EUCHRE_GAMES=10000 python -m pytest tests/test_euchre_openspiel.py`), as
tests/test_hearts_openspiel.py takes HEARTS_GAMES.
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
from openspiel_cards import Numbering, deal_card  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.rl]

GAMES = int(os.environ.get("EUCHRE_GAMES", "1000"))
SUITS = ["clubs", "diamonds", "hearts", "spades"]
RANKS = ["9", "10", "J", "Q", "K", "A"]
OS_RANKS = "9TJQKA"
OS_SUITS = "CDHS"
PASS, TRUMP, ALONE, PARTNER = 24, 25, 29, 30
DEALT = 20  # OpenSpiel's chance nodes 1 to 20 deal the hands, the 21st turns up a card
# The parameters that are table options, each setting played: the defaults, then the others.
SETTINGS = [
    {"allow_lone_defender": False, "stick_the_dealer": True},
    {"allow_lone_defender": True, "stick_the_dealer": True},
    {"allow_lone_defender": False, "stick_the_dealer": False},
    {"allow_lone_defender": True, "stick_the_dealer": False},
]


def euchre(options: dict[str, Any] | None = None) -> Game:
    return Game(compiled(str(ROOT / "games" / "euchre.yaml")), 4, options)


CARDS = Numbering(tuple(SUITS), tuple(RANKS), OS_SUITS, OS_RANKS, rank_major=True, suit_first=True)
os_card = CARDS.id  # OpenSpiel's id of a card named as cardsmith names it ('10 of clubs')


class Mapping:
    """cardsmith's card ids as OpenSpiel's, and its actions as OpenSpiel's given the up card's suit."""

    def __init__(self, g: Game) -> None:
        self.card = {c: os_card(name) for c, name in enumerate(g.card_names)}
        self.text = [g.action_to_string(None, a) for a in range(g.num_distinct_actions())]

    def action(self, a: int, upcard: int) -> int:
        label, _, arg = self.text[a].partition(" ")
        if self.text[a] == "pass":
            return PASS
        if self.text[a] in ("order up", "pick up"):
            return TRUMP + upcard % 4
        if label == "name":
            return TRUMP + SUITS.index(arg)
        if self.text[a] in ("go alone", "defend alone"):
            return ALONE
        if self.text[a] == "play with partner":
            return PARTNER
        assert label in ("discard", "play"), self.text[a]
        return os_card(arg)


def test_card_ids_match_openspiel_card_strings() -> None:
    g = euchre()
    ref = pyspiel.load_game("euchre").new_initial_state()
    ref.apply_action(0)  # after the dealer, actions print as cards
    m = Mapping(g)
    assert sorted(m.card.values()) == list(range(24))
    for c, name in enumerate(g.card_names):
        assert ref.action_to_string(m.card[c]) == CARDS.text_of(name)
    assert {m.action(a, 0) for a in range(g.num_distinct_actions())} == set(range(31))
    assert [ref.action_to_string(a) for a in range(24, 31)] == [
        "Pass", "Clubs", "Diamonds", "Hearts", "Spades", "Alone", "Partner"]


def test_the_game_declares_openspiels_parameters_and_returns() -> None:
    g = euchre()
    ref = pyspiel.load_game("euchre")
    assert ref.get_parameters() == SETTINGS[0]
    assert {k: g.options[k] for k in SETTINGS[0]} == SETTINGS[0]
    assert ref.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert g.zero_sum and g.utility_sum == 0
    assert (g.min_utility, g.max_utility) == (ref.min_utility(), ref.max_utility()) == (-4.0, 4.0)


def play_both(seed: int, g: Game, m: Mapping, ref_game: Any, pass_rate: float = 0.0) -> tuple[State, int]:
    """One match in both, chance and moves drawn from `seed`; cardsmith's final state and the passes made.

    With `pass_rate`, a player who may pass does so that often (a uniform choice otherwise), so that
    the bidding goes round twice often enough to reach stick the dealer and deals everyone passes.
    """
    rng = random.Random(seed)
    passes = 0
    ref = ref_game.new_initial_state()
    s = State.initial(g, None)
    steps = 0
    deal_checked = False
    dealt: dict[int, list[int]] = {p: [] for p in range(4)}
    while not ref.is_terminal():
        where = f"seed {seed}, step {steps}"
        if ref.is_chance_node():
            outcomes = ref.chance_outcomes()
            assert s.is_chance_node(), where
            mine = s.chance_outcomes()
            if steps == 0:  # the dealer: positions of the pick from players
                assert sorted(mine) == sorted(outcomes), where
                a = rng.choice([a for a, _ in outcomes])
                s.apply_action(a)
            else:
                a = deal_card(s, ref, m.card, rng, where)
                if steps <= DEALT:  # OpenSpiel deals to the dealer first, then to the left
                    dealt[(ref.history()[0] + steps - 1) % 4].append(a)
            ref.apply_action(a)
        else:
            assert not s.is_chance_node() and not s.is_terminal(), where
            if not deal_checked:  # the deal is over in both: the same hands and up card
                assert steps == DEALT + 2, where
                for p in range(4):
                    assert sorted(m.card[c] for c in s.zone_cards("hand", p)) == sorted(dealt[p]), where
                assert [m.card[c] for c in s.zone_cards("upcard")] == [ref.history()[DEALT + 1]], where
                deal_checked = True
            assert s.current_player() == ref.current_player(), where
            upcard = ref.history()[DEALT + 1]
            legal = [m.action(a, upcard) for a in s.legal_actions()]
            assert len(set(legal)) == len(legal), where  # no two of the rule file's actions are one of OpenSpiel's
            assert sorted(legal) == ref.legal_actions(), where
            a = rng.choice(ref.legal_actions())
            if PASS in legal and rng.random() < pass_rate:
                a = PASS
            passes += a == PASS
            s.apply_action(s.legal_actions()[legal.index(a)])
            ref.apply_action(a)
        steps += 1
    assert s.is_terminal(), f"seed {seed}"
    assert s.returns() == ref.returns(), f"seed {seed}"
    return s, passes


def outcome(s: State) -> tuple[str, int, float]:
    """How the deal ended, read from the rule file's variables: who played alone, the makers' tricks, and the
    makers' points as both engines returned them."""
    maker = s.var("maker")
    if maker is None:
        return "passed out", 0, 0.0
    alone = "lone maker" if s.var("alone") is not None else ""
    alone += " lone defender" if s.var("lone_defender") is not None else ""
    taken = sum(s.var("tricks", q) for q in range(4) if q % 2 == maker % 2)
    return alone.strip() or "partners", taken, s.returns()[maker]


def makers_points(who: str, taken: int) -> int:
    """The makers' points for their tricks: 1 for three or four, 2 for five (4 alone), and 2 lost for fewer
    than three, even none (OpenSpiel's scoring has no super-euchre), 4 against a lone defender."""
    if who == "passed out":
        return 0
    if taken >= 3:
        return 1 if taken < 5 else 4 if "maker" in who else 2
    return -4 if "defender" in who else -2


@pytest.mark.parametrize("setting", range(len(SETTINGS)))
def test_random_matches_play_as_openspiel(setting: int) -> None:
    params = SETTINGS[setting]
    g = euchre(params)
    m = Mapping(g)
    ref_game = pyspiel.load_game("euchre", params)
    games = GAMES if setting == 0 else max(1, GAMES // 3)
    seen: Counter[tuple[str, int, float]] = Counter()
    for seed in range(games):
        seen[outcome(play_both(seed, g, m, ref_game)[0])] += 1
    for who, taken, points in seen:
        assert points == makers_points(who, taken), (who, taken, points)
    if games >= 1000:
        # Every kind of ending the setting allows was reached, for each way of playing alone: the makers
        # took no trick, one or two, three or four, all five (a deal passed out is 1 in 4096).
        bands = {0: "none", 1: "1-2", 2: "1-2", 3: "3-4", 4: "3-4", 5: "all"}
        kinds = {(who, bands[taken]) for who, taken, _ in seen if who != "passed out"}
        ways = ["partners", "lone maker"]
        if params["allow_lone_defender"]:
            ways += ["lone defender", "lone maker lone defender"]
        assert kinds == {(who, band) for who in ways for band in bands.values()}, seen


@pytest.mark.parametrize("setting", range(len(SETTINGS)))
def test_matches_where_players_pass_play_as_openspiel(setting: int) -> None:
    # Random players seldom pass eight times (1 in 4096 deals); players who pass nine times in ten
    # reach the end of the second round in about 4 deals of 10.
    params = SETTINGS[setting]
    g = euchre(params)
    m = Mapping(g)
    ref_game = pyspiel.load_game("euchre", params)
    games = max(1, GAMES // 10)
    stuck = passed_out = 0
    for seed in range(games):
        s, passes = play_both(seed, g, m, ref_game, pass_rate=0.9)
        stuck += passes == 7
        passed_out += passes == 8
        assert (passes == 8) == (outcome(s) == ("passed out", 0, 0.0)) and (passes < 8 or s.returns() == [0.0] * 4)
    if games >= 20:
        # Stick the dealer: the dealer named trumps after seven passes, and no deal was passed out;
        # without it, some deals were.
        if params["stick_the_dealer"]:
            assert stuck > 0 and passed_out == 0
        else:
            assert passed_out > 0
