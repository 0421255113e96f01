"""`by_rank` and `by_suit` tables against the cards the pack can hold (C038).

A table without `default:` must give a value to every rank (suit) that a pack entry can put in the
pack, and to every special card (`card:`); before C038, a missing rank validated and then every match
failed at the first rule that added its value (`R001 unsupported operand type(s) for +: 'int' and
'NoneType'`, in the base file of a variant). The goldens tests/invalid/property_missing_rank,
property_missing_joker and variant_adds_rank pin the texts; these tests pin which cards count.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cardsmith.dsl.diagnostics import Diagnostic
from cardsmith.dsl.pipeline import compile_file, compile_text
from cardsmith.engine.game import Game
from cardsmith.engine.state import State
from conftest import GAMES_DIR

GAME = """\
game: Tables
players: {{min: 2, max: 3}}
options:
  low: {{type: bool, default: false}}
deck:
  suits: [clubs, hearts, spades]
  ranks: ['2', '3', '4', '5', '6']
  properties:
{properties}
  pack:
{pack}
zones:
  stock: {{visible: nobody}}
  hand: {{per_player: true, visible: owner}}
  table: {{}}
variables:
  total: {{type: int}}
actions:
  play:
    params: {{card: "hand[player]"}}
    effect:
      - move card to table
      - total = sum([c.value for c in table])
phases:
  round:
    first: left(dealer)
    round: true
    actions: [play]
    end: [end deal]
match:
  deal:
    - move pack to stock
    - shuffle stock
    - deal 1 from stock to hand
    - goto round
  over_when: deal_number >= 2
  winners: players
