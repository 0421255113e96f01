"""Setting up a position (engine/setup.py): the fixed cards are the outcome of the deal itself.

The steps of `match: deal` that read the dealt cards see the fixed ones; the other cards stay random
(seeded, or chance nodes); a setup the game lacks a name for, or the deal cannot give, is refused."""

from __future__ import annotations

import random
from pathlib import Path

import cardsmith
import pytest
from cardsmith import BadSetup, Deal, Setup
from cardsmith.dsl.pipeline import compile_file, compile_text
from cardsmith.engine.game import Game
from cardsmith.engine.state import State
from cardsmith.scenario.runner import run_file
from conftest import TESTS
from hypothesis import given
from hypothesis import strategies as st

STACKED = TESTS / "scenarios" / "rules" / "stacked-deal.yaml"


def stacked(players: int = 3) -> Game:
    r = compile_file(STACKED)
    assert r.game is not None
    return Game(r.game, players)


def names(g: Game, s: State, zone: str) -> list[str]:
    return [g.card_names[c] for c in s.z[g.zone_names.index(zone)]]


def var(g: Game, s: State, name: str) -> object:
    return s.v[g.var_names.index(name)]


def assert_a_pack(g: Game, s: State) -> None:
    """Every card in exactly one zone, and `loc` says which."""
    seen = sorted(c for z in s.z for c in z)
    assert seen == list(range(g.num_cards))
    for zi, z in enumerate(s.z):
        assert all(s.loc[c] == zi for c in z)


HAND = ["2 of clubs", "9 of hearts", "K of spades", "4 of diamonds", "7 of hearts"]


@pytest.mark.parametrize("seed", [0, 1, 7, 12345])
def test_the_deals_steps_see_the_fixed_cards(seed: int) -> None:
    g = stacked()
    s = g.new_initial_state(seed, Setup(dealer=0, deals=[Deal({"hand[2]": HAND, "turned": ["A of hearts"]})]))
    assert names(g, s, "hand[2]") == HAND
    assert names(g, s, "turned") == ["A of hearts"]
    # set by `match: deal` from the dealt cards
    assert var(g, s, "trump") == "hearts"
    assert var(g, s, "opener") == 2
    assert g.card_names[var(g, s, "best")] == "K of spades"  # type: ignore[index]
    assert var(g, s, "trumps[2]") == 2
    assert s.current_player() == 2
    assert_a_pack(g, s)


def test_fewer_cards_than_the_zone_receives_are_its_top_cards() -> None:
    g = stacked()
    s = g.new_initial_state(3, Setup(deals=[Deal({"hand[0]": ["A of clubs", "A of spades"]})]))
    hand = names(g, s, "hand[0]")
    assert len(hand) == 5 and hand[-2:] == ["A of clubs", "A of spades"]


def test_cards_by_id_and_the_seed_reproduce_the_state() -> None:
    g = stacked()
    setup = Setup(deals=[Deal({"hand[1]": [0, 1, 2]})])
    a, b = g.new_initial_state(5, setup), g.new_initial_state(5, setup)
    assert a.z == b.z and a.v == b.v
    assert a.z[g.zone_names.index("hand[1]")][-3:] == [0, 1, 2]


def test_the_unfixed_cards_stay_random() -> None:
    g = stacked()
    setup = Setup(deals=[Deal({"hand[0]": HAND})])
    others = {tuple(g.new_initial_state(seed, setup).z[g.zone_names.index("hand[1]")]) for seed in range(20)}
    assert len(others) == 20
    fixed = {g.card_id(n) for n in HAND}
    for seed in range(20):
        s = g.new_initial_state(seed, setup)
        assert not fixed & set(s.z[g.zone_names.index("hand[1]")])


def test_without_a_setup_the_deal_is_the_same_as_before() -> None:
    g = stacked()
    assert g.new_initial_state(9).z == g.new_initial_state(9, Setup()).z
    assert g.new_initial_state(9).z == g.new_initial_state(9, Setup(deals=[None])).z


