"""Memo keys that keep only what a function reads of its cards (dsl/projection.py), and the order analysis
they lean on (dsl/analysis.py): which functions get them, and that they never change a value."""

from __future__ import annotations

import random
from typing import Any

import pytest
from cardsmith.dsl.analysis import order_free_params
from cardsmith.dsl.pipeline import compile_text
from cardsmith.dsl.projection import class_tables, memo_plan, projection
from cardsmith.engine.game import Game
from cardsmith.engine.state import State

GAME = """\
game: P
players: 2
deck:
  suits: [a, b, c, d]
  ranks: ['1', '2', '3', '4', '5', '6']
  properties:
    value: if rank_index >= 4 then 5 else rank_index + 1
    red: {by_suit: {a: true, b: true}, default: false}
zones:
  stock: {}
  hand: {per_player: true}
  pile: {}
variables:
  n: {type: number}
define:
  tens(f): count(subsets(f), g => sum(c.value for c in g) == 10)
  pairs(f): count(combinations(f, 2), g => g[0].rank == g[1].rank)
  flush(h): len(unique([c.suit for c in h])) == 1
  reds(h): len([c for c in h if c.red])
  last_value(h): last(h).value * 10 + len([c for c in h if c.value > 2])
  runs(h): |
    let sizes = [len(g) for g in subsets(h) if len(g) >= 2 and is_run(g)];
    if len(sizes) == 0 then 0 else max(sizes)
  is_run(g): |
    len(unique([c.rank for c in g])) == len(g)
      and max([c.rank_index for c in g]) - min([c.rank_index for c in g]) == len(g) - 1
  total(h): sum(c.value for c in h) + tens(h)
  with_card(h, c): tens(h + [c])
  same(h): count(h, c => c == first(h))
  ids(h): sum([c.rank_index * 4 + c.suit_index for c in h])
  best(h): max_by(h, c => c.value)
  lowest(h): first(sort(h)).value
  holds(h, c): if c in h then 1 else 0
  packed(h): len([c for c in h if c == first(pack)])
  largest(h): max(h).value
  indexed(h): len([x for x in [1, 2, 3] if x == index_of(h, first(h))])
actions:
  play:
    params: {card: "hand[player]"}
    effect:
      - move card to pile
      - n = tens(pile) + pairs(pile) + reds(pile) + last_value(pile) + runs(pile) + total(pile)
      - n = with_card(hand[player], card) + same(pile) + ids(pile) + best(pile).value + lowest(pile)
      - n = holds(pile, card) + packed(pile) + largest(pile) + indexed(pile)
      - if: flush(pile)
        then: [n = 0]
phases:
  main:
    actions: [play]
    after:
      - if: len(hand[player]) == 0
        then: [end deal]
match:
  deal: [move pack to stock, shuffle stock, deal 6 from stock to hand, goto main]
  over_when: deal_number >= 2
  winners: players
"""


def _spec() -> Any:
    r = compile_text(GAME, "p.yaml")
    assert r.ok and r.game is not None, r.diagnostics
    return r.game


def test_projections_keep_what_a_function_reads_of_its_cards() -> None:
    spec = _spec().spec
    fns = {f.name: f for f in spec.functions}
    assert projection(spec, fns["tens"]) == ("value",)
    assert projection(spec, fns["pairs"]) == ("rank",)
    assert projection(spec, fns["flush"]) == ("suit",)
    assert projection(spec, fns["reds"]) == ("red",)  # a property by suit
    assert projection(spec, fns["last_value"]) == ("value",)  # by position: the key keeps the order
    assert projection(spec, fns["runs"]) == ("rank", "rank_index")
    assert projection(spec, fns["total"]) == ("value",)  # through a call
    assert projection(spec, fns["with_card"]) == ("value",)  # both card parameters


@pytest.mark.parametrize("name", ["same", "best", "lowest", "holds", "packed", "largest", "indexed"])
def test_a_card_used_as_itself_or_returned_has_no_projection(name: str) -> None:
    # compared, returned, sorted by its number, looked for, compared with another card, the largest
    # number, found by position
    spec = _spec().spec
    assert projection(spec, next(f for f in spec.functions if f.name == name)) is None


def test_a_key_of_both_rank_and_suit_is_no_projection() -> None:
    spec = _spec().spec
    assert projection(spec, next(f for f in spec.functions if f.name == "ids")) is None


def test_order_analysis_follows_subsets_and_combinations() -> None:
    spec = _spec().spec
    fns = {f.name: f for f in spec.functions}
    # the subsets of a hand are the same sublists in any order of the hand; their sums too
    assert order_free_params(spec, fns["tens"]) == {"f"}
    assert order_free_params(spec, fns["runs"]) == {"h"}
    # g[0] is a position in a pair: not proved free (though == is symmetric)
    assert order_free_params(spec, fns["pairs"]) == set()
    assert order_free_params(spec, fns["last_value"]) == set()


