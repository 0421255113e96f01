"""Rule files as OpenSpiel games (interpreter/openspiel.py): needs the `rl` extra (open_spiel).

* OpenSpiel's own test of a game, `pyspiel.random_sim_test` (random matches checking the API, chance,
  returns against the bounds, strings and tensors of every player at every step, clones, and serialising
  and reading back), passes for every bundled game (and the feature test games, conftest.FEATURE_CASES) at
  every allowed player count. A match of a bundled
  game runs to thousands of steps, so by default each case is one simulation; set OPENSPIEL_SIMS=N for
  more (the slow profile: `OPENSPIEL_SIMS=10 python -m pytest tests/test_openspiel.py`).
* Information set Monte Carlo tree search (`ISMCTSBot`) plays whole matches of a bundled game.
* Kuhn poker as a rule file (games/kuhn-poker.yaml), solved by OpenSpiel's CFR, has OpenSpiel's game
  value -1/18 for P0.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

import cardsmith.openspiel as cso  # noqa: E402
from conftest import FEATURE_CASES, GAME_CASES, GAMES_DIR  # noqa: E402

pytestmark = [pytest.mark.rl]

SIMS = int(os.environ.get("OPENSPIEL_SIMS", "1"))
KUHN = GAMES_DIR / "kuhn-poker.yaml"


@pytest.mark.parametrize("rule_file,num_players", GAME_CASES + FEATURE_CASES)
def test_random_sim_test(rule_file: str, num_players: int) -> None:
    game = cso.load(rule_file, num_players)
    pyspiel.random_sim_test(game, num_sims=SIMS, serialize=True, verbose=False)


def test_game_type_and_parameters() -> None:
    game = pyspiel.load_game("cardsmith", {"file": "schwimmen", "players": 3, "options": ""})
    t = game.get_type()
    # Loaded by the generic name "cardsmith" and parameters, a game's type bears its own name (rules digest,
    # players), which alone loads it again (Shimmy's env=game reloads by it); the generic name stays.
    assert t.short_name == game.own_name
    assert t.short_name.startswith("cardsmith_schwimmen_v") and t.short_name.endswith("_p3")
    assert "cardsmith" in pyspiel.registered_names()
    assert pyspiel.load_game(t.short_name).get_parameters() == game.get_parameters()
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.GENERAL_SUM  # the winners' share: 1, 1/2, ... or nobody
    assert (t.min_num_players, t.max_num_players) == (2, 8)
    assert game.num_players() == 3
    assert game.get_parameters() == {"file": "schwimmen", "players": 3, "options": ""}
    assert game.num_distinct_actions() == game.cardsmith.num_distinct_actions()
    assert game.max_chance_outcomes() == game.cardsmith.max_chance_outcomes()
    assert game.observation_tensor_shape() == game.cardsmith.observation_tensor_shape()
    assert game.information_state_tensor_shape() == game.cardsmith.information_state_tensor_shape()
    # The game's string loads the same game back (what serialising a state relies on).
    again = pyspiel.load_game(str(game))
    assert again.get_parameters() == game.get_parameters()
    # Players 0: the rule file's fewest.
    assert pyspiel.load_game("cardsmith", {"file": "schwimmen"}).num_players() == 2


def test_options_are_passed() -> None:
    game = cso.load("schwimmen", 2)
    state = game.new_initial_state()
    assert state.inner.game.options == game.cardsmith.options
    assert cso.parse_options("a:1; b : yes;") == {"a": "1", "b": "yes"}
    assert cso.format_options({"a": 1, "b": True}) == "a:1;b:yes"
    with pytest.raises(ValueError, match="name:value"):
        cso.parse_options("a=1")


def test_states_clone_and_serialise() -> None:
    game = cso.load("thirty-one", 3)
    rng = random.Random(2)
    state = game.new_initial_state()
    for _ in range(120):
        if state.is_terminal():
            break
        outcomes = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(rng.choice(outcomes))
    copy = state.clone()
    assert copy.history() == state.history() and str(copy) == str(state)
    if not copy.is_terminal():
        copy.apply_action(copy.legal_actions()[0] if not copy.is_chance_node() else copy.chance_outcomes()[0][0])
        assert copy.history() != state.history()
    text = pyspiel.serialize_game_and_state(game, state)
    _, back = pyspiel.deserialize_game_and_state(text)
    assert back.history() == state.history() and str(back) == str(state)
    for p in range(game.num_players()):
        assert back.information_state_tensor(p) == state.information_state_tensor(p)
        assert back.observation_string(p) == state.observation_string(p)


def test_a_resampled_state_refuses_to_be_serialised() -> None:
    """A state from resample_from_infostate has no pyspiel history of its own: serialised, it would read back as
    the match's start. Every way of serialising it says so; its clone is the same state."""
    import pickle

    game = cso.load("go-fish", 2)
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(20):
        outcomes = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(rng.choice(outcomes))
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    world = state.resample_from_infostate(state.current_player(), rng.random)
    assert str(world.clone()) == str(world) and world.clone().legal_actions() == world.legal_actions()
    for serialise in (world.serialize, lambda: pyspiel.serialize_game_and_state(game, world),
                      lambda: pickle.dumps(world)):
        with pytest.raises(pyspiel.SpielError, match="^a state from resample_from_infostate cannot be serialized: "
                           r"it has no pyspiel history \(it is for search\); serialize the state it was resampled "
                           r"from, or its cardsmith state \(state.inner\)$"):
            serialise()
    assert str(pickle.loads(pickle.dumps(state))) == str(state)  # (the state it was resampled from: as before)


