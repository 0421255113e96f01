"""games/cribbage.yaml plays as OpenSpiel's `cribbage`, with its default parameters and others.

Seeded random matches are played in both at once: every chance outcome and every move is drawn from one
seed and given to both, mapped between the two numberings, and at every step the chance outcomes (with
their probabilities), the player to act and the legal moves are the same; at every decision the position
is too, as OpenSpiel's observation string of the player to act tells it (the deal, the phase, the dealer,
every player's points, the starter, that player's hand, the count and the cards of the play); at the end
both are over and their returns are equal.

The numberings. OpenSpiel's card id is suit * 13 + rank (suits C, D, H, S; ranks A to K), which is the
rule file's pack order, so a card has the same id in both. OpenSpiel's moves are a card (0 to 51: the
card laid away with three or four players, or played), two cards laid away, 52 + 52 * first + second
(the first the lower by rank, then suit), and pass, 2756; the rule file's `play CARD`, `discard [CARD,
CARD]` and `go` have those ids, and its `discard CARD` (three or four players) comes after them: the map
is read from the action texts.

The chance nodes. OpenSpiel deals each card as a chance node of its own (P0's whole hand, then P1's, ...,
with three players one card to the crib), its outcomes the cards left, and turns the starter as one more
node after the discards. The rule file shuffles the stock at each deal, deals from the top and turns the
starter from the top; a state made without a seed deals a shuffled zone lazily, a chance node per card
when it is dealt or turned, so the two have the same chance nodes: at each the test checks that both
offer the same cards with the same chances, and gives both the same card.

By default 150 matches at the default parameters and 15 at each other setting; CRIBBAGE_GAMES=N plays N
and N // 10 (`CRIBBAGE_GAMES=10000 python -m pytest tests/test_cribbage_openspiel.py`).
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

GAMES = int(os.environ.get("CRIBBAGE_GAMES", "150"))
OTHER_GAMES = max(1, GAMES // 10)
PATH = str(ROOT / "games" / "cribbage.yaml")
SUITS = ["clubs", "diamonds", "hearts", "spades"]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
OS_RANKS = "A23456789TJQK"
OS_SUITS = "CDHS"
PASS = 2756

# OpenSpiel's parameter that is a rule is the rule file's option of the same name; the player count is
# the game's. The other options are house rules OpenSpiel does not have (their scenarios are in
# tests/scenarios/cribbage.yaml).
DEFAULTS = {"winner_bonus_reward": 1000}
SETTINGS: list[tuple[int, dict[str, Any]]] = [
    (3, {}), (4, {}),
    (2, {"winner_bonus_reward": 0}), (3, {"winner_bonus_reward": 7}), (4, {"winner_bonus_reward": 15}),
]


CARDS = Numbering(tuple(SUITS), tuple(RANKS), OS_SUITS, OS_RANKS, rank_major=False)
os_card = CARDS.id  # OpenSpiel's id of a card named as cardsmith names it ('10 of clubs')
os_name = CARDS.text  # OpenSpiel's text of its card id ('TC')


class Mapping:
    """cardsmith's card ids and action ids as OpenSpiel's."""

    def __init__(self, g: Game) -> None:
        self.card = {c: os_card(name) for c, name in enumerate(g.card_names)}
        self.action: dict[int, int] = {}
        for a in range(g.num_distinct_actions()):
            text = g.action_to_string(None, a)
            if text == "go":
                self.action[a] = PASS
            elif text.startswith("discard ["):
                first, second = text[len("discard ["):-1].split(", ")
                self.action[a] = 52 + 52 * os_card(first) + os_card(second)
            else:  # play CARD, discard CARD
                self.action[a] = os_card(text.split(" ", 1)[1])


def cribbage(players: int, options: dict[str, Any] | None = None) -> Game:
    return Game(compiled(PATH), players, options or {})


def test_card_and_action_ids_match_openspiels() -> None:
    ref = pyspiel.load_game("cribbage").new_initial_state()
    for players in (2, 3, 4):
        g = cribbage(players)
        m = Mapping(g)
        assert m.card == {c: c for c in range(52)}  # the same card ids
        assert [os_name(m.card[c]) for c in range(52)] == \
            [ref.action_to_string(pyspiel.PlayerId.CHANCE, c).removeprefix("Deal ") for c in range(52)]
        for a, b in m.action.items():
            text = g.action_to_string(None, a)
            theirs = ref.action_to_string(0, b)
            if text == "go":
                assert theirs == "Pass"
            else:
                cards = text.split(" ", 1)[1].strip("[]").split(", ")
                assert theirs == "Choose " + " ".join(os_name(os_card(c)) for c in cards), text
        # With two players the ids are OpenSpiel's themselves (laying one card away comes after them).
        assert all(a == b for a, b in m.action.items() if a <= PASS)
        assert set(m.action.values()) == set(range(PASS + 1))


def test_the_game_declares_openspiels_parameters_and_returns() -> None:
    ref = pyspiel.load_game("cribbage")
    assert ref.get_parameters() == {"players": 2, "winner_bonus_reward": 1000.0}
    assert {o.name: o.default for o in compiled(PATH).spec.options if o.name in DEFAULTS} == DEFAULTS
    assert ref.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (ref.get_type().min_num_players, ref.get_type().max_num_players) == (2, 4)
    for players in (2, 3, 4):
        g = cribbage(players)
        assert not g.zero_sum and g.utility_sum is None
        assert g.num_distinct_actions() == ref.num_distinct_actions() + 52
        # OpenSpiel declares -1149 to 1149; a loser's points are never below 0, so -1000 is the lowest
        # result, and the last move of a match can peg and then count a hand and the crib (with partners
        # two hands and the crib), which can pass 1149: the rule file declares the most it can give.
        assert g.min_utility == -1000.0 >= ref.min_utility()
        assert g.max_utility == 1000 + 120 + 21 + 29 * (3 if players == 4 else 2) >= ref.max_utility()


# ------------------------------------------------------------------ matches in both


def choose(rng: random.Random, outcomes: list[tuple[int, float]]) -> int:
    return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]


def close(xs: dict[int, float], ys: dict[int, float]) -> bool:
    """The same outcomes with the same chances (pytest.approx at every node would cost a quarter of the run)."""
    return xs.keys() == ys.keys() and all(abs(xs[a] - ys[a]) < 1e-9 for a in xs)


class Both:
    """One match in both engines, moves and chance drawn from one seed."""

    def __init__(self, seed: int, g: Game, m: Mapping, ref_game: Any) -> None:
        self.rng = random.Random(seed)
        self.g, self.m, self.n = g, m, g.num_players()
        self.ref = ref_game.new_initial_state()
        self.s = State.initial(g, None)
        self.seed = seed
        self.steps = 0
        self.nodes = 0  # chance nodes of this deal so far
        self.dealt = self.n * (6 if self.n == 2 else 5) + (1 if self.n == 3 else 0)
        self.seen: Counter[str] = Counter()  # what the match reached

    def where(self) -> str:
        return f"seed {self.seed}, step {self.steps}"

    def play(self) -> Counter[str]:
        """Plays to the end; what the match reached, and how it ended."""
        while not self.ref.is_terminal():
            if self.ref.is_chance_node():
                self.chance()
            else:
                self.decision()
            self.steps += 1
        assert self.s.is_terminal(), self.where()
        assert self.s.returns() == self.ref.returns(), self.where()
        if self.s.var("shown"):
            self.seen["won at the show"] += 1
        elif self.g.phases[self.s.phase].name == "discarding":
            self.seen["won by the starter"] += 1
        else:
            self.seen["won in the play"] += 1
        return self.seen

    def chance(self) -> None:
        """A card dealt or turned for the starter, in both: the same cards offered with the same chances."""
        s, ref, m, where = self.s, self.ref, self.m, self.where()
        assert s.is_chance_node(), where
        mine = s.chance_outcomes()
        assert close(dict(ref.chance_outcomes()), {m.card[c]: p for c, p in mine}), where
        c = choose(self.rng, mine)
        s.apply_action(c)
        ref.apply_action(m.card[c])
        self.nodes += 1
        if self.nodes == self.dealt:  # the deal is over: OpenSpiel's hands hold the same cards
            assert not s.is_chance_node() and not ref.is_chance_node(), where
            hands = [sorted(m.card[c] for c in s.zone_cards("hand", p)) for p in range(self.n)]
            dealt = [h[:] for h in hands]
            for c in s.zone_cards("crib"):  # with three players one card is dealt to the crib
                dealt.append([m.card[c]])
            assert sorted(x for h in dealt for x in h) == sorted(ref.history()[-self.dealt:]), where
            self.seen["deals"] += 1
        elif self.nodes == self.dealt + 1:  # the starter: the rule file turned the same card
            assert [m.card[x] for x in s.zone_cards("starter")] == [m.card[c]], where
            self.seen["heels"] += m.card[c] % 13 == RANKS.index("J")
            self.nodes = 0

    def decision(self) -> None:
        s, ref, m, where = self.s, self.ref, self.m, self.where()
        assert not s.is_chance_node() and not s.is_terminal(), where
        p = ref.current_player()
        assert s.current_player() == p, where
        legal = ref.legal_actions()
        mine = {m.action[a]: a for a in s.legal_actions()}
        assert len(mine) == len(s.legal_actions()) and sorted(mine) == legal, where
        self.position(p)
        a = self.rng.choice(legal)
        if a < 52 and self.g.phases[s.phase].name == "play":
            self.seen["31"] += s.var("total") + min(a % 13 + 1, 10) == 31
        s.apply_action(mine[a])
        ref.apply_action(a)

    def position(self, p: int) -> None:
        """What the player to act sees in OpenSpiel is what the rule file holds."""
        s, m, where = self.s, self.m, self.where()
        lines = dict(line.split(":", 1) for line in self.ref.observation_string(p).splitlines())
        fields = {k: v.strip() for k, v in lines.items()}
        assert int(fields["Round"]) == s.deal_no - 1, where
        assert fields["Phase"] == {"discarding": "Card", "play": "Play"}[self.g.phases[s.phase].name], where
        assert int(fields["Dealer"]) == s.dealer, where
        # score is per team: state.var reads per-player variables only, so its slots are read by name.
        scores = [s.v[self.g.var_names.index(f"score[{s.team[q]}]")] for q in range(self.n)]
        assert [float(x) for x in fields["Scores"].split()] == scores, where
        starter = [os_name(m.card[c]) for c in s.zone_cards("starter")]
        assert fields.get("Starter") == (starter[0] if starter else None), where
        assert sorted(fields["Hand"].split()) == sorted(os_name(m.card[c]) for c in s.zone_cards("hand", p)), where
        assert int(fields["Running total"]) == s.var("total"), where
        assert fields["Played cards"].split() == [os_name(m.card[c]) for c in s.zone_cards("series")], where


def play_matches(players: int, options: dict[str, Any], games: int, seed0: int) -> Counter[str]:
    """What the matches reached, added up."""
    g = cribbage(players, options)
    m = Mapping(g)
    ref_game = pyspiel.load_game("cribbage", {"players": players, **{k: float(v) for k, v in options.items()}})
    seen: Counter[str] = Counter()
    for seed in range(seed0, seed0 + games):
        seen += Both(seed, g, m, ref_game).play()
    return seen


def test_random_matches_play_as_openspiel() -> None:
    seen = play_matches(2, {}, GAMES, 0)
    assert seen["won at the show"] + seen["won in the play"] + seen["won by the starter"] == GAMES
    if GAMES >= 100:
        # The rare rules were played: a jack turned up (his heels), a count of exactly 31, and matches won
        # during the play as well as at the show.
        assert seen["heels"] and seen["31"] and seen["won at the show"] and seen["won in the play"], seen


@pytest.mark.parametrize(("players", "options"), SETTINGS, ids=[
    f"{n}p-" + ("-".join(f"{k}={v}" for k, v in o.items()) or "defaults") for n, o in SETTINGS])
def test_random_matches_play_as_openspiel_at_other_settings(players: int, options: dict[str, Any]) -> None:
    seen = play_matches(players, options, OTHER_GAMES, 1000)
    assert seen["won at the show"] + seen["won in the play"] + seen["won by the starter"] == OTHER_GAMES
