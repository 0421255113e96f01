"""The batched environment (interpreter/vector.py, `cardsmith.vector.VectorEnv`): needs the `rl` extra.

* Every row is checked against a reference replay: the match made again from its seed (`match_seeds`) with its
  bots made as `simulate` makes them, the learner's actions applied: the row's observation tensor and mask are
  that state's, the mask is exactly the legal actions, and the reward at the end is the seat's return.
* Autoreset in gymnasium's three modes, partial resets (`reset_mask`), seeds that reproduce, self-play (every
  seat the learner: `infos["player"]`, rewards per seat), bots as opponents, refusals with clear messages.
* Hidden information: permuting the cards the row's seat cannot see in a match leaves its row as it was.
* The native backend (slow, where it can be built) gives the same observations, masks and rewards as the
  Python backend for the same seeds and actions.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

import gymnasium  # noqa: E402
from cardsmith.bots import SeatView, make_bot, parse_bots, seat_seed  # noqa: E402
from cardsmith.bots.errors import BadBotSpec  # noqa: E402
from cardsmith.engine import tensors  # noqa: E402
from cardsmith.engine.errors import GameError, IllegalAction  # noqa: E402
from cardsmith.vector import VectorEnv  # noqa: E402
from test_observation import hidden_places, permute_hidden  # noqa: E402

pytestmark = [pytest.mark.rl]


def _random_actions(rng: Any, mask: Any) -> Any:
    """A uniform legal action per row (any action where a row has none: its match has ended)."""
    return (rng.random(mask.shape) + mask).argmax(1)


def _row(state: Any, p: int, observation: str = "observation") -> tuple[list[float], list[int]]:
    if observation == "information_state":
        obs = np.asarray(state.information_state_tensor(p), np.float32)
    else:
        obs = np.zeros(tensors.observation_tensor_shape(state.game)[0], np.float32)
        tensors.write_observation(state, p, obs)
    return obs.tolist(), [] if state.is_terminal() else state.legal_actions()


class _Reference:
    """Slot i's match replayed on its own: the seed, the bots as `simulate` seeds them, the learner's actions."""

    def __init__(self, env: VectorEnv, i: int, opponents: str) -> None:
        g = env.game
        seed = env.match_seeds[i]
        self.seat = env.seat
        self.state = g.new_initial_state(seed=seed)
        specs = parse_bots(opponents, g.n - 1)
        seat = self.seat if self.seat is not None else 0
        specs = specs[:seat] + [None] + specs[seat:]
        self.bots = [None if s is None else make_bot(s, g, p, seat_seed(seed, p)) for p, s in enumerate(specs)]
        self._advance()

    def _advance(self) -> None:
        s = self.state
        while self.seat is not None and not s.is_terminal() and s.current_player() != self.seat:
            p = s.current_player()
            s.apply_action(self.bots[p].choose(SeatView(s, p)))

    def apply(self, action: int) -> None:
        self.state.apply_action(action)
        self._advance()


def _check_against_references(name: str, players: int, seat: int | None, opponents: str, steps: int,
                              observation: str = "observation") -> int:
    env = VectorEnv(name, 6, players, seat=seat, opponents=opponents, backend="python", observation=observation)
    obs, infos = env.reset(seed=11)
    assert env.observation_space.contains(obs)
    refs = [_Reference(env, i, opponents) for i in range(env.num_envs)]
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(steps):
        for i, ref in enumerate(refs):
            p = int(infos["player"][i])
            want_obs, legal = _row(ref.state, p, observation)
            assert obs["observation"][i].tolist() == want_obs
            assert np.flatnonzero(obs["action_mask"][i]).tolist() == sorted(legal)
            if not ref.state.is_terminal():
                assert p == ref.state.current_player() and (seat is None or p == seat)
        actions = _random_actions(rng, obs["action_mask"])
        before = [ref.state.is_terminal() for ref in refs]
        obs, rewards, terminations, truncations, infos = env.step(actions)
        assert not truncations.any()
        for i, ref in enumerate(refs):
            if before[i]:  # next_step: a new match, the action ignored
                assert not terminations[i] and not np.any(rewards[i])
                refs[i] = _Reference(env, i, opponents)
                continue
            ref.apply(int(actions[i]))
            assert terminations[i] == ref.state.is_terminal()
            want = ref.state.returns() if ref.state.is_terminal() else [0.0] * env.game.n
            assert (rewards[i].tolist() == want) if seat is None else (rewards[i] == want[seat])
            ended += int(terminations[i])
    return ended


def test_rows_are_the_matches_own() -> None:
    assert _check_against_references("kuhn-poker", 2, 0, "random", 40) > 10
    assert _check_against_references("kuhn-poker", 2, 1, "first", 40) > 10
    assert _check_against_references("hearts", 4, 2, "random", 40) > 0  # a Hearts match is about 17 steps here


@pytest.mark.slow
def test_rows_are_the_matches_own_in_longer_games() -> None:
    assert _check_against_references("go-fish", 3, 1, "random", 80) > 0
    assert _check_against_references("hearts", 4, None, "random", 140) > 0  # self-play: 52 and more a match
    assert _check_against_references("leduc-poker", 2, None, "random", 30) > 0
    assert _check_against_references("leduc-poker", 2, 1, "random", 30, "information_state") > 0
    assert _check_against_references("go-fish", 2, None, "random", 60, "information_state") > 0


def test_it_is_a_gymnasium_vector_env() -> None:
    env = VectorEnv("hearts", 4, seat=0, backend="python")
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    size = tensors.observation_tensor_shape(env.game)[0]
    assert env.single_observation_space["observation"].shape == (size,)
    assert env.observation_space["observation"].shape == (4, size)
    assert env.observation_space["action_mask"].shape == (4, env.game.num_distinct_actions())
    assert env.action_space.shape == (4,)
    obs, infos = env.reset(seed=0)
    assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
    assert env.observation_space.contains(obs)
    assert infos["player"].tolist() == [0, 0, 0, 0]
    assert env.action_masks().tolist() == obs["action_mask"].astype(bool).tolist()
    # gymnasium's vector wrappers take it: the episodes' returns and lengths as RecordEpisodeStatistics counts them
    stats = gymnasium.wrappers.vector.RecordEpisodeStatistics(VectorEnv("kuhn-poker", 4, backend="python"))
    obs, _ = stats.reset(seed=0)
    rng = np.random.default_rng(0)
    while True:
        obs, rewards, terms, _, infos = stats.step(_random_actions(rng, obs["action_mask"]))
        if terms.any():
            break
    assert infos["episode"]["r"][terms].tolist() == rewards[terms].tolist()
    assert (infos["episode"]["l"][terms] >= 1).all()
    info_env = VectorEnv("hearts", 2, observation="information_state", backend="python")
    obs, _ = info_env.reset(seed=0)
    assert obs["observation"].shape == (2, tensors.information_state_tensor_shape(env.game)[0])
    state = info_env.game.new_initial_state(seed=info_env.match_seeds[0])
    assert obs["observation"][0].tolist() == np.asarray(state.information_state_tensor(0), np.float32).tolist()


def _trajectory(env: VectorEnv, seed: int, steps: int) -> list[Any]:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = [obs["observation"].copy()]
    for _ in range(steps):
        obs, rewards, terms, _, _ = env.step(_random_actions(rng, obs["action_mask"]))
        out += [obs["observation"].copy(), rewards.copy(), terms.copy()]
    return out


def _same(a: list[Any], b: list[Any]) -> bool:
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


def test_seeds_reproduce_matches() -> None:
    env = VectorEnv("go-fish", 4, 2, seat=1, backend="python")
    first = _trajectory(env, 5, 30)
    again = _trajectory(VectorEnv("go-fish", 4, 2, seat=1, backend="python"), 5, 30)
    assert _same(first, again)
    assert not _same(first, _trajectory(env, 6, 30))
    # one seed per slot: slot i with seed x deals what any slot given x deals
    a = VectorEnv("go-fish", 2, 2, backend="python")
    b = VectorEnv("go-fish", 2, 2, backend="python")
    obs_a, _ = a.reset(seed=[7, 8])
    obs_b, _ = b.reset(seed=[8, 7])
    assert a.match_seeds == b.match_seeds[::-1]
    assert obs_a["observation"][0].tolist() == obs_b["observation"][1].tolist()


def test_autoreset_modes() -> None:
    rng = np.random.default_rng(0)
    # next_step: the step after the end starts a new match and ignores its action (here an impossible one)
    env = VectorEnv("kuhn-poker", 3, backend="python")
    obs, _ = env.reset(seed=1)
    while True:
        obs, rewards, terms, _, _ = env.step(_random_actions(rng, obs["action_mask"]))
        if terms.any():
            break
    done = int(np.flatnonzero(terms)[0])
    assert not obs["action_mask"][done].any()
    seeds = list(env.match_seeds)
    actions = _random_actions(rng, obs["action_mask"])
    actions[done] = -1
    obs, rewards, terms2, _, _ = env.step(actions)
    assert not terms2[done] and rewards[done] == 0 and env.match_seeds[done] != seeds[done]
    assert obs["action_mask"][done].any()
    # same_step: the new match at once, the last observation of the one that ended in infos
    env = VectorEnv("kuhn-poker", 3, backend="python", autoreset_mode="same_step")
    obs, _ = env.reset(seed=1)
    while True:
        obs, rewards, terms, _, infos = env.step(_random_actions(rng, obs["action_mask"]))
        if terms.any():
            break
    for i in range(3):
        assert infos["_final_obs"][i] == terms[i]
        assert obs["action_mask"][i].any()  # every row is a match in play
        if terms[i]:
            assert not infos["final_obs"][i]["action_mask"].any()
    # disabled: a finished match waits for reset(options={"reset_mask": ...})
    env = VectorEnv("kuhn-poker", 3, backend="python", autoreset_mode="disabled")
    obs, _ = env.reset(seed=1)
    while True:
        obs, rewards, terms, _, _ = env.step(_random_actions(rng, obs["action_mask"]))
        if terms.any():
            break
    with pytest.raises(GameError, match="has ended: reset it"):
        env.step(_random_actions(rng, obs["action_mask"]))
    kept = obs["observation"][~terms].copy()
    obs, _ = env.reset(options={"reset_mask": terms})
    assert obs["action_mask"].any(axis=1).all()
    assert np.array_equal(obs["observation"][~terms], kept)  # the other matches go on as they were


def test_self_play_reports_whose_turn() -> None:
    env = VectorEnv("hearts", 3, seat=None, backend="python")
    obs, infos = env.reset(seed=2)
    rng = np.random.default_rng(2)
    totals, returned = np.zeros((3, 4)), np.zeros(4)
    ends = 0
    for _ in range(200):
        for i in range(3):
            s = env._states[i]
            if not s.is_terminal():
                assert infos["player"][i] == s.current_player()
        obs, rewards, terms, _, infos = env.step(_random_actions(rng, obs["action_mask"]))
        assert rewards.shape == (3, 4)
        totals += rewards
        for i in np.flatnonzero(terms):
            assert rewards[i].tolist() == env._states[i].returns()
            returned += env._states[i].returns()
            ends += 1
    assert ends >= 3
    assert totals.sum(axis=0).tolist() == returned.tolist()  # nothing paid but the returns at the ends


def test_refusals_are_clear() -> None:
    with pytest.raises(BadBotSpec, match="no bot named 'nobody'"):
        VectorEnv("hearts", 2, opponents="nobody", backend="python")
    with pytest.raises(GameError, match="seat must be a seat of the 4-player game"):
        VectorEnv("hearts", 2, seat=4, backend="python")
    with pytest.raises(GameError, match="num_envs must be"):
        VectorEnv("hearts", 0, backend="python")
    with pytest.raises(GameError, match="autoreset_mode must be one of next_step, same_step, disabled"):
        VectorEnv("hearts", 2, autoreset_mode="later", backend="python")
    env = VectorEnv("kuhn-poker", 2, backend="python")
    with pytest.raises(GameError, match="call reset"):
        env.step(np.zeros(2, int))
    obs, _ = env.reset(seed=0)
    with pytest.raises(GameError, match=r"one action per match: shape \(2,\)"):
        env.step(np.zeros(3, int))
    for seed in (-1, [0, -2], [0, 1.5], "7", True):
        with pytest.raises(GameError, match="seeds are whole numbers from 0 up"):
            env.reset(seed=seed)
    with pytest.raises(GameError, match="3 seeds for 2 matches"):
        env.reset(seed=[1, 2, 3])
    assert env.reset(seed=np.int64(5))[0]["observation"].tolist() == env.reset(seed=5)[0]["observation"].tolist()
    by_array, _ = env.reset(seed=np.array([3, 4]))
    assert by_array["observation"].tolist() == env.reset(seed=[3, 4])[0]["observation"].tolist()
    obs, _ = env.reset(seed=0)
    bad = np.flatnonzero(obs["action_mask"][0] == 0)[0]
    with pytest.raises(IllegalAction, match=f"match 0: action {bad} is not legal for"):
        env.step(np.array([bad, np.flatnonzero(obs["action_mask"][1])[0]]))


def test_bots_as_opponents() -> None:
    """ISMCTS opponents search their own seats' information: a few Kuhn poker matches against them."""
    env = VectorEnv("kuhn-poker", 2, seat=1, opponents="ismcts(iterations=20)", backend="python")
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    ends = 0
    for _ in range(12):
        obs, rewards, terms, _, _ = env.step(_random_actions(rng, obs["action_mask"]))
        ends += int(terms.sum())
    assert ends > 0
    assert _check_against_references("kuhn-poker", 2, 0, "ismcts(iterations=10)", 12) > 0