"""

FULL = "    value: {by_rank: {'2': 2, '3': 3, '4': 4, '5': 5, '6': 6}}"


def check(properties: str, pack: str = "    - {}") -> list[Diagnostic]:
    r = compile_text(GAME.format(properties=properties, pack=pack), "tables.yaml")
    return r.diagnostics


def c038(properties: str, pack: str = "    - {}") -> list[str]:
    """The C038 messages, each with its line."""
    return [f"{d.span.line}: {d.message}" for d in check(properties, pack) if d.code == "C038"]


def test_a_full_table_or_a_default_is_fine() -> None:
    assert check(FULL) == []
    assert check("    value: {by_rank: {'2': 2}, default: 0}") == []
    assert check("    red: {by_suit: {hearts: 1}, default: 0}\n" + FULL) == []


def test_a_missing_rank_is_reported_at_the_table_with_every_rank_it_misses() -> None:
    diags = check("    value: {by_rank: {'2': 2, '3': 3, '4': 4}}")
    assert [(d.code, d.span.line, d.span.col) for d in diags] == [("C038", 9, 13)]
    assert diags[0].message == "cards of ranks '5' and '6' can be in the pack, but property 'value' gives them no value"
    assert diags[0].hint == ("add '5' and '6' to its 'by_rank' table, or give 'value' a 'default:' for the ranks "
                             "not listed")


def test_a_missing_suit_is_reported() -> None:
    assert c038("    red: {by_suit: {hearts: 1, clubs: 0}}\n" + FULL) == [
        "9: cards of suit 'spades' can be in the pack, but property 'red' gives them no value"]


def test_only_ranks_a_pack_entry_names_need_a_value() -> None:
    # The pack holds the 4s to 6s of every suit and the 2s of clubs: the 3s need no value.
    pack = "    - ranks: ['4', '5', '6']\n    - {suits: [clubs], ranks: ['2']}\n    - {ranks: ['3'], copies: 0}"
    assert check("    value: {by_rank: {'2': 2, '4': 4, '5': 5, '6': 6}}", pack) == []
    assert c038("    value: {by_rank: {'4': 4, '5': 5, '6': 6}}", pack) == [
        "9: cards of rank '2' can be in the pack, but property 'value' gives them no value"]
    # by_suit: the hearts and spades come only from the first entry.
    assert c038("    red: {by_suit: {clubs: 0}}\n" + FULL, pack) == [
        "9: cards of suits 'hearts' and 'spades' can be in the pack, but property 'red' gives them no value"]


def test_when_and_where_do_not_excuse_a_missing_rank() -> None:
    """`when` depends on the options and the player count; `where` itself runs over every card its entry
    names (and may read the property), so the ranks they might leave out still need a value."""
    pack = "    - ranks: ['2', '3', '4']\n    - ranks: ['5', '6']\n      when: low\n      where: card.value > 4"
    assert c038("    value: {by_rank: {'2': 2, '3': 3, '4': 4}}", pack) == [
        "9: cards of ranks '5' and '6' can be in the pack, but property 'value' gives them no value"]


def test_special_cards_need_a_value() -> None:
    pack = "    - {}\n    - card: Joker\n      when: low"
    assert check("    value: {by_rank: {'2': 2, '3': 3, '4': 4, '5': 5, '6': 6, Joker: 0}}", pack) == []
    assert c038(FULL, pack) == ["9: card 'Joker' can be in the pack, but property 'value' gives it no value"]
    # A special card has no suit: a by_suit table never applies to it, only a default does.
    joker = "    value: {by_rank: {'2': 2, '3': 3, '4': 4, '5': 5, '6': 6, Joker: 0}}"
    assert c038("    red: {by_suit: {clubs: 0, hearts: 1, spades: 0}}\n" + joker, pack) == [
        "9: card 'Joker' can be in the pack, but property 'red' gives it no value"]
    assert check("    red: {by_suit: {clubs: 0}, default: 1}\n" + joker, pack) == []
    both = c038("    value: {by_rank: {'2': 2, '3': 3, '4': 4, '5': 5}}", pack + "\n    - card: Fool")
    assert both == ["9: cards of rank '6' and cards 'Joker' and 'Fool' can be in the pack, but property 'value' "
                    "gives them no value"]


def test_a_special_card_named_like_a_rank_is_named_once() -> None:
    assert c038("    value: {by_rank: {'2': 2, '3': 3, '4': 4, '5': 5}}", "    - {}\n    - card: '6'") == [
        "9: cards of rank '6' can be in the pack, but property 'value' gives them no value"]


def test_many_missing_ranks_are_counted_not_listed() -> None:
    ranks = [str(n) for n in range(100, 140)]
    text = GAME.format(properties="    value: {by_rank: {'100': 1}}", pack="    - {}").replace(
        "ranks: ['2', '3', '4', '5', '6']", f"ranks: [{', '.join(ranks)}]")
    [d] = compile_text(text, "many.yaml").diagnostics
    assert d.message == ("cards of ranks '101', '102', '103', '104', '105', '106', '107', '108' and 31 more can "
                         "be in the pack, but property 'value' gives them no value")


def test_other_table_mistakes_are_not_doubled() -> None:
    # A key that is not a rank is C002; a key whose value is refused is S018, not also missing.
    diags = check("    value: {by_rank: {'2': 2, '3': 3, '4': 4, '5': 5, '6': 6, '7': 7}}")
    assert [(d.code, d.message) for d in diags] == [("C002", "'7' is not a rank of the deck")]
    diags = check("    value: {by_rank: {'2': 2, '3': 3, '4': [4], '5': 5, '6': 6}}")
    assert [d.code for d in diags] == ["S018"]


@pytest.mark.parametrize("default", ["null", "~", "[0]", "{a: 1}"])
def test_a_default_must_be_a_value(default: str) -> None:
    diags = check(f"    value: {{by_rank: {{'2': 2}}, default: {default}}}")
    assert [(d.code, d.message) for d in diags] == [
        ("S018", "a property's default must be a number, text or true/false")]


def test_a_game_with_a_complete_table_plays() -> None:
    r = compile_text(GAME.format(properties="    value: {by_rank: {'2': 2, '3': 3}, default: 10}",
                                 pack="    - {}"), "tables.yaml")
    assert r.ok and r.game is not None
    g = Game(r.game, 3)
    values = {g.card_names[c]: v for c, v in enumerate(g.ns["P_value"])}
    assert values["2 of clubs"] == 2 and values["6 of spades"] == 10
    s = State.initial(g, 3)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])


# ---------------------------------------------------------------- variants
SCHWIMMEN = GAMES_DIR / "schwimmen.yaml"


def test_a_variant_adding_a_rank_gets_the_error_at_the_rank_it_added(tmp_path: Path) -> None:
    """The issue as reported: Schwimmen with sixes validated, then every match failed in schwimmen.yaml."""
    variant = tmp_path / "sixes.yaml"
    variant.write_text(f"extends: {SCHWIMMEN}\ngame: Schwimmen with sixes\n"
                       "deck:\n  ranks: ['6', '7', '8', '9', '10', J, Q, K, A]\n")
    r = compile_file(variant)
    assert [(d.code, d.span.file, d.span.line, d.span.col) for d in r.diagnostics] == [
        ("C038", str(variant), 4, 11)]
    d = r.diagnostics[0]
    assert d.message == ("cards of rank '6' can be in the pack, but property 'value' gives them no value: its "
                         f"'by_rank' table is at {SCHWIMMEN}:16:7")
    assert d.hint == ("write 'value' under 'deck: properties:' here, with '6' in its table or a 'default:' (a "
                      "variant's 'properties' replace all of the base's)")
    # Following the hint makes a game that plays.
    variant.write_text(variant.read_text() + "  properties:\n    value: {by_rank: {A: 11, '6': 6}, default: 10}\n")
    r = compile_file(variant)
    assert r.ok and r.game is not None, r.diagnostics
    s = State.initial(Game(r.game, 3), 5)
    for _ in range(200):
        if s.is_terminal():
            break
        s.apply_action(s.legal_actions()[-1])


def test_a_variant_table_missing_a_base_rank_gets_the_error_at_its_table(tmp_path: Path) -> None:
    variant = tmp_path / "partial.yaml"
    variant.write_text(f"extends: {SCHWIMMEN}\ngame: Schwimmen, partial\n"
                       "deck:\n  properties:\n    value: {by_rank: {A: 11, K: 10, Q: 10, J: 10}}\n")
    r = compile_file(variant)
    assert [(d.code, d.span.file, d.span.line, d.span.col) for d in r.diagnostics] == [
        ("C038", str(variant), 5, 13)]
    assert r.diagnostics[0].message == ("cards of ranks '7', '8', '9' and '10' can be in the pack, but property "
                                        "'value' gives them no value")