def test_the_first_dealer_and_values() -> None:
    g = stacked()
    s = g.new_initial_state(1, Setup(dealer=2, deals=[Deal(values={"trumps": [4, 5, 6], "opener": 1,
                                                                   "current": 1})]))
    assert s.dealer == 2
    assert [var(g, s, f"trumps[{p}]") for p in range(3)] == [4, 5, 6]
    assert var(g, s, "opener") == 1 and s.current_player() == 1


def test_a_later_deal() -> None:
    g = stacked()
    s = g.new_initial_state(4, Setup(dealer=0, deals=[None, Deal({"hand[1]": HAND})]))
    while s.deal_no == 1:
        s.apply_action(s.legal_actions()[0])
    assert s.deal_no == 2 and names(g, s, "hand[1]") == HAND and var(g, s, "opener") == 1


def test_chance_nodes_skip_the_fixed_positions() -> None:
    g = stacked()
    setup = Setup(dealer=0, deals=[Deal({"hand[2]": HAND, "turned": ["A of hearts"]})])
    s = g.new_initial_state(None, setup)
    fixed = {g.card_id(n) for n in HAND + ["A of hearts"]}
    rng = random.Random(3)
    nodes = 0
    while s.is_chance_node():
        outcomes = [c for c, _ in s.chance_outcomes()]
        assert not fixed & set(outcomes)
        s.apply_action(rng.choice(outcomes))
        nodes += 1
    assert nodes == g.num_cards - 1 - len(fixed)
    assert names(g, s, "hand[2]") == HAND and var(g, s, "trump") == "hearts" and var(g, s, "opener") == 2
    assert_a_pack(g, s)


def test_exact_zones_hold_exactly_their_cards() -> None:
    g = stacked()
    s = g.new_initial_state(2, Setup(deals=[Deal({"hand[0]": ["2 of clubs"], "trick": ["A of spades"]},
                                                  exact=True, rest="aside")]))
    assert names(g, s, "hand[0]") == ["2 of clubs"] and names(g, s, "trick") == ["A of spades"]
    # The A of spades was dealt to hand[0] among the cards it does not keep: no other zone lost a card.
    assert len(names(g, s, "aside")) == 3 and len(names(g, s, "hand[1]")) == 5 and len(names(g, s, "stock")) == 36
    assert var(g, s, "opener") == 0
    assert_a_pack(g, s)


def test_the_cards_left_over_go_to_the_bottom_of_the_rest_zone() -> None:
    """`rest` takes the cards a whole zone was dealt but does not list under its own: the card the deal
    turned up stays on top (and sets the trump), the next card of a stock stays the next."""
    g = stacked()
    for seed in range(20):
        fixed = {"hand[0]": ["2 of clubs"]}
        to_stock = g.new_initial_state(seed, Setup(deals=[Deal(fixed, exact=True)]))
        s = g.new_initial_state(seed, Setup(deals=[Deal(fixed, exact=True, rest="turned")]))
        turned, stock = names(g, s, "turned"), names(g, to_stock, "stock")
        # The same shuffles: the four cards hand[0] does not keep are under the turned card, or under the stock.
        assert turned[-1:] == names(g, to_stock, "turned") and var(g, s, "trump") == turned[-1].split(" of ")[1]
        assert len(stock) == 40 and stock[:4] == turned[:4] and stock[4:] == names(g, s, "stock")
        assert_a_pack(g, s)


def test_top_of_a_zone_fixes_its_top_cards_and_keeps_the_others() -> None:
    g = stacked()
    for seed in (1, 2, 3):
        s = g.new_initial_state(seed, Setup(deals=[Deal({"hand[0]": HAND}, exact=True,
                                                        top={"stock": ["A of clubs", "K of clubs"]})]))
        stock = names(g, s, "stock")
        # The top cards of the stock once the deal's steps have run (after one was turned up), K on top.
        assert len(stock) == 36 and stock[-2:] == ["A of clubs", "K of clubs"]
        assert names(g, s, "hand[0]") == HAND
        assert_a_pack(g, s)
    # With cards left over, the rest zone may be the one given its top: they go under its cards.
    s = g.new_initial_state(3, Setup(deals=[Deal({"hand[0]": ["2 of clubs"]}, exact=True, rest="stock",
                                                  top={"stock": ["A of spades"]})]))
    assert len(names(g, s, "stock")) == 40 and names(g, s, "stock")[-1] == "A of spades"
    assert_a_pack(g, s)
    r = cardsmith.engine.setup.resolve(g, Setup(deals=[Deal({"hand[0]": HAND}, exact=True, top={"stock": [7, 8]})]))
    assert r is not None
    data = cardsmith.engine.setup.to_data(g, r)
    assert data["deals"]["1"]["top"] == {"stock": [7, 8]} and "stock" not in data["deals"]["1"]["cards"]
    assert cardsmith.engine.setup.from_data(g, data) == r


