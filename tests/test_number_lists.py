"""A number parameter over listed numbers (issue 15): valid bids such as 0, 2 and 5, written out or as a
constant, are the parameter's values, each an action of its own, read and printed as numbers."""

from __future__ import annotations

from cardsmith.dsl.pipeline import compile_text
from cardsmith.engine.game import Game
from cardsmith.engine.state import State

GAME = """\
game: Listed bids
players: {min: 2, max: 3}
constants:
  bids: [0, 2, 5, -1]
deck: {suits: [clubs, hearts], ranks: ['2', '3', '4']}
zones: {stock: {visible: nobody}}
variables:
  said: {type: int, per_player: true}
  total: {type: int}
actions:
  bid:
    params: {n: bids}
    when: n != 5 or total == 0
    effect: ["said[player] = n", total += n]
  add:
    params: {n: "[10, 20]", m: "range(0, 2)"}
    effect: [total += n + m]
phases:
  bidding: {first: left(dealer), round: true, actions: [bid, add], end: [end deal]}
match:
  deal: [move pack to stock, goto bidding]
  over_when: true
  winners: all_max_by(players, p => said[p])
"""


def game() -> Game:
    loaded = compile_text(GAME, "bids.yaml")
    assert loaded.ok and loaded.game is not None, [d.message for d in loaded.diagnostics]
    return Game(loaded.game, 2)


def test_the_listed_numbers_are_the_legal_values_in_their_order() -> None:
    g = game()
    s = State.initial(g, seed=1)
    texts = [g.action_to_string(s, a) for a in s.legal_actions()]
    assert texts == ["bid 0", "bid 2", "bid 5", "bid -1", "add 10, 0", "add 20, 0", "add 10, 1", "add 20, 1"]
    first = s.current_player()
    s.apply_action(s.action_from_string("bid 5"))  # type: ignore[arg-type]
    assert s.var("said", first) == 5 and s.var("total") == 5
    # `when` narrows listed numbers as it does a range: 5 only while nothing is bid.
    assert "bid 5" not in [g.action_to_string(s, a) for a in s.legal_actions()]
    assert s.action_from_string("bid 3") is None and s.action_from_string("bid 1") is None
    s.apply_action(s.action_from_string("add 20, 1"))  # type: ignore[arg-type]
    assert s.var("total") == 26 and s.is_terminal()


def test_every_id_decodes_to_its_number() -> None:
    g = game()
    info = next(a for a in g.codec.actions if a.name == "bid")
    decoded = [g.codec.decode(info.offset + k) for k in range(info.size)]
    assert [(i.name, vals) for i, vals in decoded] == [("bid", (0,)), ("bid", (2,)), ("bid", (5,)), ("bid", (-1,))]
    assert all(type(vals[0]) is int for _, vals in decoded)
