"""What the move-for-move tests against pyspiel share (`tests/test_*_openspiel.py`).

Each OpenSpiel card game numbers its pack in its own suit and rank orders, one of two ways: rank-major
(Hearts, Euchre, Oh Hell, Crazy Eights: rank * suits + suit) or suit-major (Spades, Cribbage, Gin Rummy:
suit * ranks + rank), and writes a card as two letters, rank first or suit first. Both sides are loaded
from a rule file's options and OpenSpiel's parameters, and both deal a card a chance node.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest
from cardsmith.engine.game import Game
from cardsmith.engine.state import State
from conftest import ROOT, compiled


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


def config_id(players: int, params: dict[str, Any]) -> str:
    """A test id for a player count and OpenSpiel's parameters: '3p,num_tricks_fixed=1'."""
    return ",".join([f"{players}p"] + [f"{k}={v}" for k, v in params.items()])


def load_both(rule_file: str, openspiel_name: str, option_of: Mapping[str, str], players: int,
              params: dict[str, Any]) -> tuple[Game, Any]:
    """cardsmith's game (`games/RULE_FILE`, each parameter given as the option `option_of` names) and OpenSpiel's."""
    import pyspiel  # the tests that call this have skipped already if it is missing

    options = {option_of[k]: v for k, v in params.items()}
    g = Game(compiled(str(ROOT / "games" / rule_file)), players, options)
    return g, pyspiel.load_game(openspiel_name, {"players": players, **params})


def deal_card(s: State, ref: Any, card: Mapping[int, int], rng: random.Random, where: str) -> int:
    """A card dealt in both: OpenSpiel's chance node `ref` offers the cards of the rule file's shuffle step
    in `s` (mapped by `card`) at the same odds. Draws one, applies it to `s` and returns OpenSpiel's id;
    applying it to `ref` is the caller's."""
    outcomes = ref.chance_outcomes()
    mine = s.chance_outcomes()
    assert sorted(card[c] for c, _ in mine) == sorted(a for a, _ in outcomes), where
    assert [p for _, p in mine] == pytest.approx([p for _, p in outcomes]), where
    a: int = rng.choice([a for a, _ in outcomes])
    s.apply_action(next(c for c, _ in mine if card[c] == a))
    return a