@pytest.mark.slow
def test_ismcts_plays_whole_matches() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = cso.load("schwimmen", 2)
    np_rng = __import__("numpy").random.RandomState(4)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np_rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=5, random_state=np_rng)
    rng = random.Random(4)
    for _ in range(2):
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            elif state.current_player() == 0:
                action = bot.step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        assert steps > 0 and len(state.returns()) == 2


@pytest.mark.slow
@pytest.mark.skipif(not KUHN.exists(), reason="games/kuhn-poker.yaml (numeric returns) is not in this tree")
def test_kuhn_poker_cfr_reaches_the_game_value() -> None:
    """The rule file is OpenSpiel's Kuhn poker: CFR's average policy after the same number of iterations has
    the same value as on OpenSpiel's own kuhn_poker, within 1e-3 of the game value -1/18, and is close to an
    equilibrium (measured: -0.0557513 after 300 iterations, exploitability 0.0030)."""
    from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

    def solve(game: object, iterations: int) -> tuple[float, float]:
        solver = cfr.CFRSolver(game)
        for _ in range(iterations):
            solver.evaluate_and_update_policy()
        policy = solver.average_policy()
        value = expected_game_score.policy_value(game.new_initial_state(), [policy] * 2)  # type: ignore[attr-defined]
        return float(value[0]), float(exploitability.exploitability(game, policy))

    game = cso.load(Path(KUHN), 2)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility()) == (-2.0, 2.0)
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)
    value, gap = solve(game, 300)
    assert value == pytest.approx(-1 / 18, abs=1e-3)
    assert gap < 0.01
    reference, _ = solve(pyspiel.load_game("kuhn_poker"), 300)
    assert value == pytest.approx(reference, abs=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("rule_file,num_players", [("hearts", 4), ("go-fish", 3), ("schwimmen", 2),
                                                   ("kuhn-poker", 2), ("thirty-one", 3)])
def test_python_answers_are_pyspiels(rule_file: str, num_players: int) -> None:
    """The state answers Python callers itself (legal actions, node kinds, strings, tensors, returns) and
    C++ callers through pyspiel's own methods: both give the same answers, on states reached by playing,
    by `child` and by reading back a serialised state, for every player; the strings kept by history are
    those a replay of the state's history gives."""
    if not (GAMES_DIR / f"{rule_file}.yaml").exists():
        pytest.skip(f"{rule_file} is not in this tree")
    base = pyspiel.State
    game = cso.load(rule_file, num_players)
    rng = random.Random(7)
    state = game.new_initial_state()
    for step in range(400):
        states = [state]
        if step % 9 == 0:
            states.append(pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1])
        for s in states:
            assert s.current_player() == base.current_player(s)
            assert s.is_chance_node() == base.is_chance_node(s)
            assert s.is_player_node() == base.is_player_node(s)
            assert s.is_terminal() == base.is_terminal(s)
            assert s.legal_actions() == base.legal_actions(s)
            for p in range(num_players):
                assert s.legal_actions(p) == base.legal_actions(s, p)
                # pyspiel's observer asks the state's own strings: compare them with a fresh replay's too.
                fresh = game.cardsmith.deserialize_state(s.inner.serialize())
                assert s.information_state_string(p) == base.information_state_string(s, p) \
                    == fresh.information_state_string(p)
                assert s.observation_string(p) == base.observation_string(s, p) == fresh.observation_string(p)
                assert s.information_state_tensor(p) == base.information_state_tensor(s, p)
                assert s.observation_tensor(p) == base.observation_tensor(s, p)
            if s.is_chance_node():
                assert s.legal_actions() == [a for a, _ in s.chance_outcomes()] == sorted(s.legal_actions())
        if state.is_terminal():
            assert state.returns() == base.returns(state)
            assert [state.player_return(p) for p in range(num_players)] == base.returns(state)
            break
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        a = rng.choice(actions)
        state = state.child(a) if step % 2 else state
        if not step % 2:
            state.apply_action(a)
    with pytest.raises(pyspiel.SpielError):
        state.information_state_string(num_players)
    with pytest.raises(pyspiel.SpielError):
        state.observation_tensor(-1)
