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
`observation`, the player's observation tensor (`cardsmith.engine.tensors`, float32), and `action_mask`,
one int8 per action id (1 for the legal ones of the agent to act, all 0 for the others). Rewards are the
match's returns, given when it ends (every agent is then terminated, eliminated ones included: a seat
stays an agent for the whole match). `render_mode="ansi"`: `render()` returns the table as the agent to
act sees it, with its legal actions. `env(..., backend=...)`: the backend it runs on ("auto" where none is given:
native where it can be built here; `cardsmith.load`'s words). Needs the `rl` extra (`pip install cardsmith[rl]`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.agent_selector import AgentSelector

from .api import load as _load
from .engine import tensors
from .engine.backends import default_backend
from .engine.game import Game
from .engine.state import State
from .engine.text import one_line


def _raw_lines(g: Game, obs: dict[str, Any]) -> str:
    """An observation as raw lines (zone and variable names as the rule file writes them): the `ansi` render,
    for researchers who debug an agent. The table a person plays at is `cardsmith.table.terminal.Painter`'s."""
    lines = [f"-- deal {obs['deal']}, phase {obs['phase']}, dealer {g.player_name(obs['dealer'])}"]
    for name, v in obs["zones"].items():
        if isinstance(v, list):
            if v:
                lines.append(f"   {name}: {', '.join(v)}")
        elif v:
            lines.append(f"   {name}: {v} card(s), face down")
    for name, v in obs["variables"].items():
        lines.append(f"   {name} = {v}")
    return "\n".join(lines)


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
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "cardsmith_v0", "is_parallelizable": False}

    def __init__(self, game: str | Path | Game, players: int | None = None,
                 options: Mapping[str, Any] | None = None, render_mode: str | None = None,
                 backend: str | None = None) -> None:
        super().__init__()
        if isinstance(game, Game):
            self.game = game
        else:
            if players is None:
                from .dsl.pipeline import compile_file
                from .engine.bundled import resolve
                path = resolve(str(game)) if isinstance(game, str) else game
                r = compile_file(path)
                players = r.game.spec.min_players if r.ok and r.game is not None else 2
            self.game = _load(game, players, options, backend=backend or default_backend())
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        g = self.game
        self.metadata = dict(self.metadata, name=f"cardsmith_{g.name}")
        self.possible_agents = [f"player_{p}" for p in range(g.n)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        size = tensors.observation_tensor_shape(g)[0]
        self._num_actions = g.num_distinct_actions()
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self._num_actions,), dtype=np.int8),
            }) for a in self.possible_agents}
        self.action_spaces = {a: _Actions(self._num_actions) for a in self.possible_agents}
        self._size = size
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
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._agent_selector = AgentSelector(self.agents)
        self._after_move()

    def _after_move(self) -> None:
        s = self.state
        assert s is not None
        if s.is_terminal():
            for a, r in zip(self.possible_agents, s.returns()):
                self.rewards[a] = float(r)
                self.terminations[a] = True
            self._agent_selector.reinit(self.agents)
            self.agent_selection = self._agent_selector.next()
        else:
            self.agent_selection = self.possible_agents[s.current_player()]

    def observe(self, agent: str) -> dict[str, Any]:
        s = self.state
        assert s is not None
        p = self._seat[agent]
        flags = bytearray(self._num_actions)  # zeros, and cheaper to set one by one than numpy's
        if s.current_player() == p:
            for a in s.legal_actions():
                flags[a] = 1
        mask = np.frombuffer(flags, np.int8)
        obs = np.zeros(self._size, np.float32)
        s._evaluating(tensors.write_observation, p, obs)  # rule errors of `visible` rules located
        return {"observation": obs, "action_mask": mask}

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

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        s = self.state
        if s is None:
            return "the match has not started (call reset)"
        g = self.game
        if s.is_terminal():
            names = " and ".join(g.player_name(p) for p in s.winners) or "nobody"
            return f"the match is over; winners: {names}"
        p = s.current_player()
        lines = [f"{g.name}: {g.player_name(p)} to act, as {g.player_name(p)} sees the table",
                 *map(one_line, _raw_lines(g, s.observation(p)).split("\n"))]
        lines += [one_line(f"   [{a}] {s.action_to_string(p, a)}") for a in s.legal_actions()]
        return "\n".join(lines)

    def close(self) -> None:
        pass


def env(game: str | Path | Game, players: int | None = None, options: Mapping[str, Any] | None = None,
        render_mode: str | None = None, backend: str | None = None) -> CardsmithEnv:
    """The AEC environment of a rule file (a path, a bundled game's name or a `Game`), on `backend`: "auto" (the
    default where none is given: native where it can be built here, else Python with a one-line warning;
    $CARDSMITH_BACKEND where that is set), "native" or "python". A `Game` runs on the backend it was loaded on."""
    return CardsmithEnv(game, players, options, render_mode, backend)


__all__ = ["CardsmithEnv", "env"]
