"""A rule file that loaded keeps loading when the library grows (issue 31, part 8; dsl/checker.py FIRST_LIBRARY).

A file with a constant named `subsets` loaded until the library gained `subsets(...)`, and then failed with
C022. The names the library gained after the language's first release are the file's own where it uses
them: a value's name is read as the file's value, a `define:` function's name is called as the file's
function; `validate` warns (W011). The library's first names stay refused, as before (C021, C022, C020)."""

from __future__ import annotations

import random

import pytest
from cardsmith.dsl.checker import FIRST_LIBRARY
from cardsmith.dsl.library import LIBRARY
from cardsmith.dsl.pipeline import compile_text
from cardsmith.engine.game import Game

GAME = """\
game: L
players: 2
options:
  packings: {type: int, default: 1, min: 0, max: 3}
constants:
  subsets: 2
deck:
  suits: [a, b]
  ranks: ['1', '2', '3']
zones:
  stock: {}
  hand: {per_player: true}
  combinations: {}
variables:
  teammates: {type: number}
define:
  sitting_out(h): len([c for c in h if c.rank_index >= subsets])
actions:
  play:
    params: {card: "hand[player]"}
    effect:
      - move card to combinations
      - teammates = sitting_out(combinations) + packings + len(subsets(combinations)) + len(teammates(player))
phases:
  main:
    actions: [play]
    after:
      - if: len(hand[player]) == 0
        then: [end deal]
match:
  deal: [move pack to stock, shuffle stock, deal 3 from stock to hand, goto main]
  over_when: deal_number >= 1
  winners: players
"""


def test_the_first_library_is_a_part_of_the_library() -> None:
    assert FIRST_LIBRARY <= set(LIBRARY)
    assert {"subsets", "combinations", "packings", "teammates", "sitting_out"} <= set(LIBRARY) - FIRST_LIBRARY


def test_names_the_library_gained_later_are_the_files_own() -> None:
    loaded = compile_text(GAME, "l.yaml")
    assert loaded.ok and loaded.game is not None, loaded.diagnostics
    game = Game(loaded.game, 2)
    s = game.new_initial_state(3)
    rng = random.Random(3)
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
            continue
        s.apply_action(rng.choice(s.legal_actions()))
    # after the last move: sitting_out (the file's) counts the cards of rank '3' (index 2 >= subsets = 2);
    # packings (the option) is 1; subsets(...) (the library) of n cards is 2**n; teammates(P) (the library) []
    played = [game.card_names[c] for c in s.z[game.slot_of("zone", "combinations", None)]]
    threes = sum(name.startswith("3 ") for name in played)
    assert s.v[game.slot_of("var", "teammates", None)] == threes + 1 + 2 ** len(played) + 0


def test_validate_warns_which_meaning_each_name_has() -> None:
    loaded = compile_text(GAME, "l.yaml", warnings=True)
    got = sorted((d.code, d.span.line, d.message) for d in loaded.diagnostics)
    assert got == [
        ("W011", 4, "option 'packings' has the name of the library function 'packings': 'packings' in this file "
                    "is this option, and packings(...) still calls the library"),
        ("W011", 6, "constant 'subsets' has the name of the library function 'subsets': 'subsets' in this file "
                    "is this constant, and subsets(...) still calls the library"),
        ("W011", 13, "zone 'combinations' has the name of the library function 'combinations': 'combinations' "
                     "in this file is this zone, and combinations(...) still calls the library"),
        ("W011", 15, "variable 'teammates' has the name of the library function 'teammates': 'teammates' in "
                     "this file is this variable, and teammates(...) still calls the library"),
        ("W011", 17, "function 'sitting_out' hides the library function 'sitting_out': sitting_out(...) in this "
                     "file calls this function"),
    ]


@pytest.mark.parametrize(("edit", "code"), [
    (("  subsets: 2\n", "  subsets: 2\n  top: 3\n"), "C022"),
    (("  teammates: {type: number}\n", "  teammates: {type: number}\n  first: {type: number}\n"), "C021"),
    (("  sitting_out(h):", "  sort(h):"), "C021"),
])
def test_the_first_librarys_names_stay_refused(edit: tuple[str, str], code: str) -> None:
    loaded = compile_text(GAME.replace(*edit), "l.yaml")
    assert [d.code for d in loaded.diagnostics][0] == code


def test_a_local_may_have_a_name_the_library_gained_later() -> None:
    text = GAME.replace("  packings: {type: int", "  extra: {type: int").replace("+ packings +", "+ extra +")
    text = text.replace("len([c for c in h if c.rank_index >= subsets])",
                        "let packings = [c for c in h if c.rank_index >= subsets]; len(packings)")
    loaded = compile_text(text, "l.yaml")
    assert loaded.ok, loaded.diagnostics
