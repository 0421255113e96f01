"""OpenSpiel's own algorithms on bundled rule files through `cardsmith.openspiel` (issue 34): needs the `rl` extra.

* `ismcts.ISMCTSBot` plays Kuhn poker, Hearts and Go Fish (dealt lazily: its chance nodes are the cards as they
  are first needed). Its worlds come from the adapter's `resample_from_infostate`; each one is checked to be a
  state the searching player cannot tell from the real one (the same information-state string).
* `cfr.CFRSolver` on Leduc poker (games/leduc-poker.yaml) gives, after the same iterations, the same value and
  exploitability as on pyspiel's own `leduc_poker`, to the last digits (Kuhn poker's: tests/test_openspiel.py).
* `rl_environment.Environment` with `tabular_qlearner.QLearner`: the learner, trained against a random player
  on Kuhn poker, is worth clearly more than a random player in the same seat, both valued exactly over the
  game tree (`expected_game_score.policy_value`), with a fixed seed.

The recipes of docs/research.md ("Algorithms: CFR, ISMCTS, tabular RL") are these, run in tests/test_docs.py.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import cardsmith.openspiel as cso  # noqa: E402

pytestmark = [pytest.mark.rl]


def _checked_resampler(seen: list[int]) -> Any:
    """ISMCTSBot's own call (`state.resample_from_infostate(player, sampler)`), checking each world."""
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)

    def resample(state: Any, player: int) -> Any:
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.legal_actions() == state.legal_actions()
        seen.append(1)
        return world
    return resample


def _play_with_ismcts(name: str, players: int, simulations: int, decisions: int, seed: int,
                      backend: str = "python") -> tuple[int, Any]:
    """Seat 0 searched by ISMCTSBot, the others random, chance drawn by the loop: `decisions` of seat 0 or the
    match's end. The decisions made and the final state."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = cso.load(name, players, backend=backend)
    assert game.cardsmith.backend == backend
    np_rng = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np_rng), uct_c=2.0,
                           max_simulations=simulations, random_state=np_rng)
    worlds: list[int] = []
    bot.set_resampler(_checked_resampler(worlds))
    rng = random.Random(seed)
    state = game.new_initial_state()
    made = searched = 0
    while not state.is_terminal() and made < decisions:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        elif state.current_player() == 0:
            searched += len(state.legal_actions()) > 1  # (one legal action: ISMCTSBot plays it unsearched)
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            made += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(worlds) == searched * simulations  # every simulation searched a world of its own
    assert searched > 0
    return made, state


def test_ismcts_plays_kuhn_poker_and_hearts() -> None:
    for seed in range(4):
        made, state = _play_with_ismcts("kuhn-poker", 2, 20, 10, seed)
        assert state.is_terminal() and made >= 1 and sum(state.returns()) == 0
    made, state = _play_with_ismcts("hearts", 4, 4, 6, 1)  # the pass and a few tricks
    assert made == 6 and not state.is_terminal()


@pytest.mark.slow
def test_ismcts_plays_go_fish_dealt_lazily() -> None:
    """Go Fish's stock is dealt as it is fished: the resampler draws worlds consistent with every ask and every
    card fished so far (measured: 77 ms a world after 20 moves, 193 ms after 40)."""
    game = cso.load("go-fish", 2, backend="python")
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == game.cardsmith.num_cards  # one card at a time
    made, state = _play_with_ismcts("go-fish", 2, 3, 16, 2)
    assert made == 16


def _cfr(game: Any, iterations: int) -> tuple[float, float]:
    from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

    solver = cfr.CFRSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    value = expected_game_score.policy_value(game.new_initial_state(), [policy] * 2)
    return float(value[0]), float(exploitability.exploitability(game, policy))


@pytest.mark.slow
def test_cfr_on_leduc_poker_is_pyspiels() -> None:
    """The rule file plays OpenSpiel's Leduc poker: CFR's average policy after 3 iterations has the value and the
    exploitability it has on pyspiel's `leduc_poker` (measured 2026-11-29: value 0.2419677937637916 for P0,
    exploitability 1.7988065869138403 on both; 2 s of CFR and 2 s of best response on the Python backend)."""
    game = cso.load("leduc-poker", 2, backend="python")
    reference = pyspiel.load_game("leduc_poker")
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_distinct_actions() == reference.num_distinct_actions() == 3
    first = _cfr(game, 1)
    value, gap = _cfr(game, 3)
    ref_value, ref_gap = _cfr(reference, 3)
    assert value == pytest.approx(ref_value, abs=1e-12)
    assert gap == pytest.approx(ref_gap, abs=1e-12)
    assert gap < first[1]  # CFR is converging, not standing still


def _can_build() -> bool:
    from cardsmith.native import build
    return build.missing() is None


@pytest.mark.slow
@pytest.mark.skipif(not _can_build(), reason="the native backend cannot be built here")
def test_ismcts_and_cfr_on_the_native_backend() -> None:
    """The same on native games: ISMCTSBot's worlds in Go Fish resampled natively (each checked as above), and
    CFR on Leduc poker at pyspiel's value and exploitability."""
    made, _ = _play_with_ismcts("go-fish", 2, 3, 16, 2, backend="native")
    assert made == 16
    game = cso.load("leduc-poker", 2, backend="native")
    assert game.cardsmith.backend == "native"
    value, gap = _cfr(game, 3)
    ref_value, ref_gap = _cfr(pyspiel.load_game("leduc_poker"), 3)
    assert value == pytest.approx(ref_value, abs=1e-12) and gap == pytest.approx(ref_gap, abs=1e-12)