BAD: list[tuple[str, object, str]] = [
    ("a zone without its player", Deal({"hand": ["A of clubs"]}),
     "deal 1: the game has no zone 'hand'; name a player's zone with the player: hand[0]"),
    ("an unknown zone", Deal({"table": ["A of clubs"]}), "deal 1: the game has no zone 'table' (zones: stock,"),
    ("a card twice", Deal({"hand[0]": ["A of clubs"], "hand[1]": ["A of clubs"]}),
     "deal 1: card 'A of clubs' is given twice (to 'hand[0]' and to 'hand[1]')"),
    ("a misspelt card", Deal({"hand[0]": ["A of club"]}),
     "deal 1: zone 'hand[0]' is given 'A of club', which is no card of the pack; did you mean 'A of clubs'?"),
    ("a card id out of range", Deal({"hand[0]": [52]}), "deal 1: zone 'hand[0]' is given 52, which is no card"),
    ("one card for a list", Deal({"hand[0]": "A of clubs"}),  # type: ignore[dict-item]
     "deal 1: zone 'hand[0]' is given a list of cards, not str"),
    ("more cards than the deal gives", Deal({"hand[0]": HAND + ["A of clubs"]}),
     "deal 1: the deal's steps put only 5 shuffled cards in zone 'hand[0]', so 6 cards cannot be fixed there"),
    ("a zone the deal never fills", Deal({"trick": ["A of clubs"]}),
     "deal 1: the deal's steps put no shuffled card in zone 'trick', so 1 card cannot be fixed there"),
    ("rest without exact", Deal({"hand[0]": ["A of clubs"]}, rest="aside"), "deal 1: 'rest' says where"),
    ("a zone given whole and by its top", Deal({"stock": ["A of clubs"]}, top={"stock": ["2 of clubs"]}),
     "deal 1: zone 'stock' is given its cards twice (whole and top)"),
    ("more top cards than the deal gives", Deal({}, exact=True, top={"turned": ["A of clubs", "2 of clubs"]}),
     "deal 1: the deal's steps put only 1 shuffled card in zone 'turned', so 2 cards cannot be fixed there"),
    ("an unknown variable", Deal(values={"trunp": "hearts"}), "deal 1: 'trunp' is no variable of the game"),
    ("a per-player variable given one value", Deal(values={"trumps": 1}),
     "deal 1: 'trumps' is per player: give a list of 3 values"),
    ("a suit the deck lacks", Deal(values={"trump": "stars"}), "deal 1: 'trump' holds a suit of the deck, not"),
    ("a player out of range", Deal(values={"opener": 3}), "deal 1: 'opener' holds a player (0 to 2), not 3"),
    ("a dealer out of range", Setup(dealer=5), "the first dealer is a player of this game (0 to 2), not 5"),
    ("deals not a list", Setup(deals=Deal()),  # type: ignore[arg-type]
     "Setup.deals is a list of Deal (or None)"),
    ("a map for a setup", {"hand[0]": ["A of clubs"]}, "a setup is a cardsmith Setup, not dict"),
]


@pytest.mark.parametrize(("setup", "message"), [(c[1], c[2]) for c in BAD], ids=[c[0] for c in BAD])
def test_a_bad_setup_is_refused_with_a_clear_message(setup: object, message: str) -> None:
    g = stacked()
    full = Setup(deals=[setup]) if isinstance(setup, Deal) else setup
    with pytest.raises(BadSetup) as e:
        g.new_initial_state(1, full)  # type: ignore[arg-type]
    assert str(e.value).startswith(message), str(e.value)


