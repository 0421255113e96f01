"""W012: a property table's text value that reads as a formula is kept as text, and `validate` says so
(issue 31, part 8). The value itself is unchanged: a table gives its values as written."""

from __future__ import annotations

import pytest
from cardsmith.dsl import abi
from cardsmith.dsl.pipeline import compile_text
from cardsmith.engine.game import Game

GAME = """\
game: P
players: 2
options:
  bonus: {type: int, default: 1, min: 0, max: 3}
constants:
  base: 4
deck:
  suits: [a, b]
  ranks: ['1', '2', Q, K]
  properties:
    value: {by_rank: {Q: 10, K: VALUE}, default: DEFAULT}
zones:
  stock: {}
  hand: {per_player: true}
variables:
  n: {type: number}
actions:
  play:
    params: {card: "hand[player]"}
    effect:
      - if: card.value == 5 or bonus + base > 0
        then: [n = 1]
phases:
  main:
    actions: [play]
    after: [end deal]
match:
  deal: [move pack to stock, deal 1 from stock to hand, goto main]
  over_when: true
  winners: players
"""


def _warned(value: str, default: str = "0") -> list[str]:
    loaded = compile_text(GAME.replace("VALUE", value).replace("DEFAULT", default), "p.yaml", warnings=True)
    assert loaded.ok, loaded.diagnostics
    return [d.message for d in loaded.diagnostics if d.code == "W012"]


@pytest.mark.parametrize("text", ["rank_index + 1", '"bonus * 10"', '"base - 1"', '"value + 1"', '"c.value"',
                                  '"max(1, 2)"', '"2 * 5"', '"if rank == \'K\' then 13 else 0"',
                                  '"num_players * 2"'])
def test_a_formula_kept_as_text_is_warned_about(text: str) -> None:
    plain = text.strip('"')
    assert _warned("12", default=text) == [
        f"the value of 'default' in property 'value' is kept as the text '{plain}', not computed: a 'by_rank' "
        "table gives values as written"]
    assert len(_warned(text)) == 1  # a value of the table too


@pytest.mark.parametrize("text", ["high", "Q-K", '"low card"', "'13'", "13", "true", '"no trumps"', "x_y"])
def test_text_meant_as_text_is_not(text: str) -> None:
    assert _warned(text) == []


def test_the_value_is_still_the_text() -> None:
    loaded = compile_text(GAME.replace("VALUE", "12").replace("DEFAULT", "rank_index + 1"), "p.yaml")
    assert loaded.ok and loaded.game is not None
    game = Game(loaded.game, 2)
    values = game.ns[abi.property_table("value")]
    assert values[game.card_id("1 of a")] == "rank_index + 1" and values[game.card_id("K of b")] == 12
