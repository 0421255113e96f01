"""Where a `log` message goes (docs/language.md, "log"): into the match's log, which every seat at a table
reads, and into no interface for programs. A message that says something the players cannot see is not
in any player's observation or information state; the same fact in a visible variable is in all of them."""

from __future__ import annotations

from cardsmith import Deal, Setup
from cardsmith.dsl.pipeline import compile_text
from cardsmith.engine.game import Game
from cardsmith.engine.state import State

GAME = """\
game: Told
players: {min: 2, max: 2}
deck: {suits: [clubs, hearts], ranks: ['2', '3', '4', '5', '6']}
zones:
  stock: {visible: nobody}
  hand: {per_player: true, visible: owner}
variables:
  hearts_held: {type: int, per_player: true, visible: VISIBILITY}
actions: {pass: {}}
phases: {main: {first: left(dealer), actions: [pass], after: [end deal]}}
match:
  deal:
    - move pack to stock
    - shuffle stock
    - deal 3 from stock to hand
    - "log 'P0 holds {} hearts', count(hand[0], c => c.suit == 'hearts')"
    - hearts_held[0] = count(hand[0], c => c.suit == 'hearts')
    - goto main
  over_when: true
  winners: players
"""


def told(visibility: str) -> tuple[State, State]:
    """Two deals that differ only in P0's hand, hidden from P1: one heart, then three."""
    loaded = compile_text(GAME.replace("VISIBILITY", visibility), "told.yaml")
    assert loaded.ok and loaded.game is not None, [d.message for d in loaded.diagnostics]
    g = Game(loaded.game, 2)
    hand1 = ["2 of clubs", "3 of clubs", "4 of clubs"]
    return tuple(State.initial(g, 1, log=True, setup=Setup(deals=[Deal({"hand[0]": hand0, "hand[1]": hand1},
                                                                         exact=True)]))
                 for hand0 in (["5 of clubs", "6 of clubs", "2 of hearts"],
                               ["3 of hearts", "4 of hearts", "5 of hearts"]))  # type: ignore[return-value]


def test_a_message_is_in_the_log_and_in_no_interface_for_programs() -> None:
    one, three = told("owner")
    assert ("announce", "P0 holds 1 hearts") in one.log and ("announce", "P0 holds 3 hearts") in three.log
    # P1 was told how many hearts P0 holds, but nothing P1 gets from the engine says it.
    assert one.observation(1) == three.observation(1)
    assert one.observation_string(1) == three.observation_string(1)
    assert one.information_state_string(1) == three.information_state_string(1)
    assert one.observation_tensor(1) == three.observation_tensor(1)
    assert one.information_state_tensor(1) == three.information_state_tensor(1)
    assert "holds" not in one.information_state_string(1)


def test_the_same_fact_in_a_visible_variable_reaches_every_interface() -> None:
    one, three = told("everyone")
    assert one.observation(1)["variables"]["hearts_held[0]"] == 1
    assert three.observation(1)["variables"]["hearts_held[0]"] == 3
    assert one.observation_string(1) != three.observation_string(1)
    assert one.information_state_string(1) != three.information_state_string(1)
    assert one.information_state_tensor(1) != three.information_state_tensor(1)