@pytest.mark.parametrize("name,players,seat,observation", [
    ("hearts", 4, 0, "observation"), ("go-fish", 3, None, "observation"), ("kuhn-poker", 2, 1, "observation"),
    ("go-fish", 2, 0, "information_state")])
def test_rows_ignore_hidden_cards(name: str, players: int, seat: int | None, observation: str) -> None:
    """Permuting, in a match, the cards a row's seat cannot see leaves the row (tensor, mask, seat) as it was."""
    env = VectorEnv(name, 4, players, seat=seat, backend="python", copy=False, observation=observation)
    obs, infos = env.reset(seed=9)
    rng, prng = np.random.default_rng(9), random.Random(9)
    checked = 0
    for _ in range(25):
        for i in range(env.num_envs):
            s = env._states[i]
            p = int(infos["player"][i])
            if not hidden_places(s, p):
                continue
            row = (obs["observation"][i].tolist(), obs["action_mask"][i].tolist(), p)
            env._states[i] = permute_hidden(s, p, prng)
            env._write(i)
            assert (obs["observation"][i].tolist(), obs["action_mask"][i].tolist(), int(env._player[i])) \
                == row, f"{name}: match {i}'s row changed when P{p}'s hidden cards were permuted"
            env._states[i] = s
            env._write(i)
            checked += 1
        obs, _, _, _, infos = env.step(_random_actions(rng, obs["action_mask"]))
    assert checked > 20