def test_the_rest_zone_may_not_be_an_exact_zone_with_cards_left_over() -> None:
    g = stacked()
    with pytest.raises(BadSetup, match="'stock' holds exactly its listed cards, so the 35 other cards"):
        g.new_initial_state(1, Setup(deals=[Deal({"stock": ["A of clubs"]}, exact=True)]))


READS_CARDS = """\
game: Reads cards
players: {min: 2, max: 2}
deck: {suits: [clubs, hearts], ranks: ['2', '3', '4', '5']}
zones: {stock: {}, up: {}, red: {}, black: {}}
actions: {pass: {}}
phases: {main: {actions: [pass], after: [end deal]}}
match:
  deal:
    - move pack to stock
    - shuffle stock
    - deal 1 from stock to up
    - if: last(up).suit == 'hearts'
      then: [deal 1 from stock to red]
      else: [deal 1 from stock to black]
    - goto main
  over_when: true
  winners: players
"""


def test_a_deal_that_reads_its_cards_is_refused_where_the_setup_contradicts_it() -> None:
    r = compile_text(READS_CARDS, "reads.yaml")
    assert r.game is not None
    g = Game(r.game, 2)
    for seed in range(6):  # the setup agrees with the deal: given
        s = g.new_initial_state(seed, Setup(deals=[Deal({"up": ["2 of hearts"], "red": ["5 of clubs"]})]))
        assert names(g, s, "red") == ["5 of clubs"]
        with pytest.raises(BadSetup, match="deal 1: the deal's steps "):
            g.new_initial_state(seed, Setup(deals=[Deal({"up": ["2 of clubs"], "red": ["5 of clubs"]})]))


@given(st.data())
def test_with_a_setup_the_zones_hold_the_fixed_cards_and_the_pack_stays_whole(data: st.DataObject) -> None:
    """Any fixed cards the deal can give: they end where asked, the rest of the pack is a permutation."""
    players = data.draw(st.integers(3, 4))
    g = stacked(players)
    order = data.draw(st.permutations(range(g.num_cards)))
    zones = [f"hand[{p}]" for p in range(players)] + ["turned"]
    cards: dict[str, list[int]] = {}
    pos = 0
    for z in zones:
        k = data.draw(st.integers(0, 1 if z == "turned" else 5))
        cards[z], pos = list(order[pos:pos + k]), pos + k
    seed = data.draw(st.none() | st.integers(0, 2**32))
    s = g.new_initial_state(seed, Setup(deals=[Deal(cards)]))
    rng = random.Random(seed or 0)
    while s.is_chance_node():
        s.apply_action(rng.choice(s.chance_outcomes())[0])
    for z, want in cards.items():
        got = s.z[g.zone_names.index(z)]
        assert len(got) == (1 if z == "turned" else 5)
        assert got[len(got) - len(want):] == want
    assert_a_pack(g, s)


@pytest.mark.parametrize(("game", "players"), [("schwimmen", 3), ("stichln", 4), ("chwech", 6),
                                               ("siebenbatten", 4), ("thirty-one", 2)])
def test_bundled_games_deal_the_fixed_hands(game: str, players: int) -> None:
    g = cardsmith.load(game, players)
    size = len(g.new_initial_state(1).z[g.zone_names.index("hand[1]")])
    hand = [g.card_names[c] for c in range(size)]
    for seed in (None, 1, 2):
        s = g.new_initial_state(seed, Setup(deals=[Deal({"hand[1]": hand})]))
        rng = random.Random(seed or 0)
        while s.is_chance_node():
            s.apply_action(rng.choice(s.chance_outcomes())[0])
        assert names(g, s, "hand[1]") == hand
        assert_a_pack(g, s)


def scenario(tmp_path: Path, body: str) -> tuple[bool, int, str]:
    (tmp_path / "s.yaml").write_text(f"game: {STACKED}\nscenarios:\n  - name: s\n    players: 3\n{body}",
                                     encoding="utf-8")
    [r] = run_file(str(tmp_path / "s.yaml"))
    return r.ok, r.span.line, r.message


