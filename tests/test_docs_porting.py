"""docs/porting.md's meld recipe does what the page says, not only validates (tests/test_docs.py does that).

The `mini` block holding the `lay` action is merged into the game of language.md section 1, as
tests/test_docs.py merges it, with a phase that offers it; a scenario then lays a run in one move and
checks the legal moves and the points `deadwood` leaves.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from cardsmith.scenario.runner import run_file
from conftest import ROOT
from test_docs import _blocks, _mini_base, _yaml_data, merge

SCENARIO = """\
game: meld.yaml
scenarios:
  - name: lay a run in one move
    players: 2
    dealer: P0
    set:
      hand[1]: [7 of hearts, 8 of hearts, 9 of hearts, 7 of clubs, 7 of spades, A of diamonds]
    steps:
      - expect:
          legal: ["lay [7 of hearts, 7 of spades, 7 of clubs]", "lay [7 of hearts, 8 of hearts, 9 of hearts]"]
          # The run leaves 7, 7 and A (1 + 1 + 8); the set of 7s would leave 8, 9 and A (2 + 3 + 8).
          eval: {"deadwood(hand[1])": 10, "len(melds_in(hand[1]))": 2}
      - P1: lay [7 of hearts, 8 of hearts, 9 of hearts]
      - expect:
          melds: [[7 of hearts, 8 of hearts, 9 of hearts]]
          table: [7 of hearts, 8 of hearts, 9 of hearts]
          eval: {"deadwood(hand[1])": 10, "len(melds_in(hand[1]))": 0}
"""


def test_the_meld_recipe_lays_a_run(tmp_path: Path) -> None:
    [block] = [b for b in _blocks(ROOT / "docs" / "porting.md") if b.kind == "mini" and "lay:" in b.text]
    game = merge(_yaml_data("language.md", _mini_base()), _yaml_data(block.where, block.text))
    game["phases"] = {"melding": {"first": "left(dealer)", "next": "same", "actions": ["lay"]},
                      **game["phases"]}
    game["match"]["deal"] = ["move pack to stock", "deal 6 from stock to hand", "goto melding"]
    (tmp_path / "meld.yaml").write_text(yaml.safe_dump(game, sort_keys=False), encoding="utf-8")
    (tmp_path / "s.yaml").write_text(SCENARIO, encoding="utf-8")
    results = run_file(str(tmp_path / "s.yaml"))
    assert len(results) == 1 and results[0].ok, results[0].message
