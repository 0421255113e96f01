"""Option constraints and option ranges worked out for the player count (docs/language.md, options), and
`define:` functions fixed for the game where the match is not there yet: option defaults and bounds,
constraints, and the range of a number parameter (C005, C037)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cardsmith
import pytest
from cardsmith.cli.deep import explore
from cardsmith.cli.main import main
from cardsmith.dsl.pipeline import compile_text
from cardsmith.engine.errors import BadOption, RuleError, SetupRefused
from cardsmith.engine.game import Game
from cardsmith.engine.options import option_ranges

RULES = """\
game: Hands
players: {min: 2, max: 6}
options:
  hands:
    type: int
    min: 1
    max: =12 // num_players
    default: =min(2, 12 // num_players)
    doc: cards dealt to each player
  style: {type: choice, values: [plain, fancy], default: plain}
  bonus: {type: int, min: 0, max: =bonus_cap(hands), default: 0}
constraints:
  - refuse: num_players == 5 and style == 'plain'
    message: with 5 players, choose the fancy style
  - require: hands * num_players <= 10 or style == 'fancy'
    message: a plain table deals at most 10 cards
constants:
  K: 3
deck:
  suits: [clubs, hearts]
  ranks: ['2', '3', '4', '5', '6', '7']
zones:
  stock: {visible: nobody}
  hand: {per_player: true, visible: owner}
  pile: {}
variables:
  said: {type: int, per_player: true}
define:
  bonus_cap(x): x * 2 + K
  most_said(): num_players + hands
actions:
  play:
    params: {c: "hand[player]", n: "range(0, most_said())"}
    effect:
      - move c to pile
      - said[player] = n
phases:
  main:
    first: left(dealer)
    actions: [play]
    after:
      - if: len(hand[player]) == 0
        then: [end deal]
match:
  deal:
    - move pack to stock
    - shuffle stock
    - deal hands from stock to hand
    - goto main
  over_when: deal_number >= 1
  winners: players
"""


def compiled(text: str = RULES) -> Any:
    r = compile_text(text, "hands.yaml")
    assert r.ok and r.game is not None, [(d.code, d.message) for d in r.diagnostics]
    return r.game


def test_a_constraint_refuses_the_table_with_the_designers_message() -> None:
    g = compiled()
    with pytest.raises(SetupRefused) as e:
        Game(g, 5)
    assert str(e.value) == "with 5 players, choose the fancy style"
    assert isinstance(e.value, BadOption)
    assert e.value.span is not None and e.value.span.line == 13
    Game(g, 5, {"style": "fancy"})  # the same count, another setting
    with pytest.raises(SetupRefused, match="a plain table deals at most 10 cards"):
        Game(g, 2, {"hands": 6})  # `require` refuses when its condition is false
    assert Game(g, 2, {"hands": 6, "style": "fancy"}).options["hands"] == 6


def test_the_python_api_raises_bad_option_with_the_message(tmp_path: Path) -> None:
    path = tmp_path / "hands.yaml"
    path.write_text(RULES, encoding="utf-8")
    with pytest.raises(BadOption, match="^with 5 players, choose the fancy style$"):
        cardsmith.load(str(path), players=5)
    assert cardsmith.load(str(path), players=5, options={"style": "fancy"}).n == 5


def test_option_ranges_follow_the_player_count() -> None:
    g = compiled()
    for n in range(2, 7):
        game = Game(g, n, {"style": "fancy"})
        assert game.option_ranges["hands"] == (1, 12 // n)
        assert game.options["hands"] == min(2, 12 // n)
        assert game.option_ranges["bonus"] == (0, game.options["hands"] * 2 + 3)  # reads the option above it
        Game(g, n, {"style": "fancy", "hands": 12 // n})
        with pytest.raises(BadOption, match=rf"option 'hands' takes a whole number from 1 to {12 // n} with {n} "
                                            r"players, not '13'"):
            Game(g, n, {"style": "fancy", "hands": "13"})
    assert option_ranges(g, 5) == {"hands": (1, 2), "bonus": (0, 7)}  # though the constraints refuse it
    assert Game(g, 2, {"hands": 4, "bonus": 11, "style": "fancy"}).option_ranges["bonus"] == (0, 11)
    with pytest.raises(BadOption, match="from 0 to 7 with 2 players"):
        Game(g, 2, {"bonus": 8})


def test_a_range_of_a_number_parameter_calls_a_function_of_options_and_players() -> None:
    """The C005 case: `most_said()` reads only `num_players` and an option, so `range(0, most_said())`
    is fixed for the game, as the same expression written out is."""
    g = compiled()
    for n, hands in ((2, 1), (3, 2), (4, 3)):
        game = Game(g, n, {"hands": hands, "style": "fancy"})
        info = next(a for a in game.actions if a.name == "play")
        assert info.radix[1] == n + hands  # n ranges over 0 .. num_players + hands - 1
        s = game.new_initial_state(seed=1)
        texts = {s.action_to_string(s.current_player(), a) for a in s.legal_actions()}
        card = sorted(texts)[0].rsplit(", ", 1)[0]
        assert {f"{card}, {k}" for k in range(n + hands)} <= texts
    written_out = RULES.replace('"range(0, most_said())"', '"range(0, num_players + hands)"')
    assert compiled(written_out).params["play"][1].kind == "int"


def test_a_range_reading_the_match_through_a_function_is_c005() -> None:
    text = RULES.replace("most_said(): num_players + hands", "most_said(): num_players + said[0]")
    r = compile_text(text, "hands.yaml")
    assert [(d.code, d.hint) for d in r.diagnostics] == [
        ("C005", "its bounds cannot call 'most_said', which reads variable 'said'")]


def test_static_places_call_functions_that_read_only_options() -> None:
    text = RULES.replace("default: =min(2, 12 // num_players)", "default: =min(2, per_player(12))").replace(
        "  bonus_cap(x): x * 2 + K", "  bonus_cap(x): x * 2 + K\n  per_player(x): x // num_players")
    g = compiled(text)
    assert Game(g, 4, {"style": "fancy"}).options["hands"] == 2
    assert Game(g, 6, {"style": "fancy"}).options["hands"] == 2
    # ... but not one that reads an option set later (C035), even through another function.
    late = RULES.replace("default: =min(2, 12 // num_players)", "default: =min(2, outer())").replace(
        "  bonus_cap(x): x * 2 + K", "  bonus_cap(x): x * 2 + K\n  outer(): inner() + 1\n  inner(): bonus + style_n()\n"
        "  style_n(): if style == 'plain' then 0 else 1")
    codes = [(d.code, d.message) for d in compile_text(late, "hands.yaml").diagnostics]
    assert codes == [("C035", "the default of option 'hands' calls 'outer', which (through 'inner') reads option "
                              "'bonus', not set yet")], codes


def test_the_rule_file_is_to_blame_for_ranges_that_do_not_fit() -> None:
    # A written default outside the range worked out for some count is a located rule error there.
    text = RULES.replace("default: =min(2, 12 // num_players)", "default: 4")
    g = compiled(text)
    assert Game(g, 3, {"style": "fancy"}).options["hands"] == 4
    with pytest.raises(RuleError, match="the default 4 of option 'hands' is not between 1 and 2 with 5 players"):
        Game(g, 5, {"style": "fancy"})
    # A range with no value at some count.
    empty = RULES.replace("min: 1\n    max: =12 // num_players", "min: =num_players - 3\n    max: =12 // num_players")
    g = compiled(empty.replace("default: =min(2, 12 // num_players)", "default: =num_players - 3"))
    with pytest.raises(RuleError, match="option 'hands' has no allowed value with 6 players: 'min' 3 is above 'max' 2"):
        Game(g, 6, {"style": "fancy"})


def test_cli_run_refuses_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hands.yaml"
    path.write_text(RULES, encoding="utf-8")
    assert main(["run", str(path), "-n", "5"]) != 0
    _, err = capsys.readouterr()
    assert err == "cardsmith: error: with 5 players, choose the fancy style\n"
    assert main(["run", str(path), "-n", "5", "-o", "style=fancy"]) == 0
    capsys.readouterr()


def test_validate_and_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hands.yaml"
    path.write_text(RULES, encoding="utf-8")
    assert main(["validate", str(path)]) == 0
    out, _ = capsys.readouterr()
    # Nothing reads 'bonus' (only its own bound reads an option): a warning, which leaves the file valid.
    assert out.endswith("ok: Hands, 2-6 players, 1 action, 1 phase, 3 options (the default options are refused "
                        "with 5 or 6 players); 1 warning\n")
    assert main(["list", str(path)]) == 0
    out, _ = capsys.readouterr()
    assert ("--option hands=VALUE  (1..12 // num_players: 1..6 with 2 players, 1..4 with 3, 1..3 with 4, 1..2 with "
            "5-6; default =min(2, 12 // num_players))  cards dealt to each player") in out
    assert "--option bonus=VALUE  (0..bonus_cap(hands); default 0)" in out  # reads an option: as written
    assert "refused when num_players == 5 and style == 'plain': with 5 players, choose the fancy style" in out
    assert "refused unless hands * num_players <= 10 or style == 'fancy': a plain table deals at most 10 cards" in out


def test_deep_validation_skips_refused_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = compiled()
    report = explore(g, games_per_setting=1)
    assert report.diagnostics == []
    assert report.settings == report.total_settings
    assert report.refused >= 1
    # hands at the top of its range for each count: played, not refused as out of range
    assert report.games == report.settings - report.refused
    path = tmp_path / "hands.yaml"
    path.write_text(RULES, encoding="utf-8")
    assert main(["validate", "--deep", "--deep-games", "1", str(path)]) == 0
    out, _ = capsys.readouterr()
    assert f"({report.refused} refused by the rules' constraints)" in out and "no problems" in out


def test_deep_validation_tries_the_ends_of_ranges_worked_out_per_count() -> None:
    seen: list[tuple[int, int]] = []
    real = Game.__init__

    def spy(self: Game, compiled: Any, n: int, options: Any = None, *args: Any, **kw: Any) -> None:
        if options and "hands" in options:
            seen.append((n, options["hands"]))
        real(self, compiled, n, options, *args, **kw)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Game, "__init__", spy)
        explore(compiled(), games_per_setting=1)
    for n in range(2, 7):
        assert {(n, 1), (n, 12 // n)} <= set(seen), (n, seen)


def test_a_variant_replaces_the_constraints(tmp_path: Path) -> None:
    (tmp_path / "hands.yaml").write_text(RULES, encoding="utf-8")
    (tmp_path / "open.yaml").write_text("extends: hands.yaml\nconstraints: []\n", encoding="utf-8")
    from cardsmith.dsl.pipeline import compile_file
    r = compile_file(tmp_path / "open.yaml")
    assert r.ok and r.game is not None
    assert Game(r.game, 5).options["style"] == "plain"
