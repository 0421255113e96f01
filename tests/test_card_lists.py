"""Actions whose parameter is several cards at once (`{from, ids}`) and `card_lists` variables.

The codec numbers a list of cards by its position in the parameter's `ids`, worked out once per game; the
generated `legal_`/`run_` encode and decode the same way; a value `from` gives that is not one of the ids is
a located rule error; a `card_lists` variable keeps copies of its lists, checked and counted against the
items a state may hold. OpenSpiel's Gin Rummy and Cribbage numberings are reproduced by writing `ids` in
their order (checked against pyspiel's own action texts where it is installed).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from cardsmith.bots.spec import make_bot
from cardsmith.bots.view import SeatView
from cardsmith.dsl.limits import DEFAULT_LIMITS, Limits
from cardsmith.dsl.pipeline import compile_text
from cardsmith.engine.errors import IllegalAction, RuleError
from cardsmith.engine.game import Game
from cardsmith.engine.setup import Deal, Setup
from cardsmith.engine.state import State
from cardsmith.engine.tensors import tensor_layout
from cardsmith.table.terminal import Painter, plain
from cardsmith.table.view import TableView
from conftest import ROOT, game_for

MELDS = str(ROOT / "tests" / "games" / "melds.yaml")

# A small game to vary: PARAMS, WHEN, EFFECT and VARS are filled in per test.
GAME = """\
game: Pairs
players: 2
deck:
  suits: [clubs, hearts]
  ranks: ['1', '2', '3']
zones:
  stock: {{visible: nobody}}
  hand: {{per_player: true, visible: owner}}
  table: {{}}
variables:
  kept: {{type: card_lists}}
  loose: {{type: card_lists, visible: nobody}}
{VARS}
define:
  untyped(x): x
actions:
  pair:
    params:
{PARAMS}
    when: {WHEN}
    effect:
{EFFECT}
  pass: {{}}
phases:
  main:
    first: 0
    actions: [pair, pass]
    next: same
match:
  deal: [move pack to stock, shuffle stock, deal 3 from stock to hand, goto main]
  over_when: true
  winners: players
