"""Rule files as single-agent Gymnasium environments (interpreter/gymnasium.py): needs the `rl` extra.

Every bundled game is registered as `cardsmith/<Game>-v0`; `gymnasium.make` with bundled opponents passes
Gymnasium's `check_env`; a seed replays an episode (chance and the bots' choices); an illegal action ends the
episode with the documented penalty; observations stay in their bounded space; and what the learner gets
(observation, mask, render) does not change when the cards it cannot see are permuted.
"""

from __future__ import annotations

import random
import shutil
import warnings
from pathlib import Path
from typing import Any

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

import cardsmith.gymnasium as cg  # noqa: E402
from cardsmith.bots import BadBotSpec  # noqa: E402
from cardsmith.engine.errors import GameError  # noqa: E402
from conftest import GAME_FILES, GAMES_DIR, game_param  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from test_observation import hidden_places, permute_hidden  # noqa: E402

pytestmark = [pytest.mark.rl]

STEMS = [p.stem for p in GAME_FILES]


def test_every_bundled_game_is_registered() -> None:
    assert sorted(cg.ENV_IDS) == sorted(cg.env_id(s) for s in STEMS)
    assert cg.env_id("hearts") == "cardsmith/Hearts-v0" and cg.env_id("kuhn-poker") == "cardsmith/KuhnPoker-v0"
    for ident in cg.ENV_IDS:
        assert ident in gymnasium.registry


@pytest.mark.parametrize("ident,opponents", [
    pytest.param("cardsmith/Hearts-v0", "random", marks=pytest.mark.slow), ("cardsmith/KuhnPoker-v0", "greedy"),
    ("cardsmith/LeducPoker-v0", "ismcts(iterations=5)"),
    pytest.param("cardsmith/GinRummy-v0", "random", marks=pytest.mark.slow)])
