"""N matches of one rule file stepped together: a `gymnasium.vector.VectorEnv` for batched reinforcement learning.

    from cardsmith.vector import VectorEnv
    envs = VectorEnv("my-game.yaml", num_envs=64, seat=0, opponents="random")
    obs, infos = envs.reset(seed=1)                   # obs["observation"]: (64, size) float32
    while training:
        actions = policy(obs["observation"], obs["action_mask"])      # one action id per match
        obs, rewards, terminations, truncations, infos = envs.step(actions)

Two ways to seat the learner:
- `seat=p` (the default, seat 0): the learner plays seat p of every match; the other seats are bots given as
  `cardsmith simulate --bots` takes them (`opponents`: specs for the other seats in seat order, the last one
  filling the seats left; `bots/spec.py`), each seeded from its match's seed as `simulate` seeds them. A step
  applies the learner's action and then the bots' moves until the learner is to act again or the match ends.
  `rewards` has shape (N,): the learner's return when its match ends, else 0.
- `seat=None`: every seat is the learner (self-play). A step applies one action, of the seat to act;
  `infos["player"]` says whose observation and mask each row holds (the seat to act; at the end of a match the
  seat that moved last). `rewards` has shape (N, players): every seat's return when the match ends, else 0.

Observations are a dict of two batched arrays: `observation`, the seat's observation tensor (`observation=
"information_state"`: its information-state tensor), float32 (N, size); and `action_mask`, int8
(N, num_distinct_actions), 1 for the legal actions of the seat to act. Chance (shuffles, `pick`) is drawn inside
each match from its seed: the seeds of the matches come from `reset(seed=...)` (numpy's `SeedSequence`, one
stream per match slot), so a seed and the same actions replay the same matches, on either backend. Autoreset is
gymnasium's: `autoreset_mode` "next_step" (the default: the step after a match ended starts the next one, the
action ignored), "same_step" (the next match starts at once; `infos["final_obs"]` holds the last observation)
or "disabled" (`reset(options={"reset_mask": ...})` starts matches again).

`game`: a rule file's path, a bundled game's name (at `players`, its fewest by default, and `options`), or a
loaded `Game`, which runs on the backend it was loaded on. `backend`: "auto" (native where the game can be built
here; `$CARDSMITH_BACKEND` where that is set), "native" or "python"; `cardsmith.load`'s words.
On the native backend the matches are native states stepped from Python: moves, legal actions, returns and
the bots' moves are native; the tensors are still written by the Python backend's code on each state's
Python twin (native/wrapper.py), which is kept in step. Both backends give the same observations, masks and
rewards for the same seeds and actions (tests/test_vector.py).
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as _GymVectorEnv
from gymnasium.vector.utils import batch_space

from .api import load as _load
from .bots import SeatView, make_bot, parse_bots, seat_seed, strategy_names
from .engine import tensors
from .engine.backends import default_backend
from .engine.errors import GameError, IllegalAction
from .engine.game import Game

_MODES = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP,
          "disabled": AutoresetMode.DISABLED}


class VectorEnv(_GymVectorEnv):  # type: ignore[misc]
    """`num_envs` matches of one game, stepped together (the module's docstring says how)."""

    def __init__(self, game: str | Path | Game, num_envs: int, players: int | None = None,
                 options: Mapping[str, Any] | None = None, *, seat: int | None = 0,
                 opponents: str | Sequence[str] = "random", observation: str = "observation",
                 backend: str | None = None, autoreset_mode: str | AutoresetMode = "next_step",
                 copy: bool = True) -> None:
        if isinstance(game, Game):
            self.game = game
        else:
            if players is None:
                players = _fewest_players(game)
            self.game = _load(game, players, options, backend=backend or default_backend())
        g = self.game
        if type(num_envs) is not int or num_envs < 1:
            raise GameError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
        if seat is not None and (type(seat) is not int or not 0 <= seat < g.n):
            raise GameError(f"seat must be a seat of the {g.n}-player game (0 to {g.n - 1}) or None, not {seat!r}")
        if observation not in ("observation", "information_state"):
            raise GameError(f"observation must be 'observation' or 'information_state', not {observation!r}")
        mode = autoreset_mode if isinstance(autoreset_mode, AutoresetMode) else _MODES.get(str(autoreset_mode))
        if mode is None:
            raise GameError(f"autoreset_mode must be one of {', '.join(_MODES)}, not {autoreset_mode!r}")
        self.num_envs = num_envs
        self.seat = seat
        self.autoreset_mode = mode
        self.metadata = {"autoreset_mode": mode, "render_modes": []}
        self.copy = copy
        self._info_state = observation == "information_state"
        shape = tensors.information_state_tensor_shape(g) if self._info_state else tensors.observation_tensor_shape(g)
        self._size = int(shape[0])
        self._num_actions = g.num_distinct_actions()
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(self._size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self._num_actions,), dtype=np.int8)})
        self.single_action_space = spaces.Discrete(self._num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        # The bots of the other seats: parsed once (a bad spec is refused here, by name), made per match.
        self._specs: list[Any] = []
        if seat is not None:
            text = opponents if isinstance(opponents, str) else ", ".join(opponents)
            others = parse_bots(text, g.n - 1, strategy_names(g)) if g.n > 1 else []
            self._specs = others[:seat] + [None] + others[seat:]
        self._obs = np.zeros((num_envs, self._size), np.float32)
        self._mask = np.zeros((num_envs, self._num_actions), np.int8)
        self._player = np.zeros(num_envs, np.int64)
        self._states: list[Any] = [None] * num_envs
        self._bots: list[list[Any]] = [[] for _ in range(num_envs)]
        self._legal: list[list[int]] = [[] for _ in range(num_envs)]
        self._done = np.zeros(num_envs, np.bool_)
        self._seeders: list[np.random.Generator] = []
        self.match_seeds = [0] * num_envs  # the seed of each slot's current match (`cardsmith run --seed`'s)

    # ------------------------------------------------------------ gymnasium's interface
    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a match in every slot (or in those of `options["reset_mask"]`). `seed` seeds the matches'
        seeds: an int for all slots, or one per slot; without one, the slots go on drawing from the seeds
        they had (from the OS the first time)."""
        if seed is not None:
            seed = _seeds(seed)
        if isinstance(seed, int):
            super().reset(seed=seed)  # gymnasium's own `np_random`, seeded as every vector env seeds it
        if seed is not None or not self._seeders:
            if seed is None or isinstance(seed, int):
                streams = np.random.SeedSequence(seed).spawn(self.num_envs)
            else:
                if len(seed) != self.num_envs:
                    raise GameError(f"{len(seed)} seeds for {self.num_envs} matches")
                streams = [np.random.SeedSequence(x) for x in seed]
            self._seeders = [np.random.default_rng(s) for s in streams]
        mask = np.ones(self.num_envs, np.bool_)
        if options and "reset_mask" in options:
            mask = np.asarray(options["reset_mask"], np.bool_)
            if mask.shape != (self.num_envs,):
                raise GameError(f"reset_mask must have shape ({self.num_envs},), not {mask.shape}")
        for i in np.flatnonzero(mask):
            self._start(int(i))
            self._write(int(i))
        return self._observations(), self._infos()

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._seeders:
            raise GameError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,):
            raise GameError(f"step takes one action per match: shape ({self.num_envs},), not {acts.shape}")
        n = self.num_envs
        rewards = np.zeros(n if self.seat is not None else (n, self.game.n), np.float32)
        terminations = np.zeros(n, np.bool_)
        finals: dict[int, dict[str, np.ndarray]] = {}
        for i in range(n):
            if self._done[i]:
                if self.autoreset_mode == AutoresetMode.DISABLED:
                    raise GameError(f"match {i} has ended: reset it (reset_mask) before stepping it "
                                    f"(autoreset_mode='disabled')")
                self._start(i)  # next_step: the action for a finished match is ignored
                self._write(i)
                continue
            s = self._states[i]
            a = int(acts[i])
            if a not in self._legal[i]:
                p = int(self._player[i])
                raise IllegalAction(f"match {i}: action {a} is not legal for {self.game.player_name(p)}; the legal "
                                    f"actions are {_some(self._legal[i])}")
            s.apply_action(a)
            self._advance(i)
            if s.is_terminal():
                returns = s.returns()
                if self.seat is not None:
                    rewards[i] = returns[self.seat]
                else:
                    rewards[i] = returns
                terminations[i] = True
                self._done[i] = True
            self._write(i)
            if self._done[i] and self.autoreset_mode == AutoresetMode.SAME_STEP:
                finals[i] = {"observation": self._obs[i].copy(), "action_mask": self._mask[i].copy()}
                self._start(i)
                self._write(i)
        infos = self._infos()
        if finals:
            final = np.full(n, None, dtype=object)
            for i, o in finals.items():
                final[i] = o
            infos["final_obs"] = final
            infos["_final_obs"] = np.isin(np.arange(n), list(finals))
        return self._observations(), rewards, terminations, np.zeros(n, np.bool_), infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of each match as booleans (N, num_distinct_actions): sb3-contrib's convention."""
        return self._mask.astype(np.bool_)

    def close_extras(self, **kwargs: Any) -> None:
        self._states = [None] * self.num_envs

    # ------------------------------------------------------------ the matches
    def _start(self, i: int) -> None:
        """A new match in slot i, with its bots, moved on to the learner's first decision. A match that ends
        before the learner's seat acts (the bots play it out alone) is not shown: the next one is dealt."""
        for _ in range(1000):
            seed = int(self._seeders[i].integers(2**63))
            self.match_seeds[i] = seed
            s = self._states[i] = self.game.new_initial_state(seed=seed)
            if self.seat is not None:
                self._bots[i] = [None if spec is None else make_bot(spec, self.game, p, seat_seed(seed, p))
                                 for p, spec in enumerate(self._specs)]
            self._advance(i)
            self._done[i] = False
            if not s.is_terminal():
                return
        raise GameError(f"1,000 matches in a row ended before seat {self.seat} acted")

    def _advance(self, i: int) -> None:
        """The bots' moves until the learner is to act or the match is over (nothing to do in self-play)."""
        if self.seat is None:
            return
        s = self._states[i]
        bots = self._bots[i]
        seat = self.seat
        while not s.is_terminal():
            p = s.current_player()
            if p == seat:
                return
            s.apply_action(bots[p].choose(SeatView(s, p)))

    def _write(self, i: int) -> None:
        """Slot i's row of the observations and masks: the seat to act's (the learner's seat, with a bot
        learner), or at the end the learner's seat (self-play: the seat that moved last)."""
        s = self._states[i]
        obs = self._obs[i]
        mask = self._mask[i]
        mask[:] = 0
        if s.is_terminal():
            # self-play: the row's seat is still the one that made the last move (one move a step)
            p = self.seat if self.seat is not None else int(self._player[i])
            self._legal[i] = []
        else:
            p = s.current_player()
            legal = self._legal[i] = s.legal_actions()
            mask[legal] = 1
        self._player[i] = p
        if self._info_state:
            obs[:] = s.information_state_tensor(p)
        else:
            obs[:] = 0.0
            s._evaluating(tensors.write_observation, p, obs)  # a `visible` rule's failure located

    def _observations(self) -> dict[str, np.ndarray]:
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
        return {"observation": self._obs, "action_mask": self._mask}

    def _infos(self) -> dict[str, Any]:
        return {"player": self._player.copy()}


def _seeds(seed: Any) -> int | list[int]:
    """A seed, or one per slot, as whole numbers from 0 up (numpy's integers too); else a GameError."""
    many = not isinstance(seed, (int, np.integer))
    try:
        items = list(seed) if many and not isinstance(seed, (str, bytes)) else [seed]  # (a list, a numpy array)
        out = [-1 if isinstance(x, bool) else operator.index(x) for x in items]
    except TypeError:
        out = [-1]
    if any(x < 0 for x in out):
        raise GameError(f"seeds are whole numbers from 0 up, not {seed!r}")
    return out if many else out[0]


def _some(actions: list[int]) -> str:
    return ", ".join(map(str, actions[:12])) + (f" and {len(actions) - 12} more" if len(actions) > 12 else "") \
        if actions else "none (the match is over)"


def _fewest_players(game: str | Path) -> int:
    """The rule file's fewest players (as the PettingZoo environment chooses where none is given)."""
    from .dsl.pipeline import compile_file
    from .engine.bundled import resolve
    path = resolve(str(game)) if isinstance(game, str) else game
    r = compile_file(path)
    return r.game.spec.min_players if r.ok and r.game is not None else 2


__all__ = ["VectorEnv"]