def test_inner_functions_are_memoized_when_their_key_forgets_cards_and_order() -> None:
    spec = _spec().spec
    plan = memo_plan(spec)
    # called only inside pure functions, with an order-free projected key: memoized
    assert plan["is_run"] == ("rank", "rank_index")
    # called from steps: memoized as before, with the key projected where it may be
    assert plan["pairs"] == ("rank",) and plan["same"] is None
    assert ("value",) in class_tables(spec)


def _hands(rng: random.Random, cards: int) -> list[list[int]]:
    return [rng.sample(range(cards), rng.randint(1, 6)) for _ in range(400)]


def test_projected_memos_agree_with_direct_evaluation() -> None:
    game = Game(_spec(), 2)
    ns = game.ns
    s = State.initial(game, 1)
    rng = random.Random(5)
    names = [name for name, attrs in memo_plan(game.spec).items() if attrs is not None and f"fi_{name}" in ns]
    assert {"tens", "pairs", "flush", "reds", "last_value", "runs", "total", "is_run"} <= set(names)
    for h in _hands(rng, game.num_cards):
        for name in names:
            args: list[Any] = [h, rng.randrange(game.num_cards)] if name == "with_card" else [h]
            assert ns[f"fn_{name}"](s, *args) == ns[f"fi_{name}"](s, *args), (name, args)


def test_hands_alike_in_what_is_read_share_one_entry() -> None:
    game = Game(_spec(), 2)
    ns = game.ns
    s = State.initial(game, 1)
    value = ns["P_value"]
    fives = [c for c in range(game.num_cards) if value[c] == 5]  # the 5s and the 6s, of every suit
    assert len(fives) == 8
    ns["M_tens"].clear()
    for k in range(4):
        ns["fn_tens"](s, [fives[k], fives[k + 4]])
        ns["fn_tens"](s, [fives[k + 4], fives[k]])
    assert len(ns["M_tens"]) == 1


def test_a_value_that_is_not_a_card_is_computed_without_a_key() -> None:
    game = Game(_spec(), 2)
    ns = game.ns
    s = State.initial(game, 1)
    # none passes the checker where a card is expected (the join of none and card is card): it has no
    # class, and fails in the function as it would unmemoized
    for name in ("fn_with_card", "fi_with_card"):
        with pytest.raises(TypeError):
            ns[name](s, [0, 1], None)
    assert ns["M_with_card"] == {}


WHERE = """\
game: W
players: 2
deck:
  suits: [a, b]
  ranks: ['1', '2', '3', '4']
  pack:
    - where: keep(card)
zones:
  stock: {}
  hand: {per_player: true}
variables:
  n: {type: number}
define:
  keep(c): len([x for x in [c.rank] if x != '2']) > 0
actions:
  go: {}
phases:
  main:
    actions: [go]
    after:
      - n = len([c for c in hand[0] if keep(c)])
      - end deal
match:
  deal: [move pack to stock, deal 2 from stock to hand, goto main]
  over_when: deal_number >= 2
  winners: players
"""


def test_memos_made_while_the_pack_is_chosen_are_forgotten() -> None:
    """`where` asks about the candidate cards, numbered otherwise than the pack: an entry kept from then
    would answer for another card."""
    r = compile_text(WHERE, "w.yaml")
    assert r.ok and r.game is not None, r.diagnostics
    game = Game(r.game, 2)
    ns = game.ns
    assert game.num_cards == 6
    assert all(ns["fn_keep"](None, c) == ns["fi_keep"](None, c) for c in range(game.num_cards))


def test_a_memo_seldom_met_is_given_up_after_its_trial() -> None:
    """After abi.MEMO_TRIAL calls, a memoized function whose key was found in fewer than one call in 16 is
    called without its memo from then on; one whose key is met keeps it. The values are the same."""
    from cardsmith.dsl import abi
    game = Game(_spec(), 2)
    ns = game.ns
    s = State.initial(game, 1)
    rng = random.Random(3)
    hands = _hands(rng, game.num_cards)
    seen: dict[tuple[str, tuple[int, ...]], Any] = {}
    for k in range(abi.MEMO_TRIAL + 10):
        distinct = [k % game.num_cards, (k // game.num_cards) % game.num_cards, k % 7]  # new keys, mostly
        for name, h in (("same", distinct), ("tens", hands[k % 20])):  # 20 hands again and again
            value = ns[f"fn_{name}"](s, h)
            assert value == ns[f"fi_{name}"](s, h)
            assert seen.setdefault((name, tuple(h)), value) == value
    assert ns["fn_same"] is ns["fi_same"]
    assert ns["fn_tens"] is ns["fk_tens"]
