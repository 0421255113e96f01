"""A plain, hand-written Whist: the reference tests/test_whist_reference.py plays games/whist.yaml against.

Written from the rules, not from the rule file (Pagat's "Whist" page; the Laws of Short Whist for honours
and the value of a game), in the manner of the team's hand-written Hearts (shared/bench/pyhearts.py), so
that the two are two readings of the same rules: it deals, finds trumps, checks following suit, decides
tricks and scores in its own way.

The rules: four players, P0 and P2 partners against P1 and P3. The first dealer is cut for; the deal
passes to the left. The dealer deals the 52 cards one at a time, starting with the player on the left, so
the dealer gets the last card, which is turned up: its suit is trumps for the deal (the dealer keeps it).
The player on the dealer's left leads; each player must follow suit if able, otherwise may play any card;
the trick goes to the highest trump in it, or if there is none to the highest card of the suit led, and
its winner leads next. After thirteen tricks the side that took more than six (the book) scores a point
for each trick over six. With honours, a side whose players were dealt all four of the A, K, Q, J of
trumps scores 4, three of them 2; a side that was one point short of game when the deal began scores none,
and tricks score first: if they end the game, honours are not scored. The first side to reach the target
wins the game, worth 3 if the losers have no point, 2 if they have less than half the target, else 1;
each winner gains that and each loser loses it.

Its interface is OpenSpiel's: `current_player()` (CHANCE, TERMINAL or a seat), `legal_actions()`,
`apply(action)`, `returns()`. A card is `suit * 13 + rank`, suits clubs, diamonds, hearts, spades
(SUITS) and ranks 2 to A (RANKS). Chance comes as the cut (the first dealer's seat), then for each deal
the 52 cards in the order they are dealt.
"""

from __future__ import annotations

from collections import Counter

CHANCE = -1
TERMINAL = -4
SUITS = ("clubs", "diamonds", "hearts", "spades")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
HONOURS = ("J", "Q", "K", "A")


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def card_name(card: int) -> str:
    return f"{RANKS[rank_of(card)]} of {SUITS[suit_of(card)]}"


def side_of(player: int) -> int:
    return player % 2


class Whist:
    def __init__(self, target: int = 5, honours: bool = True) -> None:
        self.target = target
        self.count_honours = honours
        self.phase = "cut"
        self.score = [0, 0]
        self.dealer = -1
        self.deals = 0
        self.holder: list[int | None] = [None] * 52
        self.dealt = 0
        self.trump = -1
        self.turned = -1
        self.held = [0, 0]
        self.tricks = [0, 0]
        self.score_at_start = [0, 0]  # honours depend on it: a side one point short of game scores none
        self.trick: list[tuple[int, int]] = []  # (player, card) in the order played
        self.leader = -1
        self.cur = -1
        self.events: Counter[str] = Counter()  # which scoring rules came into play, for the tests' coverage

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.phase in ("cut", "deal"):
            return CHANCE
        return self.cur

    def hand(self, p: int) -> list[int]:
        return [c for c in range(52) if self.holder[c] == p]

    def legal_actions(self) -> list[int]:
        if self.phase == "cut":
            return [0, 1, 2, 3]
        if self.phase == "deal":
            return [c for c in range(52) if self.holder[c] is None]
        if self.phase == "over":
            return []
        cards = self.hand(self.cur)
        if self.trick:
            led = suit_of(self.trick[0][1])
            following = [c for c in cards if suit_of(c) == led]
            if following:
                return following
        return cards

    def apply(self, a: int) -> None:
        if self.phase == "cut":
            self.dealer = a
            self._new_deal()
        elif self.phase == "deal":
            self._deal_card(a)
        elif self.phase == "play":
            assert a in self.legal_actions(), (self.cur, card_name(a))
            self._play(a)
        else:
            raise ValueError("the game is over")

    def _new_deal(self) -> None:
        self.deals += 1
        self.phase = "deal"
        self.holder = [None] * 52
        self.dealt = 0
        self.tricks = [0, 0]
        self.held = [0, 0]
        self.score_at_start = list(self.score)

    def _deal_card(self, c: int) -> None:
        # One at a time, clockwise from the dealer's left: the 52nd card goes to the dealer.
        to = (self.dealer + 1 + self.dealt) % 4
        self.holder[c] = to
        self.dealt += 1
        if self.dealt < 52:
            return
        self.turned = c
        self.trump = suit_of(c)
        for card in range(52):
            if suit_of(card) == self.trump and RANKS[rank_of(card)] in HONOURS:
                holder = self.holder[card]
                assert holder is not None
                self.held[side_of(holder)] += 1
        self.phase = "play"
        self.leader = self.cur = (self.dealer + 1) % 4
        self.trick = []

    def _beats(self, card: int, best: int) -> bool:
        """Whether `card`, played after `best`, takes the trick from it."""
        if suit_of(card) == suit_of(best):
            return rank_of(card) > rank_of(best)
        return suit_of(card) == self.trump

    def _play(self, c: int) -> None:
        self.holder[c] = -1
        self.trick.append((self.cur, c))
        if len(self.trick) < 4:
            self.cur = (self.cur + 1) % 4
            return
        winner, best = self.trick[0]
        for p, card in self.trick[1:]:
            if self._beats(card, best):
                winner, best = p, card
        self.tricks[side_of(winner)] += 1
        self.trick = []
        self.leader = self.cur = winner
        if sum(self.tricks) == 13:
            self._end_deal()

    def _end_deal(self) -> None:
        side = 0 if self.tricks[0] > 6 else 1
        self.score[side] += self.tricks[side] - 6
        for s in (0, 1):
            points = {4: 4, 3: 2}.get(self.held[s], 0)
            if not points or not self.count_honours:
                continue
            if self.score[side] >= self.target:
                self.events["honours held when tricks ended the game"] += 1
            elif self.score_at_start[s] >= self.target - 1:
                self.events["honours held one point short of game"] += 1
            else:
                self.score[s] += points
                self.events[f"{points} for honours"] += 1
                if self.score[s] >= self.target:
                    self.events["game won by honours"] += 1
        if max(self.score) >= self.target:
            self.phase = "over"
        else:
            self.dealer = (self.dealer + 1) % 4
            self._new_deal()

    def winning_side(self) -> int | None:
        if self.phase != "over":
            return None
        return 0 if self.score[0] >= self.target else 1

    def value(self) -> int:
        """What the game is worth to each winner: a treble, a double or a single."""
        w = self.winning_side()
        assert w is not None
        losers = self.score[1 - w]
        if losers == 0:
            return 3
        if losers < self.target / 2:
            return 2
        return 1

    def returns(self) -> list[float]:
        w = self.winning_side()
        if w is None:
            return [0.0] * 4
        v = self.value()
        return [float(v if side_of(p) == w else -v) for p in range(4)]