"""
PAIRS = '      two: {from: "combinations(sort(hand[player]), 2)", ids: "combinations(pack, 2)"}'


def build(params: str = PAIRS, when: str = "true", effect: str = "      - move two to table\n      - kept += [two]",
          variables: str = "", players: int = 2, limits: Limits = DEFAULT_LIMITS) -> Game:
    text = GAME.format(PARAMS=params, WHEN=when, EFFECT=effect, VARS=variables)
    loaded = compile_text(text, "pairs.yaml", limits=limits)
    assert loaded.ok and loaded.game is not None, [d.message for d in loaded.diagnostics]
    return Game(loaded.game, players, limits=limits)


def dealt(g: Game, hand0: list[str], hand1: list[str] | None = None, seed: int = 1) -> State:
    cards = {"hand[0]": hand0}
    if hand1 is not None:
        cards["hand[1]"] = hand1
    return g.new_initial_state(seed=seed, setup=Setup(deals=[Deal(cards, exact=True)]))


def names(g: Game, cards: list[int]) -> list[str]:
    return [g.card_names[c] for c in cards]


# ---------------------------------------------------------------- the codec
def test_a_list_of_cards_is_numbered_by_its_place_in_the_ids() -> None:
    g = build()
    pair = g.actions[0]
    assert pair.params[0].kind == "cards"
    assert pair.radix == [15] and pair.size == 15  # combinations of 6 cards, 2 at a time
    assert g.actions[1].offset == 15 and g.num_distinct_actions() == 16
    # combinations(pack, 2) in its order: [1c, 2c], [1c, 3c], ..., [2h, 3h]
    assert g.action_to_string(None, 0) == "pair [1 of clubs, 2 of clubs]"
    assert g.action_to_string(None, 1) == "pair [1 of clubs, 3 of clubs]"
    assert g.action_to_string(None, 14) == "pair [2 of hearts, 3 of hearts]"
    for a in range(g.num_distinct_actions()):
        assert g.actions_from_string(g.action_to_string(None, a)) == [a]
    info, (value,) = g.codec.decode(4)
    assert info is pair and names(g, value) == ["1 of clubs", "3 of hearts"]
    value.append(0)  # a decoded value is a copy: the table the game numbers by is not changed
    assert names(g, g.codec.decode(4)[1][0]) == ["1 of clubs", "3 of hearts"]
    assert g.actions_from_string("pair [2 of clubs, 1 of clubs]") == []  # not one of the ids: no id


def test_a_list_of_cards_beside_other_parameters_is_one_digit_of_the_mixed_radix() -> None:
    g = build(params=PAIRS + '\n      who: "players"\n      up: "[true, false]"',
              effect="      - move two to table")
    pair = g.actions[0]
    assert pair.radix == [15, 2, 2] and pair.stride == [1, 15, 30] and pair.size == 60
    a = pair.encode([5, 1, 1])
    assert a == 5 + 15 + 30
    assert g.action_to_string(None, a) == "pair [2 of clubs, 3 of clubs], P1, up"
    assert g.actions_from_string("pair [2 of clubs, 3 of clubs], P1, up") == [a]


def test_legal_ids_and_the_effect_use_the_same_numbering() -> None:
    g = build()
    s = dealt(g, ["3 of hearts", "1 of clubs", "2 of hearts"])
    assert s.current_player() == 0
    legal = s.legal_actions()
    texts = [s.action_to_string(0, a) for a in legal]
    assert texts == ["pair [1 of clubs, 2 of hearts]", "pair [1 of clubs, 3 of hearts]",
                     "pair [2 of hearts, 3 of hearts]", "pass"]
    s.apply_action(legal[1])
    assert names(g, s.z[g.zone_names.index("table")]) == ["1 of clubs", "3 of hearts"]
    kept = s.v[g.var_names.index("kept")]
    assert [names(g, xs) for xs in kept] == [["1 of clubs", "3 of hearts"]]
    # The variable holds its own copy, not the codec's table.
    assert kept[0] is not g.codec.actions[0].values[0][legal[1]]


def test_without_from_a_parameter_takes_any_of_its_ids_narrowed_by_when() -> None:
    g = build(params='      two: {ids: "combinations(pack, 2)"}', when="all(c in hand[player] for c in two)")
    s = dealt(g, ["3 of hearts", "1 of clubs", "2 of hearts"])
    assert [s.action_to_string(0, a) for a in s.legal_actions()] == [
        "pair [1 of clubs, 2 of hearts]", "pair [1 of clubs, 3 of hearts]", "pair [2 of hearts, 3 of hearts]", "pass"]


def test_a_value_that_is_not_one_of_the_ids_is_a_rule_error_at_from() -> None:
    # combinations of the hand in its dealt order: [3h, 1c] is not among the ids, which are in pack order.
    g = build(params='      two: {from: "combinations(hand[player], 2)", ids: "combinations(pack, 2)"}')
    s = dealt(g, ["3 of hearts", "1 of clubs", "2 of hearts"])
    with pytest.raises(RuleError) as e:
        s.legal_actions()
    assert e.value.message == "a value of parameter 'two' of 'pair' is not one of its ids"
    assert e.value.span is not None and (e.value.span.line, e.value.span.col) == (19, 20)  # at `from`
    assert "3 of hearts" not in str(e.value)  # the message names no card: any player may read it
    assert e.value.detail is not None and "[3 of hearts, 1 of clubs]" in e.value.detail


def test_an_action_with_no_ids_has_no_ids() -> None:
    g = build(params='      two: {from: "[]", ids: "[xs for xs in combinations(pack, 2) if len(xs) > 2]"}')
    assert g.actions[0].size == 0 and g.actions[1].offset == 0 and g.num_distinct_actions() == 1
    s = dealt(g, ["3 of hearts", "1 of clubs", "2 of hearts"])
    assert s.legal_actions() == [0] and s.action_to_string(0, 0) == "pass"


@pytest.mark.parametrize(("ids", "message"), [
    ("combinations(pack, 2) + [[first(pack), last(pack)]]", "the ids of parameter 'two' of 'pair' list the same "
     "cards twice, at positions 4 and 15"),
    ("if num_players > 1 then [[-1]] else combinations(pack, 2)", "the ids of parameter 'two' of 'pair' must be "
     "lists of cards"),
    ("[[c] for c in pack for k in range(0, 20000)]", "the ids of parameter 'two' of 'pair' are more than 100,000 "
     "lists"),
])
def test_ids_that_cannot_number_the_values_refuse_the_setup(ids: str, message: str) -> None:
    with pytest.raises(RuleError) as e:
        build(params=f'      two: {{from: "combinations(sort(hand[player]), 2)", ids: "{ids}"}}')
    assert e.value.message == message


def test_ids_are_worked_out_once_per_game_and_charged() -> None:
    # 3 cards of 6 in a row: 20 lists; the setup's budget is charged for building and checking them.
    g = build(params='      two: {from: "[]", ids: "combinations(pack, 3)"}')
    assert g.actions[0].size == 20
    with pytest.raises(RuleError) as e:
        build(params='      two: {from: "[]", ids: "combinations(pack, 3)"}', limits=Limits(steps=30))
    assert e.value.code == "R004"


# ---------------------------------------------------------------- card_lists variables
def test_a_card_lists_variable_starts_empty_and_keeps_copies() -> None:
    g = build(effect="      - kept += [two]\n      - kept += [two]\n      - kept -= [two]\n      - loose = [two, []]")
    s = dealt(g, ["3 of hearts", "1 of clubs", "2 of hearts"])
    kept, loose = g.var_names.index("kept"), g.var_names.index("loose")
    assert s.v[kept] == [] and s.v[loose] == []
    s.apply_action(s.legal_actions()[0])
    assert s.v[kept] == [] and [names(g, xs) for xs in s.v[loose]] == [["1 of clubs", "2 of hearts"], []]
    t = s.clone()
    assert t.v[loose] == s.v[loose]


def test_a_value_of_unknown_type_is_checked_before_it_is_kept() -> None:
    g = build(effect="      - kept = untyped([[1, 2], 7])")
    s = dealt(g, ["3 of hearts", "1 of clubs", "2 of hearts"])
    with pytest.raises(RuleError) as e:
        s.apply_action(s.legal_actions()[0])
    assert e.value.message == "this list variable holds lists of cards of the pack only"


def test_the_cards_of_kept_lists_count_against_the_held_items() -> None:
    effect = "      - kept = [two for k in range(0, 400)]"
    g = build(effect=effect, limits=Limits(held=1100))  # 400 lists of 2 cards: 1,200 items
    s = dealt(g, ["3 of hearts", "1 of clubs", "2 of hearts"])
    with pytest.raises(RuleError) as e:
        s.apply_action(s.legal_actions()[0])
    assert e.value.message.startswith("the list variables would hold more than 1,100 items")
    g = build(effect=effect, limits=Limits(held=1200))
    s = dealt(g, ["3 of hearts", "1 of clubs", "2 of hearts"])
    s.apply_action(s.legal_actions()[0])
    assert len(s.v[g.var_names.index("kept")]) == 400


def test_a_log_shows_each_list_of_cards() -> None:
    g = build(effect="      - kept += [two]\n      - kept += [[]]\n      - log 'kept {}', kept")
    s = dealt(g, ["3 of hearts", "1 of clubs", "2 of hearts"])
    s.log = []
    s.apply_action(s.legal_actions()[0])
    assert ("announce", "kept [1 of clubs, 2 of hearts], []") in s.log


def test_observations_and_tensors_show_card_lists() -> None:
    g = build()
    s = dealt(g, ["3 of hearts", "1 of clubs", "2 of hearts"])
    s.apply_action(s.legal_actions()[1])
    obs = s.observation(1)
    assert obs["variables"]["kept"] == [["1 of clubs", "3 of hearts"]]
    assert "loose" not in obs["variables"]
    layout = dict(tensor_layout(g))
    assert layout["var:kept"] == 1 + 1 + g.num_cards  # seen, how many lists, a bit per card
    t = s.observation_tensor(1)
    at = 0
    for name, size in tensor_layout(g):
        if name == "var:kept":
            break
        at += size
    block = t[at:at + layout["var:kept"]]
    assert block[0] == 1.0 and block[1] == 1.0
    laid = sorted(g.card_id(n) for n in ["1 of clubs", "3 of hearts"])
    assert [c for c in range(g.num_cards) if block[2 + c]] == laid
    assert "kept = [[1 of clubs, 3 of hearts]]" in s.observation_string(1)


# ---------------------------------------------------------------- the test game, at the tables
def _with_a_meld(players: int = 2) -> State:
    g = game_for(MELDS, players)
    s = g.new_initial_state(seed=3, setup=Setup(dealer=0, deals=[Deal({
        "hand[1]": ["3 of clubs", "4 of clubs", "5 of clubs", "6 of clubs", "7 of clubs", "8 of diamonds",
                    "8 of hearts", "8 of spades"]}, exact=True)]))
    s.apply_action(g.action_from_string("give [7 of clubs, 8 of spades]"))
    s.apply_action(s.legal_actions()[0])
    assert s.current_player() == 1
    return s


def test_a_secret_move_of_several_cards_shows_only_that_it_happened() -> None:
    g = game_for(MELDS, 2)
    a = g.action_from_string("give [7 of clubs, 8 of spades]")
    assert a is not None
    assert g.public_action_string(a) == "give (hidden)"


def test_the_seat_view_and_the_terminal_show_the_cards_of_a_move() -> None:
    s = _with_a_meld()
    g = s.game
    tv = TableView(g)
    view = tv.view(s, 1)
    lays = [m for m in view["moves"] if m["action"] == "lay"]
    assert [m["text"] for m in lays][0] == "lay [3 of clubs, 4 of clubs, 5 of clubs]"
    assert lays[0]["params"] == [{"name": "meld", "kind": "cards", "cards": [
        {"name": "3 of clubs", "suit": "clubs", "rank": "3"}, {"name": "4 of clubs", "suit": "clubs", "rank": "4"},
        {"name": "5 of clubs", "suit": "clubs", "rank": "5"}]}]
    paint = Painter(tv, symbols=True)
    assert plain(paint.move(lays[0])) == "lay [3\u2663 4\u2663 5\u2663]"
    s.apply_action(lays[0]["id"])
    view = tv.view(s, 0)
    table = next(v for v in view["variables"] if v["name"] == "table")
    assert table["value"] == [["3 of clubs", "4 of clubs", "5 of clubs"]]
    assert [[c["name"] for c in xs] for xs in table["cards"]] == [["3 of clubs", "4 of clubs", "5 of clubs"]]
    assert plain(paint.value(table["value"])) == "[3\u2663 4\u2663 5\u2663]"
    assert plain(paint.action_text("lay [3 of clubs, 4 of clubs, 5 of clubs]")) == "lay [3\u2663 4\u2663 5\u2663]"


def test_a_strategy_reads_a_list_of_cards() -> None:
    s = _with_a_meld()
    g = s.game
    bot = make_bot("layer", g, 1, seed=1)
    a = bot.choose(SeatView(s, 1))
    assert g.action_to_string(1, a) == "lay [3 of clubs, 4 of clubs, 5 of clubs, 6 of clubs]"


@pytest.mark.slow
def test_resampling_places_every_card_of_a_public_meld_in_the_hand_it_came_from() -> None:
    g = game_for(MELDS, 3)
    lay = next(a for a in g.actions if a.name == "lay")
    found = 0
    for seed in range(60):
        rng = random.Random(seed)
        s = State.initial(g, None)
        laid = False
        while not s.is_terminal() and not laid:
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = s.legal_actions()
            lays = [a for a in legal if lay.offset <= a < lay.offset + lay.size]
            a = lays[0] if lays else legal[rng.randrange(len(legal))]
            s.apply_action(a)
            laid = bool(lays)
        if not laid:
            continue
        for p in range(g.n):
            t = s.resample_from_infostate(p, random.Random(seed))
            assert t.information_state_string(p) == s.information_state_string(p)
        found += 1
        if found == 4:
            break
    assert found == 4


def test_an_illegal_list_is_refused_by_its_id() -> None:
    s = _with_a_meld()
    a = s.game.action_from_string("lay [8 of diamonds, 8 of hearts, 8 of spades]")
    assert a is not None and a not in s.legal_actions()
    with pytest.raises(IllegalAction):
        s.apply_action(a)


# ---------------------------------------------------------------- OpenSpiel's numberings
GIN = """\
game: Gin melds
players: 2
deck:
  suits: [spades, clubs, diamonds, hearts]
  ranks: [A, '2', '3', '4', '5', '6', '7', '8', '9', '10', J, Q, K]
