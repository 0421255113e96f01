"""Any rule file as a single-agent Gymnasium environment: the learner takes one seat, bundled bots the others.

    import gymnasium
    import cardsmith.gymnasium  # registers cardsmith/<Game>-v0 for every bundled game
    env = gymnasium.make("cardsmith/<Game>-v0", opponents="greedy", seat=0)
    # or, with no import first: gymnasium.make("cardsmith.gymnasium:cardsmith/<Game>-v0", ...)
    obs, info = env.reset(seed=42)
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample(info["action_mask"]))

A bundled game's id is its file name in CamelCase (`my-game` -> `cardsmith/MyGame-v0`); any rule file is
`gymnasium.make("cardsmith/RuleFile-v0", game="my-game.yaml", ...)` or `CardsmithGymEnv("my-game.yaml", ...)`.
Arguments: `players` (default: the rule file's fewest), `options`, `seat` (the learner's, default 0),
`opponents` (bot specs as `cardsmith simulate --bots` takes them, one per other seat in seat order, the last
filling the seats left: "random", "greedy", "ismcts(iterations=50)", "greedy, random", a strategy of the rule
file), `illegal_reward` (default: the game's lowest return, or -1), `information_state` (observe the
information state tensor), `flatten` (observe the tensor alone, the mask in `info` only), `render_mode`
("ansi" or "rgb_array": `cardsmith.rlrender`) and `backend`.

Chance and the bots' choices are drawn from the seed given to `reset` (each bot from
`bots.spec.seat_seed(match seed, seat)`, as `cardsmith simulate` seeds them), so a seed and the learner's
actions replay an episode exactly. The observation is a Dict: `observation` (the learner's tensor, float32,
bounded block by block: `cardsmith.rlspaces`) and `action_mask` (int8, 1 for each legal action id);
`info["action_mask"]` holds the mask too, and `action_masks()` returns it as bools (sb3-contrib's MaskablePPO
asks for that). The reward is 0 until the match ends, then the learner's return. An illegal action ends the
episode (terminated) with `illegal_reward` and `info["illegal_action"] = True`. Needs the `rl` extra.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from . import rlspaces
from .bots import SeatView, make_bot, parse_bots, seat_seed, strategy_names
from .bots.spec import check_bots
from .engine.bundled import bundled_games
from .engine.errors import GameError
from .engine.game import Game

NAMESPACE = "cardsmith"


class CardsmithGymEnv(gymnasium.Env):  # type: ignore[misc]
    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1, "name": "cardsmith_v0"}

    def __init__(self, game: str | Path | Game, players: int | None = None, options: Mapping[str, Any] | None = None,
                 seat: int = 0, opponents: str | Sequence[str] = "random", illegal_reward: float | None = None,
                 information_state: bool = False, flatten: bool = False, render_mode: str | None = None,
                 backend: str | None = None) -> None:
        self.game = g = rlspaces.load_game(game, players, options, backend)
        if type(seat) is not int or not 0 <= seat < g.n:
            raise GameError(f"seat must be a seat of the game, 0 to {g.n - 1}, not {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=rlspaces.versioned_name(g))
        self.seat = seat
        text = opponents if isinstance(opponents, str) else ", ".join(opponents)
        others = [p for p in range(g.n) if p != seat]
        specs = parse_bots(text, len(others), strategy_names(g)) if others else []
        check_bots(specs, g)
        self.opponents = dict(zip(others, specs))
        self.illegal_reward = rlspaces.illegal_penalty(g) if illegal_reward is None else float(illegal_reward)
        self.information_state = bool(information_state)
        self.flatten = bool(flatten)
        self._size = rlspaces.tensor_size(g, self.information_state)
        self._num_actions = g.num_distinct_actions()
        low, high = rlspaces.tensor_bounds(g, self.information_state)
        box = spaces.Box(low=low, high=high, shape=(self._size,), dtype=np.float32)
        self.observation_space = box if self.flatten else spaces.Dict({
            "observation": box, "action_mask": spaces.Box(0, 1, shape=(self._num_actions,), dtype=np.int8)})
        self.action_space = spaces.Discrete(self._num_actions)
        self._rng = random.Random()
        self.state: Any = None
        self._bots: dict[int, Any] = {}
        self._ended = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        match_seed = self._rng.getrandbits(63)
        self.state = self.game.new_initial_state(seed=match_seed)
        self._bots = {p: make_bot(spec, self.game, p, seat_seed(match_seed, p)) for p, spec in self.opponents.items()}
        self._ended = False
        self._play_opponents()
        return self._observation(), self._info()

    def _play_opponents(self) -> None:
        s = self.state
        while not s.is_terminal() and s.current_player() != self.seat:
            p = s.current_player()
            s.apply_action(self._bots[p].choose(SeatView(s, p)))

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        s = self.state
        if s is None:
            raise GameError("call reset() before step()")
        if self._ended:
            return self._observation(), 0.0, True, False, self._info()
        if s.is_terminal():  # the match ended before the learner's first move: its return is still its reward
            self._ended = True
            return self._observation(), float(s.returns()[self.seat]), True, False, self._info()
        a = int(action)
        if a not in s.legal_actions():
            self._ended = True
            return self._observation(), self.illegal_reward, True, False, self._info(illegal_action=True)
        s.apply_action(a)
        self._play_opponents()
        if s.is_terminal():
            self._ended = True
            return self._observation(), float(s.returns()[self.seat]), True, False, self._info()
        return self._observation(), 0.0, False, False, self._info()

    def _mask(self) -> np.ndarray:
        if self._ended:
            return np.zeros(self._num_actions, np.int8)
        return rlspaces.action_mask(self.state, self.seat, self._num_actions)

    def _observation(self) -> Any:
        obs = rlspaces.tensor(self.state, self.seat, self.information_state, self._size)
        return obs if self.flatten else {"observation": obs, "action_mask": self._mask()}

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self._mask(), **extra}

    def action_masks(self) -> np.ndarray:
        """The legal actions as bools, one per action id (sb3-contrib's MaskablePPO calls this)."""
        return self._mask().astype(bool)

    def render(self) -> Any:
        if self.render_mode is None:
            return None
        if self.state is None:
            if self.render_mode == "rgb_array":
                raise RuntimeError("the match has not started (call reset)")
            return "the match has not started (call reset)"
        if self.render_mode == "rgb_array":
            from .rlrender import rgb_frame
            return rgb_frame(self.state, self.seat)
        return rlspaces.ansi(self.state, self.seat)

    def close(self) -> None:
        pass


def env_id(name: str) -> str:
    """The Gymnasium id of a bundled game: `cardsmith/<its file name in CamelCase>-v0`."""
    return f"{NAMESPACE}/{''.join(part.capitalize() for part in name.replace('_', '-').split('-'))}-v0"


# Any rule file: `gymnasium.make("cardsmith/RuleFile-v0", game="my-game.yaml")`.
RULE_FILE_ID = f"{NAMESPACE}/RuleFile-v0"


def register_envs() -> list[str]:
    """Register every bundled game with Gymnasium (done on import); the bundled games' ids. `RULE_FILE_ID` is
    registered too, for a rule file given as `game=`."""
    ids = []
    for name in bundled_games():
        ident = env_id(name)
        if ident not in gymnasium.registry:
            gymnasium.register(id=ident, entry_point=f"{__name__}:CardsmithGymEnv", kwargs={"game": name})
        ids.append(ident)
    if RULE_FILE_ID not in gymnasium.registry:
        gymnasium.register(id=RULE_FILE_ID, entry_point=f"{__name__}:CardsmithGymEnv")
    return ids


ENV_IDS = register_envs()

__all__ = ["ENV_IDS", "RULE_FILE_ID", "CardsmithGymEnv", "env_id", "register_envs"]
