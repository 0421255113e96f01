"""OpenSpiel's card numberings, for the move-for-move tests against pyspiel (`tests/test_*_openspiel.py`).

Each OpenSpiel card game numbers its pack in its own suit and rank orders, one of two ways: rank-major
(Hearts, Euchre, Oh Hell, Crazy Eights: rank * suits + suit) or suit-major (Spades, Cribbage, Gin Rummy:
suit * ranks + rank), and writes a card as two letters, rank first or suit first.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Numbering:
    suits: tuple[str, ...]  # cardsmith's suit names, in OpenSpiel's order
    ranks: tuple[str, ...]  # cardsmith's rank names, in OpenSpiel's order
    suit_letters: str  # OpenSpiel's letter of each suit, in that order
    rank_letters: str
    rank_major: bool  # an id is rank * suits + suit (else suit * ranks + rank)
    suit_first: bool = False  # OpenSpiel writes the suit's letter first

    def id(self, name: str) -> int:
        """OpenSpiel's id of a card named as cardsmith names it ('10 of clubs', '8 of hearts #2')."""
        rank, suit = name.split(" #")[0].split(" of ")
        r, s = self.ranks.index(rank), self.suits.index(suit)
        return r * len(self.suits) + s if self.rank_major else s * len(self.ranks) + r

    def text(self, card: int) -> str:
        """OpenSpiel's two letters for its card id."""
        if self.rank_major:
            r, s = divmod(card, len(self.suits))
        else:
            s, r = divmod(card, len(self.ranks))
        rank, suit = self.rank_letters[r], self.suit_letters[s]
        return suit + rank if self.suit_first else rank + suit

    def text_of(self, name: str) -> str:
        """OpenSpiel's two letters for a card named as cardsmith names it."""
        return self.text(self.id(name))