zones:
  stock: {visible: nobody}
  hand: {per_player: true, visible: owner}
define:
  gin_melds(): |
    [(if k < 4 then [c for c in pack if c.rank == r and c.suit != suits[k]]
      else [c for c in pack if c.rank == r])
     for r in ranks for k in range(0, 5)]
    + [[c for c in pack if c.suit == s and i <= c.rank_index and c.rank_index < i + n]
       for n in range(3, 6) for s in suits for i in range(0, 14 - n)]
actions:
  discard:
    params: {card: "hand[player]"}
  draw_upcard: {}
  draw_stock: {}
  pass: {}
  knock: {}
  lay_meld:
    params:
      meld: {from: "[]", ids: "gin_melds()"}
phases:
  main:
    actions: [discard, draw_upcard, draw_stock, pass, knock, lay_meld]
match:
  deal: [move pack to stock, deal 10 from stock to hand, goto main]
  over_when: true
  winners: players
"""


def _short(name: str, ranks: str, suits: dict[str, str]) -> str:
    rank, suit = name.split(" of ")
    return ranks[["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"].index(rank)] + suits[suit]


def _game(text: str) -> Game:
    loaded = compile_text(text, "openspiel.yaml")
    assert loaded.ok and loaded.game is not None, [d.message for d in loaded.diagnostics]
    return Game(loaded.game, 2)


@pytest.mark.rl
def test_gin_rummys_185_melds_in_openspiels_order() -> None:
    g = _game(GIN)
    lay = next(a for a in g.actions if a.name == "lay_meld")
    assert (lay.offset, lay.size, g.num_distinct_actions()) == (56, 185, 241)
    # Spot checks from OpenSpiel's MeldToInt (gin_rummy_utils.cc): rank * 5 + the suit left out; 4 of a rank
    # at rank * 5 + 4; runs from 65 by length, suit (s, c, d, h) and lowest rank.
    melds = lay.values[0]
    short = [sorted(_short(g.card_names[c], "A23456789TJQK", {"spades": "s", "clubs": "c", "diamonds": "d",
                                                              "hearts": "h"}) for c in m) for m in melds]
    assert short[0] == sorted(["Ac", "Ad", "Ah"]) and short[4] == sorted(["As", "Ac", "Ad", "Ah"])
    assert short[65] == sorted(["As", "2s", "3s"]) and short[184] == sorted(["9h", "Th", "Jh", "Qh", "Kh"])
    pyspiel = pytest.importorskip("pyspiel")
    ref = pyspiel.load_game("gin_rummy").new_initial_state()
    for k in range(185):
        text = ref.action_to_string(0, 56 + k).split("Action: ")[1]
        theirs = sorted(text[i:i + 2] for i in range(0, len(text), 2))
        assert theirs == short[k], k


CRIBBAGE = """\
game: Crib pairs
players: 2
deck:
  suits: [clubs, diamonds, hearts, spades]
  ranks: [A, '2', '3', '4', '5', '6', '7', '8', '9', '10', J, Q, K]
