"""Ranks and suits are ordered as the deck lists them, or not at all (C041, dsl/text_order.py; issue 31, part 8).

They are text at run time, and text puts '10' before '9'. Ordering them is refused where text orders the
deck's ranks (or suits) otherwise than the deck; where the two orders agree, a file orders them as before,
with the same meaning."""

from __future__ import annotations

import pytest
from cardsmith.dsl.pipeline import compile_text
from cardsmith.engine.game import Game
from cardsmith.engine.state import State

GAME = """\
game: O
players: 2
deck:
  suits: SUITS
  ranks: RANKS
zones:
  stock: {}
  hand: {per_player: true}
variables:
  n: {type: number}
  note: {type: text}
define:
  f(h): "EXPR"
actions:
  go:
    effect:
      - n = len([f(hand[0])])
phases:
  main:
    actions: [go]
    after: [end deal]
match:
  deal: [move pack to stock, deal 3 from stock to hand, goto main]
  over_when: true
  winners: players
"""
STANDARD = ("[clubs, hearts]", "['8', '9', '10', J, Q, K, A]")


def _codes(expr: str, suits: str = STANDARD[0], ranks: str = STANDARD[1]) -> list[str]:
    text = GAME.replace("SUITS", suits).replace("RANKS", ranks).replace("EXPR", expr)
    return [d.code for d in compile_text(text, "o.yaml").diagnostics]


@pytest.mark.parametrize("expr", [
    "min_by(h, c => c.rank)",
    "max_by(h, c => c.rank)",
    "all_min_by(h, c => [c.rank_index, c.rank])",
    "sort_by(h, c => if c.rank == 'A' then 'Z' else c.rank)",
    "sort([c.rank for c in h])",
    "max([c.rank for c in h])",
    "min(ranks)",
    "first(h).rank < last(h).rank",
    "first(h).rank >= '10'",
    "[first(h).rank] < [last(h).rank]",
    "let r = first(h).rank; r > 'J'",
])
def test_ranks_ordered_as_text_are_refused(expr: str) -> None:
    assert _codes(expr) == ["C041"]


@pytest.mark.parametrize("expr", [
    "min_by(h, c => c.rank_index)",
    "sort_by(h, c => [c.suit_index, c.rank_index])",
    "first(h).rank == last(h).rank",
    "first(h).rank != 'A' and first(h).rank in ranks",
    "unique([c.rank for c in h])",
    "len(group_by(h, c => c.rank))",
    "min_by(h, c => c.suit)",  # clubs, hearts: text order is the deck's order
    "note < 'x'",  # text is text
])
def test_orders_that_mean_the_deck_order_or_no_order_are_kept(expr: str) -> None:
    assert _codes(expr) == []


def test_suits_listed_otherwise_than_text_are_refused() -> None:
    assert _codes("min_by(h, c => c.suit)", suits="[spades, hearts, diamonds, clubs]") == ["C041"]
    assert _codes("sort_by(h, c => [c.suit, c.rank_index])", suits="[hearts, clubs]") == ["C041"]


def test_a_deck_in_text_order_orders_its_ranks_as_before() -> None:
    """Ranks '1' to '6': text order is the deck's order, so the file loads and means what it meant: the
    same card as by rank_index, for every hand."""
    fns = []
    for key in ("c.rank", "c.rank_index"):
        text = GAME.replace("SUITS", "[a, b]").replace("RANKS", "['1', '2', '3', '4', '5', '6']") \
            .replace("EXPR", f"min_by(h, c => {key})")
        loaded = compile_text(text, "o.yaml")
        assert loaded.ok and loaded.game is not None, loaded.diagnostics
        game = Game(loaded.game, 2)
        fns.append((game.ns["fn_f"], State.initial(game, 5)))
    (by_text, s1), (by_index, s2) = fns
    hands = [[a, b, c] for a in range(12) for b in range(12) for c in range(12) if len({a, b, c}) == 3]
    assert all(by_text(s1, h) == by_index(s2, h) for h in hands)


def test_the_refusal_names_two_ranks_the_orders_disagree_on() -> None:
    text = GAME.replace("SUITS", STANDARD[0]).replace("RANKS", STANDARD[1]).replace("EXPR", "min_by(h, c => c.rank)")
    (d,) = compile_text(text, "o.yaml").diagnostics
    assert d.message == ("the key of 'min_by' would order ranks as text, where '10' comes before '9', not as the "
                         "deck lists them")
    assert d.hint == ("order by the key c => c.rank_index, the rank's place in the deck's 'ranks' (0 first); ranks "
                      "are no longer ordered as text (CHANGELOG.md)")