class _Greedy:
    """The learner's Q-values as a policy (greedy, ties to the first legal action, as QLearner's evaluation)."""

    def __init__(self, learner: Any, player: int) -> None:
        self.learner, self.player = learner, player

    def action_probabilities(self, state: Any, player_id: int | None = None) -> dict[int, float]:
        legal = state.legal_actions()
        q = self.learner._q_values[str(state.information_state_tensor(self.player))]  # QLearner's own key
        best = max(legal, key=lambda a: q[a])
        return {a: float(a == best) for a in legal}


def _q_learning(game: Any, episodes: int, seed: int) -> tuple[float, float]:
    """(the exact value for seat 0 of a random player, of the trained learner), both against a random player."""
    from open_spiel.python import policy, rl_environment, rl_tools
    from open_spiel.python.algorithms import expected_game_score, random_agent, tabular_qlearner

    env = rl_environment.Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=seed))
    actions = env.action_spec()["num_actions"]
    np.random.seed(seed)  # QLearner explores with numpy's global generator
    explore = rl_tools.LinearSchedule(0.5, 0.02, 2 * episodes)  # about two learner steps an episode
    agents = [tabular_qlearner.QLearner(player_id=0, num_actions=actions, step_size=0.1, epsilon_schedule=explore,
                                        discount_factor=1.0),
              random_agent.RandomAgent(player_id=1, num_actions=actions)]
    for _ in range(episodes):
        ts = env.reset()
        while not ts.last():
            ts = env.step([agents[ts.observations["current_player"]].step(ts).action])
        for agent in agents:
            agent.step(ts)
    uniform = policy.UniformRandomPolicy(game)
    root = game.new_initial_state()
    base = expected_game_score.policy_value(root, [uniform, uniform])[0]
    learned = expected_game_score.policy_value(root, [_Greedy(agents[0], 0), uniform])[0]
    return float(base), float(learned)


def test_tabular_q_learning_learns_kuhn_poker() -> None:
    """4,000 episodes of Q-learning (epsilon from 0.5 down to 0.02; keyed by the information-state tensor,
    QLearner's way) against a random player. A random P0 is worth 0.125 against random, a best response 0.5.
    Measured 2026-11-29, the learner's exact value for seeds 1-8: 0.167, 0.333, 0.333, 0.5, 0.167, 0.333, 0.333,
    0.5, and over seeds 1-24 a mean of 0.382 (pyspiel's kuhn_poker, the same recipe: 0.410; both games have the
    same 12 information sets and tell them apart by tensor alike, so the spread is the seeds'); about a second."""
    from open_spiel.python import policy
    from open_spiel.python.algorithms import best_response

    game = cso.load("kuhn-poker", 2, backend="python")
    base, learned = _q_learning(game, 4000, 2)
    assert base == pytest.approx(0.125, abs=1e-12)  # the game's own value for a random P0 against random
    best = best_response.BestResponsePolicy(game, 0, policy.UniformRandomPolicy(game)).value(game.new_initial_state())
    assert best == pytest.approx(0.5, abs=1e-12)
    assert base + 0.15 < learned <= best + 1e-12
