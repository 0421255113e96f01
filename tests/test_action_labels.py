"""One action label in several phases (C034) and reading an action's text at a state.

Two actions that print alike (the same label, the same kinds of parameters) are refused only when one
phase offers both: only the current phase's actions can be legal, so a text is read among them. The game
is tests/games/two-rounds.yaml, whose two bidding rounds each have their own `bid`; its scenarios are in
tests/scenarios/two-rounds.yaml (run by tests/test_scenarios.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cardsmith import AmbiguousAction, GameError
from cardsmith.dsl.pipeline import compile_text
from cardsmith.engine.game import Game
from cardsmith.engine.state import State
from cardsmith.scenario.runner import run_file
from cardsmith.table.terminal import Painter
from cardsmith.table.view import TableView
from conftest import ROOT, compiled

TWO_ROUNDS = ROOT / "tests" / "games" / "two-rounds.yaml"


def diagnostics(text: str) -> list[tuple[str, int, int, str]]:
    loaded = compile_text(text, "t.yaml", warnings=True)
    return [(d.code, d.span.line, d.span.col, d.message) for d in loaded.diagnostics]


def test_the_two_rounds_game_is_valid_without_warnings() -> None:
    assert diagnostics(TWO_ROUNDS.read_text(encoding="utf-8")) == []


def test_one_phase_offering_both_is_refused_at_its_list() -> None:
    text = TWO_ROUNDS.read_text(encoding="utf-8").replace("    actions: [raise, stand]",
                                                          "    actions: [raise, stand, bid]")
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln == "    actions: [raise, stand, bid]")
    assert diagnostics(text) == [
        ("C034", line, 29, "actions 'raise' and 'bid' print alike ('bid' with int), and phase 'second_bids' "
                           "offers both")]


def test_each_phase_offering_both_is_refused_once() -> None:
    text = TWO_ROUNDS.read_text(encoding="utf-8")
    text = text.replace("    actions: [bid]\n", "    actions: [bid, raise]\n")
    text = text.replace("    actions: [raise, stand]", "    actions: [raise, stand, bid, raise]")
    found = [(code, msg) for code, _, _, msg in diagnostics(text)]
    assert ("C034", "actions 'bid' and 'raise' print alike ('bid' with int), and phase 'first_bids' offers "
                    "both") in found
    assert ("C034", "actions 'raise' and 'bid' print alike ('bid' with int), and phase 'second_bids' offers "
                    "both") in found
    # An action listed twice does not print alike with itself.
    assert [code for code, _ in found].count("C034") == 2


def test_actions_of_different_kinds_may_share_a_phase() -> None:
    # `bid N` and `bid nil`: the texts differ by their parameters' kinds, as before.
    text = TWO_ROUNDS.read_text(encoding="utf-8").replace(
        "  stand:\n    label: pass\n", "  stand:\n    label: bid\n    params: {word: \"['nil']\"}\n")
    assert diagnostics(text) == []


def two_rounds(players: int = 2) -> Game:
    return Game(compiled(str(TWO_ROUNDS)), players)


def ids_of(g: Game, name: str) -> range:
    info = next(a for a in g.codec.actions if a.name == name)
    return range(info.offset, info.offset + info.size)


def test_a_text_is_read_in_the_phase_the_match_is_in() -> None:
    g = two_rounds()
    bid, raise_ = ids_of(g, "bid"), ids_of(g, "raise")
    # Without a state, the text stands for both actions.
    both = g.actions_from_string("bid 2")
    assert len(both) == 2 and both[0] in bid and both[1] in raise_
    assert [g.action_to_string(None, a) for a in both] == ["bid 2", "bid 2"]
    assert g.action_from_string("bid 2") == both[0]

    s = State.initial(g, seed=3)
    assert g.phases[s.phase].name == "first_bids"
    a = s.action_from_string("bid 1")
    assert a in bid and a in s.legal_actions()
    s.apply_action(a)
    s.apply_action(s.action_from_string("bid 2"))  # type: ignore[arg-type]
    assert g.phases[s.phase].name == "second_bids" and s.current_player() == 1  # P0 deals, P1 bid first
    a = s.action_from_string("bid 2")
    assert a in raise_ and a in s.legal_actions()
    # Not legal (P1 bid 1 and may only raise), but the phase offers `raise`: the text is the raise, refused.
    a = s.action_from_string("bid 1")
    assert a in raise_ and a not in s.legal_actions()
    with pytest.raises(GameError):
        s.apply_action(a)  # type: ignore[arg-type]
    assert s.action_from_string("bid 7") is None and s.action_from_string("bid") is None
    s.apply_action(s.action_from_string("pass"))  # type: ignore[arg-type]
    s.apply_action(s.action_from_string("pass"))  # type: ignore[arg-type]
    assert g.phases[s.phase].name == "tricks"
    # No phase offering either: the lowest, as Game.action_from_string.
    assert s.action_from_string("bid 2") == both[0]


AMBIGUOUS = """\
game: Ambiguous
players: 2
deck:
  suits: [clubs]
  ranks: ['2']
  pack:
    - card: "Joker, red"
    - card: Joker
    - card: "red, Joker"
