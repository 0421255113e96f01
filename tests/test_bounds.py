"""The bounds OpenSpiel asks a game for (interpreter/engine/bounds.py) and `match: bounds`, which declares them.

* Random play never goes past them: for every bundled game at the player counts of the per-game suites
  (conftest.GAME_CASES), random matches made without a seed (chance drawn by the loop, as OpenSpiel plays)
  never take more player actions than `max_game_length()`, nor meet a chance node with more outcomes than
  `max_chance_outcomes()`, which is at most the pack. (How close the bounds are, over 10,000 matches per
  game, is benchmarks/limits.py's table in docs/research.md.)
* A declared bound is checked as the match is played: past it the match stops with R005, located at the
  declaration (actions) or at the pick (outcomes), on both backends.
* Bad declarations are located: a value that is not a number, one that reads the match, one below 1.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import cardsmith
import pytest
from cardsmith.dsl.pipeline import compile_text
from cardsmith.engine.errors import RuleError
from cardsmith.engine.game import Game
from cardsmith.engine.state import State
from conftest import GAME_CASES, GAME_FILES, game_for, game_param, game_with

MATCHES = 20  # per case (about 60 cases, 1,200 matches): about 30 s of the slow tier in all


def random_match(g: Any, rng: random.Random) -> tuple[int, int, int]:
    """(player actions, chance nodes, most outcomes of a chance node) of one random match without a seed."""
    s = State.initial(g, None)
    actions = chance = most = 0
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            most = max(most, len(outcomes))
            chance += 1
            s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
    return actions, chance, most


@pytest.mark.parametrize(("rule_file", "num_players"), GAME_CASES)
def test_random_play_stays_within_the_bounds(rule_file: str, num_players: int) -> None:
    g = game_for(rule_file, num_players)
    assert g.max_chance_outcomes() <= g.num_cards  # the bound: a bundled game's chance is its pack
    rng = random.Random(f"{rule_file}:{num_players}")
    for _ in range(MATCHES):
        actions, chance, most = random_match(g, rng)
        assert actions <= g.max_game_length()
        assert most <= g.max_chance_outcomes()
        assert chance <= g.max_chance_nodes_in_history()
        assert actions + chance <= g.max_history_length()


@pytest.mark.parametrize("rule_file", [game_param(p) for p in GAME_FILES])
def test_random_play_at_each_option_value_stays_within_the_bounds(rule_file: str) -> None:
    """A declared bound is an expression of the options: every player count at the defaults, then each
    option's other values (a flag flipped, an int's ends), as the native difftest picks them, a few matches
    each. (Oh Hell's `outcomes` once forgot the pick of the dealer, which two cards a suit showed.)"""
    from cardsmith.native.difftest import cases
    for players, options in cases(Path(rule_file).stem):
        g = cardsmith.load(rule_file, players, options)
        assert g.max_chance_outcomes() <= g.num_cards, (players, options)
        rng = random.Random(f"{rule_file}:{players}:{options}")
        for _ in range(3):
            actions, _, most = random_match(g, rng)
            assert actions <= g.max_game_length() and most <= g.max_chance_outcomes(), (players, options)


# ---------------------------------------------------------------- analysis and declarations
PICKS = """\
start:
  - pick d from players
  - dealer = d
  - pick w from ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o']
  - pick x from ways
deal:
  - move pack to stock
  - shuffle stock
  - deal 2 from stock to hand
  - goto main
over_when: deal_number >= 2
winners: players
"""


def load(text: str, players: int = 2, **options: Any) -> Game:
    r = compile_text(text, "bounds.yaml")
    assert r.ok and r.game is not None, [str(d) for d in r.diagnostics]
    return Game(r.game, players, options)


def test_picks_from_players_cards_and_written_lists_are_bounded_by_analysis() -> None:
    g = load(game_with(constants="ways: [x, y, z]\n", match=PICKS))
    # The pack has 12 cards; the list literal has 15 items, the constant 3, the players 2.
    assert g.num_cards == 12 and g.max_chance_outcomes() == 15
    assert g.declared.actions is None and g.max_game_length() == g.limits.actions


def test_a_pick_analysis_cannot_bound_takes_the_declared_outcomes() -> None:
    match = PICKS.replace("pick x from ways", "pick x from range(0, 3 * num_players)") + \
        "bounds:\n  outcomes: 3 * num_players\n  actions: num_players * 2 * 2\n"
    g = load(game_with(match=match), 3)
    assert g.max_chance_outcomes() == 15 and g.declared.outcomes == 9
    assert g.max_game_length() == 12 == g.action_limit
    # Without the declaration, only the step budget bounds that pick.
    g = load(game_with(match=PICKS.replace("pick x from ways", "pick x from range(0, 3 * num_players)")), 3)
    assert g.max_chance_outcomes() == g.limits.steps


def test_a_pick_from_more_values_than_declared_stops_the_match_with_r005() -> None:
    match = PICKS.replace("pick x from ways", "pick x from range(0, 4)").replace(
        "  - pick w from ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o']\n", "")
    text = game_with(match=match + "bounds: {outcomes: 3}\n")
    g = load(text)
    for seed in (None, 1):  # at a chance node, and drawn from a seed
        with pytest.raises(RuleError) as info:
            s = State.initial(g, seed)
            while s.is_chance_node():
                s.apply_action(s.chance_outcomes()[0][0])
        e = info.value
        assert e.code == "R005", e
        assert "'pick' from 4 values, more than the 3 that 'outcomes' of the match's 'bounds' declares" in e.message
        assert e.span is not None and "pick x from range(0, 4)" in text.splitlines()[e.span.line - 1]


def test_a_match_longer_than_the_declared_actions_stops_with_r005() -> None:
    # Two deals of three actions (a deal ends when the player who acted has no card left). Declared: five.
    text = game_with(match="""\
deal:
  - move pack to stock
  - shuffle stock
  - deal 2 from stock to hand
  - goto main
over_when: deal_number >= 2
winners: players
bounds:
  actions: 5
""")
    g = load(text)
    assert g.max_game_length() == 5
    s = g.new_initial_state(3)
    for _ in range(5):
        s.apply_action(s.legal_actions()[0])
    with pytest.raises(RuleError) as info:
        s.apply_action(s.legal_actions()[0])
    e = info.value
    assert e.code == "R005", e
    assert e.message.startswith("the match passed 5 actions, the most that 'actions' of the match's 'bounds' "
                                "declares"), e.message
    assert e.span is not None and text.splitlines()[e.span.line - 1].strip() == "actions: 5"
    # Declared exactly, the same match ends.
    s = load(text.replace("actions: 5", "actions: 6")).new_initial_state(3)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    assert len(s.history()) == 6


def test_a_declared_bound_above_the_action_limit_leaves_the_limit() -> None:
    text = game_with(match=PICKS.replace("  - pick x from ways\n", "") + "bounds: {actions: 50}\n")
    r = compile_text(text, "bounds.yaml")
    assert r.game is not None
    g = Game(r.game, 2, limits=cardsmith.Limits(actions=5))
    assert g.max_game_length() == 5
    s = g.new_initial_state(1)
    with pytest.raises(RuleError) as info:
        for _ in range(6):
            s.apply_action(s.legal_actions()[0])
    assert info.value.code == "R003"


@pytest.mark.parametrize(("value", "code", "words"), [
    ("\"[1, 2]\"", "C001", "must be number, not list of int"),
    ("len(pile)", "C037", "the match's 'bounds' are fixed for the whole game"),
])
def test_a_bound_that_is_not_a_number_fixed_for_the_game_is_located(value: str, code: str, words: str | None) -> None:
    text = game_with(match=PICKS.replace("  - pick x from ways\n", "") + f"bounds:\n  actions: {value}\n")
    r = compile_text(text, "bounds.yaml")
    found = [d for d in r.diagnostics if d.severity == "error"]
    assert found and found[0].code == code, [str(d) for d in r.diagnostics]
    assert text.splitlines()[found[0].span.line - 1].strip().startswith("actions:")
    if words is not None:
        assert words in found[0].message


def test_an_unknown_key_of_bounds_is_refused() -> None:
    text = game_with(match=PICKS.replace("  - pick x from ways\n", "") + "bounds:\n  deals: 3\n")
    r = compile_text(text, "bounds.yaml")
    assert not r.ok and any("deals" in d.message for d in r.diagnostics), [str(d) for d in r.diagnostics]


@pytest.mark.parametrize("value", ["0", "num_players - 2", "2.5"])
def test_a_bound_below_one_or_not_whole_is_a_located_error_when_the_game_is_set_up(value: str) -> None:
    text = game_with(match=PICKS.replace("  - pick x from ways\n", "") + f"bounds:\n  actions: {value}\n")
    r = compile_text(text, "bounds.yaml")
    assert r.ok and r.game is not None
    with pytest.raises(RuleError) as info:
        Game(r.game, 2)
    e = info.value
    assert "'actions' of 'bounds' must be a whole number of 1 or more" in e.message
    assert e.span is not None and text.splitlines()[e.span.line - 1].strip() == f"actions: {value}"


def test_bundled_bounds_follow_the_table() -> None:
    """Bounds are expressions of the options and the player count."""
    assert cardsmith.load("stichln", 3).max_game_length() == 3 * 3 * 15
    assert cardsmith.load("stichln", 7, {"deals": 2}).max_game_length() == 2 * 7 * 14
    assert cardsmith.load("whist", 4, {"target": 7}).max_game_length() == 52 * 13
    oh = cardsmith.load("oh-hell", 5)
    assert oh.declared.outcomes == 51 // 5 and oh.max_game_length() == 5 * (51 // 5 + 1)
    assert oh.max_chance_outcomes() == 52
    assert cardsmith.load("hearts", 4).max_chance_outcomes() == 52  # its pick is from a constant of four


def test_chance_outcomes_of_a_match_are_counted_where_shuffles_and_picks_run_once_a_deal() -> None:
    # Chance only in `match: start` and `match: deal`, and the deals bounded: each shuffle gives at most the
    # pack less one outcome, each pick one.
    assert cardsmith.load("kuhn-poker", 2).max_chance_nodes_in_history() == 2  # as pyspiel's kuhn_poker
    assert cardsmith.load("hearts", 4).max_chance_nodes_in_history() == 1 + 51
    assert cardsmith.load("chwech", 4).max_chance_nodes_in_history() == 1 + 6 * 35  # deal_number >= 6
    assert cardsmith.load("stichln", 3, {"deals": 2}).max_chance_nodes_in_history() == 2 * 44  # >= an option
    assert cardsmith.load("cribbage", 2).max_chance_nodes_in_history() == 100 * 51  # max_deals
    base = load(game_with())  # two deals (deal_number >= 2), one shuffle of 12 cards each
    assert base.max_chance_nodes_in_history() == 2 * 11
    assert base.max_history_length() == base.max_game_length() + 22
    # A shuffle an action may run, one in a `for` step, or deals without a bound: only the budget bounds it.
    open_ = [game_with(actions="""\
play:
  params: {c: "hand[player]"}
  effect: [move c to pile, shuffle pile]
"""), game_with(match="""\
deal:
  - move pack to stock
  - for: i in range(0, 2)
    do: [shuffle stock]
  - deal 2 from stock to hand
  - goto main
over_when: deal_number >= 2
winners: players
"""), game_with(match="""\
deal:
  - move pack to stock
  - shuffle stock
  - deal 2 from stock to hand
  - goto main
over_when: deal_number + 1 >= 3
winners: players
""")]
    for text in open_:
        g = load(text)
        assert g.max_chance_nodes_in_history() == (g.action_limit + 1) * g.limits.steps


@pytest.mark.rl
def test_openspiel_sees_the_bounds(tmp_path: Path) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import cardsmith.openspiel  # noqa: F401  (registers the game)
    kuhn = pyspiel.load_game("cardsmith", {"file": "kuhn-poker", "backend": "python"})
    assert kuhn.max_game_length() == pyspiel.load_game("kuhn_poker").max_game_length() == 3
    assert kuhn.max_chance_outcomes() == 3
    assert kuhn.max_chance_nodes_in_history() == pyspiel.load_game("kuhn_poker").max_chance_nodes_in_history() == 2
    assert kuhn.max_history_length() == 5
    # A match of few actions and many chance outcomes: pyspiel's default for a Python game
    # (max_chance_nodes_in_history = max_game_length) would be passed; the adapter's bound is not.
    path = tmp_path / "short.yaml"
    path.write_text(game_with(phases="main:\n  actions: [play]\n  after: [end deal]\n", match="""\
deal:
  - move pack to stock
  - shuffle stock
  - deal 6 from stock to hand
  - goto main
over_when: deal_number >= 2
winners: players
bounds: {actions: 2}
"""), encoding="utf-8")
    short = pyspiel.load_game("cardsmith", {"file": str(path), "players": 2, "backend": "python"})
    s = short.new_initial_state()
    while not s.is_terminal():
        s.apply_action(s.chance_outcomes()[0][0] if s.is_chance_node() else s.legal_actions()[0])
    assert (short.max_game_length(), short.max_chance_nodes_in_history()) == (2, 22)
    assert len(s.history()) == 24 == short.max_history_length() > 2 * short.max_game_length()
    pyspiel.random_sim_test(short, num_sims=3, serialize=True, verbose=False)

    hearts = pyspiel.load_game("cardsmith", {"file": "hearts", "backend": "python"})
    assert hearts.max_chance_outcomes() == pyspiel.load_game("hearts").max_chance_outcomes() == 52
    assert hearts.max_game_length() == 64


NATIVE_MATCH = """\
deal:
  - pick x from range(0, 2 + deal_number)
  - move pack to stock
  - shuffle stock
  - deal 2 from stock to hand
  - goto main
over_when: deal_number >= 2
winners: players
bounds: {outcomes: 3, actions: ACTIONS}
"""


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["python", "native"])
def test_the_native_backend_stops_where_the_python_one_does(backend: str, tmp_path: Any) -> None:
    """R005 for the actions and for a pick, natively: the same error as the Python backend's."""
    path = tmp_path / "bounds.yaml"
    path.write_text(game_with(match=NATIVE_MATCH.replace("ACTIONS", "2")), encoding="utf-8")
    g = cardsmith.load(path, 2, backend=backend)
    assert g.backend == backend and g.max_game_length() == 2
    s = g.new_initial_state(5)
    with pytest.raises(RuleError) as info:
        while not s.is_terminal():
            s.apply_action(s.legal_actions()[0])
    assert info.value.code == "R005" and "'actions' of the match's 'bounds'" in info.value.message
    # The second deal picks from four values, more than `outcomes` allows.
    path.write_text(game_with(match=NATIVE_MATCH.replace("ACTIONS", "30")), encoding="utf-8")
    g = cardsmith.load(path, 2, backend=backend)
    for seed in (5, None):
        s = g.new_initial_state(seed)
        with pytest.raises(RuleError) as info:
            while not s.is_terminal():
                s.apply_action(s.chance_outcomes()[0][0] if s.is_chance_node() else s.legal_actions()[0])
        assert info.value.code == "R005" and "'pick' from 4 values" in info.value.message, info.value
