"""Any rule file as a PettingZoo AEC environment, for multi-agent reinforcement learning.

    from cardsmith.pettingzoo import env
    e = env("my-game.yaml", players=3, render_mode="ansi")  # a rule file, or a bundled game by name
    e.reset(seed=42)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are `player_0` ... `player_<n-1>` (the seats). Chance (shuffles and `pick`) is resolved inside the
environment from the seed given to `reset`, so only players act. Each observation is a dict:
`observation`, the player's observation tensor (`cardsmith.engine.tensors`, float32; the information state
tensor with `information_state=True`) in a Box bounded block by block (`cardsmith.rlspaces`), and
`action_mask`, one int8 per action id (1 for the legal ones of the agent to act, all 0 for the others);
`infos[agent]["action_mask"]` holds the same mask. Rewards are the match's returns, given when it ends (every
agent is then terminated, eliminated ones included: a seat stays an agent for the whole match).
`metadata["name"]` is versioned by the rule file's content: `cardsmith_<game>_v<8 hex digits>`.

`env()` is wrapped as PettingZoo's classic environments are (TerminateIllegalWrapper, AssertOutOfBoundsWrapper,
OrderEnforcingWrapper): an illegal action ends the match with `illegal_reward` for the agent that took it
(default: the game's lowest return) and 0 for the others. `raw_env()` is the environment unwrapped, where an
illegal action raises `IllegalAction`. `render_mode="ansi"`: `render()` returns the table as the agent to act
sees it, with its legal actions. `backend=...`: the backend it runs on ("auto" where none is given: native
where it can be built here; `cardsmith.load`'s words). Needs the `rl` extra (`pip install cardsmith[rl]`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.agent_selector import AgentSelector

from . import rlspaces
from .engine.game import Game
from .engine.state import State


class _Actions(spaces.Discrete):  # type: ignore[misc]
    """The action space of an agent, seeded when it is first sampled from: `reset(seed=...)` seeds every
    agent's space, and making numpy's generators costs more than dealing a match, for a space a learner
    rarely samples (it is the same generator, from the same seed, as an eager seed gives)."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self._seed: int | None = None

    def seed(self, seed: Any = None) -> Any:
        if type(seed) is not int or seed < 0:
            self._seed = None
            return super().seed(seed)  # gymnasium's own checks and its seed from entropy
        self._np_random = None  # type: ignore[assignment]  # gymnasium's own "not seeded yet"
        self._seed = seed
        return seed

    @property
    def np_random(self) -> np.random.Generator:
        if self._np_random is None and self._seed is not None:
            super().seed(self._seed)
            self._seed = None
        return super().np_random  # type: ignore[no-any-return]


