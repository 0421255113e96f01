"""`match: returns`: each player's result as a number, its bounds and zero_sum, the winners' share
without it, and where the numbers are shown (the run log, `run --json`, scenario files)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from cardsmith.cli.main import main
from cardsmith.dsl.pipeline import compile_text
from cardsmith.engine.errors import RuleError
from cardsmith.engine.game import Game
from cardsmith.engine.state import State
from conftest import GAMES_DIR, compiled

HIGH_CARD = """\
game: High card
players: {min: 2, max: 4}
options:
  stake: {type: int, default: 2, min: 1, max: 10}
deck:
  suits: [clubs, hearts]
  ranks: ['2', '3', '4', '5', '6']
zones:
  stock: {visible: nobody}
  hand: {per_player: true, visible: owner}
variables:
  best: {type: int, per_player: true}
define:
  leader(): max_by(players, q => best[q])
actions:
  show:
    effect:
      - best[player] = first(hand[player]).rank_index
phases:
  showing:
    first: left(dealer)
    round: true
    actions: [show]
    end: [end deal]
match:
  deal:
    - move pack to stock
    - shuffle stock
    - deal 1 from stock to hand
    - goto showing
  over_when: true
  winners: "[leader()]"
  returns:
    value: if p == leader() then stake * (num_players - 1) else -stake
    name: chips
    min: -stake
    max: stake * (num_players - 1)
    zero_sum: yes