def _can_build() -> bool:
    from cardsmith.native import build
    return build.missing() is None


@pytest.mark.slow
@pytest.mark.skipif(not _can_build(), reason="the native backend cannot be built here")
@pytest.mark.parametrize("name,players,seat,opponents,observation", [
    ("kuhn-poker", 2, 0, "random", "observation"), ("hearts", 4, 1, "random", "observation"),
    ("go-fish", 2, None, "random", "observation"), ("go-fish", 2, 0, "random", "information_state"),
    ("kuhn-poker", 2, 1, "ismcts(iterations=30)", "observation")])  # its decisions native, the same as in Python
def test_the_native_backend_gives_the_same_rows(name: str, players: int, seat: int | None, opponents: str,
                                                observation: str) -> None:
    python = VectorEnv(name, 4, players, seat=seat, opponents=opponents, backend="python", autoreset_mode="same_step",
                       observation=observation)
    native = VectorEnv(name, 4, players, seat=seat, opponents=opponents, backend="native", autoreset_mode="same_step",
                       observation=observation)
    assert native.game.backend == "native"
    a, b = _trajectory(python, 21, 120), _trajectory(native, 21, 120)
    assert _same(a, b)
    assert sum(int(t.sum()) for t in a[3::3]) > 0  # matches ended along the way