class CardsmithEnv(AECEnv):  # type: ignore[misc]
    """The raw AEC environment (`raw_env`): an illegal action raises `IllegalAction` and leaves the state."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "name": "cardsmith_v0",
                                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game: str | Path | Game, players: int | None = None,
                 options: Mapping[str, Any] | None = None, render_mode: str | None = None,
                 backend: str | None = None, information_state: bool = False) -> None:
        super().__init__()
        self.game = rlspaces.load_game(game, players, options, backend)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        g = self.game
        self.metadata = dict(self.metadata, name=rlspaces.versioned_name(g))
        self.information_state = bool(information_state)
        self.possible_agents = [f"player_{p}" for p in range(g.n)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        low, high = rlspaces.tensor_bounds(g, self.information_state)
        self._size = rlspaces.tensor_size(g, self.information_state)
        self._num_actions = g.num_distinct_actions()
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=low, high=high, shape=(self._size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self._num_actions,), dtype=np.int8),
            }) for a in self.possible_agents}
        self.action_spaces = {a: _Actions(self._num_actions) for a in self.possible_agents}
        # The mask of an agent not to act: shared, so read-only.
        self._no_actions = np.zeros(self._num_actions, np.int8)
        self._no_actions.flags.writeable = False
        self._rng = random.Random()
        self.state: State | None = None

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
            for i, a in enumerate(self.possible_agents):
                self.action_spaces[a].seed(seed + i)
        self.state = self.game.new_initial_state(seed=self._rng.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {"action_mask": self._no_actions} for a in self.agents}
        self._agent_selector = AgentSelector(self.agents)
        self._after_move()

    def _after_move(self) -> None:
        s = self.state
        assert s is not None
        for info in self.infos.values():
            info["action_mask"] = self._no_actions
        if s.is_terminal():
            for a, r in zip(self.possible_agents, s.returns()):
                self.rewards[a] = float(r)
                self.terminations[a] = True
            self._agent_selector.reinit(self.agents)
            self.agent_selection = self._agent_selector.next()
        else:
            p = s.current_player()
            self.agent_selection = self.possible_agents[p]
            self.infos[self.agent_selection]["action_mask"] = rlspaces.action_mask(s, p, self._num_actions)

    def observe(self, agent: str) -> dict[str, Any]:
        s = self.state
        assert s is not None
        p = self._seat[agent]
        return {"observation": rlspaces.tensor(s, p, self.information_state, self._size),
                "action_mask": rlspaces.action_mask(s, p, self._num_actions)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s = self.state
        assert s is not None
        self._cumulative_rewards[agent] = 0.0
        s.apply_action(int(action))  # an illegal action raises IllegalAction and leaves the state as it was
        self._after_move()
        if s.is_terminal():  # before the end every reward is 0: there is nothing to add up
            self._accumulate_rewards()

    def render(self) -> Any:
        if self.render_mode is None:
            return None
        s = self.state
        if s is None:
            if self.render_mode == "rgb_array":
                raise RuntimeError("the match has not started (call reset)")
            return "the match has not started (call reset)"
        if self.render_mode == "rgb_array":
            from .rlrender import rgb_frame
            return rgb_frame(s, self._seat[self.agent_selection])  # type: ignore[no-any-return]
        return rlspaces.ansi(s)

    def close(self) -> None:
        pass


class _Ordered(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order checks, keeping what `CardsmithEnv` offers: `state` is the cardsmith `State` (not
    AECEnv's global-state method, which these environments do not provide) and `render()` without a render
    mode is None, before `reset` too, as it is on the raw environment."""

    @property
    def state(self) -> State | None:  # type: ignore[override]
        return self.env.unwrapped.state  # type: ignore[no-any-return]

    def render(self) -> Any:
        if self.env.unwrapped.render_mode is None:
            return None
        return super().render()


def raw_env(game: str | Path | Game, players: int | None = None, options: Mapping[str, Any] | None = None,
            render_mode: str | None = None, backend: str | None = None,
            information_state: bool = False) -> CardsmithEnv:
    """The unwrapped AEC environment of a rule file: an illegal action raises `IllegalAction`."""
    return CardsmithEnv(game, players, options, render_mode, backend, information_state)


def env(game: str | Path | Game, players: int | None = None, options: Mapping[str, Any] | None = None,
        render_mode: str | None = None, backend: str | None = None, information_state: bool = False,
        illegal_reward: float | None = None) -> Any:
    """The AEC environment of a rule file (a path, a bundled game's name or a `Game`), wrapped as PettingZoo's
    classic environments are: an illegal action ends the match, the agent that took it gets `illegal_reward`
    (default: the game's lowest return, `illegal_penalty`) and every other agent 0 (TerminateIllegalWrapper);
    an action outside the action space is an AssertionError; calls out of order raise. `backend`: "auto" (the
    default where none is given: native where it can be built here, else Python with a one-line warning;
    $CARDSMITH_BACKEND where that is set), "native" or "python". A `Game` runs on the backend it was loaded on.
    `information_state=True`: observations hold the information state tensor instead of the observation's."""
    e = raw_env(game, players, options, render_mode, backend, information_state)
    penalty = rlspaces.illegal_penalty(e.game) if illegal_reward is None else float(illegal_reward)
    wrapped = wrappers.TerminateIllegalWrapper(e, illegal_reward=penalty)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return _Ordered(wrapped)


__all__ = ["CardsmithEnv", "env", "raw_env"]