"""
VALUE = "    value: if p == leader() then stake * (num_players - 1) else -stake"


def build(src: str = HIGH_CARD, players: int = 3, **options: object) -> Game:
    loaded = compile_text(src, "high.yaml")
    assert loaded.ok and loaded.game is not None, [str(d) for d in loaded.diagnostics]
    return Game(loaded.game, players, dict(options))


def play_out(g: Game, seed: int = 1) -> State:
    s = State.initial(g, seed)
    while not s.is_terminal():
        assert s.returns() == [0.0] * g.n and s.rewards() == [0.0] * g.n  # paid only at the end
        s.apply_action(s.legal_actions()[0])
    return s


def line_of(src: str, text: str) -> int:
    return src.splitlines().index(text) + 1


# ---------------------------------------------------------------- values and bounds
@pytest.mark.parametrize(("players", "stake"), [(2, 1), (3, 2), (4, 10)])
def test_returns_are_the_rule_files_numbers(players: int, stake: int) -> None:
    g = build(players=players, stake=stake)
    assert (g.min_utility, g.max_utility, g.zero_sum, g.utility_sum, g.returns_name) == (
        -stake, stake * (players - 1), True, 0.0, "chips")
    for seed in range(5):
        s = play_out(g, seed)
        top = s.winners[0]
        assert s.returns() == [float(stake * (players - 1)) if p == top else float(-stake) for p in range(players)]
        assert s.rewards() == s.returns()
        assert all(type(x) is float for x in s.returns())
        assert s.clone().returns() == s.returns()


def test_returns_alone_as_an_expression_has_no_bounds() -> None:
    src = HIGH_CARD.split("  returns:")[0] + "  returns: best[p] * 0.5\n"
    g = build(src, 2)
    assert (g.min_utility, g.max_utility, g.zero_sum, g.utility_sum, g.returns_name) == (
        None, None, False, None, "returns")
    s = play_out(g)
    assert s.returns() == [s.v[g.var_names.index(f"best[{p}]")] * 0.5 for p in range(2)]


def test_without_returns_the_winners_share() -> None:
    src = HIGH_CARD.split("  returns:")[0].replace('winners: "[leader()]"',
                                                   "winners: all_max_by(players, q => best[q])")
    g = build(src, 4)
    assert (g.min_utility, g.max_utility, g.zero_sum, g.utility_sum, g.returns_name) == (
        0.0, 1.0, False, None, "returns")
    shares = set()
    for seed in range(40):
        s = play_out(g, seed)
        k = len(s.winners)
        assert s.returns() == [1.0 / k if p in s.winners else 0.0 for p in range(4)]
        shares.add(k)
    assert shares >= {1, 2}  # ties (two 6s) happen with four players: shared wins are covered
    no_winner = build(src.replace("winners: all_max_by(players, q => best[q])", "winners: '[]'"), 2)
    assert play_out(no_winner).returns() == [0.0, 0.0]


def test_bundled_games_keep_the_winners_share() -> None:
    for name in ("stichln", "schwimmen", "siebenbatten", "chwech", "thirty-one"):
        g = Game(compiled(str(GAMES_DIR / f"{name}.yaml")), 4)
        assert (g.min_utility, g.max_utility, g.zero_sum, g.returns_name) == (0.0, 1.0, False, "returns")


# ---------------------------------------------------------------- rule errors at the end of the match
@pytest.mark.parametrize(("value", "message", "detail"), [
    ("if p == leader() then 3 * stake else -stake", "'returns' gave a value outside its bounds (-2 to 4)", "P"),
    ("if p == leader() then stake else -2 * stake", "'returns' gave a value outside its bounds (-2 to 4)", ": -4"),
    ("if p == leader() then none else 0", "'returns' must give a finite number for each player", "got none"),
    ("if p == leader() then 1 else none", "'returns' must give a finite number for each player", "got none"),
    ("stake", "'returns' must add up to 0 ('zero_sum: yes')", "P0 2, P1 2, P2 2"),
])
def test_bad_returns_are_located_rule_errors(value: str, message: str, detail: str) -> None:
    src = HIGH_CARD.replace(VALUE, f"    value: {value}")
    g = build(src, 3)
    s = State.initial(g, 1)
    with pytest.raises(RuleError) as info:
        while True:
            s.apply_action(s.legal_actions()[0])
    e = info.value
    assert e.code == "R001"
    assert e.message == message
    assert e.span is not None and (e.span.file, e.span.line) == ("high.yaml", line_of(src, f"    value: {value}"))
    assert "at the end of deal 1" in str(e)
    assert detail in (e.detail or "")


def test_a_failing_returns_expression_points_at_it() -> None:
    src = HIGH_CARD.replace(VALUE, "    value: stake // (best[p] - best[p])")
    g = build(src, 2)
    s = State.initial(g, 1)
    with pytest.raises(RuleError) as info:
        while True:
            s.apply_action(s.legal_actions()[0])
    at = info.value.span
    assert at is not None and at.line == line_of(src, "    value: stake // (best[p] - best[p])")
    assert "division by zero" in info.value.message


@pytest.mark.parametrize(("old", "new", "message"), [
    ("    min: -stake", "    min: stake * 5", "the 'min' of 'returns' is above its 'max'"),
    ("    max: stake * (num_players - 1)", "    max: -3", "the 'min' of 'returns' is above its 'max'"),
    ("    min: -stake", "    min: 1 // (stake - stake)", "the 'min' of 'returns' failed: division by zero"),
    ("    min: -stake", "    min: if stake > 5 then 0 else none", "the 'min' of 'returns' must be a number"),
    ("    max: stake * (num_players - 1)", "    max: if stake > 5 then 1 else none",
     "the 'max' of 'returns' must be a number"),
    ("    min: -stake", "    min: stake", "'returns' with 'zero_sum: yes' must allow 0 between its 'min' and 'max'"),
])
def test_bad_bounds_stop_the_game_being_set_up(old: str, new: str, message: str) -> None:
    src = HIGH_CARD.replace(old, new)
    with pytest.raises(RuleError) as info:
        build(src, 3)
    assert info.value.message == message
    assert info.value.span is not None and info.value.span.file == "high.yaml"


def test_bounds_read_options_and_the_player_count() -> None:
    assert (build(players=2).min_utility, build(players=2).max_utility) == (-2.0, 2.0)
    assert (build(players=4, stake=5).min_utility, build(players=4, stake=5).max_utility) == (-5.0, 15.0)


def test_checker_refuses_returns_of_the_wrong_kind() -> None:
    for value, message in (("hand[p]", "'returns' must be number, not cards"),
                           ("p == 0", "'returns' must be number, not bool")):
        loaded = compile_text(HIGH_CARD.replace(VALUE, f"    value: {value}"), "high.yaml")
        assert [(d.code, d.message) for d in loaded.diagnostics] == [("C001", message)]
    loaded = compile_text(HIGH_CARD.replace("    min: -stake", "    min: -best[0]"), "high.yaml")
    assert [d.code for d in loaded.diagnostics] == ["C037"]


def test_a_variant_adds_returns_to_its_base(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text(HIGH_CARD.split("  returns:")[0], encoding="utf-8")
    (tmp_path / "variant.yaml").write_text("extends: base.yaml\nmatch:\n  returns:\n    value: best[p]\n"
                                           "    name: rank\n", encoding="utf-8")
    from cardsmith.dsl.pipeline import compile_file
    loaded = compile_file(tmp_path / "variant.yaml")
    assert loaded.ok and loaded.game is not None, loaded.diagnostics
    g = Game(loaded.game, 2)
    assert g.returns_name == "rank"
    s = play_out(g)
    assert s.returns() == [float(s.v[g.var_names.index(f"best[{p}]")]) for p in range(2)]


# ---------------------------------------------------------------- shown by the commands
def test_run_log_ends_with_the_returns(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "high.yaml").write_text(HIGH_CARD, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["run", "high.yaml", "-n", "3", "--seed", "4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-3].startswith("The match is over: ")
    winner = int(lines[-3].split("P")[1].split()[0])
    assert lines[-2] == "chips: " + ", ".join(f"P{p} {4 if p == winner else -2}" for p in range(3))
    assert main(["run", "high.yaml", "-n", "3", "--seed", "4", "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["returns"] == [4.0 if p == winner else -2.0 for p in range(3)]
    assert rec["returns_name"] == "chips"
    assert {"game", "players", "seed", "options", "actions", "deals", "winners", "events",
            "variables"} <= set(rec)
    assert rec["events"][-1] == {"event": "over", "winners": [winner]}


def test_run_log_of_a_game_without_returns(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "stichln", "-n", "3", "--seed", "1", "-o", "deals=1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2].startswith("returns: P0 ")
    values = [float(x.split()[1]) for x in lines[-2][len("returns: "):].split(", ")]
    assert math.isclose(sum(values), 1.0)


def test_kuhn_poker_runs_and_shows_chips(capsys: pytest.CaptureFixture[str]) -> None:
    # Seed 6: a bet called and won at the showdown (each seat's bot draws from its own seed, seat_seed).
    assert main(["run", "kuhn-poker", "--players", "2", "--seed", "6"]) == 0
    out = capsys.readouterr().out
    assert "\nchips: P0 2, P1 -2\n" in out