def test_a_scenario_naming_the_rest_zone_is_a_located_failure(tmp_path: Path) -> None:
    ok, line, msg = scenario(tmp_path, "    set:\n      stock: [A of clubs]\n")
    assert not ok and line == 6
    assert msg.startswith("deal 1: 'stock' holds exactly its listed cards, so the 35 other cards"), msg


def test_a_scenario_naming_the_stock_with_a_rest_zone_holds_exactly_those(tmp_path: Path) -> None:
    ok, line, msg = scenario(tmp_path, "    set:\n      stock: [A of clubs, 2 of clubs]\n      rest: aside\n"
                                       "    steps:\n      - expect: {stock: [A of clubs, 2 of clubs], aside: 34}\n")
    assert ok, msg


def test_a_scenario_fixes_the_next_card_of_the_stock_with_top_of(tmp_path: Path) -> None:
    ok, line, msg = scenario(tmp_path, "    set:\n      hand[0]: [2 of clubs]\n"
                                       "      top of stock: [A of clubs, 3 of hearts]\n"
                                       "    steps:\n      - expect:\n          eval: {'last(stock)': 3 of hearts, "
                                       "'len(stock)': 40}\n")
    assert ok, msg
    for body, where, text in [
            ("      top of stok: [A of clubs]\n", 6, "'top of stok': the game has no zone 'stok'"),
            ("      stock: [A of clubs]\n      top of stock: [2 of clubs]\n", 7,
             "zone 'stock' is given whole and by its top cards: give one")]:
        ok, line, msg = scenario(tmp_path, "    set:\n" + body)
        assert not ok and line == where and text in msg, (line, msg)


def test_a_later_deal_a_scenario_cannot_give_fails_at_its_map(tmp_path: Path) -> None:
    body = ("    dealer: P0\n    deals:\n      - {}\n      - {stock: [A of clubs]}\n"
            "    steps:\n      - random: 3\n")
    ok, line, msg = scenario(tmp_path, body)
    assert not ok and line == 8 and msg.startswith("deal 2: 'stock' holds exactly"), (line, msg)


