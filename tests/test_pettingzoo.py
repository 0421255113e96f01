"""Rule files as PettingZoo AEC environments (interpreter/pettingzoo.py): needs the `rl` extra.

PettingZoo's own API test and seed test pass for every bundled game (at its fewest and most players),
chance is drawn from the environment's seed, observations are the player's observation tensor with an
action mask, and `render_mode="ansi"` shows the table as the player to act sees it.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from cardsmith.engine.state import State  # noqa: E402
from cardsmith.pettingzoo import env  # noqa: E402
from conftest import FEATURE_CASES, GAME_FILES, GAME_PLAYERS, game_case  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

pytestmark = [pytest.mark.rl]

CASES = [game_case(p, n) for p in GAME_FILES
         for n in sorted({GAME_PLAYERS[str(p)].start, GAME_PLAYERS[str(p)].stop - 1})] + FEATURE_CASES


@pytest.mark.parametrize("rule_file,num_players", CASES)
def test_api(rule_file: str, num_players: int) -> None:
    api_test(env(rule_file, num_players, render_mode="ansi"), num_cycles=100, verbose_progress=False)


@pytest.mark.parametrize("rule_file,num_players", CASES)
def test_seed(rule_file: str, num_players: int) -> None:
    seed_test(lambda: env(rule_file, num_players), num_cycles=100)


def test_observations_masks_and_rewards() -> None:
    e = env("schwimmen", 3)
    e.reset(seed=3)
    size = e.game.observation_tensor_shape()[0]
    rng = random.Random(3)
    steps = 0
    for agent in e.agent_iter(max_iter=20_000):
        obs, reward, termination, truncation, _ = e.last()
        assert obs["observation"].shape == (size,) and obs["observation"].dtype == np.float32
        p = int(agent.split("_")[1])
        state: State = e.state  # type: ignore[assignment]
        if termination:
            e.step(None)
            continue
        assert state.current_player() == p
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        assert legal == sorted(state.legal_actions())
        assert obs["observation"].tolist() == pytest.approx(state.observation_tensor(p))
        # Another agent's mask is empty while it is not its turn.
        other = e.possible_agents[(p + 1) % 3]
        assert not e.observe(other)["action_mask"].any()
        e.step(rng.choice(legal))
        steps += 1
    assert steps > 0
    assert e.state is not None and e.state.is_terminal()


def test_same_seed_same_match() -> None:
    def run(seed: int) -> list[int]:
        e = env("thirty-one", 2)
        e.reset(seed=seed)
        actions = []
        for _agent in e.agent_iter(300):
            obs, _, termination, truncation, _ = e.last()
            a = None if termination or truncation else int(np.flatnonzero(obs["action_mask"])[0])
            actions.append(-1 if a is None else a)
            e.step(a)
        return actions

    assert run(5) == run(5)


def test_render_shows_the_acting_players_table() -> None:
    e = env("schwimmen", 2, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str)
    state = e.state
    assert state is not None
    p = state.current_player()
    g = e.game
    mine = [g.card_names[c] for c in state.z[g.zone_names.index(f"hand[{p}]")]]
    theirs = [g.card_names[c] for c in state.z[g.zone_names.index(f"hand[{1 - p}]")]]
    assert f"P{p} to act" in text
    assert all(name in text for name in mine)
    assert f"hand[{1 - p}]: 3 card(s), face down" in text
    assert not any(name in text.split(f"hand[{1 - p}]")[1].split("\n")[0] for name in theirs)
    assert env("schwimmen", 2).render() is None
