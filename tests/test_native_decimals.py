"""Numbers with decimals on the native backend: a variable's `+=` and `-=` read the variable itself (they read
the whole-number variable of the same slot), and `mod` and `//` keep the decimals as Python's float `%` and `//`
do (they were cut to whole numbers: `x mod 1.5` of x below 1 failed with "modulo by zero"). A rule file doing
each, with values of both signs, plays the same matches, returns included, on both backends. Needs g++ and
pybind11."""

from __future__ import annotations

from pathlib import Path

import cardsmith
import pytest
from cardsmith.native import build
from cardsmith.native.difftest import compare

pytestmark = [pytest.mark.skipif(build.missing() is not None, reason=f"{build.missing()}"), pytest.mark.slow]

DECIMALS = """\
game: Decimals
players: 2
deck:
  suits: [clubs, hearts]
  ranks: ['2', '3', '4', '5']
zones:
  stock: {visible: nobody}
  hand: {per_player: true, visible: owner}
  pile: {}
variables:
  x: {type: number}
  y: {type: number}
  z: {type: number}
actions:
  lay:
    params: {c: "hand[player]"}
    effect:
      - move c to pile
      - x += c.rank_index / 2 + 0.25
      - x -= 0.5
      - y = (x - 3.3) mod 1.5 + x mod -0.7
      - z = x // 0.7 + (x - 5.1) // 1.5
phases:
  main:
    first: left(dealer)
    actions: [lay]
    after:
      - if: len(pile) == len(pack)
        then: [end deal]
match:
  deal:
    - move pack to stock
    - shuffle stock
    - deal 4 from stock to hand
    - goto main
  over_when: deal_number >= 2
  winners: "if x + y > z then [0] else [1]"
  returns:
    value: "if p == 0 then x + y else z - x"
"""


def test_numbers_with_decimals_play_the_same_on_both_backends(tmp_path: Path) -> None:
    path = tmp_path / "decimals.yaml"
    path.write_text(DECIMALS)
    py = cardsmith.load(path, players=2)
    nat = cardsmith.load(path, players=2, backend="native")
    matches, nodes, diff = compare(py, nat, 60, 3)
    assert diff is None, diff
    assert matches == 60 and nodes > 60 * 16
    s = py.new_initial_state(5)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    assert s.returns()[0] != int(s.returns()[0])  # the results keep their decimals