def test_the_examples_of_python_md_run() -> None:
    """docs/python.md, "Setting up a position": its Python blocks run in turn and print its text block."""
    import contextlib
    import io
    import re

    from conftest import ROOT
    text = (ROOT / "docs" / "python.md").read_text(encoding="utf-8")
    section = text.split("## Setting up a position", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```(\w+)\n(.*?)```", section, re.S)
    code = [b for kind, b in blocks if kind == "python"]
    shown = [b for kind, b in blocks if kind == "text"]
    assert len(code) == 2 and len(shown) == 1
    out = io.StringIO()
    ns: dict[str, object] = {}
    with contextlib.redirect_stdout(out):
        for block in code:
            exec(compile(block, "docs/python.md", "exec"), ns)  # the docs' own example
    assert out.getvalue() == shown[0]


TINY = """\
game: Tiny
players: {min: 2, max: 2}
deck: {suits: [clubs, hearts], ranks: ['2', '3', '4']}
zones: {stock: {}, a: {}, b: {}}
actions: {pass: {}}
phases: {main: {actions: [pass], after: [end deal]}}
match:
  deal:
    - move pack to stock
    - shuffle stock
    - deal 2 from stock to a
    - deal 1 from stock to b
    - goto main
  over_when: true
  winners: players
"""


def test_the_unfixed_cards_are_uniform() -> None:
    """With a card of `a` fixed, b's card is each of the 5 others equally often (seeded swaps keep it uniform)."""
    r = compile_text(TINY, "tiny.yaml")
    assert r.game is not None
    g = Game(r.game, 2)
    setup = Setup(deals=[Deal({"a": ["3 of clubs"]})])
    counts = [0] * g.num_cards
    runs = 3000
    for seed in range(runs):
        s = g.new_initial_state(seed, setup)
        assert s.z[1][-1] == g.card_id("3 of clubs")
        counts[s.z[2][0]] += 1
    assert counts[g.card_id("3 of clubs")] == 0
    expected = runs / (g.num_cards - 1)
    assert all(abs(n - expected) < 0.2 * expected for i, n in enumerate(counts) if i != g.card_id("3 of clubs")), \
        counts


# ------------------------------------------------------------------ replaying a state set up with fixed cards
def _same(a: State, b: State) -> None:
    assert (a.z, a.v, a.cur, a.dealer, a.deal_no, a.terminal, a.history()) == \
        (b.z, b.v, b.cur, b.dealer, b.deal_no, b.terminal, b.history())
    assert str(a) == str(b)


SETUPS = [
    Setup(dealer=0, deals=[Deal({"hand[2]": HAND, "turned": ["A of hearts"]})]),
    Setup(dealer=2, deals=[Deal(values={"trumps": [4, 5, 6], "opener": 1, "current": 1})]),
    Setup(deals=[Deal({"hand[0]": ["2 of clubs"], "trick": ["A of spades"]}, exact=True, rest="aside")]),
    Setup(dealer=0, deals=[None, Deal({"hand[1]": HAND})]),
]


@pytest.mark.parametrize("seed", [None, 3])
@pytest.mark.parametrize("k", range(len(SETUPS)))
def test_a_state_set_up_with_fixed_cards_serializes_and_replays(seed: int | None, k: int) -> None:
    """The setup is written with the seed and the history, and the replay deals through it again: the
    deserialized state is the same, at every step, at chance nodes too, and plays on the same."""
    g = stacked()
    s = g.new_initial_state(seed, SETUPS[k])
    rng = random.Random(k)
    for _ in range(200):
        t = g.deserialize_state(s.serialize())
        _same(s, t)
        assert t.serialize() == s.serialize()
        for p in range(g.n):
            assert t.information_state_string(p) == s.information_state_string(p)
        if s.is_terminal():
            break
        a = rng.choice([c for c, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions())
        s.apply_action(a)
        t.apply_action(a)
        _same(s, t)


def test_a_serialized_setup_is_checked_like_any_setup() -> None:
    import json
    g = stacked()
    data = json.loads(g.new_initial_state(1, SETUPS[0]).serialize())
    for bad, message in [
        ({"deals": {"1": {"cards": {"hand[9]": [1]}}}}, "the game has no zone 'hand[9]'"),
        ({"deals": {"x": {}}}, "a setup's deals are numbered 1 to 10,000, not 'x'"),
        ({"deals": {"1": {"cards": {"hand[0]": [999]}}}}, "which is no card of the pack"),
        ({"dealer": 7}, "the first dealer is a player of this game (0 to 2), not 7"),
        ({"deals": {"1": {"exact": "yes"}}}, "deal 1: 'exact' is true or false"),
        ([1, 2], "a setup is {'dealer'"),
    ]:
        with pytest.raises(cardsmith.GameError) as info:
            g.deserialize_state(json.dumps({**data, "setup": bad}))
        assert str(info.value).startswith("the setup of a serialized state: ") and message in str(info.value), \
            str(info.value)


@pytest.mark.parametrize("seed", [None, 5])
def test_the_information_state_of_a_set_up_state_hides_the_fixed_cards_of_others(seed: int | None) -> None:
    """The permutation test on set-up positions: two setups that differ only in P1's card (and so in the
    undealt one) give P0 the same information state, and P1 different ones."""
    g = cardsmith.load("kuhn-poker", 2)

    def state(p1: str) -> State:
        s = g.new_initial_state(seed, Setup(deals=[Deal({"hand[0]": ["J of spades"], "hand[1]": [p1]})]))
        while s.is_chance_node():
            s.apply_action(s.chance_outcomes()[0][0])
        s.apply_action(s.legal_actions()[-1])  # P0 bets
        return s

    a, b = state("Q of spades"), state("K of spades")
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    assert a.information_state_string(1) != b.information_state_string(1)


def test_a_set_up_state_is_not_resampled() -> None:
    g = stacked()
    s = g.new_initial_state(1, SETUPS[0])
    with pytest.raises(cardsmith.GameError, match="not available for a state set up with fixed cards"):
        s.resample_from_infostate(0, random.Random(0))
