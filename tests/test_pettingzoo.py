"""Rule files as PettingZoo AEC environments (interpreter/pettingzoo.py): needs the `rl` extra.

PettingZoo's own API test and seed test pass for every bundled game (at its fewest and most players),
chance is drawn from the environment's seed, observations are the player's observation tensor with an
action mask, and `render_mode="ansi"` shows the table as the player to act sees it.
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from cardsmith.engine.errors import IllegalAction  # noqa: E402
from cardsmith.engine.state import State  # noqa: E402
from cardsmith.pettingzoo import env, raw_env  # noqa: E402
from cardsmith.rlspaces import tensor_bounds  # noqa: E402
from conftest import FEATURE_CASES, GAME_FILES, GAME_PLAYERS, GAMES_DIR, game_case, game_for  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402
from test_observation import hidden_places, permute_hidden  # noqa: E402

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


DEFAULT_CASES = [game_case(p, GAME_PLAYERS[str(p)].start) for p in GAME_FILES]


@pytest.mark.parametrize("rule_file,num_players", DEFAULT_CASES)
def test_api_and_seed_information_state(rule_file: str, num_players: int) -> None:
    api_test(env(rule_file, num_players, information_state=True), num_cycles=50, verbose_progress=False)
    seed_test(lambda: env(rule_file, num_players, information_state=True), num_cycles=50)
    api_test(raw_env(rule_file, num_players), num_cycles=50, verbose_progress=False)


def test_versioned_names(tmp_path: Path) -> None:
    name = env("hearts", 4).metadata["name"]
    assert re.fullmatch(r"cardsmith_hearts_v[0-9a-f]{8}", name)
    assert raw_env("hearts", 4).metadata["name"] == name
    copy = tmp_path / "hearts.yaml"  # the digest reads each file's base name with its text
    shutil.copy(GAMES_DIR / "hearts.yaml", copy)
    assert env(str(copy), 4).metadata["name"] == name  # the same rules wherever they lie
    copy.write_text(copy.read_text() + "\n# edited\n")
    assert env(str(copy), 4).metadata["name"] != name  # edited rules are another environment


@pytest.mark.parametrize("rule_file,num_players", DEFAULT_CASES)
@pytest.mark.parametrize("info_state", [False, True])
def test_observations_in_bounded_spaces_and_masks_in_infos(rule_file: str, num_players: int,
                                                          info_state: bool) -> None:
    e = env(rule_file, num_players, information_state=info_state)
    box = e.observation_space("player_0")["observation"]
    assert box.is_bounded() and np.isfinite(box.low).all() and np.isfinite(box.high).all()
    shape = e.game.information_state_tensor_shape() if info_state else e.game.observation_tensor_shape()
    assert box.shape == tuple(shape)
    e.reset(seed=6)
    rng = random.Random(6)
    for _agent in e.agent_iter(max_iter=3_000):
        obs, _, termination, truncation, info = e.last()
        for other in e.agents:
            seen = e.observe(other)
            assert e.observation_space(other).contains(seen), f"{other}'s observation is outside its space"
            assert (e.infos[other]["action_mask"] == seen["action_mask"]).all()
        assert (info["action_mask"] == obs["action_mask"]).all()
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        e.step(None if termination or truncation else rng.choice(legal))


def test_an_illegal_action_ends_the_match_with_the_penalty() -> None:
    e = env("kuhn-poker", 2)
    e.reset(seed=2)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    e.step(illegal)
    assert all(e.terminations.values())
    other = next(a for a in e.agents if a != agent)
    assert e.rewards[agent] == e.game.min_utility == -2.0  # the default: the game's lowest return
    assert e.rewards[other] == 0
    e = env("kuhn-poker", 2, illegal_reward=-5)
    e.reset(seed=2)
    e.step(illegal)
    assert e.rewards == {agent: -5, other: 0}
    raw = raw_env("kuhn-poker", 2)
    raw.reset(seed=2)
    before = raw.state.history()
    with pytest.raises(IllegalAction):
        raw.step(illegal)
    assert not any(raw.terminations.values())
    assert raw.state.history() == before


@pytest.mark.parametrize("rule_file", [pytest.param("hearts", marks=pytest.mark.slow),
                                       pytest.param("gin-rummy", marks=pytest.mark.slow), "schwimmen"])
def test_what_an_agent_gets_ignores_hidden_cards(rule_file: str) -> None:
    e = raw_env(rule_file, render_mode="ansi", backend="python")
    info_e = raw_env(e.game, information_state=True)
    rgb_e = raw_env(e.game, render_mode="rgb_array")
    prng = random.Random(8)
    checked = 0
    for seed in range(3):
        e.reset(seed=seed)
        for _ in range(80):
            s = e.state
            assert s is not None
            if s.is_terminal():
                break
            p = s.current_player()
            agent = e.possible_agents[p]
            if hidden_places(s, p):
                info_e.state = rgb_e.state = s
                rgb_e.agent_selection = agent
                seen, info, text = e.observe(agent), dict(e.infos[agent]), e.render()
                seen_info, frame = info_e.observe(agent)["observation"], rgb_e.render()
                e.state = info_e.state = rgb_e.state = permute_hidden(s, p, prng)
                assert (rgb_e.render() == frame).all()
                e._after_move()
                now = e.observe(agent)
                assert (now["observation"] == seen["observation"]).all()
                assert (now["action_mask"] == seen["action_mask"]).all()
                assert (e.infos[agent]["action_mask"] == info["action_mask"]).all()
                assert e.render() == text
                assert (info_e.observe(agent)["observation"] == seen_info).all()
                e.state = s
                e._after_move()
                checked += 1
            e.step(prng.choice(s.legal_actions()))
    assert checked > 0


@pytest.mark.parametrize("rule_file,num_players", DEFAULT_CASES)
def test_rgb_array_frames_keep_one_size(rule_file: str, num_players: int) -> None:
    e = env(rule_file, num_players, render_mode="rgb_array")
    e.reset(seed=2)
    rng = random.Random(2)
    shapes = set()
    for i, _agent in enumerate(e.agent_iter(max_iter=400)):
        obs, _, termination, truncation, _ = e.last()
        if i % 10 == 0 or termination:
            frame = e.render()
            assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
            shapes.add(frame.shape)
        e.step(None if termination or truncation else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert len(shapes) == 1


@pytest.mark.parametrize("rule_file,num_players", CASES)
def test_tensor_bounds_hold_in_random_matches(rule_file: str, num_players: int) -> None:
    """Every observation tensor of random play, and the information state tensor every tenth step and at the
    end (its history is the same frames, one more each step; a long game's tensor is large), lies within
    `tensor_bounds`."""
    g = game_for(rule_file, num_players)
    bounds = {info: tensor_bounds(g, info) for info in (False, True)}
    for seed in range(2):
        s = State.initial(g, seed)
        rng = random.Random(seed)
        for step in range(300):
            for p in range(g.n):
                for info, (low, high) in bounds.items():
                    if info and step % 10 and not s.is_terminal():
                        continue
                    t = np.array(s.information_state_tensor(p) if info else s.observation_tensor(p), np.float32)
                    assert t.shape == low.shape and ((low <= t) & (t <= high)).all()
            if s.is_terminal():
                break
            s.apply_action(rng.choice(s.legal_actions()))