def test_check_env(ident: str, opponents: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # Gymnasium's checker warns where it finds a fault: none may be found
        for kwargs in ({}, {"flatten": True, "information_state": True}, {"render_mode": "ansi", "seat": 1},
                       {"render_mode": "rgb_array"}):
            env = gymnasium.make(ident, opponents=opponents, **kwargs)
            check_env(env.unwrapped)
            env.close()


def test_module_prefix_id_rule_file_id_and_vector_envs(tmp_path: Path) -> None:
    env = gymnasium.make("cardsmith.gymnasium:cardsmith/KuhnPoker-v0", opponents="random")
    assert isinstance(env.unwrapped, cg.CardsmithGymEnv)
    own = tmp_path / "mine.yaml"
    shutil.copy(GAMES_DIR / "kuhn-poker.yaml", own)
    env = gymnasium.make(cg.RULE_FILE_ID, game=str(own), opponents="greedy")
    assert env.unwrapped.game.name == "Kuhn poker"
    check_env(env.unwrapped)
    vec = gymnasium.make_vec("cardsmith/KuhnPoker-v0", num_envs=3, vectorization_mode="sync", opponents="random")
    obs, info = vec.reset(seed=1)
    assert obs["observation"].shape[0] == 3
    assert info["action_mask"].shape == (3, env.unwrapped.game.num_distinct_actions())


def _episode(env: Any, seed: int) -> tuple[list[int], float, int]:
    """A random episode: (the learner's actions, its last reward, steps)."""
    obs, info = env.reset(seed=seed)
    rng = random.Random(seed)
    actions: list[int] = []
    reward = 0.0
    for _ in range(10_000):
        assert env.observation_space.contains(obs)
        legal = np.flatnonzero(info["action_mask"]).tolist()
        assert legal == sorted(env.unwrapped.state.legal_actions())
        assert (env.unwrapped.action_masks() == info["action_mask"].astype(bool)).all()
        a = rng.choice(legal)
        actions.append(a)
        obs, reward, terminated, truncated, info = env.step(a)
        if terminated or truncated:
            break
    else:
        pytest.fail("the episode did not end")
    return actions, float(reward), len(actions)


@pytest.mark.parametrize("stem", [game_param(p) for p in GAME_FILES])
def test_random_episodes_stay_in_their_spaces(stem: str) -> None:
    env = cg.CardsmithGymEnv(stem, opponents="random")
    _, reward, _ = _episode(env, 3)
    s = env.state
    assert s.is_terminal() and reward == pytest.approx(s.returns()[env.seat])
    info_env = cg.CardsmithGymEnv(stem, opponents="random", information_state=True, flatten=True)
    obs, _ = info_env.reset(seed=4)
    assert info_env.observation_space.contains(obs)
    assert obs.shape == tuple(info_env.game.information_state_tensor_shape())


def test_same_seed_same_episode() -> None:
    runs = [_episode(gymnasium.make("cardsmith/Schwimmen-v0", players=3, opponents="greedy, random"), 9)
            for _ in range(2)]
    assert runs[0] == runs[1]
    other = _episode(gymnasium.make("cardsmith/Schwimmen-v0", players=3, opponents="greedy, random"), 10)
    assert other != runs[0]


def test_illegal_action_ends_the_episode_with_the_penalty() -> None:
    env = cg.CardsmithGymEnv("kuhn-poker", opponents="random")
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert terminated and not truncated and info["illegal_action"] is True
    assert reward == env.game.min_utility == -2.0  # the default: the game's lowest return
    assert not info["action_mask"].any()
    env = cg.CardsmithGymEnv("kuhn-poker", opponents="random", illegal_reward=-10)
    env.reset(seed=1)
    assert env.step(illegal)[1] == -10


def test_seat_and_opponents_are_checked() -> None:
    env = cg.CardsmithGymEnv("hearts", seat=2, opponents=["greedy", "random"])
    assert env.opponents[0].name == "greedy" and env.opponents[1].name == env.opponents[3].name == "random"
    env.reset(seed=2)
    assert env.state.current_player() == 2
    with pytest.raises(GameError, match="seat must be"):
        cg.CardsmithGymEnv("hearts", seat=4)
    with pytest.raises(BadBotSpec):
        cg.CardsmithGymEnv("hearts", opponents="nobot")


def test_versioned_name() -> None:
    env = cg.CardsmithGymEnv("hearts")
    assert env.metadata["name"].startswith("cardsmith_hearts_v")


@pytest.mark.parametrize("stem", [pytest.param("hearts", marks=pytest.mark.slow),
                                  pytest.param("gin-rummy", marks=pytest.mark.slow), "kuhn-poker", "schwimmen"])
def test_what_the_learner_gets_ignores_hidden_cards(stem: str) -> None:
    env = cg.CardsmithGymEnv(stem, opponents="random", render_mode="ansi", backend="python")
    info_env = cg.CardsmithGymEnv(env.game, opponents="random", information_state=True)
    rgb_env = cg.CardsmithGymEnv(env.game, opponents="random", render_mode="rgb_array")
    prng = random.Random(5)
    checked = 0
    for seed in range(4):
        obs, info = env.reset(seed=seed)
        for _ in range(60):
            s = env.state
            if hidden_places(s, env.seat):
                info_env.state = rgb_env.state = s
                seen, seen_info, frame = env.render(), info_env._observation()["observation"], rgb_env.render()
                t = permute_hidden(s, env.seat, prng)
                env.state = info_env.state = rgb_env.state = t
                assert (rgb_env.render() == frame).all()
                obs2 = env._observation()
                assert (obs2["observation"] == obs["observation"]).all()
                assert (obs2["action_mask"] == obs["action_mask"]).all()
                assert (env._info()["action_mask"] == info["action_mask"]).all()
                assert env.render() == seen
                assert (info_env._observation()["observation"] == seen_info).all()
                env.state = info_env.state = s
                checked += 1
            legal = np.flatnonzero(info["action_mask"]).tolist()
            obs, _, terminated, _, info = env.step(prng.choice(legal))
            if terminated:
                break
    assert checked > 0


def test_rgb_array_frames() -> None:
    env = cg.CardsmithGymEnv("hearts", opponents="random", render_mode="rgb_array")
    _, info = env.reset(seed=1)
    shapes = set()
    for _ in range(20):
        frame = env.render()
        assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
        shapes.add(frame.shape)
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated:
            break
    assert len(shapes) == 1  # one size for every frame of a game
    # The learner's 13 cards are drawn face up: the frame holds the cards' paper colour (style.css --paper).
    assert (frame == (255, 253, 247)).all(axis=2).sum() > 1000