zones:
  stock: {}
actions:
  swap:
    params: {a: stock, b: stock}
    when: a != b
  pass: {}
phases:
  main:
    actions: [swap, pass]
    after: [end deal]
match:
  deal: [goto main]
  over_when: true
  winners: players
"""


def test_two_legal_actions_printing_alike_are_ambiguous(tmp_path: Path) -> None:
    loaded = compile_text(AMBIGUOUS, str(tmp_path / "ambiguous.yaml"))
    assert loaded.ok and loaded.game is not None, [d.message for d in loaded.diagnostics]
    s = State.initial(Game(loaded.game, 2), seed=1)
    with pytest.raises(AmbiguousAction) as e:
        s.action_from_string("swap Joker, red, Joker")
    assert str(e.value) == ("'swap Joker, red, Joker' is the text of 2 legal actions (swap(a='Joker, red', "
                            "b='Joker'); swap(a='Joker', b='red, Joker')), so it cannot say which one is meant; "
                            "the rule file must label or name them apart")
    assert s.action_from_string("swap Joker, red, Joker #2") is None
    assert s.action_from_string("swap red, Joker, Joker, red") is not None  # one reading only

    (tmp_path / "ambiguous.yaml").write_text(AMBIGUOUS, encoding="utf-8")
    (tmp_path / "s.yaml").write_text("game: ambiguous.yaml\nscenarios:\n  - name: s\n    steps:\n"
                                     "      - P0: swap Joker, red, Joker\n", encoding="utf-8")
    [result] = run_file(str(tmp_path / "s.yaml"))
    assert not result.ok and result.span.line == 5
    assert result.message == str(e.value)


def test_the_terminal_names_parameters_only_of_one_action() -> None:
    """The log keeps an action's text, not which action it was: when actions of different phases print
    alike but name their parameters differently, the terminal shows the text as it is."""
    text = """\
game: Give
players: 2
deck: {suits: [clubs], ranks: ['2', '3', '4', '5']}
zones:
  stock: {}
  hand: {per_player: true}
actions:
  give:
    params: {card: "hand[player]", target: players}
    effect: ["move card to hand[target]"]
  hand_on:
    label: give
    params: {c: "hand[player]", whom: players}
    effect: ["move c to hand[whom]"]
  play:
    params: {card: "hand[player]", target: players}
    effect: ["move card to stock"]
phases:
  first:
    actions: [give]
    then: second
  second:
    actions: [hand_on, play]
    after: [end deal]
match:
  deal: ["deal 2 from stock to hand", goto first]
  over_when: true
  winners: players
"""
    loaded = compile_text(text, "give.yaml")
    assert loaded.ok and loaded.game is not None, [d.message for d in loaded.diagnostics]
    g = Game(loaded.game, 2)
    paint = Painter(TableView(g), symbols=False)
    shown = "".join(seg for seg, _ in paint.action_text("give 2 of clubs, P1"))
    assert shown == "give 2 of clubs, P1"
    # One action printing so: its parameters are named.
    shown = "".join(seg for seg, _ in paint.action_text("play 2 of clubs, P1"))
    assert shown == "play: card 2 of clubs, target P1"