zones:
  stock: {visible: nobody}
  hand: {per_player: true, visible: owner}
  crib: {visible: nobody}
actions:
  choose:
    params: {card: "hand[player]"}
    effect: [move card to crib]
  choose_two:
    label: choose
    params:
      cards: {from: "combinations(sort(hand[player]), 2)", ids: "[[a, b] for a in pack for b in pack]"}
    effect: [move cards to crib]
  pass: {}
phases:
  main:
    actions: [choose_two, pass]
match:
  deal: [move pack to stock, shuffle stock, deal 6 from stock to hand, goto main]
  over_when: true
  winners: players
"""


@pytest.mark.rl
def test_cribbages_two_card_discards_in_openspiels_numbering() -> None:
    g = _game(CRIBBAGE)
    two = next(a for a in g.actions if a.name == "choose_two")
    assert (two.offset, two.size, g.num_distinct_actions()) == (52, 52 * 52, 2757)
    suits = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}

    def text(a: int) -> str:
        info, vals = g.codec.decode(a)
        cards: Any = vals[0]
        return "Choose " + " ".join(_short(g.card_names[c], "A23456789TJQK", suits) for c in
                                    (cards if isinstance(cards, list) else [cards]))

    assert text(52) == "Choose AC AC" and text(53) == "Choose AC 2C" and text(2755) == "Choose KS KS"
    s = g.new_initial_state(seed=4)
    legal = [a for a in s.legal_actions() if two.offset <= a < two.offset + two.size]
    assert len(legal) == 15  # six cards, two at a time: each pair once, lower card first
    pyspiel = pytest.importorskip("pyspiel")
    ref = pyspiel.load_game("cribbage").new_initial_state()
    for a in range(52, 2756):
        assert ref.action_to_string(0, a) == text(a), a


def test_resampling_reads_the_cards_of_a_card_lists_variable_a_player_sees() -> None:
    from cardsmith.engine.resample.info import cards_in, differing
    names = {"A": 0, "B": 1, "C": 2, "D": 3}
    view = {"zones": {"pile": ["A"], "hand[1]": 2}, "variables": {"melds": [["B", "C"], []], "score": 3}}
    assert cards_in(view, names) == {0, 1, 2}  # the cards of each list count as seen
    other = {"zones": {"pile": ["A"], "hand[1]": 2}, "variables": {"melds": [["B", "D"], []], "score": 3}}
    # Lists of the same lengths differ card for card: a swap of C and D mends it.
    assert differing(view, other, names) == [(2, 3, False)]
    longer = {"zones": {"pile": ["A"], "hand[1]": 2}, "variables": {"melds": [["B", "C", "D"], []], "score": 3}}
    assert differing(view, longer, names) is None  # a list of another length: no swap of cards mends that
